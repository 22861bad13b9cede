/* Family table of the separable-pass schemes of Kucis et al. (paper 000):
 * "sep:H+V" with H one of galiano, laan, blazewicz1, blazewicz4 (horizontal
 * pass, k_sep_horiz.cu) and V one of laan, blazewicz, kucis (vertical pass,
 * k_sep_vert.cu), all 12 combinations.
 *
 * One level is two kernels (three more for the vertical blazewicz: transpose,
 * row pass, transpose back) with the intermediate plane in the scheme's
 * scratch.  The passes run in the order the library defines (forward:
 * vertical, then horizontal; inverse: horizontal, then vertical), which the
 * integer transforms depend on; the paper runs the horizontal pass first,
 * which for the float wavelets changes only rounding and moves the same bytes.
 *
 * Operation table (lw_scheme.h: cost): lwk_sep_cost (k_sep_cost.cu) counts
 * them for each wavelet from the step tables the kernels lift with.  CDF 9/7:
 *   horizontal      taps/quad  barriers
 *   galiano            32        2     9 + 7 filter taps per pair
 *   laan               16        5     4 steps x 2 taps per pair; load + 4 steps
 *   blazewicz1         40        2     10 step evaluations per pair (Fig. 1 cone)
 *   blazewicz4         22        2     22 evaluations per 4 pairs
 *   vertical
 *   laan               16        5
 *   blazewicz          22        6     2 per transpose + 2 in the row pass
 *   kucis              22        2     22 evaluations per 8 rows
 * Paper 000 gives no operation table: the paper columns stay empty. */
#include "k_sep.h"
#include "lw_scheme.h"

#include <stdint.h>
#include <string.h>

enum { NH = LWK_SEPH_COUNT, NV = LWK_SEPV_COUNT };

static int hkind(const lwk_scheme *sc) { return sc->variant / NV; }
static int vkind(const lwk_scheme *sc) { return sc->variant % NV; }

static int sep_cost(const lwk_scheme *sc, int wavelet, lwk_cost *c)
{
    if (!lwk_sep_cost(hkind(sc), vkind(sc), wavelet, &c->ops, &c->barriers)) return 0;
    c->paper_ops = c->paper_barriers = -1;
    return 1;
}

static size_t esize(int dtype) { return dtype == LWK_F64 ? 8 : 4; }
static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

/* ---- what a combination can do exactly ------------------------------------ */

static int sep_supported(const lwk_scheme *sc, int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols)
{
    const lw_wavelet_def *d = lw_wavelet_get((lw_wavelet)w->id);
    if (!d || !d->separable || rows < 2 || cols < 2) return 0;
    if (dtype == LWK_I32 && !d->has_integer) return 0;
    if (hkind(sc) == LWK_SEPH_GALIANO) {
        /* convolution: no integer lifting; in symmetric mode a one-time
         * extension is exact only for symmetric filters (not haar, d4) */
        if (dtype == LWK_I32) return 0;
        if (mode == LW_SYMMETRIC) return lw_wavelet_symmetric_taps(d);
    }
    return 1;
}

static size_t plane_bytes(int dtype, const lwk_tile2d *t)
{
    return (size_t)t->rows * (size_t)t->cols * (size_t)t->blen[0] * (size_t)t->blen[1] * esize(dtype);
}

static size_t sep_scratch(const lwk_scheme *sc, int dtype, const lwk_tile2d *t)
{
    size_t b = align256(plane_bytes(dtype, t));
    return vkind(sc) == LWK_SEPV_BLAZEWICZ ? 2 * b : b;
}

/* ---- galiano: the lifting steps as two filters ------------------------------ */

/* One level of lifting (inverse: its undoing) of a periodic line of 64. */
#define FLEN 64
static void host_lift(const lwk_wave *w, double *x, int inverse)
{
    if (inverse)
        for (int t = 0; t < FLEN; t++) x[t] *= (t & 1) ? w->izh : w->izl;
    for (int k = 0; k < w->nsteps; k++) {
        int s = inverse ? w->nsteps - 1 - k : k;
        for (int t = w->target_odd[s]; t < FLEN; t += 2) {
            double acc = 0;
            for (int i = 0; i < w->ntaps[s]; i++) acc += w->wt[s][i] * x[(t + w->off[s][i] + FLEN) % FLEN];
            x[t] += inverse ? -acc : acc;
        }
    }
    if (!inverse)
        for (int t = 0; t < FLEN; t++) x[t] *= (t & 1) ? w->zh : w->zl;
}

/* f[p][m]: response of output 32+p to an impulse at input 32+p+m. */
static void galiano_filters(lwk_sep_lines *L, int inverse)
{
    for (int p = 0; p < 2; p++)
        for (int m = -LWK_SEP_FC; m <= LWK_SEP_FC; m++) {
            double x[FLEN] = {0};
            x[32 + p + m] = 1.0;
            host_lift(&L->w, x, inverse);
            L->fd[p][m + LWK_SEP_FC] = x[32 + p];
            L->ff[p][m + LWK_SEP_FC] = (float)x[32 + p];
        }
}

/* ---- line views ---------------------------------------------------------------- */

static lwk_sep_ref ref(const void *p, int64_t off, size_t es, int64_t ls, int64_t ps, const int64_t *bs)
{
    lwk_sep_ref r;
    r.p = (const char *)p + off * (int64_t)es;
    r.ls = ls, r.ps = ps;
    r.bs[0] = bs[0], r.bs[1] = bs[1];
    return r;
}

static void side_plain(lwk_sep_side *s, lwk_sep_ref e, lwk_sep_ref o)
{
    s->e = s->e2 = e;
    s->o = o;
    s->split = INT64_MAX;
}

static void lines_init(lwk_sep_lines *L, const lwk_tile2d *t, int64_t n, int64_t nlines)
{
    memset(L, 0, sizeof *L);
    L->w = t->w;
    L->n = n, L->nlines = nlines;
    L->blen[0] = t->blen[0], L->blen[1] = t->blen[1];
    L->mode = t->mode;
}

typedef struct geo {
    int64_t R, C, hr, hc;
    int64_t abs_[2]; /* batch strides of the dense scratch planes */
    size_t es;
    void *A, *Y;     /* intermediate plane; second one for the vertical blazewicz */
} geo;

static void geo_init(geo *g, int dtype, const lwk_tile2d *t, void *scratch)
{
    g->R = t->rows, g->C = t->cols, g->hr = (g->R + 1) / 2, g->hc = (g->C + 1) / 2;
    g->abs_[1] = g->R * g->C, g->abs_[0] = g->R * g->C * t->blen[1];
    g->es = esize(dtype);
    g->A = scratch;
    g->Y = (char *)scratch + align256(plane_bytes(dtype, t));
}

static lwk_sep_tr tr_of(const void *src, int64_t srs, const int64_t *sbs, void *dst, int64_t drs, const int64_t *dbs,
                        int64_t rows, int64_t cols, const lwk_tile2d *t)
{
    lwk_sep_tr r;
    r.src = src, r.dst = dst;
    r.rows = rows, r.cols = cols, r.srs = srs, r.drs = drs;
    r.sbs[0] = sbs[0], r.sbs[1] = sbs[1], r.dbs[0] = dbs[0], r.dbs[1] = dbs[1];
    r.blen[0] = t->blen[0], r.blen[1] = t->blen[1];
    return r;
}

#define TRY(call)                              \
    do {                                       \
        cudaError_t e_ = (call);               \
        if (e_ != cudaSuccess) return e_;      \
    } while (0)

/* Vertical blazewicz: the columns transposed into rows, lifted by the
 * blazewicz4 row kernel, transposed back.  Forward: X = src^T; rows of X ->
 * Y (Mallat halves); A = Y^T.  Inverse: Y = A^T; rows of Y -> X
 * (interleaved); dst = X^T.  X shares A's memory (A is dead by then). */
static cudaError_t vert_blazewicz(int dtype, const lwk_tile2d *t, const geo *g, int inverse, lwk_plane io,
                                  cudaStream_t s)
{
    const size_t es = g->es;
    void *X = g->A;
    lwk_sep_lines L;
    lwk_sep_tr tr;
    lines_init(&L, t, g->R, g->C);
    if (!inverse) {
        tr = tr_of(io.p, io.rs, io.bs, X, g->R, g->abs_, g->R, g->C, t);
        TRY(lwk_sep_transpose(dtype, &tr, s));
        side_plain(&L.in, ref(X, 0, es, g->R, 2, g->abs_), ref(X, 1, es, g->R, 2, g->abs_));
        side_plain(&L.out, ref(g->Y, 0, es, g->R, 1, g->abs_), ref(g->Y, g->hr, es, g->R, 1, g->abs_));
        TRY(lwk_sep_hpass(LWK_SEPH_BZ4, dtype, 0, &L, s));
        tr = tr_of(g->Y, g->R, g->abs_, g->A, g->C, g->abs_, g->C, g->R, t);
        return lwk_sep_transpose(dtype, &tr, s);
    }
    tr = tr_of(g->A, g->C, g->abs_, g->Y, g->R, g->abs_, g->R, g->C, t);
    TRY(lwk_sep_transpose(dtype, &tr, s));
    side_plain(&L.in, ref(g->Y, 0, es, g->R, 1, g->abs_), ref(g->Y, g->hr, es, g->R, 1, g->abs_));
    side_plain(&L.out, ref(X, 0, es, g->R, 2, g->abs_), ref(X, 1, es, g->R, 2, g->abs_));
    TRY(lwk_sep_hpass(LWK_SEPH_BZ4, dtype, 1, &L, s));
    tr = tr_of(X, g->R, g->abs_, (void *)io.p, io.rs, io.bs, g->C, g->R, t);
    return lwk_sep_transpose(dtype, &tr, s);
}

/* Vertical pass between io (interleaved rows) and A (rows in Mallat order). */
static cudaError_t vert_pass(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, const geo *g, int inverse,
                             lwk_plane io, cudaStream_t s)
{
    if (vkind(sc) == LWK_SEPV_BLAZEWICZ) return vert_blazewicz(dtype, t, g, inverse, io, s);
    const size_t es = g->es;
    lwk_sep_lines L;
    lines_init(&L, t, g->R, g->C);
    lwk_sep_ref ie = ref(io.p, 0, es, 1, 2 * io.rs, io.bs), io_ = ref(io.p, io.rs, es, 1, 2 * io.rs, io.bs);
    lwk_sep_ref ae = ref(g->A, 0, es, 1, g->C, g->abs_), ao = ref(g->A, g->hr * g->C, es, 1, g->C, g->abs_);
    side_plain(&L.in, inverse ? ae : ie, inverse ? ao : io_);
    side_plain(&L.out, inverse ? ie : ae, inverse ? io_ : ao);
    return lwk_sep_vpass(vkind(sc) == LWK_SEPV_LAAN ? LWK_SEPV_LAAN : LWK_SEPV_KUCIS, dtype, inverse, &L, s);
}

/* Horizontal pass between A (rows in Mallat order, interleaved columns) and
 * the bands: row r's lowpass goes to the LL plane for r < hr, else to the
 * detail plane; its highpass always to the detail plane at column hc. */
static cudaError_t horiz_pass(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, const geo *g, int inverse,
                              lwk_plane ll, lwk_plane det, cudaStream_t s)
{
    const size_t es = g->es;
    lwk_sep_lines L;
    lines_init(&L, t, g->C, g->R);
    lwk_sep_side bands, rows;
    bands.e = ref(ll.p, 0, es, ll.rs, 1, ll.bs);
    bands.e2 = ref(det.p, 0, es, det.rs, 1, det.bs);
    bands.o = ref(det.p, g->hc, es, det.rs, 1, det.bs);
    bands.split = g->hr;
    side_plain(&rows, ref(g->A, 0, es, g->C, 2, g->abs_), ref(g->A, 1, es, g->C, 2, g->abs_));
    L.in = inverse ? bands : rows;
    L.out = inverse ? rows : bands;
    if (hkind(sc) == LWK_SEPH_GALIANO) galiano_filters(&L, inverse);
    return lwk_sep_hpass(hkind(sc), dtype, inverse, &L, s);
}

static cudaError_t sep_forward(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dll,
                               lwk_plane ddet, void *scratch, cudaStream_t s)
{
    geo g;
    geo_init(&g, dtype, t, scratch);
    TRY(vert_pass(sc, dtype, t, &g, 0, src, s));
    return horiz_pass(sc, dtype, t, &g, 0, dll, ddet, s);
}

static cudaError_t sep_inverse(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane sll, lwk_plane sdet,
                               lwk_plane dst, void *scratch, cudaStream_t s)
{
    geo g;
    geo_init(&g, dtype, t, scratch);
    TRY(horiz_pass(sc, dtype, t, &g, 1, sll, sdet, s));
    return vert_pass(sc, dtype, t, &g, 1, dst, s);
}

/* ---- the table ------------------------------------------------------------------ */

#define HV(h, v, hs, vs, about)                                                                            \
    {"sep:" hs "+" vs, "000", about, 1, (h) * NV + (v), sep_supported, sep_scratch, sep_forward, sep_inverse, \
     sep_cost}
#define H_GAL "horizontal Galiano (convolution, 1 pair/thread)"
#define H_LAAN "horizontal Laan (lifting, barrier after each step)"
#define H_BZ1 "horizontal Blazewicz (no barriers, redundant lifting, 1 pair/thread)"
#define H_BZ4 "horizontal Blazewicz (no barriers, redundant lifting, 4 pairs/thread)"
#define V_LAAN " + vertical Laan (32-column strips, sliding window, barrier per step)"
#define V_BZ " + vertical Blazewicz (transpose, blazewicz4 rows, transpose back)"
#define V_KUCIS " + vertical Kucis (32-column strips, 8 rows/thread, 64-row window, no step barriers)"

static const lwk_scheme table[NH * NV] = {
    HV(0, 0, "galiano", "laan", H_GAL V_LAAN),        HV(0, 1, "galiano", "blazewicz", H_GAL V_BZ),
    HV(0, 2, "galiano", "kucis", H_GAL V_KUCIS),      HV(1, 0, "laan", "laan", H_LAAN V_LAAN),
    HV(1, 1, "laan", "blazewicz", H_LAAN V_BZ),       HV(1, 2, "laan", "kucis", H_LAAN V_KUCIS),
    HV(2, 0, "blazewicz1", "laan", H_BZ1 V_LAAN),     HV(2, 1, "blazewicz1", "blazewicz", H_BZ1 V_BZ),
    HV(2, 2, "blazewicz1", "kucis", H_BZ1 V_KUCIS),   HV(3, 0, "blazewicz4", "laan", H_BZ4 V_LAAN),
    HV(3, 1, "blazewicz4", "blazewicz", H_BZ4 V_BZ), HV(3, 2, "blazewicz4", "kucis", H_BZ4 V_KUCIS),
};
#define NTAB ((int)(sizeof table / sizeof table[0]))

const lwk_scheme *lwk_sep_find(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < NTAB; i++)
        if (strcmp(name, table[i].name) == 0) return &table[i];
    return NULL;
}

int lwk_sep_count(void) { return NTAB; }

const lwk_scheme *lwk_sep_at(int i) { return i >= 0 && i < NTAB ? &table[i] : NULL; }
