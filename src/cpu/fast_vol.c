/* The single loop for levels with two vertical axes and a lifted row: 3-D
 * volumes (n0, n1, n) and batches of them.
 *
 * Work units (OpenMP, dynamic): items x strips of dim 0 x tiles of dim 1.  A
 * unit's ring holds R = (S+1)*D + 1 slots along dim 0, each slot a tile of
 * dim-1 rows with the halo its dim-1 lifting needs (E = S*D rows on each
 * side).  Rows are held compactly in split form (even | odd samples, no
 * margins: lw_line_geom_compact), so the vertical steps touch only samples
 * and a slot stays small enough for L2 with large tiles.
 *
 * Forward, iteration i of dim 0: the tile of plane i is loaded (split,
 * lw_row_load) into its slot in chunks of VOL_CHUNK rows, each chunk lifted
 * along dim 0 right after its load, while in L1 (k->vchain: every column of
 * the chunk at once); plane t = i - lag is then final in dim
 * 0, and dim 1 is lifted in place inside its slot by the same single loop
 * (rows as sub-blocks); each finished row is copied into a line buffer with
 * the margins of the fused kernel, lifted and stored straight to its Mallat
 * place, the zetas of the three axes folded into that store.
 *
 * Inverse (rows, then dim 1, then dim 0): each row of plane i is loaded into
 * the line buffer, inverse-lifted there and copied compactly into the slot;
 * dim 1 is inverted in place in the slot, which finishes the tile's rows
 * [a0, a1); the vertical steps of dim 0 then run on those rows only (a single
 * halo: dim 0 acts on every column separately), chunk by chunk, each chunk
 * of the finished plane merged back to natural order in the output right
 * after its steps (the streaming stores spread over the lifting).  Periodic
 * ring rows hold [0, n) only; the row kernels add the wrapped halo in the
 * line buffer (see lw_row_init, "narrow").
 *
 * The rows of the next plane are prefetched while the current one is lifted
 * along dim 1, one row per row step, so the memory stays busy.  Tiles and
 * strips are chosen per level and thread count to balance the units against
 * the halo each unit recomputes (vol_plan). */
#include "fast_internal.h"
#include "fast_vol_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif


typedef struct vol_plan {
    int R, lag;
    lw_row_prog rp;      /* fused: rows lifted in a line buffer (rp.rg ring form, rp.g buffer) */
    lw_line_geom rg;     /* a row in the ring (compact) */
    lw_line_geom g;      /* a row in the line buffer (fused kernel margins) */
    int buffered;        /* rows are lifted in the line buffer (fused), else in place */
    int rowfwd, rowinv;  /* ... by lw_row_fwd / lw_row_inv (Mallat, unit strides) */
    int xlast;           /* inverse with the rows last (vol_sweep, lw_row_inv_merge) */
    int prefetch;        /* software prefetch of the next plane's rows (tuning prefetch=0: off) */
    int64_t walk_iters;
    int walk;            /* dim 1 as a column walk (lw_fast_vsweep), else iteration by iteration */  /* dim-1 iterations per band of vol_sweep: 2 * walk_iters + 5 rows in ~24 KiB */
    int rowload;         /* forward rows loaded by lw_row_load (unit-stride input rows) */
    size_t rf;           /* elements per ring row */
    int64_t cap_rows;    /* most rows of a tile window (cache budget) */
    int64_t tile, ntiles, strip, nstrips;
    int64_t max_rows;    /* rows of the largest tile window chosen */
    size_t ring_bytes, line_bytes;
} vol_plan;

typedef struct vol_ctx {
    const lw_fast_level *lv;
    const lw_fast_plan *fp;
    const vol_plan *vp;
    char *ring, *line;
    int guard;
    lw_vqueue *q; /* the unit being run and its queue (its end may move) */
    lw_vslot *sl;
    /* in place (src == dst): the unit's own planes [io0, io1) and a copy of
     * the E planes its window reads each side of them (dense rows), made
     * before any unit stored; NULL otherwise */
    const char *ipk;
    int64_t io0, io1;
} vol_ctx;

int lw_fast_vol_applies(const lw_fast_level *lv) { return lv->nv == 2 && lv->hlift && lv->G == 1 && !lv->adjoint; }

static int64_t win_len(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t a, int64_t b)
{
    int64_t w0, w1;
    lw_fast_window(fp, mode, n, a, b, &w0, &w1);
    return w1 - w0;
}

/* Bytes a thread's working buffers may take (the ring of a 3-D unit, the
 * planes engine's chunk): this core's L2, clamped to 256 KiB .. 2 MiB, or the
 * tuning's ring_kb.  A 3-D tile recomputes E rows of halo on each side (and
 * reads them from memory again), so tiles are made as large as the L2 allows:
 * measured on a Zen 3 VM (512 KiB L2, 256^3 cdf97, 1 thread), half the L2
 * (tiles of 29 rows + 8 halo) was 6-8% slower than the whole L2 (64 + 8);
 * twice the L2 was no faster than once. */
size_t lw_fast_cache_budget(const lw_tuning *t)
{
    if (t->ring_kb > 0) return (size_t)t->ring_kb << 10;
    long l2 = 0;
#if defined(_SC_LEVEL2_CACHE_SIZE)
    l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (l2 <= 0) l2 = 1L << 20;
    size_t b = (size_t)l2;
    if (b < ((size_t)256 << 10)) b = (size_t)256 << 10;
    if (b > ((size_t)2 << 20)) b = (size_t)2 << 20;
    return b;
}

/* Geometry and the largest tile window allowed (independent of threads);
 * whole: every plane whole in a slot (in place: no tiles, whose halos the
 * tiles beside would store over). */
static void vol_geom(const lw_fast_level *lv, int whole, vol_plan *vp)
{
    const lw_fast_plan *fp = lv->fp;
    memset(vp, 0, sizeof *vp);
    vp->lag = (fp->nsteps + 1) * fp->D;
    vp->R = vp->lag + 1;
    int ll_unit = !lv->has_ll || lv->lrs == 1;
    int rowfwd = lv->mallat && lv->drs == 1 && ll_unit, rowinv = lv->mallat && lv->srs == 1 && ll_unit;
    /* the inverse with the rows last where the merging row kernel applies:
     * the forward's row program (narrow ring rows, aligned buffer) */
    vp->xlast = lv->inverse && rowinv && lv->drs == 1 && lw_row_init(&vp->rp, fp, lv->mode, lv->rowlen, 0, 1) &&
                lw_row_merge_ok(&vp->rp);
    /* else narrow ring rows where the row kernels fill the periodic halo */
    vp->buffered = vp->xlast ||
                   lw_row_init(&vp->rp, fp, lv->mode, lv->rowlen, lv->inverse, lv->inverse ? rowinv : rowfwd);
    if (vp->buffered) {
        vp->rg = vp->rp.rg;
        vp->g = vp->rp.g;
        vp->rowfwd = rowfwd;
        vp->rowinv = rowinv;
        vp->rowload = lv->srs == 1;
    } else {
        lw_line_geom_compact(fp, lv->mode, lv->rowlen, 0, lv->rowlen, &vp->rg);
        vp->g = vp->rg; /* no margins: the line format is the compact one */
    }
    vp->rf = vp->rg.fmt;
    vp->prefetch = fp->tune.prefetch;
    {
        int64_t band = fp->tune.walk_kb << 10; /* bytes of one band of the walk */
        int64_t rowb = (int64_t)(vp->rf * fp->es), rows = band / (rowb > 0 ? rowb : 1);
        vp->walk_iters = rows > 2 * vp->lag + 2 ? (rows - vp->lag) / 2 : vp->lag;
        vp->walk = fp->tune.walk; /* 0: dim 1 row by row */
    }
    int64_t n1 = lv->n[1];
    int64_t full = win_len(fp, lv->mode, n1, 0, n1), one = win_len(fp, lv->mode, n1, 0, 1);
    int64_t rowb = (int64_t)vp->R * (int64_t)vp->rf * (int64_t)fp->es;
    int64_t fit = (int64_t)lw_fast_cache_budget(&fp->tune) / (rowb > 0 ? rowb : 1);
    int64_t cap = fit < full && !whole ? fit : full;
    if (cap < one) cap = one;
    vp->cap_rows = cap;
    vp->ring_bytes = LW_ALIGN64((size_t)cap * vp->rf * (size_t)vp->R * fp->es);
    vp->line_bytes = vp->buffered ? LW_ALIGN64(vp->g.fmt * fp->es) : 0;
}

/* Window lengths of the pieces of [0, n) cut into pieces of `len`: count,
 * sum and largest, in O(1) (pieces away from the ends all have the same
 * window). */
typedef struct cut {
    int64_t len, count, max;
    double sum;
} cut;

static cut cut_stats(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t len)
{
    cut c;
    c.len = len;
    c.count = (n + len - 1) / len;
    c.sum = 0;
    c.max = 0;
    for (int64_t k = 0; k < c.count; k++) {
        if (k == 3 && c.count > 6) { /* pieces 3 .. count-4: interior */
            int64_t w = win_len(fp, mode, n, 3 * len, 4 * len);
            c.sum += (double)w * (double)(c.count - 6);
            if (w > c.max) c.max = w;
            k = c.count - 4;
        }
        int64_t a = k * len, b = a + len < n ? a + len : n;
        int64_t w = win_len(fp, mode, n, a, b);
        c.sum += (double)w;
        if (w > c.max) c.max = w;
    }
    return c;
}

/* Tiles of dim 1 and strips of dim 0 for `threads` threads: the least
 * estimated time (units of about equal cost, handed out in rounds; each
 * unit's cost is its window area, halos included), among tilings whose
 * windows fit the ring.  A few thousand arithmetic steps: it runs on every
 * execute. */
#define VOL_CANDIDATES 64
static void vol_units(const lw_fast_level *lv, vol_plan *vp, int threads, int64_t nitems)
{
    const lw_fast_plan *fp = lv->fp;
    int64_t n0 = lv->n[0], n1 = lv->n[1];
    cut tiles[VOL_CANDIDATES], strips[VOL_CANDIDATES];
    int nt = 0, ns = 0;
    if (threads < 1) threads = 1;
    /* tile lengths ceil(n1 / k) from the fewest tiles that fit the ring */
    int64_t room = vp->cap_rows - 2 * (int64_t)fp->E, k = room > 0 ? n1 / room : n1, prev = -1;
    if (k < 1) k = 1;
    for (; k <= n1 && nt < VOL_CANDIDATES; k++) {
        int64_t len = (n1 + k - 1) / k;
        if (len == prev) continue;
        prev = len;
        cut c = cut_stats(fp, lv->mode, n1, len);
        if (c.max <= vp->cap_rows || len == 1) tiles[nt++] = c;
    }
    prev = -1;
    for (k = 1; k <= n0 && ns < VOL_CANDIDATES; k++) {
        int64_t len = (n0 + k - 1) / k;
        if (len == prev) continue;
        prev = len;
        strips[ns++] = cut_stats(fp, lv->mode, n0, len);
    }
    double best = -1;
    vp->tile = n1;
    vp->ntiles = 1;
    vp->max_rows = vp->cap_rows;
    vp->strip = n0;
    vp->nstrips = 1;
    for (int i = 0; i < nt; i++)
        for (int j = 0; j < ns; j++) {
            int64_t units = nitems * tiles[i].count * strips[j].count;
            double total = (double)nitems * tiles[i].sum * strips[j].sum;
            double rounds = (double)((units + threads - 1) / threads);
            double est = rounds * total / (double)units, big = (double)tiles[i].max * (double)strips[j].max;
            if (est < big) est = big;
            if (best < 0 || est < best * 0.999) {
                best = est;
                vp->tile = tiles[i].len;
                vp->ntiles = tiles[i].count;
                vp->max_rows = tiles[i].max;
                vp->strip = strips[j].len;
                vp->nstrips = strips[j].count;
            }
        }
}

/* Fewest output planes a thread splits off a running unit.  The part
 * recomputes 2E planes of halo, but an idle thread has nothing better to
 * do: on the 16-vCPU Xeon (256^3 cdf97, 16 threads, 5 rounds) parts of 2
 * or more planes gave 1.37 ms, of 4 or more 1.45, of 8 or more 1.49, and no
 * splits 1.56.  That is the default of the tuning's split_min (0: no
 * splits). */

size_t lw_fast_vol_scratch(const lw_fast_level *lv)
{
    vol_plan vp;
    vol_geom(lv, 0, &vp);
    return LW_ALIGN64(vp.ring_bytes + vp.line_bytes + 64);
}

static inline void prefetch_row(const char *p, size_t bytes)
{
#if defined(__GNUC__)
    for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o, 0, 2);
#else
    (void)p;
    (void)bytes;
#endif
}

/* The forward row stage: lift a finished ring row and store it (times f and
 * its zetas) to dst (and its lowpass half to lo when lo != NULL). */
static void row_fwd(vol_ctx *c, char *row, char *dst, char *lo, double f)
{
    const lw_fast_level *lv = c->lv;
    const vol_plan *vp = c->vp;
    if (vp->rowfwd) {
        lw_row_fwd(&vp->rp, row, c->line, dst, lo, f, lv->nt, &c->guard);
        return;
    }
    if (vp->buffered) {
        lw_line_convert(c->fp, &vp->rg, row, &vp->g, c->line);
        row = c->line;
    }
    lw_line_lift_store_fwd(c->fp, &vp->g, lv->mallat, row, dst, lv->drs, lo, lv->lrs, 0, lv->rowlen, f, lv->nt,
                           &c->guard);
}

/* The inverse row stage: load a row of coefficients (sample stride srs;
 * times f over their zetas), inverse-lift it and leave it in the ring row. */
static void row_inv(vol_ctx *c, const char *src, int64_t srs, const char *lo, char *row, double f)
{
    const lw_fast_level *lv = c->lv;
    const vol_plan *vp = c->vp;
    if (vp->rowinv) {
        lw_row_inv(&vp->rp, src, lo, c->line, row, f, &c->guard);
        return;
    }
    char *b = vp->buffered ? c->line : row;
    lw_line_load_inv(c->fp, &vp->g, lv->mallat, src, srs, lo, lv->lrs, b, f);
    lw_line_lift(c->fp, &vp->g, b, 1, &c->guard);
    if (vp->buffered) lw_line_convert(c->fp, &vp->g, b, &vp->rg, row);
}

/* Rows per chunk of the dim-0 steps interleaved with loads (forward) or
 * stores (inverse). */
#define VOL_CHUNK 4

/* The dim-0 steps of iteration i on rows [r0, r1) of every slot. */
static void vsteps_rows(const lw_fast_plan *fp, const lw_vrows *v, int64_t i, int inverse, int64_t r0, int64_t r1,
                        size_t rf, int *guard)
{
    lw_vrows u = *v;
    u.base += (size_t)r0 * rf * fp->es;
    lw_fast_vsteps(fp, &u, i, inverse, (size_t)(r1 - r0) * rf, guard);
}

/* Inverse, rows last: where the coefficients of row u1 of plane u lie, its
 * plane at `plane` with rows st1 apart (the lowpass half from the lowpass
 * buffer when ll holds it). */
static void inv_src_row(const lw_fast_level *lv, const char *plane, int64_t st1, const char *ll, int64_t u, int64_t u1,
                        const char **lo, const char **hi)
{
    size_t es = lv->fp->es;
    const char *row = plane + (size_t)(lw_mallat_pos(u1, lv->n[1]) * st1) * es;
    *hi = row + (size_t)((lv->rowlen + 1) / 2) * es;
    *lo = (ll && !(u & 1) && !(u1 & 1)) ? ll + (size_t)((u >> 1) * lv->ls[0] + (u1 >> 1) * lv->ls[1]) * es : row;
}

/* The plane of window index i as the unit reads it (stored at plane p0 of
 * src): the input's, or in place, outside the unit's own planes, its copy
 * (*st1 and *srs: its row and sample strides) */
static const char *plane_in(const vol_ctx *c, const char *src, int64_t i, int64_t p0, int64_t *st1, int64_t *srs)
{
    const lw_fast_level *lv = c->lv;
    const size_t es = c->fp->es;
    *st1 = lv->ss[1], *srs = lv->srs;
    if (!c->ipk || (i >= c->io0 && i < c->io1)) return src + (size_t)(p0 * lv->ss[0]) * es;
    const int64_t r = lw_fast_kept_entry(i, c->io0, c->io1, c->fp->E);
    *st1 = lv->rowlen, *srs = 1;
    return c->ipk + (size_t)(r * lv->n[1] * lv->rowlen) * es;
}

/* Before plane i is loaded: claims it, and follows the unit's end o1 (and
 * its window's end w1) when another thread has split the unit. */
static inline void vol_claim(const vol_ctx *c, int64_t i, int64_t o0, int64_t *o1, int64_t *w1, lw_vrows *v0)
{
    int64_t e = lw_vq_claim(c->q, c->sl, i), w0;
    if (e == *o1) return;
    *o1 = e;
    lw_fast_window(c->fp, c->lv->mode, c->lv->n[0], o0, e, &w0, w1);
    v0->w1 = *w1;
}

/* The single loop over a unit, the rows last: the forward, and the inverse
 * where vp->xlast (the other axes are inverted first, which equals the
 * reverse order in exact arithmetic: the axes' steps commute).
 *
 * Forward: plane i's tile rows are loaded (split) chunk by chunk, each chunk
 * lifted along dim 0 right away; plane t = i - lag, final along dim 0, is
 * lifted along dim 1 in its slot; each finished row goes through the row
 * kernel to its Mallat place, the zetas folded into that store.  Inverse:
 * the coefficients are loaded divided by their zetas (two contiguous halves
 * per row: the ring row's split form), dims 0 and 1 inverted the same way,
 * and each finished row inverted along the row and stored in natural order
 * (lw_row_inv_merge). */
static void vol_sweep(vol_ctx *c, const char *src, char *dst, char *ll, int64_t o0, int64_t o1, int64_t a0,
                      int64_t a1)
{
    const lw_fast_level *lv = c->lv;
    const lw_fast_plan *fp = c->fp;
    const vol_plan *vp = c->vp;
    const int inv = lv->inverse;
    size_t es = fp->es, rf = vp->rf;
    int64_t n0 = lv->n[0], n1 = lv->n[1], w0, w1, aw0, aw1;
    lw_fast_window(fp, lv->mode, n0, o0, o1, &w0, &w1);
    lw_fast_window(fp, lv->mode, n1, a0, a1, &aw0, &aw1);
    int64_t rows = aw1 - aw0, lag = vp->lag;
    size_t slot = (size_t)rows * rf;
    int pf = lv->srs == 1 && vp->prefetch;
    size_t rowbytes = (size_t)lv->rowlen * es, hl = (size_t)(lv->rowlen + 1) / 2, hh = (size_t)lv->rowlen / 2;
    double il = 1.0 / fp->zl, ih = 1.0 / fp->zh;
    lw_vrows v0 = {c->ring, vp->R, slot, w0, w1};
    for (int64_t i = w0; i < w1 + lag; i++) {
        if (i < w1) vol_claim(c, i, o0, &o1, &w1, &v0);
        if (i < w1) {
            int64_t u = lw_wrap(i, n0), st1, srs;
            const char *sp = plane_in(c, src, i, inv && lv->mallat && !lv->vil ? lw_mallat_pos(u, n0) : u, &st1, &srs);
            char *s = c->ring + (size_t)((i - w0) % vp->R) * slot * es;
            double f0 = (u & 1) ? ih : il;
            /* a chunk of rows loaded, then lifted along dim 0 while in L1 */
            for (int64_t r0 = aw0; r0 < aw1; r0 += VOL_CHUNK) {
                int64_t r1 = r0 + VOL_CHUNK < aw1 ? r0 + VOL_CHUNK : aw1;
                for (int64_t r = r0; r < r1; r++) {
                    char *d = s + (size_t)(r - aw0) * rf * es;
                    int64_t u1 = lw_wrap(r, n1);
                    if (inv) {
                        const char *lo, *hi;
                        double f = f0 * ((u1 & 1) ? ih : il);
                        inv_src_row(lv, sp, st1, ll, u, u1, &lo, &hi);
                        fp->k->scale(d + (size_t)vp->rp.ld_l * es, lo, hl, f * il);
                        fp->k->scale(d + (size_t)vp->rp.ld_h * es, hi, hh, f * ih);
                        continue;
                    }
                    const char *rp = sp + (size_t)(u1 * st1) * es;
                    if (vp->rowload)
                        lw_row_load(&vp->rp, rp, d);
                    else
                        lw_line_load_fwd(fp, &vp->rg, rp, srs, d, 1.0);
                }
                vsteps_rows(fp, &v0, i, inv, r0 - aw0, r1 - aw0, rf, &c->guard);
            }
        } else {
            lw_fast_vsteps(fp, &v0, i, inv, slot, &c->guard);
        }
        int64_t t = i - lag;
        if (t < o0 || t >= o1) continue;
        /* plane t is final along dim 0: dim 1 in place in its slot, then rows */
        char *P = c->ring + (size_t)((t - w0) % vp->R) * slot * es;
        double z0 = (t & 1) ? fp->zh : fp->zl;
        int64_t p0 = lv->mallat && !inv && !lv->vil ? lw_mallat_pos(t, n0) : t;
        char *dplane = dst + (size_t)(p0 * lv->ds[0]) * es;
        char *lplane = (!inv && ll && !(t & 1)) ? ll + (size_t)((t >> 1) * lv->ls[0]) * es : NULL;
        int64_t un = pf && i + 1 < w1 ? lw_wrap(i + 1, n0) : -1;
        const char *nxt = un >= 0 ? src + (size_t)(un * lv->ss[0]) * es : NULL;
        /* dim 1 in bands of iterations (the interior as a column walk) over
         * a few rows that stay in L1 (a power-of-two row pitch maps a long
         * column walk onto a few L1 sets), then the rows finished by the band,
         * each prefetching a row of the next plane */
        lw_vrows v1 = {P, 0, rf, aw0, aw1};
        int64_t pr = aw0, band = 2 * vp->walk_iters, s = a0;
        for (int64_t r = aw0; r < aw1 + lag; r += band) {
            int64_t re = r + band < aw1 + lag ? r + band : aw1 + lag;
            if (vp->walk)
                lw_fast_vsweep(fp, &v1, r, re, inv, rf, &c->guard);
            else
                for (int64_t q = r; q < re; q++) lw_fast_vsteps(fp, &v1, q, inv, rf, &c->guard);
            for (; s < a1 && s < re - lag; s++) {
                for (int64_t pe = s + 1 < a1 ? pr + 1 : aw1; un >= 0 && pr < pe; pr++) {
                    int64_t u1 = lw_wrap(pr, n1);
                    if (inv) {
                        const char *lo, *hi;
                        const int64_t pn = lv->mallat && !lv->vil ? lw_mallat_pos(un, n0) : un;
                        inv_src_row(lv, src + (size_t)(pn * lv->ss[0]) * es, lv->ss[1], ll, un, u1, &lo, &hi);
                        prefetch_row(lo, hl * es);
                        prefetch_row(hi, hh * es);
                    } else {
                        prefetch_row(nxt + (size_t)(u1 * lv->ss[1]) * es, rowbytes);
                    }
                }
                char *row = P + (size_t)(s - aw0) * rf * es;
                if (inv) {
                    lw_row_inv_merge(&vp->rp, row, c->line, dplane + (size_t)(s * lv->ds[1]) * es, lv->nt);
                    continue;
                }
                double z = z0 * ((s & 1) ? fp->zh : fp->zl);
                int64_t p1 = lv->mallat ? lw_mallat_pos(s, n1) : s;
                char *lrow = (lplane && !(s & 1)) ? lplane + (size_t)((s >> 1) * lv->ls[1]) * es : NULL;
                row_fwd(c, row, dplane + (size_t)(p1 * lv->ds[1]) * es, lrow, z);
            }
        }
    }
}

static void vol_inv(vol_ctx *c, const char *src, const char *ll, char *dst, int64_t o0, int64_t o1, int64_t a0,
                    int64_t a1)
{
    const lw_fast_level *lv = c->lv;
    const lw_fast_plan *fp = c->fp;
    const vol_plan *vp = c->vp;
    size_t es = fp->es, rf = vp->rf;
    int64_t n0 = lv->n[0], n1 = lv->n[1], w0, w1, aw0, aw1;
    lw_fast_window(fp, lv->mode, n0, o0, o1, &w0, &w1);
    lw_fast_window(fp, lv->mode, n1, a0, a1, &aw0, &aw1);
    int64_t rows = aw1 - aw0, lag = vp->lag;
    size_t slot = (size_t)rows * rf;
    double il = 1.0 / fp->zl, ih = 1.0 / fp->zh;
    int pf = lv->srs == 1 && vp->prefetch;
    size_t rowbytes = (size_t)lv->rowlen * es;
    /* dim 0 runs on the finished rows [a0, a1) of each slot only */
    lw_vrows v0 = {c->ring + (size_t)(a0 - aw0) * rf * es, vp->R, slot, w0, w1};
    for (int64_t i = w0; i < w1 + lag; i++) {
        if (i < w1) vol_claim(c, i, o0, &o1, &w1, &v0);
        if (i < w1) {
            int64_t u = lw_wrap(i, n0), p0 = lv->mallat && !lv->vil ? lw_mallat_pos(u, n0) : u, st1, srs;
            const char *splane = plane_in(c, src, i, p0, &st1, &srs);
            const char *lplane = (ll && !(u & 1)) ? ll + (size_t)((u >> 1) * lv->ls[0]) * es : NULL;
            const char *nxt = NULL;
            if (pf && i + 1 < w1) {
                int64_t un = lw_wrap(i + 1, n0);
                if (!(ll && !(un & 1)))
                    nxt = src + (size_t)((lv->mallat && !lv->vil ? lw_mallat_pos(un, n0) : un) * lv->ss[0]) * es;
            }
            double f0 = (i & 1) ? ih : il;
            char *P = c->ring + (size_t)((i - w0) % vp->R) * slot * es;
            lw_vrows v1 = {P, 0, rf, aw0, aw1};
            for (int64_t r = aw0; r < aw1 + lag; r++) {
                if (r < aw1) {
                    int64_t u1 = lw_wrap(r, n1), p1 = lv->mallat ? lw_mallat_pos(u1, n1) : u1;
                    const char *lrow = (lplane && !(u1 & 1)) ? lplane + (size_t)((u1 >> 1) * lv->ls[1]) * es : NULL;
                    if (nxt) prefetch_row(nxt + (size_t)(p1 * lv->ss[1]) * es, rowbytes);
                    row_inv(c, splane + (size_t)(p1 * st1) * es, srs, lrow, P + (size_t)(r - aw0) * rf * es,
                            f0 * ((r & 1) ? ih : il));
                }
                lw_fast_vsteps(fp, &v1, r, 1, rf, &c->guard);
            }
        }
        int64_t t = i - lag;
        if (t < o0 || t >= o1) {
            lw_fast_vsteps(fp, &v0, i, 1, (size_t)(a1 - a0) * rf, &c->guard);
            continue;
        }
        /* plane t is final chunk by chunk: its rows are stored right after
         * their dim-0 steps, spreading the (streaming) stores over the
         * lifting instead of a burst at the end of the plane */
        char *P = c->ring + (size_t)((t - w0) % vp->R) * slot * es;
        char *dplane = dst + (size_t)(t * lv->ds[0]) * es;
        for (int64_t s0 = a0; s0 < a1; s0 += VOL_CHUNK) {
            int64_t s1 = s0 + VOL_CHUNK < a1 ? s0 + VOL_CHUNK : a1;
            vsteps_rows(fp, &v0, i, 1, s0 - a0, s1 - a0, rf, &c->guard);
            for (int64_t s = s0; s < s1; s++)
                lw_line_store_inv(fp, &vp->rg, P + (size_t)(s - aw0) * rf * es,
                                  dplane + (size_t)(s * lv->ds[1]) * es, lv->drs, 0, lv->rowlen, 1.0, lv->nt);
        }
    }
}

/* ---- in place ------------------------------------------------------------ */

int lw_fast_vol_in_place(const lw_fast_level *lv) { return lv->mallat && !lv->vil ? 2 : 1; }

/* In place the units are strips of whole planes (no tiles), one a thread,
 * more only while the 2E planes each keeps stay within 1% of the volume */
static void in_place_units(const lw_fast_level *lv, vol_plan *vp, int threads, int64_t nitems)
{
    const int64_t n0 = lv->n[0], E = lv->fp->E;
    int64_t ns = 1;
    if (threads > 1 && nitems < threads) {
        int64_t most = n0 / (200 * E), least = (threads + nitems - 1) / nitems;
        if (nitems == 1 && most > threads) most -= most % threads;
        ns = most > least ? most : least;
        if (ns > n0 / (4 * E + 16)) ns = n0 / (4 * E + 16);
        if (ns < 1) ns = 1;
    }
    vp->tile = lv->n[1];
    vp->ntiles = 1;
    vp->max_rows = vp->cap_rows;
    vp->strip = (n0 + ns - 1) / ns;
    vp->nstrips = (n0 + vp->strip - 1) / vp->strip;
}

/* the planes kept: 2E a strip (none for one strip, but periodic: its window wraps) */
static size_t kept_bytes(const lw_fast_level *lv, const vol_plan *vp, int64_t nitems)
{
    if (vp->nstrips == 1 && lv->mode != LW_PERIODIC) return 0;
    return (size_t)(nitems * vp->nstrips * 2 * (int64_t)lv->fp->E) * (size_t)(lv->n[1] * lv->rowlen) * lv->fp->es;
}

size_t lw_fast_vol_in_place_bytes(const lw_fast_level *lv, int threads)
{
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    vol_plan vp;
    vol_geom(lv, 1, &vp);
    in_place_units(lv, &vp, threads, nitems);
    return kept_bytes(lv, &vp, nitems);
}

/* For every strip, the E planes before it and the E after it (wrapped where
 * periodic), as stored (rows dense), before any strip stores.  Plane x of
 * the copy is plane r = x mod 2E of strip x / 2E. */
static void keep_planes(const lw_fast_level *lv, const vol_plan *vp, int64_t nitems, const char *src, char *kept,
                        int threads)
{
    const int64_t E = lv->fp->E, n0 = lv->n[0], n1 = lv->n[1], W = lv->rowlen;
    const int64_t nrows = nitems * vp->nstrips * 2 * E * n1;
    const size_t es = lv->fp->es;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (int64_t x = 0; x < nrows; x++) {
        const int64_t row = x % n1;
        int64_t item, u;
        if (!lw_fast_kept_source(x / n1, vp->nstrips, vp->strip, n0, E, lv->mode, &item, &u)) continue; /* no window */
        const int64_t p0 = lv->inverse && lv->mallat && !lv->vil ? lw_mallat_pos(u, n0) : u;
        int64_t so, dof, lof;
        lw_fast_item_offsets(lv, item, &so, &dof, &lof);
        lw_fast_copy_samples(kept + (size_t)(x * W) * es, 1, src + (size_t)(so + p0 * lv->ss[0] + row * lv->ss[1]) * es,
                             lv->srs, W, 1, es);
    }
}

lw_vol_trace *lw_vol_trace_sink;

double lw_trace_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

lw_status lw_fast_vol_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                          char *scratch, size_t per_thread)
{
    const lw_fast_plan *fp = lv->fp;
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    vol_plan vp;
    const int ip = src == dst;
    if (ip && lw_fast_vol_in_place(lv) != 1)
        return lw_fail(LW_ERR_INTERNAL, "vol engine: this level cannot run in place (src == dst)");
    vol_geom(lv, ip, &vp);
    vol_units(lv, &vp, threads, nitems);
    if (ip) {
        in_place_units(lv, &vp, threads, nitems);
    } else { /* tuning vol_split=STRIPSxTILES forces the units */
        int64_t a = fp->tune.vol_split[0], b = fp->tune.vol_split[1];
        if (a >= 1 && b >= 1 && a <= lv->n[0] && b <= lv->n[1]) {
            vp.strip = (lv->n[0] + a - 1) / a;
            vp.nstrips = (lv->n[0] + vp.strip - 1) / vp.strip;
            vp.tile = (lv->n[1] + b - 1) / b;
            vp.ntiles = (lv->n[1] + vp.tile - 1) / vp.tile;
            cut c = cut_stats(fp, lv->mode, lv->n[1], vp.tile);
            if (c.max <= vp.cap_rows) vp.max_rows = c.max;
            else vp.strip = 0; /* does not fit the ring: ignored */
            if (!vp.strip) vol_units(lv, &vp, threads, nitems);
        }
    }
    size_t need = LW_ALIGN64(vp.ring_bytes + vp.line_bytes + 64);
    /* in place no unit splits: a part's first planes would be read after the
     * part before it stored them */
    int64_t nunits = nitems * vp.nstrips * vp.ntiles, smin = threads > 1 && !ip ? fp->tune.split_min : 0;
    /* more threads than units only where units are long enough to split */
    int64_t most = nunits * (smin ? 1 + vp.strip / (4 * smin) : 1);
    if (threads > most) threads = (int)(most > 0 ? most : 1);
    if (!scratch || per_thread < need) per_thread = 0; /* the caller's is too small: own */
    size_t es = fp->es;
    int fail = 0, bad = 0;
    /* units in order (item, strip, tile), then split while they run */
    lw_vqueue q;
    const size_t kb = ip ? kept_bytes(lv, &vp, nitems) : 0;
    char *kept = kb ? aligned_alloc(64, LW_ALIGN64(kb)) : NULL;
    if (kb && !kept) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes for the planes kept in place", kb);
    if (kept) keep_planes(lv, &vp, nitems, src, kept, threads);
    if (!lw_vq_init(&q, nunits, threads > 1 ? 4 * (int64_t)threads : 0, fp->E, lv->n[0], lv->mode == LW_PERIODIC,
                    threads > 1 ? smin : 0)) {
        free(kept);
        return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the cpu backend's work queue");
    }
    for (int64_t u = 0; u < nunits; u++) {
        int64_t item = u / (vp.nstrips * vp.ntiles), strip = (u / vp.ntiles) % vp.nstrips, tile = u % vp.ntiles;
        int64_t o0 = strip * vp.strip, o1 = o0 + vp.strip < lv->n[0] ? o0 + vp.strip : lv->n[0];
        int64_t a0 = tile * vp.tile, a1 = a0 + vp.tile < lv->n[1] ? a0 + vp.tile : lv->n[1];
        lw_vq_unit(&q, u, item, o0, o1 > o0 ? o1 : o0, a0, a1 > a0 ? a1 : a0);
    }
    lw_vol_trace *tr = lw_vol_trace_sink;
    if (tr) {
        tr->nthreads = threads;
        tr->t0 = lw_trace_now();
    }
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1) reduction(| : fail, bad)
#endif
    {
        const int tid = lw_fast_thread_num();
        int traced = tr && tid < LW_TRACE_THREADS;
        if (traced) {
            tr->begin[tid] = lw_trace_now();
            tr->busy[tid] = 0;
            tr->units[tid] = 0;
        }
        char *mem = per_thread ? scratch + (size_t)tid * per_thread : aligned_alloc(64, need);
        vol_ctx c;
        memset(&c, 0, sizeof c);
        c.lv = lv;
        c.fp = fp;
        c.vp = &vp;
        if (mem) {
            /* only samples are loaded: the rest of the rows stays zero */
            memset(mem, 0, (size_t)vp.max_rows * vp.rf * (size_t)vp.R * fp->es);
            c.ring = mem;
            c.line = vp.line_bytes ? mem + vp.ring_bytes : NULL;
            if (c.line) memset(c.line, 0, vp.line_bytes); /* its padding stays finite */
        } else {
            fail = 1;
        }
        if (traced) tr->ready[tid] = tr->end[tid] = lw_trace_now();
        int64_t reserved = -1;
        double rate = 0;
        for (lw_vslot *sl; !fail && (sl = lw_vq_take(&q, &reserved, rate)) != NULL;) {
            int64_t o0 = sl->o0, o1 = lw_vq_end(&q, sl), a0 = sl->a0, a1 = sl->a1, so, dof, lof;
            lw_fast_item_offsets(lv, sl->item, &so, &dof, &lof);
            const char *s = src + (size_t)so * es;
            char *d = dst + (size_t)dof * es;
            char *l = lv->has_ll ? ll + (size_t)lof * es : NULL;
            double ts = traced ? lw_trace_now() : 0;
            c.q = &q;
            c.sl = sl;
            if (kept) {
                const int64_t strip = o0 / vp.strip, E = fp->E;
                c.ipk = kept + (size_t)((sl->item * vp.nstrips + strip) * 2 * E * lv->n[1] * lv->rowlen) * es;
                c.io0 = o0, c.io1 = o1;
            }
            if (o0 < o1 && a0 < a1) {
                if (lv->inverse && !vp.xlast)
                    vol_inv(&c, s, l, d, o0, o1, a0, a1);
                else
                    vol_sweep(&c, s, d, l, o0, o1, a0, a1);
            }
            double r = lw_vq_done(sl);
            if (r > 0) rate = r;
            if (traced) { /* end: the last unit */
                tr->end[tid] = lw_trace_now();
                tr->busy[tid] += tr->end[tid] - ts;
                tr->units[tid]++;
            }
        }
        lw_fast_store_fence();
        if (mem) {
            bad |= c.guard;
            if (!per_thread) free(mem);
        }
    }
    lw_vq_free(&q);
    free(kept);
    if (tr) tr->t1 = lw_trace_now();
    if (bad) *guard = 1;
    if (fail) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the cpu backend's per-thread scratch");
    return LW_OK;
}
