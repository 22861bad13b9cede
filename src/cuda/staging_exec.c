/* Host-pointer runs of the CUDA backend (staging_exec.h): the moves of one
 * call scheduled against its kernels, so that the upload, the transform and
 * the download overlap where the engine allows it.
 *
 * 2-D with the fused engine, in != out, at least 256 rows: the first level
 * runs in row bands on three streams in turn; band j uploads the input rows
 * it reads (a halo of CHUNK_HALO rows each side), runs the level on them and
 * downloads the output rows it finished, so that the copy engines carry band
 * j+1 up while band j-1 comes down.  For a pyramid, level 1 writes its
 * lowpass band compact into d_ll instead of out, every detail coefficient
 * of level 1 (3/4 of the output) comes down behind the bands, and levels
 * 2..L run on d_ll by the tail plan before the last quarter comes down.
 * Forward pyramids of three levels or more in symmetric mode (band2) run
 * level 2 in bands too, each behind the level-1 bands that wrote the rows
 * it reads, its details coming down from the lowpass quadrant of d_out
 * (which level 1 leaves alone) and its lowpass band going compact to d_ll2;
 * then only levels 3..L and the last sixteenth wait for the end.
 * The inverse mirrors it: the lowpass quarter goes up first and levels
 * L..2 run on it while the detail bands go up; level 1 then runs in bands.
 * With band2 the sixteenth goes up first, levels L..3 run on it, and level 2
 * runs in bands ahead of level 1's, its detail rows going up into d_in's
 * lowpass quadrant band by band (from pinned memory; from pageable memory
 * they go up whole after the sixteenth and level 2 runs in one launch before
 * the bands).
 * Expected: one level near the concurrent both-ways PCIe bound; a pyramid
 * about 1 / (1 + 1/4) of it (the last quarter moves alone), 1 / (1 + 1/16)
 * with band2.
 *
 * 3-D: level 1 in slabs of planes along axis 0 (staging_slabs.c), each
 * slab transformed by a plan of its own shape as soon as its planes are up,
 * its core coming down behind; expected like one-level 2-D; a pyramid keeps
 * the lowpass octant for levels 2..L (1/8 moving alone at the end).
 *
 * Batches (trailing axes transformed): in groups of items, each group up,
 * transformed, down on its stream (staging_items.c).
 *
 * Everything else (in place, interleaved or periodic 3-D, other axes, other engines): the whole
 * array up, the transform, the whole array down; pageable memory still
 * moves at the staging ring's speed, but the two directions do not overlap
 * (about half the bound). */
#include "staging_exec.h"

#include <string.h>

#define CHUNK_HALO 8

/* ---- moves ------------------------------------------------------------------ */

/* rows [r0, r1) (clipped to [0, lim)), columns [c0, c1) of an array of C
 * columns, at the same offsets on the host and the device */
static lw_box rows_box(int64_t *r0, int64_t *r1, int64_t lim, int64_t C, int64_t c0, int64_t c1, size_t es)
{
    if (*r0 < 0) *r0 = 0;
    if (*r1 > lim) *r1 = lim;
    lw_box b;
    memset(&b, 0, sizeof b);
    if (*r1 <= *r0 || c1 <= c0) return b;
    b.row = (size_t)(c1 - c0) * es, b.ny = *r1 - *r0, b.nz = 1;
    b.hpitch = b.dpitch = (size_t)C * es;
    b.hplane = b.dplane = b.hpitch * (size_t)b.ny;
    return b;
}

lw_status lw_host_up_begin(lw_host_call *h, lw_host_ups *u, const lw_box *b, const void *host, void *dev,
                          cudaStream_t st)
{
    if (u->n == LW_HOST_UPS) return lw_fail(LW_ERR_INTERNAL, "staging: more than %d uploads in a step", LW_HOST_UPS);
    return lw_stage_up_begin(h->stg, b, host, dev, h->din, st, &u->t[u->n++]);
}

lw_status lw_host_ups_end(lw_host_call *h, lw_host_ups *u)
{
    for (int k = 0; k < u->n; k++) LW_TRY(lw_stage_up_end(h->stg, u->t[k]));
    u->n = 0;
    return LW_OK;
}

static lw_status up_rows(lw_host_call *h, lw_host_ups *u, const void *in, void *d, int64_t r0, int64_t r1, int64_t lim,
                         int64_t C, int64_t c0, int64_t c1, cudaStream_t st)
{
    const size_t es = h->s->esize;
    lw_box b = rows_box(&r0, &r1, lim, C, c0, c1, es);
    if (!b.ny) return LW_OK;
    size_t off = (size_t)(r0 * C + c0) * es;
    return lw_host_up_begin(h, u, &b, (const char *)in + off, (char *)d + off, st);
}

static lw_status down_rows(lw_host_call *h, void *out, const void *d, int64_t r0, int64_t r1, int64_t C, int64_t c0,
                           int64_t c1, cudaStream_t st)
{
    const size_t es = h->s->esize;
    lw_box b = rows_box(&r0, &r1, r1, C, c0, c1, es);
    if (!b.ny) return LW_OK;
    size_t off = (size_t)(r0 * C + c0) * es;
    return lw_stage_down(h->stg, &b, (char *)out + off, (const char *)d + off, h->dout, st);
}

/* the lowpass quarter: hr x hc at the host array's corner (row pitch C),
 * compact on the device */
static lw_box quarter_box(int64_t hr, int64_t hc, int64_t C, size_t es)
{
    lw_box b = {(size_t)hc * es, hr, 1, (size_t)C * es, (size_t)(hr * C) * es, (size_t)hc * es, (size_t)(hr * hc) * es};
    return b;
}

static lwk_plane plane(const void *p, int64_t rs)
{
    lwk_plane x;
    memset(&x, 0, sizeof x);
    x.p = p, x.rs = rs;
    return x;
}

lw_status lw_host_finish(lw_host_call *h)
{
    LW_TRY(lw_stage_drain(h->stg));
    for (int k = 0; k < 3; k++) CK(cudaStreamSynchronize(h->st[k]), "transform or host copy");
    return LW_OK;
}

/* ---- 2-D in row bands -------------------------------------------------------- */

static int64_t band_rows(int64_t R)
{
    int64_t cr = ((R / 32 + 31) / 32) * 32;
    return cr < 64 ? 64 : cr;
}

static void level1_tile(const lw_host_call *h, lwk_tile2d *t)
{
    memset(t, 0, sizeof *t);
    t->w = h->s->w;
    t->rows = h->p->geo.shape[0], t->cols = h->p->geo.shape[1];
    t->blen[0] = t->blen[1] = 1, t->mode = (int)h->p->cfg.mode;
}

/* band i: rows [r0, r1) of R in bands of cr rows, on stream i % 3 */
static void band_at(int64_t i, int64_t cr, int64_t R, int64_t *r0, int64_t *r1)
{
    *r0 = i * cr;
    *r1 = *r0 + cr < R ? *r0 + cr : R;
}

/* the input rows band i of the forward reads (a halo of CHUNK_HALO rows each side; periodic: wrapped) */
static lw_status fwd_band_up(lw_host_call *h, const void *in, int64_t i, int64_t cr, lw_host_ups *u)
{
    const int64_t R = h->p->geo.shape[0], C = h->p->geo.shape[1], H = CHUNK_HALO;
    const int per = h->p->cfg.mode == LW_PERIODIC;
    int64_t r0, r1;
    band_at(i, cr, R, &r0, &r1);
    cudaStream_t st = h->st[i % 3];
    LW_TRY(up_rows(h, u, in, h->d_in, r0 - H, r1 + H, R, C, 0, C, st));
    if (per && r0 == 0) LW_TRY(up_rows(h, u, in, h->d_in, R - H, R, R, C, 0, C, st));
    if (per && r1 == R) LW_TRY(up_rows(h, u, in, h->d_in, 0, H, R, C, 0, C, st));
    return LW_OK;
}

/* what a forward band of input rows [r0, r1) of a level (hr lowpass rows, cw
 * columns) finished, down from d_out at the host's offsets: its lowpass rows
 * from column c0 on (a pyramid keeps the lowpass columns on the device), its
 * highpass rows whole */
static lw_status down_band(lw_host_call *h, void *out, int64_t r0, int64_t r1, int64_t hr, int64_t c0, int64_t cw,
                           cudaStream_t st)
{
    const int64_t C = h->p->geo.shape[1];
    LW_TRY(down_rows(h, out, h->d_out, r0 / 2, (r1 + 1) / 2, C, c0, cw, st));
    return down_rows(h, out, h->d_out, hr + r0 / 2, hr + r1 / 2, C, 0, cw, st);
}

/* band2: level 2's rows [a0, a1) of the level-1 lowpass band (d_ll, compact),
 * on stream st once the level-1 bands that wrote the rows it reads have run:
 * its details into d_out's lowpass quadrant and down from there, its lowpass
 * rows compact into d_ll2 */
static lw_status fwd_level2_band(lw_host_call *h, void *out, int64_t a0, int64_t a1, cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t C = g->shape[1], r2 = g->len[1][0], c2 = g->len[1][1], hr2 = g->len[2][0], hc2 = g->len[2][1];
    lwk_tile2d t;
    level1_tile(h, &t);
    t.rows = r2, t.cols = c2, t.row_lo = a0, t.row_hi = a1;
    lwk_plane src = plane(h->d_ll, c2), det = plane(h->d_out, C), ll = plane(h->d_ll2, hc2);
    CK(lwk_tile2d_forward(h->s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (level-2 band)");
    return down_band(h, out, a0, a1, hr2, hc2, c2, st);
}

lw_status lw_host_join(lw_host_call *h, int to)
{
    for (int k = 0; k < 3; k++) {
        if (k == to) continue;
        CK(cudaEventRecord(h->ev[k], h->st[k]), "cudaEventRecord");
        CK(cudaStreamWaitEvent(h->st[to], h->ev[k], 0), "cudaStreamWaitEvent");
    }
    return LW_OK;
}

static lw_status run_bands_fwd(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[0], C = g->shape[1], hr = (R + 1) / 2, hc = (C + 1) / 2;
    const int pyr = h->tail != NULL, b2 = pyr && h->band2;
    const int64_t cr = band_rows(R), nb = (R + cr - 1) / cr;
    lwk_tile2d t;
    level1_tile(h, &t);
    lwk_plane src = plane(h->d_in, C), det = plane(h->d_out, C), ll = pyr ? plane(h->d_ll, hc) : det;
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    int64_t done2 = 0; /* band2: level-1 lowpass rows level 2 has taken */
    LW_TRY(fwd_band_up(h, in, 0, cr, &u[0]));
    for (int64_t i = 0; i < nb; i++) {
        int64_t r0, r1;
        band_at(i, cr, R, &r0, &r1);
        cudaStream_t st = h->st[i % 3];
        if (i + 1 < nb) LW_TRY(fwd_band_up(h, in, i + 1, cr, &u[(i + 1) % 2]));
        LW_TRY(lw_host_ups_end(h, &u[i % 2]));
        t.row_lo = r0, t.row_hi = r1;
        CK(lwk_tile2d_forward(h->s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (band)");
        if (b2) {
            /* the level-1 lowpass rows below (r1 + 1) / 2 are written once this band's kernel and the
             * last ones queued on the other streams have run (each stream's event marks its latest
             * level-1 kernel, not the downloads behind it); level 2 takes the rows whose windows
             * (CHUNK_HALO rows) lie below */
            const int q = (int)(i % 3);
            CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
            const int64_t a1 = i + 1 == nb ? hr : (((r1 + 1) / 2 - CHUNK_HALO) & ~(int64_t)1);
            if (a1 - done2 >= 32 || (i + 1 == nb && a1 > done2)) {
                for (int k = 1; k < 3; k++) CK(cudaStreamWaitEvent(st, h->ev[(q + k) % 3], 0), "cudaStreamWaitEvent");
                LW_TRY(fwd_level2_band(h, out, done2, a1, st));
                done2 = a1;
            }
        }
        /* lowpass rows: all of them, or (pyramid) their highpass columns */
        LW_TRY(down_band(h, out, r0, r1, hr, pyr ? hc : 0, C, st));
    }
    if (pyr) { /* levels 2..L (band2: 3..L) on the lowpass band once every band has written it */
        LW_TRY(lw_host_join(h, 0));
        void *lo = b2 ? h->d_ll2 : h->d_ll, *to = b2 ? h->d_ll : h->d_ll2;
        const int64_t qr = b2 ? g->len[2][0] : hr, qc = b2 ? g->len[2][1] : hc;
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, lo, to, h->d_scr, h->st[0]));
        lw_box q = quarter_box(qr, qc, C, h->s->esize);
        LW_TRY(lw_stage_down(h->stg, &q, out, to, h->dout, h->st[0]));
    }
    return lw_host_finish(h);
}

/* band2, inverse: level 2 in bands ahead of level 1's when the input moves by the copy engines
 * (pinned, registered).  From pageable memory its detail rows go up whole after the sixteenth and it
 * runs in one launch before the bands: staged band by band, the narrow level-2 boxes slowed those
 * inverses where the whole boxes did not (bench/NOTES-hostmem.md) */
static int inv_level2_banded(const lw_host_call *h)
{
    return h->tail && h->band2 && h->din;
}

/* band2, inverse: the level-1 lowpass rows [*b0, *b1) level 2 writes ahead of band i of cr rows: those
 * its windows (CHUNK_HALO rows each side) read that the bands before it did not; none when *b0 == *b1 */
static void inv_level2_rows(const lw_host_call *h, int64_t i, int64_t cr, int64_t *b0, int64_t *b1)
{
    const int64_t R = h->p->geo.shape[0], hr = (R + 1) / 2, nb = (R + cr - 1) / cr;
    int64_t end[2] = {0, 0}; /* after bands i - 1 and i */
    for (int k = 0; k < 2; k++) {
        const int64_t j = i - 1 + k;
        if (j < 0) continue;
        int64_t r0, r1;
        band_at(j, cr, R, &r0, &r1);
        const int64_t need = (r1 + CHUNK_HALO) / 2 + 2;
        end[k] = j + 1 == nb || need >= hr ? hr : (need + 1) & ~(int64_t)1;
    }
    *b0 = end[0], *b1 = end[1];
}

/* band2, inverse: the level-2 detail rows that its band of level-1 lowpass rows [b0, b1) reads, from the
 * input's lowpass quadrant to the same places in d_in (which level 1's bands leave alone) */
static lw_status inv_level2_up(lw_host_call *h, const void *in, int64_t b0, int64_t b1, cudaStream_t st,
                               lw_host_ups *u)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t C = g->shape[1], r2 = g->len[1][0], c2 = g->len[1][1], hr2 = g->len[2][0], hc2 = g->len[2][1];
    const int64_t l0 = (b0 - CHUNK_HALO) / 2 - 1, l1 = (b1 + CHUNK_HALO) / 2 + 1;
    const size_t off = (size_t)(hr2 * C) * h->s->esize;
    LW_TRY(up_rows(h, u, in, h->d_in, l0, l1, hr2, C, hc2, c2, st));
    return up_rows(h, u, (const char *)in + off, (char *)h->d_in + off, l0, l1, r2 - hr2, C, 0, c2, st);
}

/* the lowpass and highpass rows band i of the inverse reads, and (level 2 banded) the level-2 detail rows
 * of the level-2 band ahead of it: one step, begun while the step before is still being copied in */
static lw_status inv_band_up(lw_host_call *h, const void *in, int64_t i, int64_t cr, lw_host_ups *u)
{
    const int64_t R = h->p->geo.shape[0], C = h->p->geo.shape[1], hr = (R + 1) / 2, hc = (C + 1) / 2, H = CHUNK_HALO;
    const size_t es = h->s->esize;
    int64_t r0, r1;
    band_at(i, cr, R, &r0, &r1);
    cudaStream_t st = h->st[i % 3];
    const int64_t l0 = (r0 - H) / 2 - 1, l1 = (r1 + H) / 2 + 1;
    const void *in_h = (const char *)in + (size_t)(hr * C) * es;
    void *d_h = (char *)h->d_in + (size_t)(hr * C) * es;
    if (inv_level2_banded(h)) {
        int64_t b0, b1;
        inv_level2_rows(h, i, cr, &b0, &b1);
        if (b1 > b0) LW_TRY(inv_level2_up(h, in, b0, b1, st, u));
    }
    LW_TRY(up_rows(h, u, in, h->d_in, l0, l1, hr, C, h->tail ? hc : 0, C, st));
    return up_rows(h, u, in_h, d_h, l0, l1, R - hr, C, 0, C, st);
}

/* band2, inverse: level 2's output rows [b0, b1) (the level-1 lowpass band, compact into d_ll2) from the
 * level-2 lowpass band ll2 (levels L..3 done) and its detail rows (up with the band's step), on stream st */
static lw_status inv_level2_band(lw_host_call *h, const void *ll2, int64_t b0, int64_t b1, cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    lwk_tile2d t;
    level1_tile(h, &t);
    t.rows = g->len[1][0], t.cols = g->len[1][1], t.row_lo = b0, t.row_hi = b1;
    CK(lwk_tile2d_inverse(h->s->dtype, &t, plane(ll2, g->len[2][1]), plane(h->d_in, g->shape[1]),
                          plane(h->d_ll2, g->len[1][1]), st),
       "cuda tile2d kernel launch (level-2 band)");
    return LW_OK;
}

static lw_status run_bands_inv(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[0], C = g->shape[1], hr = (R + 1) / 2, hc = (C + 1) / 2;
    const int pyr = h->tail != NULL, b2 = pyr && h->band2, banded2 = inv_level2_banded(h);
    const int64_t cr = band_rows(R), nb = (R + cr - 1) / cr;
    const size_t es = h->s->esize;
    /* band2: the sixteenth goes up into d_ll, levels L..3 write the level-2 lowpass band after it */
    const size_t n16 = (size_t)(g->len[2][0] * g->len[2][1]) * es;
    const char *ll2 = b2 ? (const char *)h->d_ll + ((n16 + 255) & ~(size_t)255) : NULL;
    lwk_tile2d t;
    level1_tile(h, &t);
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    if (pyr) { /* the lowpass quarter (band2: sixteenth) first, and levels L..2 (L..3) on it */
        lw_box q = quarter_box(b2 ? g->len[2][0] : hr, b2 ? g->len[2][1] : hc, C, es);
        LW_TRY(lw_stage_up(h->stg, &q, in, h->d_ll, h->din, h->st[0]));
        if (b2 && !banded2) { /* level 2's detail rows whole */
            lw_host_ups v = {{0}, 0};
            LW_TRY(inv_level2_up(h, in, 0, hr, h->st[0], &v));
            LW_TRY(lw_host_ups_end(h, &v));
        }
        LW_TRY(inv_band_up(h, in, 0, cr, &u[0]));
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, h->d_ll, b2 ? (void *)ll2 : h->d_ll2, h->d_scr, h->st[0]));
        if (b2 && !banded2) LW_TRY(inv_level2_band(h, ll2, 0, hr, h->st[0]));
        CK(cudaEventRecord(h->ev[0], h->st[0]), "cudaEventRecord");
    } else {
        LW_TRY(inv_band_up(h, in, 0, cr, &u[0]));
    }
    lwk_plane det = plane(h->d_in, C), ll = pyr ? plane(h->d_ll2, hc) : det, dst = plane(h->d_out, C);
    for (int64_t i = 0; i < nb; i++) {
        int64_t r0, r1;
        band_at(i, cr, R, &r0, &r1);
        const int q = (int)(i % 3);
        cudaStream_t st = h->st[q];
        if (i + 1 < nb) LW_TRY(inv_band_up(h, in, i + 1, cr, &u[(i + 1) % 2]));
        LW_TRY(lw_host_ups_end(h, &u[i % 2]));
        if (banded2) {
            /* level 2 ahead of level 1: the lowpass rows this band's windows read, on this stream behind
             * levels L..3 (stream 0's event); each stream's event then marks its latest level-2 band,
             * which this band waits for on the others */
            int64_t b0, b1;
            inv_level2_rows(h, i, cr, &b0, &b1);
            if (b1 > b0) {
                if (q != 0) CK(cudaStreamWaitEvent(st, h->ev[0], 0), "cudaStreamWaitEvent");
                LW_TRY(inv_level2_band(h, ll2, b0, b1, st));
                CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
            }
            for (int k = 1; k < 3; k++) CK(cudaStreamWaitEvent(st, h->ev[(q + k) % 3], 0), "cudaStreamWaitEvent");
        } else if (pyr && i > 0 && i < 3) {
            CK(cudaStreamWaitEvent(st, h->ev[0], 0), "cudaStreamWaitEvent");
        }
        t.row_lo = r0, t.row_hi = r1;
        CK(lwk_tile2d_inverse(h->s->dtype, &t, ll, det, dst, st), "cuda tile2d kernel launch (band)");
        LW_TRY(down_rows(h, out, h->d_out, r0, r1, C, 0, C, st));
    }
    return lw_host_finish(h);
}

/* ---- the rest ------------------------------------------------------------------ */

static lw_status run_whole(lw_host_call *h, const void *in, void *out)
{
    lw_box b = lw_box_linear(h->s->bytes);
    void *dres = in == out ? h->d_in : h->d_out; /* in place on the host: in place on the device */
    LW_TRY(lw_stage_up(h->stg, &b, in, h->d_in, h->din, h->st[0]));
    LW_TRY(lw_cuda_run(h->p, h->s, h->d_in, dres, h->d_scr, h->st[0]));
    LW_TRY(lw_stage_down(h->stg, &b, out, dres, h->dout, h->st[0]));
    return lw_host_finish(h);
}

void lw_host_sub_config(const lw_plan *p, lw_config *cfg)
{
    lw_config_init(cfg);
    cfg->dtype = p->cfg.dtype, cfg->wavelet = p->cfg.wavelet, cfg->mode = p->cfg.mode;
    cfg->direction = p->cfg.direction, cfg->integer = p->cfg.integer;
    cfg->gain[0] = p->cfg.gain[0], cfg->gain[1] = p->cfg.gain[1];
    cfg->backend = LW_BACKEND_CUDA;
}

/* the row bands apply: fused 2-D engine on a plain 2-D array, long enough */
static int bands_apply(const lw_plan *p, const lw_cuda_sched *s)
{
    if (p->cfg.mode == LW_PERIODIC && p->cfg.direction == LW_INVERSE) return 0; /* wrapped rows: not banded */
    return s->engine == LWE_TILE2D && p->geo.rank == 2 && p->geo.naxes == 2 && p->geo.len[0][0] >= 256;
}

/* Level 2 of a pyramid in bands (run_bands_fwd, run_bands_inv): three levels or
 * more (levels 3..L are the tail), symmetric mode (a periodic band at the top
 * would read the bottom's rows before they exist), the fused kernel on the
 * level-1 lowpass band, and bands of level-1 lowpass rows at least twice
 * CHUNK_HALO tall. */
static int band2_applies(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    return (p->cfg.direction == LW_FORWARD || p->cfg.direction == LW_INVERSE) && p->cfg.mode != LW_PERIODIC &&
           g->levels >= 3 &&
           band_rows(g->shape[0]) / 2 >= 2 * CHUNK_HALO &&
           lwk_tile2d_supported(s->dtype, &s->w, p->cfg.mode, g->len[1][0], g->len[1][1]);
}

int lw_host_pyramid_tail_config(const lw_plan *p, const lw_cuda_sched *s, lw_config *cfg, int *band2)
{
    const lw_geometry *g = &p->geo;
    *band2 = 0;
    if ((p->cfg.flags & LW_FLAG_DEVICE_POINTERS) || !bands_apply(p, s) || g->levels < 2) return 0;
    *band2 = band2_applies(p, s);
    const int k = *band2 ? 2 : 1; /* the tail's first level (0-based) */
    lw_host_sub_config(p, cfg);
    cfg->rank = 2;
    cfg->shape[0] = g->len[k][0], cfg->shape[1] = g->len[k][1];
    cfg->layout = LW_MALLAT, cfg->levels = g->levels - k;
    cfg->flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_DESTROY_INPUT; /* d_ll / d_ll2 are ours */
    return 1;
}

lw_status lw_host_run(lw_host_call *h, const void *in, void *out)
{
    const lw_plan *p = h->p;
    if (h->whole) {
        h->tail = NULL;
        return run_whole(h, in, out);
    }
    int bands = in != out && bands_apply(p, h->s) && (p->geo.levels == 1 || h->tail);
    if (!bands && in != out && h->sl) return lw_host_run_slabs(h, in, out);
    if (!bands && in != out && h->groups) return lw_host_run_items(h, in, out);
    if (!bands) {
        h->tail = NULL;
        return run_whole(h, in, out);
    }
    if (p->geo.levels == 1) h->tail = NULL;
    return p->cfg.direction == LW_INVERSE ? run_bands_inv(h, in, out) : run_bands_fwd(h, in, out);
}
