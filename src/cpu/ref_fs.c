/* Reference Faber-Schauder transform, non-separable in 2-D and 3-D
 * (docs/CONVENTIONS.md section 6: every sample with an odd grid coordinate is predicted from the
 * average of its all-even neighbours; those are never modified, so every
 * level reads original pixels).  The 1-D case is the single predict step.
 * The adjoints (float) transpose each level in scatter form. */
#include "ref_dense.h"

#include <stdlib.h>
#include <string.h>

/* Sum of the all-even neighbours of grid point j[] (odd axes in mask). */
#define DEFINE_FS_SUM(SUF, T, ACC)                                                  \
    static ACC fs_sum_##SUF(const lw_dense *d, const T *x, const int64_t *j,        \
                            const int64_t *m, int64_t g, unsigned mask, lw_mode mode) \
    {                                                                               \
        ACC acc = 0;                                                                \
        int odd[LW_MAX_AXES], no = 0;                                               \
        for (int a = 0; a < d->na; a++) if (mask & (1u << a)) odd[no++] = a;        \
        for (unsigned c = 0; c < (1u << no); c++) {                                 \
            int64_t off = 0;                                                        \
            for (int a = 0; a < d->na; a++) off += j[a] * g * d->st[a];             \
            for (int q = 0; q < no; q++) {                                          \
                int a = odd[q];                                                     \
                int64_t nb = j[a] + ((c >> q) & 1u ? 1 : -1);                       \
                nb = lw_boundary_index(nb, m[a], mode);                             \
                off += (nb - j[a]) * g * d->st[a];                                  \
            }                                                                       \
            acc += (ACC)x[off];                                                     \
        }                                                                           \
        return acc;                                                                 \
    }

DEFINE_FS_SUM(f, double, double)
DEFINE_FS_SUM(i, int64_t, int64_t)

/* Rearrange a region between interleaved and Mallat order along every axis. */
#define DEFINE_FS_SHUFFLE(SUF, T)                                                   \
    static int fs_shuffle_##SUF(const lw_dense *d, T *x, const int64_t *m, int to_mallat) \
    {                                                                               \
        int64_t maxn = 1;                                                           \
        for (int a = 0; a < d->na; a++) if (m[a] > maxn) maxn = m[a];               \
        T *tmp = malloc((size_t)maxn * sizeof(T));                                  \
        if (!tmp) return -1;                                                        \
        for (int a = 0; a < d->na; a++) {                                           \
            if (m[a] < 2) continue;                                                 \
            int64_t h = (m[a] + 1) / 2;                                             \
            int64_t cnt = 1;                                                        \
            for (int b = 0; b < d->na; b++) if (b != a) cnt *= m[b];                \
            for (int64_t l = 0; l < cnt; l++) {                                     \
                int64_t rem = l, base = 0;                                          \
                for (int b = d->na - 1; b >= 0; b--) {                              \
                    if (b == a) continue;                                           \
                    base += (rem % m[b]) * d->st[b];                                \
                    rem /= m[b];                                                    \
                }                                                                   \
                for (int64_t i = 0; i < m[a]; i++) {                                \
                    int64_t dst = to_mallat ? ((i & 1) ? h + i / 2 : i / 2) : i;    \
                    int64_t src = to_mallat ? i : ((i & 1) ? h + i / 2 : i / 2);    \
                    tmp[dst] = x[base + src * d->st[a]];                            \
                }                                                                   \
                for (int64_t i = 0; i < m[a]; i++) x[base + i * d->st[a]] = tmp[i]; \
            }                                                                       \
        }                                                                           \
        free(tmp);                                                                  \
        return 0;                                                                   \
    }

DEFINE_FS_SHUFFLE(f, double)
DEFINE_FS_SHUFFLE(i, int64_t)

/* Apply the prediction of one level on its grid: sign -1 forward, +1 inverse. */
#define DEFINE_FS_LEVEL(SUF, T, AVG)                                                \
    static void fs_level_##SUF(const lw_plan *plan, const lw_dense *d, T *x,        \
                               const int64_t *m, int64_t g, int sign)               \
    {                                                                               \
        int64_t j[LW_MAX_AXES] = {0, 0, 0};                                         \
        int64_t cnt = 1;                                                            \
        for (int a = 0; a < d->na; a++) cnt *= m[a];                                \
        for (int64_t l = 0; l < cnt; l++) {                                         \
            int64_t rem = l;                                                        \
            unsigned mask = 0;                                                      \
            int64_t off = 0;                                                        \
            int nodd = 0;                                                           \
            for (int a = d->na - 1; a >= 0; a--) {                                  \
                j[a] = rem % m[a];                                                  \
                rem /= m[a];                                                        \
                if (j[a] & 1) { mask |= 1u << a; nodd++; }                          \
                off += j[a] * g * d->st[a];                                         \
            }                                                                       \
            if (!mask) continue;                                                    \
            T s = fs_sum_##SUF(d, x, j, m, g, mask, plan->cfg.mode);                \
            x[off] += sign * AVG(s, nodd);                                          \
        }                                                                           \
    }

#define FS_AVG_F(s, k) ((s) / (double)(1 << (k)))
#define FS_AVG_I(s, k) lw_floor_shift((s), (k))
DEFINE_FS_LEVEL(f, double, FS_AVG_F)
DEFINE_FS_LEVEL(i, int64_t, FS_AVG_I)

/* Transpose of fs_level (float): the level adds sign * x[e] / 2^|A| to every
 * sample t with odd grid coordinates on the axes A, for each of its all-even
 * neighbours e (read through the boundary mode), so its transpose adds
 * sign * x[t] / 2^|A| to each such e.  It reads the odd samples and writes the
 * all-even ones; near the ends several neighbours fold onto one sample and
 * all of them add up. */
static void fs_level_transpose(const lw_plan *plan, const lw_dense *d, double *x, const int64_t *m, int64_t g,
                               double sign)
{
    int64_t j[LW_MAX_AXES] = {0, 0, 0};
    int64_t cnt = 1;
    for (int a = 0; a < d->na; a++) cnt *= m[a];
    for (int64_t l = 0; l < cnt; l++) {
        int64_t rem = l, off = 0;
        int odd[LW_MAX_AXES], no = 0;
        for (int a = d->na - 1; a >= 0; a--) {
            j[a] = rem % m[a];
            rem /= m[a];
            off += j[a] * g * d->st[a];
        }
        for (int a = 0; a < d->na; a++)
            if (j[a] & 1) odd[no++] = a;
        if (!no) continue;
        double v = sign * x[off] / (double)(1 << no);
        for (unsigned c = 0; c < (1u << no); c++) {
            int64_t e = off;
            for (int q = 0; q < no; q++) {
                int a = odd[q];
                int64_t nb = lw_boundary_index(j[a] + (((c >> q) & 1u) ? 1 : -1), m[a], plan->cfg.mode);
                e += (nb - j[a]) * g * d->st[a];
            }
            x[e] += v;
        }
    }
}

#define NOMEM() lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a line buffer")

/* The adjoints: the forward's levels (predict, then Mallat shuffle) and the
 * inverse's (unshuffle, then the negated predict) transposed, in reverse
 * order; the shuffle's transpose is the unshuffle. */
static lw_status fs_adjoint(const lw_plan *plan, const lw_dense *d, double *x)
{
    int mallat = plan->cfg.layout == LW_MALLAT;
    int levels = plan->geo.levels;
    if (plan->cfg.direction == LW_FORWARD_ADJOINT) {
        for (int k = levels - 1; k >= 0; k--) {
            const int64_t *m = plan->geo.len[k];
            if (mallat && fs_shuffle_f(d, x, m, 0) != 0) return NOMEM();
            fs_level_transpose(plan, d, x, m, lw_grid_step(plan, k), -1.0);
        }
    } else {
        for (int k = 0; k < levels; k++) {
            const int64_t *m = plan->geo.len[k];
            fs_level_transpose(plan, d, x, m, lw_grid_step(plan, k), 1.0);
            if (mallat && fs_shuffle_f(d, x, m, 1) != 0) return NOMEM();
        }
    }
    return LW_OK;
}

#define DEFINE_FS(SUF, T)                                                           \
    static lw_status fs_run_##SUF(const lw_plan *plan, const lw_dense *d, T *x)     \
    {                                                                               \
        int mallat = plan->cfg.layout == LW_MALLAT;                                 \
        int levels = plan->geo.levels;                                              \
        if (plan->cfg.direction == LW_FORWARD) {                                    \
            for (int k = 0; k < levels; k++) {                                      \
                const int64_t *m = plan->geo.len[k];                                \
                fs_level_##SUF(plan, d, x, m, lw_grid_step(plan, k), -1);           \
                if (mallat && fs_shuffle_##SUF(d, x, m, 1) != 0) return NOMEM();    \
            }                                                                       \
        } else {                                                                    \
            for (int k = levels - 1; k >= 0; k--) {                                 \
                const int64_t *m = plan->geo.len[k];                                \
                if (mallat && fs_shuffle_##SUF(d, x, m, 0) != 0) return NOMEM();    \
                fs_level_##SUF(plan, d, x, m, lw_grid_step(plan, k), 1);            \
            }                                                                       \
        }                                                                           \
        return LW_OK;                                                               \
    }

DEFINE_FS(f, double)
DEFINE_FS(i, int64_t)

lw_status lw_ref_fs_f(const lw_plan *plan, const lw_dense *d, double *x)
{
    return lw_dir_adjoint(plan->cfg.direction) ? fs_adjoint(plan, d, x) : fs_run_f(plan, d, x);
}

lw_status lw_ref_fs_i(const lw_plan *plan, const lw_dense *d, int64_t *x) { return fs_run_i(plan, d, x); }
