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

const lw_backend_ops lw_backend_cpu_ref = {
    "cpu-ref", LW_BACKEND_CPU_REF, cpu_available, cpu_plan, cpu_execute, cpu_destroy, NULL};

const lw_backend_ops lw_backend_cpu = {
    "cpu", LW_BACKEND_CPU, cpu_available, lw_fast_plan_create, lw_fast_execute, lw_fast_destroy, NULL};
