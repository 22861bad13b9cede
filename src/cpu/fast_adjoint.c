/* The "adjoint" engine of the cpu backend: one level of LW_FORWARD_ADJOINT
 * or LW_INVERSE_ADJOINT (docs/ADJOINT.md), separable wavelets, in place.
 *
 * Per transformed axis (decreasing for the forward's adjoint, increasing for
 * the inverse's), every line of the level's region is read into a per-thread
 * buffer of doubles, a block of ADJ_BLOCK neighbouring lines at a time (so a
 * strided axis reads whole cache lines), lifted by the transposed steps in
 * gather form (src/core/adjoint_step.h: plain lifting inside the line, the
 * folded boundary terms near its ends) and written back; the Mallat order is
 * undone on reading (forward's adjoint) or made on writing (inverse's
 * adjoint).  Blocks of lines are shared over OpenMP threads; every pass is
 * linear in the level's samples. */
#include "fast_internal.h"

#include "../core/adjoint_step.h"
#include "../core/line_geom.h"

#include <stdlib.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

#define ADJ_BLOCK 16

LW_DEFINE_ADJ_GATHER(adj_gather, double, double, static inline)

/* x[s] += the transposed step (weights times sign) for every source s. */
static void step_transpose(const lw_step *st, double sign, double *x, int64_t n, lw_mode mode)
{
    const int nt = st->ntaps, R = lw_adj_reach(nt, st->offset);
    double wt[LW_MAX_TAPS];
    for (int i = 0; i < nt; i++) wt[i] = sign * st->weight[i];
    int64_t s = !st->target_odd;
    for (; s < n && !lw_adj_interior(s, n, R); s += 2) x[s] += adj_gather(x, 0, n, s, n, mode, nt, st->offset, wt);
    const int64_t hi = n - 1 - R; /* interior: s < hi */
    const int o0 = st->offset[0], o1 = st->offset[1];
    switch (nt) {
    case 1:
        for (; s < hi; s += 2) x[s] += wt[0] * x[s - o0];
        break;
    case 2:
        for (; s < hi; s += 2) x[s] += wt[0] * x[s - o0] + wt[1] * x[s - o1];
        break;
    default:
        for (; s < hi; s += 2) {
            double acc = 0;
            for (int i = 0; i < nt; i++) acc += wt[i] * x[s - st->offset[i]];
            x[s] += acc;
        }
        break;
    }
    for (; s < n; s += 2) x[s] += adj_gather(x, 0, n, s, n, mode, nt, st->offset, wt);
}

/* One level of one line in interleaved order: F^T = P_1^T .. P_n^T Z or
 * F^-T = Z^-1 P_n^-T .. P_1^-T. */
static void line_adjoint(const lw_wavelet_def *w, lw_mode mode, lw_direction dir, double *x, int64_t n)
{
    if (dir == LW_FORWARD_ADJOINT) {
        for (int64_t t = 0; t < n; t++) x[t] *= (t & 1) ? w->zeta_high : w->zeta_low;
        for (int k = w->nsteps - 1; k >= 0; k--) step_transpose(&w->steps[k], 1.0, x, n, mode);
    } else {
        for (int k = 0; k < w->nsteps; k++) step_transpose(&w->steps[k], -1.0, x, n, mode);
        const double il = 1.0 / w->zeta_low, ih = 1.0 / w->zeta_high;
        for (int64_t t = 0; t < n; t++) x[t] *= (t & 1) ? ih : il;
    }
}

static inline int64_t line_base(const lw_lines *L, int64_t l)
{
    int64_t off = 0;
    for (int d = 0; d < L->nd; d++) {
        int64_t q = l / L->dlen[d];
        off += (l - q * L->dlen[d]) * L->dstr[d];
        l = q;
    }
    return off;
}

/* Move a block of nb lines between the array (dtype t) and buf (line j at
 * buf + j * n, interleaved order); mallat: the array holds the line in
 * Mallat order.  Lines of unit stride go line by line, others position by
 * position across the block (neighbouring lines share cache lines). */
static void move_block(char *x, lw_dtype t, const lw_lines *L, const int64_t *base, int nb, double *buf,
                       int mallat, int to_array)
{
    const int64_t n = L->n, ls = L->lstride;
#define ADJ_MOVE(T)                                                                     \
    do {                                                                                \
        T *a = (T *)x;                                                                  \
        if (ls == 1) {                                                                  \
            for (int j = 0; j < nb; j++)                                                \
                for (int64_t i = 0; i < n; i++) {                                       \
                    int64_t p = base[j] + (mallat ? lw_mallat_pos(i, n) : i);           \
                    if (to_array) a[p] = (T)buf[j * n + i];                             \
                    else buf[j * n + i] = (double)a[p];                                 \
                }                                                                       \
        } else {                                                                        \
            for (int64_t i = 0; i < n; i++) {                                           \
                int64_t q = (mallat ? lw_mallat_pos(i, n) : i) * ls;                    \
                for (int j = 0; j < nb; j++) {                                          \
                    if (to_array) a[base[j] + q] = (T)buf[j * n + i];                   \
                    else buf[j * n + i] = (double)a[base[j] + q];                       \
                }                                                                       \
            }                                                                           \
        }                                                                               \
    } while (0)
    if (t == LW_FLOAT32) ADJ_MOVE(float);
    else ADJ_MOVE(double);
#undef ADJ_MOVE
}

int lw_fast_adjoint_applies(const lw_fast_level *lv) { return lv->adjoint && !lv->fsmode; }

size_t lw_fast_adjoint_scratch(const lw_fast_level *lv) { return (void)lv, 0; }

lw_status lw_fast_adjoint_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                              char *scratch, size_t per_thread)
{
    (void)ll, (void)guard, (void)scratch, (void)per_thread;
    const lw_plan *p = lv->plan;
    if (src != dst || lv->fsmode || !lw_dir_adjoint(p->cfg.direction))
        return lw_fail(LW_ERR_INTERNAL, "cpu adjoint engine: runs separable adjoint levels in place only");
    const lw_direction dir = p->cfg.direction;
    const int coarse = lw_dir_coarse_first(dir), mallat = p->cfg.layout == LW_MALLAT;
    const int na = p->geo.naxes;
    int failed = 0;
    for (int ai = 0; ai < na && !failed; ai++) {
        int a = coarse ? na - 1 - ai : ai;
        lw_lines L;
        lw_lines_for(p, lv->level, a, &L);
        if (L.n < 2) continue;
        const int64_t nblk = (L.nlines + ADJ_BLOCK - 1) / ADJ_BLOCK;
        (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1 && nblk > 1) reduction(| : failed)
#endif
        {
            double *buf = malloc((size_t)L.n * ADJ_BLOCK * sizeof(double));
            if (!buf) failed = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
            for (int64_t b = 0; b < nblk; b++) {
                if (!buf) continue;
                int64_t l0 = b * ADJ_BLOCK, base[ADJ_BLOCK];
                int nb = (int)(L.nlines - l0 < ADJ_BLOCK ? L.nlines - l0 : ADJ_BLOCK);
                for (int j = 0; j < nb; j++) base[j] = line_base(&L, l0 + j);
                move_block(dst, p->cfg.dtype, &L, base, nb, buf, mallat && coarse, 0);
                for (int j = 0; j < nb; j++) line_adjoint(p->wav, p->cfg.mode, dir, buf + (size_t)j * L.n, L.n);
                move_block(dst, p->cfg.dtype, &L, base, nb, buf, mallat && !coarse, 1);
            }
            free(buf);
        }
    }
    if (failed) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cpu adjoint engine: cannot allocate line buffers");
    return LW_OK;
}
