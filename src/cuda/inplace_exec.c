/* The generic path's passes (and so every engine's in place): lines that
 * fit a block's shared memory whole by the line kernels (k_lines.cu) or the
 * column pass; in place, a pass whose lines do not fit walks them
 * (lwk_walk_launch: interleaved order, a small stash of chunk-edge
 * originals) and, in the Mallat layout, reorders them by cycles
 * (lwk_permute_launch) from leaders made here once per plan, or found by the
 * kernel where a line's cycles are many and short, or, where they are few
 * and long, along the cycles cut in pieces (lwk_permute_cut_launch).  Device
 * memory: the stash (the plan's scratch), the leaders or pieces and the
 * pieces' saved samples, far below 1% of the array for any line long enough
 * to need them. */
#include "cuda_exec.h"
#include "core/cycles.h"

#include <stdlib.h>
#include <string.h>

static void pass_of(const lw_plan *p, const lw_cuda_sched *s, int k, int a, lwk_pass *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->w = s->w;
    lw_lines_for(p, k, a, &ps->L);
    ps->mode = (int)p->cfg.mode;
    ps->adjoint = lw_dir_adjoint(p->cfg.direction);
}

int lw_cuda_pass_whole(const lw_cuda_sched *s, const lwk_pass *ps)
{
    return !ps->copy_only && (lwk_lines_ok(s->dtype, ps) || lwk_colpass_ok(s->dtype, ps));
}

lw_status lw_cuda_whole_pass(const lw_cuda_sched *s, const lwk_pass *ps, const void *src, void *dst, cudaStream_t st)
{
    if (lwk_lines_ok(s->dtype, ps))
        CK(lwk_lines_launch(s->dtype, ps, src, dst, st), "cuda line pass launch");
    else
        CK(lwk_colpass_launch(s->dtype, ps, src, dst, st), "cuda column pass launch");
    return LW_OK;
}

int lw_cuda_passes_whole(const lw_plan *p, const lw_cuda_sched *s)
{
    const int inv = lw_dir_coarse_first(p->cfg.direction);
    for (int k = 0; k < p->geo.levels; k++)
        for (int a = 0; a < p->geo.naxes; a++) {
            lwk_pass ps;
            lwk_planes pl;
            pass_of(p, s, k, a, &ps);
            if (ps.L.n >= 2 && !lw_cuda_pass_whole(s, &ps) &&
                !lw_cuda_axis_plane_of(p, s, &ps.L, &s->w, inv, NULL, NULL, &pl))
                return 0;
        }
    return 1;
}

int lw_cuda_planes_of(const lw_plan *p, const lw_cuda_sched *s, int k, int ai, const lwk_wave *w, int inverse,
                     const void *src, const void *dst, lwk_planes *pl)
{
    const lw_geometry *g = &p->geo;
    if (p->tune.planes == 1 || lw_dir_adjoint(p->cfg.direction) || ai + 1 >= g->naxes) return 0;
    const int a1 = inverse ? g->naxes - 1 - ai : ai, a2 = inverse ? a1 - 1 : a1 + 1;
    const int64_t gs = lw_grid_step(p, k);
    const int x = g->strides[g->axes[a1]] < g->strides[g->axes[a2]] ? a1 : a2, y = x == a1 ? a2 : a1;
    memset(pl, 0, sizeof *pl);
    pl->w = *w;
    pl->nr = g->len[k][y], pl->nc = g->len[k][x];
    pl->rs = gs * g->strides[g->axes[y]], pl->cs = gs * g->strides[g->axes[x]];
    if (pl->cs != 1) return 0; /* rows of contiguous samples */
    /* the planes: the dimensions of the lines along X but Y's, fastest first */
    lw_lines L;
    int y_seen = 0;
    lw_lines_for(p, k, x, &L);
    pl->nplanes = 1;
    for (int i = 0; i < L.nd; i++) {
        if (L.dlen[i] == 1) continue;
        if (!y_seen && L.dlen[i] == pl->nr && L.dstr[i] == pl->rs) {
            y_seen = 1;
            continue;
        }
        pl->dlen[pl->nd] = L.dlen[i], pl->dstr[pl->nd] = L.dstr[i], pl->nd++;
        pl->nplanes *= L.dlen[i];
    }
    pl->mode = (int)p->cfg.mode, pl->inverse = inverse, pl->mallat = p->cfg.layout == LW_MALLAT, pl->xfirst = x == a1;
    return lwk_plane_ok(s->dtype, pl, src, dst);
}

int lw_cuda_axis_plane_of(const lw_plan *p, const lw_cuda_sched *s, const lw_lines *L, const lwk_wave *w,
                          int inverse, const void *src, const void *dst, lwk_planes *pl)
{
    if (p->tune.planes == 1 || lw_dir_adjoint(p->cfg.direction)) return 0;
    memset(pl, 0, sizeof *pl);
    pl->w = *w;
    pl->nr = L->n, pl->rs = L->lstride, pl->cs = 1, pl->yonly = 1;
    /* X: the dimension of contiguous samples (none when a's own lines are),
     * cut in strips where a band of its rows would not fit a block (the
     * strips first among the planes: neighbouring clusters, neighbouring
     * strips) */
    int64_t ncx = 0;
    for (int i = 0; i < L->nd; i++)
        if (L->dlen[i] > 1 && L->dstr[i] == 1) ncx = L->dlen[i];
    if (ncx < 32) return 0; /* rows narrower than a warp: the line passes */
    pl->nc = lwk_plane_strip(s->dtype, pl->nr, ncx);
    if (!pl->nc) return 0;
    if (pl->nc < ncx) pl->dlen[0] = ncx / pl->nc, pl->dstr[0] = pl->nc, pl->nd = 1;
    for (int i = 0, seen = 0; i < L->nd; i++) {
        if (L->dlen[i] == 1) continue;
        if (!seen && L->dstr[i] == 1) {
            seen = 1;
            continue;
        }
        pl->dlen[pl->nd] = L->dlen[i], pl->dstr[pl->nd] = L->dstr[i], pl->nd++;
    }
    pl->nplanes = 1;
    for (int i = 0; i < pl->nd; i++) pl->nplanes *= pl->dlen[i];
    pl->mode = (int)p->cfg.mode, pl->inverse = inverse, pl->mallat = p->cfg.layout == LW_MALLAT;
    return lwk_plane_ok(s->dtype, pl, src, dst);
}

int lw_cuda_plane_levels(const lw_plan *p, const lw_cuda_sched *s, int *axis_passes)
{
    const lw_geometry *g = &p->geo;
    const int inv = lw_dir_coarse_first(p->cfg.direction);
    int n = 0, na = 0;
    for (int k = 0; k < g->levels; k++) {
        int any = 0;
        /* pass_level's order: two axes as one plane pass where one applies,
         * else the axis alone */
        for (int ai = 0; ai < g->naxes; ai++) {
            lwk_planes pl;
            lw_lines L;
            const int a = inv ? g->naxes - 1 - ai : ai;
            if (lw_cuda_planes_of(p, s, k, ai, &s->w, inv, NULL, NULL, &pl)) {
                any = 1, ai++;
                continue;
            }
            lw_lines_for(p, k, a, &L);
            na += L.n >= 2 && lw_cuda_axis_plane_of(p, s, &L, &s->w, inv, NULL, NULL, &pl);
        }
        n += any;
    }
    if (axis_passes) *axis_passes = na;
    return n;
}

void lw_cuda_reorder_counts(const lw_plan *p, const lw_cuda_sched *s, int n[LW_REORDER_KINDS])
{
    const lw_geometry *g = &p->geo;
    const int inv = lw_dir_coarse_first(p->cfg.direction);
    memset(n, 0, LW_REORDER_KINDS * sizeof *n);
    for (int k = 0; k < g->levels; k++)
        for (int ai = 0; ai < g->naxes; ai++) { /* pass_level's order, as lw_cuda_plane_levels */
            lwk_planes pl;
            lw_lines L;
            const int a = inv ? g->naxes - 1 - ai : ai;
            if (lw_cuda_planes_of(p, s, k, ai, &s->w, inv, NULL, NULL, &pl)) {
                ai++;
                continue;
            }
            lw_lines_for(p, k, a, &L);
            if (!s->lead_n[k][a] || lw_cuda_axis_plane_of(p, s, &L, &s->w, inv, NULL, NULL, &pl)) continue;
            n[s->lead_kind[k][a]]++;
        }
}

int lw_cuda_pass_walks(const lw_cuda_sched *s, const lwk_pass *ps)
{
    return ps->L.n >= 2 && !lw_cuda_pass_whole(s, ps) && lwk_pass_segments(s->dtype, ps) > 1;
}

/* The longest piece of a cycle the line reorder walks for lines of n samples
 * (nlines of them, esize bytes a sample).  A walker a cycle runs a chain of
 * dependent batches as long as its cycle (1000003 samples: two cycles, one of
 * 1000002), so where a cycle is longer than the piece, the cycles are cut in
 * pieces of at most that many positions.  Tuning reorder_piece sets it;
 * auto: 1024 (64 batches of PERM_BATCH), halved down to 128 while the
 * walkers are fewer than 65536 and the pieces' table (16 bytes a piece) and
 * saved samples (one a piece and line) stay within 1/256 of the lines or
 * 256 KiB. */
static int64_t reorder_piece(int64_t n, int64_t nlines, size_t esize)
{
    const int64_t room = (int64_t)((size_t)(n * nlines) * esize / 256), cap = (int64_t)256 << 10;
    int64_t piece = 1024, np = lw_mallat_cycle_pieces(n, piece, NULL, 0);
    while (piece > 128 && np >= 0 && np * nlines < 65536) {
        const int64_t half = lw_mallat_cycle_pieces(n, piece / 2, NULL, 0);
        const int64_t bytes = half * (16 + nlines * (int64_t)esize);
        if (half < 0 || (bytes > room && bytes > cap)) break;
        piece /= 2, np = half;
    }
    return piece;
}

lw_status lw_cuda_walk_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    const int mallat = p->cfg.layout == LW_MALLAT;
    int64_t total = 0;
    s->walk_stash = 0;
    for (int k = 0; k < g->levels; k++)
        for (int a = 0; a < g->naxes; a++) {
            lwk_pass ps;
            pass_of(p, s, k, a, &ps);
            s->lead_n[k][a] = 0, s->lead_kind[k][a] = LW_REORDER_TABLE;
            if (!lw_cuda_pass_walks(s, &ps)) continue;
            size_t st = lwk_walk_stash_bytes(s->dtype, &ps);
            if (st > s->walk_stash) s->walk_stash = st;
            if (!mallat) continue;
            const int64_t longest = lw_mallat_cycle_longest(ps.L.n);
            const int64_t piece = p->tune.reorder_piece > 0 ? p->tune.reorder_piece
                                  : longest > 128            ? reorder_piece(ps.L.n, ps.L.nlines, s->esize)
                                                             : longest;
            const int cut = longest > piece;
            int64_t c = longest < 0 ? -1
                        : cut       ? lw_mallat_cycle_pieces(ps.L.n, piece, NULL, 0)
                                    : lw_mallat_cycle_leaders(ps.L.n, NULL, 0);
            if (c < 0) return lw_fail(LW_ERR_UNSUPPORTED, "cuda: lines of %lld samples are too long to reorder in place",
                                      (long long)ps.L.n);
            /* many short cycles (2^j samples: about n / j of them): the
             * kernel finds the leaders rather than read a table this long */
            const int found = !cut && (size_t)c * sizeof(int32_t) > (size_t)(ps.L.n * ps.L.nlines) * s->esize / 256;
            s->lead_kind[k][a] = cut ? LW_REORDER_CUT : found ? LW_REORDER_FOUND : LW_REORDER_TABLE;
            s->lead_off[k][a] = total, s->lead_n[k][a] = c, s->lead_piece[k][a] = piece;
            total += cut ? 4 * c : found ? 0 : c;
            const size_t saved = cut ? (size_t)(c * ps.L.nlines) * s->esize : 0; /* shares the stash's scratch */
            if (saved > s->walk_stash) s->walk_stash = saved;
        }
    if (!total) return LW_OK;
    int32_t *h = malloc((size_t)total * sizeof *h);
    if (!h) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %lld cycle leaders", (long long)total);
    for (int k = 0; k < g->levels; k++)
        for (int a = 0; a < g->naxes; a++)
            if (s->lead_n[k][a] && s->lead_kind[k][a] == LW_REORDER_CUT)
                lw_mallat_cycle_pieces(g->len[k][a], s->lead_piece[k][a], h + s->lead_off[k][a], s->lead_n[k][a]);
            else if (s->lead_n[k][a] && s->lead_kind[k][a] == LW_REORDER_TABLE)
                lw_mallat_cycle_leaders(g->len[k][a], h + s->lead_off[k][a], s->lead_n[k][a]);
    s->leaders_bytes = (size_t)total * sizeof *h;
    lw_status st = lw_cuda_check(cudaMalloc((void **)&s->d_leaders, s->leaders_bytes), "cudaMalloc (cycle leaders)");
    if (st == LW_OK)
        st = lw_cuda_check(cudaMemcpy(s->d_leaders, h, s->leaders_bytes, cudaMemcpyHostToDevice), "cudaMemcpy (cycle leaders)");
    free(h);
    if (st != LW_OK) lw_cuda_sched_release(s);
    return st;
}

void lw_cuda_sched_release(lw_cuda_sched *s)
{
    if (s->d_leaders) cudaFree(s->d_leaders);
    s->d_leaders = NULL, s->leaders_bytes = 0;
    lw_ip2d_release(s);
    lw_line1d_release(s);
    lw_tile2d_streams_release(s);
}

/* The Mallat reorder of level k's lines along axis a, the way the plan chose
 * (lw_reorder_kind; the pieces' saved samples in the scratch, before or after
 * the walk that uses it) */
static lw_status reorder_lines(const lw_cuda_sched *s, int k, int a, const lwk_pass *ps, int inverse, void *data,
                               void *scratch, cudaStream_t st)
{
    const int32_t *lead = s->d_leaders ? s->d_leaders + s->lead_off[k][a] : NULL;
    if (s->lead_kind[k][a] == LW_REORDER_CUT)
        CK(lwk_permute_cut_launch(s->dtype, &ps->L, lead, s->lead_n[k][a], inverse, data, scratch, st),
           "cuda reorder kernel launch");
    else /* LW_REORDER_FOUND: no table, the kernel finds the leaders */
        CK(lwk_permute_launch(s->dtype, &ps->L, s->lead_kind[k][a] == LW_REORDER_FOUND ? NULL : lead, s->lead_n[k][a],
                              inverse, data, st),
           "cuda reorder kernel launch");
    return LW_OK;
}

lw_status lw_cuda_walk_pass(const lw_cuda_sched *s, int k, int a, const lwk_pass *ps, void *data, void *stash,
                            cudaStream_t st)
{
    lwk_pass q = *ps;
    const int reorder = ps->mallat && !ps->copy_only;
    q.mallat = 0;
    if (reorder && ps->inverse) /* coefficients in Mallat order back to their sample positions first */
        LW_TRY(reorder_lines(s, k, a, ps, 1, data, stash, st));
    CK(lwk_walk_launch(s->dtype, &q, data, stash, st), "cuda in-place pass launch");
    if (reorder && !ps->inverse) LW_TRY(reorder_lines(s, k, a, ps, 0, data, stash, st));
    return LW_OK;
}
