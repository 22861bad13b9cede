/* SIMD path choice and thread count of the cpu backend.
 *
 * The plan's tuning may force a path (simd=scalar|sse2|avx2|avx512); a path
 * this CPU lacks is an error, never a silent fallback.  Otherwise the best
 * supported path is used: avx512 (F+BW+DQ+VL), avx2 (+FMA), sse2, scalar. */
#include "fast_internal.h"

#include <stdlib.h>
#include <string.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

static const char *const simd_names[LW_SIMD_COUNT] = {"scalar", "sse2", "avx2", "avx512"};

const char *lw_simd_name(lw_simd s) { return (unsigned)s < LW_SIMD_COUNT ? simd_names[s] : "?"; }

lw_status lw_simd_parse(const char *name, lw_simd *s)
{
    for (int i = 0; i < LW_SIMD_COUNT; i++)
        if (name && strcmp(name, simd_names[i]) == 0) {
            *s = (lw_simd)i;
            return LW_OK;
        }
    return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown SIMD path '%s' (scalar, sse2, avx2, avx512)",
                   name ? name : "(null)");
}

int lw_simd_supported(lw_simd s)
{
    switch (s) {
    case LW_SIMD_SCALAR: return 1;
#if defined(LW_FAST_X86) && defined(__GNUC__)
    case LW_SIMD_SSE2: return __builtin_cpu_supports("sse2") != 0;
    case LW_SIMD_AVX2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case LW_SIMD_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
    default: return 0;
    }
}

lw_status lw_simd_choose(int want, lw_simd *out)
{
    if (want > 0) {
        lw_simd w = (lw_simd)(want - 1);
        if (!lw_simd_supported(w))
            return lw_fail(LW_ERR_UNSUPPORTED, "tuning: simd=%s is not available on this CPU (or this build)",
                           lw_simd_name(w));
        *out = w;
        return LW_OK;
    }
    for (int s = LW_SIMD_COUNT - 1; s > 0; s--)
        if (lw_simd_supported((lw_simd)s)) {
            *out = (lw_simd)s;
            return LW_OK;
        }
    *out = LW_SIMD_SCALAR;
    return LW_OK;
}

const lw_fkern *lw_simd_kernels(lw_simd s, lw_dtype t)
{
    int i = t == LW_FLOAT64 ? 1 : t == LW_INT32 ? 2 : 0;
    switch (s) {
#if defined(LW_FAST_X86)
    case LW_SIMD_SSE2: return &lw_fk_sse2[i];
    case LW_SIMD_AVX2: return &lw_fk_avx2[i];
    case LW_SIMD_AVX512: return &lw_fk_avx512[i];
#endif
    default: return &lw_fk_scalar[i];
    }
}

void lw_fast_store_fence(void)
{
#if defined(LW_FAST_X86) && defined(__GNUC__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

int lw_cpu_threads(int requested)
{
#ifdef LW_HAVE_OPENMP
    if (requested > 0) return requested;
    int n = omp_get_max_threads();
    return n > 0 ? n : 1;
#else
    (void)requested;
    return 1;
#endif
}
