/* The first level of a multi-level fused 2-D transform in row bands: the
 * launches of a band plan (src/core/band_plan.c plans them). */
#include "cuda_exec.h"

#include <string.h>

/* ---- launches ---------------------------------------------------------------- */

static lwk_plane mk_plane(const void *p, int64_t rs, int64_t bs)
{
    lwk_plane pl;
    memset(&pl, 0, sizeof pl);
    pl.p = p, pl.rs = rs, pl.bs[1] = bs;
    return pl;
}

static const void *at(const void *base, int64_t elems, size_t es) { return (const char *)base + (size_t)elems * es; }

lw_status lw_bands_run_fwd(const lw_cuda_sched *s, const lwk_tile2d *t0, const void *in, void *out, cudaStream_t st)
{
    const lw_band_geo *g = &s->bg;
    const lw_bands *b = &s->bands;
    const size_t es = s->esize;
    const int64_t C = g->C, hc = g->hc, N = g->R * C, rc1 = g->hr * hc;
    lwk_tile2d t = *t0;
    t.blen[0] = t.blen[1] = 1;
    lwk_plane src = mk_plane(in, C, N), det = mk_plane(out, C, N);
    for (int j = 0; j < b->n; j++) {
        t.row_lo = b->b[j], t.row_hi = b->b[j + 1];
        lwk_plane ll = j == 0 ? mk_plane(out, C, N) : mk_plane(in, hc, rc1); /* band 0: out's LL corner */
        CK(lwk_tile2d_forward(s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (band)");
    }
    int64_t q = (b->b[1] + 1) / 2; /* LL rows of band 0 */
    CK(cudaMemcpy2DAsync((void *)in, (size_t)hc * es, out, (size_t)C * es, (size_t)hc * es, (size_t)q,
                         cudaMemcpyDeviceToDevice, st),
       "cudaMemcpy2DAsync (band 0 lowpass)");
    t.row_lo = 0, t.row_hi = g->R;
    for (int j = 0; j < b->ng; j++) {
        int64_t p0 = b->g[j], p1 = b->g[j + 1];
        t.blen[1] = p1 - p0;
        CK(lwk_tile2d_forward(s->dtype, &t, mk_plane(at(in, p0 * N, es), C, N), mk_plane(at(in, p0 * rc1, es), hc, rc1),
                              mk_plane(at(out, p0 * N, es), C, N), st),
           "cuda tile2d kernel launch (planes)");
    }
    return LW_OK;
}

lw_status lw_bands_run_inv(const lw_cuda_sched *s, const lwk_tile2d *t0, const void *in, void *out, void *scratch,
                           cudaStream_t st)
{
    const lw_band_geo *g = &s->bg;
    const lw_bands *b = &s->bands;
    const size_t es = s->esize;
    const int64_t C = g->C, hc = g->hc, N = g->R * C, rc1 = g->hr * hc;
    lwk_tile2d t = *t0;
    t.blen[0] = 1;
    t.row_lo = 0, t.row_hi = g->R;
    for (int j = 0; j < b->ng; j++) { /* whole planes, last first */
        int64_t p1 = b->g[j], p0 = b->g[j + 1];
        t.blen[1] = p1 - p0;
        CK(lwk_tile2d_inverse(s->dtype, &t, mk_plane(at(out, p0 * rc1, es), hc, rc1),
                              mk_plane(at(in, p0 * N, es), C, N), mk_plane(at(out, p0 * N, es), C, N), st),
           "cuda tile2d kernel launch (planes)");
    }
    if (b->lead) { /* planes [0, lead) from a copy of their LL1 */
        void *ll1 = b->stash == 2 ? (void *)at(in, b->lead * N, es) : scratch;
        if (!ll1) return lw_fail(LW_ERR_INTERNAL, "cuda: banded inverse without room for the lowpass copy");
        CK(cudaMemcpyAsync(ll1, out, (size_t)(b->lead * rc1) * es, cudaMemcpyDeviceToDevice, st),
           "cudaMemcpyAsync (lowpass of the first planes)");
        t.blen[1] = b->lead;
        CK(lwk_tile2d_inverse(s->dtype, &t, mk_plane(ll1, hc, rc1), mk_plane(in, C, N), mk_plane(out, C, N), st),
           "cuda tile2d kernel launch (first planes)");
        return LW_OK;
    }
    t.blen[1] = 1;
    void *stash = b->stash == 0   ? scratch
                  : b->stash == 1 ? (void *)at(in, b->stash_row * C, es)
                                  : (void *)at(in, N, es);
    if (!stash) return lw_fail(LW_ERR_INTERNAL, "cuda: banded inverse without a stash");
    lwk_plane ll = mk_plane(out, hc, rc1), det = mk_plane(in, C, N), dst = mk_plane(out, C, N);
    for (int j = b->stash == 1 ? 0 : -1; j < b->n; j++) {
        if (j >= 0) {
            t.row_lo = b->b[j + 1], t.row_hi = b->b[j];
            CK(lwk_tile2d_inverse(s->dtype, &t, ll, det, dst, st), "cuda tile2d kernel launch (band)");
        }
        if (j == (b->stash == 1 ? 0 : -1)) { /* the top rows, into the stash */
            t.row_lo = 0, t.row_hi = b->x;
            CK(lwk_tile2d_inverse(s->dtype, &t, ll, det, mk_plane(stash, C, N), st), "cuda tile2d kernel launch (top)");
        }
    }
    CK(cudaMemcpyAsync(out, stash, (size_t)(b->x * C) * es, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync (top rows)");
    return LW_OK;
}
