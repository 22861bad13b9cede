/* The single-loop pipeline of the cpu backend.
 *
 * A level of an nD problem is run as nested sweeps.  Along the slowest
 * ("vertical") axis, sub-blocks (a row in 2-D, a tile of rows of a plane in
 * 3-D) enter a ring of R = (S+1)*D + 1 slots of per-thread scratch; after
 * sub-block i arrives, lifting step q (1..S) runs on sub-block i - q*D when
 * that has the step's parity, as one vector loop over the whole sub-block (so
 * the vertical pass works on every column at once).  For the two-tap
 * wavelets all steps of an iteration run as one fused pass (k->vchain), each
 * row loaded once.  A uniform lag D (the largest tap offset) makes every
 * neighbour available and not yet advanced past the step it must be read at.
 * Sub-block i - (S+1)*D is then final: it is handed, still hot, to the next
 * axis, which lifts it in place (the next vertical axis directly inside the
 * slot, or the line lifting of fast_line.c) and writes it to its Mallat or
 * interleaved place in dst.  Rows stay split (even | odd samples) from entry
 * to exit.  The inverse runs the other way round: the inner axes are
 * inverted into the slot, the vertical steps run in reverse order, and
 * finished sub-blocks are copied out.
 *
 * Boundaries: neighbours outside the window [w0, w1) are reflected at its
 * ends, which is the symmetric boundary at the ends of the axis.  Work units
 * (OpenMP, dynamic): batch items x strips of the slowest axis x tiles of dim
 * 1 (3-D cache blocking: a tile's ring stays within ~512 KiB).  A strip's or
 * tile's window adds E = S*D halo on each side, recomputed redundantly, so
 * units never communicate.  Periodic axes always use halo windows with
 * wrapped loads.
 *
 * In place (src == dst): a line with no vertical axis is loaded whole before
 * it is stored.  With one vertical axis (the interleaved layout, or Mallat
 * with the rows in sample order, vil), a unit
 * stores row t where it read row t, after reading rows up to t + lag, so the
 * only rows it could read after a store are the E beyond each end of its
 * strip; those are copied for every unit before any stores (2E rows a strip,
 * strips no more than the threads where that keeps the copy within 1%). */
#include "fast_internal.h"

#include <stdlib.h>
#include <string.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif


typedef struct nd_ctx {
    const lw_fast_level *lv;
    const lw_fast_plan *fp;
    int R, lag;
    char *ring[LW_MAX_AXES];
    size_t blk[LW_MAX_AXES];        /* elements of a sub-block at depth d */
    int64_t dense[LW_MAX_AXES];     /* dense strides of the sub-block dims */
    size_t rowfmt;                  /* elements of a row in a ring */
    lw_line_geom g;                 /* split form of a whole row (hlift) */
    size_t cb;                      /* column block of the vertical steps */
    int64_t tile;                   /* rows of dim 1 per tile of the depth-0 ring (nv >= 2) */
    int64_t tsel;                   /* the one tile to run, or -1 for all */
    char *direct[LW_MAX_AXES];      /* forward: dim d lifted in place in the outer slot */
    int64_t dbase[LW_MAX_AXES];     /* ... whose row 0 is index dbase[d] */
    void *line;                     /* fast_line.c scratch (no vertical axis) */
    /* in place (src == dst): the unit's own rows [io0, io1) of dim 0, and a
     * copy of the E rows its window reads each side of them (rows of ipw
     * elements, G a sample), made before any unit stored; NULL otherwise */
    const char *ipk;
    int64_t io0, io1, ipw;
    int guard;
} nd_ctx;

enum { CONV_RING = 0, CONV_IN = 1, CONV_OUT = 2 };

/* Copy the sub-array of dims d..nv-1 (+ row) from src to dst, times f.
 * conv: CONV_RING ring to ring (rows in split form), CONV_IN line to split
 * form, CONV_OUT split form to natural order line (inverse output). */
static void copy_block(const nd_ctx *c, int d, const char *src, const int64_t *sst, int64_t srs, char *dst,
                       const int64_t *dst_st, int64_t drs, double f, int conv, int nt)
{
    const lw_fast_level *lv = c->lv;
    const lw_fkern *k = c->fp->k;
    size_t es = c->fp->es;
    if (d == lv->nv) {
        if (lv->hlift && conv == CONV_IN) {
            lw_line_load_fwd(c->fp, &c->g, src, srs, dst, f);
        } else if (lv->hlift && conv == CONV_OUT) {
            lw_line_store_inv(c->fp, &c->g, src, dst, drs, 0, lv->rowlen, f, nt);
        } else if (conv == CONV_RING) {
            k->scale(dst, src, c->rowfmt, f);
        } else if (srs == 1 && drs == 1) {
            (nt ? k->scale_nt : k->scale)(dst, src, (size_t)lv->rowlen, f);
        } else {
            lw_scale_groups(c->fp, dst, drs, src, srs, lv->rowlen, 1, f);
        }
        return;
    }
    if (d < 0 || d >= LW_MAX_AXES) return; /* nv <= 3: never */
    for (int64_t j = 0; j < lv->n[d]; j++)
        copy_block(c, d + 1, src + (size_t)(j * sst[d]) * es, sst, srs, dst + (size_t)(j * dst_st[d]) * es, dst_st,
                   drs, f, conv, nt);
}

/* Software prefetch of the next input rows, so that memory stays busy while
 * a row is being lifted (the rows are far apart in 2-D). */
#define PF_AHEAD 2
static inline void prefetch(const char *p, size_t bytes)
{
#if defined(__GNUC__)
    for (size_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o, 0, 2);
#else
    (void)p;
    (void)bytes;
#endif
}

/* Dim 0's sub-block i (a row, or a plane of dim-1 rows) of the unit's window
 * as it reads it: the input's, or in place, outside the unit's own, its copy
 * (dense: *rs the sample stride, *st1 the dim-1 row stride) */
static inline const char *row_in(const nd_ctx *c, int d, int64_t i, const char *at, int64_t *rs, int64_t *st1)
{
    if (!c->ipk || d != 0 || (i >= c->io0 && i < c->io1)) return at;
    const int64_t r = lw_fast_kept_entry(i, c->io0, c->io1, c->fp->E);
    *rs = c->lv->G;
    *st1 = c->lv->rowlen * c->lv->G;
    return c->ipk + (size_t)(r * c->ipw) * c->fp->es;
}

/* In place, a line segment's window samples beyond [o0, o1) from the copy
 * (fe, fo: the factors of even and odd samples) */
static void patch_kept(const nd_ctx *c, const lw_line_geom *g, int64_t o0, int64_t o1, double fe, double fo)
{
    const int64_t E = c->fp->E;
    const size_t es = c->fp->es;
    if (g->w0 < o0) {
        const int64_t r = lw_fast_kept_entry(g->w0, o0, o1, E);
        lw_line_patch(c->fp, g, c->line, g->w0, o0, c->ipk + (size_t)(r * c->ipw) * es, fe, fo);
    }
    if (g->w1 > o1) {
        const int64_t r = lw_fast_kept_entry(o1, o0, o1, E);
        lw_line_patch(c->fp, g, c->line, o1, g->w1, c->ipk + (size_t)(r * c->ipw) * es, fe, fo);
    }
}

/* The window geometry g seen from chunk [c0, c0 + cnt) of its line (c0 even):
 * the same held samples, indices from c0, the core window that chunk */
static lw_line_geom chunk_geom(const lw_line_geom *g, int64_t c0, int64_t cnt)
{
    lw_line_geom gc = *g;
    gc.n = cnt, gc.x0 -= c0, gc.x1 -= c0, gc.w0 = 0, gc.w1 = cnt;
    return gc;
}

static inline char *slot_of(const nd_ctx *c, int d, int64_t t, int64_t w0)
{
    if (c->direct[d]) return c->direct[d] + (size_t)((t - c->dbase[d]) * c->dense[d]) * c->fp->es;
    return c->ring[d] + (size_t)((t - w0) % c->R) * c->blk[d] * c->fp->es;
}

void lw_fast_vsteps(const lw_fast_plan *fp, const lw_vrows *v, int64_t i, int inverse, size_t n, int *guard)
{
    size_t es = fp->es, cb = 4096 / es;
    int S = fp->nsteps;
    int64_t w0 = v->w0, w1 = v->w1;
#define ROW(t) (v->base + (size_t)(v->R ? ((t) - w0) % v->R : (t) - w0) * v->stride * es)
    if (fp->fused) {
        /* the steps alternate odd / even targets with offsets -1, +1: on
         * iterations of the other parity no step has a target */
        if ((int)((i - 1) & 1) != fp->steps[inverse ? S - 1 : 0].target_odd) return;
        if (i - S - 1 >= w0 && i < w1) {
            /* every step active, no neighbour reflected: one fused pass over
             * rows i .. i-S-1 (ring slots k, k-1, ... mod R: one division) */
            void *rows[LW_MAX_STEPS + 2];
            size_t step = v->stride * es;
            if (v->R) {
                int64_t k = (i - w0) % v->R;
                for (int q = 0; q <= S + 1; q++, k = k ? k - 1 : v->R - 1) rows[q] = v->base + (size_t)k * step;
            } else {
                for (int q = 0; q <= S + 1; q++) rows[q] = v->base + (size_t)(i - q - w0) * step;
            }
            fp->k->vchain(rows, n, fp->steps, S, inverse, guard);
            return;
        }
    }
    char *tgt[LW_MAX_STEPS];
    const char *nbs[LW_MAX_STEPS][LW_MAX_TAPS];
    const lw_fstep *st[LW_MAX_STEPS];
    int m = 0;
    for (int q = 1; q <= S; q++) {
        const lw_fstep *s = &fp->steps[inverse ? S - q : q - 1];
        int64_t t = i - (int64_t)q * fp->D;
        if (t < w0 || t >= w1 || (int)(t & 1) != s->target_odd) continue;
        tgt[m] = ROW(t);
        for (int a = 0; a < s->ntaps; a++) nbs[m][a] = ROW(lw_fast_reflect(t + s->off[a], w0, w1));
        st[m++] = s;
    }
#undef ROW
    if (!m) return;
    for (size_t j = 0; j < n; j += cb) {
        size_t cnt = n - j < cb ? n - j : cb;
        for (int q = 0; q < m; q++) {
            const void *nb[LW_MAX_TAPS];
            for (int a = 0; a < st[q]->ntaps; a++) nb[a] = nbs[q][a] + j * es;
            fp->k->step(tgt[q] + j * es, nb, cnt, st[q], inverse, guard);
        }
    }
}

void lw_fast_vsweep(const lw_fast_plan *fp, const lw_vrows *v, int64_t i0, int64_t i1, int inverse, size_t n,
                    int *guard)
{
    int S = fp->nsteps;
    int64_t a = i0, b = i0;
    if (fp->fused && S == 4 && fp->k->vwalk && v->R == 0) {
        /* interior: every step active, no neighbour reflected (see
         * lw_fast_vsteps), on iterations of the steps' parity */
        a = i0 > v->w0 + S + 1 ? i0 : v->w0 + S + 1;
        if ((int)((a - 1) & 1) != fp->steps[inverse ? S - 1 : 0].target_odd) a++;
        int64_t e = i1 < v->w1 ? i1 : v->w1;
        b = a < e ? a + (e - a + 1) / 2 * 2 : a;
    }
    for (int64_t i = i0; i < a && i < i1; i++) lw_fast_vsteps(fp, v, i, inverse, n, guard);
    if (b > a) {
        size_t es = fp->es;
        fp->k->vwalk(v->base + (size_t)(a - v->w0) * v->stride * es, v->stride, (size_t)(b - a) / 2, n, fp->steps,
                     inverse);
    }
    for (int64_t i = b > a ? b : (a > i0 ? a : i0); i < i1; i++) lw_fast_vsteps(fp, v, i, inverse, n, guard);
}

/* Vertical steps of iteration i at depth d (forward order, or reverse). */
static void ring_steps(nd_ctx *c, int d, int64_t i, int64_t w0, int64_t w1, int inverse, size_t blk)
{
    lw_vrows v;
    v.w0 = w0;
    v.w1 = w1;
    if (c->direct[d]) {
        v.base = c->direct[d] + (ptrdiff_t)((w0 - c->dbase[d]) * c->dense[d]) * (ptrdiff_t)c->fp->es;
        v.R = 0;
        v.stride = (size_t)c->dense[d];
    } else {
        v.base = c->ring[d];
        v.R = c->R;
        v.stride = c->blk[d];
    }
    lw_fast_vsteps(c->fp, &v, i, inverse, blk, &c->guard);
}

#define NO_BASE INT64_MIN

/* Forward over dims d.. of src (in_ring: src is a ring sub-block, rows in
 * split form, its dim-d row 0 being index sbase, or NO_BASE when it holds
 * the whole dim in natural order; else the level's input).  Outputs [o0, o1)
 * of dim d.  At depth 0 with two or more vertical dims the ring holds tiles
 * of dim 1 (with their halo) rather than whole planes, to stay in cache. */
static void nd_fwd(nd_ctx *c, int d, const char *src, const int64_t *sst, int64_t srs, char *dst, const int64_t *dst_st,
                   int64_t drs, char *ll, int64_t o0, int64_t o1, double fin, int in_ring, int64_t sbase)
{
    const lw_fast_level *lv = c->lv;
    const lw_fast_plan *fp = c->fp;
    size_t es = fp->es;
    if (d == lv->nv) {
        if (lv->hlift && in_ring) {
            /* the finished row is lifted in place in its slot, then placed */
            lw_line_lift_store_fwd(fp, &c->g, lv->mallat, (char *)src, dst, drs, ll, lv->lrs, 0, lv->rowlen, fin,
                                   lv->nt, &c->guard);
        } else if (lv->hlift && c->ipk) { /* a segment of a line in place */
            lw_line_geom g;
            lw_line_geom_group(fp, lv->mode, lv->rowlen, o0, o1, lv->G, &g);
            lw_line_load_fwd(fp, &g, src, srs, c->line, fin);
            patch_kept(c, &g, o0, o1, fin, fin);
            if (lv->vil) { /* its chunks, each in Mallat order within itself */
                lw_line_lift(fp, &g, c->line, 0, &c->guard);
                const int64_t B = lw_fast_line_chunk(lv);
                for (int64_t c0 = o0; c0 < o1; c0 += B) {
                    const lw_line_geom gc = chunk_geom(&g, c0, c0 + B < lv->rowlen ? B : lv->rowlen - c0);
                    lw_line_store_fwd(fp, &gc, 1, c->line, dst + (size_t)(c0 * drs) * es, drs, NULL, 0, 0, gc.n, 1.0,
                                      lv->nt);
                }
            } else {
                lw_line_lift_store_fwd(fp, &g, lv->mallat, c->line, dst, drs, ll, lv->lrs, o0, o1, 1.0, lv->nt,
                                       &c->guard);
            }
        } else if (lv->hlift) {
            lw_line_fwd(fp, lv->mode, lv->mallat, src, srs, dst, drs, ll, lv->lrs, lv->rowlen, lv->G, o0, o1, fin,
                        lv->nt, c->line, &c->guard);
        } else {
            copy_block(c, d, src, sst, srs, ll ? ll : dst, dst_st, ll ? lv->lrs : drs, fin, CONV_IN, lv->nt);
        }
        return;
    }
    if (d < 0 || d + 1 >= LW_MAX_AXES + 1) return; /* nv <= 3: never */
    int64_t n = lv->n[d], w0, w1;
    lw_fast_window(fp, lv->mode, n, o0, o1, &w0, &w1);
    int tiled = d == 0 && lv->nv >= 2;
    int64_t n1 = tiled ? lv->n[1] : 1, tile = tiled ? c->tile : 1;
    int64_t inner = (d + 1 < lv->nv && d + 1 < LW_MAX_AXES) ? lv->n[d + 1] : lv->rowlen;
    int pf = !in_ring && d + 1 == lv->nv && srs == lv->G; /* rows of the input: prefetch ahead */
    /* a tile slot of the outer dim holds this dim's whole window: lift it in
     * place there (no copy); the pending factor then goes to the output */
    int direct = in_ring && sbase != NO_BASE;
    c->direct[d] = direct ? (char *)src : NULL;
    c->dbase[d] = sbase;
    double fpass = direct ? fin : 1.0;
    int64_t ta = 0, tb = n1;
    if (tiled && c->tsel >= 0) {
        ta = c->tsel * tile;
        tb = ta + tile < n1 ? ta + tile : n1;
    }
    for (int64_t a0 = ta; a0 < tb; a0 += tile) {
        int64_t a1 = a0 + tile < n1 ? a0 + tile : n1, aw0 = 0, aw1 = 1;
        if (tiled) lw_fast_window(fp, lv->mode, n1, a0, a1, &aw0, &aw1);
        size_t blk = tiled ? (size_t)(aw1 - aw0) * (size_t)c->dense[1] : c->blk[d];
        for (int64_t i = w0; i < w1 + c->lag; i++) {
            if (pf && i + PF_AHEAD < w1)
                prefetch(src + (size_t)(lw_wrap(i + PF_AHEAD, n) * sst[d]) * es, (size_t)(lv->rowlen * lv->G) * es);
            if (i < w1 && !direct) {
                int64_t u = lw_wrap(i, n), rs = srs, st1 = tiled ? sst[1] : 0;
                const char *sp = row_in(c, d, i, src + (size_t)(u * sst[d]) * es, &rs, &st1);
                char *slot = slot_of(c, d, i, w0);
                int conv = in_ring ? CONV_RING : CONV_IN;
                if (tiled) {
                    for (int64_t r = aw0; r < aw1; r++)
                        copy_block(c, 2, sp + (size_t)(lw_wrap(r, n1) * st1) * es, sst, rs,
                                   slot + (size_t)((r - aw0) * c->dense[1]) * es, c->dense, 1, fin, conv, 0);
                } else {
                    copy_block(c, d + 1, sp, sst, rs, slot, c->dense, 1, fin, conv, 0);
                }
            }
            ring_steps(c, d, i, w0, w1, 0, blk);
            int64_t t = i - c->lag;
            if (t >= o0 && t < o1) {
                double z = ((t & 1) ? fp->zh : fp->zl) * fpass;
                int64_t p = lv->mallat && !(d == 0 && lv->vil) ? lw_mallat_pos(t, n) : t;
                char *li = (ll && !(t & 1)) ? ll + (size_t)((t >> 1) * lv->ls[d]) * es : NULL;
                nd_fwd(c, d + 1, slot_of(c, d, t, w0), c->dense, 1, dst + (size_t)(p * dst_st[d]) * es, dst_st, drs,
                       li, tiled ? a0 : 0, tiled ? a1 : inner, z, 1, tiled ? aw0 : NO_BASE);
            }
        }
    }
}

/* Inverse over dims d.. (to_ring: dst is a ring sub-block, rows kept in
 * split form, holding dim-d indices from dbase on; else the level's output).
 * Outputs [o0, o1) of dim d.  Tiled at depth 0 like nd_fwd; there the tile
 * slot holds the whole window of dim 1's own pipeline, which then runs in
 * place inside it (direct) with nothing to copy out. */
static void nd_inv(nd_ctx *c, int d, const char *src, const int64_t *sst, int64_t srs, const char *ll, char *dst,
                   const int64_t *dst_st, int64_t drs, int64_t o0, int64_t o1, double fout, int to_ring, int64_t dbase,
                   int direct)
{
    const lw_fast_level *lv = c->lv;
    const lw_fast_plan *fp = c->fp;
    size_t es = fp->es;
    if (d == lv->nv) {
        if (lv->hlift && to_ring) {
            lw_line_load_inv(fp, &c->g, lv->mallat, src, srs, ll, lv->lrs, dst, fout);
            lw_line_lift(fp, &c->g, dst, 1, &c->guard);
        } else if (lv->hlift && c->ipk) { /* a segment of a line in place */
            lw_line_geom g;
            lw_line_geom_group(fp, lv->mode, lv->rowlen, o0, o1, lv->G, &g);
            if (lv->vil) { /* its chunks, each in Mallat order within itself; the rest of the window is kept */
                const int64_t B = lw_fast_line_chunk(lv);
                for (int64_t c0 = o0; c0 < o1; c0 += B) {
                    const lw_line_geom gc = chunk_geom(&g, c0, c0 + B < lv->rowlen ? B : lv->rowlen - c0);
                    lw_line_load_inv(fp, &gc, 1, src + (size_t)(c0 * srs) * es, srs, NULL, 0, c->line, 1.0);
                }
            } else {
                lw_line_load_inv(fp, &g, lv->mallat, src, srs, ll, lv->lrs, c->line, 1.0);
            }
            patch_kept(c, &g, o0, o1, 1.0 / fp->zl, 1.0 / fp->zh);
            lw_line_lift(fp, &g, c->line, 1, &c->guard);
            lw_line_store_inv(fp, &g, c->line, dst, drs, o0, o1, fout, lv->nt);
        } else if (lv->hlift) {
            lw_line_inv(fp, lv->mode, lv->mallat, src, srs, ll, lv->lrs, dst, drs, lv->rowlen, lv->G, o0, o1, fout,
                        lv->nt, c->line, &c->guard);
        } else {
            copy_block(c, d, ll ? ll : src, sst, ll ? lv->lrs : srs, dst, dst_st, drs, fout, CONV_OUT,
                       lv->nt && !to_ring);
        }
        return;
    }
    if (d < 0 || d + 1 >= LW_MAX_AXES + 1) return; /* nv <= 3: never */
    int64_t n = lv->n[d], w0, w1;
    lw_fast_window(fp, lv->mode, n, o0, o1, &w0, &w1);
    c->direct[d] = direct ? dst : NULL;
    c->dbase[d] = w0;
    int tiled = d == 0 && lv->nv >= 2;
    int64_t n1 = tiled ? lv->n[1] : 1, tile = tiled ? c->tile : 1;
    int64_t inner = (d + 1 < lv->nv && d + 1 < LW_MAX_AXES) ? lv->n[d + 1] : lv->rowlen;
    double il = 1.0 / fp->zl, ih = 1.0 / fp->zh;
    int pf = d == 0 && d + 1 == lv->nv && srs == lv->G;
    int64_t ta = 0, tb = n1;
    if (tiled && c->tsel >= 0) {
        ta = c->tsel * tile;
        tb = ta + tile < n1 ? ta + tile : n1;
    }
    for (int64_t a0 = ta; a0 < tb; a0 += tile) {
        /* [aw0, aw1): rows of dim 1 this tile's outputs need; [bw0, bw1): the
         * window dim 1's pipeline reads to produce them (held in the slot) */
        int64_t a1 = a0 + tile < n1 ? a0 + tile : n1, aw0 = 0, aw1 = 1, bw0 = 0, bw1 = 1;
        if (tiled) {
            lw_fast_window(fp, lv->mode, n1, a0, a1, &aw0, &aw1);
            lw_fast_window(fp, lv->mode, n1, aw0, aw1, &bw0, &bw1);
        }
        size_t blk = tiled ? (size_t)(bw1 - bw0) * (size_t)c->dense[1] : c->blk[d];
        for (int64_t i = w0; i < w1 + c->lag; i++) {
            if (pf && i + PF_AHEAD < w1) {
                int64_t u = lw_wrap(i + PF_AHEAD, n);
                int64_t p = lv->mallat && !(d == 0 && lv->vil) ? lw_mallat_pos(u, n) : u;
                prefetch(src + (size_t)(p * sst[d]) * es, (size_t)(lv->rowlen * lv->G) * es);
            }
            if (i < w1) {
                int64_t u = lw_wrap(i, n), rs = srs, kst[LW_MAX_AXES];
                int64_t p = lv->mallat && !(d == 0 && lv->vil) ? lw_mallat_pos(u, n) : u;
                const char *li = (ll && !(u & 1)) ? ll + (size_t)((u >> 1) * lv->ls[d]) * es : NULL;
                double f = ((i & 1) ? ih : il) * (direct ? fout : 1.0);
                memcpy(kst, sst, sizeof kst);
                const char *sp = row_in(c, d, i, src + (size_t)(p * sst[d]) * es, &rs, &kst[1]);
                nd_inv(c, d + 1, sp, kst, rs, li, slot_of(c, d, i, w0), c->dense, 1, tiled ? aw0 : 0,
                       tiled ? aw1 : inner, f, 1, 0, tiled);
            }
            ring_steps(c, d, i, w0, w1, 1, blk);
            int64_t t = i - c->lag;
            if (t >= o0 && t < o1 && !direct) {
                char *slot = slot_of(c, d, t, w0), *dp = dst + (size_t)((t - dbase) * dst_st[d]) * es;
                int conv = to_ring ? CONV_RING : CONV_OUT, nt = lv->nt && !to_ring;
                if (tiled) {
                    for (int64_t r = a0; r < a1; r++)
                        copy_block(c, 2, slot + (size_t)((r - bw0) * c->dense[1]) * es, c->dense, 1,
                                   dp + (size_t)(r * dst_st[1]) * es, dst_st, drs, fout, conv, nt);
                } else {
                    copy_block(c, d + 1, slot, c->dense, 1, dp, dst_st, drs, fout, conv, nt);
                }
            }
        }
    }
}

#define LINE_SEG ((int64_t)1 << 15)

/* Per-thread scratch: one ring per vertical depth, or the line halves.
 * Returns its size; with mem != NULL also lays it out.  whole: the depth-0
 * ring holds whole planes of dims 1.. (in place: no tiles of dim 1, whose
 * halos the tiles beside would store over). */
static size_t ctx_init(nd_ctx *c, const lw_fast_level *lv, int whole, char *mem)
{
    const lw_fast_plan *fp = lv->fp;
    memset(c, 0, sizeof *c);
    c->lv = lv;
    c->fp = fp;
    c->lag = (fp->nsteps + 1) * fp->D;
    c->R = c->lag + 1;
    c->cb = 4096 / fp->es;
    if (lv->hlift) lw_line_geom_group(fp, lv->mode, lv->rowlen, 0, lv->rowlen, lv->G, &c->g);
    c->rowfmt = lv->hlift ? c->g.fmt : (size_t)lv->rowlen;
    int64_t st = (int64_t)c->rowfmt;
    /* nv <= LW_MAX_AXES always; the bound also tells the compiler (else gcc
     * -Warray-bounds sees paths past the per-axis arrays) */
    const int nv = lv->nv < LW_MAX_AXES ? lv->nv : LW_MAX_AXES;
    for (int d = nv - 1; d >= 0; d--) {
        c->dense[d] = st;
        c->blk[d] = (size_t)st;
        st *= lv->n[d];
    }
    if (lv->nv >= 2) {
        /* tiles of dim 1 whose ring (R sub-blocks with halo) fits in ~512 KiB */
        int64_t rowb = (int64_t)c->R * c->dense[1] * (int64_t)fp->es;
        int64_t t = ((int64_t)512 * 1024) / (rowb > 0 ? rowb : 1) - 2 * (int64_t)fp->E;
        if (t < 8) t = 8;
        if (t > lv->n[1] || whole) t = lv->n[1];
        c->tile = t;
        int64_t w0, w1, wmax = 0;
        for (int64_t a0 = 0; a0 < lv->n[1]; a0 += t) {
            lw_fast_window(fp, lv->mode, lv->n[1], a0, a0 + t < lv->n[1] ? a0 + t : lv->n[1], &w0, &w1);
            if (lv->inverse) lw_fast_window(fp, lv->mode, lv->n[1], w0, w1, &w0, &w1); /* see nd_inv */
            if (w1 - w0 > wmax) wmax = w1 - w0;
        }
        c->blk[0] = (size_t)(wmax * c->dense[1]);
    }
    size_t total = 0;
    for (int d = 0; d < nv; d++) total += LW_ALIGN64(c->blk[d] * (size_t)c->R * fp->es);
    int64_t seg = lv->rowlen < LINE_SEG ? lv->rowlen : LINE_SEG; /* bound of a line segment */
    size_t lb = (lv->hlift && lv->nv == 0) ? lw_line_scratch_bytes(fp, seg + 2 * (int64_t)fp->E + 2, lv->G) : 0;
    if (mem) {
        memset(mem, 0, total); /* split-row padding stays zero: steps on it are harmless */
        char *p = mem;
        for (int d = 0; d < nv; d++) {
            c->ring[d] = p;
            p += LW_ALIGN64(c->blk[d] * (size_t)c->R * fp->es);
        }
        c->line = lb ? p : NULL;
    }
    return LW_ALIGN64(total + lb + 64);
}

size_t lw_fast_nd_scratch(const lw_fast_level *lv)
{
    nd_ctx c;
    return ctx_init(&c, lv, 0, NULL);
}

int lw_fast_nd_in_place(const lw_fast_level *lv)
{
    /* a unit stores row t of dim 0 at row t (interleaved) after it has read
     * rows up to t + lag: of the rows it reads, only those outside its own
     * strip can have been stored first, by another unit (or, periodic, by
     * itself: its window wraps) */
    if (lv->fsmode || lv->adjoint) return 0;
    /* no vertical axis: a segment of a line is loaded whole before it is
     * stored, so only the E samples its window reads beyond each end can
     * have been stored first, by the segments beside it; but a segment's
     * Mallat places lie in other segments, so that layout keeps a line whole
     * (one unit, up to LINE_SEG samples); a longer one is stored in chunks,
     * each in Mallat order within itself (segments of whole chunks), and
     * then reordered (2: vil, lw_fast_move_rows) */
    if (lv->nv == 0) return !lv->mallat || lv->rowlen <= LINE_SEG ? 1 : 2;
    /* vertical axes: the depth-0 ring holds whole sub-blocks (rows, planes)
     * in place, so dims 1.. are Mallat within them */
    if (lv->nv > 2) return 0;
    return lv->mallat && !lv->vil ? 2 : 1;
}

/* The work units of a level: items x strips of the slowest axis (or
 * segments of the line) x tiles of dim 1 (nv >= 2) */
typedef struct nd_units {
    int64_t nitems, ntiles, n0, nstrips, seg;
    int keep; /* in place: the rows beyond each strip copied first */
} nd_units;

static void units_of(const lw_fast_level *lv, const nd_ctx *c0, int threads, int in_place, nd_units *u)
{
    const lw_fast_plan *fp = lv->fp;
    u->nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) u->nitems *= lv->bn[b];
    u->ntiles = lv->nv >= 2 && !in_place ? (lv->n[1] + c0->tile - 1) / c0->tile : 1;
    u->n0 = lv->nv > 0 ? lv->n[0] : lv->rowlen;
    int64_t nstrips = 1, minlen = lv->nv > 0 ? 4 * (int64_t)fp->E + 16 : 4096;
    const int64_t per = u->nitems * u->ntiles;
    if (threads > 1 && per < 4 * threads) {
        nstrips = (4 * threads + per - 1) / per;
        if (nstrips > u->n0 / minlen) nstrips = u->n0 / minlen;
        /* in place a strip keeps 2E rows: one strip a thread, more only
         * while their rows stay within 1% of the axis */
        if (in_place && nstrips * per > threads) {
            int64_t most = u->n0 / (200 * (int64_t)fp->E), least = (threads + per - 1) / per;
            if (per == 1 && most > threads) most -= most % threads; /* whole rounds of the threads */
            if (most < least) most = least;
            if (nstrips > most) nstrips = most;
        }
        if (nstrips < 1) nstrips = 1;
    }
    if (lv->nv == 0 && u->n0 > LINE_SEG && nstrips < (u->n0 + LINE_SEG - 1) / LINE_SEG)
        nstrips = (u->n0 + LINE_SEG - 1) / LINE_SEG;
    if (in_place && lv->nv == 0 && lv->mallat) nstrips = 1;
    u->seg = (u->n0 + nstrips - 1) / nstrips;
    if (in_place && lv->nv == 0 && lv->vil) { /* whole chunks a segment */
        const int64_t B = lw_fast_line_chunk(lv);
        u->seg = (u->seg + B - 1) / B * B;
        nstrips = (u->n0 + u->seg - 1) / u->seg;
    }
    u->nstrips = nstrips;
    /* a periodic window wraps: a strip of rows (planes) reads rows it has
     * stored; a line alone is loaded whole first */
    u->keep = in_place && (nstrips > 1 || (lv->nv >= 1 && lv->mode == LW_PERIODIC));
}

/* elements of one kept sub-block of dim 0 (a row, or a plane of dim-1
 * rows), or of one kept sample of a line */
static int64_t kept_width(const lw_fast_level *lv)
{
    return lv->nv == 0 ? lv->G : (lv->nv == 2 ? lv->n[1] : 1) * lv->rowlen * lv->G;
}

static size_t kept_bytes(const lw_fast_level *lv, const nd_units *u)
{
    if (!u->keep) return 0;
    return (size_t)(u->nitems * u->nstrips * 2 * (int64_t)lv->fp->E) * (size_t)kept_width(lv) * lv->fp->es;
}

size_t lw_fast_nd_in_place_bytes(const lw_fast_level *lv, int threads)
{
    nd_ctx c0;
    nd_units u;
    ctx_init(&c0, lv, 1, NULL);
    units_of(lv, &c0, threads, lw_fast_nd_in_place(lv) != 0, &u);
    return kept_bytes(lv, &u);
}

/* In place: for every unit, the E rows of dim 0 (samples of a line) before
 * its strip (segment) and the E after it (those its window reads, wrapped
 * where periodic), before any unit stores.  Entry x of the copy is entry
 * r = x mod 2E of unit x / 2E; a line's samples as the unit loads them (an
 * inverse's in Mallat order from their Mallat places). */
static void keep_rows(const lw_fast_level *lv, const nd_units *u, const char *src, char *kept, int threads)
{
    const int64_t E = lv->fp->E, ipw = kept_width(lv), n0 = u->n0;
    const int64_t nrows = u->nitems * u->nstrips * 2 * E;
    const size_t es = lv->fp->es;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(static)
#endif
    for (int64_t x = 0; x < nrows; x++) {
        int64_t item, v;
        if (!lw_fast_kept_source(x, u->nstrips, u->seg, n0, E, lv->mode, &item, &v)) continue; /* in no window */
        int64_t so, dof, lof;
        lw_fast_item_offsets(lv, item, &so, &dof, &lof);
        if (lv->nv == 0) {
            const int64_t p = !lv->inverse ? v
                              : lv->vil    ? lw_fast_chunk_pos(v, n0, lw_fast_line_chunk(lv))
                              : lv->mallat ? lw_mallat_pos(v, n0)
                                           : v;
            memcpy(kept + (size_t)(x * ipw) * es, src + (size_t)(so + p * lv->srs) * es, (size_t)ipw * es);
        } else {
            const int64_t nr = lv->nv == 2 ? lv->n[1] : 1, w = lv->rowlen * lv->G;
            for (int64_t r = 0; r < nr; r++)
                lw_fast_copy_samples(kept + (size_t)(x * ipw + r * w) * es, lv->G,
                                     src + (size_t)(so + v * lv->ss[0] + (lv->nv == 2 ? r * lv->ss[1] : 0)) * es,
                                     lv->srs, lv->rowlen, lv->G, es);
        }
    }
}

lw_status lw_fast_nd_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                         char *scratch, size_t per_thread)
{
    const lw_fast_plan *fp = lv->fp;
    nd_ctx c0;
    const int ip = src == dst;
    size_t need = ctx_init(&c0, lv, ip, NULL);
    nd_units un;
    if (ip && lw_fast_nd_in_place(lv) != 1)
        return lw_fail(LW_ERR_INTERNAL, "nd engine: this level cannot run in place (src == dst)");
    units_of(lv, &c0, threads, ip, &un);
    const int64_t nitems = un.nitems, ntiles = un.ntiles, n0 = un.n0, nstrips = un.nstrips, seg = un.seg;
    int64_t nunits = nitems * nstrips * ntiles;
    if (threads > nunits) threads = (int)(nunits > 0 ? nunits : 1);
    int fail = 0, bad = 0;
    size_t es = fp->es;
    if (!scratch || per_thread < need) per_thread = 0; /* the caller's is too small: own */
    const size_t kb = kept_bytes(lv, &un);
    char *kept = NULL;
    if (kb) {
        kept = aligned_alloc(64, LW_ALIGN64(kb));
        if (!kept) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes for the rows kept in place", kb);
        keep_rows(lv, &un, src, kept, threads);
    }

#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1) reduction(| : fail, bad)
#endif
    {
        nd_ctx c;
        const int tid = lw_fast_thread_num();
        char *mem = per_thread ? scratch + (size_t)tid * per_thread : aligned_alloc(64, need);
        if (mem)
            ctx_init(&c, lv, ip, mem);
        else
            fail = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t u = 0; u < nunits; u++) {
            if (fail) continue;
            int64_t item = u / (nstrips * ntiles), strip = (u / ntiles) % nstrips;
            c.tsel = ntiles > 1 ? u % ntiles : -1;
            int64_t so, dof, lof;
            lw_fast_item_offsets(lv, item, &so, &dof, &lof);
            int64_t o0 = strip * seg, o1 = o0 + seg < n0 ? o0 + seg : n0;
            if (o0 >= o1) continue;
            c.ipw = kept_width(lv);
            c.ipk = kept ? kept + (size_t)((item * nstrips + strip) * 2 * (int64_t)fp->E * c.ipw) * es : NULL;
            c.io0 = o0, c.io1 = o1;
            const char *s = src + (size_t)so * es;
            char *d = dst + (size_t)dof * es;
            char *l = lv->has_ll ? ll + (size_t)lof * es : NULL;
            if (lv->inverse)
                nd_inv(&c, 0, s, lv->ss, lv->srs, l, d, lv->ds, lv->drs, o0, o1, 1.0, 0, 0, 0);
            else
                nd_fwd(&c, 0, s, lv->ss, lv->srs, d, lv->ds, lv->drs, l, o0, o1, 1.0, 0, NO_BASE);
        }
        lw_fast_store_fence();
        if (mem) {
            bad |= c.guard;
            if (!per_thread) free(mem);
        }
    }
    free(kept);
    if (bad) *guard = 1;
    if (fail) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the cpu backend's per-thread scratch");
    return LW_OK;
}
