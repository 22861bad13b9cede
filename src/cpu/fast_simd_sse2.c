/* SSE2 kernels (128-bit vectors): the x86-64 baseline. */
#include "fast_internal.h"
#if defined(LW_FAST_X86)
#define LW_ISA sse2
#define LW_VB 16
#define LW_TGT __attribute__((target("sse2")))
#include "fast_tmpl_isa.h"
#endif
