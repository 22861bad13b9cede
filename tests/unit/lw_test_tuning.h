/* The knobs of test and benchmark programs.  The library reads no
 * environment: these programs do, by their own convention, and hand the
 * result to every plan as lw_config.tuning / lw_config.threads:
 *   LW_CPU_SIMD=scalar|sse2|avx2|avx512   simd=...
 *   LW_CPU_STREAM=0|1                     stream=cached|streaming
 *   LW_CPU_RING_KB, LW_CPU_PREFETCH, LW_CPU_WALK, LW_CPU_WALK_KB,
 *   LW_CPU_SPLIT_MIN, LW_CPU_VOL_SPLIT    ring_kb, prefetch, walk, walk_kb,
 *                                         split_min, vol_split
 *   LW_TUNING=key=value,...               appended as it is
 * (docs/TUNING.md lists the keys.)  lw_test_tuning_set() replaces the
 * string for what follows (NULL: back to the environment's). */
#ifndef LW_TEST_TUNING_H
#define LW_TEST_TUNING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char lw_test_tuning_buf_[512];
static const char *lw_test_tuning_override_;
static int lw_test_tuning_done_;
static int lw_test_threads __attribute__((unused)); /* lw_config.threads of the test's plans (0: OpenMP default) */

static inline void lw_test_tuning_add_(const char *key, const char *val)
{
    size_t n = strlen(lw_test_tuning_buf_);
    snprintf(lw_test_tuning_buf_ + n, sizeof lw_test_tuning_buf_ - n, "%s%s=%s", n ? "," : "", key, val);
}

static inline const char *lw_test_tuning(void)
{
    if (lw_test_tuning_override_) return lw_test_tuning_override_;
    if (!lw_test_tuning_done_) {
        static const char *const map[][2] = {
            {"LW_CPU_SIMD", "simd"},         {"LW_CPU_RING_KB", "ring_kb"},     {"LW_CPU_PREFETCH", "prefetch"},
            {"LW_CPU_WALK", "walk"},         {"LW_CPU_WALK_KB", "walk_kb"},     {"LW_CPU_SPLIT_MIN", "split_min"},
            {"LW_CPU_VOL_SPLIT", "vol_split"},
        };
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
            const char *v = getenv(map[i][0]);
            if (v && *v) lw_test_tuning_add_(map[i][1], v);
        }
        const char *s = getenv("LW_CPU_STREAM");
        if (s && *s) lw_test_tuning_add_("stream", strcmp(s, "1") == 0 ? "streaming" : strcmp(s, "0") == 0 ? "cached" : s);
        const char *t = getenv("LW_TUNING");
        if (t && *t) {
            size_t n = strlen(lw_test_tuning_buf_);
            snprintf(lw_test_tuning_buf_ + n, sizeof lw_test_tuning_buf_ - n, "%s%s", n ? "," : "", t);
        }
        lw_test_tuning_done_ = 1;
    }
    return lw_test_tuning_buf_[0] ? lw_test_tuning_buf_ : NULL;
}

static inline void lw_test_tuning_set(const char *s) { lw_test_tuning_override_ = s; }

#endif
