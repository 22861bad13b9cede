/* Line geometry of a plan's levels (line_geom.h). */
#include "line_geom.h"

#include <string.h>

int64_t lw_grid_step(const lw_plan *p, int k) { return p->cfg.layout == LW_INTERLEAVED ? ((int64_t)1 << k) : 1; }

int lw_geo_is_axis(const lw_geometry *g, int ax)
{
    for (int a = 0; a < g->naxes; a++)
        if (g->axes[a] == ax) return 1;
    return 0;
}

void lw_lines_for(const lw_plan *p, int k, int a, lw_lines *L)
{
    const lw_geometry *g = &p->geo;
    int64_t gs = lw_grid_step(p, k);
    memset(L, 0, sizeof *L);
    L->n = g->len[k][a];
    L->lstride = gs * g->strides[g->axes[a]];
    for (int b = 0; b < g->naxes; b++)
        if (b != a) L->dlen[L->nd] = g->len[k][b], L->dstr[L->nd] = gs * g->strides[g->axes[b]], L->nd++;
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) L->dlen[L->nd] = g->shape[i], L->dstr[L->nd] = g->strides[i], L->nd++;
    for (int i = 1; i < L->nd; i++) /* insertion sort by stride */
        for (int j = i; j > 0 && L->dstr[j] < L->dstr[j - 1]; j--) {
            int64_t t = L->dstr[j];
            L->dstr[j] = L->dstr[j - 1];
            L->dstr[j - 1] = t;
            t = L->dlen[j];
            L->dlen[j] = L->dlen[j - 1];
            L->dlen[j - 1] = t;
        }
    L->nlines = 1;
    for (int i = 0; i < L->nd; i++) L->nlines *= L->dlen[i];
}

int64_t lw_region_count(const lw_plan *p, int k)
{
    int64_t c = 1;
    for (int a = 0; a < p->geo.naxes; a++) c *= p->geo.len[k][a];
    return c;
}
