/* Faber-Schauder with two or three active axes (non-separable, docs/CONVENTIONS.md 6):
 * every sample with an odd grid coordinate is predicted from the average of
 * its all-even neighbours, which a level never modifies.  So a level is one
 * pass in which every output depends only on src: forward reads the samples
 * in natural order and writes coefficients to their Mallat / interleaved
 * places (all-even ones to the next level's dense buffer when there is one);
 * inverse reads coefficients and writes samples.  Threads take rows of the
 * slowest axis.  (One active axis goes through the separable engine.)  A
 * level also runs in place (src == dst, no ll).  Interleaved, each
 * coefficient lands where its sample was, the all-even samples stay as they
 * are (not even rewritten, so no thread writes what another reads), and
 * every other sample reads only itself and all-even ones.  Mallat, the lines
 * along the last axis are reordered within themselves in two passes and then
 * moved along the cycles of each outer axis (fs_mallat_in_place).
 * Integer levels flag values that leave int32 (a forward prediction error of
 * full-range input can; the reference keeps int64 between levels), and the
 * backend then recomputes exactly, which reports LW_ERR_INTEGER_OVERFLOW when
 * a result does not fit. */
#include "fast_internal.h"

#include <stdlib.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

typedef struct fs_item {
    const lw_fast_level *lv;
    const char *src;
    char *dst;
    char *ll;
    /* Mallat in place (fs_mallat_in_place): the calling thread's line buffer,
     * and the lines of this pass (0: those with an odd outer coordinate, 1 the
     * all-even ones); NULL otherwise */
    char *buf;
    int phase;
} fs_item;

/* A line along the last active axis L, at outer coordinates J (axes < L):
 * where its even and odd samples are, as (base, stride in elements). */
typedef struct fs_span {
    const char *p;
    int64_t s;
} fs_span;

/* The all-even values (E) of the line at all-even outer coordinates Q: the
 * natural samples 0, 2, 4, ... (forward) or their coefficients (inverse:
 * from ll when it holds them, else their Mallat / interleaved places).  Mallat
 * in place, the lines stay at their natural outer places: the inverse's pass
 * over the odd outer lines finds the all-even ones natural again. */
static fs_span fs_e_line(const fs_item *it, const int64_t *Q)
{
    const lw_fast_level *lv = it->lv;
    int L = lv->nv - 1;
    size_t es = lv->fp->es;
    int64_t off = 0;
    fs_span r;
    if (!lv->inverse || (it->buf && it->phase == 0)) {
        for (int a = 0; a < L; a++) off += Q[a] * lv->ss[a];
        r.p = it->src + (size_t)off * es;
        r.s = 2 * lv->ss[L];
    } else if (lv->has_ll) {
        for (int a = 0; a < L; a++) off += (Q[a] >> 1) * lv->ls[a];
        r.p = it->ll + (size_t)off * es;
        r.s = lv->ls[L];
    } else {
        for (int a = 0; a < L; a++) off += (lv->mallat && !it->buf ? lw_mallat_pos(Q[a], lv->n[a]) : Q[a]) * lv->ss[a];
        r.p = it->src + (size_t)off * es;
        r.s = lv->mallat ? lv->ss[L] : 2 * lv->ss[L];
    }
    return r;
}

/* The even and odd halves of a line of a level's coefficients (forward:
 * output, inverse: input) at outer coordinates J, in array `base` with
 * strides st: Mallat halves or interleaved places. */
static void fs_coef_line(const lw_fast_level *lv, const char *base, const int64_t *st, const int64_t *J, fs_span *ev,
                         fs_span *od)
{
    int L = lv->nv - 1;
    size_t es = lv->fp->es;
    int64_t off = 0, n = lv->n[L];
    for (int a = 0; a < L; a++) off += (lv->mallat ? lw_mallat_pos(J[a], lv->n[a]) : J[a]) * st[a];
    ev->p = base + (size_t)off * es;
    od->p = base + (size_t)(off + (lv->mallat ? (n + 1) / 2 : 1) * st[L]) * es;
    ev->s = od->s = lv->mallat ? st[L] : 2 * st[L];
}

/* The lines of row j0 of axis 0 (every line along L for 3-D): each even
 * sample of an odd outer line is predicted from the E samples of its 2 or 4
 * outer neighbour lines, each odd sample from their (or, on an all-even
 * outer line, its own) E samples left and right of it.  Returns whether an
 * integer result left int32. */
#define DEFINE_FS_LINES(SUF, T, ACC, AVG, FITS)                                                                       \
    static int fs_lines_##SUF(const fs_item *it, int64_t j0)                                                          \
    {                                                                                                                 \
        const lw_fast_level *lv = it->lv;                                                                             \
        const int L = lv->nv - 1, inv = lv->inverse;                                                                  \
        const int64_t n = lv->n[L], hn = (n + 1) / 2, nodd = n / 2, n1 = L > 1 ? lv->n[1] : 1;                        \
        /* the right neighbour of the last odd sample when n is even */                                               \
        const int64_t kend = (n & 1) ? 0 : lw_boundary_index(n, n, lv->mode) >> 1;                                    \
        size_t es = lv->fp->es;                                                                                       \
        int bad = 0;                                                                                                  \
        for (int64_t j1 = 0; j1 < n1; j1++) {                                                                         \
            int64_t J[2] = {j0, j1};                                                                                  \
            int oddax[2], no = 0, nm = 0;                                                                             \
            for (int a = 0; a < L; a++)                                                                               \
                if (J[a] & 1) oddax[no++] = a;                                                                        \
            if (it->buf && (no == 0) != (it->phase == 1)) continue; /* the other pass's line */                       \
            fs_span E[4];                                                                                             \
            for (int m = 0; m < (1 << no); m++) {                                                                     \
                int64_t Q[2] = {J[0], J[1]};                                                                          \
                for (int b = 0; b < no; b++) {                                                                        \
                    int a = oddax[b];                                                                                 \
                    Q[a] = lw_boundary_index(J[a] + (((m >> b) & 1) ? 1 : -1), lv->n[a], lv->mode);                   \
                }                                                                                                     \
                E[nm++] = fs_e_line(it, Q);                                                                           \
            }                                                                                                         \
            fs_span ve, vo, oe, oo;                                                                                   \
            if (!inv) { /* natural samples in, coefficients out */                                                    \
                int64_t off = 0;                                                                                      \
                for (int a = 0; a < L; a++) off += J[a] * lv->ss[a];                                                  \
                ve.p = it->src + (size_t)off * es;                                                                    \
                vo.p = ve.p + (size_t)lv->ss[L] * es;                                                                 \
                ve.s = vo.s = 2 * lv->ss[L];                                                                          \
                fs_coef_line(lv, it->dst, lv->ds, J, &oe, &oo);                                                       \
                if (!no && lv->has_ll) { /* the E samples go to the next level's buffer */                            \
                    int64_t lo = 0;                                                                                   \
                    for (int a = 0; a < L; a++) lo += (J[a] >> 1) * lv->ls[a];                                        \
                    oe.p = it->ll + (size_t)lo * es;                                                                  \
                    oe.s = lv->ls[L];                                                                                 \
                }                                                                                                     \
            } else { /* coefficients in, natural samples out */                                                       \
                fs_coef_line(lv, it->src, lv->ss, J, &ve, &vo);                                                       \
                if (!no && !it->buf) ve = E[0];                                                                       \
                int64_t off = 0;                                                                                      \
                for (int a = 0; a < L; a++) off += J[a] * lv->ds[a];                                                  \
                oe.p = it->dst + (size_t)off * es;                                                                    \
                oo.p = oe.p + (size_t)lv->ds[L] * es;                                                                 \
                oe.s = oo.s = 2 * lv->ds[L];                                                                          \
            }                                                                                                         \
            T *line = NULL; /* Mallat in place: the line, its coefficients in Mallat order within it */               \
            if (it->buf) {                                                                                            \
                int64_t off = 0;                                                                                      \
                for (int a = 0; a < L; a++) off += J[a] * lv->ss[a];                                                  \
                line = (T *)(it->dst + (size_t)off * es);                                                             \
                if (inv) { /* (an all-even line's E[0] is its even half already: fs_e_line) */                        \
                    ve.p = (const char *)line, vo.p = (const char *)(line + hn * lv->ss[L]);                          \
                    ve.s = vo.s = lv->ss[L];                                                                          \
                }                                                                                                     \
                oe.p = it->buf, oo.p = it->buf + (size_t)(inv ? 1 : hn) * es;                                         \
                oe.s = oo.s = inv ? 2 : 1;                                                                            \
            }                                                                                                         \
            const T *vE = (const T *)ve.p, *vO = (const T *)vo.p;                                                     \
            T *wE = (T *)oe.p, *wO = (T *)oo.p;                                                                       \
            if (!no) { /* in place: the same places, nothing to move */                                               \
                if (wE != vE || oe.s != ve.s)                                                                         \
                    for (int64_t k = 0; k < hn; k++) wE[k * oe.s] = vE[k * ve.s];                                     \
            } else {                                                                                                  \
                for (int64_t k = 0; k < hn; k++) {                                                                    \
                    ACC sum = 0;                                                                                      \
                    for (int m = 0; m < nm; m++) sum += (ACC)((const T *)E[m].p)[k * E[m].s];                        \
                    ACC r = AVG(sum, no), v = inv ? (ACC)vE[k * ve.s] + r : (ACC)vE[k * ve.s] - r;                    \
                    bad |= !FITS(v);                                                                                  \
                    wE[k * oe.s] = (T)v;                                                                              \
                }                                                                                                     \
            }                                                                                                         \
            for (int64_t k = 0; k < nodd; k++) {                                                                      \
                int64_t kk = k + 1 < hn ? k + 1 : kend;                                                               \
                ACC sum = 0;                                                                                          \
                for (int m = 0; m < nm; m++) {                                                                        \
                    const T *e = (const T *)E[m].p;                                                                   \
                    sum += (ACC)e[k * E[m].s] + (ACC)e[kk * E[m].s];                                                  \
                }                                                                                                     \
                ACC r = AVG(sum, no + 1), v = inv ? (ACC)vO[k * vo.s] + r : (ACC)vO[k * vo.s] - r;                    \
                bad |= !FITS(v);                                                                                      \
                wO[k * oo.s] = (T)v;                                                                                  \
            }                                                                                                         \
            if (line) lw_fast_copy_samples((char *)line, lv->ss[L], it->buf, 1, n, 1, es);                           \
        }                                                                                                             \
        return bad;                                                                                                   \
    }

#define FS_AVG_F(s, k) ((s) * (1.0f / (float)(1 << (k))))
#define FS_AVG_D(s, k) ((s) / (double)(1 << (k)))
#define FS_AVG_I(s, k) lw_floor_shift((s), (k))
#define FS_FITS_F(v) 1
#define FS_FITS_I(v) ((v) >= INT32_MIN && (v) <= INT32_MAX)
DEFINE_FS_LINES(f32, float, float, FS_AVG_F, FS_FITS_F)
DEFINE_FS_LINES(f64, double, double, FS_AVG_D, FS_FITS_F)
DEFINE_FS_LINES(i32, int32_t, int64_t, FS_AVG_I, FS_FITS_I)

int lw_fast_fs_in_place(const lw_fast_level *lv) { return !lv->has_ll; }

/* A volume's plane in place, Mallat: its rows (lines along the last axis)
 * along the cycles of axis 1 (leaders lead[0 .. nlead)), through buf (a row) */
static void fs_plane_rows(const lw_fast_level *lv, char *plane, char *buf, const int32_t *lead, int64_t nlead,
                          int to_mallat)
{
    for (int64_t c = 0; c < nlead; c++)
        lw_fast_walk_cycle(plane, lv->n[1], lv->ss[1], lv->ss[2], lv->n[2], 1, lv->fp->es, lead[c], buf, to_mallat);
}

/* One pass over the level's lines: every line (buf NULL), or in place in the
 * Mallat layout those of one phase with buf holding a line a thread; a
 * volume's plane then also moves its rows to Mallat order in the pass that
 * completes it (forward, after its lines) or from it in the pass that first
 * reads it (inverse, before): the odd planes' pass is the first phase, the
 * even planes' the second, and no other plane reads a plane's lines then.
 * Returns whether an integer result left int32. */
static int fs_pass(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, char *buf, int phase,
                   const int32_t *lead, int64_t nlead)
{
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb; b++) nitems *= lv->bn[b];
    const int64_t nunits = nitems * lv->n[0];
    const size_t es = lv->fp->es, lb = (size_t)lv->n[lv->nv - 1] * es;
    const lw_dtype t = lv->fp->isint ? LW_INT32 : es == 8 ? LW_FLOAT64 : LW_FLOAT32;
    int bad = 0;
    if (threads > nunits) threads = (int)nunits;
    if (threads < 1) threads = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 4) reduction(| : bad)
#endif
    for (int64_t u = 0; u < nunits; u++) {
        int64_t item = u / lv->n[0], j0 = u % lv->n[0];
        int64_t so, dof, lof;
        lw_fast_item_offsets(lv, item, &so, &dof, &lof);
        fs_item it = {lv, src + (size_t)so * es, dst + (size_t)dof * es, lv->has_ll ? ll + (size_t)lof * es : NULL,
                      buf ? buf + (size_t)lw_fast_thread_num() * lb : NULL, phase};
        const int mv = buf && lv->nv == 3 && (j0 & 1) == (phase == 0);
        char *plane = it.dst + (size_t)(j0 * lv->ss[0]) * es;
        if (mv && lv->inverse) fs_plane_rows(lv, plane, it.buf, lead, nlead, 0);
        if (t == LW_FLOAT32)
            bad |= fs_lines_f32(&it, j0);
        else if (t == LW_FLOAT64)
            bad |= fs_lines_f64(&it, j0);
        else
            bad |= fs_lines_i32(&it, j0);
        if (mv && !lv->inverse) fs_plane_rows(lv, plane, it.buf, lead, nlead, 1);
    }
    return bad;
}

/* lw_fast_move_rows along axis 0 of the level: its sub-blocks are the lines
 * along the last axis at one coordinate of axis 0 (a line, or a plane of
 * them in a volume) */
static lw_status fs_move_axis0(const lw_fast_level *lv, char *data, int to_mallat, int threads)
{
    const int L = lv->nv - 1;
    lw_fast_level m = *lv;
    m.nv = L;
    m.rowlen = lv->n[L], m.srs = m.drs = lv->ss[L], m.G = 1;
    return lw_fast_move_rows(&m, data, to_mallat, threads);
}

/* A Mallat level in the array: the lines stay at their natural outer places,
 * each in Mallat order within itself, and move along the cycles of the outer
 * axes (after a forward level, before an inverse one: axis 0 by
 * lw_fast_move_rows, a volume's axis 1 plane by plane within the passes).  A
 * line reads itself and all-even lines, so the lines with an odd outer
 * coordinate go first in the forward (while the all-even ones are still
 * natural) and last in the inverse (once they are natural again); each goes
 * through the thread's line buffer, as its places within itself change. */
static lw_status fs_mallat_in_place(const lw_fast_level *lv, char *data, int threads, int *guard)
{
    const int L = lv->nv - 1;
    if (threads < 1) threads = 1;
    const int64_t nlead = L == 2 ? lw_mallat_cycle_leaders(lv->n[1], NULL, 0) : 0;
    if (nlead < 0) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot find the row cycles of %lld rows", (long long)lv->n[1]);
    char *buf = malloc((size_t)threads * (size_t)lv->n[L] * lv->fp->es);
    int32_t *lead = nlead ? malloc((size_t)nlead * sizeof *lead) : NULL;
    if (!buf || (nlead && !lead)) {
        free(buf), free(lead);
        return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the fs level's line buffers");
    }
    if (nlead) lw_mallat_cycle_leaders(lv->n[1], lead, nlead);
    lw_status st = lv->inverse ? fs_move_axis0(lv, data, 0, threads) : LW_OK;
    int bad = 0;
    for (int q = 0; q < 2 && st == LW_OK; q++)
        bad |= fs_pass(lv, data, data, NULL, threads, buf, lv->inverse ? 1 - q : q, lead, nlead);
    if (st == LW_OK && !lv->inverse) st = fs_move_axis0(lv, data, 1, threads);
    free(buf), free(lead);
    if (bad) *guard = 1;
    return st;
}

lw_status lw_fast_fs_level(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard)
{
    if (src == dst && lv->mallat) return fs_mallat_in_place(lv, dst, threads, guard);
    if (fs_pass(lv, src, dst, ll, threads, NULL, 0, NULL, 0)) *guard = 1;
    return LW_OK;
}
