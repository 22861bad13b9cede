/* Whole-line passes: one level along one axis for lines that fit a block's
 * shared memory whole.  A block reads all of its lines before it writes any
 * and no two blocks share a line, so the pass runs in place as well as out of
 * place, in one read and one write of the lines.
 *
 * The wavelet's step structure is compile-time (wavelet_ct.cuh): taps at
 * constant offsets, no per-tap loop bounds.  A line is held in Mallat order,
 * its even (lowpass) samples in slots [0, nlo) and its odd ones after them,
 * so that a step's taps are the other half at consecutive slots (no bank
 * conflicts) and the Mallat layout is a straight copy on load or store.
 * Taps outside the line go through the boundary mode at every step, as the
 * reference does; the scaling is folded into the load (inverse) or the store
 * (forward).
 *
 * Two shapes:
 *   rows     lines along the axis with the smallest stride (or where no
 *            other axis is faster): R lines a block (a power of two, short
 *            lines several a block), 256 / R threads a line, 16-byte vector
 *            accesses along contiguous lines;
 *   columns  lines across a faster dimension: `lanes` neighbouring lines of
 *            that dimension side by side ([slot][lane]), 16-byte vectors
 *            across contiguous lanes.
 * Forward and inverse only: the adjoint directions and copies stay with the
 * generic pass (k_pass.cu), which also takes what does not fit. */
#include "lw_cuda_dev.cuh"
#include "line_lift.cuh"

#include <string.h>

#define LN_THREADS 256
/* shared memory a block may take: two blocks an SM of an H100-class device */
#define LN_SMEM_MAX (96 * 1024)
/* samples a row block holds (short lines: several a block) */
#define LN_ROW_SAMPLES 4096
/* vector loads a thread keeps in flight before their shared-memory stores */
#define LN_BATCH 4

typedef struct ln_geo {
    int n, nlo;     /* line length; its even samples (slots of the lowpass half) */
    int rows;       /* 1: the row shape, 0: the column shape */
    int R;          /* rows: lines a block (power of two; 256 / R threads a line) */
    int lanes;      /* columns: lines side by side (32, 16 or 8) */
    int ld;         /* rows: shared elements between lines */
    int vec;        /* 16-byte global accesses */
    int64_t items;  /* rows: groups of R lines; columns: lane tiles x outer lines */
    int64_t ntiles; /* columns: lane tiles across dlen[0] */
    size_t smem;
} ln_geo;

/* every step in order (forward) or reversed (inverse), a barrier after each */
template <class T, int W, bool INV, int K = 0>
__device__ __forceinline__ void ln_steps(const lwk_wave &w, T *b, int st, int n, int nlo, int mode, int i0, int di,
                                         bool act)
{
    if constexpr (K < sh_nsteps(W)) {
        constexpr int s = INV ? sh_nsteps(W) - 1 - K : K;
        if (act) ln_lift<T, W, s, INV ? -1 : 1>(w, b, st, n, nlo, mode, i0, di);
        __syncthreads();
        ln_steps<T, W, INV, K + 1>(w, b, st, n, nlo, mode, i0, di, act);
    }
}

/* ---- rows ------------------------------------------------------------------ */

template <class S, int W, bool INV> __global__ void __launch_bounds__(LN_THREADS, 3) ln_rows(lwk_pass p, ln_geo g)
{
    typedef lwd_c<S> T;
    typedef ln_vec<S> VS;
    extern __shared__ __align__(16) unsigned char ln_smem[];
    const int tpl = LN_THREADS / g.R, li = threadIdx.x / tpl, lt = threadIdx.x - li * tpl;
    T *b = (T *)ln_smem + li * g.ld;
    const int n = g.n, nlo = g.nlo, dir = INV ? -1 : 1;
    const int64_t ls = p.L.lstride;
    const bool min_ = p.mallat && INV, mout = p.mallat && !INV; /* Mallat order on load / on store */
    const S *src = (const S *)p.src_;
    S *dst = (S *)p.dst_;
    for (int64_t item = blockIdx.x; item < g.items; item += gridDim.x) {
        const int64_t line = item * g.R + li;
        const bool act = line < p.L.nlines;
        const int64_t base = act ? lwd_decomp(line, p.L.nd, p.L.dlen, p.L.dstr) : 0;
        if (act && g.vec) {
            const int nv = n / VS::V;
            for (int c0 = lt; c0 < nv; c0 += tpl * LN_BATCH) {
                VS v[LN_BATCH];
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (c0 + u * tpl < nv) v[u].u = *(const uint4 *)(src + base + (int64_t)(c0 + u * tpl) * VS::V);
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (c0 + u * tpl < nv)
#pragma unroll
                        for (int e = 0; e < VS::V; e++) {
                            const int sl = ln_gslot((c0 + u * tpl) * VS::V + e, nlo, min_);
                            T x = lwd_store<S>::ld(v[u].e() + e);
                            b[sl] = INV ? lwd_scale<T>(p.w, x, sl >= nlo, dir) : x;
                        }
            }
        } else if (act) {
            for (int j0 = lt; j0 < n; j0 += tpl * LN_BATCH) {
                T v[LN_BATCH];
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (j0 + u * tpl < n) v[u] = lwd_ld(src + base + (int64_t)(j0 + u * tpl) * ls);
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (j0 + u * tpl < n) {
                        const int sl = ln_gslot(j0 + u * tpl, nlo, min_);
                        b[sl] = INV ? lwd_scale<T>(p.w, v[u], sl >= nlo, dir) : v[u];
                    }
            }
        }
        __syncthreads();
        ln_steps<T, W, INV>(p.w, b, 1, n, nlo, p.mode, lt, tpl, act);
        if (act && g.vec) {
            const int nv = n / VS::V;
            for (int c = lt; c < nv; c += tpl) {
                VS v;
#pragma unroll
                for (int e = 0; e < VS::V; e++) {
                    const int sl = ln_gslot(c * VS::V + e, nlo, mout);
                    T x = b[sl];
                    lwd_store<S>::st(v.e() + e, INV ? x : lwd_scale<T>(p.w, x, sl >= nlo, dir));
                }
                *(uint4 *)(dst + base + (int64_t)c * VS::V) = v.u;
            }
        } else if (act) {
            for (int j = lt; j < n; j += tpl) {
                const int sl = ln_gslot(j, nlo, mout);
                T x = b[sl];
                lwd_st(dst + base + (int64_t)j * ls, INV ? x : lwd_scale<T>(p.w, x, sl >= nlo, dir));
            }
        }
        __syncthreads();
    }
}

/* ---- columns --------------------------------------------------------------- */

template <class S, int W, bool INV> __global__ void __launch_bounds__(LN_THREADS, 4) ln_cols(lwk_pass p, ln_geo g)
{
    typedef lwd_c<S> T;
    typedef ln_vec<S> VS;
    extern __shared__ __align__(16) unsigned char ln_smem[];
    T *buf = (T *)ln_smem;
    const int LN = g.lanes, lane = threadIdx.x % LN, r = threadIdx.x / LN, rp = LN_THREADS / LN;
    const int n = g.n, nlo = g.nlo, dir = INV ? -1 : 1;
    const int64_t ls = p.L.lstride, nx = p.L.dlen[0], sx = p.L.dstr[0];
    const bool min_ = p.mallat && INV, mout = p.mallat && !INV;
    const S *src = (const S *)p.src_;
    S *dst = (S *)p.dst_;
    const int vpr = LN / VS::V; /* vectors a row of lanes */
    for (int64_t item = blockIdx.x; item < g.items; item += gridDim.x) {
        const int64_t xt = item % g.ntiles, outer = item / g.ntiles, x0 = xt * LN;
        const int64_t base = x0 * sx + lwd_decomp(outer, p.L.nd - 1, p.L.dlen + 1, p.L.dstr + 1);
        if (g.vec) { /* sx == 1, nx a multiple of V: a vector is wholly inside or outside */
            const int tot = n * vpr;
            for (int e0 = threadIdx.x; e0 < tot; e0 += LN_THREADS * LN_BATCH) {
                VS v[LN_BATCH];
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++) {
                    const int e = e0 + u * LN_THREADS, j = e / vpr, c = e - j * vpr;
                    if (e < tot && x0 + c * VS::V < nx) v[u].u = *(const uint4 *)(src + base + c * VS::V + j * ls);
                }
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++) {
                    const int e = e0 + u * LN_THREADS, j = e / vpr, c = e - j * vpr;
                    if (e < tot && x0 + c * VS::V < nx) {
                        const int sl = ln_gslot(j, nlo, min_);
#pragma unroll
                        for (int k = 0; k < VS::V; k++) {
                            T x = lwd_store<S>::ld(v[u].e() + k);
                            buf[sl * LN + c * VS::V + k] = INV ? lwd_scale<T>(p.w, x, sl >= nlo, dir) : x;
                        }
                    }
                }
            }
        } else {
            const bool act = x0 + lane < nx;
            for (int j0 = r; j0 < n; j0 += rp * LN_BATCH) {
                T v[LN_BATCH];
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (act && j0 + u * rp < n) v[u] = lwd_ld(src + base + lane * sx + (int64_t)(j0 + u * rp) * ls);
#pragma unroll
                for (int u = 0; u < LN_BATCH; u++)
                    if (act && j0 + u * rp < n) {
                        const int sl = ln_gslot(j0 + u * rp, nlo, min_);
                        buf[sl * LN + lane] = INV ? lwd_scale<T>(p.w, v[u], sl >= nlo, dir) : v[u];
                    }
            }
        }
        __syncthreads();
        ln_steps<T, W, INV>(p.w, buf + lane, LN, n, nlo, p.mode, r, rp, x0 + lane < nx);
        if (g.vec) {
            for (int e = threadIdx.x; e < n * vpr; e += LN_THREADS) {
                const int j = e / vpr, c = e - j * vpr;
                if (x0 + c * VS::V >= nx) continue;
                const int sl = ln_gslot(j, nlo, mout);
                VS v;
#pragma unroll
                for (int k = 0; k < VS::V; k++) {
                    T x = buf[sl * LN + c * VS::V + k];
                    lwd_store<S>::st(v.e() + k, INV ? x : lwd_scale<T>(p.w, x, sl >= nlo, dir));
                }
                *(uint4 *)(dst + base + c * VS::V + j * ls) = v.u;
            }
        } else if (x0 + lane < nx) {
            for (int j = r; j < n; j += rp) {
                const int sl = ln_gslot(j, nlo, mout);
                T x = buf[sl * LN + lane];
                lwd_st(dst + base + lane * sx + (int64_t)j * ls, INV ? x : lwd_scale<T>(p.w, x, sl >= nlo, dir));
            }
        }
        __syncthreads();
    }
}

/* ---- host side ------------------------------------------------------------- */

static size_t ln_csize(int dtype) { return dtype == LWK_F64 ? 8 : 4; } /* the compute type */
static size_t ln_ssize(int dtype) { return dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4; }

/* The shape and sizes of a pass, or 0 where the pass is not one of these
 * kernels' (pointers: 16-byte accesses need them aligned; NULL plans
 * without vectors). */
static int ln_plan(int dtype, const lwk_pass *p, const void *src, const void *dst, ln_geo *g)
{
    const lw_wavelet_def *d = p->w.id < LW_TRANSPOSED_ID ? lw_wavelet_get((lw_wavelet)p->w.id) : NULL;
    const lwk_lines *L = &p->L;
    memset(g, 0, sizeof *g);
    if (p->copy_only || p->adjoint || !d || L->n < 2 || L->nlines < 1) return 0;
    if (p->mode == LW_PERIODIC && (L->n & 1)) return 0; /* the wrap would change a tap's parity */
    if (dtype == LWK_I32 && !d->has_integer) return 0;
    const size_t cs = ln_csize(dtype), V = 16 / ln_ssize(dtype);
    if ((size_t)L->n * cs > LN_SMEM_MAX) return 0;
    g->n = (int)L->n, g->nlo = (int)((L->n + 1) / 2);
    const int aligned = !(((uintptr_t)src | (uintptr_t)dst) & 15);
    int strides_v = 1; /* every line or lane tile starts on a vector boundary */
    for (int i = 0; i < L->nd; i++) strides_v &= L->dstr[i] % (int64_t)V == 0 || L->dlen[i] == 1;
    g->rows = L->nd == 0 || L->dstr[0] > L->lstride;
    if (g->rows) {
        int R = 1;
        while (R < 32 && (int64_t)(2 * R) * L->n <= LN_ROW_SAMPLES) R *= 2;
        while (R > 1 && R / 2 >= L->nlines) R /= 2;
        g->R = R;
        g->ld = (int)(L->n | 1);
        g->smem = (size_t)R * (size_t)g->ld * cs;
        g->items = (L->nlines + R - 1) / R;
        g->vec = aligned && strides_v && L->lstride == 1 && L->n % (int64_t)V == 0;
    } else {
        int LN = 32;
        while (LN > 8 && (size_t)L->n * LN * cs > LN_SMEM_MAX) LN /= 2;
        if ((size_t)L->n * LN * cs > LN_SMEM_MAX) return 0;
        g->lanes = LN;
        g->smem = (size_t)L->n * LN * cs;
        g->ntiles = (L->dlen[0] + LN - 1) / LN;
        g->items = g->ntiles * (L->nlines / L->dlen[0]);
        g->vec = aligned && L->dstr[0] == 1 && L->dlen[0] % (int64_t)V == 0 && L->lstride % (int64_t)V == 0;
        for (int i = 1; i < L->nd; i++) g->vec &= L->dstr[i] % (int64_t)V == 0 || L->dlen[i] == 1;
    }
    return g->smem <= LN_SMEM_MAX;
}

/* the wavelets instantiated per storage type: integer data only those with an integer variant */
template <class S> static constexpr bool ln_runs(int W)
{
    return !std::is_same<S, int32_t>::value || lwc_has_integer(W);
}

template <class S, int W, bool INV> static cudaError_t ln_go(const lwk_pass *p, const ln_geo *g, cudaStream_t st)
{
    const cudaError_t a = g->rows ? lw_cuda_func_attr((const void *)ln_rows<S, W, INV>, LW_SMEM_ATTR, LN_SMEM_MAX)
                                  : lw_cuda_func_attr((const void *)ln_cols<S, W, INV>, LW_SMEM_ATTR, LN_SMEM_MAX);
    if (a != cudaSuccess) return a;
    const unsigned grid = (unsigned)(g->items < (1 << 20) ? g->items : (1 << 20));
    if (g->rows) ln_rows<S, W, INV><<<grid, LN_THREADS, g->smem, st>>>(*p, *g);
    else ln_cols<S, W, INV><<<grid, LN_THREADS, g->smem, st>>>(*p, *g);
    return cudaGetLastError();
}

template <class S> static cudaError_t ln_dispatch(const lwk_pass *p, const ln_geo *g, cudaStream_t st)
{
    return lwc_dispatch(p->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!ln_runs<S>(W)) return cudaErrorInvalidValue;
        else return p->inverse ? ln_go<S, W, true>(p, g, st) : ln_go<S, W, false>(p, g, st);
    });
}

/* p with the dimensions of length 1 dropped from its lines (so that the
 * shape is chosen from the dimensions that hold lines) */
static lwk_pass ln_compact(const lwk_pass *p)
{
    lwk_pass q = *p;
    q.L.nd = 0;
    for (int i = 0; i < p->L.nd; i++)
        if (p->L.dlen[i] > 1) q.L.dlen[q.L.nd] = p->L.dlen[i], q.L.dstr[q.L.nd] = p->L.dstr[i], q.L.nd++;
    return q;
}

extern "C" int lwk_lines_ok(int dtype, const lwk_pass *p)
{
    ln_geo g;
    lwk_pass q = ln_compact(p);
    return ln_plan(dtype, &q, NULL, NULL, &g);
}

extern "C" cudaError_t lwk_lines_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t st)
{
    ln_geo g;
    lwk_pass q = ln_compact(p);
    if (!ln_plan(dtype, &q, src, dst, &g)) return cudaErrorInvalidValue;
    q.src_ = src, q.dst_ = dst;
    return lwd_by_dtype(dtype, [&](auto t) { return ln_dispatch<LWD_TYPE_OF(t)>(&q, &g, st); });
}
