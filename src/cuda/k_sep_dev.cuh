/* Device helpers of the separable-pass kernels (k_sep_horiz.cu,
 * k_sep_vert.cu): parity views of one line, the register window with the
 * boundary read at every step, the compile-time convolution support, the
 * Laan sliding-window pipeline shared by both directions, and the dispatch
 * over element types and wavelets. */
#ifndef LW_K_SEP_DEV_CUH
#define LW_K_SEP_DEV_CUH

#include "k_sep.h"
#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"

/* Samples each thread of a register kernel lifts per window position (the
 * operation counts of k_sep_cost.cu read them too): blazewicz1/4 take 1 or 4
 * coefficient pairs of a row, kucis 8 rows (4 pairs) of a column. */
__host__ __device__ constexpr int sep_bz_pairs(int kind) { return kind == LWK_SEPH_BZ1 ? 1 : 4; }
#define KUCIS_ROWS 8

/* ---- one line through its parity views ---------------------------------- */

template <class T> struct sep_in {
    const T *e, *o;
    int64_t pe, po;
    bool contig; /* an interleaved line: sample t at e[t] */
    __device__ __forceinline__ T ld(int64_t t) const
    {
        if (contig) return e[t];
        return (t & 1) ? o[(t >> 1) * po] : e[(t >> 1) * pe];
    }
};

template <class T> struct sep_out {
    T *e, *o;
    int64_t pe, po;
    __device__ __forceinline__ void st(int64_t t, T v) const
    {
        if (t & 1) o[(t >> 1) * po] = v;
        else e[(t >> 1) * pe] = v;
    }
};

__device__ __forceinline__ const lwk_sep_ref &sep_even_ref(const lwk_sep_side &s, int64_t l)
{
    return l < s.split ? s.e : s.e2;
}

template <class T> __device__ __forceinline__ const T *sep_base(const lwk_sep_ref &r, int64_t l, int64_t b0, int64_t b1)
{
    return (const T *)r.p + b0 * r.bs[0] + b1 * r.bs[1] + l * r.ls;
}

template <class T> __device__ __forceinline__ sep_in<T> sep_in_line(const lwk_sep_side &s, int64_t l, int64_t b0, int64_t b1)
{
    const lwk_sep_ref &re = sep_even_ref(s, l);
    sep_in<T> r;
    r.e = sep_base<T>(re, l, b0, b1), r.pe = re.ps;
    r.o = sep_base<T>(s.o, l, b0, b1), r.po = s.o.ps;
    r.contig = r.o == r.e + 1 && r.pe == 2 && r.po == 2;
    return r;
}

template <class T> __device__ __forceinline__ sep_out<T> sep_out_line(const lwk_sep_side &s, int64_t l, int64_t b0, int64_t b1)
{
    const lwk_sep_ref &re = sep_even_ref(s, l);
    sep_out<T> r;
    r.e = (T *)sep_base<T>(re, l, b0, b1), r.pe = re.ps;
    r.o = (T *)sep_base<T>(s.o, l, b0, b1), r.po = s.o.ps;
    return r;
}

/* Split a flat work item over (group, b0, b1). */
__device__ __forceinline__ void sep_item(int64_t item, int64_t ngroups, const lwk_sep_lines &L, int64_t *g, int64_t *b0,
                                         int64_t *b1)
{
    int64_t b = item / ngroups;
    *g = item - b * ngroups;
    *b1 = b % L.blen[1];
    *b0 = b / L.blen[1];
}

/* ---- boundary at every step ---------------------------------------------
 * Loading a window once through the mode equals reading through the mode at
 * every step for periodic mode and for the wavelets whose steps have
 * symmetric taps (lwc_symmetric_taps, integer or not): their lifting keeps a
 * whole-sample symmetric signal symmetric.  The others (haar, d4) in
 * symmetric mode do not: a window that crosses a line end is then lifted
 * here, step by step, with every tap mapped into the line (the reference's
 * definition). */

/* u[0..N): positions ws.. (ws even), lifted in direction dir with the
 * symmetric mode applied at every step.  Out of line positions are never
 * targets; a target whose mapped taps leave the window is left (halo). */
template <class T>
__device__ __forceinline__ void sep_lift_mapped(T *u, int N, int64_t ws, int64_t n, const lwk_wave &w, int dir)
{
    if (dir < 0)
        for (int j = 0; j < N; j++) u[j] = lwd_scale<T>(w, u[j], j & 1, -1);
    for (int ss = 0; ss < w.nsteps; ss++) {
        const int s = dir > 0 ? ss : w.nsteps - 1 - ss;
        for (int j = w.target_odd[s]; j < N; j += 2) {
            const int64_t p = ws + j;
            if (p < 0 || p >= n) continue;
            T taps[LW_MAX_TAPS];
            bool ok = true;
            for (int i = 0; i < w.ntaps[s] && ok; i++) {
                const int64_t q = lwd_bidx(p + w.off[s][i], n, LW_SYMMETRIC) - ws;
                if (q < 0 || q >= N) ok = false;
                else taps[i] = u[q];
            }
            if (ok) u[j] = lwd_step<T>(w, s, u[j], taps, dir);
        }
    }
    if (dir > 0)
        for (int j = 0; j < N; j++) u[j] = lwd_scale<T>(w, u[j], j & 1, 1);
}

/* Lift a register window v (index 0 = position ws, even) in direction DIR:
 * compile-time steps, or the mapped path when the window crosses a line end
 * and the wavelet needs the boundary at every step. */
template <int W, int DIR, int N, class T>
__device__ __forceinline__ void sep_lift_window(T (&v)[N], const lwk_wave &w, int64_t ws, int64_t n, bool sym)
{
    if (!lwc_symmetric_taps(W) && sym && (ws < 0 || ws + N > n)) {
        T u[N];
#pragma unroll
        for (int j = 0; j < N; j++) u[j] = v[j];
        sep_lift_mapped<T>(u, N, ws, n, w, DIR);
#pragma unroll
        for (int j = 0; j < N; j++) v[j] = u[j];
    } else {
        reg_lift<W, DIR>(v, w);
    }
}

/* ---- convolution support (galiano) ----------------------------------------
 * Output of parity p depends on inputs t+lo[p] .. t+hi[p]: propagated through
 * the step structure at compile time. */
struct sep_sup {
    int lo[2], hi[2];
};
__host__ __device__ constexpr sep_sup sep_conv_support(int W, int DIR)
{
    sep_sup r{{0, 0}, {0, 0}};
    for (int ss = 0; ss < sh_nsteps(W); ss++) {
        const int s = DIR > 0 ? ss : sh_nsteps(W) - 1 - ss;
        const int p = sh_par(W, s);
        int lo = r.lo[p], hi = r.hi[p];
        for (int i = 0; i < sh_ntaps(W, s); i++) {
            const int o = sh_off(W, s, i);
            if (o + r.lo[1 - p] < lo) lo = o + r.lo[1 - p];
            if (o + r.hi[1 - p] > hi) hi = o + r.hi[1 - p];
        }
        r.lo[p] = lo, r.hi[p] = hi;
    }
    return r;
}
__host__ __device__ constexpr int sep_imax(int a, int b) { return a > b ? a : b; }
__host__ __device__ constexpr int sep_conv_reach(int W, int DIR)
{
    return sep_imax(sep_imax(-sep_conv_support(W, DIR).lo[0], -sep_conv_support(W, DIR).lo[1]),
                    sep_imax(sep_conv_support(W, DIR).hi[0], sep_conv_support(W, DIR).hi[1]));
}

template <class T> struct sep_filt;
template <> struct sep_filt<float> {
    __device__ static __forceinline__ float at(const lwk_sep_lines &L, int p, int m) { return L.ff[p][m + LWK_SEP_FC]; }
};
template <> struct sep_filt<double> {
    __device__ static __forceinline__ double at(const lwk_sep_lines &L, int p, int m) { return L.fd[p][m + LWK_SEP_FC]; }
};

/* ---- Laan's sliding window (both directions) ------------------------------
 * A block owns LANES neighbouring lines and walks down them in chunks of C
 * samples.  The samples sit in a ring of RR positions in shared memory and
 * every lifting step advances its own frontier: step s updates the targets
 * whose taps the previous step has finished, then the block waits at a
 * barrier (one per step, as Laan et al. do).  Intermediate values stay in the
 * ring between chunks, so nothing is computed twice.  Symmetric mode maps the
 * taps into the line at every step (exact for every wavelet); periodic mode
 * lifts the line extended by laan_ext samples each side. */
/* How far step ss (in the order DIR runs them) lags behind the previous
 * step's frontier: every tap must be final for that step, and every reader
 * of the target's current value (the previous step's targets) done. */
__host__ __device__ constexpr int laan_lag(int W, int DIR, int ss)
{
    const int S = sh_nsteps(W), s = DIR > 0 ? ss : S - 1 - ss;
    int lag = 0;
    for (int i = 0; i < sh_ntaps(W, s); i++) lag = sh_off(W, s, i) > lag ? sh_off(W, s, i) : lag;
    if (ss > 0) {
        const int ps = DIR > 0 ? ss - 1 : S - ss;
        for (int i = 0; i < sh_ntaps(W, ps); i++) lag = -sh_off(W, ps, i) > lag ? -sh_off(W, ps, i) : lag;
    }
    return lag;
}

/* The last step's frontier runs this far behind the loaded samples.  In
 * periodic mode the line is extended by at least this much on each side, or
 * the frontier would never reach n (the wavelet's reach, sh_halo, is not
 * enough when the lags add up to more: dd97 forward, 3 + 3 against 4). */
__host__ __device__ constexpr int laan_ext(int W, int DIR)
{
    int d = 0;
    for (int ss = 0; ss < sh_nsteps(W); ss++) d += laan_lag(W, DIR, ss);
    return d > sh_halo(W) ? d : sh_halo(W);
}

template <class T, int W, int DIR, int LANES, int C, int RR>
__device__ __forceinline__ void sep_laan_run(const lwk_sep_lines &L, T (*ring)[LANES])
{
    constexpr int S = sh_nsteps(W), H = laan_ext(W, DIR), HALF = C / 2;
    static_assert(RR >= 2 * C + H + 8 && (RR & (RR - 1)) == 0, "ring too small");
    const int tid = threadIdx.x, lane = tid % LANES, sub = tid / LANES;
    const bool sym = L.mode == LW_SYMMETRIC;
    const int64_t n = L.n, lo_ext = sym ? 0 : -H, hi_ext = sym ? n : n + H;
    const int64_t ngroups = (L.nlines + LANES - 1) / LANES, nitems = ngroups * L.blen[0] * L.blen[1];
    for (int64_t item = blockIdx.x; item < nitems; item += gridDim.x) {
        int64_t g, b0, b1;
        sep_item(item, ngroups, L, &g, &b0, &b1);
        const int64_t l = g * LANES + lane;
        const bool lane_ok = l < L.nlines;
        const sep_in<T> in = sep_in_line<T>(L.in, lane_ok ? l : 0, b0, b1);
        const sep_out<T> out = sep_out_line<T>(L.out, lane_ok ? l : 0, b0, b1);
        int64_t F[S + 1];
#pragma unroll
        for (int j = 0; j <= S; j++) F[j] = lo_ext;
        int64_t Fo = 0, e = lo_ext;
        while (Fo < n) {
            /* load the next chunk (the inverse undoes the scaling on load) */
            const int64_t e1 = e + C < hi_ext ? e + C : hi_ext;
            for (int64_t t = e + sub; t < e1; t += HALF) {
                T v = 0;
                if (lane_ok) {
                    v = in.ld(lwd_bidx(t, n, L.mode));
                    if (DIR < 0) v = lwd_scale<T>(L.w, v, (int)(t & 1), -1);
                }
                ring[t & (RR - 1)][lane] = v;
            }
            F[0] = e = e1;
            __syncthreads();
#pragma unroll
            for (int ss = 0; ss < S; ss++) {
                const int s = DIR > 0 ? ss : S - 1 - ss;
                const int par = sh_par(W, s), nt = sh_ntaps(W, s);
                const int lag = laan_lag(W, DIR, ss);
                int64_t nf = (sym && F[ss] == n) ? n : F[ss] - lag;
                if (nf < F[ss + 1]) nf = F[ss + 1];
                const int64_t t0 = F[ss + 1] + (((F[ss + 1] & 1) != par) ? 1 : 0);
                for (int64_t t = t0 + 2 * sub; t < nf; t += C) {
                    T taps[4];
                    bool ok = true;
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        if (i < nt) {
                            int64_t q = t + sh_off(W, s, i);
                            if (sym) q = lwd_bidx(q, n, LW_SYMMETRIC);
                            else if (q < lo_ext) ok = false;
                            taps[i] = ring[q & (RR - 1)][lane];
                        }
                    if (ok) {
                        T &x = ring[t & (RR - 1)][lane];
                        if (nt == 1) x = tstep_i<T, 1, DIR>::run(L.w, s, x, taps);
                        else if (nt == 2) x = tstep_i<T, 2, DIR>::run(L.w, s, x, taps);
                        else x = tstep_i<T, 4, DIR>::run(L.w, s, x, taps);
                    }
                }
                F[ss + 1] = nf;
                __syncthreads();
            }
            /* finished samples: scale (forward) and store */
            const int64_t fe = F[S] < n ? F[S] : n;
            if (lane_ok)
                for (int64_t t = Fo + sub; t < fe; t += HALF) {
                    T v = ring[t & (RR - 1)][lane];
                    if (DIR > 0) v = lwd_scale<T>(L.w, v, (int)(t & 1), 1);
                    out.st(t, v);
                }
            if (fe > Fo) Fo = fe;
        }
        __syncthreads();
    }
}

/* v[0..N) = s[0..N), read VB bytes at a time (s is VB-aligned). */
template <class T, int N, int VB> __device__ __forceinline__ void sep_window(const T *s, T (&v)[N])
{
    constexpr int K = VB / (int)sizeof(T);
    static_assert(K >= 1 && N % K == 0, "window not a whole number of vectors");
    struct alignas(VB) vec {
        T x[K];
    };
#pragma unroll
    for (int k = 0; k < N / K; k++) {
        const vec q = ((const vec *)s)[k];
#pragma unroll
        for (int i = 0; i < K; i++) v[k * K + i] = q.x[i];
    }
}

/* ---- dispatch over element type and wavelet ------------------------------ */

/* F::template run<T, W>(args...) for the dtype and wavelet id: every
 * separable wavelet in float, those with an integer variant on int32. */
template <class F, class... A> static cudaError_t sep_dispatch(int dtype, int wid, A... a)
{
    return lwc_dispatch(wid, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!lwc_separable(W)) {
            return cudaErrorInvalidValue;
        } else {
            if (dtype == LWK_I32) {
                if constexpr (lwc_has_integer(W)) return F::template run<int32_t, W>(a...);
                else return cudaErrorInvalidValue;
            }
            return dtype == LWK_F64 ? F::template run<double, W>(a...) : F::template run<float, W>(a...);
        }
    });
}

/* Grid of one-dimensional work items (grid-stride loops inside). */
static inline unsigned sep_grid(int64_t items)
{
    const int64_t cap = (int64_t)1 << 30;
    return (unsigned)(items < 1 ? 1 : items > cap ? cap : items);
}

#endif
