/* TMA probe: one box of a float32 3-D tensor into shared memory, checked
 * against the tensor (zeros outside it).  Each configuration in its own
 * process (an illegal instruction ends the context):
 *   tma_probe BX BY X Y Z DSTOFF PROMO   (PROMO 0..3 = none, 64B, 128B, 256B) */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../src/cuda/tma.cuh"

__global__ void probe(const __grid_constant__ CUtensorMap m, int x, int y, int z, int dstoff, int n, float *out)
{
    extern __shared__ __align__(128) unsigned char sm[];
    uint64_t *bar = (uint64_t *)sm;
    float *dst = (float *)(sm + dstoff);
    if (threadIdx.x == 0) {
        lwd_mbar_init(bar);
        lwd_mbar_init_fence();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        lwd_mbar_expect(bar, n * 4);
        lwd_tma_load3(dst, &m, x, y, z, bar);
    }
    lwd_mbar_wait(bar, 0);
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = dst[i];
}

typedef CUresult (*enc_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                           const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                           CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int main(int argc, char **argv)
{
    if (argc < 8) return 2;
    const int bx = atoi(argv[1]), by = atoi(argv[2]), x = atoi(argv[3]), y = atoi(argv[4]), z = atoi(argv[5]);
    const int dstoff = atoi(argv[6]), promo = atoi(argv[7]);
    const int N = 64;
    float *h = (float *)malloc(sizeof(float) * N * N * N), *d, *o;
    for (int i = 0; i < N * N * N; i++) h[i] = (float)i;
    cudaMalloc(&d, sizeof(float) * N * N * N);
    cudaMemcpy(d, h, sizeof(float) * N * N * N, cudaMemcpyHostToDevice);
    cudaMalloc(&o, sizeof(float) * bx * by);
    void *p = NULL;
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
    CUtensorMap m;
    const cuuint64_t dim[3] = {N, N, N}, str[2] = {N * 4, N * N * 4};
    const cuuint32_t box[3] = {(cuuint32_t)bx, (cuuint32_t)by, 1}, one[3] = {1, 1, 1};
    CUresult r = ((enc_fn)p)(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, d, dim, str, box, one, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_NONE, (CUtensorMapL2promotion)promo, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    const int smem = dstoff + bx * by * 4 + 1024;
    cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    probe<<<1, 128, smem>>>(m, x, y, z, dstoff, bx * by, o);
    cudaError_t e = cudaDeviceSynchronize();
    float *g = (float *)malloc(sizeof(float) * bx * by);
    long bad = 0;
    if (e == cudaSuccess) {
        cudaMemcpy(g, o, sizeof(float) * bx * by, cudaMemcpyDeviceToHost);
        for (int j = 0; j < by; j++)
            for (int i = 0; i < bx; i++) {
                const int xx = x + i, yy = y + j;
                const float want = (xx < 0 || yy < 0 || xx >= N || yy >= N || z < 0 || z >= N) ? 0.f : h[(z * N + yy) * N + xx];
                bad += g[j * bx + i] != want;
            }
    }
    printf("box %dx%d at (%d,%d,%d) dst+%d promo %d: encode %d, kernel %s, %ld wrong of %d\n", bx, by, x, y, z, dstoff,
           promo, (int)r, cudaGetErrorString(e), bad, bx * by);
    return e != cudaSuccess || bad;
}
