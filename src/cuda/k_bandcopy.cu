/* Copy between a band's region of a dense coefficient array and the band's
 * own strided view (lw_execute_bands where the engines cannot write the bands
 * in place): one thread per element, any rank up to LW_MAX_RANK. */
#include "lw_cuda_dev.cuh"

template <class T>
__global__ void bandcopy_kernel(lwk_bandcopy c, const T *__restrict__ src, T *__restrict__ dst, int64_t count)
{
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += (int64_t)gridDim.x * blockDim.x) {
        int64_t rest = e, ao = c.aoff, bo = 0;
        for (int d = c.rank - 1; d >= 0; d--) {
            const int64_t i = rest % c.len[d];
            rest /= c.len[d];
            ao += i * c.ast[d], bo += i * c.bst[d];
        }
        if (c.to_band) dst[bo] = src[ao];
        else dst[ao] = src[bo];
    }
}

template <class T> static cudaError_t bandcopy_run(const lwk_bandcopy *c, const void *src, void *dst, cudaStream_t s)
{
    int64_t count = 1;
    for (int d = 0; d < c->rank; d++) count *= c->len[d];
    if (count < 1) return cudaSuccess;
    const int64_t blocks = (count + 255) / 256;
    bandcopy_kernel<T><<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, s>>>(*c, (const T *)src, (T *)dst, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_bandcopy_launch(int dtype, const lwk_bandcopy *c, const void *src, void *dst, cudaStream_t s)
{
    switch (dtype) {
    case LWK_F64: return bandcopy_run<double>(c, src, dst, s);
    case LWK_F16:
    case LWK_BF16: return bandcopy_run<uint16_t>(c, src, dst, s);
    default: return bandcopy_run<float>(c, src, dst, s);
    }
}
