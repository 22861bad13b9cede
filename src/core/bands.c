/* Bands in memory of their own (lw_execute_bands): where each band of a
 * Mallat plan lies, the checks, and the path every backend can take: the
 * transform into (from) a Mallat array of the plan's size, the bands copied
 * out (in).  A backend with a direct path (cuda) hooks execute_bands. */
#include "lw_internal.h"

#include <stdlib.h>
#include <string.h>

int lw_band_count(const lw_plan *p)
{
    if (!p || p->cfg.layout != LW_MALLAT) return 0;
    return 1 + p->geo.levels * ((1 << p->geo.naxes) - 1);
}

lw_status lw_band_region(const lw_plan *p, int i, int64_t *off, int64_t *len, int *level, unsigned *mask)
{
    const lw_geometry *g = &p->geo;
    const int per = (1 << g->naxes) - 1, n = lw_band_count(p);
    if (i < 0 || i >= n) return lw_fail(LW_ERR_INVALID_ARGUMENT, "band %d: the plan has %d bands", i, n);
    const int lev = i == 0 ? g->levels : g->levels - (i - 1) / per;
    const unsigned m = i == 0 ? 0u : (unsigned)((i - 1) % per + 1);
    for (int d = 0; d < g->rank; d++) off[d] = 0, len[d] = g->shape[d];
    for (int a = 0; a < g->naxes; a++) {
        const int d = g->axes[a];
        const int64_t lo = g->len[lev][a];
        if (m & (1u << (g->naxes - 1 - a))) {
            off[d] = lo;
            len[d] = g->len[lev - 1][a] - lo;
        } else {
            len[d] = lo;
        }
    }
    if (level) *level = lev;
    if (mask) *mask = m;
    return LW_OK;
}

lw_status lw_band_shape(const lw_plan *p, int i, int64_t *shape, int *level, unsigned *mask)
{
    if (!p) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL plan");
    if (p->cfg.layout != LW_MALLAT)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bands: the plan's layout is interleaved (bands are of Mallat plans)");
    int64_t off[LW_MAX_RANK], len[LW_MAX_RANK];
    LW_TRY(lw_band_region(p, i, off, len, level, mask));
    if (shape) memcpy(shape, len, sizeof(int64_t) * (size_t)p->geo.rank);
    return LW_OK;
}

int lw_bands_to_coefficients(const lw_plan *p) { return !lw_dir_coarse_first(p->cfg.direction); }

/* Copy between band i's region of the Mallat array `arr` (host memory) and its view. */
static lw_status band_copy(const lw_plan *p, int i, void *array, const lw_band *b, int to_band, void *ctx)
{
    (void)ctx;
    char *arr = array;
    const lw_geometry *g = &p->geo;
    const size_t es = lw_dtype_size(p->cfg.dtype);
    int64_t off[LW_MAX_RANK], len[LW_MAX_RANK], idx[LW_MAX_RANK] = {0};
    lw_band_region(p, i, off, len, NULL, NULL);
    const int r = g->rank;
    int64_t count = 1;
    for (int d = 0; d < r; d++) count *= len[d];
    if (count == 0) return LW_OK;
    const int64_t rows = count / len[r - 1], n = len[r - 1], bs = b->strides[r - 1];
    for (int64_t row = 0; row < rows; row++) {
        int64_t ao = 0, bo = 0;
        for (int d = 0; d < r; d++) ao += (off[d] + idx[d]) * g->strides[d], bo += idx[d] * b->strides[d];
        char *pa = arr + (size_t)ao * es, *pb = (char *)b->data + bo * (int64_t)es;
        if (bs == 1) {
            if (to_band) memcpy(pb, pa, (size_t)n * es);
            else memcpy(pa, pb, (size_t)n * es);
        } else {
            for (int64_t j = 0; j < n; j++) {
                char *q = pb + j * bs * (int64_t)es;
                if (to_band) memcpy(q, pa + (size_t)j * es, es);
                else memcpy(pa + (size_t)j * es, q, es);
            }
        }
        for (int d = r - 2; d >= 0; d--) { /* next row of the band */
            if (++idx[d] < len[d]) break;
            idx[d] = 0;
        }
    }
    return LW_OK;
}

lw_status lw_bands_through_array(const lw_plan *p, void *samples, const lw_band *bands, void *arr,
                                 lw_band_copy_fn copy, void *ctx)
{
    const int n = lw_band_count(p), to = lw_bands_to_coefficients(p);
    if (to) LW_TRY(lw_execute(p, samples, arr));
    for (int i = 0; i < n; i++) LW_TRY(copy(p, i, arr, &bands[i], to, ctx));
    if (!to) LW_TRY(lw_execute(p, arr, samples));
    return LW_OK;
}

lw_status lw_bands_via_array(const lw_plan *p, void *samples, const lw_band *bands)
{
    const size_t bytes = (size_t)p->geo.total * lw_dtype_size(p->cfg.dtype);
    char *arr = malloc(bytes ? bytes : 1);
    if (!arr) return lw_fail(LW_ERR_OUT_OF_MEMORY, "bands: cannot allocate %zu bytes for the coefficient array", bytes);
    lw_status st = lw_bands_through_array(p, samples, bands, arr, band_copy, NULL);
    free(arr);
    return st;
}

lw_status lw_execute_bands(const lw_plan *p, void *samples, const lw_band *bands)
{
    if (!p) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL plan");
    if (!samples || !bands) return lw_fail(LW_ERR_INVALID_ARGUMENT, "bands: NULL samples or bands");
    if (p->cfg.layout != LW_MALLAT)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bands: the plan's layout is interleaved (bands are of Mallat plans)");
    if (p->cfg.flags & (LW_FLAG_IN_PLACE | LW_FLAG_DEVICE_INPUT | LW_FLAG_DEVICE_OUTPUT))
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bands: not with LW_FLAG_IN_PLACE or one side on the device "
                       "(LW_FLAG_DEVICE_INPUT / _OUTPUT)");
    const int n = lw_band_count(p);
    for (int i = 0; i < n; i++) {
        int64_t off[LW_MAX_RANK], len[LW_MAX_RANK];
        lw_band_region(p, i, off, len, NULL, NULL);
        int empty = 0;
        for (int d = 0; d < p->geo.rank; d++) empty |= len[d] == 0;
        if (!empty && !bands[i].data) return lw_fail(LW_ERR_INVALID_ARGUMENT, "bands: band %d has no data pointer", i);
    }
    if (p->ops->execute_bands) return p->ops->execute_bands(p, samples, bands);
    return lw_bands_via_array(p, samples, bands);
}
