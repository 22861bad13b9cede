/* Long-line passes: one level along contiguous lines (a 1-D signal, a batch
 * of long rows) too long for a block to hold whole.  A thread lifts a
 * segment of L1_SEG outputs from its window (the segment and the wavelet's
 * reach, made even, each side: l1_halo) in registers, as the fused 2-D tiles
 * lift a row segment, and stores
 * the outputs in the level's layout: Mallat halves, or positions in order.
 *
 * A level runs one of two ways:
 *   direct  the level reads no buffer it writes (level 1 out of place, the
 *           coarsest level of an inverse): each thread reads its window
 *           straight from global memory, neighbouring windows overlapping
 *           through the caches; any number of blocks.
 *   held    the level writes what it reads (in place, the levels of a
 *           pyramid after the first): every block loads a chunk of the lines
 *           with its halo into shared memory, the grid waits at a barrier (a
 *           cooperative launch: every block resident), and only then does
 *           each lift its chunk's segments from shared memory and store them,
 *           wherever in the region they belong.  So in place the Mallat order
 *           needs no reorder pass and no workspace.  A level fits when its
 *           samples fit the resident blocks' shared memory
 *           (lwk_line1d_held_fits; about 7 M float samples on an H100).
 * Consecutive levels run in one cooperative launch, a grid barrier between
 * them; a held level after the first loads coherently (what the level before
 * wrote), not by the read-only path.
 * Forward and inverse, every separable wavelet, both modes, every type
 * (integer data in the integer variants).  Windows that cross a line's end
 * are loaded through the mode; where a window so loaded and lifted as is is
 * not the reference (steps without symmetric taps in symmetric mode: d4,
 * haar on odd lengths) it is lifted with its taps read through the mode at
 * every step (reg_lift_local: two windows a line, so its cost is small). */
#include "k_line1d.h"
#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"

#include <cooperative_groups.h>
#include <string.h>

#define L1_THREADS 256
#define L1_SEG 16 /* outputs a segment */
/* shared memory a held block may take: two blocks an SM of an H100-class
 * device (1 KiB a block left to the reserve) */
#define L1_SMEM_HELD (112 * 1024)
/* direct: blocks a launch at most (the threads then stride over segments) */
#define L1_DIRECT_BLOCKS 8192
/* held: loads a thread keeps in flight */
#define L1_BATCH 8

/* the window's halo each side: the wavelet's reach, even, so that a window
 * starts on a lowpass sample and its halves are runs of whole pairs */
__host__ __device__ constexpr int l1_halo(int W) { return (sh_halo(W) + 1) & ~1; }

typedef struct l1_geo {
    int64_t nseg; /* segments a line */
    int64_t cs;   /* held: segments a block's chunk */
    int64_t cpl;  /* held: chunks a line */
    int64_t half; /* held: shared elements of each half of a chunk's window */
    size_t smem;
} l1_geo;

/* one level of a launch: its lines (the array's bases are the launch's),
 * input and output as lwk_line1d's */
typedef struct l1_lev {
    int64_t n, nlo, ls;
    const void *lo, *hi;
    void *dst, *dst_hi;
    int64_t lo_cl, dst_cl;
    int in_split, out_split, held;
    l1_geo g;
} l1_lev;

#define L1_MAXLEV LWK_LINE1D_MAXLEV
/* a launch: up to L1_MAXLEV levels in order, a grid barrier between them */
typedef struct l1_prog {
    lwk_wave w;
    int mode, nd, nlev;
    int64_t nlines, dlen[3], dstr[3];
    l1_lev lev[L1_MAXLEV];
} l1_prog;

/* A line's bases in the level's buffers: the input's lowpass (or every
 * sample, in order) and highpass, the output's (lowpass) and highpass */
struct l1_base {
    int64_t lo, hi, d, dh;
};
__device__ __forceinline__ l1_base l1_bases(const l1_prog &P, const l1_lev &v, int64_t line)
{
    const int64_t b = lwd_decomp(line, P.nd, P.dlen, P.dstr);
    l1_base r;
    r.lo = v.lo_cl ? line * v.lo_cl : b;
    r.hi = v.in_split ? b : r.lo;
    r.d = v.dst_cl ? line * v.dst_cl : b;
    r.dh = b;
    return r;
}

/* The input sample at position q (inside the line) of the line at r: by the
 * read-only path (NC) where nothing in the launch wrote it */
template <class S, bool NC> __device__ __forceinline__ lwd_c<S> l1_at(const l1_lev &v, const l1_base &r, int64_t q)
{
    const S *buf = (q & 1) ? (const S *)v.hi + r.hi : (const S *)v.lo + r.lo;
    const int64_t i = v.in_split ? ((q & 1) ? v.nlo + (q >> 1) : (q >> 1)) : q;
    if constexpr (NC) return lwd_ldg_run(buf + i * v.ls);
    else return lwd_ld(buf + i * v.ls);
}

/* Lift a window whose index 0 is at position p0 */
template <int W, bool INV, int N, class T>
__device__ __forceinline__ void l1_lift(T (&u)[N], const l1_prog &P, const l1_lev &v, int64_t p0)
{
    constexpr int DIR = INV ? -1 : 1;
    if (lwc_symmetric_taps(W) || P.mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= v.n)) reg_lift<W, DIR>(u, P.w);
    else reg_lift_local<W, DIR>(u, P.w, p0, v.n, P.mode);
}

/* Segment sg's outputs u[H .. H + L1_SEG) of the line at b, those inside it */
template <class S, int H, int N>
__device__ __forceinline__ void l1_store(const l1_lev &v, const l1_base &r, int64_t sg, const lwd_c<S> (&u)[N])
{
    S *d = (S *)v.dst + r.d;
    const int64_t n = v.n, ls = v.ls, q0 = sg * L1_SEG;
    const bool whole = q0 + L1_SEG <= n && ls == 1;
    if (v.out_split) { /* even positions to the lowpass half, odd ones after it */
        S *lo = d + (q0 >> 1) * ls, *hi = (S *)v.dst_hi + r.dh + (v.nlo + (q0 >> 1)) * ls;
        if (whole) {
#pragma unroll
            for (int h = 0; h < L1_SEG / 8; h++) {
                store4<S>(lo + 4 * h, u[H + 8 * h], u[H + 8 * h + 2], u[H + 8 * h + 4], u[H + 8 * h + 6], true);
                store4<S>(hi + 4 * h, u[H + 8 * h + 1], u[H + 8 * h + 3], u[H + 8 * h + 5], u[H + 8 * h + 7], true);
            }
        } else {
#pragma unroll
            for (int i = 0; i < L1_SEG; i++)
                if (q0 + i < n) lwd_st((i & 1) ? hi + (i >> 1) * ls : lo + (i >> 1) * ls, u[H + i]);
        }
    } else {
        S *o = d + q0 * ls;
        if (whole) {
#pragma unroll
            for (int h = 0; h < L1_SEG / 4; h++)
                store4<S>(o + 4 * h, u[H + 4 * h], u[H + 4 * h + 1], u[H + 4 * h + 2], u[H + 4 * h + 3], true);
        } else {
#pragma unroll
            for (int i = 0; i < L1_SEG; i++)
                if (q0 + i < n) lwd_st(o + i * ls, u[H + i]);
        }
    }
}

/* NV aligned 16-byte vectors from a, as samples of the compute type:
 * r[i] = a[i] */
template <class S, int NV> struct l1_run {
    enum { VT = 16 / sizeof(S) };
    uint4 v[NV];
    __device__ __forceinline__ void load(const S *a)
    {
#pragma unroll
        for (int k = 0; k < NV; k++) v[k] = __ldg((const uint4 *)a + k);
    }
    __device__ __forceinline__ lwd_c<S> at(int i) const { return lwd_ld(reinterpret_cast<const S *>(v) + i); }
};

/* Direct: the window of the segment at p0 of the line at b, from global
 * memory: aligned vectors where the window lies inside the line in one
 * buffer (positions in order) or in two runs of halves, else sample by
 * sample through the mode. */
template <class S, int W, int N>
__device__ __forceinline__ void l1_window(const l1_prog &P, const l1_lev &v, const l1_base &rb, int64_t p0,
                                          lwd_c<S> (&u)[N])
{
    constexpr int H = l1_halo(W), VT = 16 / sizeof(S);
    const bool inside = p0 >= 0 && p0 + N <= v.n && v.ls == 1;
    if (inside && !v.in_split && v.lo == v.hi && !((uintptr_t)((const S *)v.lo + rb.lo) & 15)) {
        constexpr int OFF = (VT - H % VT) % VT; /* p0 - OFF is a multiple of VT */
        l1_run<S, (N + OFF + VT - 1) / VT> r;
        r.load((const S *)v.lo + rb.lo + p0 - OFF);
#pragma unroll
        for (int j = 0; j < N; j++) u[j] = r.at(OFF + j);
        return;
    }
    if (inside && v.in_split) {
        constexpr int OFF = (VT - (H / 2) % VT) % VT, NH = N / 2;
        const S *lo = (const S *)v.lo + rb.lo + (p0 >> 1), *hi = (const S *)v.hi + rb.hi + v.nlo + (p0 >> 1);
        if (!((uintptr_t)(lo - OFF) & 15)) {
            l1_run<S, (NH + OFF + VT - 1) / VT> r;
            r.load(lo - OFF);
#pragma unroll
            for (int j = 0; j < NH; j++) u[2 * j] = r.at(OFF + j);
        } else {
#pragma unroll
            for (int j = 0; j < NH; j++) u[2 * j] = lwd_ldg_run(lo + j);
        }
        if (!((uintptr_t)(hi - OFF) & 15)) {
            l1_run<S, (NH + OFF + VT - 1) / VT> r;
            r.load(hi - OFF);
#pragma unroll
            for (int j = 0; j < NH; j++) u[2 * j + 1] = r.at(OFF + j);
        } else {
#pragma unroll
            for (int j = 0; j < NH; j++) u[2 * j + 1] = lwd_ldg_run(hi + j);
        }
        return;
    }
#pragma unroll
    for (int j = 0; j < N; j++) u[j] = l1_at<S, true>(v, rb, lwd_bidx(p0 + j, v.n, P.mode));
}

/* A direct level: segments t0, t0 + step, ... of all lines */
template <class S, int W, bool INV>
__device__ __forceinline__ void l1_direct_level(const l1_prog &P, const l1_lev &v, int64_t t0, int64_t step)
{
    constexpr int H = l1_halo(W), N = L1_SEG + 2 * H;
    const int64_t total = P.nlines * v.g.nseg;
    for (int64_t t = t0; t < total; t += step) {
        const int64_t line = t / v.g.nseg, sg = t - line * v.g.nseg, p0 = sg * L1_SEG - H;
        const l1_base r = l1_bases(P, v, line);
        lwd_c<S> u[N];
        l1_window<S, W>(P, v, r, p0, u);
        l1_lift<W, INV>(u, P, v, p0);
        l1_store<S, H>(v, r, sg, u);
    }
}

/* A held level: block = chunk cpl * line + c (blocks past the chunks only
 * wait); its window's even positions in lo_s, odd ones in hi_s (so that a
 * segment reads its window as aligned vectors of the two halves, without
 * bank conflicts).  Every block of the grid calls it (the grid barrier). */
template <class S, int W, bool INV, bool NC>
__device__ __forceinline__ void l1_held_level(const l1_prog &P, const l1_lev &v, lwd_c<S> *lo_s)
{
    typedef lwd_c<S> T;
    constexpr int H = l1_halo(W), N = L1_SEG + 2 * H, NH = N / 2;
    const l1_geo &g = v.g;
    T *hi_s = lo_s + g.half;
    const bool act = blockIdx.x < P.nlines * g.cpl;
    const int64_t line = blockIdx.x / g.cpl, c = blockIdx.x - line * g.cpl;
    const l1_base r = l1_bases(P, v, act ? line : 0);
    const int64_t n = v.n;
    const int64_t s0 = c * g.cs, s1 = s0 + g.cs < g.nseg ? s0 + g.cs : g.nseg;
    const int64_t w0 = s0 * L1_SEG - H, wn = (s1 - s0) * L1_SEG + 2 * H; /* the chunk's window */
    /* loads in batches of L1_BATCH a thread before their shared-memory stores
     * (each store waits for its load: one at a time, the chunk would take a
     * memory latency a sample a thread) */
#define L1_LOADS(COUNT, LOAD, STORE)                                                   \
    for (int64_t i0 = threadIdx.x; i0 < (COUNT); i0 += L1_THREADS * L1_BATCH) {          \
        T x_[L1_BATCH];                                                                \
        _Pragma("unroll") for (int u_ = 0; u_ < L1_BATCH; u_++) {                      \
            const int64_t i = i0 + u_ * L1_THREADS;                                    \
            if (i < (COUNT)) x_[u_] = (LOAD);                                           \
        }                                                                              \
        _Pragma("unroll") for (int u_ = 0; u_ < L1_BATCH; u_++) {                      \
            const int64_t i = i0 + u_ * L1_THREADS;                                    \
            if (i < (COUNT)) STORE = x_[u_];                                            \
        }                                                                              \
    }
    if (!act) {
    } else if (w0 >= 0 && w0 + wn <= n && v.ls == 1 && !v.in_split) {
        const S *lo = (const S *)v.lo + r.lo + w0, *hi = (const S *)v.hi + r.hi + w0;
        L1_LOADS(wn, NC ? lwd_ldg_run((i & 1 ? hi : lo) + i) : lwd_ld((i & 1 ? hi : lo) + i), (i & 1 ? hi_s : lo_s)[i >> 1])
    } else if (w0 >= 0 && w0 + wn <= n && v.ls == 1) {
        const S *lo = (const S *)v.lo + r.lo + (w0 >> 1), *hi = (const S *)v.hi + r.hi + v.nlo + (w0 >> 1);
        L1_LOADS(wn / 2, NC ? lwd_ldg_run(lo + i) : lwd_ld(lo + i), lo_s[i])
        L1_LOADS(wn / 2, NC ? lwd_ldg_run(hi + i) : lwd_ld(hi + i), hi_s[i])
    } else {
        L1_LOADS(wn, (l1_at<S, NC>(v, r, lwd_bidx(w0 + i, n, P.mode))), (i & 1 ? hi_s : lo_s)[i >> 1])
    }
#undef L1_LOADS
    cooperative_groups::this_grid().sync(); /* every block has read its window: the region may be written */
    if (!act) return;
    constexpr int VC = 16 / sizeof(T), NVH = (NH + VC - 1) / VC;
    for (int64_t sg = s0 + threadIdx.x; sg < s1; sg += L1_THREADS) {
        const int64_t o = (sg - s0) * (L1_SEG / 2); /* a multiple of VC: aligned vectors */
        T u[N];
        T a[NVH * VC], h[NVH * VC];
#pragma unroll
        for (int k = 0; k < NVH; k++) {
            *(uint4 *)&a[k * VC] = *(const uint4 *)(lo_s + o + k * VC);
            *(uint4 *)&h[k * VC] = *(const uint4 *)(hi_s + o + k * VC);
        }
#pragma unroll
        for (int j = 0; j < NH; j++) u[2 * j] = a[j], u[2 * j + 1] = h[j];
        const int64_t p0 = sg * L1_SEG - H;
        l1_lift<W, INV>(u, P, v, p0);
        l1_store<S, H>(v, r, sg, u);
    }
}

/* one direct level, any grid */
template <class S, int W, bool INV> __global__ void __launch_bounds__(L1_THREADS) l1_direct(l1_prog P)
{
    l1_direct_level<S, W, INV>(P, P.lev[0], (int64_t)blockIdx.x * L1_THREADS + threadIdx.x,
                               (int64_t)gridDim.x * L1_THREADS);
}

/* levels in order, cooperative (every block resident): a direct one first
 * or none, then held ones, a grid barrier between them */
template <class S, int W, bool INV> __global__ void __launch_bounds__(L1_THREADS) l1_levels(l1_prog P)
{
    extern __shared__ __align__(16) unsigned char l1_smem[];
    lwd_c<S> *sm = (lwd_c<S> *)l1_smem;
    for (int i = 0; i < P.nlev; i++) {
        if (i) cooperative_groups::this_grid().sync(); /* the level before is written */
        const l1_lev &v = P.lev[i];
        if (!v.held)
            l1_direct_level<S, W, INV>(P, v, (int64_t)blockIdx.x * L1_THREADS + threadIdx.x,
                                       (int64_t)gridDim.x * L1_THREADS);
        else if (i == 0)
            l1_held_level<S, W, INV, true>(P, v, sm);
        else
            l1_held_level<S, W, INV, false>(P, v, sm);
        __syncthreads(); /* the block's shared memory is free for the next level */
    }
}

/* ---- host side ------------------------------------------------------------ */

template <class S> struct l1_runs {
    static constexpr bool ok(int W) { return lwc_separable(W) && (!std::is_same<S, int32_t>::value || lwc_has_integer(W)); }
};

/* f(S, W, INV) for the pass's type and wavelet, or cudaErrorInvalidValue */
template <class F> static cudaError_t l1_dispatch(int dtype, const lwk_line1d *p, F &&f)
{
    return lwc_dispatch_typed<l1_runs>(dtype, p->w.id, p->inverse, f);
}

extern "C" int lwk_line1d_supported(int dtype, const lwk_wave *w, int64_t n)
{
    if (w->id >= LW_TRANSPOSED_ID || !lw_wavelet_get((lw_wavelet)w->id)) return 0;
    if (lwk_is_half(dtype) && w->integer) return 0;
    lwk_line1d p;
    memset(&p, 0, sizeof p);
    p.w = *w;
    /* lines at least a few windows long, so that a window meets one end at most */
    return l1_dispatch(dtype, &p, [&](auto, auto wc, auto) -> cudaError_t {
               return n >= 4 * (L1_SEG + 2 * l1_halo(decltype(wc)::value)) ? cudaSuccess : cudaErrorInvalidValue;
           }) == cudaSuccess;
}

/* held: a level's chunks for a grid of res blocks, 0 where it does not fit */
template <class S, int W> static int l1_held_geo(int64_t n, int64_t nlines, int64_t res, l1_geo *g)
{
    constexpr int H = l1_halo(W);
    memset(g, 0, sizeof *g);
    g->nseg = (n + L1_SEG - 1) / L1_SEG;
    if (nlines > res) return 0;
    g->cpl = res / nlines;
    g->cs = (g->nseg + g->cpl - 1) / g->cpl;
    g->cpl = (g->nseg + g->cs - 1) / g->cs;
    g->half = ((g->cs * L1_SEG + 2 * H) / 2 + 3) & ~(int64_t)3;
    g->smem = (size_t)(2 * g->half) * sizeof(lwd_c<S>);
    return g->smem <= L1_SMEM_HELD && nlines * g->cpl <= res;
}

/* the cooperative kernel's resident blocks (its shared memory set first), 0 if unknown */
template <class S, int W, bool INV> static int64_t l1_resident()
{
    const void *fn = (const void *)l1_levels<S, W, INV>;
    if (lw_cuda_func_attr(fn, LW_SMEM_ATTR, L1_SMEM_HELD) != cudaSuccess) return (void)cudaGetLastError(), 0;
    int64_t res = 0;
    if (lw_cuda_resident(fn, L1_THREADS, L1_SMEM_HELD, &res) != cudaSuccess) return 0;
    return res;
}

extern "C" int lwk_line1d_held_fits(int dtype, const lwk_line1d *p)
{
    return l1_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
               typedef typename std::remove_pointer<decltype(s)>::type S;
               constexpr int W = decltype(wc)::value;
               l1_geo g;
               const int64_t res = l1_resident<S, W, decltype(inv)::value>();
               return res > 0 && l1_held_geo<S, W>(p->L.n, p->L.nlines, res, &g) ? cudaSuccess : cudaErrorInvalidValue;
           }) == cudaSuccess;
}

extern "C" cudaError_t lwk_line1d_launch(int dtype, const lwk_line1d *lev, const int *held, int nlev, cudaStream_t st)
{
    if (nlev < 1 || nlev > L1_MAXLEV || lev[0].L.nlines < 1) return cudaErrorInvalidValue;
    for (int i = 0; i < nlev; i++) /* a direct level first or not at all; lines of one geometry */
        if ((i && !held[i]) || lev[i].L.n < 2 || lev[i].L.nlines != lev[0].L.nlines || lev[i].L.nd != lev[0].L.nd ||
            memcmp(lev[i].L.dlen, lev[0].L.dlen, sizeof lev[0].L.dlen) ||
            memcmp(lev[i].L.dstr, lev[0].L.dstr, sizeof lev[0].L.dstr))
            return cudaErrorInvalidValue;
    return l1_dispatch(dtype, lev, [&](auto s, auto wc, auto inv) -> cudaError_t {
        typedef typename std::remove_pointer<decltype(s)>::type S;
        constexpr int W = decltype(wc)::value;
        constexpr bool INV = decltype(inv)::value;
        static_assert(sizeof(l1_prog) <= 4096, "a launch's levels fit the kernel parameters");
        l1_prog P;
        memset(&P, 0, sizeof P);
        P.w = lev[0].w, P.mode = lev[0].mode, P.nd = lev[0].L.nd, P.nlev = nlev, P.nlines = lev[0].L.nlines;
        memcpy(P.dlen, lev[0].L.dlen, sizeof P.dlen);
        memcpy(P.dstr, lev[0].L.dstr, sizeof P.dstr);
        const int64_t res = nlev > 1 || held[0] ? l1_resident<S, W, INV>() : 0;
        for (int i = 0; i < nlev; i++) {
            l1_lev &v = P.lev[i];
            v.n = lev[i].L.n, v.nlo = lev[i].nlo, v.ls = lev[i].L.lstride;
            v.lo = lev[i].lo, v.hi = lev[i].hi, v.dst = lev[i].dst, v.dst_hi = lev[i].dst_hi ? lev[i].dst_hi : lev[i].dst;
            v.lo_cl = lev[i].lo_cl, v.dst_cl = lev[i].dst_cl;
            if ((v.lo_cl || v.dst_cl) && v.ls != 1) return cudaErrorInvalidValue; /* compact lines: unit stride */
            v.in_split = lev[i].in_split, v.out_split = lev[i].out_split, v.held = held[i];
            v.g.nseg = (v.n + L1_SEG - 1) / L1_SEG;
            if (held[i] && !l1_held_geo<S, W>(v.n, P.nlines, res, &v.g)) return cudaErrorCooperativeLaunchTooLarge;
        }
        if (nlev == 1 && !held[0]) {
            const int64_t total = P.nlines * P.lev[0].g.nseg, want = (total + L1_THREADS - 1) / L1_THREADS;
            l1_direct<S, W, INV><<<(unsigned)(want < L1_DIRECT_BLOCKS ? want : L1_DIRECT_BLOCKS), L1_THREADS, 0, st>>>(P);
            LWK_RETURN_LAUNCH();
        }
        void *args[] = {(void *)&P};
        return cudaLaunchCooperativeKernel((const void *)l1_levels<S, W, INV>, dim3((unsigned)res), dim3(L1_THREADS),
                                           args, L1_SMEM_HELD, st);
    });
}
