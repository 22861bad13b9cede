/* Fused 2-D engine for the interleaved layout, in place or out of place, by
 * column strips walked top to bottom: one level of a 2-D transform in ONE
 * kernel that reads every sample once and writes every coefficient once, at
 * the position its sample had, with no stash ring: the memory beyond the
 * array is one counter a block (none with one strip a plane) and, where rows
 * are cut in segments, 2H rows a segment edge.
 *
 * A block owns a strip of SW columns of a group of planes and walks its bands
 * of BH rows in order.  Band by band it loads the new rows of its window (the
 * strip and HA >= H columns each side; BH rows, 2H more for a plane's first
 * band) into a ring of NS shared-memory stages, NS - 1 bands ahead; the 2H
 * rows the next band's window shares with this one stay in registers
 * (originals), so the block never reads a sample it has written.  Forward and float inverse
 * lift each window column vertically in registers, then each row segment
 * horizontally, and store; the integer inverse undoes its forward's axis
 * order (rows first, in the stage, then columns).
 *
 * In place, the only samples another block reads are the H columns each side
 * of a strip: a block may store band k once both neighbours have loaded
 * theirs.  Each block raises its counter to k + 1 when band k has landed in
 * shared memory and waits for its neighbours' counters before storing band k;
 * loads never wait, so a launch whose blocks are all resident (a cooperative
 * launch: lwk_walk2d_capacity) always completes.
 *
 * Rows may be cut into vsegs segments of vbands bands each, walked by blocks
 * of their own (more blocks where the planes are few): a segment's first
 * window reads the 2H rows around its top edge, and its last window the H
 * rows below its bottom edge, from `stash` (those rows copied before the
 * launch by walk2d_stash: the blocks beside may have stored them), or, out
 * of place, from the sources.  In periodic mode the segments form a ring:
 * the first segment's rows above the plane and the last one's below it are
 * the 2H rows around the wrap, one more stashed edge.
 *
 * Boundaries: window columns are loaded through the mode (symmetric edges
 * fall in the strip or its neighbour; periodic strips form a ring, so the
 * last strip must hold at least HA columns); rows above a plane's first band
 * are loaded through the mode, rows past its end are filled from the window
 * (symmetric) or from the plane's first H rows kept in registers (periodic),
 * never reloaded: the block may have stored them.  Wavelets whose mirror is
 * not exact when loaded once (d4) refresh it per step by move sets
 * (reg_lift_segment): the first and last strips meet an end on every row. */
#include "lw_cuda_dev.cuh"

#include "tile_lift.cuh"

#include <cuda/atomic>
#include <cuda_pipeline.h>
#include <stdint.h>

/* strips of columns as wide as three warps' window allows (88 columns for
 * most wavelets) with bands of 32 rows; or whole rows of up to 2 KiB per band
 * of 16 rows (one strip a plane, no counter).  Two stages: a band loads
 * while the one before is lifted, with up to eight blocks an SM. */
template <class T, int WIDE> struct wk_cfg {
    enum { BH = WIDE ? 16 : 32, NS = 2, K = 8 /* store_seg8 */, THREADS = 96 };
};

/* The window's columns start HA >= H columns left of the strip, so that a
 * row of an inner strip is loaded in 16-byte pieces (V elements) from an
 * aligned address into an aligned stage row. */
template <class T, int W, int WIDE> struct wk_dim {
    typedef wk_cfg<T, WIDE> C;
    enum {
        H = sh_halo(W), BH = C::BH, NS = C::NS, K = C::K,
        V = 16 / (int)sizeof(T),
        HA = (H + V - 1) / V * V,   /* the window's left margin */
        SW = WIDE ? 2048 / (int)sizeof(T) : (C::THREADS - 2 * HA) / K * K, /* strip width */
        OFF = HA - H,               /* window column of the first halo column */
        WC = SW + 2 * HA,           /* window columns */
        WCP = (WC + V - 1) / V * V + V, /* stage pitch (16-byte rows) */
        SR = BH + 2 * H,            /* stage rows (a plane's first band) */
        NT = (WC + 31) & ~31,       /* threads: one a window column */
        SEGS = SW / K,
        CH = WC / V,                /* 16-byte pieces of an inner strip's window row */
    };
    static constexpr size_t smem = (size_t)NS * SR * WCP * sizeof(T);
};

__device__ __forceinline__ int64_t wk_map(int64_t i, int64_t n, int mode)
{
    return (i >= 0 && i < n) ? i : lwd_bidx(i, n, mode);
}

template <class S> __device__ __forceinline__ void wk_copy(S *sm, const S *g)
{
    __pipeline_memcpy_async(sm, g, sizeof(S));
}

/* n consecutive stage values into registers: in 16-byte pieces where they
 * start 16-byte aligned (A), one by one otherwise */
template <class S, int N, bool A> __device__ __forceinline__ void wk_row_load(S (&u)[N], const S *p)
{
    if constexpr (A) {
        constexpr int V = 16 / (int)sizeof(S), NV = (N + V - 1) / V;
        S b[NV * V];
#pragma unroll
        for (int q = 0; q < NV; q++) {
            const int4 x = ((const int4 *)p)[q];
            memcpy(&b[q * V], &x, 16);
        }
#pragma unroll
        for (int i = 0; i < N; i++) u[i] = b[i];
    } else {
#pragma unroll
        for (int i = 0; i < N; i++) u[i] = p[i];
    }
}

/* A block raises its counter once band k has landed in shared memory
 * (cp.async waited for, then the block's barrier): the only order the
 * neighbours rely on is "this block's loads of band k are done before they
 * store band k", and those loads have completed -- their values are in
 * shared memory -- before the counter is written.  So the store is relaxed:
 * a release would first wait for this block's outstanding global stores of
 * the bands before (a fence a band, on every block's critical path). */
__device__ __forceinline__ void wk_raise(unsigned *f, unsigned v)
{
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(*f);
    a.store(v, cuda::memory_order_relaxed);
}

/* thread 0 waits for counter f to reach v (spinning on relaxed loads, which
 * read L2 without invalidating the L1 each time; one acquire load once it
 * is reached); the block waits for thread 0 */
__device__ __forceinline__ void wk_wait(unsigned *f, unsigned v)
{
    if (threadIdx.x == 0 && f) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(*f);
        while (a.load(cuda::memory_order_relaxed) < v) __nanosleep(32);
        (void)a.load(cuda::memory_order_acquire);
    }
}

template <class S, int W, int INV, int HV, int WIDE>
__global__ void __launch_bounds__(wk_dim<S, W, WIDE>::NT) walk2d(lwk_walk2d t, const S *llsrc, const S *detsrc, S *dst)
{
    typedef wk_dim<S, W, WIDE> D;
    constexpr int H = D::H, SW = D::SW, BH = D::BH, NS = D::NS, K = D::K, WCP = D::WCP, SR = D::SR;
    constexpr int NT = D::NT, SEGS = D::SEGS, NR = BH + 2 * H, NU = K + 2 * H, DIR = INV ? -1 : 1;
    constexpr int V = D::V, HA = D::HA, OFF = D::OFF, CH = D::CH;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    S(*stage)[SR][WCP] = (S(*)[SR][WCP])smem_raw;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x, mode = t.mode;
    const bool periodic = mode == LW_PERIODIC;
    const int64_t rows = t.rows, cols = t.cols, rs = t.rs, cs = t.cs, ns = t.strips, nv = t.vsegs;
    const int64_t j = blockIdx.x % ns, gv = blockIdx.x / ns, vs = gv % nv, g = gv / nv;
    const int64_t c0 = j * SW, cw = cols - c0 < SW ? cols - c0 : SW, wcw = cw + 2 * HA;
    const int64_t planes = t.blen[0] * t.blen[1], p0 = g * t.per_group;
    const int64_t np = planes - p0 < t.per_group ? planes - p0 : t.per_group;
    const int64_t nbp = (rows + BH - 1) / BH, blo = vs * t.vbands;
    const int64_t bhi = blo + t.vbands < nbp ? blo + t.vbands : nbp, nb = bhi - blo, total = np * nb;
    /* rows read from the stash: above the segment's first band, below its last */
    const int64_t rlo = blo * BH, rhi = bhi < nbp ? bhi * BH : INT64_MAX;
    const S *const stash = (const S *)t.stash;
    /* the counters: this block's and its neighbours' (a ring in periodic mode) */
    unsigned *mine = nullptr, *left = nullptr, *right = nullptr;
    if (t.flags && ns > 1) {
        unsigned *row = t.flags + gv * ns;
        mine = row + j;
        if (j > 0 || periodic) left = row + (j > 0 ? j - 1 : ns - 1);
        if (j + 1 < ns || periodic) right = row + (j + 1 < ns ? j + 1 : 0);
    }
    /* the stashed edges of a plane (lwk_walk2d), and whether this block loads
     * the rows past the plane's end (a ring of segments: from the wrap, or
     * from its lower edge where the last segment is shorter than H rows)
     * instead of filling them from its own rows */
    const int64_t edges = LWK_WALK2D_EDGES(nv, periodic);
    const bool wrap_ld = periodic && nv > 1;
    const int64_t rend = wrap_ld ? rows + H : rows; /* rows loaded: below rend */
    const int64_t cm = tid < wcw ? wk_map(c0 - HA + tid, cols, mode) : 0;
    const bool vec = cs == 1 && (rs % 4) == 0 && (t.bs[0] % 4) == 0 && (t.bs[1] % 4) == 0 &&
                     ((uintptr_t)dst % (4 * sizeof(S))) == 0;
    /* rows loaded in 16-byte pieces: one source, unit columns, aligned,
     * the whole window inside the plane */
    const bool vload = llsrc == detsrc && cs == 1 && (rs % V) == 0 && (t.bs[0] % V) == 0 && (t.bs[1] % V) == 0 &&
                       ((uintptr_t)llsrc % 16) == 0 && cw == SW && c0 >= HA && c0 + SW + HA <= cols;

    auto plane_off = [&](int64_t it) {
        const int64_t b = p0 + it / nb;
        return (b / t.blen[1]) * t.bs[0] + (b % t.blen[1]) * t.bs[1];
    };
    /* stash row i (0 .. 2H) of the edge above segment e, plane of step it */
    auto stash_row = [&](int64_t it, int64_t e, int64_t i) {
        return stash + (((p0 + it / nb) * edges + e) * 2 * H + i) * cols;
    };
    /* band it's new window rows into its stage (every thread commits a group) */
    auto issue = [&](int64_t it) {
        if (it < total) {
            const int64_t band = blo + it % nb, r0 = band * BH, off = plane_off(it);
            const S *lp = llsrc + off, *dp = detsrc + off;
            S(*st)[WCP] = stage[it % NS];
            const int j0 = band == blo ? 0 : 2 * H;
            /* the stash's row for image row r (above or below the segment), or NULL */
            auto stashed = [&](int64_t r) -> const S * {
                if (stash && vs > 0 && r < rlo) return stash_row(it, vs - 1, r - (rlo - H));
                if (stash && r >= rhi) return stash_row(it, vs, r - (rhi - H));
                if (stash && periodic && nv > 1 && (r < 0 || r >= rows)) /* the wrap */
                    return stash_row(it, nv - 1, r < 0 ? r + H : r - rows + H);
                return nullptr;
            };
            if (vload) {
                for (int x = tid; x < (SR - j0) * CH; x += NT) {
                    const int jj = j0 + x / CH, ch = x % CH;
                    const int64_t r = r0 - H + jj;
                    if (r >= rend) continue;
                    const int64_t c = c0 - HA + ch * V;
                    const S *sr = stashed(r);
                    if (sr) {
#pragma unroll
                        for (int e = 0; e < V; e++) wk_copy(&st[jj][ch * V + e], sr + c + e);
                    } else {
                        __pipeline_memcpy_async(&st[jj][ch * V], lp + wk_map(r, rows, mode) * rs + c, 16);
                    }
                }
            } else if (tid < wcw) {
                for (int jj = j0; jj < SR; jj++) {
                    const int64_t r = r0 - H + jj;
                    if (r >= rend) break;
                    const int64_t rm = wk_map(r, rows, mode);
                    const S *sr = stashed(r);
                    wk_copy(&st[jj][tid], sr ? sr + cm : (((rm | cm) & 1) ? dp : lp) + rm * rs + cm * cs);
                }
            }
        }
        __pipeline_commit();
    };

    lwd_c<S> carry[2 * H], top[H > 0 ? H : 1];
    for (int s = 0; s < NS - 1; s++) issue(s);
    for (int64_t it = 0; it < total; it++) {
        issue(it + NS - 1);
        __pipeline_wait_prior(NS - 1);
        __syncthreads();
        if (mine && tid == 0) wk_raise(mine, (unsigned)(it + 1));
        const int64_t band = blo + it % nb, r0 = band * BH, off = plane_off(it);
        S *op = dst + off;
        S(*st)[WCP] = stage[it % NS];
        const bool first = band == blo; /* the window's top rows are in the stage */
        const int jlo = first ? 0 : 2 * H;

        if (HV) { /* rows first: the new rows of the window, in the stage */
            const int rp = NT / SEGS;
            for (int j0 = jlo; j0 < SR; j0 += rp) {
                const int jj = j0 + tid / SEGS, seg = tid % SEGS;
                const bool act = tid < rp * SEGS && jj < SR && r0 - H + jj < rend && seg * K < cw;
                lwd_c<S> u[NU];
                if (act) {
#pragma unroll
                    for (int i = 0; i < NU; i++) u[i] = st[jj][OFF + seg * K + i];
                    reg_lift_segment<W, DIR, K>(u, w, c0 + seg * K - H, cols, mode);
                }
                __syncthreads();
                if (act) {
#pragma unroll
                    for (int i = 0; i < K; i++) st[jj][HA + seg * K + i] = u[H + i];
                }
                __syncthreads();
            }
        }

        /* columns: the window column (strip column with HV) of this thread */
        const int vc = HV ? HA + tid : tid;
        const bool vact = HV ? tid < cw : tid < wcw;
        lwd_c<S> v[NR];
        if (vact) {
            /* rows past the plane's end from the window (or its first rows) */
            if (r0 + BH + H > rows) {
#pragma unroll
                for (int jj = 0; jj < SR; jj++) {
                    const int64_t r = r0 - H + jj;
                    if (r < rend || jj < jlo) continue;
                    lwd_c<S> x = 0;
                    if (periodic && band == 0) { /* the plane is this band: its rows are here */
                        x = st[H + lwd_bidx(r, rows, mode)][vc];
                    } else if (periodic) { /* the plane's first rows, kept (rows > BH >= H) */
#pragma unroll
                        for (int i = 0; i < H; i++)
                            if (r - rows == i) x = top[i];
                    } else {
                        const int64_t q = lwd_bidx(r, rows, mode) - (r0 - H);
                        if (q >= jlo && q < SR) x = st[q][vc];
                        else {
#pragma unroll
                            for (int i = 0; i < 2 * H; i++)
                                if (q == i) x = carry[i];
                        }
                    }
                    st[jj][vc] = x;
                }
            }
#pragma unroll
            for (int jj = 0; jj < NR; jj++) v[jj] = jj < 2 * H && !first ? carry[jj < 2 * H ? jj : 0] : st[jj][vc];
            if (periodic && band == 0) {
#pragma unroll
                for (int i = 0; i < H; i++) top[i] = v[H + i];
            }
#pragma unroll
            for (int i = 0; i < 2 * H; i++) carry[i] = v[BH + i];
            reg_lift_line<W, DIR>(v, w, r0 - H, rows, mode);
        }

        if (HV) {
            wk_wait(left, (unsigned)(it + 1)), wk_wait(right, (unsigned)(it + 1));
            __syncthreads();
            if (vact) {
#pragma unroll
                for (int jj = 0; jj < BH; jj++)
                    if (r0 + jj < rows) lwd_st(op + (r0 + jj) * rs + (c0 + tid) * cs, v[H + jj]);
            }
        } else {
            if (vact) {
#pragma unroll
                for (int jj = 0; jj < BH; jj++) st[jj][tid] = v[H + jj];
            }
            wk_wait(left, (unsigned)(it + 1)), wk_wait(right, (unsigned)(it + 1));
            __syncthreads();
            for (int item = tid; item < BH * SEGS; item += NT) {
                const int rr = item / SEGS, seg = item % SEGS;
                const int64_t r = r0 + rr, cb = c0 + seg * K;
                if (r >= rows || seg * K >= cw) continue;
                lwd_c<S> u[NU];
                wk_row_load<S, NU, OFF % V == 0>(u, &st[rr][OFF + seg * K]);
                reg_lift_segment<W, DIR, K>(u, w, cb - H, cols, mode);
                store_seg8<H>(op + r * rs + cb * cs, u, cs, vec, cw - seg * K);
            }
        }
        __syncthreads(); /* the stage is reloaded next */
    }
    __pipeline_wait_prior(0);
}

/* the stash: for every plane and every edge e between row segments, the 2H
 * rows around it (from row (e + 1) * vbands * BH - H; periodic: the last edge
 * is the wrap, from row rows - H), through the mode, from the sources by parity */
template <class S, int W, int WIDE>
__global__ void walk2d_stash(lwk_walk2d t, const S *llsrc, const S *detsrc, S *stash)
{
    constexpr int H = wk_dim<S, W, WIDE>::H, BH = wk_dim<S, W, WIDE>::BH;
    const int64_t cols = t.cols, edges = LWK_WALK2D_EDGES(t.vsegs, t.mode == LW_PERIODIC), planes = t.blen[0] * t.blen[1];
    const int64_t n = planes * edges * 2 * H * cols;
    for (int64_t x = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; x < n; x += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = x % cols, i = (x / cols) % (2 * H), e = (x / cols / (2 * H)) % edges;
        const int64_t b = x / cols / (2 * H) / edges;
        const int64_t off = (b / t.blen[1]) * t.bs[0] + (b % t.blen[1]) * t.bs[1];
        const int64_t cut = (e + 1) * t.vbands * BH < t.rows ? (e + 1) * t.vbands * BH : t.rows;
        const int64_t rm = wk_map(cut - H + i, t.rows, t.mode);
        stash[x] = ((((rm | c) & 1) ? detsrc : llsrc) + off)[rm * t.rs + c * t.cs];
    }
}

/* ---- launchers ------------------------------------------------------------ */

template <class S, int W, int INV, int HV, int WIDE> struct wk_kernel {
    typedef wk_dim<S, W, WIDE> D;
    static void (*fn())(lwk_walk2d, const S *, const S *, S *) { return walk2d<S, W, INV, HV, WIDE>; }
    static cudaError_t prepare()
    {
        return lw_cuda_func_attr((const void *)fn(), LW_SMEM_ATTR, (int)D::smem);
    }
    static cudaError_t capacity(int64_t *blocks)
    {
        const cudaError_t e = prepare();
        return e != cudaSuccess ? e : lw_cuda_resident((const void *)fn(), D::NT, D::smem, blocks);
    }
    static cudaError_t launch(const lwk_walk2d *t, const void *ll, const void *det, void *dst, cudaStream_t s)
    {
        cudaError_t e = prepare();
        if (e != cudaSuccess) return e;
        if (t->stash && t->vsegs > 1) {
            walk2d_stash<S, W, WIDE><<<1024, 256, 0, s>>>(*t, (const S *)ll, (const S *)det, (S *)t->stash);
            if ((e = cudaGetLastError()) != cudaSuccess) return e;
        }
        const int64_t n = t->strips * t->groups * t->vsegs;
        if (n < 1) return cudaSuccess;
        if (n > 0x7fffffff) return cudaErrorInvalidConfiguration;
        lwk_walk2d a = *t;
        const S *l = (const S *)ll, *d = (const S *)det;
        S *o = (S *)dst;
        void *args[] = {&a, &l, &d, &o};
        /* cooperative: every block resident, as the counters' waits need */
        return cudaLaunchCooperativeKernel((const void *)fn(), dim3((unsigned)n), dim3(D::NT), args, D::smem, s);
    }
};

/* the kernel for (dtype, wavelet, direction, shape) handed to f; float,
 * double and int32 (with its integer lifting) only */
template <class S, class F> static cudaError_t wk_select_t(int wave_id, int inverse, int wide, F &f)
{
    return lwc_dispatch(wave_id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!lwc_separable(W) || (std::is_same<S, int32_t>::value && !lwc_has_integer(W))) {
            return cudaErrorInvalidValue;
        } else {
            constexpr int IH = std::is_same<S, int32_t>::value; /* integer inverse: rows first */
            if (wide) return inverse ? f(wk_kernel<S, W, 1, IH, 1>{}) : f(wk_kernel<S, W, 0, 0, 1>{});
            return inverse ? f(wk_kernel<S, W, 1, IH, 0>{}) : f(wk_kernel<S, W, 0, 0, 0>{});
        }
    });
}

template <class F> static cudaError_t wk_select(int dtype, int wave_id, int inverse, int wide, F &&f)
{
    switch (dtype) {
    case LWK_F32: return wk_select_t<float>(wave_id, inverse, wide, f);
    case LWK_F64: return wk_select_t<double>(wave_id, inverse, wide, f);
    case LWK_I32: return wk_select_t<int32_t>(wave_id, inverse, wide, f);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" int lwk_walk2d_dims(int dtype, int wave_id, int wide, int *sw, int *bh, int *halo)
{
    *sw = *bh = *halo = 0;
    return wk_select(dtype, wave_id, 0, wide, [&](auto k) -> cudaError_t {
               typedef typename decltype(k)::D D;
               *sw = D::SW, *bh = D::BH, *halo = D::H;
               return cudaSuccess;
           }) == cudaSuccess;
}

extern "C" cudaError_t lwk_walk2d_capacity(int dtype, int wave_id, int inverse, int wide, int64_t *blocks)
{
    *blocks = 0;
    return wk_select(dtype, wave_id, inverse, wide, [&](auto k) { return decltype(k)::capacity(blocks); });
}

extern "C" cudaError_t lwk_walk2d_run(int dtype, int inverse, const lwk_walk2d *t, const void *ll, const void *det,
                                      void *dst, cudaStream_t s)
{
    return wk_select(dtype, t->w.id, inverse, t->wide,
                     [&](auto k) { return decltype(k)::launch(t, ll, det, dst, s); });
}
