/* Faber-Schauder with two or three active axes (non-separable, docs/CONVENTIONS.md 6):
 * every sample with an odd grid coordinate is predicted from the average of
 * its all-even neighbours, which a level never modifies.  So a level is one
 * pass in which every output depends only on src: forward reads the samples
 * in natural order and writes coefficients to their Mallat / interleaved
 * places (all-even ones to the next level's dense buffer when there is one);
 * inverse reads coefficients and writes samples.  Threads take rows of the
 * slowest axis.  (One active axis goes through the separable engine.)  In
 * the interleaved layout a level also runs in place (src == dst, no ll): each
 * coefficient lands where its sample was, the all-even samples stay as they
 * are (not even rewritten, so no thread writes what another reads), and
 * every other sample reads only itself and all-even ones.
 * Integer levels flag values that leave int32 (a forward prediction error of
 * full-range input can; the reference keeps int64 between levels), and the
 * backend then recomputes exactly, which reports LW_ERR_INTEGER_OVERFLOW when
 * a result does not fit. */
#include "fast_internal.h"

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

typedef struct fs_item {
    const lw_fast_level *lv;
    const char *src;
    char *dst;
    char *ll;
} fs_item;

/* A line along the last active axis L, at outer coordinates J (axes < L):
 * where its even and odd samples are, as (base, stride in elements). */
typedef struct fs_span {
    const char *p;
    int64_t s;
} fs_span;

/* The all-even values (E) of the line at all-even outer coordinates Q: the
 * natural samples 0, 2, 4, ... (forward) or their coefficients (inverse:
 * from ll when it holds them, else their Mallat / interleaved places). */
static fs_span fs_e_line(const fs_item *it, const int64_t *Q)
{
    const lw_fast_level *lv = it->lv;
    int L = lv->nv - 1;
    size_t es = lv->fp->es;
    int64_t off = 0;
    fs_span r;
    if (!lv->inverse) {
        for (int a = 0; a < L; a++) off += Q[a] * lv->ss[a];
        r.p = it->src + (size_t)off * es;
        r.s = 2 * lv->ss[L];
    } else if (lv->has_ll) {
        for (int a = 0; a < L; a++) off += (Q[a] >> 1) * lv->ls[a];
        r.p = it->ll + (size_t)off * es;
        r.s = lv->ls[L];
    } else {
        for (int a = 0; a < L; a++) off += (lv->mallat ? lw_mallat_pos(Q[a], lv->n[a]) : Q[a]) * lv->ss[a];
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
                if (!no) ve = E[0];                                                                                   \
                int64_t off = 0;                                                                                      \
                for (int a = 0; a < L; a++) off += J[a] * lv->ds[a];                                                  \
                oe.p = it->dst + (size_t)off * es;                                                                    \
                oo.p = oe.p + (size_t)lv->ds[L] * es;                                                                 \
                oe.s = oo.s = 2 * lv->ds[L];                                                                          \
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

int lw_fast_fs_in_place(const lw_fast_level *lv) { return !lv->mallat && !lv->has_ll; }

lw_status lw_fast_fs_level(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard)
{
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb; b++) nitems *= lv->bn[b];
    int64_t nunits = nitems * lv->n[0];
    size_t es = lv->fp->es;
    lw_dtype t = lv->fp->isint ? LW_INT32 : es == 8 ? LW_FLOAT64 : LW_FLOAT32;
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
        fs_item it = {lv, src + (size_t)so * es, dst + (size_t)dof * es, lv->has_ll ? ll + (size_t)lof * es : NULL};
        if (t == LW_FLOAT32)
            bad |= fs_lines_f32(&it, j0);
        else if (t == LW_FLOAT64)
            bad |= fs_lines_f64(&it, j0);
        else
            bad |= fs_lines_i32(&it, j0);
    }
    if (bad) *guard = 1;
    return LW_OK;
}
