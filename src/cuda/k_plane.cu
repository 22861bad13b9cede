/* Plane passes: one level along two axes of a plane in one pass, the plane
 * held by a thread-block cluster.  Each block of the cluster takes a band of
 * PL_B rows; a thread lifts a column of the band's window (the band and H
 * rows each side, H: the wavelet's reach over all its steps, rows past the
 * plane's ends through the boundary mode) in registers, as the fused tile
 * kernels do, and stores the band's rows to shared memory in Mallat order
 * along X (the axis of unit stride); then a thread lifts a segment of a row
 * from its window in registers and stores the outputs (pl_xregs), or, for
 * rows that are not whole aligned segments, a warp lifts a row in shared
 * memory a step at a time (line_lift.cuh).  One-axis passes (yonly) lift Y
 * only and carry X's samples along (the z axis of a volume).  Y first,
 * then X (the inverse too: the two axes' steps commute in real arithmetic),
 * so shared memory holds the band's rows only; the integer inverse, whose
 * rounding does not commute, undoes X first and holds the window's rows
 * (the halo rows lifted along X by both blocks that need them).  No
 * exchange between blocks.  In place, every block of the cluster has read
 * what it needs before any block stores (a cluster barrier: arrive after
 * the loads, wait before the stores), so rows may land anywhere in the
 * plane: the Mallat layout is a placement of whole rows, with no reorder
 * pass and no workspace.  Forward and inverse only; integer data in the
 * integer variants. */
#include "lw_cuda_dev.cuh"
#include "line_lift.cuh"

#include <string.h>

#define PL_THREADS 256
/* dynamic shared memory a block: three, two or one blocks an SM of an
 * H100-class device (1 KiB a block left to the reserve) */
#define PL_SMEM_THREE (72 * 1024)
#define PL_SMEM_TWO (112 * 1024)
#define PL_SMEM_ONE (226 * 1024)
/* vector loads a thread keeps in flight before their shared-memory stores */
#define PL_BATCH 4

typedef struct pl_geo {
    int C;     /* blocks a cluster: bands of SB * PL_B rows a plane */
    int SB;    /* sub-bands of PL_B rows a block (above 1: one-axis passes of planes taller than 16 bands) */
    int rowat; /* byte offset of the window's row offsets in shared memory */
    int ld;    /* shared elements a row */
    int vec;   /* 16-byte global accesses along rows */
    int xreg;  /* X in registers (pl_xregs): 16-byte accesses, whole segments a row */
    int sync;  /* in place: the cluster barrier between loads and stores */
    size_t smem;
} pl_geo;

__device__ __forceinline__ void pl_cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void pl_cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory"); }

/* ---- steps along X: a warp a row, rows [wa, wb) of shared memory --------- */

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

/* ---- steps along X in registers: a thread a row segment ----------------- */

/* positions a row segment: its halves are runs of four (store4) */
#define PL_SEG 8

/* The band's rows [0, nrows) of shared memory (Mallat order along X), each
 * in segments of SG positions: a thread reads a segment's window (the
 * segment and H positions each side; through the mode at the row's ends)
 * as aligned vectors of the two halves, lifts and scales it whole along X
 * in registers (reg_lift: the inverse unscales first), and stores the
 * segment's outputs to row orow(i) of the output, the halves as runs of
 * four (forward Mallat) or the positions in order.  Shared memory is only
 * read: no barrier. */
template <class S, int W, bool INV, class ROW>
__device__ __forceinline__ void pl_xregs(const lwk_planes &p, const lwd_c<S> *buf, int ld, int nrows, ROW orow)
{
    typedef lwd_c<S> T;
    constexpr int H = sh_halo(W), SG = PL_SEG, NW = SG + 2 * H, VT = 16 / sizeof(T);
    constexpr int HB = (H / 2 + VT - 1) / VT;               /* vectors a half before the segment's own */
    constexpr int NV = HB + (SG / 2 + H / 2 + VT - 1) / VT; /* vectors a half read */
    constexpr int OFF = HB * VT - H / 2;                     /* the window's first slot in them */
    const int nc = (int)p.nc, nclo = nc / 2, nseg = nc / SG;
    const bool mout = p.mallat && !INV;
    for (int e = threadIdx.x; e < nrows * nseg; e += PL_THREADS) {
        const int i = e / nseg, sg = e - i * nseg, p0 = sg * SG - H;
        const T *row = buf + i * ld;
        T u[NW];
        if (p0 >= 0 && p0 + NW <= nc) {
            const int a0 = sg * (SG / 2) - HB * VT;
            T lo[NV * VT], hi[NV * VT];
#pragma unroll
            for (int k = 0; k < NV; k++) {
                *(uint4 *)&lo[k * VT] = *(const uint4 *)(row + a0 + k * VT);
                *(uint4 *)&hi[k * VT] = *(const uint4 *)(row + nclo + a0 + k * VT);
            }
#pragma unroll
            for (int k = 0; k < NW / 2; k++) u[2 * k] = lo[OFF + k], u[2 * k + 1] = hi[OFF + k];
        } else {
#pragma unroll
            for (int j = 0; j < NW; j++) u[j] = row[ln_slot(ln_bidx1(p0 + j, nc, p.mode), nclo)];
        }
        reg_lift_line<W, INV ? -1 : 1>(u, p.w, p0, nc, p.mode);
        S *o = orow(i);
        if (mout) {
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const T *x = u + H + h;
                store4<S>(o + h * nclo + sg * (SG / 2), x[0], x[2], x[4], x[6], true);
            }
        } else {
            store4<S>(o + sg * SG, u[H], u[H + 1], u[H + 2], u[H + 3], true);
            store4<S>(o + sg * SG + 4, u[H + 4], u[H + 5], u[H + 6], u[H + 7], true);
        }
    }
}

/* The band's rows [0, nrows) of shared memory as they are (a pass along Y
 * only) to row orow(i) of the output. */
template <class S, class ROW>
__device__ __forceinline__ void pl_rows_out(const lwd_c<S> *buf, int ld, int nrows, int nc, bool vec, ROW orow)
{
    typedef ln_vec<S> VS;
    if (vec) {
        const int nv = nc / VS::V;
        for (int e = threadIdx.x; e < nrows * nv; e += PL_THREADS) {
            const int i = e / nv, cv = e - i * nv;
            VS v;
#pragma unroll
            for (int k = 0; k < VS::V; k++) lwd_store<S>::st(v.e() + k, buf[i * ld + cv * VS::V + k]);
            *(uint4 *)(orow(i) + cv * VS::V) = v.u;
        }
    } else {
        for (int e = threadIdx.x; e < nrows * nc; e += PL_THREADS) {
            const int i = e / nc, j = e - i * nc;
            lwd_st(orow(i) + j, buf[i * ld + j]);
        }
    }
}

/* ---- the kernel: block (plane, band) ------------------------------------ */

/* rows a band: a column's window (PL_B + 2H samples) lifts in registers */
#define PL_B 32

template <class S, int W, bool INV>
__global__ void __launch_bounds__(PL_THREADS, 3) pl_kernel(lwk_planes p, pl_geo g, const S *src, S *dst)
{
    typedef lwd_c<S> T;
    typedef ln_vec<S> VS;
    constexpr int H = sh_halo(W), N = PL_B + 2 * H;
    extern __shared__ __align__(16) unsigned char pl_smem[];
    T *buf = (T *)pl_smem;
    const int band = blockIdx.x % g.C;
    const int64_t plane = blockIdx.x / g.C;
    const int nr = (int)p.nr, nc = (int)p.nc, nrlo = (nr + 1) / 2, nclo = (nc + 1) / 2, ld = g.ld;
    const int BR = g.SB * PL_B, r0 = band * BR, r1 = r0 + BR < nr ? r0 + BR : nr, tb = r0 - H;
    const int64_t rs = p.rs;
    const S *in = src + lwd_decomp(plane, p.nd, p.dlen, p.dstr);
    S *out = dst + (in - src);
    /* the window's rows through the mode: the offset of the row that row
     * tb + j is read from (inverse Mallat: its slot), in 32 bits (a plane's
     * offsets fit, pl_applies) */
    int *rowat = (int *)(pl_smem + g.rowat);
    for (int j = threadIdx.x; j < BR + 2 * H; j += PL_THREADS) {
        const int t = (int)lwd_bidx(tb + j, nr, p.mode);
        rowat[j] = (INV && p.mallat ? ln_slot(t, nrlo) : t) * (int)rs;
    }
    __syncthreads();
    /* Y first (both directions but the integer inverse): the steps along the
     * two axes commute in real arithmetic, not with the integer rounding.  A
     * pass along Y only (yonly) carries X's samples along as they are. */
    constexpr bool XF = INV && std::is_same<S, int32_t>::value;
    const bool mout = p.mallat && !INV;
    const auto orow = [&](int i) { return out + (mout ? ln_slot(r0 + i, nrlo) : r0 + i) * rs; };
    if (!XF || p.yonly) {
        constexpr int dir = INV ? -1 : 1;
        const bool mx = INV && p.mallat; /* columns held in Mallat order as loaded */
        /* Y in registers, a thread a column of a sub-band: the window's rows
         * through the mode, lifted and scaled along Y (the inverse: unscaled
         * along X too); the sub-band's rows to shared memory in Mallat order
         * along X */
        for (int e = threadIdx.x; e < g.SB * nc; e += PL_THREADS) {
            const int sb = e / nc, c = e - sb * nc;
            const int *ra = rowat + sb * PL_B;
            T v[N];
#pragma unroll
            for (int j = 0; j < N; j++) v[j] = lwd_ld(in + (ra[j] + c));
            reg_lift_line<W, dir>(v, p.w, tb + sb * PL_B, nr, p.mode);
            const int sl = p.yonly ? c : ln_gslot(c, nclo, mx);
            const bool unx = INV && !g.xreg && !p.yonly; /* X's inverse scaling here */
            T *col = buf + sb * PL_B * ld + sl;
#pragma unroll
            for (int j = 0; j < PL_B; j++) col[j * ld] = unx ? lwd_scale<T>(p.w, v[H + j], sl >= nclo, -1) : v[H + j];
        }
        __syncthreads();
        if (g.sync) pl_cluster_arrive();
        if (p.yonly || g.xreg) {
            if (g.sync) pl_cluster_wait();
            if (p.yonly) pl_rows_out<S>(buf, ld, r1 - r0, nc, g.vec, orow);
            else pl_xregs<S, W, INV>(p, buf, ld, r1 - r0, orow);
            return;
        }
        pl_xsteps<T, W, INV>(p.w, buf, ld, nc, p.mode, 0, r1 - r0);
        if (g.sync) pl_cluster_wait();
        /* the band's rows where the layout puts them (forward: scaled along X) */
        if (g.vec) {
            const int nv = nc / VS::V, tot = (r1 - r0) * nv;
            for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
                const int i = e / nv, cv = e - i * nv, t = r0 + i;
                const T *row = buf + i * ld;
                VS v;
#pragma unroll
                for (int k = 0; k < VS::V; k++) {
                    const int sl = ln_gslot(cv * VS::V + k, nclo, mout);
                    lwd_store<S>::st(v.e() + k, INV ? row[sl] : lwd_scale<T>(p.w, row[sl], sl >= nclo, 1));
                }
                *(uint4 *)(out + (mout ? ln_slot(t, nrlo) : t) * rs + cv * VS::V) = v.u;
            }
        } else {
            const int tot = (r1 - r0) * nc;
            for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
                const int i = e / nc, j = e - i * nc, t = r0 + i, sl = ln_gslot(j, nclo, mout);
                const T x = buf[i * ld + sl];
                lwd_st(out + (mout ? ln_slot(t, nrlo) : t) * rs + j, INV ? x : lwd_scale<T>(p.w, x, sl >= nclo, 1));
            }
        }
    } else {
        /* the integer inverse, X first: the window's rows through the mode
         * (Mallat: row t from row slot t), X in Mallat order as held */
        const bool min_ = p.mallat;
        if (g.vec) {
            const int nv = nc / VS::V, tot = N * nv;
            for (int e0 = threadIdx.x; e0 < tot; e0 += PL_THREADS * PL_BATCH) {
                VS v[PL_BATCH];
#pragma unroll
                for (int u = 0; u < PL_BATCH; u++) {
                    const int e = e0 + u * PL_THREADS, j = e / nv, cv = e - j * nv;
                    if (e >= tot) break;
                    v[u].u = *(const uint4 *)(in + (rowat[j] + cv * VS::V));
                }
#pragma unroll
                for (int u = 0; u < PL_BATCH; u++) {
                    const int e = e0 + u * PL_THREADS, j = e / nv, cv = e - j * nv;
                    if (e >= tot) break;
                    T *row = buf + j * ld;
#pragma unroll
                    for (int k = 0; k < VS::V; k++) {
                        const int sl = ln_gslot(cv * VS::V + k, nclo, min_);
                        row[sl] = lwd_scale<T>(p.w, lwd_store<S>::ld(v[u].e() + k), sl >= nclo, -1);
                    }
                }
            }
        } else {
            const int tot = N * nc;
            for (int e = threadIdx.x; e < tot; e += PL_THREADS) {
                const int j = e / nc, x = e - j * nc, sl = ln_gslot(x, nclo, min_);
                buf[j * ld + sl] = lwd_scale<T>(p.w, lwd_ld(in + (rowat[j] + x)), sl >= nclo, -1);
            }
        }
        __syncthreads();
        if (g.sync) pl_cluster_arrive();
        pl_xsteps<T, W, true>(p.w, buf, ld, nc, p.mode, 0, N);
        if (g.sync) pl_cluster_wait();
        /* Y in registers, a thread a column (sample position along X): the
         * band's rows to their sample positions */
        for (int c = threadIdx.x; c < nc; c += PL_THREADS) {
            const T *col = buf + ln_slot(c, nclo);
            T v[N];
#pragma unroll
            for (int j = 0; j < N; j++) v[j] = col[j * ld];
            reg_lift_line<W, -1>(v, p.w, tb, nr, p.mode);
#pragma unroll
            for (int j = 0; j < PL_B; j++)
                if (r0 + j < r1) lwd_st(out + (r0 + j) * rs + c, v[H + j]);
        }
    }
}

/* ---- host side ------------------------------------------------------------- */

static size_t pl_csize(int dtype) { return dtype == LWK_F64 ? 8 : 4; } /* the compute type */
static size_t pl_ssize(int dtype) { return dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4; }

/* The wavelets the plane kernels run: those whose window, read through the
 * mode once, lifts as the reference (d4's one-sided steps would need the
 * mirror refreshed every step: register spills, slower than the line
 * passes); integer data in the integer variants. */
template <class S> struct pl_runs {
    static constexpr bool ok(int W)
    {
        return tile_once_mirror_exact(W) && (!std::is_same<S, int32_t>::value || lwc_has_integer(W));
    }
};

/* The device's limits: shared memory a block may opt in to, and whether it
 * launches clusters (compute capability 9.0 and later). */
static void pl_device(size_t *optin, int *clusters)
{
    /* asked once a device: optin << 1 | clusters */
    long long have = 0;
    int dev = 0, v = 0, major = 0;
    *optin = 0, *clusters = 0;
    if (!lw_cuda_memo_get((const void *)pl_device, 0, &have)) {
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
            cudaGetLastError();
            return;
        }
        have = (long long)v << 1 | (major >= 9);
        lw_cuda_memo_put((const void *)pl_device, 0, have);
    }
    *optin = (size_t)(have >> 1), *clusters = (int)(have & 1);
}

/* Whether a cluster of C blocks of smem bytes each launches (C <= 8:
 * portable; above: a cluster of 16 of the budget's largest blocks, the
 * hardest to place, asked for once per instantiation, budget and device). */
template <class S, int W, bool INV> static int pl_cluster_fits(int C, size_t budget, int b)
{
    size_t optin;
    int clusters;
    pl_device(&optin, &clusters);
    if (optin < 4096) return 0;
    const void *k = (const void *)pl_kernel<S, W, INV>;
    if (lw_cuda_func_attr(k, LW_SMEM_ATTR, (int)(optin - 1024 < PL_SMEM_ONE ? optin - 1024 : PL_SMEM_ONE)) != cudaSuccess)
        return 0;
    if (C <= 8) return 1;
    if (lw_cuda_func_attr(k, (int)cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) return 0;
    long long known = 0; /* asked once per budget and device */
    if (lw_cuda_memo_get(k, b, &known)) return (int)known;
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute at[1];
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(16), cfg.blockDim = dim3(PL_THREADS), cfg.dynamicSmemBytes = budget;
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = 16, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
    cfg.attrs = at, cfg.numAttrs = 1;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, pl_kernel<S, W, INV>, &cfg) != cudaSuccess) n = 0, cudaGetLastError();
    lw_cuda_memo_put(k, b, n > 0);
    return n > 0;
}

/* Sub-bands of PL_B rows a block: one, or for a pass along one axis of
 * planes taller than 16 bands, as many as make 16 blocks. */
static int pl_subbands(int yonly, int64_t nr)
{
    return yonly && nr > 16 * PL_B ? (int)((nr + 16 * PL_B - 1) / (16 * PL_B)) : 1;
}

/* A band of PL_B rows a block, ceil(nr / PL_B) blocks a plane (at most 16);
 * shared memory: the band's rows (forward) or its window's (inverse), two
 * blocks an SM where they fit, else one. */
template <class S, int W, bool INV>
static int pl_plan_t(int dtype, const lwk_planes *p, const void *src, const void *dst, pl_geo *g)
{
    const size_t cs = pl_csize(dtype), V = 16 / pl_ssize(dtype);
    size_t optin;
    int clusters;
    pl_device(&optin, &clusters);
    memset(g, 0, sizeof *g);
    /* steps inside their pairs read no sample past an end only on even lengths */
    if (p->mode != LW_PERIODIC && !lwc_symmetric_taps(W) && (p->nr & 1)) return 0;
    const int SB = pl_subbands(p->yonly, p->nr);
    const int64_t C = (p->nr + SB * PL_B - 1) / (SB * PL_B);
    if (C > (clusters ? 16 : 1)) return 0;
    g->ld = (int)((p->nc + 3) & ~(int64_t)3);
    const bool xfirst = INV && std::is_same<S, int32_t>::value && !p->yonly; /* the window's rows held, else the band's */
    g->SB = SB;
    g->rowat = (int)((size_t)(xfirst ? PL_B + 2 * sh_halo(W) : SB * PL_B) * (size_t)g->ld * cs);
    g->smem = ((size_t)g->rowat + (size_t)(SB * PL_B + 2 * sh_halo(W)) * sizeof(int) + 15) & ~(size_t)15;
    if (optin < 4096) return 0;
    const size_t three = optin / 3 - 1024, two = optin / 2 - 1024, one = optin - 1024; /* less the reserve */
    const size_t budget[3] = {three < PL_SMEM_THREE ? three : PL_SMEM_THREE, two < PL_SMEM_TWO ? two : PL_SMEM_TWO,
                              one < PL_SMEM_ONE ? one : PL_SMEM_ONE};
    const int b = g->smem <= budget[0] ? 0 : g->smem <= budget[1] ? 1 : 2;
    /* one block an SM: slower than the line passes' whole lines for one axis
     * (float64 rows of 512), except for columns that a cluster holds in
     * sub-bands, which no line pass holds (lwk_plane_strip sizes their
     * strips for one block an SM) */
    if (p->yonly && b == 2 && SB == 1) return 0;
    if (g->smem > budget[b] || !pl_cluster_fits<S, W, INV>((int)C, budget[b], b)) return 0;
    g->C = (int)C;
    g->sync = C > 1 && src == dst;
    const int aligned = !(((uintptr_t)src | (uintptr_t)dst) & 15);
    int v = aligned && p->cs == 1 && p->nc % (int64_t)V == 0 && p->rs % (int64_t)V == 0;
    for (int i = 0; i < p->nd; i++) v &= p->dstr[i] % (int64_t)V == 0 || p->dlen[i] == 1;
    g->vec = v;
    g->xreg = v && !xfirst && !p->yonly && p->nc % PL_SEG == 0 && p->nc >= PL_SEG + 2 * sh_halo(W);
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
    return lwc_dispatch_typed<pl_runs>(dtype, p->w.id, p->inverse, f);
}

static int pl_applies(int dtype, const lwk_planes *p)
{
    if (p->w.id >= LW_TRANSPOSED_ID || !lw_wavelet_get((lw_wavelet)p->w.id)) return 0;
    if (p->nr < 2 || p->nc < 2 || p->nplanes < 1 || p->nplanes * 16 > INT32_MAX) return 0;
    if (p->mode == LW_PERIODIC && ((p->nr | (p->yonly ? 0 : p->nc)) & 1)) return 0; /* the wrap would change a tap's parity */
    if (p->cs != 1 || (!p->yonly && p->xfirst != p->inverse)) return 0; /* contiguous rows; Y then X forward, X then Y inverse */
    if (p->nr * p->rs > INT32_MAX || p->nc * p->cs > INT32_MAX) return 0; /* a plane's offsets in 32 bits */
    (void)dtype;
    return 1;
}

extern "C" int64_t lwk_plane_strip(int dtype, int64_t nr, int64_t ncx)
{
    /* a band's rows (sub-bands of a tall plane) at two blocks an SM, less
     * the row offsets' table; where a block holds more than 16 sub-bands
     * (columns over 16 x 16 bands: 8192 rows) at one block an SM: twice the
     * strip's width, so 128-byte row pieces for float at 16384 rows, not 64
     * (measured 6-7% faster for 16384^2 Mallat in place: bench/NOTES-inplace.md) */
    const int64_t rows = (int64_t)pl_subbands(1, nr) * PL_B;
    const size_t cs = pl_csize(dtype), budget = (rows > 16 * PL_B ? PL_SMEM_ONE : PL_SMEM_TWO) - 8 * 1024;
    const auto fits = [&](int64_t w) { return (size_t)rows * (size_t)((w + 3) & ~(int64_t)3) * cs <= budget; };
    if (fits(ncx)) return ncx;
    for (int64_t w = 512; w >= 16; w /= 2)
        if (ncx % w == 0 && fits(w)) return w;
    return 0;
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
