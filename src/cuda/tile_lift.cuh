/* Register lifting shared by the fused engines (k_tile2d.cu, k_tile3d.cu;
 * tstep_i also by the line kernels, k_lines.cu):
 * the step structure of each wavelet (wavelet_ct.cuh) is known at compile
 * time, so that a window of samples stays in registers; the weights come from
 * the kernel parameters. */
#ifndef LW_TILE_LIFT_CUH
#define LW_TILE_LIFT_CUH

#include "lw_cuda_dev.cuh"
#include "wavelet_ct.cuh"

#include <utility>

/* A lifting step on one sample: each tap's product added into the sample by
 * one fused multiply-add (two instructions a two-tap step, where a sum of the
 * products added after took three; the rounding differs from that sum's
 * within an ulp a step) */
template <class T, int NT, int DIR>
__host__ __device__ __forceinline__ T tstep(const lwk_wave &w, int s, T x, const T *taps)
{
#pragma unroll
    for (int i = 0; i < NT; i++) {
        const T c = DIR > 0 ? lwd_ops<T>::wt(w, s, i) : -lwd_ops<T>::wt(w, s, i);
        if constexpr (sizeof(T) == 4) x = fmaf(c, taps[i], x);
        else x = fma(c, taps[i], x);
    }
    return x;
}

/* lwd_scale for wavelet W, left out where both its factors are 1 (cdf53,
 * dd137, dd97, fs and their transposes) and no band gain changes them: a
 * multiplication by 1 is exact, and register windows scale every sample
 * they lift on every axis.  The plan's gains fold into w's factors, so the
 * test for them is made at run time (one uniform branch). */
template <int W, class T> __host__ __device__ __forceinline__ T lwd_scale_w(const lwk_wave &w, T x, int odd, int dir)
{
    if constexpr (lwc_unit_zeta(W)) {
        if (w.unit_zeta) return x;
    }
    return lwd_scale<T>(w, x, odd, dir);
}

template <class T, int NT, int DIR> struct tstep_i {
    __host__ __device__ static __forceinline__ T run(const lwk_wave &w, int s, T x, const T *taps)
    {
        return tstep<T, NT, DIR>(w, s, x, taps);
    }
};
template <int NT, int DIR> struct tstep_i<int32_t, NT, DIR> {
    __host__ __device__ static __forceinline__ int32_t run(const lwk_wave &w, int s, int32_t x, const int32_t *taps)
    {
        long long a = w.iadd[s];
#pragma unroll
        for (int i = 0; i < NT; i++) a += (long long)w.icoef[s][i] * taps[i];
        long long d = (long long)w.isign[s] * (a >> w.ishift[s]);
        long long r = DIR > 0 ? (long long)x + d : (long long)x - d;
        return (int32_t)(uint32_t)(unsigned long long)r;
    }
};

/* The symmetric mirror of a window v[0..N) at one end of its line, as
 * register moves: L positions before the line's start (window index L is
 * position 0: index j < L takes index 2L - j), or the line's end at window
 * index R (index j >= R takes 2(R - 1) - j).  Images outside the window feed
 * no stored output and are left. */
template <int N, int L, class T> __device__ __forceinline__ void mirror_lead(T (&v)[N])
{
#pragma unroll
    for (int j = 0; j < L; j++)
        if (2 * L - j < N) v[j] = v[2 * L - j];
}
template <int N, int R, class T> __device__ __forceinline__ void mirror_trail(T (&v)[N])
{
#pragma unroll
    for (int j = R; j < N; j++)
        if (2 * (R - 1) - j >= 0) v[j] = v[2 * (R - 1) - j];
}
/* the mirror at a run-time end e in LO .. LO + sizeof...(I) - 1 (the lead L
 * or the trail R): one compile-time move set picked by e */
template <bool TRAIL, int LO, int N, class T, int... I>
__device__ __forceinline__ void mirror_end(T (&v)[N], int e, std::integer_sequence<int, I...>)
{
    if constexpr (TRAIL) (void)((e == LO + I ? (mirror_trail<N, LO + I>(v), true) : false) || ...);
    else (void)((e == LO + I ? (mirror_lead<N, LO + I>(v), true) : false) || ...);
}

/* How a window meets the ends of its line (reg_lift_steps' EDGE): inside
 * it (no mirror), one end in symmetric mode on a line at least as long as
 * the window (e: the lead or the trail of mirror_lead / mirror_trail, in
 * ELO .. EHI where the caller knows the range; by default 1 .. N-1), or
 * anyhow (any line, images that may reflect twice). */
enum { LIFT_INSIDE = 0, LIFT_LEAD = 1, LIFT_TRAIL = 2, LIFT_ANY = 3 };

/* Lift a register window v[0..N) whose index 0 has even parity; positions
 * whose taps fall outside the window are left (they are halo, never output).
 * EDGE (not LIFT_INSIDE): the window's index 0 is at position p0 of a line of
 * n samples; before every step, each position outside the line takes the
 * current value of its image through the boundary mode (when that lies in
 * the window), as the reference reads through the mode at every step: at
 * one end by fixed moves (mirror_end), else by a chain of selects per
 * image.  The window stays in registers; images are recomputed per step
 * rather than held.  Each EDGE is its own instance: one path serving both
 * ends, or the selects beside the fixed moves, makes ptxas hold tens of
 * registers more for the whole kernel (bench/NOTES-matrix.md). */
template <int W, int DIR, int EDGE, int ELO = 1, int EHI = 0, int N, class T>
__device__ __forceinline__ void reg_lift_steps(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    constexpr int EH = EHI > 0 ? EHI : N - 1;
    static_assert(ELO >= 1 && EH <= N - 1 && ELO <= EH, "end range");
    const int e = EDGE == LIFT_LEAD ? (int)-p0 : EDGE == LIFT_TRAIL ? (int)(n - p0) : 0;
    if (DIR < 0) {
#pragma unroll
        for (int j = 0; j < N; j++) v[j] = lwd_scale_w<W, T>(w, v[j], j & 1, -1);
    }
#pragma unroll
    for (int ss = 0; ss < sh_nsteps(W); ss++) {
        const int s = DIR > 0 ? ss : sh_nsteps(W) - 1 - ss;
        const int par = sh_par(W, s);
        const int nt = sh_ntaps(W, s);
        if (EDGE == LIFT_LEAD || EDGE == LIFT_TRAIL) {
            mirror_end<EDGE == LIFT_TRAIL, ELO>(v, e, std::make_integer_sequence<int, EH - ELO + 1>{});
        } else if (EDGE == LIFT_ANY) {
#pragma unroll
            for (int j = 0; j < N; j++) {
                const int64_t p = p0 + j;
                if (p >= 0 && p < n) continue;
                const int64_t q = lwd_bidx(p, n, mode) - p0;
                if (q < 0 || q >= N) continue; /* beyond the reach of any stored output */
                T x = v[j];
#pragma unroll
                for (int k = 0; k < N; k++)
                    if (k == q) x = v[k];
                v[j] = x;
            }
        }
#pragma unroll
        for (int j = par; j < N; j += 2) {
            bool ok = true;
            T taps[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                if (i < nt) {
                    const int q = j + sh_off(W, s, i);
                    if (q < 0 || q >= N) ok = false;
                    else taps[i] = v[q];
                }
            }
            if (ok) {
                if (nt == 1) v[j] = tstep_i<T, 1, DIR>::run(w, s, v[j], taps);
                else if (nt == 2) v[j] = tstep_i<T, 2, DIR>::run(w, s, v[j], taps);
                else v[j] = tstep_i<T, 4, DIR>::run(w, s, v[j], taps);
            }
        }
    }
    if (DIR > 0) {
#pragma unroll
        for (int j = 0; j < N; j++) v[j] = lwd_scale_w<W, T>(w, v[j], j & 1, 1);
    }
}

template <int W, int DIR, int N, class T> __device__ __forceinline__ void reg_lift(T (&v)[N], const lwk_wave &w)
{
    reg_lift_steps<W, DIR, LIFT_INSIDE>(v, w, 0, 0, 0);
}

/* A window on any line, lifted in a local copy whose taps are read through
 * the boundary mode at every step (as the reference): no selects or move
 * sets, so the code stays small; the copy lives in local memory (L1).  For
 * the windows of kernels that meet the ends rarely or on small data only. */
template <int W, int DIR, int N, class T>
__device__ __forceinline__ void reg_lift_local(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    T loc[N];
#pragma unroll
    for (int j = 0; j < N; j++) loc[j] = DIR < 0 ? lwd_scale_w<W, T>(w, v[j], j & 1, -1) : v[j];
#pragma unroll
    for (int ss = 0; ss < sh_nsteps(W); ss++) {
        const int s = DIR > 0 ? ss : sh_nsteps(W) - 1 - ss;
        const int nt = sh_ntaps(W, s);
#pragma unroll 1
        for (int j = sh_par(W, s); j < N; j += 2) {
            const int64_t p = p0 + j;
            if (p < 0 || p >= n) continue; /* read through the mode, never written */
            bool ok = true;
            T taps[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                if (i < nt) {
                    const int64_t q = lwd_bidx(p + sh_off(W, s, i), n, mode) - p0;
                    if (q < 0 || q >= N) ok = false;
                    else taps[i] = loc[q];
                }
            }
            if (!ok) continue; /* halo: never output */
            if (nt == 1) loc[j] = tstep_i<T, 1, DIR>::run(w, s, loc[j], taps);
            else if (nt == 2) loc[j] = tstep_i<T, 2, DIR>::run(w, s, loc[j], taps);
            else loc[j] = tstep_i<T, 4, DIR>::run(w, s, loc[j], taps);
        }
    }
#pragma unroll
    for (int j = 0; j < N; j++) v[j] = DIR > 0 ? lwd_scale_w<W, T>(w, loc[j], j & 1, 1) : loc[j];
}


/* Whether a window loaded through the boundary mode once and lifted as is
 * equals the reference, which reads through the mode at every step: in
 * periodic mode, for steps whose taps come in +-offset pairs of equal weight
 * (the mirror image of a position then changes like the position), and for
 * steps inside their pairs on even lengths (no boundary sample is read; the
 * engines take only even lengths for them, lwk_tile2d_supported).  Otherwise
 * (d4) a window that reaches past an end of its line is lifted with the
 * mirror refreshed before every step (reg_lift_line). */
__host__ __device__ constexpr bool tile_once_mirror_exact(int W)
{
    return lwc_symmetric_taps(W) || lwc_inside_pairs(W);
}

/* reg_lift for a window whose index 0 is at position p0 of a line of n
 * samples (mode: the line's boundary mode), on any line: every window at an
 * end picks its images by selects (fewer registers in the kernels whose
 * windows are short or few; lines at least as long as the windows take
 * reg_lift_placed). */
template <int W, int DIR, int N, class T>
__device__ __forceinline__ void reg_lift_line(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    if constexpr (tile_once_mirror_exact(W)) {
        reg_lift<W, DIR>(v, w);
    } else if (mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= n)) {
        reg_lift<W, DIR>(v, w);
    } else {
        /* the images of the positions within the reach of the line's ends
         * lie in the window (it starts at most H before a tile's first
         * position, which is inside the line); farther positions feed no
         * stored output */
        reg_lift_steps<W, DIR, LIFT_ANY>(v, w, p0, n, mode);
    }
}

/* reg_lift for windows on lines at least as long as the windows (a window
 * meets one end at most, whose images are fixed register moves), of engines
 * that place their tiles so that
 * a window meets the lead at e = H (a tile starting at the line's start)
 * and the trail at e in N - H - 1 .. N - 1 (the last tile moved to end at
 * the line's end; the one before it may reach past the end by less than
 * H): five move sets a step, where the N - 1 sets of all offsets run
 * predicated on every window at an end (bench/NOTES-d4.md).  FALLBACK:
 * windows at other offsets (tiles the caller could not place) take those
 * N - 1 sets; without it the caller guarantees the placement. */
template <int W, int DIR, bool FALLBACK, int N, class T>
__device__ __forceinline__ void reg_lift_placed(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    constexpr int H = sh_halo(W);
    if constexpr (tile_once_mirror_exact(W)) {
        reg_lift<W, DIR>(v, w);
    } else if (mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= n)) {
        reg_lift<W, DIR>(v, w);
    } else if (!FALLBACK || p0 == -H || (p0 >= 0 && n - p0 >= N - H - 1)) {
        if (p0 < 0) reg_lift_steps<W, DIR, LIFT_LEAD, H, H>(v, w, p0, n, mode);
        else reg_lift_steps<W, DIR, LIFT_TRAIL, N - H - 1, N - 1>(v, w, p0, n, mode);
    } else if constexpr (FALLBACK) {
        if (p0 < 0) reg_lift_steps<W, DIR, LIFT_LEAD>(v, w, p0, n, mode);
        else reg_lift_steps<W, DIR, LIFT_TRAIL>(v, w, p0, n, mode);
    }
}

/* reg_lift for the windows of a line lifted in segments of K outputs from
 * its start (window index 0 at position seg * K - H, H = sh_halo(W)): the
 * lead window sits at -H and a trailing one holds 1 .. K outputs, so on lines
 * at least as long as a window the ends are move sets picked from the few
 * offsets a segment can have (shorter lines: selects, reg_lift_line).  For
 * kernels in which some blocks meet an end far more often than others (the
 * walker's first and last strips lift an end segment on every row), where
 * the selects cost several times the plain lift. */
template <int W, int DIR, int K, int N, class T>
__device__ __forceinline__ void reg_lift_segment(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    constexpr int H = sh_halo(W);
    static_assert(N == K + 2 * H, "a segment's window: K outputs and H each side");
    if constexpr (tile_once_mirror_exact(W)) {
        reg_lift<W, DIR>(v, w);
    } else if (mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= n)) {
        reg_lift<W, DIR>(v, w);
    } else if (n >= N) {
        if (p0 < 0) reg_lift_steps<W, DIR, LIFT_LEAD, H, H>(v, w, p0, n, mode);
        else reg_lift_steps<W, DIR, LIFT_TRAIL, H + 1, N - 1>(v, w, p0, n, mode);
    } else {
        reg_lift_steps<W, DIR, LIFT_ANY>(v, w, p0, n, mode);
    }
}

/* Four consecutive values of storage type T, computed in lwd_c<T>: one
 * 16-byte store (two for double, one 8-byte store for the half types) if
 * aligned. */
/* Horizontal lifting of the NR rows of a shared-memory window in place:
 * each active thread lifts the K outputs of one row segment from its
 * K + 2H window samples (segment seg covers columns c0 + seg*K - H ...),
 * the rows in batches of blockDim.x / SEGS.  Every thread of the block
 * calls it (barriers inside). */
template <int W, int DIR, int NR, int K, int H, int SEGS, class T, int WCP>
__device__ __forceinline__ void smem_rows_lift(T (*win)[WCP], const lwk_wave &w, int64_t c0, int64_t cols, int mode)
{
    constexpr int NU = K + 2 * H;
    const int tid = threadIdx.x, rp = blockDim.x / SEGS;
    for (int j0 = 0; j0 < NR; j0 += rp) {
        const int j = j0 + tid / SEGS, seg = tid % SEGS;
        const bool act = tid < rp * SEGS && j < NR;
        T u[NU];
        if (act) {
#pragma unroll
            for (int i = 0; i < NU; i++) u[i] = win[j][seg * K + i];
            reg_lift_line<W, DIR>(u, w, c0 + seg * K - H, cols, mode);
        }
        __syncthreads();
        if (act) {
#pragma unroll
            for (int i = 0; i < K; i++) win[j][H + seg * K + i] = u[H + i];
        }
        __syncthreads();
    }
}

/* One 16-byte store of four 32-bit words to global memory at p (16-byte
 * aligned), in PTX so that the compiler keeps it one instruction */
__device__ __forceinline__ void st_global_v4(const void *p, unsigned a, unsigned b, unsigned c, unsigned d)
{
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)), "r"(a), "r"(b), "r"(c),
                 "r"(d)
                 : "memory");
}

/* Four consecutive values of storage type T, computed in lwd_c<T>, at p
 * aligned to four samples: one vector store (16 bytes; 8 for the half types,
 * two of 16 for double).  In PTX: written in C++, the compiler split such
 * stores into scalar ones where a scalar alternative stored the same values
 * (store4), and packed half pairs always. */
template <class T> __device__ __forceinline__ void store4_vec(T *p, lwd_c<T> a, lwd_c<T> b, lwd_c<T> c, lwd_c<T> d)
{
    const size_t g = __cvta_generic_to_global(p);
    if constexpr (sizeof(T) == 2) {
        asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(g), "r"(lwd_pack2<T>(a, b)), "r"(lwd_pack2<T>(c, d))
                     : "memory");
    } else if constexpr (sizeof(T) == 4) {
        st_global_v4(p, *(const unsigned *)&a, *(const unsigned *)&b, *(const unsigned *)&c, *(const unsigned *)&d);
    } else {
        asm volatile("st.global.v2.f64 [%0], {%1, %2};" ::"l"(g), "d"((double)a), "d"((double)b) : "memory");
        asm volatile("st.global.v2.f64 [%0], {%1, %2};" ::"l"(g + 16), "d"((double)c), "d"((double)d) : "memory");
    }
}

/* Eight consecutive half-type samples at p, 16-byte aligned: one vector store */
template <class T> __device__ __forceinline__ void store8_vec(T *p, const lwd_c<T> *u)
{
    static_assert(sizeof(T) == 2, "the half types");
    st_global_v4(p, lwd_pack2<T>(u[0], u[1]), lwd_pack2<T>(u[2], u[3]), lwd_pack2<T>(u[4], u[5]),
                 lwd_pack2<T>(u[6], u[7]));
}

/* Whether p is aligned for store4_vec */
template <class T> __device__ __forceinline__ bool store4_aligned(const T *p)
{
    return ((uintptr_t)p % (sizeof(T) == 2 ? 8 : 16)) == 0;
}

/* store4_vec where vec and p's alignment allow it, else four scalar stores */
template <class T>
__device__ __forceinline__ void store4(T *p, lwd_c<T> a, lwd_c<T> b, lwd_c<T> c, lwd_c<T> d, bool vec)
{
    if (vec && store4_aligned(p)) {
        store4_vec<T>(p, a, b, c, d);
    } else {
        lwd_st(p, a), lwd_st(p + 1, b), lwd_st(p + 2, c), lwd_st(p + 3, d);
    }
}

/* The K = 8 outputs u[H .. H + 8) of each of the SEGS lanes of a row group
 * (lane seg: columns seg*8 ..) to the row at o, as 16-byte vectors that
 * follow each other across the group's lanes: an instruction writes whole
 * sectors, where each lane storing its own 8 would write half of each sector
 * it touches (float; double the same; the half types' rows take K = 16 and
 * store8_vec).  The outputs pass through the row's shared-memory window w,
 * which the group alone reads and has read.  o and w are 16-byte aligned.
 * Every lane of the group calls it. */
template <class S, int SEGS, class T, int N, int WCP>
__device__ __forceinline__ void store_row_group(S *o, T (&w)[WCP], const T (&u)[N], int seg)
{
    constexpr int K = 8, H = (N - K) / 2, V = 16 / (int)sizeof(S), NV = K / V;
    static_assert(N == K + 2 * H && 32 % SEGS == 0 && NV >= 2, "row group of 4- or 8-byte samples");
    const unsigned lane = threadIdx.x & 31;
    const unsigned mask = SEGS == 32 ? 0xffffffffu : ((1u << (SEGS & 31)) - 1) << (lane & ~(unsigned)(SEGS - 1));
    __syncwarp(mask); /* the group has read its window */
#pragma unroll
    for (int i = 0; i < K; i++) w[seg * K + i] = u[H + i];
    __syncwarp(mask);
#pragma unroll
    for (int q = 0; q < NV; q++) {
        const int f = (q * SEGS + seg) * V; /* the first column of the vector this lane stores */
        if constexpr (sizeof(S) == 4) {
            const float4 x = *(const float4 *)(w + f);
            store4_vec<S>(o + f, x.x, x.y, x.z, x.w);
        } else {
            *(double2 *)(o + f) = *(const double2 *)(w + f);
        }
    }
    __syncwarp(mask); /* read before the group's next row writes its window */
}

/* A row segment's K = 8 lifted outputs u[H .. H + 8) to o (column stride
 * cs), of which the first n are inside the region: two 16-byte stores where
 * vec (unit stride, aligned) and the segment is whole, else one by one. */
template <int H, class S, int N>
__device__ __forceinline__ void store_seg8(S *o, const lwd_c<S> (&u)[N], int64_t cs, bool vec, int64_t n)
{
    if (vec && n >= 8) {
        store4<S>(o, u[H], u[H + 1], u[H + 2], u[H + 3], true);
        store4<S>(o + 4, u[H + 4], u[H + 5], u[H + 6], u[H + 7], true);
    } else {
#pragma unroll
        for (int i = 0; i < 8; i++)
            if (i < n) lwd_st(o + i * cs, u[H + i]);
    }
}

#endif
