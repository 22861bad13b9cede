/* 1-D lifting of one line segment (the "horizontal" pass).
 *
 * The window [w0, w1) of the line that the outputs [o0, o1) depend on is held
 * split into its even samples L and odd samples H (lw_line_geom).
 *
 * Generic path (any wavelet): each lifting step is one vector loop over the
 * interior of the target half, where every neighbour is inside the window,
 * plus a few edge elements whose neighbours are reflected at the window ends:
 * the true symmetric boundary at the ends of the line, a don't-care value at
 * an inner cut, which the window's halo keeps away from the outputs.
 *
 * Fused path (cdf53, cdf97, fs: symmetric two-tap steps): the window gets
 * margins holding its whole-sample reflection, and k->lift2s runs every step
 * in one register-pipelined pass over the halves, writing whole final blocks
 * straight to their Mallat places (streaming stores for large outputs).  For
 * symmetric steps, lifting the reflected extension equals reflecting at every
 * step, bit for bit.
 *
 * Periodic windows are pre-extended with wrapped samples, so lifting on them
 * equals the circular transform.  The zeta scaling is folded into the final
 * store, which also does the Mallat (L then H) or interleaved placement.
 * fast_nd.c keeps whole rows in this split form in its rings, so a row is
 * split once on entry and placed once on exit. */
#include "fast_internal.h"

#include <string.h>


/* m: margin samples on each side; padded: room for the fused kernel's
 * blocks (it reads and writes whole vector blocks past the held samples). */
/* align: x0 the largest one <= w0 - m with (x0 - phase) a multiple of
 * 2 * lanes (phase even). */
static void geom_init(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t m, int padded,
                      int align, int64_t phase, lw_line_geom *g)
{
    lw_fast_window(fp, mode, n, o0, o1, &g->w0, &g->w1);
    g->n = n;
    g->x0 = g->w0 - m;
    if (g->x0 & 1) g->x0--;
    if (align) {
        int64_t a = 2 * (int64_t)fp->k->lanes, d = g->x0 - phase;
        d = d >= 0 ? d / a * a : -((-d + a - 1) / a * a);
        g->x0 = phase + d;
    }
    g->x1 = g->w1 + m;
    g->cl = (g->x1 - g->x0 + 1) / 2;
    g->ch = (g->x1 - g->x0) / 2;
    size_t lanes = (size_t)fp->k->lanes, per = 64 / fp->es; /* elements per cache line */
    g->nblk = ((size_t)g->cl + lanes - 1) / lanes;
    size_t half = padded ? (g->nblk + 2) * lanes + 1 : (size_t)g->cl;
    g->hoff = (half + per - 1) / per * per;
    g->fmt = 2 * g->hoff;
}

void lw_line_geom_init(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, 0, 0, g);
}

void lw_line_geom_aligned(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, fp->fused, 0, g);
}

void lw_line_geom_phase(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t phase,
                        lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, fp->fused, phase, g);
}

void lw_line_geom_compact(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, 0, 0, 0, 0, g);
}

void lw_line_convert(const lw_fast_plan *fp, const lw_line_geom *gs, const char *src, const lw_line_geom *gd,
                     char *dst)
{
    size_t es = fp->es;
    int64_t t0 = gs->x0 > gd->x0 ? gs->x0 : gd->x0, t1 = gs->x1 < gd->x1 ? gs->x1 : gd->x1;
    if (t1 <= t0) return;
    int64_t ne = (t1 - t0 + 1) / 2, no = (t1 - t0) / 2; /* t0 is even: both x0 are */
    memcpy(dst + (size_t)((t0 - gd->x0) >> 1) * es, src + (size_t)((t0 - gs->x0) >> 1) * es, (size_t)ne * es);
    memcpy(dst + (gd->hoff + (size_t)((t0 - gd->x0) >> 1)) * es, src + (gs->hoff + (size_t)((t0 - gs->x0) >> 1)) * es,
           (size_t)no * es);
}

size_t lw_line_scratch_bytes(const lw_fast_plan *fp, int64_t wmax)
{
    return 2 * LW_ALIGN64(((size_t)(wmax + 2 * fp->E + 4 * fp->k->lanes + 4) / 2 + 3 * 64) * fp->es);
}

/* Address of held sample t. */
static inline char *at(const lw_line_geom *g, char *base, int64_t t, size_t es)
{
    return (t & 1) ? base + (g->hoff + (size_t)((t - g->x0 - 1) >> 1)) * es : base + (size_t)((t - g->x0) >> 1) * es;
}

void lw_scale_strided(const lw_fast_plan *fp, char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, double f)
{
    if (fp->es == 4 && fp->isint) {
        for (int64_t j = 0; j < n; j++) ((int32_t *)dst)[j * ds] = ((const int32_t *)src)[j * ss];
    } else if (fp->es == 4) {
        const float ff = (float)f;
        for (int64_t j = 0; j < n; j++) ((float *)dst)[j * ds] = ((const float *)src)[j * ss] * ff;
    } else if (fp->es == 8 && !fp->isint) {
        for (int64_t j = 0; j < n; j++) ((double *)dst)[j * ds] = ((const double *)src)[j * ss] * f;
    } else {
        for (int64_t j = 0; j < n; j++)
            fp->k->scale(dst + (size_t)(j * ds) * fp->es, src + (size_t)(j * ss) * fp->es, 1, f);
    }
}

/* Copy cnt samples of one parity, t = t0, t0+2, ..., between the window and
 * a strided run (to_win: run -> window, else window -> run). */
static void par_copy(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int64_t t0, int64_t cnt, char *run,
                     int64_t st, double f, int to_win, int nt)
{
    const lw_fkern *k = fp->k;
    size_t es = fp->es;
    if (cnt <= 0) return;
    char *x = at(g, base, t0, es);
    if (st == 1) {
        if (to_win)
            k->scale(x, run, (size_t)cnt, f);
        else
            (nt ? k->scale_nt : k->scale)(run, x, (size_t)cnt, f);
        return;
    }
    if (to_win)
        lw_scale_strided(fp, x, 1, run, st, cnt, f);
    else
        lw_scale_strided(fp, run, st, x, 1, cnt, f);
}

/* Even / odd start and counts of [a, b). */
#define PAR_RANGE(a, b, e, od, ne, no)                         \
    int64_t e = ((a) & 1) ? (a) + 1 : (a), od = ((a) & 1) ? (a) : (a) + 1; \
    int64_t ne = (b) > e ? ((b) - e + 1) / 2 : 0, no = (b) > od ? ((b) - od + 1) / 2 : 0

void lw_line_load_fwd(const lw_fast_plan *fp, const lw_line_geom *g, const char *src, int64_t ss, char *base,
                      double f)
{
    const lw_fkern *k = fp->k;
    size_t es = fp->es;
    int64_t n = g->n, a = g->w0 < 0 ? 0 : g->w0, b = g->w1 > n ? n : g->w1;
    /* wrapped samples (periodic halo) one by one */
    for (int64_t t = g->w0; t < g->w1; t++) {
        if (t == a) t = b;
        if (t >= g->w1) break;
        k->scale(at(g, base, t, es), src + (size_t)(lw_wrap(t, n) * ss) * es, 1, f);
    }
    if (b <= a) return;
    if (ss == 1) {
        int64_t np = (b - a) / 2; /* pairs (a + 2i, a + 2i + 1), whichever parity a has */
        k->split(src + (size_t)a * es, at(g, base, a, es), at(g, base, a + 1, es), (size_t)np, f, f);
        if ((b - a) & 1) k->scale(at(g, base, b - 1, es), src + (size_t)(b - 1) * es, 1, f);
    } else {
        PAR_RANGE(a, b, e, od, ne, no);
        par_copy(fp, g, base, e, ne, (char *)src + (size_t)(e * ss) * es, 2 * ss, f, 1, 0);
        par_copy(fp, g, base, od, no, (char *)src + (size_t)(od * ss) * es, 2 * ss, f, 1, 0);
    }
}

void lw_line_load_inv(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, const char *src, int64_t ss,
                      const char *lo, int64_t ls, char *base, double f)
{
    const lw_fkern *k = fp->k;
    size_t es = fp->es;
    int64_t n = g->n, a = g->w0 < 0 ? 0 : g->w0, b = g->w1 > n ? n : g->w1;
    double il = f / fp->zl, ih = f / fp->zh;
    for (int64_t t = g->w0; t < g->w1; t++) {
        if (t == a) t = b;
        if (t >= g->w1) break;
        int64_t u = lw_wrap(t, n);
        const char *p;
        if (lo && !(u & 1))
            p = lo + (size_t)((u >> 1) * ls) * es;
        else
            p = src + (size_t)((mallat ? lw_mallat_pos(u, n) : u) * ss) * es;
        k->scale(at(g, base, t, es), p, 1, (t & 1) ? ih : il);
    }
    if (b <= a) return;
    PAR_RANGE(a, b, e, od, ne, no);
    if (mallat) {
        int64_t h = (n + 1) / 2;
        if (lo)
            par_copy(fp, g, base, e, ne, (char *)lo + (size_t)((e >> 1) * ls) * es, ls, il, 1, 0);
        else
            par_copy(fp, g, base, e, ne, (char *)src + (size_t)((e >> 1) * ss) * es, ss, il, 1, 0);
        par_copy(fp, g, base, od, no, (char *)src + (size_t)((h + (od >> 1)) * ss) * es, ss, ih, 1, 0);
    } else if (lo) {
        par_copy(fp, g, base, e, ne, (char *)lo + (size_t)((e >> 1) * ls) * es, ls, il, 1, 0);
        par_copy(fp, g, base, od, no, (char *)src + (size_t)(od * ss) * es, 2 * ss, ih, 1, 0);
    } else if (ss == 1) {
        int64_t np = (b - a) / 2;
        if (a & 1)
            k->split(src + (size_t)a * es, at(g, base, a, es), at(g, base, a + 1, es), (size_t)np, ih, il);
        else
            k->split(src + (size_t)a * es, at(g, base, a, es), at(g, base, a + 1, es), (size_t)np, il, ih);
        if ((b - a) & 1) k->scale(at(g, base, b - 1, es), src + (size_t)(b - 1) * es, 1, ((b - 1) & 1) ? ih : il);
    } else {
        par_copy(fp, g, base, e, ne, (char *)src + (size_t)(e * ss) * es, 2 * ss, il, 1, 0);
        par_copy(fp, g, base, od, no, (char *)src + (size_t)(od * ss) * es, 2 * ss, ih, 1, 0);
    }
}

/* Generic: each step over the core window, neighbours outside it reflected. */
static void lift_steps(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int inverse, int *guard)
{
    size_t es = fp->es;
    for (int q = 0; q < fp->nsteps; q++) {
        const lw_fstep *s = &fp->steps[inverse ? fp->nsteps - 1 - q : q];
        int64_t first = g->w0 + ((g->w0 & 1) != s->target_odd);
        int mn = 0, mx = 0;
        for (int i = 0; i < s->ntaps; i++) {
            if (s->off[i] < mn) mn = s->off[i];
            if (s->off[i] > mx) mx = s->off[i];
        }
        /* interior targets: every neighbour inside [w0, w1) */
        int64_t ia = g->w0 - mn > first ? g->w0 - mn : first, ib = g->w1 - mx < g->w1 ? g->w1 - mx : g->w1;
        if ((ia & 1) != s->target_odd) ia++;
        int64_t cnt = ib > ia ? (ib - ia + 1) / 2 : 0;
        if (cnt > 0) {
            const void *nb[LW_MAX_TAPS];
            for (int i = 0; i < s->ntaps; i++) nb[i] = at(g, base, ia + s->off[i], es);
            fp->k->step(at(g, base, ia, es), nb, (size_t)cnt, s, inverse, guard);
        } else {
            ia = ib = first;
        }
        for (int64_t t = first; t < g->w1; t += 2) {
            if (t == ia && cnt > 0) t = ia + 2 * cnt;
            if (t >= g->w1) break;
            const void *nb[LW_MAX_TAPS];
            for (int i = 0; i < s->ntaps; i++) nb[i] = at(g, base, lw_fast_reflect(t + s->off[i], g->w0, g->w1), es);
            fp->k->step(at(g, base, t, es), nb, 1, s, inverse, guard);
        }
    }
}

/* Before the fused kernel: the E margin samples on each side of the core get
 * its whole-sample reflection (for these symmetric steps, lifting the
 * extended line equals reflecting at every step); samples further out (an
 * aligned geometry's extra margin) and the padding get zeros, so that
 * nothing the kernel reads can grow from row to row. */
static inline void copy_elem(char *d, const char *s, size_t es)
{
    if (es == 4)
        memcpy(d, s, 4);
    else
        memcpy(d, s, 8);
}

static void fused_prep(const lw_fast_plan *fp, const lw_line_geom *g, char *base)
{
    size_t es = fp->es, half = g->hoff;
    int64_t m0 = g->w0 - fp->E, m1 = g->w1 + fp->E;
    if (m0 < g->x0) m0 = g->x0;
    if (m1 > g->x1) m1 = g->x1;
    if (m0 > g->x0) {
        memset(base, 0, (size_t)((m0 - g->x0 + 1) / 2) * es);
        memset(base + half * es, 0, (size_t)((m0 - g->x0) / 2) * es);
    }
    for (int64_t t = m0; t < g->w0; t++) {
        int64_t r = 2 * g->w0 - t; /* the mirror, unless the core is shorter than the margin */
        copy_elem(at(g, base, t, es), at(g, base, r < g->w1 ? r : lw_fast_reflect(t, g->w0, g->w1), es), es);
    }
    for (int64_t t = g->w1; t < m1; t++) {
        int64_t r = 2 * (g->w1 - 1) - t;
        copy_elem(at(g, base, t, es), at(g, base, r >= g->w0 ? r : lw_fast_reflect(t, g->w0, g->w1), es), es);
    }
    size_t l1 = (size_t)((m1 - g->x0 + 1) / 2), h1 = (size_t)((m1 - g->x0) / 2);
    memset(base + l1 * es, 0, (half - l1) * es);
    memset(base + (half + h1) * es, 0, (half - h1) * es);
}

void lw_line_lift(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int inverse, int *guard)
{
    if (!fp->fused) {
        lift_steps(fp, g, base, inverse, guard);
        return;
    }
    fused_prep(fp, g, base);
    fp->k->lift2s(base, base + g->hoff * fp->es, g->nblk, fp->steps, fp->nsteps, inverse, guard, NULL);
}

/* Copy held indices [j0, j1) of one half not covered by whole blocks inside
 * [j0, j1) (those went straight out) to dst[j + off], times f. */
static void fused_leftover(const lw_fast_plan *fp, const char *half, int64_t j0, int64_t j1, char *dst, ptrdiff_t off,
                           double f, int all)
{
    int64_t N = fp->k->lanes, c0 = (j0 + N - 1) / N * N, c1 = j1 / N * N;
    size_t es = fp->es;
    if (all || c0 >= c1) {
        c0 = j1;
        c1 = j1;
    }
    if (c0 > j0) fp->k->scale(dst + (size_t)(j0 + off) * es, half + (size_t)j0 * es, (size_t)(c0 - j0), f);
    if (j1 > c1) fp->k->scale(dst + (size_t)(c1 + off) * es, half + (size_t)c1 * es, (size_t)(j1 - c1), f);
}

void lw_line_lift_store_fwd(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, char *base, char *dst,
                            int64_t ds, char *lo, int64_t ls, int64_t o0, int64_t o1, double f, int nt, int *guard)
{
    if (!fp->fused || !mallat || ds != 1 || (lo && ls != 1)) {
        lw_line_lift(fp, g, base, 0, guard);
        lw_line_store_fwd(fp, g, mallat, base, dst, ds, lo, ls, o0, o1, f, nt);
        return;
    }
    fused_prep(fp, g, base);
    int64_t h = (g->n + 1) / 2, x0 = g->x0;
    lw_lift_out out;
    out.dl = lo ? lo : dst;
    out.dh = dst;
    out.offl = (ptrdiff_t)(x0 / 2);
    out.offh = (ptrdiff_t)(h + x0 / 2);
    int64_t jl0 = (o0 - x0 + 1) / 2, jl1 = (o1 - x0 + 1) / 2, jh0 = (o0 - x0) / 2, jh1 = (o1 - x0) / 2;
    out.jl0 = (size_t)jl0;
    out.jl1 = (size_t)jl1;
    out.jh0 = (size_t)jh0;
    out.jh1 = (size_t)jh1;
    out.fl = f * fp->zl;
    out.fh = f * fp->zh;
    out.nt = nt;
    out.discard = 0;
    out.noscale = 0;
    char *H = base + g->hoff * fp->es;
    fp->k->lift2s(base, H, g->nblk, fp->steps, fp->nsteps, 0, guard, &out);
    fused_leftover(fp, base, jl0, jl1, (char *)out.dl, out.offl, out.fl, fp->nsteps == 1);
    fused_leftover(fp, H, jh0, jh1, dst, out.offh, out.fh, 0);
}

void lw_line_store_fwd(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, const char *base_, char *dst,
                       int64_t ds, char *lo, int64_t ls, int64_t o0, int64_t o1, double f, int nt)
{
    const lw_fkern *k = fp->k;
    size_t es = fp->es;
    char *base = (char *)base_;
    double zl = f * fp->zl, zh = f * fp->zh;
    PAR_RANGE(o0, o1, e, od, ne, no);
    if (mallat) {
        int64_t h = (g->n + 1) / 2;
        if (lo)
            par_copy(fp, g, base, e, ne, lo + (size_t)((e >> 1) * ls) * es, ls, zl, 0, nt);
        else
            par_copy(fp, g, base, e, ne, dst + (size_t)((e >> 1) * ds) * es, ds, zl, 0, nt);
        par_copy(fp, g, base, od, no, dst + (size_t)((h + (od >> 1)) * ds) * es, ds, zh, 0, nt);
    } else if (lo) {
        par_copy(fp, g, base, e, ne, lo + (size_t)((e >> 1) * ls) * es, ls, zl, 0, nt);
        par_copy(fp, g, base, od, no, dst + (size_t)(od * ds) * es, 2 * ds, zh, 0, nt);
    } else if (ds == 1) {
        int64_t np = (o1 - o0) / 2;
        lw_k_merge mg = nt ? k->merge_nt : k->merge;
        if (o0 & 1)
            mg(dst + (size_t)o0 * es, at(g, base, o0, es), at(g, base, o0 + 1, es), (size_t)np, zh, zl);
        else
            mg(dst + (size_t)o0 * es, at(g, base, o0, es), at(g, base, o0 + 1, es), (size_t)np, zl, zh);
        if ((o1 - o0) & 1) k->scale(dst + (size_t)(o1 - 1) * es, at(g, base, o1 - 1, es), 1, ((o1 - 1) & 1) ? zh : zl);
    } else {
        par_copy(fp, g, base, e, ne, dst + (size_t)(e * ds) * es, 2 * ds, zl, 0, nt);
        par_copy(fp, g, base, od, no, dst + (size_t)(od * ds) * es, 2 * ds, zh, 0, nt);
    }
}

void lw_line_store_inv(const lw_fast_plan *fp, const lw_line_geom *g, const char *base_, char *dst, int64_t ds,
                       int64_t o0, int64_t o1, double f, int nt)
{
    const lw_fkern *k = fp->k;
    size_t es = fp->es;
    char *base = (char *)base_;
    if (ds == 1) {
        int64_t np = (o1 - o0) / 2;
        (nt ? k->merge_nt : k->merge)(dst + (size_t)o0 * es, at(g, base, o0, es), at(g, base, o0 + 1, es),
                                      (size_t)np, f, f);
        if ((o1 - o0) & 1) k->scale(dst + (size_t)(o1 - 1) * es, at(g, base, o1 - 1, es), 1, f);
    } else {
        PAR_RANGE(o0, o1, e, od, ne, no);
        par_copy(fp, g, base, e, ne, dst + (size_t)(e * ds) * es, 2 * ds, f, 0, nt);
        par_copy(fp, g, base, od, no, dst + (size_t)(od * ds) * es, 2 * ds, f, 0, nt);
    }
}

void lw_line_fwd(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, char *dst,
                 int64_t ds, char *lo, int64_t ls, int64_t n, int64_t o0, int64_t o1, double fin, int nt,
                 void *scratch, int *guard)
{
    lw_line_geom g;
    lw_line_geom_init(fp, mode, n, o0, o1, &g);
    lw_line_load_fwd(fp, &g, src, ss, (char *)scratch, fin);
    lw_line_lift_store_fwd(fp, &g, mallat, (char *)scratch, dst, ds, lo, ls, o0, o1, 1.0, nt, guard);
}

void lw_line_inv(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, const char *lo,
                 int64_t ls, char *dst, int64_t ds, int64_t n, int64_t o0, int64_t o1, double fout, int nt,
                 void *scratch, int *guard)
{
    lw_line_geom g;
    lw_line_geom_init(fp, mode, n, o0, o1, &g);
    lw_line_load_inv(fp, &g, mallat, src, ss, lo, ls, (char *)scratch, 1.0);
    lw_line_lift(fp, &g, (char *)scratch, 1, guard);
    lw_line_store_inv(fp, &g, (char *)scratch, dst, ds, o0, o1, fout, nt);
}
