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
    int64_t pair; /* Mallat halves per pair of this many samples (lwk_line1d's), 0: the line's */
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

/* Compact buffers (lwk_line1d's lo_cl, dst_cl): the input's every sample
 * in order (lo == hi) or its lowpass, position q at q / 2 (from the inverse's
 * coarser level); the output's every sample (dst == dst_hi) or its lowpass
 * (the highpass to dst_hi in the array), position q at q / 2 */
__device__ __forceinline__ bool l1_in_all(const l1_lev &v) { return v.lo_cl && v.lo == v.hi; }
__device__ __forceinline__ bool l1_out_lo(const l1_lev &v) { return v.dst_cl && v.dst != v.dst_hi; }

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
    r.hi = l1_in_all(v) ? r.lo : b;
    r.d = v.dst_cl ? line * v.dst_cl : b;
    r.dh = v.dst_cl && !l1_out_lo(v) ? r.d : b;
    return r;
}

/* Mallat place of the lowpass (even) / highpass (odd) sample at position q:
 * in the line's halves, or in those of q's pair */
__device__ __forceinline__ int64_t l1_lpos(const l1_lev &v, int64_t q)
{
    if (!v.pair) return q >> 1;
    const int64_t b = q - q % v.pair;
    return b + ((q - b) >> 1);
}
__device__ __forceinline__ int64_t l1_hpos(const l1_lev &v, int64_t q)
{
    if (!v.pair) return v.nlo + (q >> 1);
    const int64_t b = q - q % v.pair;
    return b + v.pair / 2 + ((q - b) >> 1);
}

/* The input sample at position q (inside the line) of the line at r: by the
 * read-only path (NC) where nothing in the launch wrote it */
template <class S, bool NC> __device__ __forceinline__ lwd_c<S> l1_at(const l1_lev &v, const l1_base &r, int64_t q)
{
    const S *p;
    if (l1_in_all(v)) p = (const S *)v.lo + r.lo + q;
    else if (q & 1) p = (const S *)v.hi + r.hi + (v.in_split ? l1_hpos(v, q) : q) * v.ls;
    else p = (const S *)v.lo + r.lo + (v.lo_cl ? q >> 1 : (v.in_split ? l1_lpos(v, q) : q) * v.ls);
    if constexpr (NC) return lwd_ldg_run(p);
    else return lwd_ld(p);
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
    if (v.out_split) { /* even positions to the lowpass half, odd ones after it (a segment lies in one pair) */
        S *lo = d + l1_lpos(v, q0) * ls, *hi = (S *)v.dst_hi + r.dh + l1_hpos(v, q0) * ls;
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
    } else if (l1_out_lo(v)) { /* even positions compact, odd ones to their places */
        S *lo = d + (q0 >> 1), *hi = (S *)v.dst_hi + r.dh + q0 * ls;
        if (q0 + L1_SEG <= n) {
#pragma unroll
            for (int h = 0; h < L1_SEG / 8; h++)
                store4<S>(lo + 4 * h, u[H + 8 * h], u[H + 8 * h + 2], u[H + 8 * h + 4], u[H + 8 * h + 6], true);
        } else {
#pragma unroll
            for (int i = 0; i < L1_SEG; i += 2)
                if (q0 + i < n) lwd_st(lo + (i >> 1), u[H + i]);
        }
#pragma unroll
        for (int i = 1; i < L1_SEG; i += 2)
            if (q0 + i < n) lwd_st(hi + i * ls, u[H + i]);
    } else {
        const int64_t so = v.dst_cl ? 1 : ls; /* every sample compact, or at its place */
        S *o = d + q0 * so;
        if (q0 + L1_SEG <= n && so == 1) {
#pragma unroll
            for (int h = 0; h < L1_SEG / 4; h++)
                store4<S>(o + 4 * h, u[H + 4 * h], u[H + 4 * h + 1], u[H + 4 * h + 2], u[H + 4 * h + 3], true);
        } else {
#pragma unroll
            for (int i = 0; i < L1_SEG; i++)
                if (q0 + i < n) lwd_st(o + i * so, u[H + i]);
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
    const bool inside = p0 >= 0 && p0 + N <= v.n && (v.ls == 1 || l1_in_all(v));
    if (inside && !v.in_split && v.lo == v.hi && !((uintptr_t)((const S *)v.lo + rb.lo) & 15)) {
        constexpr int OFF = (VT - H % VT) % VT; /* p0 - OFF is a multiple of VT */
        l1_run<S, (N + OFF + VT - 1) / VT> r;
        r.load((const S *)v.lo + rb.lo + p0 - OFF);
#pragma unroll
        for (int j = 0; j < N; j++) u[j] = r.at(OFF + j);
        return;
    }
    if (inside && v.in_split && v.ls == 1 && !v.pair) {
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

/* The lines and segments a held level's grid takes at once: every line's
 * segments (a launch of held levels), or a round (lwk_line1d_rounds): whole
 * lines line0 .. line0 + nl - 1, or of one line the segments s_lo .. s_hi - 1,
 * whose positions below r0 = s_lo * L1_SEG the rounds before have written:
 * the window samples there come from side (positions r0 - H .. r0 - 1,
 * saved raw by the round before) or wrap (0 .. H - 1, saved by the line's
 * first round: periodic mode's wrap).  save_b / save_w: where this round
 * saves those for the next (NULL: none). */
template <class S> struct l1_span {
    int64_t line0, nl, s_lo, s_hi;
    const S *side, *wrap;
    S *save_b, *save_w;
};

/* A held level: block = chunk cpl * line + c of the span (blocks past its
 * chunks only wait); its window's even positions in lo_s, odd ones in hi_s
 * (so that a segment reads its window as aligned vectors of the two halves,
 * without bank conflicts).  Every block of the grid calls it (the grid
 * barrier). */
template <class S, int W, bool INV, bool NC>
__device__ __forceinline__ void l1_held_level(const l1_prog &P, const l1_lev &v, lwd_c<S> *lo_s, const l1_span<S> &sp)
{
    typedef lwd_c<S> T;
    constexpr int H = l1_halo(W), N = L1_SEG + 2 * H, NH = N / 2;
    const l1_geo &g = v.g;
    T *hi_s = lo_s + g.half;
    const int64_t line = sp.line0 + blockIdx.x / g.cpl, c = blockIdx.x % g.cpl;
    const int64_t s0 = sp.s_lo + c * g.cs, s1 = s0 + g.cs < sp.s_hi ? s0 + g.cs : sp.s_hi;
    const bool act = blockIdx.x < sp.nl * g.cpl && line < P.nlines && s0 < s1;
    const l1_base r = l1_bases(P, v, act ? line : sp.line0);
    const int64_t n = v.n, r0 = sp.s_lo * L1_SEG;
    if (blockIdx.x == 0) { /* raw samples the next rounds read after this one has written them */
        for (int i = threadIdx.x; i < H && sp.save_b; i += L1_THREADS)
            lwd_st(sp.save_b + i, l1_at<S, NC>(v, r, sp.s_hi * L1_SEG - H + i));
        for (int i = threadIdx.x; i < H && sp.save_w; i += L1_THREADS) lwd_st(sp.save_w + i, l1_at<S, NC>(v, r, i));
    }
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
    } else if (w0 >= r0 && w0 + wn <= n && v.ls == 1 && !v.lo_cl && !v.in_split) {
        const S *lo = (const S *)v.lo + r.lo + w0, *hi = (const S *)v.hi + r.hi + w0;
        L1_LOADS(wn, NC ? lwd_ldg_run((i & 1 ? hi : lo) + i) : lwd_ld((i & 1 ? hi : lo) + i), (i & 1 ? hi_s : lo_s)[i >> 1])
    } else if (w0 >= r0 && w0 + wn <= n && v.ls == 1 && !v.lo_cl && !v.pair) {
        const S *lo = (const S *)v.lo + r.lo + (w0 >> 1), *hi = (const S *)v.hi + r.hi + v.nlo + (w0 >> 1);
        L1_LOADS(wn / 2, NC ? lwd_ldg_run(lo + i) : lwd_ld(lo + i), lo_s[i])
        L1_LOADS(wn / 2, NC ? lwd_ldg_run(hi + i) : lwd_ld(hi + i), hi_s[i])
    } else {
        /* through the mode; written positions (a round's) from the saved samples */
#define L1_AT(q) ((q) >= r0 ? l1_at<S, NC>(v, r, (q)) : (q) >= r0 - H ? lwd_ld(sp.side + (q) - (r0 - H)) : lwd_ld(sp.wrap + (q)))
        L1_LOADS(wn, L1_AT(lwd_bidx(w0 + i, n, P.mode)), (i & 1 ? hi_s : lo_s)[i >> 1])
#undef L1_AT
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
            l1_held_level<S, W, INV, true>(P, v, sm, l1_span<S>{0, P.nlines, 0, v.g.nseg, 0, 0, 0, 0});
        else
            l1_held_level<S, W, INV, false>(P, v, sm, l1_span<S>{0, P.nlines, 0, v.g.nseg, 0, 0, 0, 0});
        __syncthreads(); /* the block's shared memory is free for the next level */
    }
}

/* the rounds of a level (lwk_line1d_rounds): whole lines, per lines of them
 * a round (per > 0), or of each line segs segments a round (rpl rounds a
 * line); side: 3 H samples, the wrap and two round boundaries in turn */
typedef struct l1_rnd {
    int64_t per, segs, rpl, nrounds;
    void *side;
} l1_rnd;

/* one held level in rounds, cooperative: a round's blocks load, wait at the
 * grid barrier and store, and the next round reads nothing this one wrote
 * but what it saved */
template <class S, int W, bool INV> __global__ void __launch_bounds__(L1_THREADS) l1_rounds(l1_prog P, l1_rnd R)
{
    extern __shared__ __align__(16) unsigned char l1_smem[];
    lwd_c<S> *sm = (lwd_c<S> *)l1_smem;
    constexpr int H = l1_halo(W);
    const l1_lev &v = P.lev[0];
    S *side = (S *)R.side;
    for (int64_t q = 0; q < R.nrounds; q++) {
        l1_span<S> sp = {0, 1, 0, v.g.nseg, nullptr, side, nullptr, nullptr};
        if (R.per) {
            sp.line0 = q * R.per, sp.nl = R.per;
        } else {
            const int64_t j = q % R.rpl;
            sp.line0 = q / R.rpl, sp.s_lo = j * R.segs;
            sp.s_hi = j == R.rpl - 1 ? v.g.nseg : sp.s_lo + R.segs;
            sp.side = side + H + (j & 1) * H;
            if (j < R.rpl - 1) sp.save_b = side + H + ((j + 1) & 1) * H;
            if (j == 0 && P.mode == LW_PERIODIC) sp.save_w = side;
        }
        if (q) __syncthreads(); /* the round before is done with shared memory */
        l1_held_level<S, W, INV, true>(P, v, sm, sp);
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

/* held: the chunks of nseg segments of each of nlines lines for a grid of
 * res blocks, 0 where they do not fit */
template <class S, int W> static int l1_held_geo(int64_t n, int64_t nlines, int64_t res, l1_geo *g)
{
    constexpr int H = l1_halo(W);
    memset(g, 0, sizeof *g);
    g->nseg = (n + L1_SEG - 1) / L1_SEG;
    if (nlines > res || nlines < 1) return 0;
    g->cpl = res / nlines;
    g->cs = (g->nseg + g->cpl - 1) / g->cpl;
    g->cpl = (g->nseg + g->cs - 1) / g->cs;
    g->half = ((g->cs * L1_SEG + 2 * H) / 2 + 3) & ~(int64_t)3;
    g->smem = (size_t)(2 * g->half) * sizeof(lwd_c<S>);
    return g->smem <= L1_SMEM_HELD && nlines * g->cpl <= res;
}

/* a cooperative kernel's resident blocks (its shared memory set first), 0 if unknown */
static int64_t l1_resident_of(const void *fn)
{
    if (lw_cuda_func_attr(fn, LW_SMEM_ATTR, L1_SMEM_HELD) != cudaSuccess) return (void)cudaGetLastError(), 0;
    int64_t res = 0;
    if (lw_cuda_resident(fn, L1_THREADS, L1_SMEM_HELD, &res) != cudaSuccess) return 0;
    return res;
}
template <class S, int W, bool INV> static int64_t l1_resident()
{
    return l1_resident_of((const void *)l1_levels<S, W, INV>);
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

/* a held level's rounds for a grid of res blocks (l1_rnd), 0 where none
 * fit: whole lines, as many a round as fit; else rounds of one line, each
 * of a multiple of unit segments (a pair's); at most hold samples a round
 * (0: no bound but the blocks') */
template <class S, int W>
static int l1_rounds_geo(int64_t n, int64_t nlines, int64_t res, int64_t unit, int64_t hold, l1_rnd *R, l1_geo *g)
{
    memset(R, 0, sizeof *R);
    const int64_t nseg = (n + L1_SEG - 1) / L1_SEG;
    if (res < 1 || unit < 1) return 0;
    if (l1_held_geo<S, W>(n, 1, res, g) && (!hold || n <= hold)) {
        int64_t per = nlines < res ? nlines : res;
        while (per > 1 && (!l1_held_geo<S, W>(n, per, res, g) || (hold && per * n > hold))) per--;
        l1_held_geo<S, W>(n, per, res, g);
        R->per = per, R->nrounds = (nlines + per - 1) / per;
        return 1;
    }
    int64_t cs = 1; /* the most segments a block holds */
    l1_geo t;
    while (l1_held_geo<S, W>((2 * cs) * L1_SEG, 1, 1, &t)) cs *= 2;
    for (int64_t step = cs / 2; step >= 1; step /= 2)
        if (l1_held_geo<S, W>((cs + step) * L1_SEG, 1, 1, &t)) cs += step;
    int64_t most = res * cs;
    if (hold && hold / L1_SEG < most) most = hold / L1_SEG;
    most = most / unit * unit;
    if (most < unit) return 0;
    R->rpl = (nseg + most - 1) / most;
    R->segs = ((nseg + R->rpl - 1) / R->rpl + unit - 1) / unit * unit;
    R->rpl = (nseg + R->segs - 1) / R->segs;
    R->nrounds = R->rpl * nlines;
    if (!l1_held_geo<S, W>(R->segs * L1_SEG, 1, res, g)) return 0;
    g->nseg = nseg;
    return R->rpl > 1;
}

extern "C" size_t lwk_line1d_side_bytes(int dtype, const lwk_wave *w)
{
    lwk_line1d p;
    memset(&p, 0, sizeof p);
    p.w = *w;
    size_t b = 0;
    l1_dispatch(dtype, &p, [&](auto s, auto wc, auto) -> cudaError_t {
        b = 3 * (size_t)l1_halo(decltype(wc)::value) * sizeof(*s);
        return cudaSuccess;
    });
    return b;
}

static int l1_pair_ok(const lwk_line1d *p)
{
    return !p->pair || (p->pair % (2 * L1_SEG) == 0 && (p->L.n + p->pair - 1) / p->pair * p->pair - p->L.n <= 1);
}

extern "C" int lwk_line1d_rounds_fit(int dtype, const lwk_line1d *p)
{
    if (p->L.nlines < 1 || p->L.n < 2 || !l1_pair_ok(p)) return 0;
    return l1_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
               typedef typename std::remove_pointer<decltype(s)>::type S;
               constexpr int W = decltype(wc)::value;
               l1_rnd R;
               l1_geo g;
               const int64_t res = l1_resident_of((const void *)l1_rounds<S, W, decltype(inv)::value>);
               return l1_rounds_geo<S, W>(p->L.n, p->L.nlines, res, p->pair ? p->pair / L1_SEG : 1, p->hold, &R, &g)
                          ? cudaSuccess
                          : cudaErrorInvalidValue;
           }) == cudaSuccess;
}

extern "C" cudaError_t lwk_line1d_rounds(int dtype, const lwk_line1d *p, void *side, cudaStream_t st)
{
    if (p->L.nlines < 1 || p->L.n < 2 || p->lo != p->dst || p->hi != p->dst || p->lo_cl || p->dst_cl || !l1_pair_ok(p))
        return cudaErrorInvalidValue;
    return l1_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
        typedef typename std::remove_pointer<decltype(s)>::type S;
        constexpr int W = decltype(wc)::value;
        constexpr bool INV = decltype(inv)::value;
        const void *fn = (const void *)l1_rounds<S, W, INV>;
        l1_prog P;
        memset(&P, 0, sizeof P);
        P.w = p->w, P.mode = p->mode, P.nd = p->L.nd, P.nlev = 1, P.nlines = p->L.nlines;
        memcpy(P.dlen, p->L.dlen, sizeof P.dlen);
        memcpy(P.dstr, p->L.dstr, sizeof P.dstr);
        l1_lev &v = P.lev[0];
        v.n = p->L.n, v.nlo = p->nlo, v.ls = p->L.lstride;
        v.lo = v.hi = p->dst, v.dst = v.dst_hi = p->dst;
        v.in_split = p->in_split, v.out_split = p->out_split, v.held = 1, v.pair = p->pair;
        l1_rnd R;
        const int64_t res = l1_resident_of(fn);
        if (!l1_rounds_geo<S, W>(v.n, P.nlines, res, p->pair ? p->pair / L1_SEG : 1, p->hold, &R, &v.g))
            return cudaErrorCooperativeLaunchTooLarge;
        R.side = side;
        void *args[] = {(void *)&P, (void *)&R};
        return cudaLaunchCooperativeKernel(fn, dim3((unsigned)res), dim3(L1_THREADS), args, L1_SMEM_HELD, st);
    });
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
            v.in_split = lev[i].in_split, v.out_split = lev[i].out_split, v.held = held[i], v.pair = lev[i].pair;
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
