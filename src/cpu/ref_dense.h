/* The reference works on one batch item at a time, copied into a dense
 * array of the transformed axes held in double (float path) or int64
 * (integer path). */
#ifndef LW_REF_DENSE_H
#define LW_REF_DENSE_H

#include "../core/lw_internal.h"

typedef struct lw_dense {
    int na;                   /* transformed axes, 1..3 */
    int64_t n[LW_MAX_AXES];   /* their lengths */
    int64_t st[LW_MAX_AXES];  /* dense strides (C order) */
    int64_t count;            /* prod(n) */
} lw_dense;

/* Faber-Schauder (non-separable), one whole multi-level transform. */
lw_status lw_ref_fs_f(const lw_plan *plan, const lw_dense *d, double *x);
lw_status lw_ref_fs_i(const lw_plan *plan, const lw_dense *d, int64_t *x);

/* Position of grid index j on an axis: mallat regions are compact (step 1),
 * interleaved level k uses step 2^k. */
static inline int64_t lw_grid_step(const lw_plan *plan, int level)
{
    return plan->cfg.layout == LW_INTERLEAVED ? ((int64_t)1 << level) : 1;
}

#endif
