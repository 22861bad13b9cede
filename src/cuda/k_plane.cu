/* Plane passes: one level along two axes of a plane in one pass, the plane
 * held whole by a thread-block cluster.  Each block of the cluster takes a
 * band of B rows and loads it with a halo of h rows each side (h: the
 * wavelet's reach over all its steps), lifts the window along both axes in
 * shared memory, and stores its band's rows.  The halo rows' values go bad
 * from the window's ends inwards by one step's reach a step, so the band's
 * rows come out right without any exchange between blocks.  In place, every
 * block of the cluster has read its window before any block stores (a
 * cluster barrier: arrive after the loads, wait before the stores), so the
 * rows may land anywhere in the plane: the Mallat layout is a placement of
 * whole rows, with no reorder pass and no workspace.
 *
 * Rows (along X, the axis of unit stride) are held whole in Mallat order
 * (line_lift.cuh), the window's rows in sample order (a step along Y reads
 * the rows next to its target).  The scaling of both axes is folded into the
 * store (forward) or the load (inverse): it is a factor per row and per
 * column, which the other axis's steps, linear along their lines, commute
 * with.  Forward and inverse only; integer data in the integer variants. */
#include "lw_cuda_dev.cuh"
#include "line_lift.cuh"

#include <string.h>

#define PL_THREADS 256
/* shared memory a block: two blocks an SM of an H100-class device, or one */
#define PL_SMEM_TWO (113 * 1024)
#define PL_SMEM_ONE (227 * 1024)
/* vector loads a thread keeps in flight before their shared-memory stores */
#define PL_BATCH 4

typedef struct pl_geo {
    int C;     /* blocks a cluster: bands a plane */
    int B;     /* rows a band (even) */
    int h;     /* halo rows each side (even) */
    int wn;    /* window rows: B + 2h */
    int ld;    /* shared elements a window row */
    int vec;   /* 16-byte global accesses along rows */
    int sync;  /* in place: the cluster barrier between loads and stores */
    size_t smem;
} pl_geo;

__device__ __forceinline__ void pl_cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void pl_cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory"); }

/* ---- steps along X: a warp a row, rows [wa, wb) of the window ------------- */

template <class T, int W, bool INV, int K = 0>
__device__ __forceinline__ void pl_xsteps(const lwk_wave &w, T *buf, int ld, int nc, int mode, int wa, int wb)
{
    if constexpr (K < sh_nsteps(W)) {
        constexpr int s = INV ? sh_nsteps(W) - 1 - K : K;
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
        for (int r = wa + warp; r < wb; r += PL_THREADS / 32)
            ln_lift<T, W, s, INV ? -1 : 1>(w, buf + (int64_t)r * ld, 1, nc, (nc + 1) / 2, mode, lane, 32);
        __syncthreads();
        pl_xsteps<T, W, INV, K + 1>(w, buf, ld, nc, mode, wa, wb);
    }
}

/* ---- steps along Y: columns across threads, the window's target rows ------
 * Window row r is plane row t = tb + r (tb even: a row's parity is its
 * window row's).  A target whose taps leave the window is skipped: it lies
 * within the reach already spent from the window's end, never in the band.
 * Symmetric mode: rows outside the plane are not loaded and taps past the
 * plane's ends are mirrored into it; periodic: the window holds the wrapped
 * rows and no tap is mapped. */
template <class T, int W, int s, int DIR>
__device__ __forceinline__ void pl_ylift(const lwk_wave &w, T *buf, int ld, int nc, int wn, int tb, int nr, int mode)
{
    constexpr int par = sh_par(W, s), nt = sh_ntaps(W, s);
    constexpr int rlo = ln_reach_lo<W, s>(), rhi = ln_reach_hi<W, s>();
    const bool per = mode == LW_PERIODIC;
    const int ctn = nc < PL_THREADS ? nc : PL_THREADS, tr = PL_THREADS / ctn;
    const int c0 = threadIdx.x % ctn, i0 = threadIdx.x / ctn;
    if (i0 >= tr) return;
    const int ntg = (wn - par + 1) / 2;
    for (int i = i0; i < ntg; i += tr) {
        const int r = 2 * i + par, t = tb + r;
        int row[LW_MAX_TAPS];
        if (per || (t + rlo >= 0 && t + rhi < nr)) {
            if (r + rlo < 0 || r + rhi >= wn) continue;
#pragma unroll
            for (int k = 0; k < nt; k++) row[k] = r + sh_off(W, s, k);
        } else {
            if (t < 0 || t >= nr) continue;
            bool in = true;
#pragma unroll
            for (int k = 0; k < nt; k++) {
                row[k] = (int)lwd_bidx(t + sh_off(W, s, k), nr, mode) - tb;
                in &= row[k] >= 0 && row[k] < wn;
            }
            if (!in) continue;
        }
        T *tg = buf + (int64_t)r * ld;
        for (int c = c0; c < nc; c += ctn) {
            T taps[LW_MAX_TAPS];
#pragma unroll
            for (int k = 0; k < nt; k++) taps[k] = buf[(int64_t)row[k] * ld + c];
            tg[c] = tstep_i<T, nt, DIR>::run(w, s, tg[c], taps);
        }
    }
}

template <class T, int W, bool INV, int K = 0>
__device__ __forceinline__ void pl_ysteps(const lwk_wave &w, T *buf, int ld, int nc, int wn, int tb, int nr, int mode)
{
    if constexpr (K < sh_nsteps(W)) {
        constexpr int s = INV ? sh_nsteps(W) - 1 - K : K;
        pl_ylift<T, W, s, INV ? -1 : 1>(w, buf, ld, nc, wn, tb, nr, mode);
        __syncthreads();
        pl_ysteps<T, W, INV, K + 1>(w, buf, ld, nc, wn, tb, nr, mode);
    }
}

/* ---- the kernel: block (plane, band) ------------------------------------ */

/* the scaling of a sample at row parity ry and slot parity (sx: slot >= nclo) */
template <class T> __device__ __forceinline__ T pl_scale(const lwk_wave &w, T x, int ry, int sx, int dir)
{
    return lwd_scale<T>(w, lwd_scale<T>(w, x, ry, dir), sx, dir);
}

template <class S, int W, bool INV>
__global__ void __launch_bounds__(PL_THREADS, 2) pl_kernel(lwk_planes p, pl_geo g, const S *src, S *dst)
{
    typedef lwd_c<S> T;
    typedef ln_vec<S> VS;
    extern __shared__ __align__(16) unsigned char pl_smem[];
    T *buf = (T *)pl_smem;
    const int band = blockIdx.x % g.C;
    const int64_t plane = blockIdx.x / g.C;
    const int nr = (int)p.nr, nc = (int)p.nc, nrlo = (nr + 1) / 2, nclo = (nc + 1) / 2;
    const int r0 = band * g.B, r1 = r0 + g.B < nr ? r0 + g.B : nr, tb = r0 - g.h, wn = g.wn, ld = g.ld;
    const bool per = p.mode == LW_PERIODIC, min_ = p.mallat && INV, mout = p.mallat && !INV;
    const int dir = INV ? -1 : 1;
    const int64_t base = lwd_decomp(plane, p.nd, p.dlen, p.dstr), rs = p.rs, cs = p.cs;
    /* window rows loaded: all (periodic) or those inside the plane */
    const int wa = per ? 0 : (tb < 0 ? -tb : 0), wb = per ? wn : (nr - tb < wn ? nr - tb : wn);

    /* ---- load the window */
    if (g.vec) {
        const int nv = nc / VS::V, tot = (wb - wa) * nv;
        for (int e0 = threadIdx.x; e0 < tot; e0 += PL_THREADS * PL_BATCH) {
            VS v[PL_BATCH];
#pragma unroll
            for (int u = 0; u < PL_BATCH; u++) {
                const int e = e0 + u * PL_THREADS;
                if (e >= tot) break;
                const int r = wa + e / nv, cv = e - (r - wa) * nv;
                int t = tb + r;
                if (per) t = t < 0 ? t + nr * ((-t + nr - 1) / nr) : t % nr;
                const int gr = min_ ? ln_slot(t, nrlo) : t;
                v[u].u = *(const uint4 *)(src + base + gr * rs + (int64_t)cv * VS::V);
            }
#pragma unroll
            for (int u = 0; u < PL_BATCH; u++) {
                const int e = e0 + u * PL_THREADS;
                if (e >= tot) break;
                const int r = wa + e / nv, cv = e - (r - wa) * nv, ry = (tb + r) & 1;
                T *row = buf + (int64_t)r * ld;
#pragma unroll
                for (int k = 0; k < VS::V; k++) {
                    const int sl = ln_gslot(cv * VS::V + k, nclo, min_);
                    T x = lwd_store<S>::ld(v[u].e() + k);
                    row[sl] = INV ? pl_scale<T>(p.w, x, ry, sl >= nclo, dir) : x;
                }
            }
        }
    } else {
        const int tot = (wb - wa) * nc;
        for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
            const int r = wa + e / nc, j = e - (r - wa) * nc;
            int t = tb + r;
            const int ry = t & 1;
            if (per) t = t < 0 ? t + nr * ((-t + nr - 1) / nr) : t % nr;
            const int gr = min_ ? ln_slot(t, nrlo) : t, sl = ln_gslot(j, nclo, min_);
            T x = lwd_ld(src + base + gr * rs + j * cs);
            buf[(int64_t)r * ld + sl] = INV ? pl_scale<T>(p.w, x, ry, sl >= nclo, dir) : x;
        }
    }
    __syncthreads();
    if (g.sync) pl_cluster_arrive();

    /* ---- lift: the first axis over the rows the second needs */
    if (p.xfirst) {
        pl_xsteps<T, W, INV>(p.w, buf, ld, nc, p.mode, wa, wb);
        pl_ysteps<T, W, INV>(p.w, buf, ld, nc, wn, tb, nr, p.mode);
    } else {
        pl_ysteps<T, W, INV>(p.w, buf, ld, nc, wn, tb, nr, p.mode);
        pl_xsteps<T, W, INV>(p.w, buf, ld, nc, p.mode, r0 - tb, r1 - tb);
    }
    if (g.sync) pl_cluster_wait();

    /* ---- store the band's rows */
    if (g.vec) {
        const int nv = nc / VS::V, tot = (r1 - r0) * nv;
        for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
            const int i = e / nv, cv = e - i * nv, t = r0 + i, ry = t & 1;
            const T *row = buf + (int64_t)(t - tb) * ld;
            const int gr = mout ? ln_slot(t, nrlo) : t;
            VS v;
#pragma unroll
            for (int k = 0; k < VS::V; k++) {
                const int sl = ln_gslot(cv * VS::V + k, nclo, mout);
                T x = row[sl];
                lwd_store<S>::st(v.e() + k, INV ? x : pl_scale<T>(p.w, x, ry, sl >= nclo, dir));
            }
            *(uint4 *)(dst + base + gr * rs + (int64_t)cv * VS::V) = v.u;
        }
    } else {
        const int tot = (r1 - r0) * nc;
        for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
            const int i = e / nc, j = e - i * nc, t = r0 + i, ry = t & 1;
            const int gr = mout ? ln_slot(t, nrlo) : t, sl = ln_gslot(j, nclo, mout);
            T x = buf[(int64_t)(t - tb) * ld + sl];
            lwd_st(dst + base + gr * rs + j * cs, INV ? x : pl_scale<T>(p.w, x, ry, sl >= nclo, dir));
        }
    }
}

/* ---- host side ------------------------------------------------------------- */

static size_t pl_csize(int dtype) { return dtype == LWK_F64 ? 8 : 4; } /* the compute type */
static size_t pl_ssize(int dtype) { return dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4; }

template <class S> static constexpr bool pl_runs(int W) { return !std::is_same<S, int32_t>::value || lwc_has_integer(W); }

/* The device's limits: shared memory a block may opt in to, and whether it
 * launches clusters (compute capability 9.0 and later). */
static void pl_device(size_t *optin, int *clusters)
{
    int dev = 0, v = 0, major = 0;
    *optin = 0, *clusters = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        return;
    }
    *optin = (size_t)v, *clusters = major >= 9;
}

/* Whether a cluster of C blocks of smem bytes each launches (C <= 8:
 * portable; 16: asked for, then checked, once per instantiation and budget,
 * with the budget's largest blocks). */
template <class S, int W, bool INV> static int pl_cluster_fits(int C, size_t budget, int b)
{
    static const cudaError_t a1 = [] {
        size_t optin;
        int clusters;
        pl_device(&optin, &clusters);
        return cudaFuncSetAttribute(pl_kernel<S, W, INV>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)(optin < PL_SMEM_ONE ? optin : PL_SMEM_ONE));
    }();
    static const cudaError_t a2 = cudaFuncSetAttribute(pl_kernel<S, W, INV>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (a1 != cudaSuccess) return (void)cudaGetLastError(), 0;
    if (C <= 8) return 1;
    if (a2 != cudaSuccess) return (void)cudaGetLastError(), 0;
    static int fits[2] = {-1, -1};
    if (fits[b] >= 0) return fits[b];
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at[1];
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(C), cfg.blockDim = dim3(PL_THREADS), cfg.dynamicSmemBytes = budget;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
    cfg.attrs = at, cfg.numAttrs = 1;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, pl_kernel<S, W, INV>, &cfg) != cudaSuccess) n = 0, cudaGetLastError();
    return fits[b] = n > 0;
}

/* The bands of a plane: the fewest blocks that hold it two an SM, else one
 * an SM (clusters of more than one block where the device has them). */
template <class S, int W, bool INV>
static int pl_plan_t(int dtype, const lwk_planes *p, const void *src, const void *dst, pl_geo *g)
{
    const size_t cs = pl_csize(dtype), V = 16 / pl_ssize(dtype);
    size_t optin;
    int clusters;
    pl_device(&optin, &clusters);
    memset(g, 0, sizeof *g);
    g->h = sh_halo(W);
    g->ld = (int)((p->nc + 3) & ~(int64_t)3);
    const size_t two = optin / 2 > 1024 ? optin / 2 - 1024 : 0; /* each block's 1 KiB reserved */
    const size_t budget[2] = {two < PL_SMEM_TWO ? two : PL_SMEM_TWO, optin < PL_SMEM_ONE ? optin : PL_SMEM_ONE};
    for (int b = 0; b < 2 && !g->C; b++)
        for (int C = 1; C <= (clusters ? 16 : 1) && !g->C; C *= 2) {
            int64_t B = (p->nr + C - 1) / C;
            B += B & 1;
            if (C > 1 && (B < 2 || (int64_t)(C - 1) * B >= p->nr)) break; /* no empty band */
            const size_t smem = (size_t)(B + 2 * g->h) * (size_t)g->ld * cs;
            if (smem <= budget[b] && pl_cluster_fits<S, W, INV>(C, budget[b], b)) g->C = C, g->B = (int)B, g->smem = smem;
        }
    if (!g->C) return 0;
    g->wn = g->B + 2 * g->h;
    g->sync = g->C > 1 && src == dst;
    const int aligned = !(((uintptr_t)src | (uintptr_t)dst) & 15);
    int v = aligned && p->cs == 1 && p->nc % (int64_t)V == 0 && p->rs % (int64_t)V == 0;
    for (int i = 0; i < p->nd; i++) v &= p->dstr[i] % (int64_t)V == 0 || p->dlen[i] == 1;
    g->vec = v;
    return 1;
}

template <class S, int W, bool INV> static cudaError_t pl_go(const lwk_planes *p, const pl_geo *g, const S *src, S *dst, cudaStream_t st)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at[1];
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3((unsigned)(p->nplanes * g->C)), cfg.blockDim = dim3(PL_THREADS);
    cfg.dynamicSmemBytes = g->smem, cfg.stream = st;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = (unsigned)g->C, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
    cfg.attrs = at, cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, pl_kernel<S, W, INV>, *p, *g, src, dst);
}

/* f(S, W, INV) for the plane's type and wavelet, or cudaErrorInvalidValue */
template <class F> static cudaError_t pl_dispatch(int dtype, const lwk_planes *p, F &&f)
{
    return lwd_by_dtype(dtype, [&](auto t) -> cudaError_t {
        typedef LWD_TYPE_OF(t) S;
        return lwc_dispatch(p->w.id, [&](auto wc) -> cudaError_t {
            constexpr int W = decltype(wc)::value;
            if constexpr (!pl_runs<S>(W)) return cudaErrorInvalidValue;
            else return p->inverse ? f((S *)0, wc, std::true_type()) : f((S *)0, wc, std::false_type());
        });
    });
}

static int pl_applies(int dtype, const lwk_planes *p)
{
    if (p->w.id >= LW_TRANSPOSED_ID || !lw_wavelet_get((lw_wavelet)p->w.id)) return 0;
    if (p->nr < 2 || p->nc < 2 || p->nplanes < 1 || p->nplanes * 16 > INT32_MAX) return 0;
    if (p->mode == LW_PERIODIC && ((p->nr | p->nc) & 1)) return 0; /* the wrap would change a tap's parity */
    if (p->nr * p->rs > INT32_MAX || p->nc * p->cs > INT32_MAX) return 0; /* a plane's offsets in 32 bits */
    (void)dtype;
    return 1;
}

extern "C" int lwk_plane_ok(int dtype, const lwk_planes *p, const void *src, const void *dst)
{
    if (!pl_applies(dtype, p)) return 0;
    pl_geo g;
    return pl_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
               typedef typename std::remove_pointer<decltype(s)>::type S;
               return pl_plan_t<S, decltype(wc)::value, decltype(inv)::value>(dtype, p, src, dst, &g) ? cudaSuccess
                                                                                                      : cudaErrorInvalidValue;
           }) == cudaSuccess;
}

extern "C" cudaError_t lwk_plane_launch(int dtype, const lwk_planes *p, const void *src, void *dst, cudaStream_t st)
{
    if (!pl_applies(dtype, p)) return cudaErrorInvalidValue;
    return pl_dispatch(dtype, p, [&](auto s, auto wc, auto inv) -> cudaError_t {
        typedef typename std::remove_pointer<decltype(s)>::type S;
        constexpr int W = decltype(wc)::value;
        constexpr bool INV = decltype(inv)::value;
        pl_geo g;
        if (!pl_plan_t<S, W, INV>(dtype, p, src, dst, &g)) return cudaErrorInvalidValue;
        return pl_go<S, W, INV>(p, &g, (const S *)src, (S *)dst, st);
    });
}
