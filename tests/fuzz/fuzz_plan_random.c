/* Runs the fuzz_plan target (fuzz_plan.c) on seeded random inputs: the ctest
 * fuzz_plan_random, in every build (CI's sanitizer stage included), where
 * libFuzzer may be absent.  Usage: fuzz_plan_random [COUNT [SEED]]; prints how
 * many configurations the library accepted (each then checked in full). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int lw_fuzz_plan(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 4000;
    uint64_t s = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed2026u;
    long accepted = 0;
    uint8_t buf[32];
    for (long i = 0; i < count; i++) {
        for (size_t j = 0; j < sizeof buf; j++) { /* splitmix64 */
            uint64_t z = (s += 0x9e3779b97f4a7c15ull);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            buf[j] = (uint8_t)(z ^ (z >> 31));
        }
        accepted += lw_fuzz_plan(buf, sizeof buf);
    }
    printf("fuzz_plan_random: %ld inputs, %ld plans accepted and checked, 0 failed\n", count, accepted);
    return 0;
}
