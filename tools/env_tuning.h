/* The programs' convention for tuning from the environment (the library
 * reads none): each variable set becomes its key of lw_config.tuning
 * (docs/TUNING.md), LW_TUNING is appended as it is.  Header-only, shared by
 * the CLI (cli_env.c) and the test and benchmark programs
 * (tests/unit/lw_test_tuning.h). */
#ifndef LW_ENV_TUNING_H
#define LW_ENV_TUNING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* X(variable, key); key NULL: the value is a tuning string itself */
#define LW_ENV_TUNING_LIST(X)                                                                           \
    X("LW_CPU_SIMD", "simd") X("LW_CPU_RING_KB", "ring_kb") X("LW_CPU_PREFETCH", "prefetch")             \
    X("LW_CPU_WALK", "walk") X("LW_CPU_WALK_KB", "walk_kb") X("LW_CPU_SPLIT_MIN", "split_min")           \
    X("LW_CPU_VOL_SPLIT", "vol_split") X("LW_CPU_STREAM", "stream") X("LW_TUNING", NULL)

/* The tuning string of the environment in buf ("" when nothing is set), and
 * in names (when not NULL) the "VARIABLE=value" pairs it came from.
 * LW_CPU_STREAM takes 0 / 1 (cached / streaming) as the experiments wrote it. */
static inline void lw_env_tuning(char *buf, size_t len, char *names, size_t nlen)
{
    buf[0] = 0;
    if (names) names[0] = 0;
#define LW_ENV_TUNING_ONE(var, key)                                                                     \
    {                                                                                                   \
        const char *v = getenv(var), *k = (key);                                                        \
        if (v && *v) {                                                                                  \
            if (k && !strcmp(k, "stream")) v = !strcmp(v, "1") ? "streaming" : !strcmp(v, "0") ? "cached" : v; \
            size_t n = strlen(buf);                                                                     \
            snprintf(buf + n, len - n, "%s%s%s%.200s", n ? "," : "", k ? k : "", k ? "=" : "", v);       \
            if (names) {                                                                                \
                size_t m = strlen(names);                                                               \
                snprintf(names + m, nlen - m, "%s%s=%.64s", m ? " " : "", var, getenv(var));             \
            }                                                                                           \
        }                                                                                               \
    }
    LW_ENV_TUNING_LIST(LW_ENV_TUNING_ONE)
#undef LW_ENV_TUNING_ONE
}

#endif
