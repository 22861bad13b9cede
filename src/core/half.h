/* The half storage types: IEEE binary16 (LW_FLOAT16) and bfloat16
 * (LW_BFLOAT16) <-> float32, bit-exact.  Widening is exact; narrowing rounds
 * to nearest, ties to even, keeps NaN a (quiet) NaN, overflows to infinity
 * and produces binary16 subnormals.  They rely on float32 arithmetic in the
 * default rounding mode (round to nearest even), as the whole library does.  Header-only so that every backend
 * converts the same way. */
#ifndef LW_HALF_H
#define LW_HALF_H

#include "liftwave.h"

#include <stdint.h>
#include <string.h>

/* nonzero for the half storage types */
static inline int lw_dtype_is_half(lw_dtype t) { return t == LW_FLOAT16 || t == LW_BFLOAT16; }

static inline uint32_t lw_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float lw_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float lw_bf16_to_f32(uint16_t h) { return lw_f32_from_bits((uint32_t)h << 16); }

static inline uint16_t lw_f32_to_bf16(float f)
{
    uint32_t u = lw_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u); /* NaN stays NaN, quiet */
    u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest even; overflow carries into infinity */
    return (uint16_t)(u >> 16);
}

/* Both binary16 conversions are written without branches (selects of
 * candidates computed for every input) so that the compilers vectorise the
 * conversion loops; they agree bit for bit with the case-by-case definition
 * on all 2^16 / 2^32 inputs (NaN payloads aside; tests/unit/test_half_convert.c
 * checks every half value and every rounding midpoint). */
/* a where the mask is all ones, b where it is zero */
static inline uint32_t lw_select_u32(uint32_t mask, uint32_t a, uint32_t b) { return (a & mask) | (b & ~mask); }

static inline float lw_f16_to_f32(uint16_t h)
{
    uint32_t o = (uint32_t)(h & 0x7fffu) << 13, exp = o & 0x0f800000u;
    uint32_t nrm = o + 0x38000000u; /* normal: rebias the exponent 15 -> 127 */
    uint32_t spc = o + 0x70000000u; /* infinity, NaN: exponent all ones */
    /* zero, subnormal: 2^-14 + man * 2^-24 is exact in float32; take 2^-14 away */
    uint32_t sub = lw_f32_bits(lw_f32_from_bits(o + 0x38800000u) - 6.103515625e-05f);
    uint32_t r = lw_select_u32(-(uint32_t)(exp == 0x0f800000u), spc,
                               lw_select_u32(-(uint32_t)(exp == 0), sub, nrm));
    return lw_f32_from_bits(r | (uint32_t)(h & 0x8000u) << 16);
}

static inline uint16_t lw_f32_to_f16(float f)
{
    uint32_t u = lw_f32_bits(f), sign = u & 0x80000000u, a = u ^ sign;
    /* below 2^-14 (a subnormal or zero result): adding 0.5 leaves the value's
     * multiple of 2^-24 in the low mantissa bits, rounded to nearest even by
     * the float addition itself */
    uint32_t sub = lw_f32_bits(lw_f32_from_bits(a) + 0.5f) - 0x3f000000u;
    /* normal: rebias 127 -> 15 and round the 13 dropped bits to nearest even;
     * a carry moves into the exponent (up to infinity), which is right */
    uint32_t nrm = (a + 0xc8000fffu + ((a >> 13) & 1u)) >> 13;
    /* from 2^16 up: infinity, or a quiet NaN */
    uint32_t spc = 0x7c00u | ((uint32_t)(a > 0x7f800000u) << 9);
    uint32_t o = lw_select_u32(-(uint32_t)(a >= 0x47800000u), spc,
                               lw_select_u32(-(uint32_t)(a < 0x38800000u), sub, nrm));
    return (uint16_t)(o | sign >> 16);
}

/* Sample i of a buffer of any dtype as a double (the half types widened
 * exactly): what the checks that compare arrays read (the CLI's and the
 * CUDA backend's benchmarks, the tests). */
static inline double lw_sample_as_double(const void *p, lw_dtype t, int64_t i)
{
    switch (t) {
    case LW_FLOAT32: return ((const float *)p)[i];
    case LW_FLOAT64: return ((const double *)p)[i];
    case LW_INT32: return ((const int32_t *)p)[i];
    case LW_FLOAT16: return lw_f16_to_f32(((const uint16_t *)p)[i]);
    case LW_BFLOAT16: return lw_bf16_to_f32(((const uint16_t *)p)[i]);
    }
    return 0;
}

#endif
