/* A 2-D grid of samples, a batch of them, copied between two strided views
 * (k_gridcopy.h): the interleaved layout's lowpass grid gathered compact for
 * the next level, and a compact level scattered back onto its grid.  The
 * element's bytes are moved as they are, so one kernel serves each size. */
#include "lw_cuda_dev.cuh"
#include "gridcopy.h"

/* threads along a row; rows and items on the grid's y and z (looping beyond
 * the grid's limits) */
#define GC_THREADS 256
#define GC_MAX_Y 65535
#define GC_MAX_Z 65535

template <class T> __global__ void gridcopy_kernel(lwk_gridcopy c, const T *__restrict__ src, T *__restrict__ dst)
{
    const int64_t nb = c.blen[0] * c.blen[1];
    for (int64_t b = blockIdx.z; b < nb; b += gridDim.z) {
        const int64_t b0 = b / c.blen[1], b1 = b - b0 * c.blen[1];
        const T *s = src + b0 * c.sbs[0] + b1 * c.sbs[1];
        T *d = dst + b0 * c.dbs[0] + b1 * c.dbs[1];
        for (int64_t r = blockIdx.y; r < c.rows; r += gridDim.y)
            for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < c.cols; j += (int64_t)gridDim.x * blockDim.x)
                d[r * c.drs + j * c.dcs] = s[r * c.srs + j * c.scs];
    }
}

template <class T> static cudaError_t gridcopy_run(const lwk_gridcopy *c, const void *src, void *dst, cudaStream_t s)
{
    const int64_t nb = c->blen[0] * c->blen[1];
    if (c->rows < 1 || c->cols < 1 || nb < 1) return cudaSuccess;
    const int64_t gx = (c->cols + GC_THREADS - 1) / GC_THREADS;
    const dim3 grid((unsigned)(gx < 1024 ? gx : 1024), (unsigned)(c->rows < GC_MAX_Y ? c->rows : GC_MAX_Y),
                    (unsigned)(nb < GC_MAX_Z ? nb : GC_MAX_Z));
    gridcopy_kernel<T><<<grid, GC_THREADS, 0, s>>>(*c, (const T *)src, (T *)dst);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_gridcopy_launch(int dtype, const lwk_gridcopy *c, const void *src, void *dst, cudaStream_t s)
{
    switch (dtype) {
    case LWK_F64: return gridcopy_run<unsigned long long>(c, src, dst, s);
    case LWK_F16:
    case LWK_BF16: return gridcopy_run<unsigned short>(c, src, dst, s);
    default: return gridcopy_run<unsigned>(c, src, dst, s);
    }
}
