/* Sample i of a buffer of any dtype as a double: the tests' one reader of
 * arrays they compare (the half types widened from their bit patterns). */
#ifndef LW_TEST_SAMPLE_H
#define LW_TEST_SAMPLE_H

#include <stdint.h>

#include "core/half.h"
#include "liftwave.h"

static inline double lw_test_sample(const void *p, lw_dtype t, int64_t i)
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
