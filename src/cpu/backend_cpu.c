/* CPU backends: the double-precision reference ("cpu-ref") and the tuned
 * default CPU path ("cpu", fast_*.c: SIMD + OpenMP single-loop lifting). */
#include "fast_internal.h"

#include <string.h>

static int cpu_available(void) { return 1; }

static lw_status cpu_plan(lw_plan *plan)
{
    if (plan->cfg.flags & LW_FLAG_DEVICE_POINTERS)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "device pointers need the cuda backend");
    if (strcmp(plan->scheme, "auto") != 0)
        return lw_fail(LW_ERR_UNSUPPORTED, "scheme '%s': the cpu-ref backend is one engine (the reference); use auto", plan->scheme);
    plan->impl = NULL;
    return LW_OK;
}

static lw_status cpu_execute(const lw_plan *plan, const void *in, void *out)
{
    if (in != out) memcpy(out, in, (size_t)plan->geo.total * lw_dtype_size(plan->cfg.dtype));
    return lw_ref_transform(plan, out);
}

static void cpu_destroy(lw_plan *plan) { plan->impl = NULL; }

static int ref_engine_count(void) { return 0; }

const lw_backend_ops lw_backend_cpu_ref = {
    .name = "cpu-ref", .id = LW_BACKEND_CPU_REF, .auto_rank = 0, .device_pointers = 0,
    .available = cpu_available, .plan = cpu_plan, .execute = cpu_execute, .destroy = cpu_destroy,
    .engine_count = ref_engine_count,
};

static const char *cpu_engine_name(int i, const char **about)
{
    const lw_cpu_engine *e = lw_cpu_engine_at(i);
    if (e && about) *about = e->about;
    return e ? e->name : NULL;
}

const lw_backend_ops lw_backend_cpu = {
    .name = "cpu", .id = LW_BACKEND_CPU, .auto_rank = 2, .device_pointers = 0,
    .available = cpu_available, .plan = lw_fast_plan_create, .execute = lw_fast_execute, .destroy = lw_fast_destroy,
    .describe = lw_fast_describe, .engine_count = lw_cpu_engine_count, .engine_name = cpu_engine_name,
};
