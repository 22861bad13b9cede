/* The out-of-core in-place row permutation (lw_ooc_permute_rows) timed on
 * this host: N rows of a row part of ROW KiB, PITCH KiB apart, L levels,
 * interleaved -> Mallat, on T threads; best of two.  Build against a
 * configured tree (any backend):
 *   cc -O2 -fopenmp -I src/core -I include bench/exp/permute_probe.c \
 *      BUILD/libliftwave.a -lgomp -lm -lpthread -o /tmp/permute_probe
 *   /tmp/permute_probe N PITCH_KIB ROW_KIB L T
 * e.g. 16384 256 64 3 2: a 2-D pass of three levels' narrowest parts. */
#include "lw_internal.h"
#include "ooc.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 6) return fprintf(stderr, "usage: %s N PITCH_KIB ROW_KIB L THREADS\n", argv[0]), 2;
    const int64_t N = atoll(argv[1]);
    const size_t pitch = (size_t)atoll(argv[2]) << 10, row = (size_t)atoll(argv[3]) << 10;
    const int L = atoi(argv[4]), th = atoi(argv[5]);
    char *b = malloc((size_t)N * pitch);
    if (!b || row > pitch) return fprintf(stderr, "cannot allocate, or ROW > PITCH\n"), 1;
    for (size_t i = 0; i < (size_t)N * pitch; i += 4096) b[i] = (char)i;
    double best = 1e30;
    for (int r = 0; r < 2; r++) {
        const double a = now();
        if (lw_ooc_permute_rows(b, N, pitch, row, L, 1, th) != LW_OK) return fprintf(stderr, "%s\n", lw_last_error()), 1;
        const double e = now() - a;
        if (e < best) best = e;
    }
    printf("N %lld, parts of %zu KiB, pitch %zu KiB, L %d, %d thread(s): %.3f s, %.2f GB/s of row parts moved\n",
           (long long)N, row >> 10, pitch >> 10, L, th, best, (double)N * (double)row / best * 1e-9);
    free(b);
    return 0;
}
