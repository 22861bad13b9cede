/* lw_execute_bands on device memory.  Direct: a plan of the local engine
 * (every band through its own view, local_exec.c), or a 2-D plan of the fused engine
 * (every level tile2d, float types) whose bands have unit column stride and
 * whose detail bands of a level share their row and batch strides (the
 * layout of a (batch, 3, h, w) tensor, or three bands of one shape) -- the
 * kernels store (load) every band in place, the lowpass bands of the inner
 * levels go through the engine's compact scratch.  Otherwise the plan runs
 * into (from) a device array of its size and the bands are copied out (in). */
#include "bands_exec.h"
#include "local_exec.h"

#include <string.h>

/* the plane of band i: rows along the first transformed axis, batches the others */
static lwk_plane band_plane(const lw_plan *p, const lw_band *b)
{
    const lw_geometry *g = &p->geo;
    lwk_plane pl;
    memset(&pl, 0, sizeof pl);
    pl.p = b->data;
    pl.rs = b->strides[g->axes[0]];
    int nb = 0;
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) pl.bs[nb++] = b->strides[i];
    return pl;
}

/* the split detail plane of level k (0-based): bands LH, HL, HH (masks 1, 2, 3) */
static lwk_plane det_plane(const lw_plan *p, const lw_band *bands, int k, size_t es)
{
    const int i = 1 + 3 * (p->geo.levels - 1 - k);
    lwk_plane pl = band_plane(p, &bands[i]);
    pl.split = 1;
    for (int m = 0; m < 3; m++) pl.off[m] = ((const char *)bands[i + m].data - (const char *)bands[i].data) / (int64_t)es;
    return pl;
}

static int same_plane(const lwk_plane *a, const lwk_plane *b)
{
    return a->rs == b->rs && a->bs[0] == b->bs[0] && a->bs[1] == b->bs[1];
}

int lw_cuda_bands_direct_for(const lw_plan *p, const lw_cuda_sched *s, const lw_band *bands)
{
    const lw_geometry *g = &p->geo;
    const lw_direction d = p->cfg.direction;
    if (s->engine == LWE_LOCAL) return d == LW_FORWARD || d == LW_INVERSE; /* any band strides */
    if (s->engine != LWE_TILE2D || s->small_from < g->levels || p->cfg.integer || g->naxes != 2 ||
        (d != LW_FORWARD && d != LW_INVERSE))
        return 0;
    const int n = lw_band_count(p), col = g->axes[1];
    const size_t es = s->esize;
    for (int i = 0; i < n; i++)
        if (bands[i].strides[col] != 1) return 0;
    for (int k = 0; k < g->levels; k++) {
        const int i = 1 + 3 * (g->levels - 1 - k);
        lwk_plane a = band_plane(p, &bands[i]);
        for (int m = 1; m < 3; m++) {
            lwk_plane b = band_plane(p, &bands[i + m]);
            if (!same_plane(&a, &b) || ((const char *)bands[i + m].data - (const char *)bands[i].data) % (ptrdiff_t)es)
                return 0;
        }
    }
    return 1;
}

/* bytes of the compact lowpass bands of levels 1 .. L-1 (two alternating buffers) */
size_t lw_cuda_bands_direct_scratch(const lw_plan *p, const lw_cuda_sched *s)
{
    const int L = p->geo.levels;
    if (s->engine == LWE_LOCAL) return s->scratch;
    if (L < 2) return 0;
    return s->scr_off[0] + (L >= 3 ? (size_t)(s->nbatch * lw_region_count(p, 2)) * s->esize : 0);
}

lw_status lw_cuda_run_bands_direct(const lw_plan *p, const lw_cuda_sched *s, void *samples, const lw_band *bands,
                                   void *scratch, cudaStream_t st)
{
    if (s->engine == LWE_LOCAL)
        return lw_local_run(p, s, samples, samples, bands, scratch, st);
    char *ws = scratch;
    const int L = p->geo.levels;
    const lwk_plane low = band_plane(p, &bands[0]);
    if (p->cfg.direction == LW_FORWARD) {
        lwk_plane src = lw_cuda_plane_of(p, samples, 0, 0);
        for (int k = 0; k < L; k++) {
            lwk_tile2d t;
            lw_cuda_tile_setup(p, s, k, &t);
            const lwk_plane det = det_plane(p, bands, k, s->esize);
            const lwk_plane ll = k == L - 1 ? low : lw_cuda_plane_of(p, ws + s->scr_off[(k + 1) % 2], k + 1, 1);
            CK(lwk_tile2d_forward(s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (bands)");
            src = ll;
        }
        return LW_OK;
    }
    for (int k = L - 1; k >= 0; k--) {
        lwk_tile2d t;
        lw_cuda_tile_setup(p, s, k, &t);
        const lwk_plane det = det_plane(p, bands, k, s->esize);
        const lwk_plane ll = k == L - 1 ? low : lw_cuda_plane_of(p, ws + s->scr_off[(k + 1) % 2], k + 1, 1);
        const lwk_plane dst = k == 0 ? lw_cuda_plane_of(p, samples, 0, 0) : lw_cuda_plane_of(p, ws + s->scr_off[k % 2], k, 1);
        CK(lwk_tile2d_inverse(s->dtype, &t, ll, det, dst, st), "cuda tile2d kernel launch (bands)");
    }
    return LW_OK;
}

/* band i between its region of the device array arr and its view, on the stream in ctx */
typedef struct copy_ctx {
    int dtype;
    cudaStream_t st;
} copy_ctx;

static lw_status band_copy_device(const lw_plan *p, int i, void *arr, const lw_band *b, int to_band, void *ctx)
{
    const copy_ctx *c = ctx;
    const lw_geometry *g = &p->geo;
    lwk_bandcopy k;
    memset(&k, 0, sizeof k);
    int64_t off[LW_MAX_RANK];
    lw_band_region(p, i, off, k.len, NULL, NULL);
    k.rank = g->rank, k.to_band = to_band;
    for (int d = 0; d < g->rank; d++) k.ast[d] = g->strides[d], k.bst[d] = b->strides[d], k.aoff += off[d] * g->strides[d];
    CK(lwk_bandcopy_launch(c->dtype, &k, to_band ? arr : b->data, to_band ? b->data : arr, c->st), "band copy launch");
    return LW_OK;
}

lw_status lw_cuda_run_bands_via_array(const lw_plan *p, const lw_cuda_sched *s, void *samples, const lw_band *bands,
                                      cudaStream_t st)
{
    void *arr = NULL; /* the coefficient array, for this call only */
    CK(cudaMallocAsync(&arr, s->bytes ? s->bytes : 1, st), "cudaMallocAsync (bands: the coefficient array)");
    copy_ctx c = {s->dtype, st};
    lw_status r = lw_bands_through_array(p, samples, bands, arr, band_copy_device, &c);
    lw_status f = lw_cuda_check(cudaFreeAsync(arr, st), "cudaFreeAsync (bands: the coefficient array)");
    return r == LW_OK ? f : r;
}
