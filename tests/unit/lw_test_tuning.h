/* The knobs of test and benchmark programs.  The library reads no
 * environment: these programs do, by the convention of tools/env_tuning.h
 * (LW_CPU_SIMD, LW_CPU_STREAM, ... and LW_TUNING; docs/TUNING.md), and hand
 * the result to every plan as lw_config.tuning / lw_config.threads.
 * lw_test_tuning_set() replaces the string for what follows (NULL: back to
 * the environment's). */
#ifndef LW_TEST_TUNING_H
#define LW_TEST_TUNING_H

#include "../../tools/env_tuning.h"

static char lw_test_tuning_buf_[512];
static const char *lw_test_tuning_override_;
static int lw_test_tuning_done_;
static int lw_test_threads __attribute__((unused)); /* lw_config.threads of the test's plans (0: OpenMP default) */

static inline const char *lw_test_tuning(void)
{
    if (lw_test_tuning_override_) return lw_test_tuning_override_;
    if (!lw_test_tuning_done_) {
        lw_env_tuning(lw_test_tuning_buf_, sizeof lw_test_tuning_buf_, NULL, 0);
        lw_test_tuning_done_ = 1;
    }
    return lw_test_tuning_buf_[0] ? lw_test_tuning_buf_ : NULL;
}

static inline void lw_test_tuning_set(const char *s) { lw_test_tuning_override_ = s; }

#endif
