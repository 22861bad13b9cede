/* Hardware and software event counts of this process and the threads it
 * starts later (perf_event_open, inherit), for the timing helpers: cycles,
 * instructions, task clock, stalls.  Linux only; elsewhere, or where the
 * kernel refuses an event (a VM without a virtual PMU, perf_event_paranoid),
 * that event reads as missing and the rest still count. */
#ifndef LW_PMU_COUNTERS_H
#define LW_PMU_COUNTERS_H

#include <stdint.h>

#define LW_PMU_MAX 12

typedef struct lw_pmu {
    int n;
    int fd[LW_PMU_MAX];
    const char *name[LW_PMU_MAX];
} lw_pmu;

typedef struct lw_pmu_snap {
    double v[LW_PMU_MAX]; /* scaled for multiplexing; < 0: missing */
} lw_pmu_snap;

/* Open the events (before any thread is started); returns how many opened. */
int lw_pmu_open(lw_pmu *p);
void lw_pmu_read(const lw_pmu *p, lw_pmu_snap *s);
/* acc += b - a */
void lw_pmu_accumulate(lw_pmu_snap *acc, const lw_pmu_snap *a, const lw_pmu_snap *b, int n);
/* One line: name=value ... plus derived GHz (cycles / task clock), IPC and
 * stall shares; `label` first. */
void lw_pmu_print(const lw_pmu *p, const lw_pmu_snap *acc, const char *label);
void lw_pmu_close(lw_pmu *p);

#endif
