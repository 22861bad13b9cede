/* Kernels without SIMD (also the path on non-x86 machines).  On GCC the
 * auto-vectorizer is switched off so that the tuning simd=scalar really is
 * scalar. */
#define LW_ISA scalar
#define LW_VB 0
#if defined(__GNUC__) && !defined(__clang__)
#define LW_TGT __attribute__((optimize("no-tree-vectorize")))
#else
#define LW_TGT
#endif
#include "fast_tmpl_isa.h"
