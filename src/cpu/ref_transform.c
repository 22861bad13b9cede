/* Reference multi-dimensional, multi-level transform: separable lifting along
 * each transformed axis, level by level, in the Mallat or interleaved layout.
 * One body, instantiated for double (float path) and int64 (integer path). */
#include "ref_dense.h"
#include "../core/half.h"

#include <stdlib.h>
#include <string.h>

/* Visit every line along axis a of the region (grid lengths r[], grid step g):
 * calls fn(start offset, element stride, length).  Lines are enumerated over
 * the other axes' grid positions. */
#define LW_FOR_EACH_LINE(d, a, r, g, BODY)                                          \
    do {                                                                            \
        int64_t o1_n = 1, o2_n = 1, o1_st = 0, o2_st = 0;                           \
        int oi = 0;                                                                 \
        for (int b = 0; b < (d)->na; b++) {                                         \
            if (b == (a)) continue;                                                 \
            if (oi == 0) { o1_n = (r)[b]; o1_st = (g) * (d)->st[b]; }               \
            else { o2_n = (r)[b]; o2_st = (g) * (d)->st[b]; }                       \
            oi++;                                                                   \
        }                                                                           \
        for (int64_t j1 = 0; j1 < o1_n; j1++)                                       \
            for (int64_t j2 = 0; j2 < o2_n; j2++) {                                 \
                int64_t line_start = j1 * o1_st + j2 * o2_st;                       \
                int64_t line_stride = (g) * (d)->st[a];                             \
                int64_t line_len = (r)[a];                                          \
                BODY                                                                \
            }                                                                       \
    } while (0)

/* Integer results must fit int32.  Inside the int64 work array a level grows
 * magnitudes by less than 2^5 (three axes, lifting gains below 3 each), so
 * values kept below 2^56 between levels can never overflow int64. */
#define LW_REF_INT_GUARD ((int64_t)1 << 56)

static lw_status int_overflow(const lw_plan *plan, int64_t v)
{
    int L = plan->geo.levels;
    return lw_fail(LW_ERR_INTEGER_OVERFLOW,
                   "integer %s overflow int32 (a value of %s%llu): input magnitude too large for %d level%s of %s",
                   plan->cfg.direction == LW_FORWARD ? "coefficients" : "samples", v < 0 ? "-" : "",
                   (unsigned long long)(v < 0 ? -(uint64_t)v : (uint64_t)v), L, L == 1 ? "" : "s",
                   plan->wav->name);
}

/* LW_OK when every value lies in [lo, hi], else the overflow error. */
static lw_status int_range(const lw_plan *plan, const int64_t *x, int64_t n, int64_t lo, int64_t hi)
{
    for (int64_t i = 0; i < n; i++)
        if (x[i] < lo || x[i] > hi) return int_overflow(plan, x[i]);
    return LW_OK;
}

static lw_status level_ok_f(const lw_plan *plan, const double *x, int64_t n)
{
    (void)plan, (void)x, (void)n;
    return LW_OK;
}

static lw_status level_ok_i(const lw_plan *plan, const int64_t *x, int64_t n)
{
    return int_range(plan, x, n, -LW_REF_INT_GUARD, LW_REF_INT_GUARD);
}

#define DEFINE_REF_SEPARABLE(SUF, T, LIFT)                                          \
    static void ref_level_##SUF(const lw_plan *plan, const lw_dense *d, T *x,       \
                                T *line, T *tmp, int level)                         \
    {                                                                               \
        const lw_geometry *geo = &plan->geo;                                        \
        lw_direction dir = plan->cfg.direction;                                     \
        int inverse = lw_dir_coarse_first(dir);                                     \
        int mallat = plan->cfg.layout == LW_MALLAT;                                 \
        int64_t g = lw_grid_step(plan, level);                                      \
        const int64_t *r = geo->len[level];                                         \
        for (int ai = 0; ai < d->na; ai++) {                                        \
            int a = inverse ? d->na - 1 - ai : ai;                                  \
            if (r[a] < 2) continue;                                                 \
            LW_FOR_EACH_LINE(d, a, r, g, {                                          \
                int64_t h = (line_len + 1) / 2;                                     \
                for (int64_t i = 0; i < line_len; i++)                              \
                    tmp[i] = x[line_start + i * line_stride];                       \
                if (mallat && inverse) {                                            \
                    for (int64_t i = 0; i < line_len; i++)                          \
                        line[i] = (i & 1) ? tmp[h + i / 2] : tmp[i / 2];            \
                } else {                                                            \
                    memcpy(line, tmp, (size_t)line_len * sizeof(T));                \
                }                                                                   \
                LIFT(plan->wav, plan->cfg.mode, line, line_len, dir);               \
                if (mallat && !inverse) {                                           \
                    for (int64_t i = 0; i < line_len; i++)                          \
                        tmp[(i & 1) ? h + i / 2 : i / 2] = line[i];                 \
                } else {                                                            \
                    memcpy(tmp, line, (size_t)line_len * sizeof(T));                \
                }                                                                   \
                for (int64_t i = 0; i < line_len; i++)                              \
                    x[line_start + i * line_stride] = tmp[i];                       \
            });                                                                     \
        }                                                                           \
    }                                                                               \
                                                                                    \
    static lw_status ref_dense_##SUF(const lw_plan *plan, const lw_dense *d, T *x)  \
    {                                                                               \
        if (!plan->wav->separable) {                                                \
            return lw_ref_fs_##SUF(plan, d, x);                                     \
        }                                                                           \
        int64_t maxn = 1;                                                           \
        for (int a = 0; a < d->na; a++) if (d->n[a] > maxn) maxn = d->n[a];         \
        T *line = malloc((size_t)maxn * sizeof(T));                                 \
        T *tmp = malloc((size_t)maxn * sizeof(T));                                  \
        if (!line || !tmp) {                                                        \
            free(line); free(tmp);                                                  \
            return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a line buffer");  \
        }                                                                           \
        int levels = plan->geo.levels, inv = lw_dir_coarse_first(plan->cfg.direction); \
        lw_status st = LW_OK;                                                       \
        for (int q = 0; q < levels && st == LW_OK; q++) {                           \
            ref_level_##SUF(plan, d, x, line, tmp, inv ? levels - 1 - q : q);       \
            st = level_ok_##SUF(plan, x, d->count);                                 \
        }                                                                           \
        free(line);                                                                 \
        free(tmp);                                                                  \
        return st;                                                                  \
    }

DEFINE_REF_SEPARABLE(f, double, lw_ref_lift_line_f)
DEFINE_REF_SEPARABLE(i, int64_t, lw_ref_lift_line_i)

/* Copy one batch item between the user's buffer (any dtype) and the dense
 * working array.  dir 0: gather, 1: scatter. */
static void move_item(const lw_plan *plan, const lw_dense *d, void *buf, int64_t base,
                      double *xf, int64_t *xi, int scatter)
{
    const lw_geometry *geo = &plan->geo;
    int64_t n0 = d->n[0], n1 = d->na > 1 ? d->n[1] : 1, n2 = d->na > 2 ? d->n[2] : 1;
    int64_t s0 = geo->strides[geo->axes[0]];
    int64_t s1 = d->na > 1 ? geo->strides[geo->axes[1]] : 0;
    int64_t s2 = d->na > 2 ? geo->strides[geo->axes[2]] : 0;
    int64_t k = 0;
    for (int64_t i0 = 0; i0 < n0; i0++)
        for (int64_t i1 = 0; i1 < n1; i1++)
            for (int64_t i2 = 0; i2 < n2; i2++, k++) {
                int64_t off = base + i0 * s0 + i1 * s1 + i2 * s2;
                switch (plan->cfg.dtype) {
                case LW_FLOAT32:
                    if (scatter) ((float *)buf)[off] = (float)xf[k];
                    else xf[k] = ((const float *)buf)[off];
                    break;
                case LW_FLOAT64:
                    if (scatter) ((double *)buf)[off] = xf[k];
                    else xf[k] = ((const double *)buf)[off];
                    break;
                case LW_FLOAT16:
                    /* computed in double; stored through float32, the
                     * same rounding path as the "cpu" backend's store */
                    if (scatter) ((uint16_t *)buf)[off] = lw_f32_to_f16((float)xf[k]);
                    else xf[k] = lw_f16_to_f32(((const uint16_t *)buf)[off]);
                    break;
                case LW_BFLOAT16:
                    if (scatter) ((uint16_t *)buf)[off] = lw_f32_to_bf16((float)xf[k]);
                    else xf[k] = lw_bf16_to_f32(((const uint16_t *)buf)[off]);
                    break;
                case LW_INT32:
                    /* range checked by the caller before scattering */
                    if (scatter) ((int32_t *)buf)[off] = (int32_t)xi[k];
                    else xi[k] = ((const int32_t *)buf)[off];
                    break;
                }
            }
}

lw_status lw_ref_transform(const lw_plan *plan, void *buf)
{
    const lw_geometry *geo = &plan->geo;
    if (geo->levels == 0) return LW_OK;
    lw_dense d;
    d.na = geo->naxes;
    d.count = 1;
    for (int a = 0; a < d.na; a++) {
        d.n[a] = geo->shape[geo->axes[a]];
        d.count *= d.n[a];
    }
    for (int64_t a = d.na - 1, s = 1; a >= 0; a--) {
        d.st[a] = s;
        s *= d.n[a];
    }
    /* batch axes: every axis not transformed */
    int bax[LW_MAX_RANK], nb = 0;
    for (int i = 0; i < geo->rank; i++) {
        int t = 0;
        for (int a = 0; a < d.na; a++) t |= geo->axes[a] == i;
        if (!t) bax[nb++] = i;
    }
    int isint = plan->cfg.integer;
    size_t bytes;
    if ((uint64_t)d.count > SIZE_MAX || lw_mul_size((size_t)d.count, 8, &bytes) != 0)
        return lw_fail(LW_ERR_OUT_OF_MEMORY, "work buffer size overflows");
    void *work = malloc(bytes);
    if (!work) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes of work memory", bytes);
    int64_t nbatch = geo->total / d.count;
    lw_status st = LW_OK;
    for (int64_t b = 0; b < nbatch && st == LW_OK; b++) {
        int64_t rem = b, base = 0;
        for (int j = nb - 1; j >= 0; j--) {
            int64_t len = geo->shape[bax[j]];
            base += (rem % len) * geo->strides[bax[j]];
            rem /= len;
        }
        if (isint) {
            move_item(plan, &d, buf, base, NULL, work, 0);
            st = ref_dense_i(plan, &d, work);
            if (st == LW_OK) st = int_range(plan, work, d.count, INT32_MIN, INT32_MAX);
            if (st == LW_OK) move_item(plan, &d, buf, base, NULL, work, 1);
        } else {
            move_item(plan, &d, buf, base, work, NULL, 0);
            st = ref_dense_f(plan, &d, work);
            move_item(plan, &d, buf, base, work, NULL, 1);
        }
    }
    free(work);
    return st;
}
