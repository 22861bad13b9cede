/* Small engine: one block holds a whole item (up to 3 transformed axes) in
 * shared memory and runs several levels on it, every axis, every step, with
 * the boundary read through the mode at every step.  Used for batches of
 * small arrays and for the tail levels of a pyramid, so that small levels
 * cost one launch instead of one per level and axis.
 *
 * An axis of a level is one phase between block barriers: each line along
 * the axis belongs to a group of G lanes of one warp (G a power of two up to
 * 32: as many as the block's threads allow for all lines at once, no more
 * than a step's targets), which runs the line's reorder, every lifting step
 * and the scale with warp barriers only.  In shared memory the item's rows
 * (and planes) have odd pitches, so that lanes on one column, and groups on
 * neighbouring lines, fall in distinct banks.  The kernel is instantiated per
 * wavelet, so that each step's parity, taps and reach are constants: a tap
 * inside the line is read at a fixed offset, only taps past an end go through
 * the boundary mode.  The arithmetic (tstep_i, lwd_scale) is the fused
 * engines'.
 *
 * A launch of few items (a pyramid's tail: one block, one SM) is bound by the
 * latency and setup of its phases, and a line of a deep level has few
 * samples.  There, in two and three dimensions, an axis whose lines have at
 * most SMALL_MAT_MAX samples (float types) runs as the level's n x n matrix
 * along the axis: the block first lifts the columns of the identity with the
 * same steps (small_axis on an n x n item, every matrix at once), then such a
 * phase is a product of at most n terms a sample (no warp barrier a step, no
 * boundary test), staged through tmp.  The matrix holds the lifting's
 * boundary, scaling and band order, so the result is the lifting's up to
 * rounding.  Integer transforms always lift (their rounding is not linear). */
#include "line_lift.cuh"

#include <string.h>
#include <type_traits>

#define SMALL_THREADS 256       /* a block for each of many items */
#define SMALL_THREADS_ONE 1024  /* a block for each of few items (a pyramid's tail: one) */
#define SMALL_FEW_ITEMS 64
#define SMALL_SMEM_MAX (96 * 1024)
#define SMALL_MAT_MAX 32   /* longest line an axis runs as a matrix */
#define SMALL_MAT_SLOTS 8  /* distinct line lengths run as matrices in one launch */

/* bytes of the compute type (shared memory): float for the half types */
static int small_elsize(int dtype) { return dtype == LWK_F64 ? 8 : 4; }

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

/* Pitches (elements) of the item of lengths m in shared memory: the
 * innermost axis contiguous, the others odd; and the item's padded size. */
__host__ __device__ __forceinline__ void small_pitches(const int *m, int na, int *P)
{
    P[na - 1] = 1;
    for (int a = na - 2; a >= 0; a--) P[a] = (m[a + 1] * P[a + 1]) | 1;
}
__host__ __device__ __forceinline__ int64_t small_padded(const int *m, int na)
{
    int P[3];
    small_pitches(m, na, P);
    return (int64_t)m[0] * P[0];
}

extern "C" int lwk_small_fits(int dtype, int na, const int64_t *len)
{
    int m[3];
    int64_t count = 1; /* bounded first, so that the padded size fits an int */
    for (int a = 0; a < na; a++) {
        if (len[a] < 1 || (count *= len[a]) > SMALL_SMEM_MAX) return 0;
        m[a] = (int)len[a];
    }
    return 2 * small_padded(m, na) * small_elsize(dtype) <= SMALL_SMEM_MAX;
}

/* Lifting step S of wavelet W on one line (n samples at stride ls from x) by
 * the lanes li (of G) of its group: targets par + 2q for q = li, li + G, ... */
template <class T, int W, int S, int DIR>
__device__ __forceinline__ void small_line_step(const lwk_small &p, T *x, int n, int ls, int li, int G)
{
    constexpr int par = sh_par(W, S), nt = sh_ntaps(W, S), lo = ln_reach_lo<W, S>(), hi = ln_reach_hi<W, S>();
    const int ntg = (n - par + 1) / 2;
    /* targets with every tap inside the line: q in [qa, qb) */
    const int qa = (-lo - par + 1) / 2, qb = n - 1 - hi - par >= 0 ? (n - 1 - hi - par) / 2 + 1 : 0;
    for (int q = li; q < ntg; q += G) {
        const int t = par + 2 * q;
        T *y = x + t * ls;
        T taps[nt];
        if (q >= qa && q < qb) {
#pragma unroll
            for (int i = 0; i < nt; i++) taps[i] = y[sh_off(W, S, i) * ls];
        } else {
#pragma unroll
            for (int i = 0; i < nt; i++) taps[i] = x[lwd_bidx_t<int>(t + sh_off(W, S, i), n, p.mode) * ls];
        }
        *y = tstep_i<T, nt, DIR>::run(p.w, S, *y, taps);
    }
}

/* Every lifting step of one line in order (inverse: reversed), a warp
 * barrier of the group (mask) after each. */
template <class T, int W, int DIR, int SS = 0>
__device__ __forceinline__ void small_line_steps(const lwk_small &p, T *x, int n, int ls, int li, int G, unsigned mask)
{
    if constexpr (SS < sh_nsteps(W)) {
        constexpr int S = DIR > 0 ? SS : sh_nsteps(W) - 1 - SS;
        small_line_step<T, W, S, DIR>(p, x, n, ls, li, G);
        __syncwarp(mask);
        small_line_steps<T, W, DIR, SS + 1>(p, x, n, ls, li, G, mask);
    }
}

/* One level along axis a of the shared item (na axes, pitches P, region
 * lengths r, grid step g): reorder, lift and scale every line, each by its
 * group of lanes, on threads tid of nthr (a slice of the block starting at a
 * warp's first lane).  The caller's block barrier follows. */
template <class T, int W, int DIR>
__device__ __forceinline__ void small_axis(const lwk_small &p, T *buf, T *tmp, const int *P, const int *r, int g, int a,
                                           int na, int tid, int nthr)
{
    /* the other axes: b1 the faster, b0 the slower (3 axes only) */
    const int b0 = a == 0 ? 1 : 0, b1 = na == 3 ? (a == 2 ? 1 : 2) : 1 - a;
    const int lc0 = na == 3 ? r[b0] : 1, lst0 = na == 3 ? g * P[b0] : 0;
    const int lc1 = na >= 2 ? r[b1] : 1, lst1 = na >= 2 ? g * P[b1] : 0;
    const int n = r[a], ls = g * P[a], h = (n + 1) / 2, lines = lc0 * lc1;
    /* lanes a line: up to 32 and to a step's targets (h), fewer where the
     * block's threads would not hold every line at once */
    int lg = min(5, small_log2up(h));
    while (lg > 0 && ((int64_t)lines << lg) > (int64_t)nthr) lg--;
    const int G = 1 << lg, li = tid & (G - 1), groups = nthr >> lg;
    const unsigned mask = G == 32 ? 0xffffffffu : ((1u << G) - 1) << ((tid & 31) & ~(G - 1));
    const bool mallat = p.mallat;
    for (int line = tid >> lg; line < lines; line += groups) {
        const int i0 = lc1 > 1 ? line / lc1 : line, i1 = line - i0 * lc1;
        const int base = i0 * lst0 + i1 * lst1;
        T *x = buf + base, *xt = tmp + base;
        /* inverse: Mallat -> interleaved, scale undone on the way (interleaved: in place) */
        if (DIR < 0) {
            if (mallat) {
                for (int j = li; j < n; j += G)
                    xt[j * ls] = lwd_scale<T>(p.w, x[((j & 1) ? h + (j >> 1) : (j >> 1)) * ls], j & 1, -1);
                __syncwarp(mask);
                for (int j = li; j < n; j += G) x[j * ls] = xt[j * ls];
            } else {
                for (int j = li; j < n; j += G) x[j * ls] = lwd_scale<T>(p.w, x[j * ls], j & 1, -1);
            }
            __syncwarp(mask);
        }
        small_line_steps<T, W, DIR>(p, x, n, ls, li, G, mask);
        /* forward: scale, then interleaved -> Mallat (interleaved: in place) */
        if (DIR > 0) {
            if (mallat) {
                for (int j = li; j < n; j += G)
                    xt[((j & 1) ? h + (j >> 1) : (j >> 1)) * ls] = lwd_scale<T>(p.w, x[j * ls], j & 1, 1);
                __syncwarp(mask);
                for (int j = li; j < n; j += G) x[j * ls] = xt[j * ls];
            } else {
                for (int j = li; j < n; j += G) x[j * ls] = lwd_scale<T>(p.w, x[j * ls], j & 1, 1);
            }
            __syncwarp(mask);
        }
    }
}

/* The matrices of a launch.  Slot m holds the n[m] x n[m] matrix of one
 * level along an axis (of every level and axis whose lines have n[m]
 * samples) at off[m] of the matrix area in shared memory, transposed: row j,
 * at pitch small_mat_pitch(n) (16-byte rows, zero beyond n; rows four words
 * apart in the banks), is the image of the identity's column j.  of[i][a]:
 * the slot of level i along axis a, -1 where that axis is lifted. */
__host__ __device__ __forceinline__ int small_mat_pitch(int n) { return ((n + 3) & ~3) | 4; }
/* where the matrix area begins, in elements from the item's: after the item
 * and tmp, 16-byte aligned */
__host__ __device__ __forceinline__ int64_t small_mats_at(int64_t pad) { return (2 * pad + 3) & ~(int64_t)3; }

struct small_mats {
    int nm, total;
    int n[SMALL_MAT_SLOTS], off[SMALL_MAT_SLOTS];
    signed char of[LWK_SMALL_MAXLEV][3];
};

/* Every slot's matrix: the identity's columns as the lines of an n x n item,
 * lifted by small_axis (the direction's reorder, steps and scale), each slot
 * by its own slice of the block's warps at once.  mb: the matrices, mt: their
 * reorder's scratch.  Ends with a block barrier. */
template <class T, int W, int DIR>
__device__ __forceinline__ void small_mats_build(const lwk_small &p, const small_mats &M, T *mb, T *mt)
{
    for (int m = 0; m < M.nm; m++) {
        const int n = M.n[m], pm = small_mat_pitch(n);
        for (int e = threadIdx.x; e < n * pm; e += blockDim.x) mb[M.off[m] + e] = e / pm == e % pm ? T(1) : T(0);
    }
    __syncthreads();
    const int per = ((int)blockDim.x >> 5) / M.nm, m = ((int)threadIdx.x >> 5) / per;
    if (m < M.nm) {
        const int n = M.n[m], P[2] = {small_mat_pitch(n), 1}, r[2] = {n, n};
        small_axis<T, W, DIR>(p, mb + M.off[m], mt + M.off[m], P, r, 1, 1, 2, (int)threadIdx.x - m * per * 32, per * 32);
    }
    __syncthreads();
}

/* Four consecutive entries of a matrix row (16-byte aligned) */
__device__ __forceinline__ void small_ld4(const float *p, float (&m)[4])
{
    const float4 t = *(const float4 *)p;
    m[0] = t.x, m[1] = t.y, m[2] = t.z, m[3] = t.w;
}
__device__ __forceinline__ void small_ld4(const double *p, double (&m)[4])
{
    const double2 t = ((const double2 *)p)[0], u = ((const double2 *)p)[1];
    m[0] = t.x, m[1] = t.y, m[2] = u.x, m[3] = u.y;
}

/* One level along axis a of the shared item (na axes, pitches P, region
 * lengths r, grid step g) as the product by a slot's matrix (mtr, transposed,
 * row pitch pm, a multiple of 4): each thread four consecutive outputs of a
 * line (one load of each input for four terms), into tmp; a block barrier;
 * then back into buf.  The caller's block barrier follows. */
template <class T>
__device__ __forceinline__ void small_axis_mat(const T *mtr, int pm, T *buf, T *tmp, const int *P, const int *r, int g,
                                               int a, int na)
{
    const int n = r[a], nq = (n + 3) >> 2, ls = g * P[a];
    const int c2 = r[na - 1], c1 = na > 1 ? r[na - 2] : 1, c0 = na > 2 ? r[0] : 1;
    const int p1 = na > 1 ? g * P[na - 2] : 0, p0 = na > 2 ? g * P[0] : 0;
    const int ax = na - 1 - a; /* 0: the line runs along x, 1: y, 2: z */
    small_map M;
    if (small_map_of(ax == 2 ? nq : c0, ax == 1 ? nq : c1, ax == 0 ? nq : c2, M))
        small_for(M, ax == 2 ? nq : c0, ax == 1 ? nq : c1, ax == 0 ? nq : c2, [&](int z, int y, int x) {
            const int q = ax == 0 ? x : ax == 1 ? y : z, i0 = 4 * q;
            const int o0 = (ax == 2 ? 0 : z * p0) + (ax == 1 ? 0 : y * p1) + (ax == 0 ? 0 : x * g);
            const T *lp = buf + o0, *mp = mtr + i0;
            T s0 = T(0), s1 = T(0), s2 = T(0), s3 = T(0);
#pragma unroll 4
            for (int j = 0; j < n; j++, lp += ls, mp += pm) {
                const T v = *lp;
                T m[4];
                small_ld4(mp, m);
                s0 += m[0] * v, s1 += m[1] * v, s2 += m[2] * v, s3 += m[3] * v;
            }
            T *d = tmp + o0 + i0 * ls;
            d[0] = s0;
            if (i0 + 1 < n) d[ls] = s1;
            if (i0 + 2 < n) d[2 * ls] = s2;
            if (i0 + 3 < n) d[3 * ls] = s3;
        });
    __syncthreads();
    small_sweep(c0, c1, c2, [&](int z, int y, int x) {
        const int o = z * p0 + y * p1 + x * g;
        buf[o] = tmp[o];
    });
}

/* The item between global memory (strides gs) and the shared buf (pitches
 * P): f(shared offset, global offset) over the item's lengths m. */
template <class F>
__device__ __forceinline__ void small_item_sweep(int na, const int *m, const int *P, const int64_t *gs, F f)
{
    const int c2 = m[na - 1], c1 = na > 1 ? m[na - 2] : 1, c0 = na > 2 ? m[0] : 1;
    const int p1 = na > 1 ? P[na - 2] : 0, p0 = na > 2 ? P[0] : 0;
    const int64_t s2 = gs[na - 1], s1 = na > 1 ? gs[na - 2] : 0, s0 = na > 2 ? gs[0] : 0;
    small_sweep(c0, c1, c2, [&](int z, int y, int x) { f(z * p0 + y * p1 + x, z * s0 + y * s1 + x * s2); });
}

/* S: the storage type (shared memory holds the compute type T); W: the wavelet */
template <class S, int W>
__global__ void __launch_bounds__(SMALL_THREADS_ONE, 1) small_kernel(lwk_small p, small_mats mats, const S *src, S *dst)
{
    typedef lwd_c<S> T;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int *m = p.len[0];
    int P[3];
    small_pitches(m, p.na, P);
    const int64_t pad = small_padded(m, p.na);
    T *buf = (T *)smem_raw;
    T *tmp = buf + pad, *mb = buf + small_mats_at(pad);
    if constexpr (std::is_floating_point<T>::value)
        if (mats.nm) {
            if (p.inverse) small_mats_build<T, W, -1>(p, mats, mb, mb + mats.total);
            else small_mats_build<T, W, 1>(p, mats, mb, mb + mats.total);
        }
    for (int64_t b = blockIdx.x; b < p.nbatch; b += gridDim.x) {
        const S *sb = src + lwd_decomp(b, p.nb, p.blen, p.bsst);
        S *db = dst + lwd_decomp(b, p.nb, p.blen, p.bdst);
        small_item_sweep(p.na, m, P, p.sst, [&](int e, int64_t o) { buf[e] = lwd_ld(sb + o); });
        __syncthreads();
        for (int ii = 0; ii < p.nlev; ii++) {
            int i = p.inverse ? p.nlev - 1 - ii : ii;
            int g = p.interleaved ? (1 << i) : 1;
            for (int aa = 0; aa < p.na; aa++) {
                int a = p.inverse ? p.na - 1 - aa : aa;
                if (p.len[i][a] < 2) continue;
                const int ms = mats.of[i][a];
                if constexpr (std::is_floating_point<T>::value)
                    if (ms >= 0) {
                        small_axis_mat<T>(mb + mats.off[ms], small_mat_pitch(mats.n[ms]), buf, tmp, P, p.len[i], g,
                                          a, p.na);
                        __syncthreads();
                        continue;
                    }
                const int nt = (int)blockDim.x;
                if (p.inverse) small_axis<T, W, -1>(p, buf, tmp, P, p.len[i], g, a, p.na, threadIdx.x, nt);
                else small_axis<T, W, 1>(p, buf, tmp, P, p.len[i], g, a, p.na, threadIdx.x, nt);
                __syncthreads();
            }
        }
        small_item_sweep(p.na, m, P, p.dst_, [&](int e, int64_t o) { lwd_st(db + o, buf[e]); });
        __syncthreads();
    }
}

/* The matrix slots of a launch of few items of two or three axes (a single
 * line lifts as fast: its one warp has every lane busy) whose samples are
 * computed in a float type: every level and axis whose lines have 2 ..
 * SMALL_MAT_MAX samples, as long as the slots and shared memory (from at_b bytes, after
 * the item and tmp) hold them; none otherwise. */
static small_mats small_mats_plan(const lwk_small *p, int floating, size_t esize, size_t at_b)
{
    small_mats M;
    memset(&M, 0, sizeof M);
    memset(M.of, -1, sizeof M.of);
    if (!floating || p->nbatch >= SMALL_FEW_ITEMS || p->na < 2) return M;
    for (int i = 0; i < p->nlev; i++)
        for (int a = 0; a < p->na; a++) {
            const int n = p->len[i][a];
            if (n < 2 || n > SMALL_MAT_MAX) continue;
            int m = 0;
            while (m < M.nm && M.n[m] != n) m++;
            if (m == M.nm) {
                if (m == SMALL_MAT_SLOTS) continue;
                M.n[m] = n, M.off[m] = M.total, M.total += n * small_mat_pitch(n), M.nm++;
            }
            M.of[i][a] = (signed char)m;
        }
    if (M.nm && at_b + 2 * (size_t)M.total * esize > SMALL_SMEM_MAX) {
        M.nm = M.total = 0;
        memset(M.of, -1, sizeof M.of);
    }
    return M;
}

template <class S, int W> static cudaError_t small_run_w(const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    typedef lwd_c<S> T;
    const size_t item_b = 2 * (size_t)small_padded(p->len[0], p->na) * sizeof(T);
    if (item_b > SMALL_SMEM_MAX) return cudaErrorInvalidValue;
    const cudaError_t attr = lw_cuda_func_attr((const void *)small_kernel<S, W>, LW_SMEM_ATTR, SMALL_SMEM_MAX);
    if (attr != cudaSuccess) return attr;
    int64_t grid = p->nbatch < (1 << 20) ? p->nbatch : (1 << 20);
    if (grid < 1) return cudaSuccess;
    const int threads = grid < SMALL_FEW_ITEMS ? SMALL_THREADS_ONE : SMALL_THREADS;
    const size_t at_b = (size_t)small_mats_at(small_padded(p->len[0], p->na)) * sizeof(T);
    const small_mats mats = small_mats_plan(p, std::is_floating_point<T>::value, sizeof(T), at_b);
    const size_t smem = mats.nm ? at_b + 2 * (size_t)mats.total * sizeof(T) : item_b;
    small_kernel<S, W><<<(unsigned)grid, threads, smem, s>>>(*p, mats, (const S *)src, (S *)dst);
    return cudaGetLastError();
}

/* the separable wavelets (and the transposed ones of the periodic adjoints);
 * on int32 those with an integer variant */
template <class S> static cudaError_t small_run(const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    return lwc_dispatch_all(p->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!lwc_separable(W) || (std::is_same<S, int32_t>::value && !lwc_has_integer(W)))
            return cudaErrorInvalidValue;
        else
            return small_run_w<S, W>(p, src, dst, s);
    });
}

extern "C" cudaError_t lwk_small_launch(int dtype, const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto t) { return small_run<LWD_TYPE_OF(t)>(p, src, dst, s); });
}
