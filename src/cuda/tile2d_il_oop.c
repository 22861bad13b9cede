/* The interleaved layout out of place by the fused 2-D tiles (k_tile2d_il.cu),
 * each tile and its halo read once, no neighbour to wait for:
 *   - one level (forward or inverse): the tiles from in to out;
 *   - a forward pyramid: level 1 by the tiles with its even rows kept apart
 *     (lwk_tile2d_il_split: the odd rows whole to out, the even rows' lowpass
 *     X and details D compact), levels 2.. on X by a Mallat plan of its own
 *     (the fused 2-D engine and its small-engine tail) into M, then the even
 *     rows of out written whole from M and D (k_il_merge.cu: M's coefficients
 *     back to their interleaved places).  Every sector of out is written once.
 *     Workspace X, D and M, a quarter of the array each, and the Mallat plan's
 *     (its lowpass bands, a sixteenth and a sixty-fourth);
 *   - an inverse pyramid, the reverse: the coefficients of the even rows and
 *     columns gathered to their Mallat places M (lwk_il_gather_launch), levels
 *     L..2 by a Mallat inverse plan from M to X, then level 1 by the tiles
 *     with X for its lowpass samples (lwk_tile2d_il_join).  Workspace X and M.
 * With tuning il_compact=0 a forward pyramid's levels 2.. and an inverse
 * pyramid's every level run in place on out (tile2d_inplace.c). */
#include "cuda_exec.h"
#include "ooc_cuda.h"
#include "tile2d_il.h"

#include <stdint.h>
#include <string.h>

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

int lw_il_oop_levels(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (p->cfg.layout != LW_INTERLEAVED || g->naxes != 2 || !p->wav->separable || lw_dir_adjoint(p->cfg.direction))
        return 0;
    if (g->strides[g->axes[1]] != 1) return 0;
    int nb = 0; /* at most two batch dimensions (the kernels' planes) */
    for (int i = 0; i < g->rank; i++) nb += !lw_geo_is_axis(g, i);
    if (nb > 2 || !lwk_tile2d_il_supported(s->dtype, &s->w, (int)p->cfg.mode, g->len[0][0], g->len[0][1])) return 0;
    if (p->tune.il_compact && g->levels - 1 <= LWK_MERGE_MAXLEV) return g->levels;
    /* else one level: a forward's first, or a one-level inverse (an inverse pyramid's level 1 comes last) */
    return p->cfg.direction == LW_FORWARD || g->levels == 1;
}

/* one of X, D, M: the level-1 lowpass grid of every item */
static size_t part_bytes(const lw_plan *p, const lw_cuda_sched *s)
{
    const int64_t *n = p->geo.len[1];
    return align256((size_t)(s->nbatch * n[0] * n[1]) * s->esize);
}

lw_status lw_il_oop_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    s->il_sub = NULL;
    s->ip2d_oop_fused = lw_il_oop_levels(p, s);
    /* a plan that runs in place only needs no pyramid plan: its level 1 alone is the route's */
    if (p->cfg.flags & LW_FLAG_IN_PLACE && s->ip2d_oop_fused > 1) s->ip2d_oop_fused = p->cfg.direction == LW_FORWARD;
    if (s->ip2d_oop_fused < 2) return LW_OK;
    lw_config c;
    lw_config_init(&c);
    c.dtype = p->cfg.dtype, c.wavelet = p->cfg.wavelet, c.mode = p->cfg.mode, c.direction = p->cfg.direction;
    c.gain[0] = p->cfg.gain[0], c.gain[1] = p->cfg.gain[1];
    c.backend = LW_BACKEND_CUDA, c.tuning = p->tuning;
    /* the compact grids: the batch dimensions in order, then the level-1 lowpass grid */
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) c.shape[c.rank++] = g->shape[i];
    c.shape[c.rank++] = g->len[1][0], c.shape[c.rank++] = g->len[1][1];
    c.naxes = 2, c.axes[0] = c.rank - 2, c.axes[1] = c.rank - 1;
    c.layout = LW_MALLAT, c.levels = g->levels - 1;
    /* not LW_FLAG_DESTROY_INPUT: its lowpass bands inside X would run level 1 in row bands or plane groups, many
     * launches (192 planes of 256^2: 85 us against about 35 for one launch a level) */
    c.flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_EXTERNAL_SCRATCH;
    /* the plan's wavelet as it runs it (its gains folded in, or a periodic adjoint's transposed steps) */
    lw_plan *sub = NULL;
    const lw_status st = lw_plan_create_with(&sub, &c, p->wav);
    if (st != LW_OK) return st;
    s->il_sub = sub;
    s->il_sub_scratch = lw_cuda_sub_scratch(sub);
    return LW_OK;
}

void lw_il_oop_release(lw_cuda_sched *s)
{
    lw_destroy(s->il_sub);
    s->il_sub = NULL;
}

size_t lw_il_oop_bytes(const lw_plan *p, const lw_cuda_sched *s)
{
    /* X, D and M forward; X and M inverse */
    return s->il_sub ? (p->cfg.direction == LW_FORWARD ? 3 : 2) * part_bytes(p, s) + s->il_sub_scratch : 0;
}

/* the in-place kernels' workspace for the levels the route leaves them */
static size_t left_bytes(const lw_cuda_sched *s)
{
    return s->ip2d_oop_tile && s->ip2d_tile_bytes > s->ip2d_bytes ? s->ip2d_tile_bytes : s->ip2d_bytes;
}

void lw_il_oop_scratch(const lw_plan *p, lw_cuda_sched *s)
{
    if (p->geo.levels > s->ip2d_oop_fused) s->scratch = left_bytes(s);
    if (lw_il_oop_bytes(p, s) > s->scratch) s->scratch = lw_il_oop_bytes(p, s);
}

/* Without the pyramid route a forward runs level 1 by the tiles and the rest
 * in place on out, an inverse every level in place on out: possible where
 * the in-place kernels run every level (the walker, or the tile kernel). */
size_t lw_il_oop_fallback_bytes(const lw_cuda_sched *s)
{
    return s->il_sub && (s->ip2d_walk || s->ip2d_tile_bytes) ? left_bytes(s) : SIZE_MAX;
}

int lw_il_oop_drop(const lw_plan *p, lw_cuda_sched *s)
{
    if (lw_il_oop_fallback_bytes(s) == SIZE_MAX) return 0;
    lw_il_oop_release(s);
    s->ip2d_oop_fused = p->cfg.direction == LW_FORWARD;
    lw_il_oop_scratch(p, s);
    return 1;
}

lw_status lw_il_oop_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st)
{
    const lw_geometry *g = &p->geo;
    const int inv = p->cfg.direction == LW_INVERSE;
    lwk_tile2d t;
    lw_cuda_tile_setup(p, s, 0, &t);
    const lwk_plane src = lw_cuda_plane_of(p, in, 0, 0), dst = lw_cuda_plane_of(p, out, 0, 0);
    if (!s->il_sub) {
        CK(lwk_tile2d_il(s->dtype, inv, &t, src, dst, st), "cuda tile2d kernel launch (interleaved)");
        return LW_OK;
    }
    const size_t part = part_bytes(p, s);
    /* the Mallat places of the lowpass grid's coefficients (lwk_il_merge), the interleaved plane's as dst's
     * (forward) or src's (inverse) */
    lwk_il_merge m;
    memset(&m, 0, sizeof m);
    const lwk_plane *il = inv ? &src : &dst;
    m.rows = g->len[0][0], m.cols = g->len[0][1], m.hr = g->len[1][0], m.hc = g->len[1][1];
    m.ors = il->rs, m.obs[0] = il->bs[0], m.obs[1] = il->bs[1], m.blen[0] = t.blen[0], m.blen[1] = t.blen[1];
    m.levels = g->levels - 1;
    for (int k = 0; k < m.levels; k++) m.lens[k][0] = g->len[k + 1][0], m.lens[k][1] = g->len[k + 1][1];
    if (inv) { /* levels L..2 on the gathered lowpass grid M into X, then level 1 with X for its lowpass */
        char *X = scratch, *M = X + part;
        CK(lwk_il_gather_launch(s->dtype, &m, in, M, st), "cuda interleaved gather launch");
        LW_TRY(lw_cuda_run_sub(s->il_sub, M, X, M + part, st));
        CK(lwk_tile2d_il_join(s->dtype, &t, src, lw_cuda_plane_of(p, X, 1, 1), dst, st),
           "cuda tile2d kernel launch (interleaved, joined)");
        return LW_OK;
    }
    char *X = scratch, *D = X + part, *M = D + part;
    lwk_plane even = lw_cuda_plane_of(p, X, 1, 1);
    even.off[0] = (int64_t)(part / s->esize);
    CK(lwk_tile2d_il_split(s->dtype, &t, src, dst, even, st), "cuda tile2d kernel launch (interleaved, split)");
    LW_TRY(lw_cuda_run_sub(s->il_sub, X, M, M + part, st));
    CK(lwk_il_merge_launch(s->dtype, &m, M, D, out, st), "cuda interleaved merge launch");
    return LW_OK;
}
