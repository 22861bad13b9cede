/* The "cpu" backend for the half storage types (LW_FLOAT16, LW_BFLOAT16):
 * the input is widened to a float32 scratch in blocks shared over the
 * threads, the float32 plan of the same transform runs on it in place, and
 * the result is rounded back to the storage type once (nearest even).  So
 * every lifting step is computed in float32 by the tuned float32 engines,
 * forward, inverse and adjoints alike, at the cost of a scratch of 4 bytes per
 * sample for the duration of the call. */
#include "fast_internal.h"

#include "../core/half.h"

#include <stdlib.h>

#define HALF_BLOCK 65536 /* samples converted per work item */

typedef struct half_plan {
    lw_plan *inner; /* the float32 plan on the scratch */
    int threads;
} half_plan;

lw_status lw_half_plan_create(lw_plan *plan)
{
    half_plan *hp = calloc(1, sizeof *hp);
    if (!hp) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the half-precision plan");
    lw_config c = plan->cfg;
    c.dtype = LW_FLOAT32;
    c.backend = LW_BACKEND_CPU;
    lw_status st = lw_plan_create(&hp->inner, &c);
    if (st != LW_OK) {
        free(hp);
        return st;
    }
    hp->threads = lw_cpu_threads(plan->cfg.threads);
    plan->impl = hp;
    return LW_OK;
}

void lw_half_destroy(lw_plan *plan)
{
    half_plan *hp = (half_plan *)plan->impl;
    if (hp) lw_destroy(hp->inner);
    free(hp);
    plan->impl = NULL;
}

void lw_half_describe(const lw_plan *plan, char *buf, size_t len)
{
    const half_plan *hp = (const half_plan *)plan->impl;
    lw_appendf(buf, len, "storage: %s, computed in float32 on a scratch\n", lw_dtype_name(plan->cfg.dtype));
    hp->inner->ops->describe(hp->inner, buf, len);
}

const lw_plan *lw_half_inner(const lw_plan *plan) { return ((const half_plan *)plan->impl)->inner; }

/* samples [i0, i1) of h widened into f */
static void widen_block(lw_dtype t, const uint16_t *h, float *f, int64_t i0, int64_t i1)
{
    if (t == LW_FLOAT16)
        for (int64_t i = i0; i < i1; i++) f[i] = lw_f16_to_f32(h[i]);
    else
        for (int64_t i = i0; i < i1; i++) f[i] = lw_bf16_to_f32(h[i]);
}

/* samples [i0, i1) of f rounded into h */
static void narrow_block(lw_dtype t, const float *f, uint16_t *h, int64_t i0, int64_t i1)
{
    if (t == LW_FLOAT16)
        for (int64_t i = i0; i < i1; i++) h[i] = lw_f32_to_f16(f[i]);
    else
        for (int64_t i = i0; i < i1; i++) h[i] = lw_f32_to_bf16(f[i]);
}

/* widen (narrow 0) or narrow (1) n samples, blocks shared over the threads */
static void convert(lw_dtype t, const uint16_t *hin, uint16_t *hout, float *f, int64_t n, int narrow, int threads)
{
    int64_t nblk = (n + HALF_BLOCK - 1) / HALF_BLOCK;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && nblk > 1) schedule(static)
#endif
    for (int64_t b = 0; b < nblk; b++) {
        int64_t i0 = b * HALF_BLOCK, i1 = n - i0 > HALF_BLOCK ? i0 + HALF_BLOCK : n;
        if (narrow)
            narrow_block(t, f, hout, i0, i1);
        else
            widen_block(t, hin, f, i0, i1);
    }
}

lw_status lw_half_execute(const lw_plan *plan, const void *in, void *out)
{
    const half_plan *hp = (const half_plan *)plan->impl;
    int64_t n = plan->geo.total;
    size_t bytes;
    float *x = lw_mul_size((size_t)n, sizeof *x, &bytes) == 0 ? malloc(bytes) : NULL;
    if (!x) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the float32 scratch (%lld samples)", (long long)n);
    convert(plan->cfg.dtype, (const uint16_t *)in, NULL, x, n, 0, hp->threads);
    lw_status st = lw_execute(hp->inner, x, x);
    if (st == LW_OK) convert(plan->cfg.dtype, NULL, (uint16_t *)out, x, n, 1, hp->threads);
    free(x);
    return st;
}
