/* AVX2 + FMA kernels (256-bit vectors), chosen at run time on CPUs that have
 * them; the rest of the library is built for the baseline ISA. */
#include "fast_internal.h"
#if defined(LW_FAST_X86)
#define LW_ISA avx2
#define LW_VB 32
#define LW_TGT __attribute__((target("avx2,fma")))
#include "fast_tmpl_isa.h"
#endif
