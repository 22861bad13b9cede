/* Host-pointer runs of the CUDA backend (staging_exec.h): the moves of one
 * call scheduled against its kernels, so that the upload, the transform and
 * the download overlap where the engine allows it.
 *
 * 2-D with the fused engine, in != out, at least 256 rows: the first level
 * runs in row bands on three streams in turn; band j uploads the input rows
 * it reads (a halo of CHUNK_HALO rows each side), runs the level on them and
 * downloads the output rows it finished, so that the copy engines carry band
 * j+1 up while band j-1 comes down.  The first and the last bands are short
 * (a ramp of 64, 128, 256 rows up to the bands' height), since nothing
 * overlaps the first upload and the last download.  For a pyramid, level 1
 * writes its lowpass band compact into d_ll instead of out, every detail
 * coefficient of level 1 (3/4 of the output) comes down behind the bands,
 * and levels 2..L run on d_ll by the tail plan before the last quarter
 * comes down.  Forward pyramids in symmetric mode run levels 2 and 3 in
 * bands too (blev: the levels in bands, where the tail keeps a level), level
 * k + 1 behind the level-k bands that wrote the rows it reads, its details
 * coming down from the lowpass quadrant of d_out (which level k leaves
 * alone) and its lowpass band going compact to the next buffer; then only
 * levels blev + 1..L and the last 1/4^blev wait for the end.
 * The inverse mirrors it: the coarse corner (the quarter, or 1/4^blev) goes
 * up first and levels L..blev + 1 run on it; levels blev..2 run in bands
 * ahead of level 1's, each level's band ahead of the finer one's, their
 * detail rows going up into d_in's lowpass quadrants band by band (from
 * pinned memory; from pageable memory they go up whole after the corner and
 * each of those levels runs in one launch before the bands).
 * Expected: one level near the concurrent both-ways PCIe bound; a pyramid
 * about 1 / (1 + 1/4^blev) of it (the corner moves alone).
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

static void level1_tile(const lw_host_call *h, lwk_tile2d *t)
{
    memset(t, 0, sizeof *t);
    t->w = h->s->w;
    t->rows = h->p->geo.shape[0], t->cols = h->p->geo.shape[1];
    t->blen[0] = t->blen[1] = 1, t->mode = (int)h->p->cfg.mode;
}

/* bytes of the compact lowpass band at the input of level k + 1 (geometry len[k]) */
static size_t band_bytes(const lw_plan *p, int k, size_t es)
{
    return (size_t)(p->geo.len[k][0] * p->geo.len[k][1]) * es;
}

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

/* Where the compact lowpass bands of the levels in bands live (blev >= 2).
 * Forward: level 1's in d_ll, level 2's at the start of d_ll2, level 3's after
 * it.  Inverse: the raw coarse corner (the tail's input) at the start of d_ll,
 * level 3's lowpass (the tail's output, blev 3) after it, level 2's after that,
 * level 1's in d_ll2. */
static void *fwd_ll(const lw_host_call *h, int k)
{
    if (k == 1) return h->d_ll;
    return (char *)h->d_ll2 + (k == 3 ? align256(band_bytes(h->p, 2, h->s->esize)) : 0);
}

static void *inv_ll(const lw_host_call *h, int k)
{
    const size_t raw = align256(band_bytes(h->p, h->blev, h->s->esize));
    if (k == 1) return h->d_ll2;
    if (k == h->blev) return (char *)h->d_ll + raw;
    return (char *)h->d_ll + raw + align256(band_bytes(h->p, 3, h->s->esize)); /* k == 2, blev == 3 */
}

size_t lw_host_pyramid_ll_bytes(const lw_plan *p, int blev, size_t es)
{
    const size_t n1 = band_bytes(p, 1, es);
    if (blev < 2) return n1;
    const size_t n2 = band_bytes(p, 2, es), n3 = blev >= 3 ? band_bytes(p, 3, es) : 0;
    size_t need = align256(n2) + n3;                                         /* forward, d_ll2 */
    const size_t inv = align256(band_bytes(p, blev, es)) + align256(n3) + n2; /* inverse, d_ll */
    if (inv > need) need = inv;
    return need > n1 ? need : n1;
}

/* the input rows band i of the forward reads (a halo of CHUNK_HALO rows each side; periodic: wrapped) */
static lw_status fwd_band_up(lw_host_call *h, const void *in, const lw_rowbands *b, int64_t i, lw_host_ups *u)
{
    const int64_t R = h->p->geo.shape[0], C = h->p->geo.shape[1], H = CHUNK_HALO;
    const int per = h->p->cfg.mode == LW_PERIODIC;
    int64_t r0, r1;
    lw_rowband_at(b, i, &r0, &r1);
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

/* level k + 1 (k = 1, 2) in a band: rows [a0, a1) of level k's compact lowpass
 * band, on stream st once the bands that wrote the rows it reads have run: its
 * details into d_out's level-k lowpass quadrant (which the levels before leave
 * alone) and down from there, its lowpass rows compact into the next band */
static lw_status fwd_level_band(lw_host_call *h, void *out, int k, int64_t a0, int64_t a1, cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t C = g->shape[1], rk = g->len[k][0], ck = g->len[k][1], hr = g->len[k + 1][0], hc = g->len[k + 1][1];
    lwk_tile2d t;
    level1_tile(h, &t);
    t.rows = rk, t.cols = ck, t.row_lo = a0, t.row_hi = a1;
    lwk_plane src = plane(fwd_ll(h, k), ck), det = plane(h->d_out, C), ll = plane(fwd_ll(h, k + 1), hc);
    CK(lwk_tile2d_forward(h->s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (lowpass band)");
    return down_band(h, out, a0, a1, hr, hc, ck, st);
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

/* the rows of level k's lowpass band (n of them) whose windows (CHUNK_HALO rows)
 * lie within its first `ready` rows; all n once the level before is done */
static int64_t rows_ready(int64_t ready, int64_t n, int done)
{
    if (done) return n;
    const int64_t a = (ready - CHUNK_HALO) & ~(int64_t)1;
    return a > 0 ? a : 0;
}

static lw_status run_bands_fwd(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[0], C = g->shape[1], hr = (R + 1) / 2, hc = (C + 1) / 2;
    const int pyr = h->tail != NULL, blev = pyr ? h->blev : 1;
    const lw_rowbands b = lw_rowbands_plan(R);
    lwk_tile2d t;
    level1_tile(h, &t);
    lwk_plane src = plane(h->d_in, C), det = plane(h->d_out, C), ll = pyr ? plane(h->d_ll, hc) : det;
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    int64_t done[4] = {0, 0, 0, 0}; /* done[k]: rows of level k's lowpass band level k + 1 has taken */
    LW_TRY(fwd_band_up(h, in, &b, 0, &u[0]));
    for (int64_t i = 0; i < b.nb; i++) {
        int64_t r0, r1;
        lw_rowband_at(&b, i, &r0, &r1);
        const int q = (int)(i % 3);
        cudaStream_t st = h->st[q];
        if (i + 1 < b.nb) LW_TRY(fwd_band_up(h, in, &b, i + 1, &u[(i + 1) % 2]));
        LW_TRY(lw_host_ups_end(h, &u[i % 2]));
        t.row_lo = r0, t.row_hi = r1;
        CK(lwk_tile2d_forward(h->s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch (band)");
        /* levels 2..blev behind: level k + 1 takes the rows of level k's lowpass band whose windows the
         * bands so far wrote, in runs of 32 rows or more.  The rows on the other streams are written once
         * their latest kernels have run: each stream's event marks the last kernel of its latest step
         * (not the downloads behind it), which this step waits for before its first lowpass band */
        int waited = 0;
        int64_t ready = (r1 + 1) / 2; /* level-1 lowpass rows written */
        int last = i + 1 == b.nb;
        for (int k = 1; k < blev; k++) {
            const int64_t n = g->len[k][0], a1 = rows_ready(ready, n, last);
            if (!(a1 - done[k] >= 32 || (last && a1 > done[k]))) break;
            if (!waited) {
                for (int j = 1; j < 3; j++) CK(cudaStreamWaitEvent(st, h->ev[(q + j) % 3], 0), "cudaStreamWaitEvent");
                waited = 1;
            }
            LW_TRY(fwd_level_band(h, out, k, done[k], a1, st));
            done[k] = a1;
            ready = (a1 + 1) / 2, last = a1 == n;
        }
        if (blev > 1) CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
        /* lowpass rows: all of them, or (pyramid) their highpass columns */
        LW_TRY(down_band(h, out, r0, r1, hr, pyr ? hc : 0, C, st));
    }
    if (pyr) { /* levels blev + 1..L on level blev's lowpass band once every band has written it */
        LW_TRY(lw_host_join(h, 0));
        void *lo = fwd_ll(h, blev), *to = blev == 1 ? h->d_ll2 : h->d_ll;
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, lo, to, h->d_scr, h->st[0]));
        lw_box qb = quarter_box(g->len[blev][0], g->len[blev][1], C, h->s->esize);
        LW_TRY(lw_stage_down(h->stg, &qb, out, to, h->dout, h->st[0]));
    }
    return lw_host_finish(h);
}

/* Inverse, blev >= 2: levels blev..2 in bands ahead of level 1's when the input moves by the copy engines
 * (pinned, registered).  From pageable memory their detail rows go up whole after the coarse corner and
 * each of those levels runs in one launch before the bands: staged band by band, the narrow boxes slowed
 * those inverses where the whole boxes did not (bench/NOTES-hostmem.md) */
static int inv_levels_banded(const lw_host_call *h)
{
    return h->tail && h->blev >= 2 && h->din;
}

/* Inverse: the rows of level k's compact lowpass band (k = 1, 2; its output rows at level k + 1) that the
 * steps up to band i need written, the steps before having written those up to band i - 1: [*b0, *b1), none
 * when *b0 == *b1.  Level 1: what band i's windows (CHUNK_HALO rows each side) read; level 2: what level 2's
 * rows up to then read. */
static int64_t inv_need_end(const lw_host_call *h, const lw_rowbands *b, int k, int64_t j)
{
    if (j < 0) return 0;
    const lw_geometry *g = &h->p->geo;
    int64_t r1, need, below;
    if (k == 1) {
        int64_t r0;
        lw_rowband_at(b, j, &r0, &r1);
        below = g->shape[0];
    } else {
        r1 = inv_need_end(h, b, k - 1, j);
        below = g->len[k - 1][0];
    }
    const int64_t n = g->len[k][0];
    need = (r1 + CHUNK_HALO) / 2 + 2;
    return r1 >= below || need >= n ? n : (need + 1) & ~(int64_t)1;
}

static void inv_level_rows(const lw_host_call *h, const lw_rowbands *b, int k, int64_t i, int64_t *b0, int64_t *b1)
{
    *b0 = inv_need_end(h, b, k, i - 1), *b1 = inv_need_end(h, b, k, i);
    if (i + 1 == b->nb) *b1 = h->p->geo.len[k][0];
}

/* Inverse: the detail rows of level k + 1 that its band of output rows [b0, b1) (rows of level k's lowpass
 * band) reads, from the input's level-k lowpass quadrant to the same places in d_in (which the finer
 * levels' bands leave alone) */
static lw_status inv_level_up(lw_host_call *h, const void *in, int k, int64_t b0, int64_t b1, cudaStream_t st,
                              lw_host_ups *u)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t C = g->shape[1], rk = g->len[k][0], ck = g->len[k][1], hr = g->len[k + 1][0], hc = g->len[k + 1][1];
    const int64_t l0 = (b0 - CHUNK_HALO) / 2 - 1, l1 = (b1 + CHUNK_HALO) / 2 + 1;
    const size_t off = (size_t)(hr * C) * h->s->esize;
    LW_TRY(up_rows(h, u, in, h->d_in, l0, l1, hr, C, hc, ck, st));
    return up_rows(h, u, (const char *)in + off, (char *)h->d_in + off, l0, l1, rk - hr, C, 0, ck, st);
}

/* the lowpass and highpass rows band i of the inverse reads, and (levels banded) the detail rows of the
 * coarser levels' bands ahead of it: one step, begun while the step before is still being copied in */
static lw_status inv_band_up(lw_host_call *h, const void *in, const lw_rowbands *b, int64_t i, lw_host_ups *u)
{
    const int64_t R = h->p->geo.shape[0], C = h->p->geo.shape[1], hr = (R + 1) / 2, hc = (C + 1) / 2, H = CHUNK_HALO;
    const size_t es = h->s->esize;
    int64_t r0, r1;
    lw_rowband_at(b, i, &r0, &r1);
    cudaStream_t st = h->st[i % 3];
    const int64_t l0 = (r0 - H) / 2 - 1, l1 = (r1 + H) / 2 + 1;
    const void *in_h = (const char *)in + (size_t)(hr * C) * es;
    void *d_h = (char *)h->d_in + (size_t)(hr * C) * es;
    if (inv_levels_banded(h)) {
        for (int k = h->blev - 1; k >= 1; k--) {
            int64_t b0, b1;
            inv_level_rows(h, b, k, i, &b0, &b1);
            if (b1 > b0) LW_TRY(inv_level_up(h, in, k, b0, b1, st, u));
        }
    }
    LW_TRY(up_rows(h, u, in, h->d_in, l0, l1, hr, C, h->tail ? hc : 0, C, st));
    return up_rows(h, u, in_h, d_h, l0, l1, R - hr, C, 0, C, st);
}

/* Inverse: level k + 1's output rows [b0, b1) (rows of level k's lowpass band, compact) from level k + 1's
 * lowpass band (the tail's output, or the band before) and its detail rows (up with the step), on stream st */
static lw_status inv_level_band(lw_host_call *h, int k, int64_t b0, int64_t b1, cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    lwk_tile2d t;
    level1_tile(h, &t);
    t.rows = g->len[k][0], t.cols = g->len[k][1], t.row_lo = b0, t.row_hi = b1;
    CK(lwk_tile2d_inverse(h->s->dtype, &t, plane(inv_ll(h, k + 1), g->len[k + 1][1]), plane(h->d_in, g->shape[1]),
                          plane(inv_ll(h, k), g->len[k][1]), st),
       "cuda tile2d kernel launch (lowpass band)");
    return LW_OK;
}

static lw_status run_bands_inv(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[0], C = g->shape[1], hc = (C + 1) / 2;
    const int pyr = h->tail != NULL, blev = pyr ? h->blev : 1, banded = inv_levels_banded(h);
    const lw_rowbands b = lw_rowbands_plan(R);
    const size_t es = h->s->esize;
    lwk_tile2d t;
    level1_tile(h, &t);
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    if (pyr) { /* the coarse corner (level blev's lowpass quadrant) first, and levels L..blev + 1 on it */
        lw_box qb = quarter_box(g->len[blev][0], g->len[blev][1], C, es);
        LW_TRY(lw_stage_up(h->stg, &qb, in, h->d_ll, h->din, h->st[0]));
        if (blev > 1 && !banded) { /* the banded levels' detail rows whole */
            lw_host_ups v = {{0}, 0};
            for (int k = blev - 1; k >= 1; k--) LW_TRY(inv_level_up(h, in, k, 0, g->len[k][0], h->st[0], &v));
            LW_TRY(lw_host_ups_end(h, &v));
        }
        LW_TRY(inv_band_up(h, in, &b, 0, &u[0]));
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, h->d_ll, blev > 1 ? inv_ll(h, blev) : h->d_ll2, h->d_scr, h->st[0]));
        if (blev > 1 && !banded)
            for (int k = blev - 1; k >= 1; k--) LW_TRY(inv_level_band(h, k, 0, g->len[k][0], h->st[0]));
        CK(cudaEventRecord(h->ev[0], h->st[0]), "cudaEventRecord");
    } else {
        LW_TRY(inv_band_up(h, in, &b, 0, &u[0]));
    }
    lwk_plane det = plane(h->d_in, C), ll = pyr ? plane(h->d_ll2, hc) : det, dst = plane(h->d_out, C);
    for (int64_t i = 0; i < b.nb; i++) {
        int64_t r0, r1;
        lw_rowband_at(&b, i, &r0, &r1);
        const int q = (int)(i % 3);
        cudaStream_t st = h->st[q];
        if (i + 1 < b.nb) LW_TRY(inv_band_up(h, in, &b, i + 1, &u[(i + 1) % 2]));
        LW_TRY(lw_host_ups_end(h, &u[i % 2]));
        if (banded) {
            /* levels blev..2 ahead of level 1: the lowpass rows this band's windows read, on this stream
             * behind levels L..blev + 1 (stream 0's event) and the lowpass bands the other streams wrote
             * (each stream's event marks its latest lowpass band, which this band waits for too) */
            int ran = 0;
            for (int k = blev - 1; k >= 1; k--) {
                int64_t b0, b1;
                inv_level_rows(h, &b, k, i, &b0, &b1);
                if (b1 <= b0) continue;
                if (!ran) {
                    if (q != 0) CK(cudaStreamWaitEvent(st, h->ev[0], 0), "cudaStreamWaitEvent");
                    if (blev > 2)
                        for (int j = 1; j < 3; j++)
                            CK(cudaStreamWaitEvent(st, h->ev[(q + j) % 3], 0), "cudaStreamWaitEvent");
                    ran = 1;
                }
                LW_TRY(inv_level_band(h, k, b0, b1, st));
            }
            if (ran) CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
            for (int j = 1; j < 3; j++) CK(cudaStreamWaitEvent(st, h->ev[(q + j) % 3], 0), "cudaStreamWaitEvent");
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

/* The levels of a pyramid in bands (run_bands_fwd, run_bands_inv): level 1,
 * and level k + 1 (k = 1, 2) behind (forward) or ahead of (inverse) the
 * bands of level k where the tail keeps a level (three levels or more for
 * level 2, four or more for level 3), in symmetric mode (a periodic band at
 * the top would read the bottom's rows before they exist), where the fused
 * kernel takes level k's lowpass band.  Levels beyond 3 would move 1/256 of
 * the array alone at the end (the tail's corner) against 1/64: not worth
 * their launches. */
#define BANDED_LEVELS_MAX 3

static int banded_levels(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (!(p->cfg.direction == LW_FORWARD || p->cfg.direction == LW_INVERSE) || p->cfg.mode == LW_PERIODIC) return 1;
    int blev = 1;
    while (blev < BANDED_LEVELS_MAX && g->levels >= blev + 2 &&
           lwk_tile2d_supported(s->dtype, &s->w, p->cfg.mode, g->len[blev][0], g->len[blev][1]))
        blev++;
    return blev;
}

int lw_host_pyramid_tail_config(const lw_plan *p, const lw_cuda_sched *s, lw_config *cfg, int *blev)
{
    const lw_geometry *g = &p->geo;
    *blev = 1;
    if ((p->cfg.flags & LW_FLAG_DEVICE_POINTERS) || !bands_apply(p, s) || g->levels < 2) return 0;
    *blev = banded_levels(p, s);
    const int k = *blev; /* the tail's first level (0-based) */
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
