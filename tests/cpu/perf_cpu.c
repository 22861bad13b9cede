/* Quick timing of the cpu backend against a memcpy of the same bytes on the
 * same threads (not a test; `liftwave bench` is the real benchmark).
 *
 *   perf_cpu [-s 8192x8192] [-w cdf97] [-m periodic] [-l 1] [-t float32]
 *            [-i] [-p] [-r 9] [-P] [-T]
 * -i inverse, -p in place, -P hardware counters of the copies and of the
 * transforms (cycles, instructions, task clock, stalls: pmu_counters.h),
 * -T the 3-D engine's per-thread timeline (fork, scratch clear, busy, last
 * unit, join; medians over the timed runs).  Threads: OMP_NUM_THREADS; SIMD and
 * the other knobs: LW_CPU_SIMD, ... (lw_test_tuning.h). */
#include "liftwave.h"
#include "cpu/fast_internal.h"
#include "lw_test_tuning.h"
#include "pmu_counters.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void par_copy(char *d, const char *s, size_t bytes, int th)
{
    int64_t nch = (int64_t)th * 8;
    (void)th;
#ifdef _OPENMP
#pragma omp parallel for num_threads(th) schedule(static)
#endif
    for (int64_t k = 0; k < nch; k++) {
        size_t ch = (bytes + (size_t)nch - 1) / (size_t)nch, o = (size_t)k * ch;
        if (o < bytes) memcpy(d + o, s + o, o + ch <= bytes ? ch : bytes - o);
    }
}

/* One execute's timeline, in ms from the region's entry (the last level's
 * region when there are several). */
typedef struct trace_stats {
    double wall, fork_max, clear_mean, busy_mean, busy_max, end_min, end_mean, end_max, join;
    int nthreads, units_min, units_max;
    double busy_t[64], end_t[64]; /* per thread (the first 64) */
} trace_stats;

static void trace_reduce(const lw_vol_trace *t, trace_stats *s)
{
    int n = t->nthreads < LW_TRACE_THREADS ? t->nthreads : LW_TRACE_THREADS;
    memset(s, 0, sizeof *s);
    if (n < 1) return;
    s->nthreads = n;
    s->wall = (t->t1 - t->t0) * 1e3;
    s->end_min = 1e30;
    s->units_min = 1 << 30;
    for (int i = 0; i < n; i++) {
        double b = (t->begin[i] - t->t0) * 1e3, e = (t->end[i] - t->t0) * 1e3, u = t->busy[i] * 1e3;
        if (b > s->fork_max) s->fork_max = b;
        s->clear_mean += (t->ready[i] - t->begin[i]) * 1e3 / n;
        s->busy_mean += u / n;
        if (u > s->busy_max) s->busy_max = u;
        s->end_mean += e / n;
        if (e < s->end_min) s->end_min = e;
        if (e > s->end_max) s->end_max = e;
        if (t->units[i] < s->units_min) s->units_min = t->units[i];
        if (t->units[i] > s->units_max) s->units_max = t->units[i];
        if (i < 64) s->busy_t[i] = u, s->end_t[i] = e;
    }
    s->join = s->wall - s->end_max;
}

static double med_field(const trace_stats *ts, int reps, size_t off)
{
    double v[200];
    int m = 0;
    for (int r = 0; r < reps; r++)
        if (ts[r].nthreads) v[m++] = *(const double *)((const char *)&ts[r] + off);
    if (!m) return 0;
    qsort(v, (size_t)m, sizeof(double), cmpd);
    return v[m / 2];
}

static void trace_print(const trace_stats *ts, int reps)
{
    int n = 0, umin = 1 << 30, umax = 0;
    for (int r = 0; r < reps; r++)
        if (ts[r].nthreads) {
            n = ts[r].nthreads;
            if (ts[r].units_min < umin) umin = ts[r].units_min;
            if (ts[r].units_max > umax) umax = ts[r].units_max;
        }
    if (!n) {
        printf("timeline: the 3-D engine did not run\n");
        return;
    }
#define MF(f) med_field(ts, reps, offsetof(trace_stats, f))
    printf("timeline (ms, medians, %d threads, %d-%d units a thread): region %.3f | last thread in %.3f | "
           "scratch clear %.3f | busy mean %.3f max %.3f | last unit done min %.3f mean %.3f max %.3f | join %.3f\n",
           n, umin, umax, MF(wall), MF(fork_max), MF(clear_mean), MF(busy_mean), MF(busy_max), MF(end_min),
           MF(end_mean), MF(end_max), MF(join));
    for (int k = 0; k < 2; k++) {
        printf("  %s by thread:", k ? "last unit done" : "busy");
        for (int i = 0; i < n && i < 64; i++)
            printf(" %.2f", k ? MF(end_t[i]) : MF(busy_t[i]));
        printf("\n");
    }
#undef MF
}

int main(int argc, char **argv)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = c.shape[1] = 8192;
    c.mode = LW_PERIODIC;
    c.backend = LW_BACKEND_CPU;
    c.tuning = lw_test_tuning();
    int reps = 9, inplace = 0, pmu_on = 0, trace_on = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "-s")) {
            c.rank = 0;
            for (const char *p = v; *p && c.rank < 3;) {
                c.shape[c.rank++] = strtoll(p, (char **)&p, 10);
                if (*p == 'x') p++;
            }
            i++;
        } else if (!strcmp(a, "-w")) {
            lw_wavelet_parse(v, &c.wavelet), i++;
        } else if (!strcmp(a, "-m")) {
            lw_mode_parse(v, &c.mode), i++;
        } else if (!strcmp(a, "-l")) {
            c.levels = !strcmp(v, "max") ? LW_LEVELS_MAX : atoi(v), i++;
        } else if (!strcmp(a, "-t")) {
            c.dtype = !strcmp(v, "float64") ? LW_FLOAT64 : !strcmp(v, "int32") ? LW_INT32 : LW_FLOAT32;
            c.integer = c.dtype == LW_INT32;
            i++;
        } else if (!strcmp(a, "-i")) {
            c.direction = LW_INVERSE;
        } else if (!strcmp(a, "-p")) {
            inplace = 1;
        } else if (!strcmp(a, "-P")) {
            pmu_on = 1;
        } else if (!strcmp(a, "-T")) {
            trace_on = 1;
        } else if (!strcmp(a, "-r")) {
            reps = atoi(v), i++;
        }
    }
    if (reps < 1 || reps > 200) reps = 9;
    /* counters first: the OpenMP threads started later inherit them */
    lw_pmu pmu;
    lw_pmu_snap pc, pt, s0, s1;
    memset(&pc, 0, sizeof pc);
    memset(&pt, 0, sizeof pt);
    if (pmu_on && lw_pmu_open(&pmu) == 0) fprintf(stderr, "perf_cpu: no counter could be opened\n");
    if (!pmu_on) pmu.n = 0;
    lw_plan *p;
    if (lw_plan_create(&p, &c) != LW_OK) {
        fprintf(stderr, "plan: %s\n", lw_last_error());
        return 1;
    }
    int64_t n = 1;
    for (int i = 0; i < c.rank; i++) n *= c.shape[i];
    size_t es = lw_dtype_size(c.dtype), bytes = (size_t)n * es;
    /* 64-byte aligned, as liftwave bench allocates (streaming stores need it) */
    size_t ab = (bytes + 63) / 64 * 64;
    char *x = aligned_alloc(64, ab), *y = aligned_alloc(64, ab);
    uint64_t s = 88172645463325252ull;
    for (int64_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0;
        if (c.dtype == LW_FLOAT32) ((float *)x)[i] = (float)u;
        else if (c.dtype == LW_FLOAT64) ((double *)x)[i] = u;
        else ((int32_t *)x)[i] = (int32_t)(u * 65536);
    }
    memset(y, 0, bytes);
    int th = lw_cpu_threads(0);
    double tt[200], tc[200];
    static lw_vol_trace trace;
    trace_stats ts[200];
    memset(ts, 0, sizeof ts);
    if (inplace) memcpy(y, x, bytes);
    lw_execute(p, inplace ? y : x, y);
    for (int r = 0; r < reps; r++) {
        lw_pmu_read(&pmu, &s0);
        double t0 = now();
        par_copy(y, x, bytes, th);
        tc[r] = now() - t0;
        lw_pmu_read(&pmu, &s1);
        lw_pmu_accumulate(&pc, &s0, &s1, pmu.n);
        lw_vol_trace_sink = trace_on ? &trace : NULL;
        trace.nthreads = 0;
        t0 = now();
        lw_execute(p, inplace ? y : x, y);
        tt[r] = now() - t0;
        lw_vol_trace_sink = NULL;
        if (trace_on) trace_reduce(&trace, &ts[r]);
        lw_pmu_read(&pmu, &s0);
        lw_pmu_accumulate(&pt, &s1, &s0, pmu.n);
    }
    qsort(tt, (size_t)reps, sizeof(double), cmpd);
    qsort(tc, (size_t)reps, sizeof(double), cmpd);
    double mt = tt[reps / 2], mc = tc[reps / 2];
    printf("%s %s %s %s levels %d %s%s shape", lw_wavelet_name(c.wavelet), lw_mode_name(c.mode),
           lw_dtype_name(c.dtype), c.direction ? "inverse" : "forward", lw_plan_config(p)->levels,
           inplace ? "in-place " : "", "");
    for (int i = 0; i < c.rank; i++) printf("%s%lld", i ? "x" : " ", (long long)c.shape[i]);
    printf(" | simd %s threads %d | median %.2f ms (min %.2f) %.3f Gsamples/s | memcpy %.2f ms %.1f GB/s | "
           "fraction %.3f\n",
           lw_simd_name(((const lw_fast_plan *)p->impl)->simd), th, mt * 1e3, tt[0] * 1e3, (double)n / mt * 1e-9,
           mc * 1e3, 2.0 * (double)bytes / mc * 1e-9, mc / mt);
    if (trace_on) trace_print(ts, reps);
    if (pmu.n) {
        lw_pmu_print(&pmu, &pc, "memcpy");
        lw_pmu_print(&pmu, &pt, "transform");
        lw_pmu_close(&pmu);
    }
    lw_destroy(p);
    free(x);
    free(y);
    return 0;
}
