/* Device-side helpers shared by the kernel files: boundary mapping, the
 * lifting arithmetic per element type, and index decomposition.  Templates are
 * kept C-like: one body per operation, instantiated for float, double and
 * int32 (integer steps computed in int64). */
#ifndef LW_CUDA_DEV_CUH
#define LW_CUDA_DEV_CUH

#include "lw_cuda.h"

#include <cuda_runtime.h>

/* Index of position i through the boundary mode (same as lw_boundary_index). */
__device__ __forceinline__ int64_t lwd_bidx(int64_t i, int64_t n, int mode)
{
    if (i >= 0 && i < n) return i;
    if (n == 1) return 0;
    if (mode == LW_PERIODIC) {
        int64_t r = i % n;
        return r < 0 ? r + n : r;
    }
    int64_t p = 2 * (n - 1);
    int64_t r = i % p;
    if (r < 0) r += p;
    return r < n ? r : p - r;
}

/* Mallat position of interleaved index i on a line of length n. */
__device__ __forceinline__ int64_t lwd_mallat(int64_t i, int64_t n)
{
    return (i & 1) ? ((n + 1) >> 1) + (i >> 1) : (i >> 1);
}

/* ---- per-type arithmetic ------------------------------------------------- */

template <class T> struct lwd_ops;

template <> struct lwd_ops<float> {
    __device__ static __forceinline__ float wt(const lwk_wave &w, int s, int t) { return w.wtf[s][t]; }
    __device__ static __forceinline__ float zl(const lwk_wave &w) { return w.zlf; }
    __device__ static __forceinline__ float zh(const lwk_wave &w) { return w.zhf; }
    __device__ static __forceinline__ float izl(const lwk_wave &w) { return w.izlf; }
    __device__ static __forceinline__ float izh(const lwk_wave &w) { return w.izhf; }
};
template <> struct lwd_ops<double> {
    __device__ static __forceinline__ double wt(const lwk_wave &w, int s, int t) { return w.wt[s][t]; }
    __device__ static __forceinline__ double zl(const lwk_wave &w) { return w.zl; }
    __device__ static __forceinline__ double zh(const lwk_wave &w) { return w.zh; }
    __device__ static __forceinline__ double izl(const lwk_wave &w) { return w.izl; }
    __device__ static __forceinline__ double izh(const lwk_wave &w) { return w.izh; }
};

/* New value of a target after step s given its tap values (taps[i] read at
 * offset w.off[s][i]); dir +1 forward, -1 inverse. */
template <class T>
__device__ __forceinline__ T lwd_step(const lwk_wave &w, int s, T x, const T *taps, int dir)
{
    T acc = 0;
    for (int i = 0; i < w.ntaps[s]; i++) acc += lwd_ops<T>::wt(w, s, i) * taps[i];
    return dir > 0 ? x + acc : x - acc;
}

template <>
__device__ __forceinline__ int32_t lwd_step<int32_t>(const lwk_wave &w, int s, int32_t x, const int32_t *taps, int dir)
{
    long long acc = w.iadd[s];
    for (int i = 0; i < w.ntaps[s]; i++) acc += (long long)w.icoef[s][i] * taps[i];
    long long d = (long long)w.isign[s] * (acc >> w.ishift[s]); /* arithmetic shift = floor */
    long long r = dir > 0 ? (long long)x + d : (long long)x - d;
    return (int32_t)(uint32_t)(unsigned long long)r;
}

/* Scale by zeta (forward) or undo it (inverse); integers are not scaled. */
template <class T> __device__ __forceinline__ T lwd_scale(const lwk_wave &w, T x, int odd, int dir)
{
    if (dir > 0) return x * (odd ? lwd_ops<T>::zh(w) : lwd_ops<T>::zl(w));
    return x * (odd ? lwd_ops<T>::izh(w) : lwd_ops<T>::izl(w));
}
template <> __device__ __forceinline__ int32_t lwd_scale<int32_t>(const lwk_wave &w, int32_t x, int odd, int dir)
{
    return x;
}

/* Offset of flat index l decomposed over nd dims (dlen[0] fastest). */
__device__ __forceinline__ int64_t lwd_decomp(int64_t l, int nd, const int64_t *len, const int64_t *str)
{
    int64_t off = 0;
    for (int d = 0; d < nd; d++) {
        int64_t q = l / len[d];
        off += (l - q * len[d]) * str[d];
        l = q;
    }
    return off;
}

#define LWK_RETURN_LAUNCH() return cudaGetLastError()

#endif
