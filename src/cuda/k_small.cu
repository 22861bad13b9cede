/* Small engine: one block holds a whole item (up to 3 transformed axes) in
 * shared memory and runs several levels on it, every axis, every step, with a
 * barrier between steps and the boundary read through the mode at every step.
 * Used for batches of small arrays and for the tail levels of a pyramid, so
 * that small levels cost one launch instead of one per level and axis.
 *
 * Each phase (a load, a lifting step of one axis, a scale and reorder, a
 * store) is a sweep over a space of three dimensions whose innermost one takes
 * consecutive threads: the one of the smallest shared-memory stride, so that a
 * warp's accesses fall in distinct banks.  Threads find their elements by
 * shifts and masks (no division); a tap inside the line is read at a fixed
 * offset, only taps past an end go through the boundary mode.  The arithmetic
 * (lwd_step, lwd_scale) is the other engines'.  A phase is a latency chain
 * of about a microsecond (barrier, constant and shared loads, the step), so a
 * 2-D cdf97 level costs ~12 us here against a few for a fused launch: the
 * fused pyramid engines hand the small engine only the levels they cannot
 * run (cuda_exec.c, tail_from). */
#include "lw_cuda_dev.cuh"

#define SMALL_THREADS 256       /* a block for each of many items */
#define SMALL_THREADS_ONE 1024  /* a block for each of few items (a pyramid's tail: one) */
#define SMALL_FEW_ITEMS 64
#define SMALL_SMEM_MAX (96 * 1024)

/* bytes of the compute type (shared memory): float for the half types */
static int small_elsize(int dtype) { return dtype == LWK_F64 ? 8 : 4; }

extern "C" int64_t lwk_small_capacity(int dtype) { return SMALL_SMEM_MAX / 2 / small_elsize(dtype); }

__device__ __forceinline__ int small_log2up(int c) { return c <= 1 ? 0 : 32 - __clz(c - 1); }

/* A thread's place in a sweep of c0 x c1 x c2 points: the block's threads
 * spread as Z x Y x X (powers of two, X covering c2 first, then Y c1;
 * blockDim.x a power of two), the thread starting at (z0, y0, x0).  false:
 * the thread has no point, so that warps without work skip a phase's setup
 * (most of a deep level's warps). */
struct small_map {
    int x0, y0, z0, lx, ly, lz;
};

__device__ __forceinline__ bool small_map_of(int c0, int c1, int c2, small_map &M)
{
    const int lt = 31 - __clz((int)blockDim.x), tid = threadIdx.x;
    M.lx = min(small_log2up(c2), lt), M.ly = min(small_log2up(c1), lt - M.lx), M.lz = lt - M.lx - M.ly;
    M.x0 = tid & ((1 << M.lx) - 1), M.y0 = (tid >> M.lx) & ((1 << M.ly) - 1), M.z0 = tid >> (M.lx + M.ly);
    return M.z0 < c0 && M.y0 < c1 && M.x0 < c2;
}

/* f(z, y, x) for the thread's points of the sweep */
template <class F> __device__ __forceinline__ void small_for(const small_map &M, int c0, int c1, int c2, F f)
{
    for (int z = M.z0; z < c0; z += 1 << M.lz)
        for (int y = M.y0; y < c1; y += 1 << M.ly)
            for (int x = M.x0; x < c2; x += 1 << M.lx) f(z, y, x);
}

template <class F> __device__ __forceinline__ void small_sweep(int c0, int c1, int c2, F f)
{
    small_map M;
    if (small_map_of(c0, c1, c2, M)) small_for(M, c0, c1, c2, f);
}

/* The lines of one level along axis a, as a sweep: the positions j of each
 * line (stride ls from the line's start) and the other axes' lines (counts
 * lc0, lc1, strides lst0, lst1; the faster second, count 1 where absent).
 * The positions take the sweep's innermost dimension where their stride is
 * the smallest, else the outermost.  f(line offset, j). */
struct small_lines {
    int lc0, lc1, lst0, lst1, ls;
    bool inner;
};

__device__ __forceinline__ bool small_lines_map(const small_lines &L, int n, small_map &M)
{
    return L.inner ? small_map_of(L.lc0, L.lc1, n, M) : small_map_of(n, L.lc0, L.lc1, M);
}

template <class F> __device__ __forceinline__ void small_lines_for(const small_lines &L, int n, const small_map &M, F f)
{
    if (L.inner)
        small_for(M, L.lc0, L.lc1, n, [&](int z, int y, int x) { f(z * L.lst0 + y * L.lst1, x); });
    else
        small_for(M, n, L.lc0, L.lc1, [&](int z, int y, int x) { f(y * L.lst0 + x * L.lst1, z); });
}

template <class F> __device__ __forceinline__ void small_lines_sweep(const small_lines &L, int n, F f)
{
    small_map M;
    if (small_lines_map(L, n, M)) small_lines_for(L, n, M, f);
}

/* stride of axis b (< na) in the dense item of lengths m (C order) */
__device__ __forceinline__ int small_dense_stride(const int *m, int na, int b)
{
    return b == na - 1 ? 1 : b == na - 2 ? m[na - 1] : m[na - 1] * m[na - 2];
}

/* Lifting step s along the lines L (length n) of buf; threads without a
 * target return before the setup. */
template <class T>
__device__ __forceinline__ void small_step(const lwk_small &p, T *buf, const small_lines &L, int n, int s, int dir)
{
    const int par = p.w.target_odd[s], ntg = (n - par + 1) / 2, ls = L.ls;
    small_map M;
    if (!small_lines_map(L, ntg, M)) return;
    const int nk = p.w.ntaps[s];
    int lo = 0, hi = 0, to[LW_MAX_TAPS];
#pragma unroll
    for (int i = 0; i < LW_MAX_TAPS; i++) {
        const int o = i < nk ? p.w.off[s][i] : 0;
        to[i] = o * ls, lo = min(lo, o), hi = max(hi, o);
    }
    /* targets t = par + 2q with every tap inside the line: q in [qa, qb) */
    const int qa = (-lo - par + 1) / 2, qb = n - 1 - hi - par >= 0 ? (n - 1 - hi - par) / 2 + 1 : 0;
    small_lines_for(L, ntg, M, [&](int b, int q) {
        const int t = par + 2 * q;
        T *x = &buf[b + t * ls];
        T taps[LW_MAX_TAPS];
        if (q >= qa && q < qb) {
#pragma unroll
            for (int i = 0; i < LW_MAX_TAPS; i++)
                if (i < nk) taps[i] = x[to[i]];
        } else {
#pragma unroll
            for (int i = 0; i < LW_MAX_TAPS; i++)
                if (i < nk) taps[i] = buf[b + lwd_bidx_t<int>(t + p.w.off[s][i], n, p.mode) * ls];
        }
        *x = lwd_step<T>(p.w, s, *x, taps, dir);
    });
}

/* One level along axis a of the dense shared item (region lengths r, grid
 * step g): reorder and lift. */
template <class T>
__device__ void small_axis(const lwk_small &p, T *buf, T *tmp, const int *m, const int *r, int g, int a, int dir)
{
    const int na = p.na;
    small_lines L;
    /* the other axes: b1 the faster, b0 the slower (3 axes only) */
    const int b0 = a == 0 ? 1 : 0, b1 = na == 3 ? (a == 2 ? 1 : 2) : 1 - a;
    L.lc0 = na == 3 ? r[b0] : 1, L.lst0 = na == 3 ? g * small_dense_stride(m, na, b0) : 0;
    L.lc1 = na >= 2 ? r[b1] : 1, L.lst1 = na >= 2 ? g * small_dense_stride(m, na, b1) : 0;
    const int n = r[a], ls = g * small_dense_stride(m, na, a), h = (n + 1) / 2;
    L.ls = ls;
    L.inner = na == 1 || ls <= L.lst1;
    const bool mallat = p.mallat;

    /* inverse: Mallat -> interleaved, scale undone on the way (interleaved: in place) */
    if (dir < 0) {
        if (mallat) {
            small_lines_sweep(L, n, [&](int b, int j) {
                tmp[b + j * ls] = lwd_scale<T>(p.w, buf[b + ((j & 1) ? h + (j >> 1) : (j >> 1)) * ls], j & 1, -1);
            });
            __syncthreads();
            small_lines_sweep(L, n, [&](int b, int j) { buf[b + j * ls] = tmp[b + j * ls]; });
        } else {
            small_lines_sweep(L, n, [&](int b, int j) { buf[b + j * ls] = lwd_scale<T>(p.w, buf[b + j * ls], j & 1, -1); });
        }
        __syncthreads();
    }
    for (int ss = 0; ss < p.w.nsteps; ss++) {
        small_step<T>(p, buf, L, n, dir < 0 ? p.w.nsteps - 1 - ss : ss, dir);
        __syncthreads();
    }
    /* forward: scale, then interleaved -> Mallat (interleaved: in place) */
    if (dir > 0) {
        if (mallat) {
            small_lines_sweep(L, n, [&](int b, int j) {
                tmp[b + ((j & 1) ? h + (j >> 1) : (j >> 1)) * ls] = lwd_scale<T>(p.w, buf[b + j * ls], j & 1, 1);
            });
            __syncthreads();
            small_lines_sweep(L, n, [&](int b, int j) { buf[b + j * ls] = tmp[b + j * ls]; });
        } else {
            small_lines_sweep(L, n, [&](int b, int j) { buf[b + j * ls] = lwd_scale<T>(p.w, buf[b + j * ls], j & 1, 1); });
        }
        __syncthreads();
    }
}

/* The item between global memory (strides gs) and the dense shared buf:
 * f(shared offset, global offset) over the item's lengths m. */
template <class F> __device__ __forceinline__ void small_item_sweep(int na, const int *m, const int64_t *gs, F f)
{
    const int c2 = m[na - 1], c1 = na > 1 ? m[na - 2] : 1, c0 = na > 2 ? m[0] : 1;
    const int64_t s2 = gs[na - 1], s1 = na > 1 ? gs[na - 2] : 0, s0 = na > 2 ? gs[0] : 0;
    small_sweep(c0, c1, c2, [&](int z, int y, int x) { f((z * c1 + y) * c2 + x, z * s0 + y * s1 + x * s2); });
}

/* S: the storage type; shared memory holds the compute type T */
template <class S>
__global__ void __launch_bounds__(SMALL_THREADS_ONE) small_kernel(lwk_small p, const S *src, S *dst)
{
    typedef lwd_c<S> T;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int *m = p.len[0];
    int D = 1;
    for (int a = 0; a < p.na; a++) D *= m[a];
    T *buf = (T *)smem_raw;
    T *tmp = buf + D;
    const int dir = p.inverse ? -1 : 1;
    for (int64_t b = blockIdx.x; b < p.nbatch; b += gridDim.x) {
        const S *sb = src + lwd_decomp(b, p.nb, p.blen, p.bsst);
        S *db = dst + lwd_decomp(b, p.nb, p.blen, p.bdst);
        small_item_sweep(p.na, m, p.sst, [&](int e, int64_t o) { buf[e] = lwd_ld(sb + o); });
        __syncthreads();
        for (int ii = 0; ii < p.nlev; ii++) {
            int i = p.inverse ? p.nlev - 1 - ii : ii;
            int g = p.interleaved ? (1 << i) : 1;
            for (int aa = 0; aa < p.na; aa++) {
                int a = p.inverse ? p.na - 1 - aa : aa;
                if (p.len[i][a] < 2) continue;
                small_axis<T>(p, buf, tmp, m, p.len[i], g, a, dir);
            }
        }
        small_item_sweep(p.na, m, p.dst_, [&](int e, int64_t o) { lwd_st(db + o, buf[e]); });
        __syncthreads();
    }
}

template <class S> static cudaError_t small_run(const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    typedef lwd_c<S> T;
    int64_t D = 1;
    for (int a = 0; a < p->na; a++) D *= p->len[0][a];
    size_t smem = 2 * (size_t)D * sizeof(T);
    if (smem > SMALL_SMEM_MAX) return cudaErrorInvalidValue;
    const cudaError_t attr = lw_cuda_func_attr((const void *)small_kernel<S>, LW_SMEM_ATTR, SMALL_SMEM_MAX);
    if (attr != cudaSuccess) return attr;
    int64_t grid = p->nbatch < (1 << 20) ? p->nbatch : (1 << 20);
    if (grid < 1) return cudaSuccess;
    const int threads = grid < SMALL_FEW_ITEMS ? SMALL_THREADS_ONE : SMALL_THREADS;
    small_kernel<S><<<(unsigned)grid, threads, smem, s>>>(*p, (const S *)src, (S *)dst);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_small_launch(int dtype, const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto t) { return small_run<LWD_TYPE_OF(t)>(p, src, dst, s); });
}
