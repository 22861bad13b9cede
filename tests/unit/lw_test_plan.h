/* Plan creation from the handful of fields the tests vary (the rest keep
 * lw_config_init's defaults); integer is set for int32 data. */
#ifndef LW_TEST_PLAN_H
#define LW_TEST_PLAN_H

#include "liftwave.h"
#include "lw_test_tuning.h"

/* The config lw_test_plan makes (the harness's tuning and threads) */
static inline void lw_test_config(lw_config *c, int rank, const int64_t *shape, int naxes, const int *axes,
                                  lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t, int levels, lw_direction dir,
                                  lw_backend b)
{
    lw_config_init(c);
    c->rank = rank;
    for (int i = 0; i < rank; i++) c->shape[i] = shape[i];
    c->naxes = naxes;
    for (int i = 0; i < naxes; i++) c->axes[i] = axes[i];
    c->wavelet = w;
    c->mode = m;
    c->layout = lay;
    c->dtype = t;
    c->integer = t == LW_INT32;
    c->levels = levels;
    c->direction = dir;
    c->backend = b;
    c->tuning = lw_test_tuning();
    c->threads = lw_test_threads;
}

static inline lw_status lw_test_plan(lw_plan **p, int rank, const int64_t *shape, int naxes, const int *axes,
                                     lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t, int levels,
                                     lw_direction dir, lw_backend b)
{
    lw_config c;
    lw_test_config(&c, rank, shape, naxes, axes, w, m, lay, t, levels, dir, b);
    return lw_plan_create(p, &c);
}

#endif
