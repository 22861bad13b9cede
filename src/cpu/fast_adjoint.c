/* The "adjoint" engine of the cpu backend: one level of LW_FORWARD_ADJOINT
 * or LW_INVERSE_ADJOINT (docs/ADJOINT.md), in place; separable wavelets here,
 * Faber-Schauder over several axes in fast_adjoint_fs.c.
 *
 * Per transformed axis (decreasing for the forward's adjoint, increasing for
 * the inverse's), the lines of the level's region are read in blocks into a
 * per-thread buffer of doubles, lifted by the transposed steps in gather form
 * (src/core/adjoint_step.h: plain lifting inside the line, the folded
 * boundary terms near its ends) and written back.  Two layouts of a block:
 *   rows   lines of unit stride, each held split (even samples, then odd
 *          ones: the Mallat order), the steps as contiguous loops over the
 *          halves;
 *   lanes  strided lines, ADJ_LANES neighbouring ones position by position
 *          (row i holds sample i of every line: whole cache lines read, the
 *          steps as vector operations across the lines).
 * Blocks are shared over OpenMP threads; every pass is linear in the level's
 * samples. */
#include "fast_internal.h"

#include "../core/adjoint_step.h"
#include "../core/line_geom.h"

#include <stdlib.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

#define ADJ_BLOCK 16 /* lines of a rows block */
#define ADJ_LANES 32 /* lines of a lanes block */

LW_DEFINE_ADJ_GATHER(adj_gather, double, double, static inline, LW_ADJ_SPLIT)
LW_DEFINE_ADJ_GATHER(adj_gather_lane, double, double, static inline, LW_ADJ_STRIDED)

/* d[j] += w * a[j] (and + w1 * b[j]) over the halves of a split line: the
 * source half d and the target half a, b never overlap. */
static inline void half_axpy(double *restrict d, const double *restrict a, double w, int64_t n)
{
    for (int64_t j = 0; j < n; j++) d[j] += w * a[j];
}

static inline void half_axpy2(double *restrict d, const double *restrict a, const double *restrict b, double w0,
                              double w1, int64_t n)
{
    for (int64_t j = 0; j < n; j++) d[j] += w0 * a[j] + w1 * b[j];
}

/* One transposed step (weights times sign) on a line held split: even
 * samples in lo[0, h), odd ones in hi[0, n - h).  Sources s of the other
 * parity than the step's targets: inside the line s += sum_i w_i x[s - o_i]
 * as contiguous loops over the halves, near the ends the folded sum. */
static void step_transpose(const lw_step *st, double sign, double *lo, double *hi, int64_t n, lw_mode mode)
{
    const int nt = st->ntaps, R = lw_adj_reach(nt, st->offset);
    const int64_t h = (n + 1) / 2;
    double wt[LW_MAX_TAPS];
    int sh[LW_MAX_TAPS];
    for (int i = 0; i < nt; i++) wt[i] = sign * st->weight[i];
    const int par = !st->target_odd; /* parity of the sources */
    double *dst = par ? hi : lo;
    const double *src = par ? lo : hi;
    /* source s = 2j + par reads target 2j + par - o = 2(j + sh) + (1 - par) */
    for (int i = 0; i < nt; i++) sh[i] = (par - st->offset[i] - (1 - par)) / 2;
    int64_t j = 0, s = par;
    for (; s < n && !lw_adj_interior(s, n, R); s += 2, j++)
        dst[j] += adj_gather(lo, 0, h, s, n, mode, nt, st->offset, wt);
    int64_t jend = j;
    while (2 * jend + par < n - 1 - R) jend++; /* interior sources: j < jend */
    if (j < jend) {
        if (nt == 2) {
            half_axpy2(dst + j, src + j + sh[0], src + j + sh[1], wt[0], wt[1], jend - j);
        } else {
            for (int i = 0; i < nt; i++) half_axpy(dst + j, src + j + sh[i], wt[i], jend - j);
        }
        j = jend;
    }
    for (s = 2 * j + par; s < n; s += 2, j++) dst[j] += adj_gather(lo, 0, h, s, n, mode, nt, st->offset, wt);
}

/* One level of one line held split (lo: the h = ceil(n/2) even samples, then
 * the odd ones): F^T = P_1^T .. P_n^T Z or F^-T = Z^-1 P_n^-T .. P_1^-T. */
static void line_adjoint(const lw_wavelet_def *w, lw_mode mode, lw_direction dir, double *lo, int64_t n)
{
    const int64_t h = (n + 1) / 2;
    double *hi = lo + h;
    if (dir == LW_FORWARD_ADJOINT) {
        for (int64_t j = 0; j < h; j++) lo[j] *= w->zeta_low;
        for (int64_t j = 0; j < n - h; j++) hi[j] *= w->zeta_high;
        for (int k = w->nsteps - 1; k >= 0; k--) step_transpose(&w->steps[k], 1.0, lo, hi, n, mode);
    } else {
        for (int k = 0; k < w->nsteps; k++) step_transpose(&w->steps[k], -1.0, lo, hi, n, mode);
        const double il = 1.0 / w->zeta_low, ih = 1.0 / w->zeta_high;
        for (int64_t j = 0; j < h; j++) lo[j] *= il;
        for (int64_t j = 0; j < n - h; j++) hi[j] *= ih;
    }
}

/* d[j] += w * a[j]: rows of a lanes block (distinct rows: no overlap). */
static inline void row_axpy(double *restrict d, const double *restrict a, double w, int nl)
{
    for (int j = 0; j < nl; j++) d[j] += w * a[j];
}

/* One transposed step on a lanes block: nl lines, sample i of line j at
 * x[i * nl + j]. */
static void lanes_step(const lw_step *st, double sign, double *x, int64_t n, int nl, lw_mode mode)
{
    const int nt = st->ntaps, R = lw_adj_reach(nt, st->offset);
    double wt[LW_MAX_TAPS];
    for (int i = 0; i < nt; i++) wt[i] = sign * st->weight[i];
    for (int64_t s = !st->target_odd; s < n; s += 2) {
        double *d = x + s * nl;
        if (lw_adj_interior(s, n, R)) {
            for (int i = 0; i < nt; i++) row_axpy(d, x + (s - st->offset[i]) * nl, wt[i], nl);
        } else {
            for (int j = 0; j < nl; j++) d[j] += adj_gather_lane(x + j, 0, nl, s, n, mode, nt, st->offset, wt);
        }
    }
}

static void lanes_scale(double *x, int64_t n, int nl, double fl, double fh)
{
    for (int64_t s = 0; s < n; s++) {
        const double f = (s & 1) ? fh : fl;
        for (int j = 0; j < nl; j++) x[s * nl + j] *= f;
    }
}

static void lanes_adjoint(const lw_wavelet_def *w, lw_mode mode, lw_direction dir, double *x, int64_t n, int nl)
{
    if (dir == LW_FORWARD_ADJOINT) {
        lanes_scale(x, n, nl, w->zeta_low, w->zeta_high);
        for (int k = w->nsteps - 1; k >= 0; k--) lanes_step(&w->steps[k], 1.0, x, n, nl, mode);
    } else {
        for (int k = 0; k < w->nsteps; k++) lanes_step(&w->steps[k], -1.0, x, n, nl, mode);
        lanes_scale(x, n, nl, 1.0 / w->zeta_low, 1.0 / w->zeta_high);
    }
}

/* Move a lanes block between the array and buf; mallat: the array holds the
 * lines in Mallat order (buf: interleaved). */
static void move_lanes(char *x, lw_dtype t, const lw_lines *L, const int64_t *base, int nl, double *buf, int mallat,
                       int to_array)
{
    const int64_t n = L->n, ls = L->lstride, h = (n + 1) / 2;
    const int dense = base[nl - 1] - base[0] == nl - 1; /* neighbouring lines side by side */
#define ADJ_MOVE(T)                                                                     \
    do {                                                                                \
        T *a = (T *)x;                                                                  \
        for (int64_t i = 0; i < n; i++) {                                               \
            int64_t q = (mallat ? ((i & 1) ? h + (i >> 1) : (i >> 1)) : i) * ls;        \
            double *r = buf + i * nl;                                                   \
            T *c = a + base[0] + q;                                                     \
            if (dense && to_array)                                                      \
                for (int j = 0; j < nl; j++) c[j] = (T)r[j];                            \
            else if (dense)                                                             \
                for (int j = 0; j < nl; j++) r[j] = (double)c[j];                       \
            else if (to_array)                                                          \
                for (int j = 0; j < nl; j++) a[base[j] + q] = (T)r[j];                  \
            else                                                                        \
                for (int j = 0; j < nl; j++) r[j] = (double)a[base[j] + q];             \
        }                                                                               \
    } while (0)
    if (t == LW_FLOAT32) ADJ_MOVE(float);
    else ADJ_MOVE(double);
#undef ADJ_MOVE
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

/* Line pitch of the buffer: n rounded up, plus a cache line, so that the
 * lines of a block do not fall on one cache set (a pitch of a multiple of
 * 4 KiB made the strided moves 10x slower). */
static inline int64_t pitch_of(int64_t n) { return ((n + 7) & ~(int64_t)7) + 8; }

/* Move a rows block of nb lines of unit stride between the array (dtype t)
 * and buf (line j at buf + j * pitch_of(n), held split: even samples, then
 * odd ones, which is the Mallat order); mallat: the array holds the line in
 * Mallat order too, else interleaved. */
static void move_rows(char *x, lw_dtype t, const lw_lines *L, const int64_t *base, int nb, double *buf, int mallat,
                      int to_array)
{
    const int64_t n = L->n, h = (n + 1) / 2, P = pitch_of(n);
#define ADJ_MOVE(T)                                                                     \
    do {                                                                                \
        T *a = (T *)x;                                                                  \
        for (int j = 0; j < nb; j++) {                                                  \
            T *row = a + base[j];                                                       \
            double *lo = buf + j * P, *hi = lo + h;                                     \
            if (mallat && to_array)                                                     \
                for (int64_t i = 0; i < n; i++) row[i] = (T)lo[i];                      \
            else if (mallat)                                                            \
                for (int64_t i = 0; i < n; i++) lo[i] = (double)row[i];                 \
            else if (to_array) {                                                        \
                for (int64_t q = 0; q < n / 2; q++)                                     \
                    row[2 * q] = (T)lo[q], row[2 * q + 1] = (T)hi[q];                   \
                if (n & 1) row[n - 1] = (T)lo[n / 2];                                   \
            } else {                                                                    \
                for (int64_t q = 0; q < n / 2; q++)                                     \
                    lo[q] = (double)row[2 * q], hi[q] = (double)row[2 * q + 1];         \
                if (n & 1) lo[n / 2] = (double)row[n - 1];                              \
            }                                                                           \
        }                                                                               \
    } while (0)
    if (t == LW_FLOAT32) ADJ_MOVE(float);
    else ADJ_MOVE(double);
#undef ADJ_MOVE
}

/* One pass along transformed axis a of level k, in place in x: every line
 * read (Mallat order when read_mallat), lifted by the adjoint of the plan's
 * direction when lift, written (Mallat order when write_mallat).  Without
 * lift it only permutes (the Faber-Schauder shuffle). */
lw_status lw_fast_adjoint_axis(const lw_plan *p, int k, int a, char *x, int threads, int read_mallat,
                               int write_mallat, int lift)
{
    const lw_direction dir = p->cfg.direction;
    lw_lines L;
    lw_lines_for(p, k, a, &L);
    if (L.n < 2) return LW_OK;
    const int lanes = L.lstride != 1, B = lanes ? ADJ_LANES : ADJ_BLOCK;
    const int64_t nblk = (L.nlines + B - 1) / B;
    int failed = 0;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1 && nblk > 1) reduction(| : failed)
#endif
    {
        double *buf = malloc((size_t)pitch_of(L.n) * (size_t)B * sizeof(double));
        if (!buf) failed = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int64_t b = 0; b < nblk; b++) {
            if (!buf) continue;
            int64_t l0 = b * B, base[ADJ_LANES > ADJ_BLOCK ? ADJ_LANES : ADJ_BLOCK];
            int nb = (int)(L.nlines - l0 < B ? L.nlines - l0 : B);
            for (int j = 0; j < nb; j++) base[j] = line_base(&L, l0 + j);
            if (lanes) {
                move_lanes(x, p->cfg.dtype, &L, base, nb, buf, read_mallat, 0);
                if (lift) lanes_adjoint(p->wav, p->cfg.mode, dir, buf, L.n, nb);
                move_lanes(x, p->cfg.dtype, &L, base, nb, buf, write_mallat, 1);
            } else {
                move_rows(x, p->cfg.dtype, &L, base, nb, buf, read_mallat, 0);
                for (int j = 0; j < nb && lift; j++)
                    line_adjoint(p->wav, p->cfg.mode, dir, buf + (size_t)j * pitch_of(L.n), L.n);
                move_rows(x, p->cfg.dtype, &L, base, nb, buf, write_mallat, 1);
            }
        }
        free(buf);
    }
    return failed ? lw_fail(LW_ERR_OUT_OF_MEMORY, "cpu adjoint engine: cannot allocate line buffers") : LW_OK;
}

int lw_fast_adjoint_applies(const lw_fast_level *lv) { return lv->adjoint; }

size_t lw_fast_adjoint_scratch(const lw_fast_level *lv) { return (void)lv, 0; }

lw_status lw_fast_adjoint_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                              char *scratch, size_t per_thread)
{
    (void)ll, (void)guard, (void)scratch, (void)per_thread;
    const lw_plan *p = lv->plan;
    if (src != dst || !lw_dir_adjoint(p->cfg.direction))
        return lw_fail(LW_ERR_INTERNAL, "cpu adjoint engine: runs adjoint levels in place only");
    if (lv->fsmode) return lw_fast_adjoint_fs_level(p, lv->level, dst, threads);
    const int coarse = lw_dir_coarse_first(p->cfg.direction), mallat = p->cfg.layout == LW_MALLAT;
    const int na = p->geo.naxes;
    /* coefficients in Mallat order are read by the forward's adjoint and
     * written by the inverse's; samples are always interleaved */
    for (int ai = 0; ai < na; ai++)
        LW_TRY(lw_fast_adjoint_axis(p, lv->level, coarse ? na - 1 - ai : ai, dst, threads, mallat && coarse,
                                    mallat && !coarse, 1));
    return LW_OK;
}
