/* The interleaved layout out of place by the fused 2-D tiles (k_tile2d_il.cu),
 * each tile and its halo read once, no neighbour to wait for:
 *   - level 1 from in to out (a forward's, or a one-level inverse's: every
 *     level of an inverse pyramid but the coarsest reads its LL band from out);
 *   - a forward's levels 2.. on compact copies of their grids: level k's
 *     lowpass grid (step 2 in the level before) gathered into X, lifted from X
 *     into Y, and Y scattered onto out's grid of step 2^k once the next level's
 *     grid has been gathered from it.  The levels the tiles do not take (too
 *     small for them) run after, in place on out (tile2d_inplace.c).
 * Workspace: X and Y, each the first lowpass grid's size (a quarter of the
 * array); the grids move by k_gridcopy.cu. */
#include "cuda_exec.h"
#include "gridcopy.h"
#include "tile2d_il.h"

#include <string.h>

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

static int one_level_ok(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    const lw_geometry *g = &p->geo;
    return lwk_tile2d_il_supported(s->dtype, &s->w, (int)p->cfg.mode, g->len[k][0], g->len[k][1]);
}

int lw_il_oop_levels(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (p->cfg.layout != LW_INTERLEAVED || g->naxes != 2 || !p->wav->separable || lw_dir_adjoint(p->cfg.direction))
        return 0;
    if (g->strides[g->axes[1]] != 1 || (p->cfg.direction != LW_FORWARD && g->levels != 1)) return 0;
    /* at most two batch dimensions (the kernels' planes) */
    int nb = 0;
    for (int i = 0; i < g->rank; i++) nb += !lw_geo_is_axis(g, i);
    if (nb > 2 || !one_level_ok(p, s, 0)) return 0;
    int n = 1;
    while (p->tune.il_compact && n < g->levels && one_level_ok(p, s, n)) n++;
    return n;
}

size_t lw_il_oop_bytes(const lw_plan *p, const lw_cuda_sched *s, int levels)
{
    if (levels < 2) return 0;
    const int64_t *n = p->geo.len[1];
    return 2 * align256((size_t)(s->nbatch * n[0] * n[1]) * s->esize);
}

/* grids of rows x cols samples from src (row stride srs, column stride scs)
 * to dst (drs, dcs), the batch strides the planes' */
static lw_status move(const lw_cuda_sched *s, const lwk_tile2d *t, lwk_plane src, int64_t srs, int64_t scs,
                      lwk_plane dst, int64_t drs, int64_t dcs, cudaStream_t st)
{
    lwk_gridcopy c;
    memset(&c, 0, sizeof c);
    c.rows = t->rows, c.cols = t->cols, c.blen[0] = t->blen[0], c.blen[1] = t->blen[1];
    c.srs = srs, c.scs = scs, c.sbs[0] = src.bs[0], c.sbs[1] = src.bs[1];
    c.drs = drs, c.dcs = dcs, c.dbs[0] = dst.bs[0], c.dbs[1] = dst.bs[1];
    CK(lwk_gridcopy_launch(s->dtype, &c, src.p, (void *)dst.p, st), "cuda grid copy launch");
    return LW_OK;
}

lw_status lw_il_oop_run(const lw_plan *p, const lw_cuda_sched *s, int levels, const void *in, void *out,
                        void *scratch, cudaStream_t st)
{
    const int inv = p->cfg.direction == LW_INVERSE;
    lwk_tile2d t;
    lw_cuda_tile_setup(p, s, 0, &t);
    const lwk_plane o = lw_cuda_plane_of(p, out, 0, 0);
    CK(lwk_tile2d_il(s->dtype, inv, &t, lw_cuda_plane_of(p, in, 0, 0), o, st), "cuda tile2d kernel launch (interleaved)");
    if (levels < 2) return LW_OK;
    char *X = scratch, *Y = (char *)scratch + lw_il_oop_bytes(p, s, levels) / 2;
    for (int k = 1; k < levels; k++) {
        lw_cuda_tile_setup(p, s, k, &t);
        const lwk_plane x = lw_cuda_plane_of(p, X, k, 1), y = lw_cuda_plane_of(p, Y, k, 1);
        /* the lowpass grid of the level before: out's (step 2) or Y's, then Y onto out's grid */
        const lwk_plane prev = k == 1 ? o : lw_cuda_plane_of(p, Y, k - 1, 1);
        LW_TRY(move(s, &t, prev, 2 * prev.rs, 2, x, x.rs, 1, st));
        if (k > 1) {
            lwk_tile2d tp;
            lw_cuda_tile_setup(p, s, k - 1, &tp);
            const int64_t gs = (int64_t)1 << (k - 1);
            LW_TRY(move(s, &tp, prev, prev.rs, 1, o, gs * o.rs, gs, st));
        }
        CK(lwk_tile2d_il(s->dtype, 0, &t, x, y, st), "cuda tile2d kernel launch (interleaved)");
    }
    lw_cuda_tile_setup(p, s, levels - 1, &t);
    const int64_t gs = (int64_t)1 << (levels - 1);
    return move(s, &t, lw_cuda_plane_of(p, Y, levels - 1, 1), t.cols, 1, o, gs * o.rs, gs, st);
}
