/* The half storage types: IEEE binary16 (LW_FLOAT16) and bfloat16
 * (LW_BFLOAT16) <-> float32, bit-exact.  Widening is exact; narrowing rounds
 * to nearest, ties to even, keeps NaN a (quiet) NaN, overflows to infinity
 * and produces binary16 subnormals.  Header-only so that every backend
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

static inline float lw_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1fu) return lw_f32_from_bits(sign | 0x7f800000u | (man << 13)); /* inf, NaN */
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in float32 */
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return lw_f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t lw_f32_to_f16(float f)
{
    uint32_t u = lw_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* NaN, quiet */
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520 rounds to infinity */
    if (a < 0x38800000u) {
        /* below the smallest normal 2^-14: a subnormal step of 2^-24 */
        if (a < 0x33000000u) return sign; /* <= 2^-25 rounds to zero (a tie at 2^-25 goes to even 0) */
        uint32_t e = a >> 23, m = (a & 0x7fffffu) | 0x800000u;
        uint32_t shift = 126u - e; /* value = m * 2^(e-150); in units of 2^-24: m >> (126 - e) */
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    /* normal: rebias the exponent and round the 13 dropped bits; a carry
     * moves into the exponent, which is right */
    uint32_t r = a - 0x38000000u;
    r += 0xfffu + ((r >> 13) & 1u);
    return (uint16_t)(sign | (r >> 13));
}

#endif
