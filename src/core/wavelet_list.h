/* The one list of wavelets.  Everything that depends on which wavelets exist
 * is generated from it: the name table and parser (names.c), the lifting step
 * tables of the C code (wavelets.c), the compile-time step tables and the
 * dispatch of the CUDA kernels (src/cuda/wavelet_ct.cuh).  Readable from C
 * and from nvcc; no other file lists wavelet ids.
 *
 * Adding a wavelet: append an X(...) row and its LW_STEPS_<ID> below, give
 * the id its value in include/liftwave.h (the same position as its row) and
 * raise LW_WAVELET_COUNT there.  Engines decide from the steps' properties
 * (number and reach of taps, symmetry, integer variant, separability) whether
 * they run it, so a lifting wavelet reaches every engine whose rules it fits.
 *
 * Row:  X(ID, name, zeta_low, zeta_high, has_integer, has_float, separable,
 *         orthonormal)
 *   ID          suffix of the public enum value LW_<ID>
 *   zeta_*      float scaling of the even (lowpass) / odd (highpass) samples
 *               after the steps
 *   has_integer an integer (reversible) variant exists: every step has
 *               integer coefficients and a rounding rule
 *   separable   0 for Faber-Schauder, whose 2-D/3-D form is not a product of
 *               1-D transforms
 *   orthonormal the float transform is orthonormal (its adjoint is its
 *               inverse)
 *
 * Steps:  LW_STEPS_<ID>(S) expands to one S(...) per lifting step, in order:
 *   S(odd, ntaps, o0, o1, o2, o3, w0, w1, w2, w3, c0, c1, c2, c3, sign, add, shift)
 *   odd       1: the odd samples are updated (predict), 0: the even (update)
 *   o*, w*    offsets (odd numbers) and float weights of the taps:
 *               x[t] += sum_i w_i * x[t + o_i]
 *   c*, sign, add, shift   the integer rule:
 *               x[t] += sign * floor((sum_i c_i * x[t + o_i] + add) / 2^shift)
 *   Unused taps are 0.  LW_S2 (taps at -1, +1 with one weight) and LW_S4
 *   (taps at -3, -1, +1, +3 with the Deslauriers-Dubuc 4-point pattern) are
 *   shorthands. */
#ifndef LW_WAVELET_LIST_H
#define LW_WAVELET_LIST_H

/* CDF 9/7, ITU-T T.800 Annex F. */
#define LW_CDF97_ALPHA (-1.586134342059924)
#define LW_CDF97_BETA (-0.052980118572961)
#define LW_CDF97_GAMMA (0.882911075530934)
#define LW_CDF97_DELTA (0.443506852043971)
#define LW_CDF97_K (1.230174104914001)

#define LW_SQRT2 1.4142135623730950488
#define LW_INV_SQRT2 0.70710678118654752440

/* Daubechies-4 factorised so that periodic output equals PyWavelets db2
 * periodization (cA[o] and cD[o] both read x[2o-1..2o+2]):
 *   odd  += -1/sqrt3 * x[t+1]
 *   even += (6-3 sqrt3)/4 * x[t+1] + sqrt3/4 * x[t-1]
 *   odd  += -1/3 * x[t-1]
 *   even *= (sqrt3+1)/sqrt6, odd *= (sqrt3-1) sqrt(3/2)                       */
#define LW_D4_A (-0.5773502691896257645)
#define LW_D4_B (0.2009618943233420299)
#define LW_D4_C (0.4330127018922193234)
#define LW_D4_D (-0.3333333333333333333)
#define LW_D4_ZL (1.1153550716504105408)
#define LW_D4_ZH (0.8965754721680535241)

#define LW_WAVELET_LIST(X)                                              \
    X(HAAR, "haar", LW_SQRT2, -LW_INV_SQRT2, 1, 1, 1, 1)                \
    X(CDF53, "cdf53", 1.0, 1.0, 1, 1, 1, 0)                             \
    X(CDF97, "cdf97", 1.0 / LW_CDF97_K, LW_CDF97_K, 0, 1, 1, 0)         \
    X(DD137, "dd137", 1.0, 1.0, 1, 1, 1, 0)                             \
    X(D4, "d4", LW_D4_ZL, LW_D4_ZH, 0, 1, 1, 1)                         \
    X(FS, "fs", 1.0, 1.0, 1, 1, 0, 0)                                   \
    X(DD97, "dd97", 1.0, 1.0, 1, 1, 1, 0)

/* two taps at -1, +1 with weight w */
#define LW_S2(S, odd, w, c, sign, add, shift) S(odd, 2, -1, 1, 0, 0, w, w, 0, 0, c, c, 0, 0, sign, add, shift)
/* four taps at -3, -1, +1, +3: weights wf (far), wn (near); integer -1, 9, 9, -1 */
#define LW_S4(S, odd, wf, wn, sign, add, shift) \
    S(odd, 4, -3, -1, 1, 3, wf, wn, wn, wf, -1, 9, 9, -1, sign, add, shift)
/* one tap at offset o */
#define LW_S1(S, odd, o, w, c, sign, add, shift) S(odd, 1, o, 0, 0, 0, w, 0, 0, 0, c, 0, 0, 0, sign, add, shift)

/* Haar; integer: the S-transform d = o - e, s = e + floor(d/2) */
#define LW_STEPS_HAAR(S) LW_S1(S, 1, -1, -1.0, 1, -1, 0, 0) LW_S1(S, 0, 1, 0.5, 1, 1, 0, 1)
/* CDF 5/3 (LeGall); integer: JPEG 2000 reversible */
#define LW_STEPS_CDF53(S) LW_S2(S, 1, -0.5, 1, -1, 0, 1) LW_S2(S, 0, 0.25, 1, 1, 2, 2)
/* CDF 9/7 (float only) */
#define LW_STEPS_CDF97(S)                                                                    \
    LW_S2(S, 1, LW_CDF97_ALPHA, 1, 0, 0, 0) LW_S2(S, 0, LW_CDF97_BETA, 1, 0, 0, 0)             \
    LW_S2(S, 1, LW_CDF97_GAMMA, 1, 0, 0, 0) LW_S2(S, 0, LW_CDF97_DELTA, 1, 0, 0, 0)
/* Deslauriers-Dubuc 13/7; integer: Dirac */
#define LW_STEPS_DD137(S) \
    LW_S4(S, 1, 1.0 / 16, -9.0 / 16, -1, 8, 4) LW_S4(S, 0, -1.0 / 32, 9.0 / 32, 1, 16, 5)
/* Daubechies-4 (float only; see the factorisation above) */
#define LW_STEPS_D4(S)                                                                       \
    LW_S1(S, 1, 1, LW_D4_A, 0, 0, 0, 0)                                                       \
    S(0, 2, -1, 1, 0, 0, LW_D4_C, LW_D4_B, 0, 0, 0, 0, 0, 0, 0, 0, 0)                         \
    LW_S1(S, 1, -1, LW_D4_D, 0, 0, 0, 0)
/* Faber-Schauder: the 5/3 predict alone (its 2-D/3-D form is non-separable) */
#define LW_STEPS_FS(S) LW_S2(S, 1, -0.5, 1, -1, 0, 1)
/* Deslauriers-Dubuc 9/7 (Dirac's default): the 13/7 predict, the 5/3 update */
#define LW_STEPS_DD97(S) LW_S4(S, 1, 1.0 / 16, -9.0 / 16, -1, 8, 4) LW_S2(S, 0, 0.25, 1, 1, 2, 2)

#endif
