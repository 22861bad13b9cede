/* Checks of LW_CPU_SIMD and thread counts against this machine. */
#define _GNU_SOURCE
#include "cli_env.h"

#include "cli_common.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cpu backend's paths (src/cpu/fast_dispatch.c) and what each needs. */
static int simd_supported(const char *name, const char **needs)
{
    *needs = "";
    if (!strcmp(name, "scalar")) return 1;
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (!strcmp(name, "sse2")) return *needs = "SSE2", __builtin_cpu_supports("sse2") != 0;
    if (!strcmp(name, "avx2"))
        return *needs = "AVX2 and FMA", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!strcmp(name, "avx512"))
        return *needs = "AVX-512 F, BW, DQ and VL",
               __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    if (!strcmp(name, "sse2") || !strcmp(name, "avx2") || !strcmp(name, "avx512"))
        return *needs = "an x86 CPU", 0;
#endif
    return -1;
}

int lw_cli_check_simd(void)
{
    const char *e = getenv("LW_CPU_SIMD");
    if (!e || !*e) return LW_EXIT_OK;
    const char *needs;
    int ok = simd_supported(e, &needs);
    if (ok < 0)
        return lw_cli_fail(LW_EXIT_DATA, "LW_CPU_SIMD='%.64s' is not a SIMD path (scalar, sse2, avx2, avx512; "
                           "or unset it for the best this CPU has)", e);
    if (!ok)
        return lw_cli_fail(LW_EXIT_DATA, "LW_CPU_SIMD=%s: this CPU lacks %s; unset LW_CPU_SIMD (the best path "
                           "this CPU has) or choose a lower one", e, needs);
    return LW_EXIT_OK;
}

static int cpu_count(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int lw_cli_check_threads(const char *what, int threads)
{
    int n = cpu_count();
    if (threads > n)
        return lw_cli_fail(LW_EXIT_DATA, "%s %d: this process may run on %d CPU%s; ask for at most %d", what,
                           threads, n, n == 1 ? "" : "s", n);
    return LW_EXIT_OK;
}
