/* Configuration validation and the band / level geometry. */
#include "lw_internal.h"

#include <string.h>

int64_t lw_lowpass_length(int64_t n, int level)
{
    for (int k = 0; k < level && n > 1; k++) n = (n + 1) / 2;
    return n;
}

/* Largest L with ceil(n / 2^(L-1)) >= 2, i.e. ceil(log2 n); 0 for n == 1. */
static int axis_max_levels(int64_t n)
{
    int l = 0;
    while (n > 1) {
        n = (n + 1) / 2;
        l++;
    }
    return l;
}

/* Levels periodic mode allows on an axis of length n > 1: as many as keep
 * the length even, i.e. the number of trailing zero bits of n. */
static int axis_periodic_levels(int64_t n)
{
    int l = 0;
    while (n > 1 && (n & 1) == 0) {
        n /= 2;
        l++;
    }
    return l;
}

/* LW_LEVELS_MAX in periodic mode: the most levels for which every length
 * stays even; when that is 0 but the shape allows levels, 1 (the level
 * check below then names the odd axis). */
static int periodic_max_levels(const lw_geometry *geo, int lmax)
{
    int best = lmax;
    for (int a = 0; a < geo->naxes; a++) {
        int64_t n = geo->shape[geo->axes[a]];
        if (n > 1 && axis_periodic_levels(n) < best) best = axis_periodic_levels(n);
    }
    return best == 0 && lmax > 0 ? 1 : best;
}

static lw_status resolve_axes(int rank, int naxes, const int *axes, int *out_n, int *out)
{
    if (rank < 1 || rank > LW_MAX_RANK)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "rank %d is outside 1..%d", rank, LW_MAX_RANK);
    if (naxes == 0) {
        if (rank > LW_MAX_AXES)
            return lw_fail(LW_ERR_INVALID_ARGUMENT,
                           "rank %d array: choose at most %d axes to transform", rank, LW_MAX_AXES);
        for (int i = 0; i < rank; i++) out[i] = i;
        *out_n = rank;
        return LW_OK;
    }
    if (naxes < 0 || naxes > LW_MAX_AXES || !axes)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "number of axes %d is outside 1..%d", naxes, LW_MAX_AXES);
    for (int i = 0; i < naxes; i++) {
        if (axes[i] < 0 || axes[i] >= rank)
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "axis %d is outside 0..%d", axes[i], rank - 1);
        if (i > 0 && axes[i] <= axes[i - 1])
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "axes must be distinct and increasing");
        out[i] = axes[i];
    }
    *out_n = naxes;
    return LW_OK;
}

lw_status lw_max_levels(int rank, const int64_t *shape, int naxes, const int *axes, int *levels)
{
    int ax[LW_MAX_AXES], na = 0;
    if (!shape || !levels) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    LW_TRY(resolve_axes(rank, naxes, axes, &na, ax));
    int best = -1;
    for (int i = 0; i < na; i++) {
        int64_t n = shape[ax[i]];
        if (n < 1) return lw_fail(LW_ERR_INVALID_SHAPE, "axis %d has length %lld", ax[i], (long long)n);
        if (n == 1) continue;
        int l = axis_max_levels(n);
        if (best < 0 || l < best) best = l;
    }
    *levels = best < 0 ? 0 : best;
    return LW_OK;
}

static lw_status check_enums(const lw_config *cfg)
{
    if ((unsigned)cfg->dtype > LW_BFLOAT16)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)cfg->dtype);
    if (!lw_wavelet_get(cfg->wavelet))
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown wavelet %d", (int)cfg->wavelet);
    if ((unsigned)cfg->mode > LW_PERIODIC)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown boundary mode %d", (int)cfg->mode);
    if ((unsigned)cfg->layout > LW_INTERLEAVED)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown layout %d", (int)cfg->layout);
    if ((unsigned)cfg->direction > LW_INVERSE_ADJOINT)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown direction %d", (int)cfg->direction);
    if ((unsigned)cfg->backend > LW_BACKEND_CPU_REF)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown backend %d", (int)cfg->backend);
    const lw_wavelet_def *w = lw_wavelet_get(cfg->wavelet);
    if (cfg->integer) {
        if (!w->has_integer)
            return lw_fail(LW_ERR_UNSUPPORTED, "wavelet %s has no integer variant", w->name);
        if (cfg->dtype != LW_INT32)
            return lw_fail(LW_ERR_UNSUPPORTED, "the integer transform needs int32 data, not %s",
                           lw_dtype_name(cfg->dtype));
    } else if (cfg->dtype == LW_INT32) {
        return lw_fail(LW_ERR_UNSUPPORTED, "int32 data needs the integer transform");
    }
    if (cfg->integer && lw_dir_adjoint(cfg->direction))
        return lw_fail(LW_ERR_UNSUPPORTED, "%s of integer %s: the integer variants are not linear maps, so they have "
                       "no adjoint (use the float transform)", lw_direction_str(cfg->direction), w->name);
    return LW_OK;
}

lw_status lw_geometry_init(lw_geometry *geo, const lw_config *cfg)
{
    if (!geo || !cfg) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    memset(geo, 0, sizeof *geo);
    LW_TRY(check_enums(cfg));
    LW_TRY(resolve_axes(cfg->rank, cfg->naxes, cfg->axes, &geo->naxes, geo->axes));
    geo->rank = cfg->rank;
    int64_t total = 1;
    for (int i = 0; i < cfg->rank; i++) {
        if (cfg->shape[i] < 1)
            return lw_fail(LW_ERR_INVALID_SHAPE, "axis %d has length %lld", i, (long long)cfg->shape[i]);
        if (lw_mul_i64(total, cfg->shape[i], &total) != 0)
            return lw_fail(LW_ERR_INVALID_SHAPE, "the array's element count overflows");
        geo->shape[i] = cfg->shape[i];
    }
    size_t bytes;
    if ((uint64_t)total > SIZE_MAX || lw_mul_size((size_t)total, lw_dtype_size(cfg->dtype), &bytes) != 0)
        return lw_fail(LW_ERR_INVALID_SHAPE, "the array's byte count overflows");
    geo->total = total;
    int64_t s = 1;
    for (int i = cfg->rank - 1; i >= 0; i--) {
        geo->strides[i] = s;
        s *= cfg->shape[i];
    }

    int lmax = 0;
    LW_TRY(lw_max_levels(geo->rank, geo->shape, geo->naxes, geo->axes, &lmax));
    int levels = cfg->levels;
    if (levels == LW_LEVELS_MAX) levels = cfg->mode == LW_PERIODIC ? periodic_max_levels(geo, lmax) : lmax;
    if (levels < 0)
        return lw_fail(LW_ERR_INVALID_LEVELS, "levels must be >= 0 or max, not %d", cfg->levels);
    if (lmax == 0) levels = 0; /* every transformed axis has length 1: identity */
    if (levels > lmax)
        return lw_fail(LW_ERR_INVALID_LEVELS,
                       "%d levels requested but this shape allows at most %d", levels, lmax);
    geo->levels = levels;

    for (int a = 0; a < geo->naxes; a++) {
        int64_t n = geo->shape[geo->axes[a]];
        geo->len[0][a] = n;
        for (int k = 0; k < levels; k++) {
            if (n > 1 && cfg->mode == LW_PERIODIC && (n & 1))
                return lw_fail(LW_ERR_ODD_PERIODIC,
                               "periodic mode needs even lengths: axis %d has length %lld at level %d",
                               geo->axes[a], (long long)n, k + 1);
            n = (n + 1) / 2;
            geo->len[k + 1][a] = n;
        }
    }
    return LW_OK;
}
