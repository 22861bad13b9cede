/* The CUDA backend's entry when the library is built without nvcc. */
#include "lw_internal.h"

#include <stdio.h>

static int absent_available(void) { return 0; }

static lw_status absent_plan(lw_plan *plan)
{
    (void)plan;
    return lw_fail(LW_ERR_NO_BACKEND, "liftwave was built without CUDA");
}

static lw_status absent_execute(const lw_plan *plan, const void *in, void *out)
{
    (void)plan, (void)in, (void)out;
    return lw_fail(LW_ERR_NO_BACKEND, "liftwave was built without CUDA");
}

static void absent_destroy(lw_plan *plan) { (void)plan; }

const lw_backend_ops lw_backend_cuda = {
    .name = "cuda", .id = LW_BACKEND_CUDA, .auto_rank = 1, .device_pointers = 1,
    .available = absent_available, .plan = absent_plan, .execute = absent_execute, .destroy = absent_destroy,
};

int lw_cuda_device_info(char *buf, size_t len)
{
    if (buf && len) snprintf(buf, len, "%s", "");
    return 0;
}

/* No GPU schemes without CUDA. */
int lw_scheme_count(void) { return 0; }

const char *lw_scheme_name(int i)
{
    (void)i;
    return NULL;
}

const char *lw_scheme_about(int i)
{
    (void)i;
    return NULL;
}


int lw_scheme_cost_of(int i, lw_wavelet w, lw_scheme_cost *c)
{
    (void)i, (void)w, (void)c;
    return 0;
}

lw_status lw_cuda_bench(const lw_config *cfg, lw_bench_config config, int repeat, const void *host_in,
                        const void *host_ref, double tol, lw_bench_result *res)
{
    (void)cfg, (void)config, (void)repeat, (void)host_in, (void)host_ref, (void)tol, (void)res;
    return lw_fail(LW_ERR_NO_BACKEND, "liftwave was built without CUDA");
}
