/* Runs the fuzz_plan target (fuzz_plan.c) on seeded random inputs: the ctest
 * fuzz_plan_random, in every build (CI's sanitizer stage included), where
 * libFuzzer may be absent.  Usage: fuzz_plan_random [COUNT [SEED [cuda]]];
 * with cuda every configuration runs on the cuda backend (host pointers)
 * against the reference (ctest gpu_fuzz_plan; exit 77 without a device).
 * Prints how many configurations the library accepted (each then checked in
 * full). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "liftwave.h"

int lw_fuzz_plan(const uint8_t *data, size_t size);
void lw_fuzz_plan_backend(lw_backend b);

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 4000;
    uint64_t s = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed2026u;
    long accepted = 0;
    if (argc > 3 && strcmp(argv[3], "cuda") == 0) {
        if (!lw_backend_available(LW_BACKEND_CUDA)) {
            printf("SKIP: no CUDA device (or built without CUDA)\n");
            return 77;
        }
        lw_fuzz_plan_backend(LW_BACKEND_CUDA);
    }
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
    printf("fuzz_plan_random: %ld inputs, %ld plans accepted and checked, 0 failed%s\n", count, accepted,
           argc > 3 ? " (cuda)" : "");
    return 0;
}
