/* LW_CPU_SIMD (the CLI's way to force the cpu backend's SIMD path) and the
 * checks of thread counts against this machine. */
#define _GNU_SOURCE
#include "cli_env.h"

#include "cli_common.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *lw_cli_env_tuning(void)
{
    static char buf[96];
    const char *e = getenv("LW_CPU_SIMD");
    if (!e || !*e) return NULL;
    snprintf(buf, sizeof buf, "simd=%.64s", e);
    return buf;
}

int lw_cli_check_simd(void)
{
    const char *t = lw_cli_env_tuning();
    if (!t) return LW_EXIT_OK;
    /* the library validates the path against this CPU: a two-sample plan asks it */
    lw_config c;
    lw_config_init(&c);
    c.rank = 1;
    c.shape[0] = 2;
    c.backend = LW_BACKEND_CPU;
    c.tuning = t;
    lw_plan *p = NULL;
    lw_status st = lw_plan_create(&p, &c);
    lw_destroy(p);
    if (st != LW_OK)
        return lw_cli_fail(LW_EXIT_DATA, "LW_CPU_SIMD=%.64s: %s (unset LW_CPU_SIMD for the best path this CPU has)",
                           getenv("LW_CPU_SIMD"), lw_last_error());
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
