/* perf_event_open counters for the timing helpers (see pmu_counters.h). */
#define _GNU_SOURCE
#include "pmu_counters.h"

#include <stdio.h>
#include <string.h>

#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct ev {
    const char *name;
    uint32_t type;
    uint64_t config;
} ev;

/* Raw events: Intel Golden/Raptor Cove (Sapphire / Emerald Rapids) encodings,
 * event | umask << 8 | cmask << 24 (SDM / perfmon tables). */
#define RAW(e, u, c) ((uint64_t)(e) | ((uint64_t)(u) << 8) | ((uint64_t)(c) << 24))
static const ev k_events[] = {
    {"task_clock_ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"ctx_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"ref_cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"llc_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"stalls_total", PERF_TYPE_RAW, RAW(0xA3, 0x04, 4)},
    {"stalls_l2_miss", PERF_TYPE_RAW, RAW(0xA3, 0x05, 5)},
    {"stalls_l3_miss", PERF_TYPE_RAW, RAW(0xA3, 0x06, 6)},
    {"bound_on_stores", PERF_TYPE_RAW, RAW(0xA6, 0x40, 2)},
};

int lw_pmu_open(lw_pmu *p)
{
    memset(p, 0, sizeof *p);
    int opened = 0;
    for (size_t i = 0; i < sizeof k_events / sizeof k_events[0] && p->n < LW_PMU_MAX; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = k_events[i].type;
        a.config = k_events[i].config;
        a.inherit = 1;
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
        if (fd < 0 && a.type == PERF_TYPE_SOFTWARE) { /* paranoid 2+: user only is what we asked */
            fd = -1;
        }
        p->fd[p->n] = fd;
        p->name[p->n] = k_events[i].name;
        p->n++;
        opened += fd >= 0;
    }
    return opened;
}

void lw_pmu_read(const lw_pmu *p, lw_pmu_snap *s)
{
    for (int i = 0; i < p->n; i++) {
        uint64_t v[3] = {0, 0, 0};
        s->v[i] = -1;
        if (p->fd[i] < 0 || read(p->fd[i], v, sizeof v) != (ssize_t)sizeof v) continue;
        s->v[i] = v[2] > 0 && v[2] < v[1] ? (double)v[0] * ((double)v[1] / (double)v[2]) : (double)v[0];
    }
}

void lw_pmu_close(lw_pmu *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->fd[i] >= 0) close(p->fd[i]);
    p->n = 0;
}
#else
int lw_pmu_open(lw_pmu *p)
{
    memset(p, 0, sizeof *p);
    return 0;
}
void lw_pmu_read(const lw_pmu *p, lw_pmu_snap *s)
{
    (void)p, (void)s;
}
void lw_pmu_close(lw_pmu *p)
{
    p->n = 0;
}
#endif

void lw_pmu_accumulate(lw_pmu_snap *acc, const lw_pmu_snap *a, const lw_pmu_snap *b, int n)
{
    for (int i = 0; i < n; i++)
        acc->v[i] = a->v[i] < 0 || b->v[i] < 0 || acc->v[i] < 0 ? -1 : acc->v[i] + (b->v[i] - a->v[i]);
}

static double get(const lw_pmu *p, const lw_pmu_snap *s, const char *name)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->name[i], name)) return s->v[i];
    return -1;
}

void lw_pmu_print(const lw_pmu *p, const lw_pmu_snap *acc, const char *label)
{
    printf("pmu %s", label);
    for (int i = 0; i < p->n; i++)
        if (acc->v[i] >= 0) printf(" %s=%.4g", p->name[i], acc->v[i]);
        else printf(" %s=NA", p->name[i]);
    double tc = get(p, acc, "task_clock_ns"), cy = get(p, acc, "cycles"), in = get(p, acc, "instructions");
    double st = get(p, acc, "stalls_total"), l3 = get(p, acc, "stalls_l3_miss"), l2 = get(p, acc, "stalls_l2_miss");
    if (tc > 0 && cy >= 0) printf(" | GHz %.2f", cy / tc);
    if (cy > 0 && in >= 0) printf(" IPC %.2f", in / cy);
    if (cy > 0 && st >= 0) printf(" stalls %.2f", st / cy);
    if (cy > 0 && l2 >= 0) printf(" l2miss_stalls %.2f", l2 / cy);
    if (cy > 0 && l3 >= 0) printf(" l3miss_stalls %.2f", l3 / cy);
    printf("\n");
}
