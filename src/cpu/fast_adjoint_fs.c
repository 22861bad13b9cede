/* The adjoint of Faber-Schauder over several axes on the cpu backend: one
 * level in place (docs/ADJOINT.md).
 *
 * A forward level adds to every sample t with odd grid coordinates on the
 * axes A the average of its 2^|A| all-even neighbours (t_a -+ 1 on each axis
 * of A, through the boundary mode).  Its transpose, in gather form: every
 * all-even sample e takes sign / 2^|A| times each odd sample t that has e
 * among its neighbours, counted as often as it does.  Per axis those t are
 *     t_a = e_a - 1 (its step +1), t_a = e_a + 1 (its step -1), and where
 *     the line length m is even t_a = m - 1, whose step +1 leaves the line
 *     and comes back at ext(m): m - 2 (symmetric) or 0 (periodic),
 * and the candidates of several axes combine as a product.  All-even
 * samples are written and only odd ones read, so the samples are shared
 * over threads with no order.  The Mallat layout's shuffle is transposed by
 * the line passes of fast_adjoint.c (permutation only). */
#include "fast_internal.h"

#include "../core/line_geom.h"

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

/* Odd coordinates t (with repetition) whose neighbours include even e on a
 * line of length m; returns how many (at most 3). */
static int fold_list(int64_t e, int64_t m, lw_mode mode, int64_t *t)
{
    int c = 0;
    if (e >= 1) t[c++] = e - 1;
    if (e + 1 < m) t[c++] = e + 1;
    if (m >= 2 && !(m & 1) && e == (mode == LW_PERIODIC ? 0 : m - 2)) t[c++] = m - 1;
    return c;
}

/* The transposed level: every all-even sample of the region += sign times
 * its gathered sum. */
static lw_status level_transpose(const lw_plan *p, int k, char *x, int threads, double sign)
{
    const lw_geometry *g = &p->geo;
    const int na = g->naxes;
    const int64_t gs = lw_grid_step(p, k);
    int64_t m[LW_MAX_AXES], ne[LW_MAX_AXES], st[LW_MAX_AXES];
    int64_t count = 1;
    for (int a = 0; a < na; a++) {
        m[a] = g->len[k][a];
        ne[a] = (m[a] + 1) / 2;
        st[a] = gs * g->strides[g->axes[a]];
        count *= ne[a];
    }
    int nb = 0;
    int64_t bl[LW_MAX_RANK], bs[LW_MAX_RANK];
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) bl[nb] = g->shape[i], bs[nb] = g->strides[i], nb++, count *= g->shape[i];
    const int f32 = p->cfg.dtype == LW_FLOAT32;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && count > 4096) schedule(static)
#endif
    for (int64_t l = 0; l < count; l++) {
        int64_t r = l, off = 0, e[LW_MAX_AXES];
        for (int a = na - 1; a >= 0; a--) {
            e[a] = 2 * (r % ne[a]);
            r /= ne[a];
            off += e[a] * st[a];
        }
        for (int b = nb - 1; b >= 0; b--) {
            off += (r % bl[b]) * bs[b];
            r /= bl[b];
        }
        int64_t cand[LW_MAX_AXES][3];
        int nc[LW_MAX_AXES];
        for (int a = 0; a < na; a++) nc[a] = fold_list(e[a], m[a], p->cfg.mode, cand[a]);
        double total = 0;
        for (unsigned mask = 1; mask < (1u << na); mask++) {
            /* the product of the candidate lists of the axes in mask */
            int idx[LW_MAX_AXES] = {0, 0, 0}, nodd = 0, empty = 0;
            for (int a = 0; a < na; a++)
                if (mask & (1u << a)) nodd++, empty |= nc[a] == 0;
            if (empty) continue;
            double acc = 0;
            for (;;) {
                int64_t o = off;
                for (int a = 0; a < na; a++)
                    if (mask & (1u << a)) o += (cand[a][idx[a]] - e[a]) * st[a];
                acc += f32 ? (double)((const float *)x)[o] : ((const double *)x)[o];
                int a = 0;
                for (; a < na; a++) {
                    if (!(mask & (1u << a))) continue;
                    if (++idx[a] < nc[a]) break;
                    idx[a] = 0;
                }
                if (a == na) break;
            }
            total += acc / (double)(1 << nodd);
        }
        if (f32) ((float *)x)[off] = (float)((double)((float *)x)[off] + sign * total);
        else ((double *)x)[off] += sign * total;
    }
    return LW_OK;
}

lw_status lw_fast_adjoint_fs_level(const lw_plan *p, int k, char *x, int threads)
{
    const int mallat = p->cfg.layout == LW_MALLAT, na = p->geo.naxes;
    if (p->cfg.direction == LW_FORWARD_ADJOINT) { /* the forward: predict, then shuffle */
        for (int a = 0; a < na && mallat; a++) LW_TRY(lw_fast_adjoint_axis(p, k, a, x, threads, 1, 0, 0));
        return level_transpose(p, k, x, threads, -1.0);
    }
    LW_TRY(level_transpose(p, k, x, threads, 1.0)); /* the inverse: unshuffle, then undo the predict */
    for (int a = 0; a < na && mallat; a++) LW_TRY(lw_fast_adjoint_axis(p, k, a, x, threads, 0, 1, 0));
    return LW_OK;
}
