/* Generic pass: one level of lifting along one axis, for every line of a
 * region.  Each block loads P lines (or one segment of a long line with a halo)
 * into shared memory, runs every lifting step with a barrier between steps
 * (boundary samples read through the mode at every step, exactly as the
 * reference), and stores the result (Mallat reorder on the fly).  Covers every
 * wavelet, dtype, mode, layout, rank and batch, and the adjoint directions
 * (transposed steps, lwd_adj_step); the fused engines are faster where they
 * apply.  The kernels take the storage type S of global memory and compute in
 * lwd_c<S> (float for the half types): shared memory holds the compute type,
 * the walk's stash the storage type (originals, copied as they are). */
#include "lw_cuda_dev.cuh"

#include <string.h>

#define PASS_THREADS 256
/* a window of whole lines takes up to PASS_SMEM_MAX; segments of longer
 * lines take PASS_SMEM_SEG, so that three blocks share an SM of an
 * H100-class device (228 KB) */
#define PASS_SMEM_MAX (96 * 1024)
#define PASS_SMEM_SEG (64 * 1024)
/* walk: blocks wanted (several waves of an H100-class device, so that the
 * last wave is short); lines are cut into chunks until their count reaches
 * it, as long as the stash (2H samples per chunk edge and line) stays within
 * 1/WALK_STASH_DIV of the lines */
#define WALK_BLOCKS 2048
#define WALK_STASH_DIV 256
/* window loads a thread keeps in flight (pass_kernel) */
#define LOAD_BATCH 8

typedef struct pass_geo {
    int P;          /* lines per block */
    int walk;       /* in place: a block walks its chunk's segments in order (lwk_walk_launch) */
    int64_t H;      /* window halo per side */
    int64_t cseg;   /* walk: segments per chunk */
    int64_t nchunk; /* walk: chunks per line */
    int contig;     /* 1: threads walk along lines; 0: threads walk across lines */
    int ext;        /* periodic multi-segment: window loaded mod n, no per-step map */
    int64_t seg;    /* outputs per segment */
    int64_t nseg;
    int64_t WL;     /* shared row length per line */
    int64_t nitems;
} pass_geo;

/* bytes of the compute type (shared memory) and of the storage type */
static int elsize(int dtype) { return dtype == LWK_F64 ? 8 : 4; }
static int stsize(int dtype) { return dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4; }

/* walk: room for the carry (P x H originals) beside the window, and chunks
 * enough to fill the device (each at least two segments long) */
static pass_geo pass_plan(int dtype, const lwk_pass *p, int walk)
{
    pass_geo g;
    memset(&g, 0, sizeof g);
    int64_t n = p->L.n, H = p->w.halo + 1;
    int64_t cap = (PASS_SMEM_MAX - 32 * 8) / elsize(dtype) - (walk ? 32 * H : 0);
    const int64_t scap = (PASS_SMEM_SEG - 32 * 8) / elsize(dtype) - (walk ? 32 * H : 0); /* segmented windows */
    g.H = H;
    g.contig = p->L.lstride == 1 || p->L.nd == 0 || p->L.dstr[0] != 1 || p->L.nlines == 1;
    if (g.contig) {
        if (n <= cap) {
            g.nseg = 1, g.seg = n, g.WL = n;
            int64_t P = 4096 / n;
            if (P < 1) P = 1;
            if (P > 32) P = 32;
            if (P > p->L.nlines) P = p->L.nlines;
            g.P = (int)P;
        } else {
            g.seg = (scap - 2 * H - 2) & ~(int64_t)1;
            if (g.seg > 16384) g.seg = 16384;
            g.nseg = (n + g.seg - 1) / g.seg;
            g.WL = g.seg + 2 * H;
            g.P = 1;
        }
    } else {
        int64_t P = p->L.nlines < 32 ? p->L.nlines : 32;
        g.P = (int)P;
        if (n * P <= cap - P) {
            g.nseg = 1, g.seg = n, g.WL = n | 1;
        } else {
            g.seg = (scap / P - 2 * H - 2) & ~(int64_t)1;
            g.nseg = (n + g.seg - 1) / g.seg;
            g.WL = (g.seg + 2 * H) | 1;
        }
    }
    g.ext = p->mode == LW_PERIODIC && g.nseg > 1;
    const int64_t groups = (p->L.nlines + g.P - 1) / g.P;
    g.nitems = groups * g.nseg;
    g.cseg = g.nseg, g.nchunk = 1;
    if (walk && g.nseg > 1) {
        g.walk = 1;
        int64_t want = (WALK_BLOCKS + groups - 1) / groups, most = g.nseg / 2;
        const int64_t room = n / (WALK_STASH_DIV * 2 * H) - 1; /* (nchunk + 1) * 2H <= n / WALK_STASH_DIV */
        if (most > room) most = room;
        g.nchunk = want < 1 ? 1 : want > most ? (most > 0 ? most : 1) : want;
        g.cseg = (g.nseg + g.nchunk - 1) / g.nchunk;
        g.nchunk = (g.nseg + g.cseg - 1) / g.cseg;
        g.nitems = groups * g.nchunk;
    }
    return g;
}

/* Chunk boundary b of a walk (b = 0 .. nchunk; the last is n). */
__device__ __forceinline__ int64_t walk_bound(const pass_geo &g, int64_t b, int64_t n)
{
    int64_t c = b * g.cseg * g.seg;
    return c < n ? c : n;
}

/* Element e of a block's np lines of len positions each: line li, position
 * j.  Threads walk along lines (contig: consecutive threads, consecutive
 * positions) or across them (consecutive threads, consecutive lines: the
 * shared rows are an odd number of words apart, no bank conflicts); the
 * common shapes (one line, 32 lines) without a division. */
__device__ __forceinline__ void line_pos(int e, int np, int len, int contig, int &li, int &j)
{
    if (np == 1) li = 0, j = e;
    else if (contig) li = e / len, j = e - li * len;
    else if (np == 32) li = e & 31, j = e >> 5;
    else j = e / np, li = e - j * np;
}

/* The scaling of every sample of the window's lines (zeta by parity), then
 * a barrier: first in the inverse structure, last in the forward one. */
template <class T>
__device__ __forceinline__ void scale_window(const lwk_wave &w, const pass_geo &g, T *buf, int np, int64_t w0,
                                             int64_t wl, int dir)
{
    const int wn = (int)wl; /* shared-memory extents: 32-bit index arithmetic */
    for (int e = threadIdx.x; e < np * wn; e += blockDim.x) {
        int li, j;
        line_pos(e, np, wn, g.contig, li, j);
        T *x = &buf[li * g.WL + j];
        *x = lwd_scale<T>(w, *x, (int)((w0 + j) & 1), dir);
    }
    __syncthreads();
}

/* In place, a walk: the block owning chunk [c0, c1) of its lines runs the
 * chunk's segments in order; a window position before the segment (already
 * overwritten by this block) comes from the carry (the originals of the last
 * H positions, saved from the previous window), one outside the chunk (which
 * other blocks overwrite) from the stash of originals around each chunk
 * boundary (walk_stash_kernel, run before). */
template <class S>
__global__ void __launch_bounds__(PASS_THREADS) pass_kernel(lwk_pass p, pass_geo g, const S *src, S *dst, const S *stash)
{
    typedef lwd_c<S> T;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    int64_t *lbase = (int64_t *)smem_raw;
    T *buf = (T *)(smem_raw + 32 * sizeof(int64_t));
    T *carry = buf + (size_t)g.P * g.WL; /* walk: P x H */
    const int64_t n = p.L.n, ls = p.L.lstride, H = g.H; /* window halo (pass_plan) */
    const int tid = threadIdx.x, nt = blockDim.x;
    const int lift = !p.copy_only && n >= 2;
    /* steps added (+1) or subtracted, zeta multiplied (+1) or divided: the
     * forward and the inverse's adjoint scale last, the others first */
    const int dir = (p.inverse != p.adjoint) ? -1 : 1;

    for (int64_t item = blockIdx.x; item < g.nitems; item += gridDim.x) {
        const int64_t per = g.walk ? g.nchunk : g.nseg;
        int64_t lg = item / per, ch = item - lg * per;
        int64_t line0 = lg * g.P;
        int np = (int)((p.L.nlines - line0) < g.P ? (p.L.nlines - line0) : g.P);
        const int64_t sg0 = g.walk ? ch * g.cseg : ch, sgn = g.walk ? g.cseg : 1;
        const int64_t c0 = g.walk ? walk_bound(g, ch, n) : 0, c1 = g.walk ? walk_bound(g, ch + 1, n) : n;
        for (int i = tid; i < np; i += nt) lbase[i] = lwd_decomp(line0 + i, p.L.nd, p.L.dlen, p.L.dstr);
        __syncthreads();
        for (int64_t sg = sg0; sg < sg0 + sgn && sg < g.nseg; sg++) {
            int64_t s0 = sg * g.seg, s1 = s0 + g.seg < n ? s0 + g.seg : n;
            int64_t w0, w1;
            if (g.nseg == 1) {
                w0 = 0, w1 = n;
            } else if (g.ext) {
                w0 = s0 - H, w1 = s1 + H;
            } else {
                w0 = s0 - H > 0 ? s0 - H : 0;
                w1 = s1 + H < n ? s1 + H : n;
            }
            const int64_t wl = w1 - w0;

            /* load: LOAD_BATCH independent loads per thread in flight before
             * any is stored to shared memory (the loads' latency, not the
             * bandwidth, bounds a block that issues one at a time) */
            const int demallat = p.mallat && p.inverse && !p.copy_only;
            const int wl32 = (int)wl; /* window extents fit shared memory: 32-bit index arithmetic */
            const int tot = np * wl32;
            for (int e0 = tid; e0 < tot; e0 += nt * LOAD_BATCH) {
                T v[LOAD_BATCH];
                int at[LOAD_BATCH];
#pragma unroll
                for (int u = 0; u < LOAD_BATCH; u++) {
                    const int e = e0 + u * nt;
                    if (e >= tot) break;
                    int li, j;
                    line_pos(e, np, wl32, g.contig, li, j);
                    int64_t pos = w0 + j;
                    if (g.walk && (pos < c0 || pos >= c1)) {
                        int64_t b = pos < c0 ? ch : ch + 1;
                        v[u] = lwd_ld(stash + ((line0 + li) * (g.nchunk + 1) + b) * 2 * g.H + (pos - (walk_bound(g, b, n) - g.H)));
                    } else if (g.walk && pos < s0) {
                        v[u] = carry[li * g.H + (pos - (s0 - g.H))];
                    } else {
                        int64_t pm = g.ext ? lwd_bidx(pos, n, LW_PERIODIC) : pos;
                        int64_t idx = demallat ? lwd_mallat(pm, n) : pm;
                        v[u] = lwd_ld(src + lbase[li] + idx * ls);
                    }
                    at[u] = li * (int)g.WL + j;
                }
#pragma unroll
                for (int u = 0; u < LOAD_BATCH; u++)
                    if (e0 + u * nt < tot) buf[at[u]] = v[u];
            }
            __syncthreads();
            if (g.walk) { /* the originals the next segment's window starts with */
                for (int e = tid; e < np * (int)g.H; e += nt) {
                    int li = e / (int)g.H, j = e - li * (int)g.H;
                    int64_t pos = s1 - g.H + j;
                    if (pos >= w0) carry[li * g.H + j] = buf[li * g.WL + (pos - w0)];
                }
                __syncthreads();
            }

            if (lift) {
                if (p.inverse) scale_window(p.w, g, buf, np, w0, wl, dir);
                for (int ss = 0; ss < p.w.nsteps; ss++) {
                    int s = p.inverse ? p.w.nsteps - 1 - ss : ss;
                    int par = p.adjoint ? !p.w.target_odd[s] : p.w.target_odd[s]; /* the samples updated */
                    const int lf = ((int)(w0 & 1)) != par ? 1 : 0; /* the first target's window index */
                    const int ntg32 = lf < wl32 ? (wl32 - lf + 1) / 2 : 0;
                    const int ntap = p.w.ntaps[s];
                    int lo = 0, hi = 0; /* the step's tap reach */
                    for (int i = 0; i < ntap; i++) {
                        lo = p.w.off[s][i] < lo ? p.w.off[s][i] : lo;
                        hi = p.w.off[s][i] > hi ? p.w.off[s][i] : hi;
                    }
                    /* window indices whose taps all fall inside the window read
                     * them directly, 32-bit: the window lies inside the line
                     * (0 <= w0, w1 <= n) or is the periodic extension, so
                     * such taps need no boundary mapping */
                    const int in_lo = -lo, in_hi = wl32 - 1 - hi;
                    const int tot = np * ntg32;
                    for (int e = tid; e < tot; e += nt) {
                        int li, q;
                        line_pos(e, np, ntg32, g.contig, li, q);
                        const int lj = lf + 2 * q;
                        T *row = &buf[li * (int)g.WL];
                        if (p.adjoint) { /* reads the step's targets only: in place is safe */
                            const int64_t pos = w0 + lj;
                            row[lj] = lwd_adj_step<T>(p.w, s, row[lj], row, w0, wl, pos, n, p.mode, g.ext, dir);
                            continue;
                        }
                        T taps[LW_MAX_TAPS];
                        if (lj >= in_lo && lj <= in_hi) {
#pragma unroll
                            for (int i = 0; i < LW_MAX_TAPS; i++)
                                if (i < ntap) taps[i] = row[lj + p.w.off[s][i]];
                        } else {
                            const int64_t pos = w0 + lj;
                            for (int i = 0; i < ntap; i++) {
                                int64_t pp = pos + p.w.off[s][i];
                                if (!g.ext) pp = lwd_bidx(pp, n, p.mode);
                                /* a tap outside the window (a segment's edge, whose
                                 * outputs are not stored) reads the nearest sample of
                                 * its own parity: never a target of this step, so no
                                 * thread reads what another writes */
                                int64_t loc = pp - w0;
                                loc = loc < 0 ? (loc & 1) : (loc >= wl ? wl - 1 - ((wl - 1 - loc) & 1) : loc);
                                taps[i] = row[loc];
                            }
                        }
                        row[lj] = lwd_step<T>(p.w, s, row[lj], taps, dir);
                    }
                    __syncthreads();
                }
                if (!p.inverse) scale_window(p.w, g, buf, np, w0, wl, dir);
            }

            /* store the segment's own outputs */
            const int remallat = p.mallat && !p.inverse && !p.copy_only;
            const int64_t so = s1 - s0;
            const int so32 = (int)so;
            for (int e = tid; e < np * so32; e += nt) {
                int li, j;
                line_pos(e, np, so32, g.contig, li, j);
                int64_t pos = s0 + j;
                int64_t idx = remallat ? lwd_mallat(pos, n) : pos;
                lwd_st(dst + lbase[li] + idx * ls, buf[li * g.WL + (pos - w0)]);
            }
            __syncthreads();
        }
    }
}

/* The originals around each chunk boundary of a walk: 2H positions per
 * boundary and line, through the periodic wrap (other modes: positions
 * outside the line are never read). */
template <class S> __global__ void walk_stash_kernel(lwk_pass p, pass_geo g, const S *src, S *stash)
{
    const int64_t n = p.L.n, per = (g.nchunk + 1) * 2 * g.H, total = p.L.nlines * per;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t line = e / per, r = e - line * per, b = r / (2 * g.H), t = r - b * 2 * g.H;
        int64_t pos = walk_bound(g, b, n) - g.H + t;
        if (p.mode != LW_PERIODIC && (pos < 0 || pos >= n)) continue;
        pos = lwd_bidx(pos, n, LW_PERIODIC);
        stash[e] = src[lwd_decomp(line, p.L.nd, p.L.dlen, p.L.dstr) + pos * p.L.lstride];
    }
}

template <class S>
static cudaError_t pass_run(const lwk_pass *p, const void *src, void *dst, void *stash, int walk, cudaStream_t s)
{
    typedef lwd_c<S> T;
    pass_geo g = pass_plan(sizeof(T) == 8 ? LWK_F64 : LWK_F32, p, walk);
    size_t smem = 32 * sizeof(int64_t) + ((size_t)g.P * (size_t)g.WL + (g.walk ? (size_t)g.P * g.H : 0)) * sizeof(T);
    const cudaError_t attr = lw_cuda_func_attr((const void *)pass_kernel<S>, LW_SMEM_ATTR, PASS_SMEM_MAX);
    if (attr != cudaSuccess) return attr;
    int64_t grid = g.nitems < (1 << 20) ? g.nitems : (1 << 20);
    if (grid < 1) return cudaSuccess;
    if (g.walk) {
        int64_t se = p->L.nlines * (g.nchunk + 1) * 2 * g.H, sb = (se + 255) / 256;
        walk_stash_kernel<S><<<(unsigned)(sb < 65536 ? sb : 65536), 256, 0, s>>>(*p, g, (const S *)src, (S *)stash);
    }
    pass_kernel<S><<<(unsigned)grid, PASS_THREADS, smem, s>>>(*p, g, (const S *)src, (S *)dst, (const S *)stash);
    return cudaGetLastError();
}

/* ---- column pass: lines across the fastest dimension, in place ------------
 * A block holds 32 neighbouring lines (dlen[0] has stride 1: every row of the
 * block is one coalesced 128-byte access) whole in shared memory, laid out
 * [position][lane] so that the warp reads 32 banks; 8 warps share the work of
 * each step.  Used for the slow axis of 3-D volumes. */
#define COL_LANES 32
#define COL_ROWS 8

template <class S> __global__ void __launch_bounds__(COL_LANES * COL_ROWS) col_kernel(lwk_pass p, int64_t ntiles)
{
    typedef lwd_c<S> T;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T(*buf)[COL_LANES + 1] = (T(*)[COL_LANES + 1])smem_raw;
    const int64_t n = p.L.n, ls = p.L.lstride;
    const int tx = threadIdx.x % COL_LANES, ty = threadIdx.x / COL_LANES;
    const int dir = (p.inverse != p.adjoint) ? -1 : 1; /* as in pass_kernel */
    const int64_t nx = p.L.dlen[0];
    const int64_t nouter = p.L.nlines / nx;
    for (int64_t item = blockIdx.x; item < ntiles * nouter; item += gridDim.x) {
        int64_t xt = item % ntiles, outer = item / ntiles;
        int64_t x0 = xt * COL_LANES;
        bool act = x0 + tx < nx;
        int64_t base = x0 + tx + lwd_decomp(outer, p.L.nd - 1, p.L.dlen + 1, p.L.dstr + 1);
        const S *src = (const S *)p.src_;
        if (act) {
#pragma unroll 8
            for (int64_t z = ty; z < n; z += COL_ROWS) {
                int64_t idx = (p.mallat && p.inverse) ? lwd_mallat(z, n) : z;
                buf[z][tx] = lwd_ld(src + base + idx * ls);
            }
        }
        __syncthreads();
        if (p.inverse) {
            for (int64_t z = ty; z < n; z += COL_ROWS) buf[z][tx] = lwd_scale<T>(p.w, buf[z][tx], (int)(z & 1), dir);
            __syncthreads();
        }
        for (int ss = 0; ss < p.w.nsteps; ss++) {
            int s = p.inverse ? p.w.nsteps - 1 - ss : ss;
            int par = p.adjoint ? !p.w.target_odd[s] : p.w.target_odd[s];
            for (int64_t t = par + 2 * ty; t < n; t += 2 * COL_ROWS) {
                if (p.adjoint) {
                    buf[t][tx] = lwd_adj_step_col<T>(p.w, s, buf[t][tx], &buf[0][tx], COL_LANES + 1, t, n, p.mode, dir);
                    continue;
                }
                T taps[LW_MAX_TAPS];
                for (int i = 0; i < p.w.ntaps[s]; i++) {
                    int64_t q = t + p.w.off[s][i];
                    if (q < 0 || q >= n) q = lwd_bidx(q, n, p.mode);
                    taps[i] = buf[q][tx];
                }
                buf[t][tx] = lwd_step<T>(p.w, s, buf[t][tx], taps, dir);
            }
            __syncthreads();
        }
        if (!p.inverse)
            for (int64_t z = ty; z < n; z += COL_ROWS) buf[z][tx] = lwd_scale<T>(p.w, buf[z][tx], (int)(z & 1), dir);
        __syncthreads();
        S *dst = (S *)p.dst_;
        if (act) {
#pragma unroll 8
            for (int64_t z = ty; z < n; z += COL_ROWS) {
                int64_t idx = (p.mallat && !p.inverse) ? lwd_mallat(z, n) : z;
                lwd_st(dst + base + idx * ls, buf[z][tx]);
            }
        }
        __syncthreads();
    }
}

extern "C" int lwk_colpass_ok(int dtype, const lwk_pass *p)
{
    size_t smem = (size_t)p->L.n * (COL_LANES + 1) * elsize(dtype);
    return p->L.nd >= 1 && p->L.dstr[0] == 1 && p->L.lstride != 1 && p->L.n >= 2 && smem <= PASS_SMEM_MAX;
}

template <class S> static cudaError_t col_run(const lwk_pass *p, const void *src, void *dst, cudaStream_t s)
{
    typedef lwd_c<S> T;
    lwk_pass q = *p;
    q.src_ = src, q.dst_ = dst;
    size_t smem = (size_t)p->L.n * (COL_LANES + 1) * sizeof(T);
    const cudaError_t attr = lw_cuda_func_attr((const void *)col_kernel<S>, LW_SMEM_ATTR, PASS_SMEM_MAX);
    if (attr != cudaSuccess) return attr;
    int64_t ntiles = (p->L.dlen[0] + COL_LANES - 1) / COL_LANES;
    int64_t items = ntiles * (p->L.nlines / p->L.dlen[0]);
    int64_t grid = items < (1 << 20) ? items : (1 << 20);
    if (grid < 1) return cudaSuccess;
    col_kernel<S><<<(unsigned)grid, COL_LANES * COL_ROWS, smem, s>>>(q, ntiles);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_colpass_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t s)
{
    if (!lwk_colpass_ok(dtype, p)) return cudaErrorInvalidValue;
    return lwd_by_dtype(dtype, [&](auto t) { return col_run<LWD_TYPE_OF(t)>(p, src, dst, s); });
}

extern "C" int64_t lwk_pass_segments(int dtype, const lwk_pass *p) { return pass_plan(dtype, p, 0).nseg; }

extern "C" size_t lwk_walk_stash_bytes(int dtype, const lwk_pass *p)
{
    pass_geo g = pass_plan(dtype, p, 1);
    return g.walk ? (size_t)(p->L.nlines * (g.nchunk + 1) * 2 * g.H) * (size_t)stsize(dtype) : 0;
}

static cudaError_t pass_any(int dtype, const lwk_pass *p, const void *src, void *dst, void *stash, int walk,
                            cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto t) { return pass_run<LWD_TYPE_OF(t)>(p, src, dst, stash, walk, s); });
}

extern "C" cudaError_t lwk_pass_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t s)
{
    return pass_any(dtype, p, src, dst, NULL, 0, s);
}

extern "C" cudaError_t lwk_walk_launch(int dtype, const lwk_pass *p, void *data, void *stash, cudaStream_t s)
{
    if (p->mallat) return cudaErrorInvalidValue; /* in place along the line: interleaved, then lwk_permute_launch */
    return pass_any(dtype, p, data, data, stash, 1, s);
}
