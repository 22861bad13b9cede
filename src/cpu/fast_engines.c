/* The engines of the tuned cpu backend as records.  Each level runs on the
 * first engine whose rule applies to it, or on the one the plan's scheme
 * names (which must apply: checked at plan creation).  The reference
 * (double precision, obviously correct) is the separate "cpu-ref" backend. */
#include "fast_internal.h"

#include <string.h>

static int fs_applies(const lw_fast_level *lv) { return lv->fsmode && !lv->adjoint; }
static size_t fs_scratch(const lw_fast_level *lv) { return (void)lv, 0; }
static lw_status fs_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                        char *scratch, size_t per_thread)
{
    (void)scratch, (void)per_thread;
    return lw_fast_fs_level(lv, src, dst, ll, threads, guard);
}

static int nd_applies(const lw_fast_level *lv) { return !lv->fsmode && !lv->adjoint; }

static const lw_cpu_engine engines[] = {
    {"adjoint", lw_fast_adjoint_applies, lw_fast_adjoint_scratch, lw_fast_adjoint_run, NULL, NULL,
     "the adjoint directions: transposed steps along lines (fs over several axes: every all-even sample "
     "gathers its folded neighbours), in place, OpenMP"},
    {"fs", fs_applies, fs_scratch, fs_run, lw_fast_fs_in_place, NULL,
     "Faber-Schauder over several axes: every sample of a level from the original grid (interleaved: in place "
     "too)"},
    {"vol", lw_fast_vol_applies, lw_fast_vol_scratch, lw_fast_vol_run, lw_fast_vol_in_place,
     lw_fast_vol_in_place_bytes,
     "two vertical axes and lifted rows (3-D, batched 2-D): a ring of planes per unit, units split while they run"},
    {"planes", lw_fast_planes_applies, lw_fast_planes_scratch, lw_fast_planes_run, lw_fast_planes_in_place,
     lw_fast_planes_in_place_bytes,
     "batches of small 2-D items (NCHW): chunks of 16 items interleaved as channels last and lifted as lines "
     "of 16-element groups, OpenMP over chunks"},
    {"nd", nd_applies, lw_fast_nd_scratch, lw_fast_nd_run, lw_fast_nd_in_place, lw_fast_nd_in_place_bytes,
     "separable lifting of any rank: windowed lines in one pass per level, SIMD + OpenMP"},
};
#define NENGINES ((int)(sizeof engines / sizeof engines[0]))

int lw_cpu_engine_count(void) { return NENGINES; }

const lw_cpu_engine *lw_cpu_engine_at(int i) { return i >= 0 && i < NENGINES ? &engines[i] : NULL; }

int lw_cpu_engine_find(const char *name)
{
    for (int i = 0; i < NENGINES; i++)
        if (strcmp(engines[i].name, name) == 0) return i;
    return -1;
}

const lw_cpu_engine *lw_cpu_engine_for(const lw_fast_level *lv)
{
    if (lv->fp->engine >= 0) return &engines[lv->fp->engine];
    for (int i = 0; i < NENGINES; i++)
        if (engines[i].applies(lv)) return &engines[i];
    return &engines[NENGINES - 1];
}

const lw_cpu_engine *lw_cpu_engine_in_place_for(const lw_fast_level *lv, int *route)
{
    const lw_cpu_engine *e = lw_cpu_engine_for(lv);
    *route = e->in_place ? e->in_place(lv) : 0;
    return *route ? e : NULL;
}
