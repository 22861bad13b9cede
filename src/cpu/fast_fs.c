/* Faber-Schauder with two or three active axes (non-separable, docs/CONVENTIONS.md 6):
 * every sample with an odd grid coordinate is predicted from the average of
 * its all-even neighbours, which a level never modifies.  So a level is one
 * pass in which every output depends only on src: forward reads the samples
 * in natural order and writes coefficients to their Mallat / interleaved
 * places (all-even ones to the next level's dense buffer when there is one);
 * inverse reads coefficients and writes samples.  Threads take rows of the
 * slowest axis.  (One active axis goes through the separable engine.)
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

/* Address of the coefficient of grid point j in a level's input (inverse:
 * all-even points from ll when present) or natural sample (forward). */
static inline const char *fs_in_at(const fs_item *it, const int64_t *j, int coef)
{
    const lw_fast_level *lv = it->lv;
    size_t es = lv->fp->es;
    int64_t off = 0;
    if (coef && lv->has_ll) {
        int even = 1;
        for (int a = 0; a < lv->nv; a++) even &= !(j[a] & 1);
        if (even) {
            for (int a = 0; a < lv->nv; a++) off += (j[a] >> 1) * lv->ls[a];
            return it->ll + (size_t)off * es;
        }
    }
    for (int a = 0; a < lv->nv; a++) {
        int64_t p = (coef && lv->mallat) ? lw_mallat_pos(j[a], lv->n[a]) : j[a];
        off += p * lv->ss[a];
    }
    return it->src + (size_t)off * es;
}

#define DEFINE_FS_ROW(SUF, T, ACC, AVG, FITS)                                                     \
    static int fs_row_##SUF(const fs_item *it, int64_t j0)                                       \
    {                                                                                             \
        const lw_fast_level *lv = it->lv;                                                         \
        int nv = lv->nv, inv = lv->inverse;                                                       \
        int64_t n1 = lv->n[1], n2 = nv > 2 ? lv->n[2] : 1;                                        \
        int64_t j[LW_MAX_AXES] = {j0, 0, 0};                                                      \
        int bad = 0;                                                                              \
        for (j[1] = 0; j[1] < n1; j[1]++)                                                         \
            for (j[2] = 0; j[2] < n2; j[2]++) {                                                   \
                int odd[LW_MAX_AXES], no = 0;                                                     \
                for (int a = 0; a < nv; a++)                                                      \
                    if (j[a] & 1) odd[no++] = a;                                                  \
                T v = *(const T *)fs_in_at(it, j, inv);                                           \
                if (no) {                                                                         \
                    ACC acc = 0;                                                                  \
                    for (unsigned m = 0; m < (1u << no); m++) {                                   \
                        int64_t q[LW_MAX_AXES] = {j[0], j[1], j[2]};                              \
                        for (int b = 0; b < no; b++) {                                            \
                            int a = odd[b];                                                       \
                            q[a] = lw_boundary_index(j[a] + ((m >> b) & 1u ? 1 : -1), lv->n[a],   \
                                                     lv->mode);                                   \
                        }                                                                         \
                        acc += (ACC) * (const T *)fs_in_at(it, q, inv);                           \
                    }                                                                             \
                    ACC r = AVG(acc, no);                                                         \
                    ACC full = inv ? (ACC)(v + r) : (ACC)(v - r);                                 \
                    bad |= !FITS(full);                                                           \
                    v = (T)full;                                                                  \
                }                                                                                 \
                int64_t off = 0;                                                                  \
                char *base = it->dst;                                                             \
                int even = no == 0;                                                               \
                if (!inv && even && lv->has_ll) {                                                 \
                    for (int a = 0; a < nv; a++) off += (j[a] >> 1) * lv->ls[a];                  \
                    base = it->ll;                                                                \
                } else {                                                                          \
                    for (int a = 0; a < nv; a++)                                                  \
                        off += (!inv && lv->mallat ? lw_mallat_pos(j[a], lv->n[a]) : j[a]) * lv->ds[a]; \
                }                                                                                 \
                ((T *)base)[off] = v;                                                             \
            }                                                                                     \
        return bad;                                                                               \
    }

#define FS_AVG_F(s, k) ((s) * (1.0f / (float)(1 << (k))))
#define FS_AVG_D(s, k) ((s) / (double)(1 << (k)))
#define FS_AVG_I(s, k) lw_floor_shift((s), (k))
#define FS_FITS_F(v) 1
#define FS_FITS_I(v) ((v) >= INT32_MIN && (v) <= INT32_MAX)
DEFINE_FS_ROW(f32, float, float, FS_AVG_F, FS_FITS_F)
DEFINE_FS_ROW(f64, double, double, FS_AVG_D, FS_FITS_F)
DEFINE_FS_ROW(i32, int32_t, int64_t, FS_AVG_I, FS_FITS_I)

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
        int64_t so = 0, dof = 0, lof = 0, rem = item;
        for (int b = lv->nb - 1; b >= 0; b--) {
            int64_t ib = rem % lv->bn[b];
            rem /= lv->bn[b];
            so += ib * lv->bss[b];
            dof += ib * lv->bds[b];
            lof += ib * lv->bls[b];
        }
        fs_item it = {lv, src + (size_t)so * es, dst + (size_t)dof * es, lv->has_ll ? ll + (size_t)lof * es : NULL};
        if (t == LW_FLOAT32)
            bad |= fs_row_f32(&it, j0);
        else if (t == LW_FLOAT64)
            bad |= fs_row_f64(&it, j0);
        else
            bad |= fs_row_i32(&it, j0);
    }
    if (bad) *guard = 1;
    return LW_OK;
}
