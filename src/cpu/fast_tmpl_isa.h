/* Instantiates the kernels of fast_tmpl_type.h for float, double and int32 on
 * one instruction set and defines the table lw_fk_<isa>[3].  The including
 * file defines LW_ISA, LW_TGT and LW_VB (see fast_tmpl_type.h). */
#include "fast_internal.h"

/* Let a * b + c become one fused multiply-add where the target has it (AVX2,
 * AVX-512): one rounding less, and the lifting steps' dependency chains get
 * shorter (ISO C mode turns contraction off by default). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT ON
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=fast")
#endif

#include <stdint.h>
#include <string.h>
#if LW_VB > 0
#include <immintrin.h>
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define LW_HAVE_SHUFFLEVECTOR 1
#endif
#endif

#define LW_T float
#define LW_TS f32
#define LW_TINT 0
#if LW_VB == 16
#define LW_TN 4
#elif LW_VB == 32
#define LW_TN 8
#elif LW_VB == 64
#define LW_TN 16
#else
#define LW_TN 1
#endif
#if LW_VB == 16
#define LW_NTST(p, v) _mm_stream_ps((float *)(p), (__m128)(v))
#elif LW_VB == 32
#define LW_NTST(p, v) _mm256_stream_ps((float *)(p), (__m256)(v))
#elif LW_VB == 64
#define LW_NTST(p, v) _mm512_stream_ps((float *)(p), (__m512)(v))
#endif
#include "fast_tmpl_type.h"
#undef LW_T
#undef LW_TS
#undef LW_TINT
#undef LW_NTST

#define LW_T int32_t
#define LW_TS i32
#define LW_TINT 1
#if LW_VB == 16
#define LW_NTST(p, v) _mm_stream_si128((__m128i *)(void *)(p), (__m128i)(v))
#elif LW_VB == 32
#define LW_NTST(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (__m256i)(v))
#elif LW_VB == 64
#define LW_NTST(p, v) _mm512_stream_si512((void *)(p), (__m512i)(v))
#endif
#include "fast_tmpl_type.h"
#undef LW_T
#undef LW_TS
#undef LW_TINT
#undef LW_TN
#undef LW_NTST

#define LW_T double
#define LW_TS f64
#define LW_TINT 0
#if LW_VB == 16
#define LW_TN 2
#define LW_NTST(p, v) _mm_stream_pd((double *)(p), (__m128d)(v))
#elif LW_VB == 32
#define LW_TN 4
#define LW_NTST(p, v) _mm256_stream_pd((double *)(p), (__m256d)(v))
#elif LW_VB == 64
#define LW_TN 8
#define LW_NTST(p, v) _mm512_stream_pd((double *)(p), (__m512d)(v))
#else
#define LW_TN 1
#endif
#include "fast_tmpl_type.h"
#undef LW_T
#undef LW_TS
#undef LW_TINT
#undef LW_TN

#define LW_TBL_(isa) lw_fk_##isa
#define LW_TBL(isa) LW_TBL_(isa)
#define LW_K_(name, isa, ts) name##_##isa##_##ts
#define LW_K(name, isa, ts) LW_K_(name, isa, ts)
#if LW_VB > 0 && defined(LW_HAVE_SHUFFLEVECTOR)
#define LW_FUSED(ts) LW_K(lift2s, LW_ISA, ts)
#define LW_ROWF(ts) LW_K(row_fwd, LW_ISA, ts)
#define LW_ROWI(ts) LW_K(row_inv, LW_ISA, ts)
#define LW_ROWL(ts) LW_K(row_load, LW_ISA, ts)
#define LW_ROWM_f32 LW_K(row_invm, LW_ISA, f32)
#define LW_ROWM_f64 LW_K(row_invm, LW_ISA, f64)
#define LW_ROWM_i32 NULL /* float steps only */
#define LW_ROWM_(ts) LW_ROWM_##ts
#define LW_ROWM(ts) LW_ROWM_(ts)
#else
#define LW_FUSED(ts) NULL
#define LW_ROWF(ts) NULL
#define LW_ROWI(ts) NULL
#define LW_ROWL(ts) NULL
#define LW_ROWM(ts) NULL
#endif
/* the column walk: float steps (every path, scalar included) */
#define LW_VWALK_f32 LW_K(vwalk, LW_ISA, f32)
#define LW_VWALK_f64 LW_K(vwalk, LW_ISA, f64)
#define LW_VWALK_i32 NULL
#define LW_VWALK_(ts) LW_VWALK_##ts
#define LW_VWALK(ts) LW_VWALK_(ts)
#define LW_LANES_f32 (LW_VB ? LW_VB / 4 : 1)
#define LW_LANES_i32 (LW_VB ? LW_VB / 4 : 1)
#define LW_LANES_f64 (LW_VB ? LW_VB / 8 : 1)
#define LW_LANES_(ts) LW_LANES_##ts
#define LW_LANES(ts) LW_LANES_(ts)
#define LW_ROW(ts)                                                                                    \
    {LW_K(step, LW_ISA, ts), LW_K(scale, LW_ISA, ts), LW_K(split, LW_ISA, ts), LW_K(merge, LW_ISA, ts), \
     LW_K(scale_nt, LW_ISA, ts), LW_K(merge_nt, LW_ISA, ts), LW_FUSED(ts), LW_LANES(ts), LW_K(vchain, LW_ISA, ts), \
     LW_ROWF(ts), LW_ROWI(ts), LW_ROWL(ts), LW_ROWM(ts), LW_VWALK(ts)}

const lw_fkern LW_TBL(LW_ISA)[3] = {LW_ROW(f32), LW_ROW(f64), LW_ROW(i32)};
