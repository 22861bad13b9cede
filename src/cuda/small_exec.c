/* The small engine (cuda engine "small", k_small.cu): every level of whole
 * items held in one block's shared memory, in one launch.  It runs a plan by
 * itself (batches of small items in place, and plans no fused engine takes)
 * and the tail of the fused pyramid engines (levels from s->small_from on,
 * cuda_exec.c and fused3d_exec.c).  Here: which levels it can hold, and its
 * launch parameters for levels k0 .. levels-1 of a plan. */
#include "cuda_exec.h"

#include <string.h>

int lw_cuda_fits_small(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return lwk_small_fits(s->dtype, p->geo.naxes, p->geo.len[k]) && p->geo.levels - k <= LWK_SMALL_MAXLEV;
}

void lw_cuda_small_setup(const lw_plan *p, const lw_cuda_sched *s, int k0, lwk_small *sm)
{
    const int nlev = p->geo.levels - k0;
    const lw_geometry *g = &p->geo;
    memset(sm, 0, sizeof *sm);
    sm->na = g->naxes;
    sm->k0 = k0, sm->nlev = nlev;
    for (int i = 0; i <= nlev; i++)
        for (int a = 0; a < g->naxes; a++) sm->len[i][a] = (int)g->len[k0 + i][a];
    sm->nbatch = 1;
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) {
            sm->blen[sm->nb] = g->shape[i];
            sm->bsst[sm->nb] = sm->bdst[sm->nb] = g->strides[i];
            sm->nbatch *= g->shape[i];
            sm->nb++;
        }
    for (int a = 0; a < g->naxes; a++) sm->sst[a] = sm->dst_[a] = lw_grid_step(p, k0) * g->strides[g->axes[a]];
    sm->mode = (int)p->cfg.mode;
    sm->inverse = p->cfg.direction == LW_INVERSE;
    sm->mallat = p->cfg.layout == LW_MALLAT;
    sm->interleaved = !sm->mallat;
    sm->w = s->w;
}
