/* The half conversions of src/core/half.h, exhaustively: every binary16 and
 * bfloat16 value widens to the float with the same value (checked against
 * the formula) and narrows back to itself; every midpoint between
 * neighbouring half values rounds to the even one, and the floats one step
 * either side of it round to their nearer neighbour; NaN stays NaN, overflow
 * goes to infinity, subnormals are right. */
#include "core/half.h"
#include "lw_test.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* value of a binary16 pattern by the definition */
static double f16_value(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    double v = exp == 0 ? ldexp(man, -24) : ldexp(1024 + man, exp - 25);
    if (exp == 31) v = man ? NAN : INFINITY;
    return sign ? -v : v;
}

static double bf16_value(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 7) & 255, man = h & 127;
    double v = exp == 0 ? ldexp(man, -133) : ldexp(128 + man, exp - 134);
    if (exp == 255) v = man ? NAN : INFINITY;
    return sign ? -v : v;
}

typedef struct half_kind {
    const char *name;
    float (*widen)(uint16_t);
    uint16_t (*narrow)(float);
    double (*value)(uint16_t);
    uint16_t inf; /* +infinity's pattern */
} half_kind;

static void check_kind(const half_kind *k)
{
    long bad_widen = 0, bad_back = 0, bad_mid = 0;
    for (uint32_t u = 0; u < 65536; u++) {
        uint16_t h = (uint16_t)u;
        float f = k->widen(h);
        double v = k->value(h);
        if (isnan(v)) {
            if (!isnan(f)) bad_widen++;
            if (!isnan(k->widen(k->narrow(f)))) bad_back++;
            continue;
        }
        if ((double)f != v || !signbit(f) != !signbit(v)) bad_widen++;
        if (k->narrow(f) != h) bad_back++;
        /* the midpoint to the next value of larger magnitude (exact in float) */
        uint16_t next = (uint16_t)(h + 1);
        if ((h & 0x7fff) >= k->inf) continue;
        float fn = k->widen(next);
        if ((next & 0x7fff) == k->inf) continue; /* the largest finite value: the overflow test below */
        float mid = (float)(((double)f + (double)fn) / 2);
        uint16_t even = (h & 1) ? next : h;
        if (k->narrow(mid) != even) bad_mid++;
        if (k->narrow(nextafterf(mid, 0.0f * f)) != h && f != 0) bad_mid++;
        if (k->narrow(nextafterf(mid, 2 * fn)) != next) bad_mid++;
    }
    CHECK(bad_widen == 0, "%s: %ld values widen wrongly", k->name, bad_widen);
    CHECK(bad_back == 0, "%s: %ld values do not narrow back to themselves", k->name, bad_back);
    CHECK(bad_mid == 0, "%s: %ld midpoints (or their neighbours) round wrongly", k->name, bad_mid);
    CHECK(k->narrow(INFINITY) == k->inf && k->narrow(-INFINITY) == (k->inf | 0x8000), "%s: infinities", k->name);
    CHECK(isnan(k->widen(k->narrow(NAN))), "%s: NaN", k->name);
    CHECK(k->narrow(FLT_MAX) == k->inf, "%s: FLT_MAX overflows to infinity", k->name);
    CHECK(k->narrow(-0.0f) == 0x8000 && k->narrow(0.0f) == 0, "%s: signed zeros", k->name);
    /* signalling NaN patterns of float stay NaN (quieted), not infinity */
    CHECK(isnan(k->widen(k->narrow(lw_f32_from_bits(0x7f800001u)))), "%s: signalling NaN", k->name);
}

int main(void)
{
    const half_kind f16 = {"float16", lw_f16_to_f32, lw_f32_to_f16, f16_value, 0x7c00};
    const half_kind bf16 = {"bfloat16", lw_bf16_to_f32, lw_f32_to_bf16, bf16_value, 0x7f80};
    check_kind(&f16);
    check_kind(&bf16);
    /* known values */
    CHECK(lw_f32_to_f16(65504.0f) == 0x7bff && lw_f32_to_f16(65519.99f) == 0x7bff && lw_f32_to_f16(65520.0f) == 0x7c00,
          "float16 largest finite and its rounding edge");
    CHECK(lw_f32_to_f16(5.9604644775390625e-8f) == 1 && lw_f32_to_f16(2.98023223876953125e-8f) == 0 &&
              lw_f32_to_f16(2.9802326e-8f) == 1,
          "float16 smallest subnormal, the tie below it to zero, just above the tie to it");
    CHECK(lw_f32_to_f16(1.0f) == 0x3c00 && lw_f32_to_bf16(1.0f) == 0x3f80, "one");
    CHECK(lw_f32_to_bf16(lw_f32_from_bits(0x7f7fffffu)) == 0x7f80, "bfloat16: FLT_MAX rounds to infinity");
    CHECK(lw_f32_to_bf16(lw_f32_from_bits(0x00000001u)) == 0, "bfloat16: float subnormal rounds to zero");
    CHECK(lw_dtype_is_half(LW_FLOAT16) && lw_dtype_is_half(LW_BFLOAT16) && !lw_dtype_is_half(LW_FLOAT32),
          "lw_dtype_is_half");
    CHECK(lw_dtype_size(LW_FLOAT16) == 2 && lw_dtype_size(LW_BFLOAT16) == 2, "sizes");
    CHECK(!strcmp(lw_dtype_name(LW_FLOAT16), "float16") && !strcmp(lw_dtype_name(LW_BFLOAT16), "bfloat16"), "names");
    return lw_test_finish("half_convert");
}
