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
 * split once on entry and placed once on exit.
 *
 * Channels last ((H, W, C) over axes 0, 1, NHWC, THWC, stereo lines): a
 * sample is the group of C contiguous channels (lw_line_geom.G), the halves
 * hold whole groups, and every step and copy above works on G elements a
 * sample; such lines take the generic path. */
#include "fast_internal.h"

#include <string.h>


/* m: margin samples on each side; padded: room for the fused kernel's
 * blocks (it reads and writes whole vector blocks past the held samples). */
/* align: x0 the largest one <= w0 - m with (x0 - phase) a multiple of
 * 2 * lanes (phase even). */
static void geom_init(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t m, int padded,
                      int align, int64_t phase, int64_t G, lw_line_geom *g)
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
    g->G = G;
    size_t lanes = (size_t)fp->k->lanes, per = 64 / fp->es; /* elements per cache line */
    g->nblk = ((size_t)g->cl + lanes - 1) / lanes;
    size_t half = padded ? (g->nblk + 2) * lanes + 1 : (size_t)g->cl * (size_t)G;
    g->hoff = (half + per - 1) / per * per;
    g->fmt = 2 * g->hoff;
}

void lw_line_geom_init(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, 0, 0, 1, g);
}

void lw_line_geom_group(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t G,
                        lw_line_geom *g)
{
    if (G <= 1)
        lw_line_geom_init(fp, mode, n, o0, o1, g);
    else
        geom_init(fp, mode, n, o0, o1, 0, 0, 0, 0, G, g);
}

void lw_line_geom_aligned(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, fp->fused, 0, 1, g);
}

void lw_line_geom_phase(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t phase,
                        lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, fp->fused ? fp->E : 0, fp->fused, fp->fused, phase, 1, g);
}

void lw_line_geom_compact(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g)
{
    geom_init(fp, mode, n, o0, o1, 0, 0, 0, 0, 1, g);
}

void lw_line_convert(const lw_fast_plan *fp, const lw_line_geom *gs, const char *src, const lw_line_geom *gd,
                     char *dst)
{
    size_t es = fp->es * (size_t)gs->G; /* both hold samples of gs->G elements */
    int64_t t0 = gs->x0 > gd->x0 ? gs->x0 : gd->x0, t1 = gs->x1 < gd->x1 ? gs->x1 : gd->x1;
    if (t1 <= t0) return;
    int64_t ne = (t1 - t0 + 1) / 2, no = (t1 - t0) / 2; /* t0 is even: both x0 are */
    memcpy(dst + (size_t)((t0 - gd->x0) >> 1) * es, src + (size_t)((t0 - gs->x0) >> 1) * es, (size_t)ne * es);
    memcpy(dst + gd->hoff * fp->es + (size_t)((t0 - gd->x0) >> 1) * es,
           src + gs->hoff * fp->es + (size_t)((t0 - gs->x0) >> 1) * es, (size_t)no * es);
}

size_t lw_line_scratch_bytes(const lw_fast_plan *fp, int64_t wmax, int64_t G)
{
    return 2 * LW_ALIGN64(((size_t)(wmax + 2 * fp->E + 4 * fp->k->lanes + 4) / 2 * (size_t)G + 3 * 64) * fp->es);
}

/* Address of held sample t (its group's first element). */
static inline char *at(const lw_line_geom *g, char *base, int64_t t, size_t es)
{
    size_t G = (size_t)g->G;
    return (t & 1) ? base + (g->hoff + (size_t)((t - g->x0 - 1) >> 1) * G) * es
                   : base + (size_t)((t - g->x0) >> 1) * G * es;
}

/* Copies of groups of G elements, one set of loops per element type (int32
 * copied, float and double times the factors).  G is a constant where it is
 * 1 to 4, 8 or 16 (the planes engine's chunks), so that the compiler unrolls a group; BODY uses j
 * and c. */
#define LW_GSWITCH(BODY)                                                                                               \
    switch (G) {                                                                                                       \
    case 1: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 1; c++) BODY; break;                                  \
    case 2: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 2; c++) BODY; break;                                  \
    case 3: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 3; c++) BODY; break;                                  \
    case 4: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 4; c++) BODY; break;                                  \
    case 8: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 8; c++) BODY; break;                                  \
    case 16: for (int64_t j = 0; j < n; j++) for (int c = 0; c < 16; c++) BODY; break;                                \
    default: for (int64_t j = 0; j < n; j++) for (int64_t c = 0; c < G; c++) BODY;                                    \
    }
#define LW_GROUP_FUNCS(SUF, T, MUL)                                                                                    \
    /* d[j ds + c] = s[j ss + c] f */                                                                                  \
    static void scale_groups_##SUF(T *d, int64_t ds, const T *s, int64_t ss, int64_t n, int64_t G, T f)               \
    {                                                                                                                  \
        (void)f;                                                                                                       \
        LW_GSWITCH(d[j * ds + c] = MUL(s[j * ss + c], f))                                                              \
    }                                                                                                                  \
    /* n pairs of groups of a contiguous run: the even groups to e, the odd to o */                                    \
    static void split_groups_##SUF(const T *s, T *e, T *o, int64_t n, int64_t G, T fe, T fo)                          \
    {                                                                                                                  \
        (void)fe, (void)fo;                                                                                            \
        LW_GSWITCH((e[j * G + c] = MUL(s[2 * j * G + c], fe), o[j * G + c] = MUL(s[(2 * j + 1) * G + c], fo)))         \
    }                                                                                                                  \
    /* the reverse */                                                                                                  \
    static void merge_groups_##SUF(T *d, const T *e, const T *o, int64_t n, int64_t G, T fe, T fo)                    \
    {                                                                                                                  \
        (void)fe, (void)fo;                                                                                            \
        LW_GSWITCH((d[2 * j * G + c] = MUL(e[j * G + c], fe), d[(2 * j + 1) * G + c] = MUL(o[j * G + c], fo)))         \
    }
#define LW_MUL(x, f) ((x) * (f))
#define LW_COPY(x, f) (x)
LW_GROUP_FUNCS(i32, int32_t, LW_COPY)
LW_GROUP_FUNCS(f32, float, LW_MUL)
LW_GROUP_FUNCS(f64, double, LW_MUL)
#undef LW_GROUP_FUNCS
#undef LW_GSWITCH
#undef LW_MUL
#undef LW_COPY

void lw_scale_groups(const lw_fast_plan *fp, char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, int64_t G,
                     double f)
{
    if (fp->es == 4 && fp->isint)
        scale_groups_i32((int32_t *)dst, ds, (const int32_t *)src, ss, n, G, 1);
    else if (fp->es == 4)
        scale_groups_f32((float *)dst, ds, (const float *)src, ss, n, G, (float)f);
    else if (fp->es == 8 && !fp->isint)
        scale_groups_f64((double *)dst, ds, (const double *)src, ss, n, G, f);
    else
        for (int64_t j = 0; j < n; j++)
            fp->k->scale(dst + (size_t)(j * ds) * fp->es, src + (size_t)(j * ss) * fp->es, (size_t)G, f);
}

/* Three float channels (RGB), the common case: a group moved as a 16-byte
 * vector whose fourth lane is the next group's first element, so that each
 * store's extra lane is overwritten by the next store (the last pair goes
 * element by element: nothing is written past the groups, nor read past the
 * run). */
typedef float lw_v4f __attribute__((vector_size(16)));
static inline lw_v4f ld4(const float *p)
{
    lw_v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st4(float *p, lw_v4f v) { memcpy(p, &v, sizeof v); }

static void split3_f32(const float *s, float *e, float *o, int64_t n, float fe, float fo)
{
    int64_t j = 0;
    for (; j + 1 < n; j++) {
        st4(e + 3 * j, ld4(s + 6 * j) * fe);
        st4(o + 3 * j, ld4(s + 6 * j + 3) * fo);
    }
    for (; j < n; j++)
        for (int c = 0; c < 3; c++) e[3 * j + c] = s[6 * j + c] * fe, o[3 * j + c] = s[6 * j + 3 + c] * fo;
}

static void merge3_f32(float *d, const float *e, const float *o, int64_t n, float fe, float fo)
{
    int64_t j = 0;
    for (; j + 1 < n; j++) {
        st4(d + 6 * j, ld4(e + 3 * j) * fe);
        st4(d + 6 * j + 3, ld4(o + 3 * j) * fo);
    }
    for (; j < n; j++)
        for (int c = 0; c < 3; c++) d[6 * j + c] = e[3 * j + c] * fe, d[6 * j + 3 + c] = o[3 * j + c] * fo;
}

/* n pairs of groups of G elements of a contiguous run to the even groups at
 * de and the odd ones at dodd (contiguous each), times f0 / f1, in one pass
 * over the run; merge_groups: the reverse. */
static void split_groups(const lw_fast_plan *fp, const char *src, char *de, char *dodd, int64_t n, int64_t G, double f0,
                         double f1)
{
    if (fp->isint)
        split_groups_i32((const int32_t *)src, (int32_t *)de, (int32_t *)dodd, n, G, 1, 1);
    else if (fp->es == 4 && G == 3)
        split3_f32((const float *)src, (float *)de, (float *)dodd, n, (float)f0, (float)f1);
    else if (fp->es == 4)
        split_groups_f32((const float *)src, (float *)de, (float *)dodd, n, G, (float)f0, (float)f1);
    else
        split_groups_f64((const double *)src, (double *)de, (double *)dodd, n, G, f0, f1);
}

static void merge_groups(const lw_fast_plan *fp, char *dst, const char *se, const char *sodd, int64_t n, int64_t G,
                         double f0, double f1)
{
    if (fp->isint)
        merge_groups_i32((int32_t *)dst, (const int32_t *)se, (const int32_t *)sodd, n, G, 1, 1);
    else if (fp->es == 4 && G == 3)
        merge3_f32((float *)dst, (const float *)se, (const float *)sodd, n, (float)f0, (float)f1);
    else if (fp->es == 4)
        merge_groups_f32((float *)dst, (const float *)se, (const float *)sodd, n, G, (float)f0, (float)f1);
    else
        merge_groups_f64((double *)dst, (const double *)se, (const double *)sodd, n, G, f0, f1);
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
    if (st == g->G) { /* the run's samples contiguous, like the window's */
        if (to_win)
            k->scale(x, run, (size_t)(cnt * g->G), f);
        else
            (nt ? k->scale_nt : k->scale)(run, x, (size_t)(cnt * g->G), f);
        return;
    }
    if (to_win)
        lw_scale_groups(fp, x, g->G, run, st, cnt, g->G, f);
    else
        lw_scale_groups(fp, run, st, x, g->G, cnt, g->G, f);
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
        k->scale(at(g, base, t, es), src + (size_t)(lw_wrap(t, n) * ss) * es, (size_t)g->G, f);
    }
    if (b <= a) return;
    if (ss == g->G) {
        int64_t np = (b - a) / 2; /* pairs (a + 2i, a + 2i + 1), whichever parity a has */
        if (g->G == 1)
            k->split(src + (size_t)a * es, at(g, base, a, es), at(g, base, a + 1, es), (size_t)np, f, f);
        else
            split_groups(fp, src + (size_t)(a * ss) * es, at(g, base, a, es), at(g, base, a + 1, es), np, g->G, f, f);
        if ((b - a) & 1) k->scale(at(g, base, b - 1, es), src + (size_t)((b - 1) * ss) * es, (size_t)g->G, f);
    } else {
        PAR_RANGE(a, b, e, od, ne, no);
        par_copy(fp, g, base, e, ne, (char *)src + (size_t)(e * ss) * es, 2 * ss, f, 1, 0);
        par_copy(fp, g, base, od, no, (char *)src + (size_t)(od * ss) * es, 2 * ss, f, 1, 0);
    }
}

void lw_line_patch(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int64_t t0, int64_t t1,
                   const char *kept, double fe, double fo)
{
    for (int64_t t = t0; t < t1; t++)
        fp->k->scale(at(g, base, t, fp->es), kept + (size_t)((t - t0) * g->G) * fp->es, (size_t)g->G,
                     (t & 1) ? fo : fe);
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
        k->scale(at(g, base, t, es), p, (size_t)g->G, (t & 1) ? ih : il);
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
    } else if (ss == g->G) {
        int64_t np = (b - a) / 2;
        double fa = (a & 1) ? ih : il, fb = (a & 1) ? il : ih;
        if (g->G == 1)
            k->split(src + (size_t)a * es, at(g, base, a, es), at(g, base, a + 1, es), (size_t)np, fa, fb);
        else
            split_groups(fp, src + (size_t)(a * ss) * es, at(g, base, a, es), at(g, base, a + 1, es), np, g->G, fa, fb);
        if ((b - a) & 1)
            k->scale(at(g, base, b - 1, es), src + (size_t)((b - 1) * ss) * es, (size_t)g->G, ((b - 1) & 1) ? ih : il);
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
            fp->k->step(at(g, base, ia, es), nb, (size_t)(cnt * g->G), s, inverse, guard);
        } else {
            ia = ib = first;
        }
        for (int64_t t = first; t < g->w1; t += 2) {
            if (t == ia && cnt > 0) t = ia + 2 * cnt;
            if (t >= g->w1) break;
            const void *nb[LW_MAX_TAPS];
            for (int i = 0; i < s->ntaps; i++) nb[i] = at(g, base, lw_fast_reflect(t + s->off[i], g->w0, g->w1), es);
            fp->k->step(at(g, base, t, es), nb, (size_t)g->G, s, inverse, guard);
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
    if (!fp->fused || g->G > 1) {
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
    if (!fp->fused || g->G > 1 || !mallat || ds != 1 || (lo && ls != 1)) {
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
    } else if (ds == g->G) {
        int64_t np = (o1 - o0) / 2;
        double fa = (o0 & 1) ? zh : zl, fb = (o0 & 1) ? zl : zh;
        if (g->G == 1)
            (nt ? k->merge_nt : k->merge)(dst + (size_t)o0 * es, at(g, base, o0, es), at(g, base, o0 + 1, es),
                                          (size_t)np, fa, fb);
        else
            merge_groups(fp, dst + (size_t)(o0 * ds) * es, at(g, base, o0, es), at(g, base, o0 + 1, es), np, g->G, fa,
                         fb);
        if ((o1 - o0) & 1)
            k->scale(dst + (size_t)((o1 - 1) * ds) * es, at(g, base, o1 - 1, es), (size_t)g->G,
                     ((o1 - 1) & 1) ? zh : zl);
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
    if (ds == g->G) {
        int64_t np = (o1 - o0) / 2;
        if (g->G == 1)
            (nt ? k->merge_nt : k->merge)(dst + (size_t)o0 * es, at(g, base, o0, es), at(g, base, o0 + 1, es),
                                          (size_t)np, f, f);
        else
            merge_groups(fp, dst + (size_t)(o0 * ds) * es, at(g, base, o0, es), at(g, base, o0 + 1, es), np, g->G, f, f);
        if ((o1 - o0) & 1) k->scale(dst + (size_t)((o1 - 1) * ds) * es, at(g, base, o1 - 1, es), (size_t)g->G, f);
    } else {
        PAR_RANGE(o0, o1, e, od, ne, no);
        par_copy(fp, g, base, e, ne, dst + (size_t)(e * ds) * es, 2 * ds, f, 0, nt);
        par_copy(fp, g, base, od, no, dst + (size_t)(od * ds) * es, 2 * ds, f, 0, nt);
    }
}

void lw_line_fwd(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, char *dst,
                 int64_t ds, char *lo, int64_t ls, int64_t n, int64_t G, int64_t o0, int64_t o1, double fin, int nt,
                 void *scratch, int *guard)
{
    lw_line_geom g;
    lw_line_geom_group(fp, mode, n, o0, o1, G, &g);
    lw_line_load_fwd(fp, &g, src, ss, (char *)scratch, fin);
    lw_line_lift_store_fwd(fp, &g, mallat, (char *)scratch, dst, ds, lo, ls, o0, o1, 1.0, nt, guard);
}

void lw_line_inv(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, const char *lo,
                 int64_t ls, char *dst, int64_t ds, int64_t n, int64_t G, int64_t o0, int64_t o1, double fout, int nt,
                 void *scratch, int *guard)
{
    lw_line_geom g;
    lw_line_geom_group(fp, mode, n, o0, o1, G, &g);
    lw_line_load_inv(fp, &g, mallat, src, ss, lo, ls, (char *)scratch, 1.0);
    lw_line_lift(fp, &g, (char *)scratch, 1, guard);
    lw_line_store_inv(fp, &g, (char *)scratch, dst, ds, o0, o1, fout, nt);
}
