/* Device-side helpers shared by the kernel files: boundary mapping, the
 * lifting arithmetic per element type, and index decomposition.  Templates are
 * kept C-like: one body per operation, instantiated for float, double and
 * int32 (integer steps computed in int64). */
#ifndef LW_CUDA_DEV_CUH
#define LW_CUDA_DEV_CUH

#include "lw_cuda.h"
#include "dtype_ct.cuh"
#include "../core/adjoint_step.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <type_traits>

/* Index of position i through the boundary mode (same as lw_boundary_index);
 * I: int where the lines are short (the small engine: a 32-bit remainder). */
template <class I> __device__ __forceinline__ I lwd_bidx_t(I i, I n, int mode)
{
    if (i >= 0 && i < n) return i;
    if (n == 1) return 0;
    if (mode == LW_PERIODIC) {
        I r = i % n;
        return r < 0 ? r + n : r;
    }
    I p = 2 * (n - 1);
    I r = i % p;
    if (r < 0) r += p;
    return r < n ? r : p - r;
}
__device__ __forceinline__ int64_t lwd_bidx(int64_t i, int64_t n, int mode) { return lwd_bidx_t<int64_t>(i, n, mode); }

/* Mallat position of interleaved index i on a line of length n. */
__device__ __forceinline__ int64_t lwd_mallat(int64_t i, int64_t n)
{
    return (i & 1) ? ((n + 1) >> 1) + (i >> 1) : (i >> 1);
}

/* The position whose Mallat place is q (lwd_mallat's inverse). */
__device__ __forceinline__ int64_t lwd_mallat_src(int64_t q, int64_t n)
{
    const int64_t h = (n + 1) >> 1;
    return q < h ? 2 * q : 2 * (q - h) + 1;
}

/* Offsets of the detail bands LH, HL, HH from a detail plane's base (row r,
 * column c of a band at base + o[band] + r * rs + c): Mallat positions, or a
 * split plane's own. */
__host__ __device__ __forceinline__ void det_offsets(const lwk_plane &d, int64_t hr, int64_t hc, int64_t o[3])
{
    o[0] = d.split ? d.off[0] : hc;
    o[1] = d.split ? d.off[1] : hr * d.rs;
    o[2] = d.split ? d.off[2] : hr * d.rs + hc;
}

/* cp.async: one sample (4 or 8 bytes) global -> shared, the group commit and
 * wait (a plain copy on the host) */
template <class T> __device__ __forceinline__ void lwd_cp_async(T *s, const T *g)
{
#ifdef __CUDA_ARCH__
    const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
    if (sizeof(T) == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa), "l"(g) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(sa), "l"(g) : "memory");
#else
    *s = *g;
#endif
}
__device__ __forceinline__ void lwd_cp_commit()
{
#ifdef __CUDA_ARCH__
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void lwd_cp_wait()
{
#ifdef __CUDA_ARCH__
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/* ---- storage type and compute type ---------------------------------------
 * A kernel is templated on the element type S of global memory; it computes
 * (registers, shared memory) in lwd_c<S>: float for the half storage types
 * (__half = LW_FLOAT16, __nv_bfloat16 = LW_BFLOAT16), S itself otherwise.
 * Only global loads and stores convert: widening is exact, narrowing rounds
 * to nearest even (overflow to infinity, binary16 subnormals produced), as
 * src/core/half.h does on the host, so a value rounded here equals the cpu
 * backend's rounding of the same float (NaN payloads aside). */
template <class S> struct lwd_store {
    typedef S C;
    __device__ static __forceinline__ C ld(const S *p) { return *p; }
    __device__ static __forceinline__ C ldg(const S *p) { return __ldg(p); }
    __device__ static __forceinline__ void st(S *p, C v) { *p = v; }
};
template <> struct lwd_store<__half> {
    typedef float C;
    __device__ static __forceinline__ float ld(const __half *p) { return __half2float(*p); }
    /* the 16 bits by the built-in __ldg (not the half headers' inline asm, which the
     * compiler does not batch: each load then waits for the one before) */
    __device__ static __forceinline__ float ldg(const __half *p)
    {
        return __half2float(__ushort_as_half(__ldg((const unsigned short *)p)));
    }
    __device__ static __forceinline__ void st(__half *p, float v) { *p = __float2half_rn(v); }
};
template <> struct lwd_store<__nv_bfloat16> {
    typedef float C;
    __device__ static __forceinline__ float ld(const __nv_bfloat16 *p) { return __bfloat162float(*p); }
    __device__ static __forceinline__ float ldg(const __nv_bfloat16 *p) /* exact: the high half of a float */
    {
        return __uint_as_float((unsigned)__ldg((const unsigned short *)p) << 16);
    }
    __device__ static __forceinline__ void st(__nv_bfloat16 *p, float v) { *p = __float2bfloat16_rn(v); }
};
template <class S> using lwd_c = typename lwd_store<S>::C;

/* binary16 bits to float, exactly, in plain arithmetic: the magnitude's bits moved
 * to float's places and scaled by 2^112 (a binary16 subnormal becomes a float
 * subnormal, which the multiply normalises: the kernels are built without
 * flush-to-zero), infinities and NaNs given float's top exponent, then the sign. */
__device__ __forceinline__ float lwd_half_bits_to_float(unsigned short h)
{
    const unsigned m = (unsigned)(h & 0x7fffu) << 13;
    float f = __uint_as_float(m) * __uint_as_float(0x77800000u); /* 2^112 */
    if ((h & 0x7c00u) == 0x7c00u) f = __uint_as_float(m | 0x7f800000u);
    return __uint_as_float(__float_as_uint(f) | ((unsigned)(h & 0x8000u) << 16));
}
template <class S> __device__ __forceinline__ lwd_c<S> lwd_ld(const S *p) { return lwd_store<S>::ld(p); }
template <class S> __device__ __forceinline__ lwd_c<S> lwd_ldg(const S *p) { return lwd_store<S>::ldg(p); }
/* lwd_ldg for a long run of independent loads (a tile's window): float16 converted by
 * lwd_half_bits_to_float, not cvt.f32.f16 (__half2float's inline asm), which kept the
 * compiler from issuing the run's loads before the first conversion, so that each
 * load waited for the one before (tile2d: float16 at half bfloat16's speed, 72% of
 * its cycles on load dependencies).  Where loads are few per thread the cvt's single
 * instruction is cheaper (fused3d: 7-12% slower with the arithmetic; bench/NOTES-cuda.md). */
template <class S> __device__ __forceinline__ lwd_c<S> lwd_ldg_run(const S *p)
{
    if constexpr (std::is_same<S, __half>::value) return lwd_half_bits_to_float(__ldg((const unsigned short *)p));
    else return lwd_ldg(p);
}
template <class S> __device__ __forceinline__ void lwd_st(S *p, lwd_c<S> v) { lwd_store<S>::st(p, v); }
/* two samples of a half type rounded as lwd_st rounds them, in one word (a in the low half) */
template <class S> __device__ __forceinline__ unsigned lwd_pack2(float a, float b)
{
    if constexpr (std::is_same<S, __half>::value) {
        const __half2 h = __floats2half2_rn(a, b);
        return *(const unsigned *)&h;
    } else {
        const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
        return *(const unsigned *)&h;
    }
}

/* ---- per-type arithmetic ------------------------------------------------- */
/* (host and device: the fused 3-D engine's z pipeline also runs in a host
 * test, tests/unit/test_t3_zpipe.cu) */

template <class T> struct lwd_ops;

template <> struct lwd_ops<float> {
    __host__ __device__ static __forceinline__ float wt(const lwk_wave &w, int s, int t) { return w.wtf[s][t]; }
    __host__ __device__ static __forceinline__ float zl(const lwk_wave &w) { return w.zlf; }
    __host__ __device__ static __forceinline__ float zh(const lwk_wave &w) { return w.zhf; }
    __host__ __device__ static __forceinline__ float izl(const lwk_wave &w) { return w.izlf; }
    __host__ __device__ static __forceinline__ float izh(const lwk_wave &w) { return w.izhf; }
};
template <> struct lwd_ops<double> {
    __host__ __device__ static __forceinline__ double wt(const lwk_wave &w, int s, int t) { return w.wt[s][t]; }
    __host__ __device__ static __forceinline__ double zl(const lwk_wave &w) { return w.zl; }
    __host__ __device__ static __forceinline__ double zh(const lwk_wave &w) { return w.zh; }
    __host__ __device__ static __forceinline__ double izl(const lwk_wave &w) { return w.izl; }
    __host__ __device__ static __forceinline__ double izh(const lwk_wave &w) { return w.izh; }
};

/* New value of a target after step s given its tap values (taps[i] read at
 * offset w.off[s][i]); dir +1 forward, -1 inverse.  Each tap's product is
 * added into the target by one fused multiply-add, as in the fused engines
 * (tile_lift.cuh, tstep), so that every engine rounds alike. */
template <class T>
__device__ __forceinline__ T lwd_step(const lwk_wave &w, int s, T x, const T *taps, int dir)
{
#pragma unroll /* constant indices: taps stays in registers */
    for (int i = 0; i < LW_MAX_TAPS; i++) {
        if (i >= w.ntaps[s]) break;
        const T c = dir > 0 ? lwd_ops<T>::wt(w, s, i) : -lwd_ops<T>::wt(w, s, i);
        x = fma(c, taps[i], x);
    }
    return x;
}

template <>
__device__ __forceinline__ int32_t lwd_step<int32_t>(const lwk_wave &w, int s, int32_t x, const int32_t *taps, int dir)
{
    long long acc = w.iadd[s];
#pragma unroll
    for (int i = 0; i < LW_MAX_TAPS; i++) {
        if (i >= w.ntaps[s]) break;
        acc += (long long)w.icoef[s][i] * taps[i];
    }
    long long d = (long long)w.isign[s] * (acc >> w.ishift[s]); /* arithmetic shift = floor */
    long long r = dir > 0 ? (long long)x + d : (long long)x - d;
    return (int32_t)(uint32_t)(unsigned long long)r;
}

/* Scale by zeta (forward) or undo it (inverse); integers are not scaled. */
template <class T> __host__ __device__ __forceinline__ T lwd_scale(const lwk_wave &w, T x, int odd, int dir)
{
    if (dir > 0) return x * (odd ? lwd_ops<T>::zh(w) : lwd_ops<T>::zl(w));
    return x * (odd ? lwd_ops<T>::izh(w) : lwd_ops<T>::izl(w));
}
template <> __host__ __device__ __forceinline__ int32_t lwd_scale<int32_t>(const lwk_wave &w, int32_t x, int odd, int dir)
{
    return x;
}

/* ---- the adjoint directions (docs/ADJOINT.md) ---------------------------- */

/* The transposed steps' folded sums (src/core/adjoint_step.h) over a window
 * row (the generic pass) or a column of lines side by side (the column
 * pass), per element type. */
LW_DEFINE_ADJ_GATHER(lwd_adj_window, float, float, __device__ static __forceinline__, LW_ADJ_WINDOW)
LW_DEFINE_ADJ_GATHER(lwd_adj_window, double, double, __device__ static __forceinline__, LW_ADJ_WINDOW)
LW_DEFINE_ADJ_GATHER(lwd_adj_strided, float, float, __device__ static __forceinline__, LW_ADJ_STRIDED)
LW_DEFINE_ADJ_GATHER(lwd_adj_strided, double, double, __device__ static __forceinline__, LW_ADJ_STRIDED)

/* The value of source pos after the transpose of step s (weights times
 * dir), reading the targets from a window row (row[t - w0], wl held).
 * unwrapped: the window holds periodic samples unwrapped (no folding needed:
 * the transpose of a periodic step is a lifting step with negated offsets);
 * else samples near the line's ends take their folded terms. */
template <class T>
__device__ __forceinline__ T lwd_adj_step(const lwk_wave &w, int s, T x, const T *row, int64_t w0, int64_t wl,
                                          int64_t pos, int64_t n, int mode, int unwrapped, int dir)
{
    T wt[LW_MAX_TAPS];
    for (int i = 0; i < w.ntaps[s]; i++) wt[i] = dir > 0 ? lwd_ops<T>::wt(w, s, i) : -lwd_ops<T>::wt(w, s, i);
    if (unwrapped || lw_adj_interior(pos, n, lw_adj_reach(w.ntaps[s], w.off[s]))) {
        T acc = 0;
        for (int i = 0; i < w.ntaps[s]; i++) acc += wt[i] * LW_ADJ_WINDOW(row, pos - w.off[s][i], w0, wl);
        return x + acc;
    }
    return x + lwd_adj_window(row, w0, wl, pos, n, mode, w.ntaps[s], w.off[s], wt);
}
/* integer plans are never adjoint (validated at plan creation) */
template <>
__device__ __forceinline__ int32_t lwd_adj_step<int32_t>(const lwk_wave &w, int s, int32_t x, const int32_t *row,
                                                        int64_t w0, int64_t wl, int64_t pos, int64_t n, int mode,
                                                        int unwrapped, int dir)
{
    return x;
}

/* The same on lines side by side: sample t of this thread's line at
 * col[t * ld], the whole line held. */
template <class T>
__device__ __forceinline__ T lwd_adj_step_col(const lwk_wave &w, int s, T x, const T *col, int64_t ld, int64_t pos,
                                              int64_t n, int mode, int dir)
{
    T wt[LW_MAX_TAPS];
    for (int i = 0; i < w.ntaps[s]; i++) wt[i] = dir > 0 ? lwd_ops<T>::wt(w, s, i) : -lwd_ops<T>::wt(w, s, i);
    if (lw_adj_interior(pos, n, lw_adj_reach(w.ntaps[s], w.off[s]))) {
        T acc = 0;
        for (int i = 0; i < w.ntaps[s]; i++) acc += wt[i] * col[(pos - w.off[s][i]) * ld];
        return x + acc;
    }
    return x + lwd_adj_strided(col, 0, ld, pos, n, mode, w.ntaps[s], w.off[s], wt);
}
template <>
__device__ __forceinline__ int32_t lwd_adj_step_col<int32_t>(const lwk_wave &w, int s, int32_t x, const int32_t *col,
                                                            int64_t ld, int64_t pos, int64_t n, int mode, int dir)
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
