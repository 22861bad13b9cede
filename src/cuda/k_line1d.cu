/* Long-line passes: one level along contiguous lines (a 1-D signal, a batch
 * of long rows) too long for a block to hold whole.  A thread lifts a
 * segment of L1_SEG outputs from its window (the segment and HE samples each
 * side) in registers, as the fused 2-D tiles lift a row segment, and stores
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

/* The input sample at position q (inside the line) of the line at b */
template <class S> __device__ __forceinline__ lwd_c<S> l1_at(const lwk_line1d &p, int64_t b, int64_t q)
{
    const S *buf = (const S *)((q & 1) ? p.hi : p.lo);
    const int64_t i = p.in_split ? ((q & 1) ? p.nlo + (q >> 1) : (q >> 1)) : q;
    return lwd_ldg_run(buf + b + i * p.L.lstride);
}

/* Lift a window whose index 0 is at position p0 */
template <int W, bool INV, int N, class T>
__device__ __forceinline__ void l1_lift(T (&u)[N], const lwk_line1d &p, int64_t p0)
{
    constexpr int DIR = INV ? -1 : 1;
    if (lwc_symmetric_taps(W) || p.mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= p.L.n)) reg_lift<W, DIR>(u, p.w);
    else reg_lift_local<W, DIR>(u, p.w, p0, p.L.n, p.mode);
}

/* Segment sg's outputs u[H .. H + L1_SEG) of the line at b, those inside it */
template <class S, int H, int N>
__device__ __forceinline__ void l1_store(const lwk_line1d &p, int64_t b, int64_t sg, const lwd_c<S> (&u)[N])
{
    S *d = (S *)p.dst + b;
    const int64_t n = p.L.n, ls = p.L.lstride, q0 = sg * L1_SEG;
    const bool whole = q0 + L1_SEG <= n && ls == 1;
    if (p.out_split) { /* even positions to the lowpass half, odd ones after it */
        S *lo = d + (q0 >> 1) * ls, *hi = d + (p.nlo + (q0 >> 1)) * ls;
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
    enum { VT = 16 / sizeof(S), NE = NV * VT };
    uint4 v[NV];
    __device__ __forceinline__ void load(const S *a)
    {
#pragma unroll
        for (int k = 0; k < NV; k++) v[k] = __ldg((const uint4 *)a + k);
    }
    __device__ __forceinline__ lwd_c<S> at(int i) const { return lwd_ld(reinterpret_cast<const S *>(v) + i); }
};

/* Direct: the window of segment sg of the line at b, from global memory:
 * aligned vectors where the window lies inside the line in one buffer
 * (positions in order) or in two runs of halves, else sample by sample
 * through the mode. */
template <class S, int W, int N>
__device__ __forceinline__ void l1_window(const lwk_line1d &p, int64_t b, int64_t p0, lwd_c<S> (&u)[N])
{
    constexpr int H = l1_halo(W), VT = 16 / sizeof(S);
    const int64_t n = p.L.n;
    const bool inside = p0 >= 0 && p0 + N <= n && p.L.lstride == 1;
    if (inside && !p.in_split && p.lo == p.hi && !((uintptr_t)((const S *)p.lo + b) & 15)) {
        constexpr int OFF = (VT - H % VT) % VT; /* p0 - OFF is a multiple of VT */
        l1_run<S, (N + OFF + VT - 1) / VT> r;
        r.load((const S *)p.lo + b + p0 - OFF);
#pragma unroll
        for (int j = 0; j < N; j++) u[j] = r.at(OFF + j);
        return;
    }
    if (inside && p.in_split) {
        constexpr int OFF = (VT - (H / 2) % VT) % VT, NH = N / 2;
        const S *lo = (const S *)p.lo + b + (p0 >> 1), *hi = (const S *)p.hi + b + p.nlo + (p0 >> 1);
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
    for (int j = 0; j < N; j++) u[j] = l1_at<S>(p, b, lwd_bidx(p0 + j, n, p.mode));
}

template <class S, int W, bool INV> __global__ void __launch_bounds__(L1_THREADS) l1_direct(lwk_line1d p, l1_geo g)
{
    constexpr int H = l1_halo(W), N = L1_SEG + 2 * H;
    const int64_t total = p.L.nlines * g.nseg;
    for (int64_t t = (int64_t)blockIdx.x * L1_THREADS + threadIdx.x; t < total; t += (int64_t)gridDim.x * L1_THREADS) {
        const int64_t line = t / g.nseg, sg = t - line * g.nseg, p0 = sg * L1_SEG - H;
        const int64_t b = lwd_decomp(line, p.L.nd, p.L.dlen, p.L.dstr);
        lwd_c<S> u[N];
        l1_window<S, W>(p, b, p0, u);
        l1_lift<W, INV>(u, p, p0);
        l1_store<S, H>(p, b, sg, u);
    }
}

/* Held: block = chunk cpl * line + c; its window's even positions in lo_s,
 * odd ones in hi_s (so that a segment reads its window as aligned vectors of
 * the two halves, without bank conflicts) */
template <class S, int W, bool INV> __global__ void __launch_bounds__(L1_THREADS) l1_held(lwk_line1d p, l1_geo g)
{
    typedef lwd_c<S> T;
    constexpr int H = l1_halo(W), N = L1_SEG + 2 * H, NH = N / 2;
    extern __shared__ __align__(16) unsigned char l1_smem[];
    T *lo_s = (T *)l1_smem, *hi_s = lo_s + g.half;
    const int64_t line = blockIdx.x / g.cpl, c = blockIdx.x - line * g.cpl;
    const int64_t b = lwd_decomp(line, p.L.nd, p.L.dlen, p.L.dstr), n = p.L.n;
    const int64_t s0 = c * g.cs, s1 = s0 + g.cs < g.nseg ? s0 + g.cs : g.nseg;
    const int64_t w0 = s0 * L1_SEG - H, wn = (s1 - s0) * L1_SEG + 2 * H; /* the chunk's window */
    if (w0 >= 0 && w0 + wn <= n && p.L.lstride == 1 && !p.in_split) {
        const S *lo = (const S *)p.lo + b + w0, *hi = (const S *)p.hi + b + w0;
        for (int64_t i = threadIdx.x; i < wn; i += L1_THREADS) (i & 1 ? hi_s : lo_s)[i >> 1] = lwd_ldg_run((i & 1 ? hi : lo) + i);
    } else if (w0 >= 0 && w0 + wn <= n && p.L.lstride == 1) {
        const S *lo = (const S *)p.lo + b + (w0 >> 1), *hi = (const S *)p.hi + b + p.nlo + (w0 >> 1);
        for (int64_t i = threadIdx.x; i < wn / 2; i += L1_THREADS) lo_s[i] = lwd_ldg_run(lo + i), hi_s[i] = lwd_ldg_run(hi + i);
    } else {
        for (int64_t i = threadIdx.x; i < wn; i += L1_THREADS)
            (i & 1 ? hi_s : lo_s)[i >> 1] = l1_at<S>(p, b, lwd_bidx(w0 + i, n, p.mode));
    }
    cooperative_groups::this_grid().sync(); /* every block has read its window: the region may be written */
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
        l1_lift<W, INV>(u, p, p0);
        l1_store<S, H>(p, b, sg, u);
    }
}

/* ---- host side ------------------------------------------------------------ */

template <class S> static constexpr bool l1_runs(int W)
{
    return lwc_separable(W) && (!std::is_same<S, int32_t>::value || lwc_has_integer(W));
}

/* f(S, W, INV) for the pass's type and wavelet, or cudaErrorInvalidValue */
template <class F> static cudaError_t l1_dispatch(int dtype, const lwk_line1d *p, F &&f)
{
    return lwd_by_dtype(dtype, [&](auto t) -> cudaError_t {
        typedef LWD_TYPE_OF(t) S;
        return lwc_dispatch(p->w.id, [&](auto wc) -> cudaError_t {
            constexpr int W = decltype(wc)::value;
            if constexpr (!l1_runs<S>(W)) return cudaErrorInvalidValue;
            else return p->inverse ? f((S *)0, wc, std::true_type()) : f((S *)0, wc, std::false_type());
        });
    });
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

/* held: the chunks (every block resident), or 0 where the level does not fit */
template <class S, int W, bool INV> static int l1_held_plan(const lwk_line1d *p, l1_geo *g, int64_t *grid)
{
    constexpr int H = l1_halo(W);
    const void *fn = (const void *)l1_held<S, W, INV>;
    if (lw_cuda_func_attr(fn, LW_SMEM_ATTR, L1_SMEM_HELD) != cudaSuccess) return (void)cudaGetLastError(), 0;
    int64_t res = 0;
    if (lw_cuda_resident(fn, L1_THREADS, L1_SMEM_HELD, &res) != cudaSuccess || res < 1) return 0;
    const int64_t nl = p->L.nlines;
    if (nl > res) return 0;
    g->cpl = res / nl;
    g->cs = (g->nseg + g->cpl - 1) / g->cpl;
    g->cpl = (g->nseg + g->cs - 1) / g->cs;
    g->half = ((g->cs * L1_SEG + 2 * H) / 2 + 3) & ~(int64_t)3;
    g->smem = (size_t)(2 * g->half) * sizeof(lwd_c<S>);
    *grid = nl * g->cpl;
    return g->smem <= L1_SMEM_HELD && *grid <= res;
}

extern "C" int lwk_line1d_held_fits(int dtype, const lwk_line1d *p)
{
    return l1_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
               typedef typename std::remove_pointer<decltype(s)>::type S;
               l1_geo g;
               int64_t grid = 0;
               memset(&g, 0, sizeof g);
               g.nseg = (p->L.n + L1_SEG - 1) / L1_SEG;
               return l1_held_plan<S, decltype(wc)::value, decltype(inv)::value>(p, &g, &grid) ? cudaSuccess
                                                                                                 : cudaErrorInvalidValue;
           }) == cudaSuccess;
}

extern "C" cudaError_t lwk_line1d_launch(int dtype, const lwk_line1d *p, int held, cudaStream_t st)
{
    if (p->L.nlines < 1 || p->L.n < 2) return cudaErrorInvalidValue;
    return l1_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
        typedef typename std::remove_pointer<decltype(s)>::type S;
        constexpr int W = decltype(wc)::value;
        constexpr bool INV = decltype(inv)::value;
        l1_geo g;
        memset(&g, 0, sizeof g);
        g.nseg = (p->L.n + L1_SEG - 1) / L1_SEG;
        if (held) {
            int64_t grid = 0;
            if (!l1_held_plan<S, W, INV>(p, &g, &grid)) return cudaErrorCooperativeLaunchTooLarge;
            lwk_line1d a = *p;
            void *args[] = {(void *)&a, (void *)&g};
            return cudaLaunchCooperativeKernel((const void *)l1_held<S, W, INV>, dim3((unsigned)grid), dim3(L1_THREADS),
                                               args, g.smem, st);
        }
        const int64_t total = p->L.nlines * g.nseg, want = (total + L1_THREADS - 1) / L1_THREADS;
        l1_direct<S, W, INV><<<(unsigned)(want < L1_DIRECT_BLOCKS ? want : L1_DIRECT_BLOCKS), L1_THREADS, 0, st>>>(*p, g);
        LWK_RETURN_LAUNCH();
    });
}
