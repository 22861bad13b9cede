/* Faber-Schauder level (DESIGN.md section 2): every grid sample with at least
 * one odd coordinate gets sign * the average of its all-even neighbours (the
 * floor of it for int32).  Those neighbours are never modified, so one thread
 * per sample updates in place without barriers. */
#include "lw_cuda_dev.cuh"

__device__ __forceinline__ float fs_div(float a, int k) { return a / (float)(1 << k); }
__device__ __forceinline__ double fs_div(double a, int k) { return a / (double)(1 << k); }
__device__ __forceinline__ long long fs_div(long long a, int k) { return a >> k; } /* floor */

template <class T, class ACC> __global__ void fs_kernel(lwk_fs p, T *x)
{
    int64_t cnt = 1;
    for (int a = 0; a < p.na; a++) cnt *= p.m[a];
    const int64_t total = cnt * p.nbatch;
    for (int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; l < total; l += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = l / cnt, e = l - b * cnt;
        int64_t j[3] = {0, 0, 0}, off = lwd_decomp(b, p.nb, p.blen, p.bst);
        unsigned mask = 0;
        int nodd = 0;
        for (int a = p.na - 1; a >= 0; a--) {
            int64_t q = e / p.m[a];
            j[a] = e - q * p.m[a];
            e = q;
            if (j[a] & 1) mask |= 1u << a, nodd++;
        }
        if (!mask) continue;
        ACC acc = 0;
        for (unsigned c = 0; c < (1u << nodd); c++) {
            int64_t o = off;
            int q = 0;
            for (int a = 0; a < p.na; a++) {
                int64_t ja = j[a];
                if (mask & (1u << a)) {
                    ja = lwd_bidx(ja + (((c >> q) & 1u) ? 1 : -1), p.m[a], p.mode);
                    q++;
                }
                o += ja * p.gst[a];
            }
            acc += (ACC)x[o];
        }
        int64_t me = off;
        for (int a = 0; a < p.na; a++) me += j[a] * p.gst[a];
        ACC avg = fs_div(acc, nodd);
        x[me] = (T)((ACC)x[me] + (ACC)p.sign * avg);
    }
}

template <class T, class ACC> static cudaError_t fs_run(const lwk_fs *p, void *x, cudaStream_t s)
{
    int64_t cnt = p->nbatch;
    for (int a = 0; a < p->na; a++) cnt *= p->m[a];
    int64_t blocks = (cnt + 255) / 256;
    if (blocks < 1) return cudaSuccess;
    if (blocks > (1 << 20)) blocks = 1 << 20;
    fs_kernel<T, ACC><<<(unsigned)blocks, 256, 0, s>>>(*p, (T *)x);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_fs_level(int dtype, const lwk_fs *p, void *x, cudaStream_t s)
{
    switch (dtype) {
    case LWK_F32: return fs_run<float, float>(p, x, s);
    case LWK_F64: return fs_run<double, double>(p, x, s);
    default: return fs_run<int32_t, long long>(p, x, s);
    }
}
