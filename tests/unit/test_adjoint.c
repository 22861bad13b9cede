/* The adjoint directions (docs/ADJOINT.md) on the CPU backends:
 *   - the dot-product identity <A x, y> = <x, A^T y> on random data, for the
 *     forward (A^T = LW_FORWARD_ADJOINT) and the inverse (LW_INVERSE_ADJOINT),
 *     every wavelet x mode x layout x shape (1-D, 2-D, 3-D, axes subsets with
 *     batches, odd, even and length-1 axes) x level count 1..max x float64
 *     (relative 1e-12) and float32 (1e-5), on cpu-ref and cpu;
 *   - the cpu backend agrees with the reference (in and out of place);
 *   - orthogonal plans (haar, d4 periodic; haar symmetric on even lengths)
 *     run the inverse / forward, and the identity still holds;
 *   - errors: integer adjoints are unsupported, unknown directions invalid;
 *     only the cpu engine "adjoint" takes adjoint plans, and only those,
 *     except the periodic ones, which run as the inverse / forward of the
 *     transposed steps on the other engines (lw_wavelet_transpose): they
 *     agree with the "adjoint" engine on every separable wavelet, layout,
 *     rank and level count. */
#include "liftwave.h"
#include "lw_test.h"
#include "lw_test_plan.h"
#include "core/lw_internal.h"

#include <math.h>
#include <string.h>

typedef struct shape_case {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes;
    int axes[LW_MAX_AXES];
} shape_case;

static const shape_case shapes[] = {
    {1, {2}, 0, {0}},          {1, {3}, 0, {0}},          {1, {5}, 0, {0}},
    {1, {8}, 0, {0}},          {1, {13}, 0, {0}},         {1, {16}, 0, {0}},
    {1, {1}, 0, {0}},          {1, {4}, 0, {0}},          {2, {5, 7}, 0, {0}},
    {2, {8, 6}, 0, {0}},       {2, {1, 9}, 0, {0}},       {2, {16, 12}, 0, {0}},
    {2, {6, 1}, 0, {0}},       {3, {5, 4, 7}, 0, {0}},    {3, {8, 8, 4}, 0, {0}},
    {3, {3, 10, 7}, 2, {1, 2}}, {2, {4, 11}, 1, {1}},      {3, {12, 3, 8}, 2, {0, 2}},
    {4, {2, 6, 3, 5}, 2, {1, 3}}, {4, {6, 2, 4, 8}, 3, {0, 2, 3}}, {3, {4, 2, 9}, 1, {0}},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static int64_t count_of(const shape_case *s)
{
    int64_t n = 1;
    for (int i = 0; i < s->rank; i++) n *= s->shape[i];
    return n;
}

static void fill(void *buf, lw_dtype t, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double v = lw_rng_unit() * 2 - 1;
        if (t == LW_FLOAT32) ((float *)buf)[i] = (float)v;
        else ((double *)buf)[i] = v;
    }
}

static double at(const void *buf, lw_dtype t, int64_t i)
{
    return t == LW_FLOAT32 ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
}

static double dot(const void *a, const void *b, lw_dtype t, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += at(a, t, i) * at(b, t, i);
    return s;
}

static lw_status plan_of(lw_plan **p, const shape_case *s, lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t,
                         int levels, lw_direction dir, lw_backend b)
{
    return lw_test_plan(p, s->rank, s->shape, s->naxes, s->axes, w, m, lay, t, levels, dir, b);
}

static long n_identity, n_agree, n_routed;
static double worst[2];

/* <A x, y> against <x, A^T y> for A = dir (forward or inverse) and its
 * adjoint, on backend b.  Returns 0 when the shape does not take that many
 * levels in this mode (periodic: odd length), else 1. */
static int identity_case(const shape_case *s, lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t, int levels,
                         lw_direction dir, lw_backend b)
{
    lw_direction adj = dir == LW_FORWARD ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT;
    lw_plan *pa = NULL, *pt = NULL;
    lw_status st = plan_of(&pa, s, w, m, lay, t, levels, dir, b);
    if (st == LW_ERR_ODD_PERIODIC) return 0;
    CHECK(st == LW_OK, "plan %s %s: %s", lw_wavelet_name(w), lw_backend_name(b), lw_last_error());
    st = plan_of(&pt, s, w, m, lay, t, levels, adj, b);
    CHECK(st == LW_OK, "adjoint plan %s %s: %s", lw_wavelet_name(w), lw_backend_name(b), lw_last_error());
    if (!pa || !pt) {
        lw_destroy(pa);
        lw_destroy(pt);
        return 1;
    }
    if (lw_plan_config(pt)->direction != adj) n_routed++;
    int64_t n = count_of(s);
    size_t es = lw_dtype_size(t);
    char *x = malloc((size_t)n * es), *y = malloc((size_t)n * es), *ax = malloc((size_t)n * es),
         *aty = malloc((size_t)n * es);
    fill(x, t, n);
    fill(y, t, n);
    CHECK(lw_execute(pa, x, ax) == LW_OK, "execute: %s", lw_last_error());
    CHECK(lw_execute(pt, y, aty) == LW_OK, "execute adjoint: %s", lw_last_error());
    double lhs = dot(ax, y, t, n), rhs = dot(x, aty, t, n);
    double scale = sqrt(dot(ax, ax, t, n) * dot(y, y, t, n)) + sqrt(dot(x, x, t, n) * dot(aty, aty, t, n));
    double rel = fabs(lhs - rhs) / (scale > 0 ? scale : 1);
    double tol = t == LW_FLOAT64 ? 1e-12 : 1e-5;
    int wi = t == LW_FLOAT64;
    if (rel > worst[wi]) worst[wi] = rel;
    CHECK(rel <= tol,
          "<Ax,y> = %.17g but <x,A^T y> = %.17g (rel %.3g): %s %s %s %s %s levels %d %s rank %d shape %lldx%lldx%lld "
          "naxes %d",
          lhs, rhs, rel, lw_wavelet_name(w), lw_mode_name(m), lw_layout_name(lay), lw_dtype_name(t),
          dir == LW_FORWARD ? "forward" : "inverse", levels, lw_backend_name(b), s->rank, (long long)s->shape[0],
          (long long)(s->rank > 1 ? s->shape[1] : 1), (long long)(s->rank > 2 ? s->shape[2] : 1), s->naxes);
    n_identity++;
    free(x), free(y), free(ax), free(aty);
    lw_destroy(pa);
    lw_destroy(pt);
    return 1;
}

/* The cpu backend's adjoint equals the reference's to rounding, out of place
 * and in place. */
static void agree_case(const shape_case *s, lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t, int levels,
                       lw_direction adj)
{
    lw_plan *pr = NULL, *pc = NULL;
    if (plan_of(&pr, s, w, m, lay, t, levels, adj, LW_BACKEND_CPU_REF) != LW_OK) return;
    CHECK(plan_of(&pc, s, w, m, lay, t, levels, adj, LW_BACKEND_CPU) == LW_OK, "cpu plan: %s", lw_last_error());
    if (!pc) {
        lw_destroy(pr);
        return;
    }
    int64_t n = count_of(s);
    size_t es = lw_dtype_size(t);
    char *y = malloc((size_t)n * es), *r = malloc((size_t)n * es), *c = malloc((size_t)n * es);
    fill(y, t, n);
    CHECK(lw_execute(pr, y, r) == LW_OK, "ref: %s", lw_last_error());
    CHECK(lw_execute(pc, y, c) == LW_OK, "cpu: %s", lw_last_error());
    double mx = 0, err = 0, err_ip = 0;
    for (int64_t i = 0; i < n; i++) {
        mx = fmax(mx, fabs(at(r, t, i)));
        err = fmax(err, fabs(at(r, t, i) - at(c, t, i)));
    }
    memcpy(c, y, (size_t)n * es);
    CHECK(lw_execute(pc, c, c) == LW_OK, "cpu in place: %s", lw_last_error());
    for (int64_t i = 0; i < n; i++) err_ip = fmax(err_ip, fabs(at(r, t, i) - at(c, t, i)));
    double tol = (t == LW_FLOAT64 ? 1e-12 : 1e-5) * (mx > 1 ? mx : 1);
    CHECK(err <= tol && err_ip <= tol, "cpu vs cpu-ref %s: max diff %.3g (in place %.3g), max %.3g: %s %s %s %s L%d",
          adj == LW_FORWARD_ADJOINT ? "forward-adjoint" : "inverse-adjoint", err, err_ip, mx, lw_wavelet_name(w),
          lw_mode_name(m), lw_layout_name(lay), lw_dtype_name(t), levels);
    n_agree++;
    free(y), free(r), free(c);
    lw_destroy(pr);
    lw_destroy(pc);
}

static void sweep(void)
{
    static const lw_backend backends[] = {LW_BACKEND_CPU_REF, LW_BACKEND_CPU};
    static const lw_dtype dtypes[] = {LW_FLOAT64, LW_FLOAT32};
    for (int si = 0; si < NSHAPES; si++) {
        const shape_case *s = &shapes[si];
        int lmax = 0;
        CHECK(lw_max_levels(s->rank, s->shape, s->naxes, s->naxes ? s->axes : NULL, &lmax) == LW_OK, "max levels");
        if (lmax < 1) lmax = 1; /* all length 1: the identity, still an adjoint of itself */
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int m = 0; m < 2; m++)
                for (int lay = 0; lay < 2; lay++)
                    for (int L = 1; L <= lmax; L++)
                        for (int di = 0; di < 2; di++) {
                            lw_dtype t = dtypes[di];
                            for (int bi = 0; bi < 2; bi++)
                                for (int dir = 0; dir < 2; dir++)
                                    if (!identity_case(s, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, t, L,
                                                       (lw_direction)dir, backends[bi]))
                                        goto next_level; /* periodic: odd at this level, and deeper */
                            agree_case(s, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, t, L, LW_FORWARD_ADJOINT);
                            agree_case(s, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, t, L, LW_INVERSE_ADJOINT);
                        next_level:;
                        }
    }
}

/* A larger case through the cpu backend's threads and strided axes. */
static void large_case(void)
{
    static const shape_case big[] = {{2, {96, 130}, 0, {0}}, {3, {20, 18, 33}, 0, {0}}, {3, {64, 5, 40}, 2, {0, 2}}};
    for (int i = 0; i < 3; i++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int m = 0; m < 2; m++) {
                identity_case(&big[i], (lw_wavelet)w, (lw_mode)m, LW_MALLAT, LW_FLOAT64, 3, LW_FORWARD, LW_BACKEND_CPU);
                identity_case(&big[i], (lw_wavelet)w, (lw_mode)m, LW_INTERLEAVED, LW_FLOAT32, 2, LW_INVERSE,
                              LW_BACKEND_CPU);
                agree_case(&big[i], (lw_wavelet)w, (lw_mode)m, LW_MALLAT, LW_FLOAT64, 2, LW_FORWARD_ADJOINT);
            }
}

/* Orthogonal plans run the inverse (forward); the others keep the adjoint. */
static void routing(void)
{
    static const struct {
        lw_wavelet w;
        lw_mode m;
        int64_t n;
        int levels;
        lw_direction expect;
    } cases[] = {
        {LW_HAAR, LW_PERIODIC, 16, 3, LW_INVERSE},    {LW_D4, LW_PERIODIC, 16, 2, LW_INVERSE},
        {LW_HAAR, LW_SYMMETRIC, 16, 4, LW_INVERSE},   {LW_HAAR, LW_SYMMETRIC, 12, 3, LW_FORWARD_ADJOINT},
        {LW_D4, LW_SYMMETRIC, 16, 1, LW_FORWARD_ADJOINT}, {LW_CDF97, LW_PERIODIC, 16, 2, LW_FORWARD_ADJOINT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int b = 0; b < 2; b++) {
            lw_backend be = b ? LW_BACKEND_CPU : LW_BACKEND_CPU_REF;
            shape_case s = {1, {cases[i].n}, 0, {0}};
            lw_plan *p = NULL, *q = NULL;
            CHECK(plan_of(&p, &s, cases[i].w, cases[i].m, LW_MALLAT, LW_FLOAT64, cases[i].levels, LW_FORWARD_ADJOINT,
                          be) == LW_OK,
                  "plan: %s", lw_last_error());
            CHECK(plan_of(&q, &s, cases[i].w, cases[i].m, LW_MALLAT, LW_FLOAT64, cases[i].levels, LW_INVERSE_ADJOINT,
                          be) == LW_OK,
                  "plan: %s", lw_last_error());
            if (p && q) {
                lw_direction e2 = cases[i].expect == LW_INVERSE ? LW_FORWARD : LW_INVERSE_ADJOINT;
                CHECK(lw_plan_config(p)->direction == cases[i].expect, "%s %s: runs %d", lw_wavelet_name(cases[i].w),
                      lw_mode_name(cases[i].m), (int)lw_plan_config(p)->direction);
                CHECK(lw_plan_config(q)->direction == e2, "%s %s: inverse-adjoint runs %d",
                      lw_wavelet_name(cases[i].w), lw_mode_name(cases[i].m), (int)lw_plan_config(q)->direction);
                char buf[4096];
                CHECK(lw_plan_describe(p, buf, sizeof buf) == LW_OK && strstr(buf, "direction: "), "describe");
            }
            lw_destroy(p);
            lw_destroy(q);
            identity_case(&s, cases[i].w, cases[i].m, LW_MALLAT, LW_FLOAT64, cases[i].levels, LW_FORWARD, be);
            identity_case(&s, cases[i].w, cases[i].m, LW_INTERLEAVED, LW_FLOAT64, cases[i].levels, LW_INVERSE, be);
        }
}

static void errors(void)
{
    shape_case s = {2, {8, 8}, 0, {0}};
    for (int b = 0; b < 2; b++) {
        lw_backend be = b ? LW_BACKEND_CPU : LW_BACKEND_CPU_REF;
        for (int d = LW_FORWARD_ADJOINT; d <= LW_INVERSE_ADJOINT; d++) {
            lw_plan *p = NULL;
            lw_status st = plan_of(&p, &s, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_INT32, 1, (lw_direction)d, be);
            CHECK(st == LW_ERR_UNSUPPORTED && p == NULL, "integer adjoint: status %d", (int)st);
            CHECK(strstr(lw_last_error(), "not linear") != NULL, "integer adjoint message: %s", lw_last_error());
        }
        lw_plan *p = NULL;
        lw_status st = plan_of(&p, &s, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1, (lw_direction)4, be);
        CHECK(st == LW_ERR_INVALID_ARGUMENT && p == NULL, "direction 4: status %d", (int)st);
        st = plan_of(&p, &s, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1, (lw_direction)-1, be);
        CHECK(st == LW_ERR_INVALID_ARGUMENT && p == NULL, "direction -1: status %d", (int)st);
    }
}

/* The cpu engine records decide: only "adjoint" takes adjoint plans, and it
 * takes nothing else. */
static void engine_choice(void)
{
    static const struct {
        const char *scheme;
        lw_direction dir;
        lw_status want;
    } cases[] = {
        {"adjoint", LW_FORWARD_ADJOINT, LW_OK},          {"adjoint", LW_INVERSE_ADJOINT, LW_OK},
        {"nd", LW_FORWARD_ADJOINT, LW_ERR_UNSUPPORTED},  {"vol", LW_INVERSE_ADJOINT, LW_ERR_UNSUPPORTED},
        {"adjoint", LW_FORWARD, LW_ERR_UNSUPPORTED},     {"adjoint", LW_INVERSE, LW_ERR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lw_config c;
        lw_config_init(&c);
        c.rank = 3, c.shape[0] = 12, c.shape[1] = 10, c.shape[2] = 9;
        c.direction = cases[i].dir, c.backend = LW_BACKEND_CPU, c.scheme = cases[i].scheme, c.levels = 2;
        lw_plan *p = NULL;
        lw_status st = lw_plan_create(&p, &c);
        CHECK(st == cases[i].want, "scheme %s, direction %d: status %d (%s)", cases[i].scheme, (int)cases[i].dir,
              (int)st, lw_last_error());
        lw_destroy(p);
    }
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 30, c.shape[1] = 40, c.direction = LW_FORWARD_ADJOINT, c.backend = LW_BACKEND_CPU;
    lw_plan *p = NULL;
    char buf[4096] = "";
    CHECK(lw_plan_create(&p, &c) == LW_OK && lw_plan_describe(p, buf, sizeof buf) == LW_OK, "plan: %s",
          lw_last_error());
    CHECK(strstr(buf, "engines: adjoint") && strstr(buf, "direction: forward-adjoint"), "describe: %s", buf);
    lw_destroy(p);
    /* periodic: the transposed steps on the forward / inverse engines, by default and by name */
    static const struct {
        const char *scheme;
        lw_direction dir;
        lw_status want;
        const char *says;
    } per[] = {
        {NULL, LW_FORWARD_ADJOINT, LW_OK, "run as the inverse of the transposed steps"},
        {NULL, LW_INVERSE_ADJOINT, LW_OK, "run as the forward of the transposed steps"},
        {"nd", LW_FORWARD_ADJOINT, LW_OK, "engines: nd"},
        {"adjoint", LW_INVERSE_ADJOINT, LW_OK, "engines: adjoint"},
    };
    for (size_t i = 0; i < sizeof per / sizeof per[0]; i++) {
        lw_config_init(&c);
        c.rank = 2, c.shape[0] = 32, c.shape[1] = 40, c.mode = LW_PERIODIC, c.levels = 2;
        c.direction = per[i].dir, c.backend = LW_BACKEND_CPU, c.scheme = per[i].scheme;
        p = NULL;
        buf[0] = 0;
        lw_status st = lw_plan_create(&p, &c);
        CHECK(st == per[i].want, "periodic, scheme %s: status %d (%s)", per[i].scheme ? per[i].scheme : "auto",
              (int)st, lw_last_error());
        if (p) lw_plan_describe(p, buf, sizeof buf);
        CHECK(strstr(buf, per[i].says) != NULL, "periodic, scheme %s: describe lacks '%s': %s",
              per[i].scheme ? per[i].scheme : "auto", per[i].says, buf);
        lw_destroy(p);
    }
}

/* The compile-time transposed rows (lw_wavelet_get_any) equal the run-time
 * transposition of the rows, and transposing twice gives the row back. */
static void transposed_rows(void)
{
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        const lw_wavelet_def *d = lw_wavelet_get((lw_wavelet)w), *ct = lw_wavelet_get_any(w + LW_TRANSPOSED_ID);
        lw_wavelet_def t, tt;
        lw_wavelet_transpose(d, &t);
        lw_wavelet_transpose(&t, &tt);
        CHECK(ct && (int)ct->id == w + LW_TRANSPOSED_ID && (int)t.id == w + LW_TRANSPOSED_ID, "%s: transposed id",
              d->name);
        if (!ct) continue;
        int same = ct->nsteps == t.nsteps && ct->zeta_low == t.zeta_low && ct->zeta_high == t.zeta_high;
        for (int q = 0; q < t.nsteps && same; q++) {
            same &= ct->steps[q].target_odd == t.steps[q].target_odd && ct->steps[q].ntaps == t.steps[q].ntaps;
            for (int i = 0; i < t.steps[q].ntaps; i++)
                same &= ct->steps[q].offset[i] == t.steps[q].offset[i] && ct->steps[q].weight[i] == t.steps[q].weight[i];
            same &= tt.steps[q].target_odd == d->steps[q].target_odd;
            for (int i = 0; i < d->steps[q].ntaps; i++)
                same &= tt.steps[q].offset[i] == d->steps[q].offset[i] && tt.steps[q].weight[i] == d->steps[q].weight[i];
        }
        CHECK(same, "%s: the compile-time transposed row differs from lw_wavelet_transpose (or twice is not the row)",
              d->name);
    }
    CHECK(lw_wavelet_get_any(LW_TRANSPOSED_ID + LW_WAVELET_COUNT) == NULL && lw_wavelet_get_any(-1) == NULL,
          "ids outside the rows");
}

/* The periodic adjoints through the transposed steps against the "adjoint"
 * engine (transposed steps along lines, the other algorithm), float64. */
static void transposed_route(void)
{
    static const shape_case sh[] = {
        {1, {64}, 0, {0}}, {2, {32, 48}, 0, {0}}, {3, {16, 12, 20}, 0, {0}}, {3, {6, 16, 24}, 2, {1, 2}},
        {4, {3, 8, 16, 8}, 3, {1, 2, 3}},
    };
    long n = 0;
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        if (w == LW_FS) continue; /* not separable: the "adjoint" engine's own */
        for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++)
            for (int lay = 0; lay < 2; lay++)
                for (int d = 2; d < 4; d++)
                    for (int L = 1; L <= 3; L++) {
                        lw_config c;
                        lw_config_init(&c);
                        c.rank = sh[si].rank, c.naxes = sh[si].naxes;
                        for (int i = 0; i < c.rank; i++) c.shape[i] = sh[si].shape[i];
                        for (int i = 0; i < c.naxes; i++) c.axes[i] = sh[si].axes[i];
                        c.wavelet = (lw_wavelet)w, c.mode = LW_PERIODIC, c.layout = (lw_layout)lay;
                        c.direction = (lw_direction)d, c.levels = L, c.dtype = LW_FLOAT64, c.backend = LW_BACKEND_CPU;
                        lw_plan *a = NULL, *b = NULL;
                        if (lw_plan_create(&a, &c) != LW_OK) continue; /* odd at this level */
                        if (lw_plan_config(a)->direction != c.direction) { /* orthogonal: routed, see routing() */
                            lw_destroy(a);
                            continue;
                        }
                        c.scheme = "adjoint";
                        CHECK(lw_plan_create(&b, &c) == LW_OK, "adjoint engine plan: %s", lw_last_error());
                        int64_t cnt = 1;
                        for (int i = 0; i < c.rank; i++) cnt *= c.shape[i];
                        double *x = malloc(sizeof(double) * (size_t)cnt), *ya = malloc(sizeof(double) * (size_t)cnt),
                               *yb = malloc(sizeof(double) * (size_t)cnt);
                        for (int64_t i = 0; i < cnt; i++) x[i] = 2 * lw_rng_unit() - 1;
                        if (b) {
                            CHECK(lw_execute(a, x, ya) == LW_OK && lw_execute(b, x, yb) == LW_OK, "execute: %s",
                                  lw_last_error());
                            double err = 0, ref = 0;
                            for (int64_t i = 0; i < cnt; i++)
                                err = fmax(err, fabs(ya[i] - yb[i])), ref = fmax(ref, fabs(yb[i]));
                            CHECK(err <= 1e-12 * fmax(ref, 1), "%s periodic %s %s rank %d L%d: transposed route off by %g",
                                  lw_wavelet_name(c.wavelet), lw_layout_name(c.layout),
                                  d == LW_FORWARD_ADJOINT ? "forward-adjoint" : "inverse-adjoint", c.rank, L, err);
                            n++;
                        }
                        free(x), free(ya), free(yb);
                        lw_destroy(a), lw_destroy(b);
                    }
    }
    CHECK(n > 150, "only %ld transposed-route cases ran", n);
    printf("transposed route: %ld periodic adjoint cases agree with the adjoint engine\n", n);
}

int main(void)
{
    lw_test_seed(19);
    errors();
    engine_choice();
    transposed_rows();
    transposed_route();
    routing();
    sweep();
    large_case();
    CHECK(n_identity > 8000, "only %ld identity cases ran", n_identity);
    CHECK(n_routed > 0, "no plan was routed to the inverse");
    printf("identity cases %ld (routed to inverse/forward %ld), cpu-vs-ref cases %ld; worst relative error "
           "float64 %.3g, float32 %.3g\n",
           n_identity, n_routed, n_agree, worst[1], worst[0]);
    return lw_test_finish("adjoint");
}
