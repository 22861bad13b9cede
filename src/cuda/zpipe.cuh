/* The lifting stream along one line in a short register window: each new
 * pair of samples advances every lifting step of a wavelet by one position
 * (a software pipeline over the steps), so that a kernel walking a line
 * pair by pair lifts it with no halo reloaded.  The fused 3-D engine runs it
 * along z (k_tile3d_stream.cuh).  Host and device code. */
#ifndef LW_ZPIPE_CUH
#define LW_ZPIPE_CUH

#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"

/* ---- the z pipeline's schedule (compile time) ------------------------------
 * A register window v[0..nw) holds consecutive positions of the extended line;
 * a step shifts it by two and appends the new raw pair at nw-2 (even), nw-1.
 * Lifting step number ss (in execution order: forward 0.., inverse reversed)
 * then updates exactly one position, j[ss]: the newest one of its parity
 *   - that every earlier step of its parity has reached,
 *   - whose taps every earlier step of their parity has reached, and
 *   - that every earlier step of the other parity no longer needs as a tap
 *     (so no tap is read after a later step changed it).
 * Positions are final once every step has passed them: the output pair sits
 * at jo, jo+1, dp pairs behind the newest input pair. */
#define LWK_T3_MAXSTEP 8
struct t3_zsched {
    int nw, jo, dp;
    int j[LWK_T3_MAXSTEP];
};

__host__ __device__ constexpr t3_zsched t3_make_zsched(int W, int inv)
{
    t3_zsched r{};
    const int big = 64, ns = sh_nsteps(W);
    int lo = big, fin[2] = {big - 2, big - 1}; /* newest position of each parity that all steps so far reached */
    for (int ss = 0; ss < ns; ss++) {
        const int s = inv ? ns - 1 - ss : ss, p = sh_par(W, s);
        int j = fin[p];
        for (int i = 0; i < sh_ntaps(W, s); i++) {
            const int o = sh_off(W, s, i);
            if (fin[1 - p] - o < j) j = fin[1 - p] - o;
            if (j + o < lo) lo = j + o;
        }
        for (int e = 0; e < ss; e++) { /* earlier steps of the other parity still reading j as a tap */
            const int s2 = inv ? ns - 1 - e : e;
            if (sh_par(W, s2) == p) continue;
            for (int i = 0; i < sh_ntaps(W, s2); i++)
                if (j - sh_off(W, s2, i) > r.j[e]) j = r.j[e] + sh_off(W, s2, i);
        }
        if ((j & 1) != p) j--;
        r.j[ss] = j;
        fin[p] = j;
    }
    /* lo was taken before the last adjustments: recompute over the final j */
    lo = big;
    for (int ss = 0; ss < ns; ss++) {
        const int s = inv ? ns - 1 - ss : ss;
        for (int i = 0; i < sh_ntaps(W, s); i++)
            if (r.j[ss] + sh_off(W, s, i) < lo) lo = r.j[ss] + sh_off(W, s, i);
    }
    int jo = fin[0] < fin[1] - 1 ? fin[0] : fin[1] - 1;
    if (jo & 1) jo--;
    lo = jo < lo ? jo : lo;
    lo &= ~1; /* keep even positions at even indices */
    for (int ss = 0; ss < ns; ss++) r.j[ss] -= lo;
    r.nw = big - lo;
    r.jo = jo - lo;
    r.dp = (r.nw - 2 - r.jo) / 2;
    return r;
}

/* The wavelets whose boundary is not exact when the stream is mirrored once
 * (!tile_once_mirror_exact: d4) refresh a tap's mirror image before each
 * step in symmetric mode, as the windows do (reg_lift_steps).  The z
 * window's index 0 at position base of a line of n samples: whether a step
 * is within reach of an end, and el = -base, et = n - base (t3_zmirror's
 * places of the ends; values that match no image where an end is out of
 * reach). */
__host__ __device__ __forceinline__ bool t3_zends(int64_t base, int64_t n, int nw, int &el, int &et)
{
    el = base < 0 ? (int)-base : 0;
    et = n - base <= nw ? (int)(n - base) : nw + 1;
    return base < 0 || n - base <= nw;
}

/* The window is a ring of registers: at rotation ROT (0 .. NW/2 - 1) its
 * logical index j (the schedule's) sits in register t3_zphys(j, ROT).  A step
 * shifts the window by one pair by taking the next rotation, so no register
 * moves (the caller keeps the rotation, step a at a mod NW/2). */
template <int NW> __host__ __device__ constexpr int t3_zphys(int j, int rot) { return (j + 2 * rot) % NW; }

/* Before step ss (at index J, position P = base + J) in symmetric mode: a tap
 * at offset O past an end of the line takes the current value of its mirror
 * image (position -q at the lead, 2(n-1) - q at the trail), as the
 * reference reads through the mode at every step.  el = -base and
 * et = n - base, the ends' places in the window; the images are compile-time
 * indices, picked by comparing el and et with constants.  For d4 (taps at
 * +-1) the image then holds exactly the steps its reference value has
 * (tests/unit/test_t3_zpipe.cu checks every length and run split). */
template <int J, int O, int ROT, class T, int NW>
__host__ __device__ __forceinline__ void t3_zmirror(T (&v)[NW], int el, int et)
{
    static_assert(J + O >= 0 && J + O < NW, "tap outside the window");
    constexpr int t = t3_zphys<NW>(J + O, ROT);
    if constexpr (O < 0) {
#pragma unroll
        for (int d = 1; d <= -O; d++) /* tap at -d, image at +d */
            if (J + O + 2 * d < NW && el == J + O + d) v[t] = v[t3_zphys<NW>(J + O + 2 * d, ROT)];
    } else {
#pragma unroll
        for (int d = 1; d <= O; d++) /* tap at n - 1 + d, image at n - 1 - d */
            if (J + O - 2 * d >= 0 && et == J + O + 1 - d) v[t] = v[t3_zphys<NW>(J + O - 2 * d, ROT)];
    }
}

template <int W, int SS, int INV, int ROT, class T, int NW>
__host__ __device__ __forceinline__ void t3_zmirror_step(T (&v)[NW], int el, int et)
{
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    constexpr int s = INV ? sh_nsteps(W) - 1 - SS : SS;
    if constexpr (sh_ntaps(W, s) > 0) t3_zmirror<Z.j[SS], sh_off(W, s, 0), ROT>(v, el, et);
    if constexpr (sh_ntaps(W, s) > 1) t3_zmirror<Z.j[SS], sh_off(W, s, 1), ROT>(v, el, et);
    if constexpr (sh_ntaps(W, s) > 2) t3_zmirror<Z.j[SS], sh_off(W, s, 2), ROT>(v, el, et);
    if constexpr (sh_ntaps(W, s) > 3) t3_zmirror<Z.j[SS], sh_off(W, s, 3), ROT>(v, el, et);
}

/* step ss of the pipeline at its index Z.j[ss] */
template <int W, int INV, int SS, int ROT, class T, int NW>
__host__ __device__ __forceinline__ void t3_zstep(T (&v)[NW], const lwk_wave &w, bool refresh, int el, int et)
{
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    constexpr int s = INV ? sh_nsteps(W) - 1 - SS : SS;
    constexpr int nt = sh_ntaps(W, s), j = Z.j[SS], pj = t3_zphys<NW>(j, ROT);
    if constexpr (!tile_once_mirror_exact(W))
        if (refresh) t3_zmirror_step<W, SS, INV, ROT>(v, el, et);
    if constexpr (nt == 2 && lwc_step_symmetric(W, s)) { /* two taps at -1, +1 with one weight: x +- w * (a + b) */
        const T a = lwd_ops<T>::wt(w, s, 0) * (v[t3_zphys<NW>(j - 1, ROT)] + v[t3_zphys<NW>(j + 1, ROT)]);
        v[pj] = INV ? v[pj] - a : v[pj] + a;
    } else {
        T taps[4];
#pragma unroll
        for (int i = 0; i < 4; i++)
            if (i < nt) taps[i] = v[t3_zphys<NW>(j + sh_off(W, s, i), ROT)];
        if constexpr (nt == 1) v[pj] = tstep_i<T, 1, INV ? -1 : 1>::run(w, s, v[pj], taps);
        else if constexpr (nt == 2) v[pj] = tstep_i<T, 2, INV ? -1 : 1>::run(w, s, v[pj], taps);
        else v[pj] = tstep_i<T, 4, INV ? -1 : 1>::run(w, s, v[pj], taps);
    }
}

template <int W, int INV, int ROT, class T, int NW, int... SS>
__host__ __device__ __forceinline__ void t3_zsteps(T (&v)[NW], const lwk_wave &w, bool refresh, int el, int et,
                                                   std::integer_sequence<int, SS...>)
{
    (t3_zstep<W, INV, SS, ROT>(v, w, refresh, el, et), ...);
}

/* One pipeline step of one point at rotation ROT (the window one pair on from
 * rotation ROT - 1; SHIFT: a window of one rotation, whose registers move a
 * pair instead): append raw pair (e, o), advance every lifting step by
 * one position.  refresh (d4 in symmetric mode, a window within reach of an
 * end, t3_zends): el, et as for t3_zmirror.  Logical index j is then in
 * v[t3_zphys<NW>(j, ROT)]. */
template <class T, int W, int INV, int ROT, bool SHIFT = false, int NW>
__host__ __device__ __forceinline__ void t3_zadvance(T (&v)[NW], T e, T o, const lwk_wave &w, bool refresh = false,
                                                     int el = 0, int et = 0)
{
    static_assert(!SHIFT || ROT == 0, "a shifted window has one rotation");
    if constexpr (SHIFT) { /* the window moved instead (t3s_body's RING) */
#pragma unroll
        for (int j = 0; j + 2 < NW; j++) v[j] = v[j + 2];
    }
    if (INV) e = lwd_scale_w<W, T>(w, e, 0, -1), o = lwd_scale_w<W, T>(w, o, 1, -1);
    v[t3_zphys<NW>(NW - 2, ROT)] = e, v[t3_zphys<NW>(NW - 1, ROT)] = o;
    t3_zsteps<W, INV, ROT>(v, w, refresh, el, et, std::make_integer_sequence<int, sh_nsteps(W)>{});
}

/* f(std::integral_constant<int, rot>) for a run-time rot in [0, R): the z
 * work of a step instantiated once per rotation */
template <int R, class F> __host__ __device__ __forceinline__ void t3_zrot(int rot, F &&f)
{
    if constexpr (R > 1) {
        if (rot == R - 1) return f(std::integral_constant<int, R - 1>{});
        t3_zrot<R - 1>(rot, f);
    } else {
        f(std::integral_constant<int, 0>{});
    }
}

#endif
