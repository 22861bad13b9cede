/* Edges of the API contract (docs/CONVENTIONS.md), on both CPU backends:
 *   - integer results that do not fit int32 fail with LW_ERR_INTEGER_OVERFLOW
 *     (never wrap), and inputs inside the documented safe range always work,
 *     with every coefficient inside the documented bound;
 *   - every transformed axis of length 1: any level count is the identity;
 *   - the scaling: DC gain 1 / Nyquist gain 2 (cdf, dd137, fs, integer haar),
 *     sqrt(2) for haar and d4;
 *   - status values and strings;
 *   - LW_FLAG_IN_PLACE: in place runs (as without the flag), in != out and the
 *     flag with LW_FLAG_DESTROY_INPUT are refused with LW_ERR_INVALID_ARGUMENT. */
#include "liftwave.h"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>

static const lw_backend BACKENDS[2] = {LW_BACKEND_CPU, LW_BACKEND_CPU_REF};

static lw_status make(lw_plan **p, int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w,
                      lw_mode m, lw_dtype t, int levels, lw_direction dir, lw_backend b)
{
    return lw_test_plan(p, rank, shape, naxes, axes, w, m, LW_MALLAT, t, levels, dir, b);
}

/* Plan and run once; the plan's status, else the execute status. */
static lw_status run(int rank, const int64_t *shape, lw_wavelet w, lw_mode m, lw_dtype t, int levels,
                     lw_direction dir, lw_backend b, const void *in, void *out)
{
    lw_plan *p = NULL;
    lw_status s = make(&p, rank, shape, 0, NULL, w, m, t, levels, dir, b);
    if (s != LW_OK) return s;
    s = lw_execute(p, in, out);
    lw_destroy(p);
    return s;
}

static int64_t count_of(int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    return n;
}

/* ---- integer overflow ---------------------------------------------------- */

static void fill_full_range(int32_t *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++) x[i] = (int32_t)(uint32_t)lw_rng_u64();
}

/* Full-range int32 data (the audit's case: 16x16, cdf53, 2 levels) and a few
 * other integer wavelets and ranks: an error, never a wrapped result. */
static void test_overflow_detected(void)
{
    static const lw_wavelet ws[5] = {LW_HAAR, LW_CDF53, LW_DD137, LW_FS, LW_DD97};
    int64_t s1[1] = {64}, s2[2] = {16, 16}, s3[3] = {6, 8, 10};
    const int64_t *shapes[3] = {s1, s2, s3};
    int32_t x[480], y[480];
    for (int b = 0; b < 2; b++)
        for (int wi = 0; wi < 5; wi++)
            for (int r = 1; r <= 3; r++)
                for (int dir = 0; dir < 2; dir++) {
                    int64_t n = count_of(r, shapes[r - 1]);
                    fill_full_range(x, n);
                    int32_t keep[480];
                    memcpy(keep, x, (size_t)n * sizeof *x);
                    lw_status s = run(r, shapes[r - 1], ws[wi], LW_SYMMETRIC, LW_INT32, 2, (lw_direction)dir,
                                      BACKENDS[b], x, y);
                    CHECK(s == LW_ERR_INTEGER_OVERFLOW, "%s full-range int32 %s rank %d on %s: status %d (%s)",
                          lw_wavelet_name(ws[wi]), dir ? "inverse" : "forward", r, lw_backend_name(BACKENDS[b]),
                          (int)s, lw_status_string(s));
                    CHECK(memcmp(keep, x, (size_t)n * sizeof *x) == 0, "input modified on overflow");
                    const char *e = lw_last_error();
                    CHECK(strstr(e, "overflow int32") && strstr(e, "2 levels") && strstr(e, lw_wavelet_name(ws[wi])),
                          "overflow message: %s", e);
                }
    /* in place too, and the smallest cases: haar of [INT32_MAX, INT32_MIN]
     * (highpass -2^32 + 1), fs predict of [INT32_MIN, INT32_MAX, INT32_MIN] */
    int64_t two[1] = {2}, three[1] = {3};
    for (int b = 0; b < 2; b++) {
        int32_t h[2] = {INT32_MAX, INT32_MIN}, f[3] = {INT32_MIN, INT32_MAX, INT32_MIN};
        CHECK(run(1, two, LW_HAAR, LW_SYMMETRIC, LW_INT32, 1, LW_FORWARD, BACKENDS[b], h, h) ==
                  LW_ERR_INTEGER_OVERFLOW,
              "haar [max, min] in place on %s", lw_backend_name(BACKENDS[b]));
        CHECK(run(1, three, LW_FS, LW_PERIODIC, LW_INT32, 1, LW_FORWARD, BACKENDS[b], f, f) == LW_ERR_ODD_PERIODIC,
              "fs periodic odd");
        CHECK(run(1, three, LW_FS, LW_SYMMETRIC, LW_INT32, 1, LW_FORWARD, BACKENDS[b], f, f) ==
                  LW_ERR_INTEGER_OVERFLOW,
              "fs [min, max, min] on %s", lw_backend_name(BACKENDS[b]));
        /* a result of exactly INT32_MAX / INT32_MIN fits */
        int32_t e[2] = {0, INT32_MAX}, g[2] = {0, INT32_MIN}, o[2];
        CHECK(run(1, two, LW_HAAR, LW_SYMMETRIC, LW_INT32, 1, LW_FORWARD, BACKENDS[b], e, o) == LW_OK &&
                  o[1] == INT32_MAX,
              "haar highpass INT32_MAX on %s: %s", lw_backend_name(BACKENDS[b]), lw_last_error());
        CHECK(run(1, two, LW_HAAR, LW_SYMMETRIC, LW_INT32, 1, LW_FORWARD, BACKENDS[b], g, o) == LW_OK &&
                  o[1] == INT32_MIN,
              "haar highpass INT32_MIN on %s: %s", lw_backend_name(BACKENDS[b]), lw_last_error());
    }
}

/* The documented sufficient bound: |c| <= eta^d lambda^(d(L-1)) (M + dL)
 * (fs: 2M + 1).  Inputs of +-M (the extremes make the largest outputs) with
 * M as large as the bound allows must transform, stay inside the bound and
 * invert exactly, on both backends, with equal results. */
static double bound_factor(lw_wavelet w, int d, int L)
{
    double lambda = (w == LW_CDF53 || w == LW_DD97) ? 1.5 : w == LW_DD137 ? 1.625 : 1.0;
    double eta = (w == LW_DD137 || w == LW_DD97) ? 2.25 : 2.0;
    if (w == LW_FS) return 2.0;
    return pow(eta, d) * pow(lambda, d * (L - 1));
}

static void test_safe_range(void)
{
    static const lw_wavelet ws[5] = {LW_HAAR, LW_CDF53, LW_DD137, LW_FS, LW_DD97};
    int64_t s1[1] = {3000}, s2[2] = {40, 37}, s3[3] = {9, 10, 8};
    const int64_t *shapes[3] = {s1, s2, s3};
    enum { NMAX = 3000 };
    static int32_t x[NMAX], y[2][NMAX], z[NMAX];
    int tested = 0;
    for (int wi = 0; wi < 5; wi++)
        for (int d = 1; d <= 3; d++) {
            int lmax = 0;
            lw_max_levels(d, shapes[d - 1], 0, NULL, &lmax);
            for (int L = 1; L <= lmax; L++) {
                double f = bound_factor(ws[wi], d, L);
                double M = floor(2147483647.0 / f) - (ws[wi] == LW_FS ? 1 : d * L) - 1;
                if (M < 1 << 12) break; /* too many levels for a useful range */
                int64_t n = count_of(d, shapes[d - 1]);
                for (int64_t i = 0; i < n; i++) {
                    uint64_t r = lw_rng_u64();
                    x[i] = (int32_t)((r & 3) ? ((r & 4) ? M : -M) : (int64_t)(r >> 33) % (int64_t)M);
                }
                double bound = ws[wi] == LW_FS ? 2 * M + 1 : f * (M + d * L);
                for (int b = 0; b < 2; b++) {
                    lw_status s = run(d, shapes[d - 1], ws[wi], LW_SYMMETRIC, LW_INT32, L, LW_FORWARD, BACKENDS[b],
                                      x, y[b]);
                    CHECK(s == LW_OK, "%s d=%d L=%d M=%.0f on %s: %s", lw_wavelet_name(ws[wi]), d, L, M,
                          lw_backend_name(BACKENDS[b]), lw_last_error());
                    if (s != LW_OK) continue;
                    double mx = 0;
                    for (int64_t i = 0; i < n; i++) mx = fmax(mx, fabs((double)y[b][i]));
                    CHECK(mx <= bound, "%s d=%d L=%d: |c| = %.0f above the bound %.0f", lw_wavelet_name(ws[wi]), d,
                          L, mx, bound);
                    CHECK(run(d, shapes[d - 1], ws[wi], LW_SYMMETRIC, LW_INT32, L, LW_INVERSE, BACKENDS[b], y[b],
                              z) == LW_OK &&
                              memcmp(x, z, (size_t)n * sizeof *x) == 0,
                          "%s d=%d L=%d: no exact round trip on %s", lw_wavelet_name(ws[wi]), d, L,
                          lw_backend_name(BACKENDS[b]));
                }
                CHECK(memcmp(y[0], y[1], (size_t)n * sizeof *x) == 0, "%s d=%d L=%d: cpu != cpu-ref",
                      lw_wavelet_name(ws[wi]), d, L);
                tested++;
            }
        }
    CHECK(tested >= 30, "only %d safe-range cases ran", tested);
    /* the header's examples: |x| < 2^24 with cdf53 at 5 levels in 2-D, dd137 at 2 in 3-D */
    CHECK(bound_factor(LW_CDF53, 2, 5) * (16777215.0 + 10) < 2147483648.0, "cdf53 2-D 5 levels at 2^24");
    CHECK(bound_factor(LW_DD137, 3, 2) * (16777215.0 + 6) < 2147483648.0, "dd137 3-D 2 levels at 2^24");
    CHECK(bound_factor(LW_CDF53, 1, 24) * (65535.0 + 24) < 2147483648.0, "cdf53 1-D 24 levels at 2^16");
}

/* ---- length-1 axes ------------------------------------------------------- */

static void test_length1_identity(void)
{
    int64_t one[1] = {1}, ones[3] = {1, 1, 1}, col[2] = {7, 1}, mixed[2] = {1, 8};
    int lv = -1;
    CHECK(lw_max_levels(3, ones, 0, NULL, &lv) == LW_OK && lv == 0, "max levels 1x1x1 = %d", lv);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 3; t++) {
            lw_dtype dt = (lw_dtype)t;
            lw_wavelet w = dt == LW_INT32 ? LW_CDF53 : LW_CDF97;
            const int levels[4] = {0, 1, 7, LW_LEVELS_MAX};
            for (int k = 0; k < 4; k++) {
                lw_plan *p = NULL;
                CHECK(make(&p, 1, one, 0, NULL, w, LW_PERIODIC, dt, levels[k], LW_FORWARD, BACKENDS[b]) == LW_OK,
                      "length 1, %d levels: %s", levels[k], lw_last_error());
                if (!p) continue;
                CHECK(lw_plan_config(p)->levels == 0, "length 1 plan reports %d levels", lw_plan_config(p)->levels);
                double in[1] = {0}, out[1] = {0};
                memcpy(in, &(int32_t[2]){0x3f000001, 0x3f000001}, sizeof in); /* a value of every dtype */
                CHECK(lw_execute(p, in, out) == LW_OK && memcmp(in, out, lw_dtype_size(dt)) == 0,
                      "length 1 is not the identity");
                lw_destroy(p);
            }
            /* a 1x1x1 volume, max and 5 levels, inverse */
            lw_plan *p = NULL;
            CHECK(make(&p, 3, ones, 0, NULL, w, LW_SYMMETRIC, dt, 5, LW_INVERSE, BACKENDS[b]) == LW_OK,
                  "1x1x1, 5 levels: %s", lw_last_error());
            lw_destroy(p);
            /* a batch of 7 along axis 0, transformed axis 1 of length 1 */
            int ax1[1] = {1};
            double in[7], out[7];
            for (int i = 0; i < 7; i++) memcpy(&in[i], &(int32_t[2]){i * 3 + 1, 0x40000000}, sizeof in[i]);
            p = NULL;
            CHECK(make(&p, 2, col, 1, ax1, w, LW_SYMMETRIC, dt, 3, LW_FORWARD, BACKENDS[b]) == LW_OK,
                  "7x1 along axis 1, 3 levels: %s", lw_last_error());
            if (p) {
                CHECK(lw_execute(p, in, out) == LW_OK && memcmp(in, out, 7 * lw_dtype_size(dt)) == 0,
                      "7x1 along axis 1 is not the identity");
                lw_destroy(p);
            }
            /* one axis longer than 1: the usual limit applies (8 allows 3) */
            p = NULL;
            CHECK(make(&p, 2, mixed, 0, NULL, w, LW_SYMMETRIC, dt, 4, LW_FORWARD, BACKENDS[b]) ==
                          LW_ERR_INVALID_LEVELS &&
                      p == NULL,
                  "1x8 with 4 levels must fail");
            CHECK(make(&p, 2, mixed, 0, NULL, w, LW_SYMMETRIC, dt, 3, LW_FORWARD, BACKENDS[b]) == LW_OK,
                  "1x8 with 3 levels: %s", lw_last_error());
            lw_destroy(p);
        }
}

/* ---- scaling ------------------------------------------------------------- */

static void test_scaling(void)
{
    enum { N = 16 };
    int64_t n[1] = {N};
    double c[N], alt[N], y[N];
    int32_t ci[N], alti[N], yi[N];
    for (int i = 0; i < N; i++) {
        c[i] = 3.0;
        alt[i] = (i & 1) ? -1.0 : 1.0;
        ci[i] = 3;
        alti[i] = (i & 1) ? -1 : 1;
    }
    for (int wi = 0; wi < LW_WAVELET_COUNT; wi++) {
        const lw_wavelet wv = (lw_wavelet)wi;
        int ortho = (lw_wavelet_properties(wv) & LW_WAVELET_ORTHONORMAL) != 0;
        double dc = ortho ? sqrt(2.0) : 1.0, nyq = ortho ? sqrt(2.0) : 2.0;
        for (int m = 0; m < 2; m++) {
            CHECK(run(1, n, wv, (lw_mode)m, LW_FLOAT64, 1, LW_FORWARD, LW_BACKEND_CPU_REF, c, y) == LW_OK, "plan");
            for (int i = 0; i < N; i++)
                CHECK(fabs(y[i] - (i < N / 2 ? 3.0 * dc : 0.0)) < 1e-12, "%s %s DC: y[%d] = %.15g",
                      lw_wavelet_name(wv), lw_mode_name((lw_mode)m), i, y[i]);
            CHECK(run(1, n, wv, (lw_mode)m, LW_FLOAT64, 1, LW_FORWARD, LW_BACKEND_CPU_REF, alt, y) == LW_OK,
                  "plan");
            for (int i = N / 2; i < N; i++)
                CHECK(fabs(fabs(y[i]) - nyq) < 1e-12, "%s %s Nyquist: |y[%d]| = %.15g, want %g",
                      lw_wavelet_name(wv), lw_mode_name((lw_mode)m), i, fabs(y[i]), nyq);
        }
        if (!(lw_wavelet_properties(wv) & LW_WAVELET_INTEGER)) continue;
        CHECK(run(1, n, wv, LW_PERIODIC, LW_INT32, 1, LW_FORWARD, LW_BACKEND_CPU_REF, ci, yi) == LW_OK, "plan");
        for (int i = 0; i < N; i++)
            CHECK(yi[i] == (i < N / 2 ? 3 : 0), "integer %s DC: y[%d] = %d", lw_wavelet_name(wv), i, yi[i]);
        CHECK(run(1, n, wv, LW_PERIODIC, LW_INT32, 1, LW_FORWARD, LW_BACKEND_CPU_REF, alti, yi) == LW_OK, "plan");
        for (int i = N / 2; i < N; i++)
            CHECK(yi[i] == -2, "integer %s Nyquist: y[%d] = %d", lw_wavelet_name(wv), i, yi[i]);
    }
}

/* ---- statuses ------------------------------------------------------------ */

static void test_status(void)
{
    CHECK(LW_ERR_INTEGER_OVERFLOW == 11, "LW_ERR_INTEGER_OVERFLOW is %d", (int)LW_ERR_INTEGER_OVERFLOW);
    for (int s = 0; s <= 11; s++)
        CHECK(strcmp(lw_status_string((lw_status)s), "unknown status") != 0, "status %d has no string", s);
    CHECK(strstr(lw_status_string(LW_ERR_INTEGER_OVERFLOW), "int32") != NULL, "overflow string: %s",
          lw_status_string(LW_ERR_INTEGER_OVERFLOW));
    CHECK(strcmp(lw_status_string((lw_status)12), "unknown status") == 0, "status 12");
    /* lw_last_error: the same per-thread buffer, emptied by lw_plan_create */
    const char *e1 = lw_last_error();
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, NULL) == LW_ERR_INVALID_ARGUMENT && lw_last_error() == e1 && e1[0] != 0,
          "last error buffer");
    int64_t s8[1] = {8};
    CHECK(make(&p, 1, s8, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 1, LW_FORWARD, LW_BACKEND_CPU) == LW_OK &&
              lw_last_error()[0] == 0,
          "lw_plan_create clears the last error: %s", lw_last_error());
    lw_destroy(p);
}

static void test_in_place_flag(void)
{
    for (int bi = 0; bi < 2; bi++) {
        lw_config c;
        lw_config_init(&c);
        c.rank = 2, c.shape[0] = 37, c.shape[1] = 20, c.levels = 2, c.backend = BACKENDS[bi];
        c.flags = LW_FLAG_IN_PLACE;
        lw_plan *p = NULL, *q = NULL;
        CHECK(lw_plan_create(&p, &c) == LW_OK, "%s: in-place plan: %s", lw_backend_name(c.backend), lw_last_error());
        c.flags = 0;
        CHECK(lw_plan_create(&q, &c) == LW_OK, "%s: plan: %s", lw_backend_name(c.backend), lw_last_error());
        float x[740], y[740], z[740];
        for (int i = 0; i < 740; i++) x[i] = y[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
        if (p && q) {
            CHECK(lw_execute(p, x, x) == LW_OK, "in place with the flag: %s", lw_last_error());
            CHECK(lw_execute(q, y, z) == LW_OK, "out of place: %s", lw_last_error());
            CHECK(memcmp(x, z, sizeof x) == 0, "%s: in place with the flag differs from out of place",
                  lw_backend_name(c.backend));
            CHECK(lw_execute(p, y, z) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "LW_FLAG_IN_PLACE"),
                  "in != out with the flag: %s", lw_last_error());
        }
        lw_destroy(p), lw_destroy(q);
        c.flags = LW_FLAG_IN_PLACE | LW_FLAG_DESTROY_INPUT;
        CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_ARGUMENT && !p, "in place + destroy input accepted");
    }
}

int main(void)
{
    test_in_place_flag();
    lw_test_seed(20261123);
    test_overflow_detected();
    test_safe_range();
    test_length1_identity();
    test_scaling();
    test_status();
    return lw_test_finish("test_limits");
}
