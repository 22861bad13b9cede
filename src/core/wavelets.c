/* The lifting factorizations of every wavelet (docs/CONVENTIONS.md section 1). */
#include "lw_internal.h"

#include <stddef.h>

/* CDF 9/7, ITU-T T.800 Annex F. */
#define CDF97_ALPHA (-1.586134342059924)
#define CDF97_BETA (-0.052980118572961)
#define CDF97_GAMMA (0.882911075530934)
#define CDF97_DELTA (0.443506852043971)
#define CDF97_K (1.230174104914001)

#define SQRT2 1.4142135623730950488
#define INV_SQRT2 0.70710678118654752440

/* Daubechies-4 factorised so that periodic output equals PyWavelets db2
 * periodization (cA[o] and cD[o] both read x[2o-1..2o+2]):
 *   odd  += -1/sqrt3 * x[t+1]
 *   even += (6-3 sqrt3)/4 * x[t+1] + sqrt3/4 * x[t-1]
 *   odd  += -1/3 * x[t-1]
 *   even *= (sqrt3+1)/sqrt6, odd *= (sqrt3-1) sqrt(3/2)                       */
#define D4_A (-0.5773502691896257645)
#define D4_B (0.2009618943233420299)
#define D4_C (0.4330127018922193234)
#define D4_D (-0.3333333333333333333)
#define D4_ZL (1.1153550716504105408)
#define D4_ZH (0.8965754721680535241)

/* step helpers: S2 = two taps at -1,+1, S4 = taps at -3,-1,+1,+3 */
#define S2(odd, w, sign, add, shift) \
    {odd, 2, {-1, 1}, {w, w}, {1, 1}, sign, add, shift}
#define S4(odd, wf, wn, sign, add, shift) \
    {odd, 4, {-3, -1, 1, 3}, {wf, wn, wn, wf}, {-1, 9, 9, -1}, sign, add, shift}

static const lw_wavelet_def defs[] = {
    {LW_HAAR, "haar", 2,
     {{1, 1, {-1}, {-1.0}, {1}, -1, 0, 0},
      {0, 1, {1}, {0.5}, {1}, 1, 0, 1}},
     SQRT2, -INV_SQRT2, 1, 1, 1, 2},
    {LW_CDF53, "cdf53", 2,
     {S2(1, -0.5, -1, 0, 1), S2(0, 0.25, 1, 2, 2)},
     1.0, 1.0, 1, 1, 1, 2},
    {LW_CDF97, "cdf97", 4,
     {S2(1, CDF97_ALPHA, 0, 0, 0), S2(0, CDF97_BETA, 0, 0, 0),
      S2(1, CDF97_GAMMA, 0, 0, 0), S2(0, CDF97_DELTA, 0, 0, 0)},
     1.0 / CDF97_K, CDF97_K, 0, 1, 1, 4},
    {LW_DD137, "dd137", 2,
     {S4(1, 1.0 / 16, -9.0 / 16, -1, 8, 4), S4(0, -1.0 / 32, 9.0 / 32, 1, 16, 5)},
     1.0, 1.0, 1, 1, 1, 6},
    {LW_D4, "d4", 3,
     {{1, 1, {1}, {D4_A}, {0}, 0, 0, 0},
      {0, 2, {-1, 1}, {D4_C, D4_B}, {0, 0}, 0, 0, 0},
      {1, 1, {-1}, {D4_D}, {0}, 0, 0, 0}},
     D4_ZL, D4_ZH, 0, 1, 1, 3},
    {LW_FS, "fs", 1,
     {S2(1, -0.5, -1, 0, 1)},
     1.0, 1.0, 1, 1, 0, 1},
};

const lw_wavelet_def *lw_wavelet_get(lw_wavelet w)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (defs[i].id == w) return &defs[i];
    return NULL;
}
