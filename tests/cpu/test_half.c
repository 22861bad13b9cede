/* The half storage types (float16, bfloat16) on both CPU backends, every
 * wavelet, mode, layout, 1-3-D, 1 and all levels, the four directions:
 *  - bit-exact: the half result is the float32 (cpu) or float64 (cpu-ref)
 *    result on the widened input, rounded once to the storage type;
 *  - accuracy: forward against the float64 reference, and forward + inverse
 *    round trips, within the documented bounds (the measured maxima per
 *    wavelet are printed for docs/CONVENTIONS.md);
 *  - the adjoint identity <A x, y> = <x, A^T y> to half rounding;
 *  - errors: integer + half, the cuda backend's refusal, auto picks a CPU
 *    backend. */
#include "liftwave.h"
#include "core/half.h"
#include "lw_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* relative to max|reference|: one rounding of the output (2^-11, 2^-8)
 * plus float32 arithmetic */
static double tol_forward(lw_dtype t) { return t == LW_FLOAT16 ? 5.5e-4 : 4.2e-3; }
/* forward + inverse, both rounded, relative to max|x|: the bound the docs state */
static double tol_roundtrip(lw_dtype t) { return t == LW_FLOAT16 ? 4e-3 : 3.2e-2; }
/* adjoint identity, relative to ||A x|| ||y|| + ||x|| ||A^T y|| */
static double tol_adjoint(lw_dtype t) { return t == LW_FLOAT16 ? 2e-3 : 1.6e-2; }

static float widen(lw_dtype t, uint16_t h) { return t == LW_FLOAT16 ? lw_f16_to_f32(h) : lw_bf16_to_f32(h); }
static uint16_t narrow(lw_dtype t, float f) { return t == LW_FLOAT16 ? lw_f32_to_f16(f) : lw_f32_to_bf16(f); }

typedef struct tcase {
    int rank;
    int64_t shape[3];
    lw_wavelet w;
    lw_mode m;
    lw_layout lay;
    int levels;
    lw_direction dir;
} tcase;

static lw_status run(const tcase *c, lw_dtype t, lw_backend b, lw_direction dir, const void *in, void *out, int threads)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = c->rank;
    for (int i = 0; i < c->rank; i++) cfg.shape[i] = c->shape[i];
    cfg.wavelet = c->w;
    cfg.mode = c->m;
    cfg.layout = c->lay;
    cfg.levels = c->levels;
    cfg.direction = dir;
    cfg.dtype = t;
    cfg.backend = b;
    cfg.threads = threads;
    lw_plan *p;
    lw_status st = lw_plan_create(&p, &cfg);
    if (st != LW_OK) return st;
    st = lw_execute(p, in, out);
    lw_destroy(p);
    return st;
}

/* measured maxima per dtype (0 float16, 1 bfloat16) and wavelet, cpu backend */
static double worst_fwd[2][LW_WAVELET_COUNT], worst_rt[2][LW_WAVELET_COUNT];
static long n_cases, n_skipped_periodic;

static double max_abs_d(const double *a, int64_t n)
{
    double m = 0;
    for (int64_t i = 0; i < n; i++) m = fmax(m, fabs(a[i]));
    return m;
}

static void check_case(const tcase *c, lw_dtype t, lw_backend b, int threads)
{
    int64_t n = 1;
    for (int i = 0; i < c->rank; i++) n *= c->shape[i];
    uint16_t *xh = malloc(n * 2), *yh = malloc(n * 2), *zh = malloc(n * 2);
    float *xf = malloc(n * 4), *yf = malloc(n * 4);
    double *xd = malloc(n * 8), *yd = malloc(n * 8);
    for (int64_t i = 0; i < n; i++) {
        xh[i] = narrow(t, (float)(lw_rng_unit() * 2 - 1));
        xf[i] = widen(t, xh[i]);
        xd[i] = xf[i];
    }
    const char *tn = lw_dtype_name(t), *bn = b == LW_BACKEND_CPU ? "cpu" : "cpu-ref";
    char what[200];
    snprintf(what, sizeof what, "%s %s %s %s %s %dD %lldx%lldx%lld levels %d dir %d", bn, tn,
             lw_wavelet_name(c->w), lw_mode_name(c->m), lw_layout_name(c->lay), c->rank, (long long)c->shape[0],
             (long long)(c->rank > 1 ? c->shape[1] : 1), (long long)(c->rank > 2 ? c->shape[2] : 1), c->levels,
             (int)c->dir);
    lw_status sh = run(c, t, b, c->dir, xh, yh, threads);
    lw_status sd = run(c, LW_FLOAT64, LW_BACKEND_CPU_REF, c->dir, xd, yd, 1);
    CHECK(sh == sd, "%s: half status %d, float64 status %d (%s)", what, (int)sh, (int)sd, lw_last_error());
    if (sh != LW_OK || sd != LW_OK) {
        n_skipped_periodic += sd == LW_ERR_ODD_PERIODIC;
        goto done;
    }
    n_cases++;
    /* bit-exact: one rounding of the same computation in the wider type */
    int64_t mism = 0;
    if (b == LW_BACKEND_CPU) {
        CHECK(run(c, LW_FLOAT32, LW_BACKEND_CPU, c->dir, xf, yf, threads) == LW_OK, "%s: float32", what);
        for (int64_t i = 0; i < n; i++) mism += narrow(t, yf[i]) != yh[i];
    } else {
        for (int64_t i = 0; i < n; i++) mism += narrow(t, (float)yd[i]) != yh[i];
    }
    CHECK(mism == 0, "%s: %lld samples differ from the wider result rounded once", what, (long long)mism);
    /* against the float64 reference */
    double ref = max_abs_d(yd, n), e = 0;
    for (int64_t i = 0; i < n; i++) e = fmax(e, fabs(widen(t, yh[i]) - yd[i]));
    e = ref > 0 ? e / ref : e;
    CHECK(e <= tol_forward(t), "%s: max rel error %.3g against float64 > %.3g", what, e, tol_forward(t));
    int k = t == LW_BFLOAT16;
    if (c->dir == LW_FORWARD && b == LW_BACKEND_CPU) {
        worst_fwd[k][c->w] = fmax(worst_fwd[k][c->w], e);
        /* round trip in the storage type */
        CHECK(run(c, t, b, LW_INVERSE, yh, zh, threads) == LW_OK, "%s: inverse", what);
        double er = 0;
        for (int64_t i = 0; i < n; i++) er = fmax(er, fabs(widen(t, zh[i]) - xd[i]));
        er /= fmax(max_abs_d(xd, n), 1e-300);
        worst_rt[k][c->w] = fmax(worst_rt[k][c->w], er);
        CHECK(er <= tol_roundtrip(t), "%s: round trip max rel error %.3g > %.3g", what, er, tol_roundtrip(t));
    }
    if (c->dir == LW_FORWARD || c->dir == LW_INVERSE) {
        /* <A x, y> = <x, A^T y>, both sides from half results */
        lw_direction adj = c->dir == LW_FORWARD ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT;
        for (int64_t i = 0; i < n; i++) zh[i] = narrow(t, (float)(lw_rng_unit() * 2 - 1)); /* y */
        uint16_t *aty = malloc(n * 2);
        CHECK(run(c, t, b, adj, zh, aty, threads) == LW_OK, "%s: adjoint (%s)", what, lw_last_error());
        double lhs = 0, rhs = 0, nax = 0, ny = 0, nx = 0, naty = 0;
        for (int64_t i = 0; i < n; i++) {
            double ax = widen(t, yh[i]), y = widen(t, zh[i]), x = xd[i], at = widen(t, aty[i]);
            lhs += ax * y;
            rhs += x * at;
            nax += ax * ax, ny += y * y, nx += x * x, naty += at * at;
        }
        double scale = sqrt(nax * ny) + sqrt(nx * naty);
        CHECK(fabs(lhs - rhs) <= tol_adjoint(t) * scale, "%s: <Ax,y> %.9g vs <x,A^T y> %.9g (scale %.3g)", what, lhs,
              rhs, scale);
        free(aty);
    }
done:
    free(xh), free(yh), free(zh), free(xf), free(yf), free(xd), free(yd);
}

static void check_errors(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 1;
    c.shape[0] = 16;
    c.wavelet = LW_CDF53;
    c.dtype = LW_FLOAT16;
    c.integer = 1;
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_UNSUPPORTED && !p, "integer + float16 refused");
    CHECK(strstr(lw_last_error(), "int32") != NULL, "integer + float16 message: %s", lw_last_error());
    c.dtype = LW_BFLOAT16;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_UNSUPPORTED && !p, "integer + bfloat16 refused");
    c.integer = 0;
    c.dtype = (lw_dtype)5;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_ARGUMENT && !p, "dtype 5 unknown");
    /* auto never picks a backend that refuses half */
    c.dtype = LW_FLOAT16;
    CHECK(lw_plan_create(&p, &c) == LW_OK && p, "auto float16 plan: %s", lw_last_error());
    if (p) CHECK(lw_plan_config(p)->backend != LW_BACKEND_CUDA, "auto float16 runs on a CPU backend");
    lw_destroy(p);
    p = NULL;
    /* device pointers: auto takes cuda (it runs half; tests/gpu/test_gpu_half.c), or finds no backend */
    c.flags = LW_FLAG_DEVICE_POINTERS;
    const int cuda = lw_backend_available(LW_BACKEND_CUDA);
    if (cuda) {
        CHECK(lw_plan_create(&p, &c) == LW_OK && p && lw_plan_config(p)->backend == LW_BACKEND_CUDA,
              "auto float16 device pointers on cuda: %s", lw_last_error());
        lw_destroy(p);
        p = NULL;
    } else {
        CHECK(lw_plan_create(&p, &c) == LW_ERR_NO_BACKEND && !p, "float16 device pointers without cuda");
        CHECK(strstr(lw_last_error(), "device pointers") != NULL, "float16 device pointers message: %s",
              lw_last_error());
    }
    c.flags = 0;
    c.backend = LW_BACKEND_CUDA;
    if (cuda) {
        CHECK(lw_plan_create(&p, &c) == LW_OK && p, "cuda runs float16 in host memory: %s", lw_last_error());
        lw_destroy(p);
    } else {
        printf("cuda half plans not checked here: no CUDA device or built without CUDA\n");
        CHECK(lw_plan_create(&p, &c) == LW_ERR_NO_BACKEND && !p, "cuda absent");
    }
}

/* the plan's description names the storage; gains reach the float32 plan */
static void check_describe_and_gain(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = 12, c.shape[1] = 10;
    c.dtype = LW_BFLOAT16;
    c.backend = LW_BACKEND_CPU;
    c.gain[0] = sqrt(2.0), c.gain[1] = sqrt(0.5);
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_OK, "bfloat16 plan with gains: %s", lw_last_error());
    if (!p) return;
    char buf[4096] = "";
    CHECK(lw_plan_describe(p, buf, sizeof buf) == LW_OK && strstr(buf, "storage: bfloat16") && strstr(buf, "simd:"),
          "describe: %s", buf);
    uint16_t xh[120], yh[120];
    float xf[120], yf[120];
    for (int i = 0; i < 120; i++) xh[i] = lw_f32_to_bf16((float)(lw_rng_unit() * 2 - 1)), xf[i] = lw_bf16_to_f32(xh[i]);
    CHECK(lw_execute(p, xh, yh) == LW_OK, "bfloat16 with gains runs");
    lw_destroy(p);
    c.dtype = LW_FLOAT32;
    CHECK(lw_plan_create(&p, &c) == LW_OK && lw_execute(p, xf, yf) == LW_OK, "float32 with gains");
    lw_destroy(p);
    int mism = 0;
    for (int i = 0; i < 120; i++) mism += lw_f32_to_bf16(yf[i]) != yh[i];
    CHECK(mism == 0, "gains: %d samples differ from float32 rounded once", mism);
}

int main(void)
{
    lw_test_seed(19);
    check_errors();
    check_describe_and_gain();
    static const int64_t shapes[][4] = {
        /* rank, lengths */
        {1, 37}, {1, 64}, {2, 13, 20}, {2, 16, 16}, {3, 6, 9, 8}, {3, 8, 8, 8},
    };
    static const lw_direction dirs[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
    for (int t = 0; t < 2; t++) {
        lw_dtype dt = t ? LW_BFLOAT16 : LW_FLOAT16;
        for (int b = 0; b < 2; b++)
            for (int w = 0; w < LW_WAVELET_COUNT; w++)
                for (int m = 0; m < 2; m++)
                    for (int lay = 0; lay < 2; lay++)
                        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                            for (int lv = 0; lv < 2; lv++)
                                for (int d = 0; d < 4; d++) {
                                    tcase c = {(int)shapes[s][0], {shapes[s][1], shapes[s][2], shapes[s][3]},
                                               (lw_wavelet)w, m ? LW_PERIODIC : LW_SYMMETRIC, (lw_layout)lay,
                                               lv ? LW_LEVELS_MAX : 1, dirs[d]};
                                    check_case(&c, dt, b ? LW_BACKEND_CPU_REF : LW_BACKEND_CPU, 0);
                                }
        /* more samples than one conversion block, on two threads */
        tcase big = {2, {300, 301, 1}, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 3, LW_FORWARD};
        check_case(&big, dt, LW_BACKEND_CPU, 2);
        big.dir = LW_INVERSE_ADJOINT;
        check_case(&big, dt, LW_BACKEND_CPU, 2);
    }
    printf("%ld cases run, %ld skipped (periodic mode, odd length: refused alike by float64)\n", n_cases,
           n_skipped_periodic);
    printf("measured max relative error, cpu backend, random data in [-1, 1]:\n");
    printf("%-10s %-9s %-12s %-12s\n", "dtype", "wavelet", "fwd-vs-f64", "fwd+inv");
    for (int t = 0; t < 2; t++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            printf("%-10s %-9s %-12.3g %-12.3g\n", t ? "bfloat16" : "float16", lw_wavelet_name((lw_wavelet)w),
                   worst_fwd[t][w], worst_rt[t][w]);
    CHECK(n_cases > 1000, "%ld cases ran", n_cases);
    return lw_test_finish("half");
}
