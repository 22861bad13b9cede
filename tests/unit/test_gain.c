/* Band gains (lw_config.gain): on every available backend (the CUDA one
 * where a device is present), for the separable float wavelets, both modes
 * and layouts, 1-D to 3-D with batch axes and 1..max levels, the forward with
 * gains equals the forward without them times each band's product of gains,
 * and the inverse with the same gains gives the input back; the adjoints of
 * plans with gains are their transposes.  Then the
 * refusals: integer variants, fs, the papers' GPU schemes, non-finite gains;
 * 0 means 1. */
#include "liftwave.h"
#include "lw_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct gcase {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes;
    int axes[LW_MAX_AXES];
    lw_wavelet w;
    lw_mode m;
    lw_layout lay;
    lw_dtype t;
    int levels;
} gcase;

static lw_status plan_of(lw_plan **p, const gcase *c, lw_direction d, lw_backend b, double g0, double g1)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = c->rank;
    memcpy(cfg.shape, c->shape, sizeof cfg.shape);
    cfg.naxes = c->naxes;
    memcpy(cfg.axes, c->axes, sizeof cfg.axes);
    cfg.wavelet = c->w, cfg.mode = c->m, cfg.layout = c->lay, cfg.dtype = c->t, cfg.levels = c->levels;
    cfg.direction = d, cfg.backend = b;
    cfg.gain[0] = g0, cfg.gain[1] = g1;
    return lw_plan_create(p, &cfg);
}

/* Along one axis of length n transformed `levels` times: the level at which
 * index i became a highpass coefficient (1..levels), or levels + 1 for the
 * final lowpass. */
static int stop_level(int64_t i, int64_t n, int levels, lw_layout lay)
{
    if (lay == LW_INTERLEAVED) {
        for (int k = 1; k <= levels; k++)
            if (i % ((int64_t)1 << k)) return k;
        return levels + 1;
    }
    int64_t len = n;
    for (int k = 1; k <= levels; k++) {
        int64_t lo = (len + 1) / 2;
        if (i >= lo && i < len) return k;
        len = lo;
    }
    return levels + 1;
}

/* The product of gains of the coefficient at flat index idx: the sample
 * stops being transformed at the first level any axis makes it highpass;
 * up to then every transformed axis (of length > 1) contributed g0 per
 * level, and at that level g1 where it is highpass. */
static double band_factor(const lw_config *c, int64_t idx, double g0, double g1)
{
    int64_t pos[LW_MAX_RANK];
    for (int d = c->rank - 1; d >= 0; d--) pos[d] = idx % c->shape[d], idx /= c->shape[d];
    int stop = c->levels + 1, kax[LW_MAX_AXES];
    for (int a = 0; a < c->naxes; a++) {
        int d = c->axes[a];
        kax[a] = c->shape[d] > 1 ? stop_level(pos[d], c->shape[d], c->levels, c->layout) : c->levels + 1;
        if (kax[a] < stop) stop = kax[a];
    }
    double f = 1;
    for (int a = 0; a < c->naxes; a++) {
        if (c->shape[c->axes[a]] == 1) continue;
        int lows = stop <= c->levels ? stop - 1 : c->levels;
        f *= pow(g0, lows) * (kax[a] == stop && stop <= c->levels ? g1 : 1.0);
        if (kax[a] != stop && stop <= c->levels) f *= g0;
    }
    return f;
}

static double get(const void *v, lw_dtype t, int64_t i)
{
    return t == LW_FLOAT32 ? (double)((const float *)v)[i] : ((const double *)v)[i];
}

static void run(const gcase *c, lw_backend b, double g0, double g1)
{
    lw_plan *base = NULL, *fwd = NULL, *inv = NULL;
    lw_status s0 = plan_of(&base, c, LW_FORWARD, b, 1, 1);
    lw_status s1 = plan_of(&fwd, c, LW_FORWARD, b, g0, g1);
    lw_status s2 = plan_of(&inv, c, LW_INVERSE, b, g0, g1);
    char txt[200];
    snprintf(txt, sizeof txt, "%s %s %s %s %s rank %d (%lld..) naxes %d L%d gains %g %g", lw_backend_name(b),
             lw_wavelet_name(c->w), lw_mode_name(c->m), lw_layout_name(c->lay), lw_dtype_name(c->t), c->rank,
             (long long)c->shape[0], c->naxes, c->levels, g0, g1);
    CHECK(s0 == LW_OK && s1 == LW_OK && s2 == LW_OK, "%s: plans %d %d %d (%s)", txt, (int)s0, (int)s1, (int)s2,
          lw_last_error());
    if (s0 == LW_OK && s1 == LW_OK && s2 == LW_OK) {
        const lw_config *pc = lw_plan_config(fwd);
        CHECK(pc->gain[0] == g0 && pc->gain[1] == g1, "%s: the plan reports gains %g %g", txt, pc->gain[0],
              pc->gain[1]);
        int64_t n = 1;
        for (int d = 0; d < c->rank; d++) n *= c->shape[d];
        size_t es = lw_dtype_size(c->t);
        void *x = malloc((size_t)n * es), *y0 = malloc((size_t)n * es), *y1 = malloc((size_t)n * es),
             *z = malloc((size_t)n * es);
        for (int64_t i = 0; i < n; i++) {
            double v = 2 * lw_rng_unit() - 1;
            if (c->t == LW_FLOAT32)
                ((float *)x)[i] = (float)v;
            else
                ((double *)x)[i] = v;
        }
        CHECK(lw_execute(base, x, y0) == LW_OK && lw_execute(fwd, x, y1) == LW_OK && lw_execute(inv, y1, z) == LW_OK,
              "%s: execute: %s", txt, lw_last_error());
        double tol = c->t == LW_FLOAT32 ? 2e-6 : 1e-13, err = 0, scale = 0, rerr = 0;
        int64_t worst = 0;
        for (int64_t i = 0; i < n; i++) {
            double want = band_factor(pc, i, g0, g1) * get(y0, c->t, i);
            double e = fabs(get(y1, c->t, i) - want);
            if (!(e <= err)) err = e, worst = i;
            scale = fmax(scale, fabs(want));
            rerr = fmax(rerr, fabs(get(z, c->t, i) - get(x, c->t, i)));
        }
        CHECK(err <= tol * 8 * fmax(scale, 1), "%s: forward with gains off by %g at %lld (max %g)", txt, err,
              (long long)worst, scale);
        CHECK(rerr <= tol * 64 * c->levels, "%s: inverse with gains misses the input by %g", txt, rerr);
        if (!(err <= tol * 8 * fmax(scale, 1)) || !(rerr <= tol * 64 * c->levels)) { /* which path failed */
            char d[4096];
            if (lw_plan_describe(fwd, d, sizeof d) == LW_OK) printf("  the forward plan:\n%s", d);
        }
        free(x), free(y0), free(y1), free(z);
    }
    lw_destroy(base), lw_destroy(fwd), lw_destroy(inv);
}

/* Shapes chosen to reach each engine: short lines, 2-D tiles and bands,
 * 3-D volumes, batches on either side, odd lengths, a length-1 axis. */
static const struct shape_case {
    int rank;
    int64_t shape[4];
    int naxes;
    int axes[3];
} shapes[] = {
    {1, {37}, 0, {0}},
    {1, {64}, 0, {0}},
    {2, {67, 45}, 0, {0}},
    {2, {256, 320}, 0, {0}},
    {2, {1, 90}, 0, {0}},
    {3, {3, 48, 40}, 2, {1, 2}},
    {3, {20, 18, 5}, 2, {0, 1}},
    {3, {24, 17, 30}, 0, {0}},
    {3, {40, 36, 34}, 0, {0}},
    {4, {2, 12, 10, 16}, 3, {1, 2, 3}},
};

static void sweep(lw_backend b)
{
    static const lw_wavelet waves[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
    static const double gains[][2] = {{1.4142135623730951, 0.7071067811865476}, {0.75, -1.5}};
    int nshape = (int)(sizeof shapes / sizeof shapes[0]);
    for (int wi = 0; wi < 6; wi++)
        for (int si = 0; si < nshape; si++)
            for (int m = 0; m <= 1; m++)
                for (int lay = 0; lay <= 1; lay++) {
                    gcase c;
                    memset(&c, 0, sizeof c);
                    c.rank = shapes[si].rank, c.naxes = shapes[si].naxes;
                    memcpy(c.shape, shapes[si].shape, sizeof c.shape);
                    memcpy(c.axes, shapes[si].axes, sizeof c.axes);
                    c.w = waves[wi], c.m = (lw_mode)m, c.lay = (lw_layout)lay;
                    c.t = (si + wi + m) % 3 ? LW_FLOAT32 : LW_FLOAT64;
                    int lmax = 0;
                    lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &lmax);
                    if (m == LW_PERIODIC) {
                        /* the most levels with even lengths */
                        lw_plan *p = NULL;
                        gcase q = c;
                        q.levels = LW_LEVELS_MAX;
                        if (plan_of(&p, &q, LW_FORWARD, LW_BACKEND_CPU_REF, 1, 1) != LW_OK) continue; /* odd */
                        lmax = lw_plan_config(p)->levels;
                        lw_destroy(p);
                    }
                    if (lmax < 1) continue;
                    c.levels = 1 + (int)lw_rng_range(0, lmax - 1);
                    run(&c, b, gains[(si + lay) % 2][0], gains[(si + lay) % 2][1]);
                    if (c.levels != lmax) {
                        c.levels = lmax;
                        run(&c, b, gains[(si + lay + 1) % 2][0], gains[(si + lay + 1) % 2][1]);
                    }
                }
}

/* The adjoints of plans with gains: <F x, y> == <x, F^T y> and likewise for
 * the inverse; gains of +-1 keep haar orthogonal (its adjoint may run as the
 * inverse), others must not. */
static double dotp(const double *a, const double *b, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

static void adjoints(lw_backend b)
{
    static const struct {
        int rank;
        int64_t shape[3];
        lw_wavelet w;
        lw_mode m;
        lw_layout lay;
        int levels;
        double g0, g1;
    } A[] = {
        {2, {32, 48}, LW_HAAR, LW_PERIODIC, LW_MALLAT, 3, 1.3, -0.7},
        {2, {32, 48}, LW_HAAR, LW_PERIODIC, LW_MALLAT, 2, -1.0, 1.0},
        {2, {37, 30}, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 2, 1.4142135623730951, -0.7071067811865476},
        {3, {12, 20, 16}, LW_D4, LW_PERIODIC, LW_INTERLEAVED, 2, 0.5, 2.0},
        {1, {101}, LW_DD97, LW_SYMMETRIC, LW_MALLAT, 3, 1.1, 0.9},
    };
    for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
        for (int inv = 0; inv <= 1; inv++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = A[i].rank, c.w = A[i].w, c.m = A[i].m, c.lay = A[i].lay, c.t = LW_FLOAT64, c.levels = A[i].levels;
            memcpy(c.shape, A[i].shape, sizeof A[i].shape);
            lw_plan *f = NULL, *t = NULL;
            lw_status s1 = plan_of(&f, &c, inv ? LW_INVERSE : LW_FORWARD, b, A[i].g0, A[i].g1);
            lw_status s2 = plan_of(&t, &c, inv ? LW_INVERSE_ADJOINT : LW_FORWARD_ADJOINT, b, A[i].g0, A[i].g1);
            CHECK(s1 == LW_OK && s2 == LW_OK, "%s %s: adjoint plans with gains: %s", lw_backend_name(b),
                  lw_wavelet_name(c.w), lw_last_error());
            if (s1 == LW_OK && s2 == LW_OK) {
                int64_t n = 1;
                for (int d = 0; d < c.rank; d++) n *= c.shape[d];
                double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n),
                       *fx = malloc(sizeof(double) * (size_t)n), *ty = malloc(sizeof(double) * (size_t)n);
                for (int64_t k = 0; k < n; k++) x[k] = 2 * lw_rng_unit() - 1, y[k] = 2 * lw_rng_unit() - 1;
                CHECK(lw_execute(f, x, fx) == LW_OK && lw_execute(t, y, ty) == LW_OK, "execute: %s", lw_last_error());
                double l = dotp(fx, y, n), r = dotp(x, ty, n);
                CHECK(fabs(l - r) <= 1e-12 * (fabs(l) + fabs(r) + 1), "%s %s %s gains %g %g: <Fx,y> %.17g, <x,F'y> %.17g",
                      lw_backend_name(b), lw_wavelet_name(c.w), inv ? "inverse" : "forward", A[i].g0, A[i].g1, l, r);
                free(x), free(y), free(fx), free(ty);
            }
            lw_destroy(f), lw_destroy(t);
        }
}

static void refusals(void)
{
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = 2, c.shape[0] = 16, c.shape[1] = 16, c.w = LW_CDF53, c.t = LW_INT32, c.levels = 1;
    lw_plan *p = NULL;
    lw_config cfg;
    lw_config_init(&cfg);
    CHECK(cfg.gain[0] == 1.0 && cfg.gain[1] == 1.0, "lw_config_init sets gains 1");
    cfg.rank = 2, cfg.shape[0] = 16, cfg.shape[1] = 16, cfg.dtype = LW_INT32, cfg.integer = 1, cfg.wavelet = LW_CDF53;
    cfg.backend = LW_BACKEND_CPU;
    cfg.gain[0] = 2;
    CHECK(lw_plan_create(&p, &cfg) == LW_ERR_UNSUPPORTED && !p && strstr(lw_last_error(), "integer"),
          "integer with gains refused: %s", lw_last_error());
    cfg.gain[0] = 1;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "integer with gains 1 plans");
    lw_destroy(p), p = NULL;
    cfg.gain[0] = cfg.gain[1] = 0;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK && lw_plan_config(p)->gain[0] == 1.0 && lw_plan_config(p)->gain[1] == 1.0,
          "gains 0 mean 1");
    lw_destroy(p), p = NULL;
    cfg.dtype = LW_FLOAT32, cfg.integer = 0, cfg.wavelet = LW_FS, cfg.gain[1] = 0.5;
    CHECK(lw_plan_create(&p, &cfg) == LW_ERR_UNSUPPORTED && strstr(lw_last_error(), "separable"),
          "fs with gains refused: %s", lw_last_error());
    cfg.wavelet = LW_CDF97, cfg.gain[1] = NAN;
    CHECK(lw_plan_create(&p, &cfg) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "gain[1]"),
          "NaN gain refused: %s", lw_last_error());
    cfg.gain[1] = INFINITY;
    CHECK(lw_plan_create(&p, &cfg) == LW_ERR_INVALID_ARGUMENT, "infinite gain refused");
    cfg.gain[1] = 0.5;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "cdf97 with gains plans");
    char buf[4096];
    CHECK(p && lw_plan_describe(p, buf, sizeof buf) == LW_OK && strstr(buf, "gain: 1 0.5"), "describe shows gains");
    lw_destroy(p), p = NULL;
    if (lw_backend_available(LW_BACKEND_CUDA) && lw_scheme_count() > 1) {
        cfg.backend = LW_BACKEND_CUDA, cfg.scheme = lw_scheme_name(0);
        CHECK(lw_plan_create(&p, &cfg) == LW_ERR_UNSUPPORTED, "scheme %s with gains refused: %s", cfg.scheme,
              lw_last_error());
    }
}

int main(void)
{
    lw_test_seed(20261125);
    refusals();
    sweep(LW_BACKEND_CPU_REF);
    sweep(LW_BACKEND_CPU);
    adjoints(LW_BACKEND_CPU_REF);
    adjoints(LW_BACKEND_CPU);
    if (lw_backend_available(LW_BACKEND_CUDA)) {
        sweep(LW_BACKEND_CUDA);
        adjoints(LW_BACKEND_CUDA);
    } else
        printf("cuda backend not available (no device or not built): gains checked on cpu-ref and cpu only\n");
    return lw_test_finish("test_gain");
}
