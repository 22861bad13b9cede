/* The environment's tuning (LW_CPU_*, LW_TUNING: the programs' convention,
 * the library reads no environment) and the checks of thread counts against
 * this machine. */
#define _GNU_SOURCE
#include "cli_env.h"

#include "cli_common.h"
#include "env_tuning.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char env_names[512]; /* "LW_CPU_SIMD=avx2 LW_TUNING=..." of the last lw_cli_env_tuning() */

const char *lw_cli_env_tuning(void)
{
    static char buf[512];
    lw_env_tuning(buf, sizeof buf, env_names, sizeof env_names);
    return buf[0] ? buf : NULL;
}

int lw_cli_check_env_tuning(void)
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
        return lw_cli_fail(LW_EXIT_DATA, "%s: %s (unset it for the defaults)", env_names, lw_last_error());
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
