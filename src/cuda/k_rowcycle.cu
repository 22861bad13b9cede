/* The Mallat reorder of a 2-D region in place by whole rows (Ikuzawa et al.'s
 * chunk rearrangement with a row as the chunk): the rows move along the
 * cycles of the row permutation, and every row's columns are reordered in
 * shared memory on the way, so that the region is read once and written once.
 *
 * Forward (interleaved -> Mallat): row q takes row m^-1(q), m(p) = p / 2 for
 * even p, hr + p / 2 for odd p; its column c goes to column m(c) (hc for hr).
 * Inverse: row q takes row m(q), column m(c) going back to c.  A block walks a
 * segment of a cycle, f = q0 <- q1 <- ... <- q(len-1) (q(i+1) = src(q(i))): it
 * saves f's row, then loads q(i+1) and stores it to q(i), whose own row it
 * loaded one step before, and at last stores the saved row to the row before
 * f (src of it is f).  A whole cycle is one segment, whose last row is that
 * row.  The cycles of 2^k rows are many and short (16384 rows: 1182 of at most
 * 14), but other counts have a few long ones (16000 rows: 6 of up to 5332,
 * one block each walking 5332 rows in turn), so where the cycles are fewer
 * than the blocks the device holds they are cut in segments, up to that many
 * (the segments are made once at plan time, cycles.c): a segment's last row
 * is then the first of the next segment's block, which stores there only once
 * this block has read it (a flag); the grid runs cooperatively, so every
 * block waited for runs.  No device memory beyond the region, the segments and
 * the flags.
 *
 * A block moves one row at a time, so the loads it has in flight pace it:
 * where every row starts on 16 bytes and holds whole 16-byte pieces of
 * elements of up to 4 bytes, each thread loads RC_VBATCH pieces at once (1024
 * threads: a 64 KiB row in one round trip) and stores 16-byte pieces; other
 * regions and 8-byte elements take element loads. */
#include "k_rowcycle.h"
#include "lw_cuda_dev.cuh"

#include <string.h>

#define RC_THREADS 1024
#define RC_BATCH 8
#define RC_VBATCH 4
/* shared memory of a block: two rows */
#define RC_SMEM (200 * 1024)

/* segments passed by value (few cycles: no device memory for them) */
struct rc_inline {
    int32_t v[LWK_ROWCYCLE_INLINE];
};

__device__ __forceinline__ int64_t rc_m(int64_t p, int64_t h) { return (p & 1) ? h + (p >> 1) : p >> 1; }
__device__ __forceinline__ int64_t rc_minv(int64_t q, int64_t h) { return q < h ? 2 * q : 2 * (q - h) + 1; }

/* element k of a load piece: the element itself, or of a 16-byte piece of 2-
 * or 4-byte elements (k known at compile time once unrolled) */
template <class U> __device__ __forceinline__ U rc_elem(const U &r, int) { return r; }
template <class U> __device__ __forceinline__ U rc_elem(const uint4 &r, int k)
{
    const unsigned w[4] = {r.x, r.y, r.z, r.w};
    if (sizeof(U) == 2) return (U)(w[k / 2] >> 16 * (k & 1));
    return (U)w[k];
}

/* a row into X with its columns reordered, in pieces of type P (U, or 16
 * bytes where cols is a multiple of 16 / sizeof(U) and the row starts on 16
 * bytes), NB independent loads a thread at a time */
template <class U, class P, int NB>
__device__ __forceinline__ void rc_load(U *X, const U *row, int64_t cols, int64_t hc, int inverse)
{
    constexpr int E = sizeof(P) / sizeof(U);
    const int64_t np = cols / E;
    const P *src = (const P *)row;
    for (int64_t p0 = 0; p0 < np; p0 += (int64_t)NB * RC_THREADS) {
        P r[NB];
#pragma unroll
        for (int u = 0; u < NB; u++) {
            const int64_t i = p0 + u * RC_THREADS + threadIdx.x;
            if (i < np) r[u] = src[i];
        }
#pragma unroll
        for (int u = 0; u < NB; u++) {
            const int64_t i = p0 + u * RC_THREADS + threadIdx.x;
            if (i < np) {
#pragma unroll
                for (int k = 0; k < E; k++) {
                    const int64_t c = i * E + k;
                    X[hc < 0 ? c : inverse ? rc_minv(c, hc) : rc_m(c, hc)] = rc_elem<U>(r[u], k);
                }
            }
        }
    }
}

template <class U> __device__ __forceinline__ void rc_store(U *row, const U *X, int64_t cols, int vec)
{
    if (vec) {
        const int64_t nv = cols / (16 / (int64_t)sizeof(U));
        for (int64_t v = threadIdx.x; v < nv; v += RC_THREADS) ((uint4 *)row)[v] = ((const uint4 *)X)[v];
        return;
    }
    for (int64_t c = threadIdx.x; c < cols; c += RC_THREADS) row[c] = X[c];
}

template <class U>
__device__ __forceinline__ void rc_get(U *X, const U *row, int64_t cols, int64_t hc, int inverse, int vec)
{
    /* element loads 32 bytes a thread: 8-byte elements at eight a batch would
     * spill at the 64 registers that 1024 threads leave */
    if (sizeof(U) <= 4 && vec)
        rc_load<U, uint4, RC_VBATCH>(X, row, cols, hc, inverse);
    else
        rc_load<U, U, (sizeof(U) > 4 ? RC_BATCH / 2 : RC_BATCH)>(X, row, cols, hc, inverse);
}

/* a segment's flag: this block has read its last row (all its threads' loads
 * are in shared memory: called after a barrier) */
__device__ __forceinline__ void rc_raise(int *flag)
{
    if (flag && threadIdx.x == 0) {
        __threadfence();
        atomicExch(flag, 1);
    }
}

__device__ __forceinline__ void rc_wait(const int *flag)
{
    if (threadIdx.x == 0)
        while (*(const volatile int *)flag == 0) __nanosleep(100);
    __syncthreads();
}

template <class U>
__global__ void __launch_bounds__(RC_THREADS)
    rowcycle_kernel(int64_t rows, int64_t cols, int64_t rs, int64_t blen1, int64_t bs0, int64_t bs1, int64_t planes,
                    const int32_t *segs, const __grid_constant__ rc_inline inl, int *flags, int inverse, int vec,
                    int keep, U *data)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    /* B on 16 bytes wherever vec holds (cols a multiple of 16 / sizeof(U)) */
    U *A = (U *)smem_raw, *B = A + ((cols + 7) & ~(int64_t)7);
    const int32_t *sg = (segs ? segs : inl.v) + 3 * (int64_t)blockIdx.x;
    /* hc < 0: the columns stay as they are */
    const int64_t hr = (rows + 1) / 2, hc = keep ? -1 : (cols + 1) / 2, first = sg[0], len = sg[1], prev = sg[2];
    const int64_t before = inverse ? rc_minv(first, hr) : rc_m(first, hr); /* takes first's row */
    for (int64_t pl = blockIdx.y; pl < planes; pl += gridDim.y) {
        U *base = data + (pl / blen1) * bs0 + (pl % blen1) * bs1;
        int *fl = flags ? flags + pl * gridDim.x : nullptr;
        rc_get(A, base + first * rs, cols, hc, inverse, vec);
        __syncthreads();
        if (len == 1) rc_raise(fl ? fl + blockIdx.x : nullptr);
        int64_t q = first;
        for (int64_t i = 1; i < len; i++) {
            const int64_t s = inverse ? rc_m(q, hr) : rc_minv(q, hr);
            rc_get(B, base + s * rs, cols, hc, inverse, vec);
            __syncthreads();
            if (i == len - 1) rc_raise(fl ? fl + blockIdx.x : nullptr);
            rc_store(base + q * rs, B, cols, vec);
            __syncthreads();
            q = s;
        }
        if (fl && prev != (int64_t)blockIdx.x) rc_wait(fl + prev);
        rc_store(base + before * rs, A, cols, vec);
        __syncthreads();
    }
}

extern "C" int64_t lwk_rowcycle_max_cols(int dtype)
{
    const int64_t es = dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4;
    return (RC_SMEM / (2 * es)) & ~(int64_t)7;
}

template <class U> static size_t rc_smem(int64_t cols) { return 2 * (size_t)((cols + 7) & ~(int64_t)7) * sizeof(U); }

template <class U> static cudaError_t rc_resident(int64_t cols, int64_t *blocks)
{
    const cudaError_t attr = lw_cuda_func_attr((const void *)rowcycle_kernel<U>, LW_SMEM_ATTR, RC_SMEM);
    if (attr != cudaSuccess) return attr;
    return lw_cuda_resident((const void *)rowcycle_kernel<U>, RC_THREADS, rc_smem<U>(cols), blocks);
}

template <class U>
static cudaError_t rc_launch(int inverse, int keep, int64_t rows, int64_t cols, int64_t rs, const int64_t blen[2],
                             const int64_t bs[2], const int32_t *segs, int on_host, int64_t nseg, int *flags,
                             void *data, cudaStream_t s)
{
    size_t smem = rc_smem<U>(cols);
    const cudaError_t attr = lw_cuda_func_attr((const void *)rowcycle_kernel<U>, LW_SMEM_ATTR, RC_SMEM);
    if (attr != cudaSuccess) return attr;
    int64_t planes = blen[0] * blen[1], blen1 = blen[1], bs0 = bs[0], bs1 = bs[1];
    if (nseg < 1 || planes < 1) return cudaSuccess;
    if (nseg > 0x7fffffff || (on_host && (flags || 3 * nseg > LWK_ROWCYCLE_INLINE)))
        return cudaErrorInvalidConfiguration;
    rc_inline inl = {};
    if (on_host) memcpy(inl.v, segs, (size_t)(3 * nseg) * sizeof *segs);
    const int64_t V = 16 / (int64_t)sizeof(U);
    /* 8-byte elements keep element loads: four a thread already hold as many
     * bytes in flight, and their 16-byte path would spill */
    int vec = sizeof(U) <= 4 && (uintptr_t)data % 16 == 0 && cols % V == 0 && rs % V == 0 && bs[0] % V == 0 &&
              bs[1] % V == 0;
    const int32_t *dsegs = on_host ? nullptr : segs;
    U *d = (U *)data;
    if (flags) { /* every block resident: one grid row a plane, cooperative */
        int64_t resident = 0;
        const cudaError_t r = rc_resident<U>(cols, &resident);
        if (r != cudaSuccess) return r;
        if (planes > 65535 || nseg * planes > resident) return cudaErrorCooperativeLaunchTooLarge;
        const cudaError_t z = cudaMemsetAsync(flags, 0, (size_t)(nseg * planes) * sizeof *flags, s);
        if (z != cudaSuccess) return z;
        void *args[] = {&rows, &cols, &rs, &blen1, &bs0, &bs1, &planes, &dsegs, &inl, &flags, &inverse, &vec, &keep, &d};
        return cudaLaunchCooperativeKernel((const void *)rowcycle_kernel<U>, dim3((unsigned)nseg, (unsigned)planes),
                                           dim3(RC_THREADS), args, smem, s);
    }
    dim3 grid((unsigned)nseg, (unsigned)(planes < 65535 ? planes : 65535));
    rowcycle_kernel<U><<<grid, RC_THREADS, smem, s>>>(rows, cols, rs, blen1, bs0, bs1, planes, dsegs, inl, nullptr,
                                                      inverse, vec, keep, d);
    return cudaGetLastError();
}

#define RC_BY_TYPE(dtype, call)                                                                                      \
    ((dtype) == LWK_F64      ? call<unsigned long long>                                                              \
     : lwk_is_half(dtype)    ? call<unsigned short>                                                                  \
                             : call<unsigned>)

extern "C" cudaError_t lwk_rowcycle_resident(int dtype, int64_t cols, int64_t *blocks)
{
    *blocks = 0;
    if (cols > lwk_rowcycle_max_cols(dtype)) return cudaErrorInvalidValue;
    return RC_BY_TYPE(dtype, rc_resident)(cols, blocks);
}

extern "C" cudaError_t lwk_rowcycle_launch(int dtype, int inverse, int64_t rows, int64_t cols, int64_t rs,
                                           const int64_t blen[2], const int64_t bs[2], const int32_t *segs,
                                           int on_host, int64_t nseg, int *flags, void *data, cudaStream_t s)
{
    if (cols > lwk_rowcycle_max_cols(dtype)) return cudaErrorInvalidValue;
    return RC_BY_TYPE(dtype, rc_launch)(inverse, 0, rows, cols, rs, blen, bs, segs, on_host, nseg, flags, data, s);
}

extern "C" cudaError_t lwk_rowcycle_keep_cols(int dtype, int inverse, int64_t rows, int64_t cols, int64_t rs,
                                              const int64_t blen[2], const int64_t bs[2], const int32_t *segs,
                                              int on_host, int64_t nseg, int *flags, void *data, cudaStream_t s)
{
    if (cols > lwk_rowcycle_max_cols(dtype)) return cudaErrorInvalidValue;
    return RC_BY_TYPE(dtype, rc_launch)(inverse, 1, rows, cols, rs, blen, bs, segs, on_host, nseg, flags, data, s);
}
