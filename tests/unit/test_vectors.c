/* Known vectors and properties of the reference transforms (docs/METHOD.md). */
#include "liftwave.h"
#include "lw_test.h"

#include <math.h>
#include <string.h>

static lw_status run1d(lw_wavelet w, lw_mode m, lw_dtype t, int integer, int64_t n, int levels,
                       lw_direction dir, lw_layout lay, const void *in, void *out)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 1;
    c.shape[0] = n;
    c.wavelet = w;
    c.mode = m;
    c.dtype = t;
    c.integer = integer;
    c.levels = levels;
    c.direction = dir;
    c.layout = lay;
    c.backend = LW_BACKEND_CPU_REF;
    lw_plan *p;
    lw_status s = lw_plan_create(&p, &c);
    if (s != LW_OK) return s;
    s = lw_execute(p, in, out);
    lw_destroy(p);
    return s;
}

static void test_int53(void)
{
    int32_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r[8];
    int32_t want[8] = {1, 3, 5, 7, 0, 0, 0, 1};
    CHECK(run1d(LW_CDF53, LW_SYMMETRIC, LW_INT32, 1, 8, 1, LW_FORWARD, LW_MALLAT, a, r) == LW_OK, "plan");
    CHECK(memcmp(r, want, sizeof want) == 0, "int 5/3 of 1..8: got %d %d %d %d | %d %d %d %d", r[0], r[1],
          r[2], r[3], r[4], r[5], r[6], r[7]);
    int32_t b[5] = {5, 3, 8, 1, 9}, s[5], back[5];
    int32_t wantb[5] = {4, 6, 6, -3, -7};
    CHECK(run1d(LW_CDF53, LW_SYMMETRIC, LW_INT32, 1, 5, 1, LW_FORWARD, LW_MALLAT, b, s) == LW_OK, "plan");
    CHECK(memcmp(s, wantb, sizeof wantb) == 0, "int 5/3 of [5,3,8,1,9]: got %d %d %d | %d %d", s[0], s[1],
          s[2], s[3], s[4]);
    CHECK(run1d(LW_CDF53, LW_SYMMETRIC, LW_INT32, 1, 5, 1, LW_INVERSE, LW_MALLAT, s, back) == LW_OK, "plan");
    CHECK(memcmp(back, b, sizeof b) == 0, "int 5/3 inverse of [5,3,8,1,9]");
    /* interleaved layout keeps the coefficients at their positions */
    int32_t il[5], wanti[5] = {4, -3, 6, -7, 6};
    CHECK(run1d(LW_CDF53, LW_SYMMETRIC, LW_INT32, 1, 5, 1, LW_FORWARD, LW_INTERLEAVED, b, il) == LW_OK, "plan");
    CHECK(memcmp(il, wanti, sizeof wanti) == 0, "interleaved int 5/3");
}

static void test_dd137_nyquist(void)
{
    enum { N = 64 };
    double x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (i & 1) ? -1.0 : 1.0;
    for (int m = 0; m < 2; m++) {
        CHECK(run1d(LW_DD137, (lw_mode)m, LW_FLOAT64, 0, N, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_OK, "plan");
        double mx = 0;
        for (int i = 0; i < N / 2; i++) mx = fmax(mx, fabs(y[i]));
        CHECK(mx < 1e-14, "dd137 lowpass of (-1)^n is %g (mode %d)", mx, m);
    }
}

static void test_cdf97_taps(void)
{
    enum { N = 64, M = 16 };
    const double lo[5] = {0.602949018236, 0.266864118443, -0.078223266529, -0.016864118443, 0.026748757411};
    const double hi[4] = {1.115087052457, -0.591271763114, -0.057543526229, 0.091271763114};
    double x[N], y[N];
    for (int pos = 2 * M; pos <= 2 * M + 1; pos++) {
        memset(x, 0, sizeof x);
        x[pos] = 1.0;
        CHECK(run1d(LW_CDF97, LW_PERIODIC, LW_FLOAT64, 0, N, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_OK, "plan");
        for (int j = 0; j < N / 2; j++) {
            int d = pos - 2 * j; /* lowpass j sits at 2j */
            double want = abs(d) <= 4 ? lo[abs(d)] : 0.0;
            CHECK(fabs(y[j] - want) < 1e-9, "cdf97 low tap at distance %d: %.12f vs %.12f", d, y[j], want);
            int e = pos - (2 * j + 1); /* highpass j sits at 2j+1 */
            double wh = abs(e) <= 3 ? hi[abs(e)] : 0.0;
            CHECK(fabs(y[N / 2 + j] - wh) < 1e-9, "cdf97 high tap at distance %d: %.12f vs %.12f", e,
                  y[N / 2 + j], wh);
        }
    }
}

static void test_linearity(void)
{
    enum { N = 37 };
    double x[N], y[N], z[N], tx[N], ty[N], tz[N];
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int m = 0; m < 1; m++) {
            for (int i = 0; i < N; i++) {
                x[i] = lw_rng_unit() - 0.5;
                y[i] = lw_rng_unit() - 0.5;
                z[i] = 2.5 * x[i] - 1.25 * y[i];
            }
            run1d((lw_wavelet)w, LW_SYMMETRIC, LW_FLOAT64, 0, N, LW_LEVELS_MAX, LW_FORWARD, LW_MALLAT, x, tx);
            run1d((lw_wavelet)w, LW_SYMMETRIC, LW_FLOAT64, 0, N, LW_LEVELS_MAX, LW_FORWARD, LW_MALLAT, y, ty);
            run1d((lw_wavelet)w, LW_SYMMETRIC, LW_FLOAT64, 0, N, LW_LEVELS_MAX, LW_FORWARD, LW_MALLAT, z, tz);
            double err = 0;
            for (int i = 0; i < N; i++) err = fmax(err, fabs(tz[i] - (2.5 * tx[i] - 1.25 * ty[i])));
            CHECK(err < 1e-12, "linearity of %s: %g", lw_wavelet_name((lw_wavelet)w), err);
        }
}

static void test_haar_values(void)
{
    double x[4] = {1, 3, 6, 2}, y[4];
    CHECK(run1d(LW_HAAR, LW_PERIODIC, LW_FLOAT64, 0, 4, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_OK, "plan");
    double r2 = sqrt(2.0);
    double want[4] = {4 / r2, 8 / r2, -2 / r2, 4 / r2};
    for (int i = 0; i < 4; i++) CHECK(fabs(y[i] - want[i]) < 1e-14, "haar[%d] %g vs %g", i, y[i], want[i]);
    int32_t a[4] = {1, 3, 6, 2}, b[4];
    int32_t wi[4] = {2, 4, 2, -4}; /* d = o - e; s = e + floor(d/2) */
    CHECK(run1d(LW_HAAR, LW_PERIODIC, LW_INT32, 1, 4, 1, LW_FORWARD, LW_MALLAT, a, b) == LW_OK, "plan");
    CHECK(memcmp(b, wi, sizeof wi) == 0, "integer haar: %d %d %d %d", b[0], b[1], b[2], b[3]);
}

/* Deslauriers-Dubuc 9/7: integer known vector (Dirac's rounding, worked by
 * hand with whole-sample symmetric extension) and the float impulse
 * responses (lowpass 1/64 (1, 0, -8, 16, 46, 16, -8, 0, 1), highpass
 * 1/16 (1, 0, -9, 16, -9, 0, 1)). */
static void test_dd97_values(void)
{
    int32_t x[10] = {5, 3, 8, 1, 9, 2, 7, 4, 6, 0}, y[10];
    int32_t want[10] = {4, 5, 6, 5, 4, -3, -8, -6, -2, -6};
    CHECK(run1d(LW_DD97, LW_SYMMETRIC, LW_INT32, 1, 10, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_OK, "plan: %s",
          lw_last_error());
    for (int i = 0; i < 10; i++) CHECK(y[i] == want[i], "integer dd97[%d] = %d, want %d", i, y[i], want[i]);
    enum { N = 32 };
    double e[N], r[N];
    const double low[9] = {1 / 64.0, 0, -8 / 64.0, 16 / 64.0, 46 / 64.0, 16 / 64.0, -8 / 64.0, 0, 1 / 64.0};
    const double high[7] = {1 / 16.0, 0, -9 / 16.0, 1.0, -9 / 16.0, 0, 1 / 16.0};
    for (int k = 0; k < N; k++) {
        memset(e, 0, sizeof e);
        e[k] = 1;
        CHECK(run1d(LW_DD97, LW_PERIODIC, LW_FLOAT64, 0, N, 1, LW_FORWARD, LW_MALLAT, e, r) == LW_OK, "plan");
        int dl = k - 16, dh = k - 17; /* distance from the lowpass sample 16 / highpass sample 17 */
        double wl = (dl >= -4 && dl <= 4) ? low[dl + 4] : 0.0;
        double wh = (dh >= -3 && dh <= 3) ? high[dh + 3] : 0.0;
        CHECK(fabs(r[8] - wl) < 1e-14, "dd97 low tap at %d: %.15g vs %.15g", dl, r[8], wl);
        CHECK(fabs(r[N / 2 + 8] - wh) < 1e-14, "dd97 high tap at %d: %.15g vs %.15g", dh, r[N / 2 + 8], wh);
    }
}

static void test_fs_values(void)
{
    /* 3x3 integer Faber-Schauder, symmetric, interleaved: corners are E. */
    int32_t x[9] = {10, 20, 30, 40, 50, 60, 70, 80, 91}, y[9];
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = 3;
    c.shape[1] = 3;
    c.wavelet = LW_FS;
    c.dtype = LW_INT32;
    c.integer = 1;
    c.layout = LW_INTERLEAVED;
    c.backend = LW_BACKEND_CPU_REF;
    lw_plan *p;
    CHECK(lw_plan_create(&p, &c) == LW_OK, "fs plan: %s", lw_last_error());
    CHECK(lw_execute(p, x, y) == LW_OK, "fs execute");
    lw_destroy(p);
    int32_t want[9] = {10, 20 - 20, 30, 40 - 40, 50 - 50 /* floor(201/4) = 50 */, 60 - 60, 70, 80 - 80, 91};
    want[4] = 50 - (int32_t)floor((10 + 30 + 70 + 91) / 4.0);
    want[8] = 91;
    want[7] = 80 - (70 + 91) / 2;
    want[5] = 60 - (30 + 91) / 2;
    for (int i = 0; i < 9; i++) CHECK(y[i] == want[i], "fs[%d] = %d, want %d", i, y[i], want[i]);
}

static void test_errors(void)
{
    double x[6] = {0}, y[6];
    CHECK(run1d(LW_CDF97, LW_PERIODIC, LW_FLOAT64, 0, 5, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_ODD_PERIODIC,
          "odd periodic");
    CHECK(strstr(lw_last_error(), "periodic") != NULL, "message: %s", lw_last_error());
    CHECK(run1d(LW_CDF97, LW_PERIODIC, LW_FLOAT64, 0, 6, 2, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_ODD_PERIODIC,
          "odd periodic at level 2");
    CHECK(run1d(LW_CDF97, LW_SYMMETRIC, LW_FLOAT64, 0, 6, 4, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_INVALID_LEVELS,
          "too many levels");
    CHECK(run1d(LW_CDF97, LW_SYMMETRIC, LW_INT32, 1, 6, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_UNSUPPORTED,
          "integer cdf97");
    CHECK(run1d(LW_D4, LW_SYMMETRIC, LW_INT32, 1, 6, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_UNSUPPORTED,
          "integer d4");
    CHECK(run1d(LW_CDF53, LW_SYMMETRIC, LW_FLOAT32, 1, 6, 1, LW_FORWARD, LW_MALLAT, x, y) == LW_ERR_UNSUPPORTED,
          "integer float32");
    int lv = -1;
    int64_t shp[2] = {5, 64};
    CHECK(lw_max_levels(2, shp, 0, NULL, &lv) == LW_OK && lv == 3, "max levels 5x64 = %d", lv);
    int64_t one[1] = {1};
    CHECK(lw_max_levels(1, one, 0, NULL, &lv) == LW_OK && lv == 0, "max levels of length 1 = %d", lv);
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = INT64_MAX / 2;
    c.shape[1] = 4;
    lw_plan *p = (lw_plan *)1;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_SHAPE && p == NULL, "overflowing shape");
    c.shape[0] = 0;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_SHAPE, "zero length");
    CHECK(lw_plan_create(&p, NULL) == LW_ERR_INVALID_ARGUMENT, "NULL config");
    lw_destroy(NULL);
    CHECK(strcmp(lw_status_string(LW_OK), "ok") == 0, "status string");
    lw_wavelet w;
    CHECK(lw_wavelet_parse("dd137", &w) == LW_OK && w == LW_DD137, "parse");
    CHECK(lw_wavelet_parse("db9", &w) == LW_ERR_INVALID_ARGUMENT, "parse unknown");
    CHECK(lw_wavelet_parse("dd97", &w) == LW_OK && w == LW_DD97, "parse dd97");
    for (int i = 0; i < LW_WAVELET_COUNT; i++) {
        CHECK(lw_wavelet_parse(lw_wavelet_name((lw_wavelet)i), &w) == LW_OK && (int)w == i, "name round trip %d", i);
        CHECK(lw_wavelet_properties((lw_wavelet)i) & LW_WAVELET_FLOAT, "%d has a float variant", i);
    }
    CHECK(lw_wavelet_properties((lw_wavelet)LW_WAVELET_COUNT) == 0, "properties past the enum");
}

int main(void)
{
    lw_test_seed(12345);
    test_int53();
    test_dd137_nyquist();
    test_cdf97_taps();
    test_linearity();
    test_haar_values();
    test_dd97_values();
    test_fs_values();
    test_errors();
    return lw_test_finish("test_vectors");
}
