/* AVX-512 (F, BW, DQ, VL) kernels (512-bit vectors), chosen at run time. */
#include "fast_internal.h"
#if defined(LW_FAST_X86)
#define LW_ISA avx512
#define LW_VB 64
#define LW_TGT __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))
#include "fast_tmpl_isa.h"
#endif
