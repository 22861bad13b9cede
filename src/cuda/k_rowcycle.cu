/* The Mallat reorder of a 2-D region in place by whole rows (Ikuzawa et al.'s
 * chunk rearrangement with a row as the chunk): the rows move along the
 * cycles of the row permutation, and every row's columns are reordered in
 * shared memory on the way, so that the region is read once and written once.
 *
 * Forward (interleaved -> Mallat): row q takes row m^-1(q), m(p) = p / 2 for
 * even p, hr + p / 2 for odd p; its column c goes to column m(c) (hc for hr).
 * Inverse: row q takes row m(q), column m(c) going back to c.  Along a cycle
 * lead = q0 <- q1 <- q2 ... (q(i+1) = src(q(i))) a block saves the leader's row,
 * then loads q(i+1) and stores it to q(i), whose own row it loaded one step
 * before; the last row of the cycle takes the saved one.  One block a cycle
 * (the leaders, fixed rows included, are made once at plan time); no device
 * memory beyond the region and the leaders. */
#include "lw_cuda_dev.cuh"

#include <string.h>

#define RC_THREADS 512
#define RC_BATCH 8
/* shared memory of a block: two rows */
#define RC_SMEM (200 * 1024)

/* leaders passed by value (few cycles: no device memory for them) */
struct rc_inline {
    int32_t v[LWK_ROWCYCLE_INLINE];
};

__device__ __forceinline__ int64_t rc_m(int64_t p, int64_t h) { return (p & 1) ? h + (p >> 1) : p >> 1; }
__device__ __forceinline__ int64_t rc_minv(int64_t q, int64_t h) { return q < h ? 2 * q : 2 * (q - h) + 1; }

/* row r of the region into X with its columns reordered, in batches of
 * independent loads */
template <class U>
__device__ __forceinline__ void rc_load(U *X, const U *row, int64_t cols, int64_t hc, int inverse)
{
    for (int64_t c0 = 0; c0 < cols; c0 += (int64_t)RC_BATCH * RC_THREADS) {
        U v[RC_BATCH];
#pragma unroll
        for (int u = 0; u < RC_BATCH; u++) {
            const int64_t c = c0 + u * RC_THREADS + threadIdx.x;
            if (c < cols) v[u] = row[c];
        }
#pragma unroll
        for (int u = 0; u < RC_BATCH; u++) {
            const int64_t c = c0 + u * RC_THREADS + threadIdx.x;
            if (c < cols) X[inverse ? rc_minv(c, hc) : rc_m(c, hc)] = v[u];
        }
    }
}

template <class U> __device__ __forceinline__ void rc_store(U *row, const U *X, int64_t cols)
{
    for (int64_t c = threadIdx.x; c < cols; c += RC_THREADS) row[c] = X[c];
}

template <class U>
__global__ void __launch_bounds__(RC_THREADS)
    rowcycle_kernel(int64_t rows, int64_t cols, int64_t rs, int64_t blen1, int64_t bs0, int64_t bs1, int64_t planes,
                    const int32_t *leaders, const __grid_constant__ rc_inline inl, int inverse, U *data)
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    U *A = (U *)smem_raw, *B = A + ((cols + 3) & ~(int64_t)3);
    const int64_t hr = (rows + 1) / 2, hc = (cols + 1) / 2, lead = leaders ? leaders[blockIdx.x] : inl.v[blockIdx.x];
    for (int64_t pl = blockIdx.y; pl < planes; pl += gridDim.y) {
        U *base = data + (pl / blen1) * bs0 + (pl % blen1) * bs1;
        rc_load(A, base + lead * rs, cols, hc, inverse);
        int64_t q = lead;
        for (;;) {
            const int64_t s = inverse ? rc_m(q, hr) : rc_minv(q, hr);
            if (s == lead) {
                __syncthreads();
                rc_store(base + q * rs, A, cols);
                break;
            }
            rc_load(B, base + s * rs, cols, hc, inverse);
            __syncthreads();
            rc_store(base + q * rs, B, cols);
            __syncthreads();
            q = s;
        }
        __syncthreads();
    }
}

extern "C" int64_t lwk_rowcycle_max_cols(int dtype)
{
    const int64_t es = dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4;
    return (RC_SMEM / (2 * es)) & ~(int64_t)3;
}

template <class U>
static cudaError_t rc_launch(int inverse, int64_t rows, int64_t cols, int64_t rs, const int64_t blen[2],
                             const int64_t bs[2], const int32_t *leaders, int on_host, int64_t nlead, void *data,
                             cudaStream_t s)
{
    const size_t smem = 2 * (size_t)((cols + 3) & ~(int64_t)3) * sizeof(U);
    const cudaError_t attr = lw_cuda_func_attr((const void *)rowcycle_kernel<U>, LW_SMEM_ATTR, RC_SMEM);
    if (attr != cudaSuccess) return attr;
    const int64_t planes = blen[0] * blen[1];
    if (nlead < 1 || planes < 1) return cudaSuccess;
    if (nlead > 0x7fffffff || (on_host && nlead > LWK_ROWCYCLE_INLINE)) return cudaErrorInvalidConfiguration;
    rc_inline inl = {};
    if (on_host) memcpy(inl.v, leaders, (size_t)nlead * sizeof *leaders);
    dim3 grid((unsigned)nlead, (unsigned)(planes < 65535 ? planes : 65535));
    rowcycle_kernel<U><<<grid, RC_THREADS, smem, s>>>(rows, cols, rs, blen[1], bs[0], bs[1], planes,
                                                      on_host ? nullptr : leaders, inl, inverse, (U *)data);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_rowcycle_launch(int dtype, int inverse, int64_t rows, int64_t cols, int64_t rs,
                                           const int64_t blen[2], const int64_t bs[2], const int32_t *leaders,
                                           int on_host, int64_t nlead, void *data, cudaStream_t s)
{
    if (cols > lwk_rowcycle_max_cols(dtype)) return cudaErrorInvalidValue;
    if (dtype == LWK_F64)
        return rc_launch<unsigned long long>(inverse, rows, cols, rs, blen, bs, leaders, on_host, nlead, data, s);
    if (lwk_is_half(dtype))
        return rc_launch<unsigned short>(inverse, rows, cols, rs, blen, bs, leaders, on_host, nlead, data, s);
    return rc_launch<unsigned>(inverse, rows, cols, rs, blen, bs, leaders, on_host, nlead, data, s);
}
