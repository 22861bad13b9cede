/* Minimal test harness: CHECK records failures with their location and keeps
 * going; lw_test_finish prints a summary and returns the exit status. */
#ifndef LW_TEST_H
#define LW_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static long lw_test_pass, lw_test_fail;

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (cond) {                                                              \
            lw_test_pass++;                                                      \
        } else {                                                                 \
            lw_test_fail++;                                                      \
            if (lw_test_fail <= 50) {                                            \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
                fprintf(stderr, __VA_ARGS__);                                    \
                fputc('\n', stderr);                                             \
            }                                                                    \
        }                                                                        \
    } while (0)

static inline int lw_test_finish(const char *name)
{
    printf("%s: %ld checks passed, %ld failed\n", name, lw_test_pass, lw_test_fail);
    return lw_test_fail ? 1 : 0;
}

/* float32 arrays a (the reference) and b: the largest |a| and the largest |a - b|
 * (a NaN in b counts as an infinite difference). */
static inline void lw_test_f32_diff(const float *a, const float *b, size_t n, double *maxabs, double *maxdiff)
{
    double mx = 0, dm = 0;
    for (size_t i = 0; i < n; i++) {
        double r = a[i], v = b[i];
        if (r < 0 ? -r > mx : r > mx) mx = r < 0 ? -r : r;
        double d = r > v ? r - v : v - r;
        if (!(d <= dm)) dm = d == d ? d : 1e300;
    }
    *maxabs = mx, *maxdiff = dm;
}

/* xorshift64* random numbers: reproducible from a logged seed. */
static uint64_t lw_rng_state = 0x9E3779B97F4A7C15ull;
static inline void lw_rng_seed(uint64_t s) { lw_rng_state = s ? s : 1; }
static inline uint64_t lw_rng_u64(void)
{
    uint64_t x = lw_rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    lw_rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}
static inline double lw_rng_unit(void) { return (double)(lw_rng_u64() >> 11) * (1.0 / 9007199254740992.0); }
static inline int64_t lw_rng_range(int64_t lo, int64_t hi) /* inclusive */
{
    return lo + (int64_t)(lw_rng_u64() % (uint64_t)(hi - lo + 1));
}

/* Seed from LW_TEST_SEED or the given default; always logged. */
static inline uint64_t lw_test_seed(uint64_t dflt)
{
    const char *e = getenv("LW_TEST_SEED");
    uint64_t s = e ? strtoull(e, NULL, 0) : dflt;
    printf("seed %llu (set LW_TEST_SEED to reproduce)\n", (unsigned long long)s);
    lw_rng_seed(s);
    return s;
}

#endif
