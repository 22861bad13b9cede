/* Perfect-reconstruction sweeps of the reference (docs/METHOD.md): every
 * wavelet x mode x layout x dtype x rank 1-3, lengths 1..70 per axis (all of
 * them in 1-D, sampled in 2-D and 3-D), random level counts up to max.
 * Also: float32 agrees with float64, batches equal per-item transforms. */
#include "liftwave.h"
#include "core/half.h"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lw_backend g_backend = LW_BACKEND_CPU_REF;

static int make_plan(lw_plan **p, int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w,
                     lw_mode m, lw_layout lay, lw_dtype t, int levels, lw_direction dir)
{
    return lw_test_plan(p, rank, shape, naxes, axes, w, m, lay, t, levels, dir, g_backend);
}

/* Levels allowed in periodic mode: every length even at every level. */
static int periodic_levels(int rank, const int64_t *shape)
{
    int best = 64;
    for (int a = 0; a < rank; a++) {
        int64_t n = shape[a];
        if (n == 1) continue;
        int l = 0;
        while (n >= 2 && (n & 1) == 0) {
            n /= 2;
            l++;
            if (n == 1) break;
        }
        if (l < best) best = l;
    }
    return best == 64 ? 0 : best;
}

static void fill(void *buf, lw_dtype t, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        switch (t) {
        case LW_FLOAT32: ((float *)buf)[i] = (float)(lw_rng_unit() * 2 - 1); break;
        case LW_FLOAT64: ((double *)buf)[i] = lw_rng_unit() * 2 - 1; break;
        case LW_FLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_f16((float)(lw_rng_unit() * 2 - 1)); break;
        case LW_BFLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_bf16((float)(lw_rng_unit() * 2 - 1)); break;
        case LW_INT32: ((int32_t *)buf)[i] = (int32_t)lw_rng_range(-70000, 70000); break;
        }
    }
}

static long n_cases;

/* One forward + inverse round trip; returns 0 if it could not plan. */
static void roundtrip(int rank, const int64_t *shape, lw_wavelet w, lw_mode m, lw_layout lay, lw_dtype t)
{
    const lw_config *rc;
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    int lmax = 0;
    lw_max_levels(rank, shape, 0, NULL, &lmax);
    if (m == LW_PERIODIC) {
        int pl = periodic_levels(rank, shape);
        if (pl < lmax) {
            /* the first level that meets an odd length must be refused */
            lw_plan *bad = NULL;
            lw_status s = make_plan(&bad, rank, shape, 0, NULL, w, m, lay, t, pl + 1, LW_FORWARD);
            CHECK(s == LW_ERR_ODD_PERIODIC, "periodic odd length not refused (%d)", (int)s);
            lw_destroy(bad);
            lmax = pl;
        }
    }
    int levels = lmax > 0 ? (int)lw_rng_range(1, lmax) : 0;
    if (lmax > 0 && lw_rng_range(0, 3) == 0) levels = lmax;
    lw_plan *pf, *pi;
    lw_status s1 = make_plan(&pf, rank, shape, 0, NULL, w, m, lay, t, levels, LW_FORWARD);
    lw_status s2 = make_plan(&pi, rank, shape, 0, NULL, w, m, lay, t, levels, LW_INVERSE);
    CHECK(s1 == LW_OK && s2 == LW_OK, "plan %s %s %s %s rank %d: %s", lw_wavelet_name(w), lw_mode_name(m),
          lw_layout_name(lay), lw_dtype_name(t), rank, lw_last_error());
    if (s1 != LW_OK || s2 != LW_OK) {
        lw_destroy(pf);
        lw_destroy(pi);
        return;
    }
    rc = lw_plan_config(pf);
    size_t es = lw_dtype_size(t);
    void *x = malloc((size_t)n * es), *y = malloc((size_t)n * es), *z = malloc((size_t)n * es);
    fill(x, t, n);
    CHECK(lw_execute(pf, x, y) == LW_OK, "forward");
    memcpy(z, y, (size_t)n * es);
    CHECK(lw_execute(pi, z, z) == LW_OK, "inverse in place");
    double err = 0, ref = 0;
    for (int64_t i = 0; i < n; i++) {
        err = fmax(err, fabs(lw_sample_as_double(z, t, i) - lw_sample_as_double(x, t, i)));
        ref = fmax(ref, fabs(lw_sample_as_double(x, t, i)));
    }
    double tol = t == LW_INT32 ? 0.0 : t == LW_FLOAT32 ? 1e-5 : 1e-12;
    CHECK(err <= tol * (ref > 0 ? ref : 1), "round trip %s %s %s %s shape %lldx%lldx%lld levels %d: err %g",
          lw_wavelet_name(w), lw_mode_name(m), lw_layout_name(lay), lw_dtype_name(t), (long long)shape[0],
          (long long)(rank > 1 ? shape[1] : 1), (long long)(rank > 2 ? shape[2] : 1), rc->levels, err);
    /* the transform must actually change a non-trivial signal */
    if (levels > 0 && n > 2) {
        int changed = 0;
        for (int64_t i = 0; i < n && !changed; i++) changed = lw_sample_as_double(y, t, i) != lw_sample_as_double(x, t, i);
        CHECK(changed, "forward left the data unchanged");
    }
    free(x);
    free(y);
    free(z);
    lw_destroy(pf);
    lw_destroy(pi);
    n_cases++;
}

static void sweep(void)
{
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int m = 0; m < 2; m++)
            for (int lay = 0; lay < 2; lay++)
                for (int t = 0; t < 3; t++) {
                    if (t == LW_INT32 && !(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                    int64_t shape[3];
                    for (int64_t len = 1; len <= 70; len++) {
                        shape[0] = len;
                        roundtrip(1, shape, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, (lw_dtype)t);
                    }
                    for (int k = 0; k < 12; k++) {
                        shape[0] = lw_rng_range(1, 70);
                        shape[1] = lw_rng_range(1, 70);
                        roundtrip(2, shape, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, (lw_dtype)t);
                    }
                    for (int k = 0; k < 4; k++) {
                        shape[0] = lw_rng_range(1, 24);
                        shape[1] = lw_rng_range(1, 24);
                        shape[2] = lw_rng_range(1, 24);
                        roundtrip(3, shape, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, (lw_dtype)t);
                    }
                    /* even sizes so that periodic mode gets several levels */
                    shape[0] = 2 * lw_rng_range(1, 35);
                    shape[1] = 64;
                    roundtrip(2, shape, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, (lw_dtype)t);
                    shape[0] = 16;
                    shape[1] = 8;
                    shape[2] = 32;
                    roundtrip(3, shape, (lw_wavelet)w, (lw_mode)m, (lw_layout)lay, (lw_dtype)t);
                }
}

/* float32 output equals the float64 transform within 1e-5 relative. */
static void dtype_agreement(void)
{
    int64_t shape[2] = {37, 50};
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        lw_plan *p32, *p64;
        make_plan(&p32, 2, shape, 0, NULL, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 3, LW_FORWARD);
        make_plan(&p64, 2, shape, 0, NULL, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 3, LW_FORWARD);
        float x32[37 * 50], y32[37 * 50];
        double x64[37 * 50], y64[37 * 50];
        for (int i = 0; i < 37 * 50; i++) x64[i] = x32[i] = (float)(lw_rng_unit() - 0.5);
        lw_execute(p32, x32, y32);
        lw_execute(p64, x64, y64);
        double err = 0, ref = 0;
        for (int i = 0; i < 37 * 50; i++) {
            err = fmax(err, fabs(y32[i] - y64[i]));
            ref = fmax(ref, fabs(y64[i]));
        }
        CHECK(err <= 1e-5 * ref, "float32 vs float64 %s: %g", lw_wavelet_name((lw_wavelet)w), err / ref);
        lw_destroy(p32);
        lw_destroy(p64);
    }
}

/* Axes subset: a (B, H, W) array transformed on axes 1,2 equals B separate
 * 2-D transforms; a rank-4 array on axes 1,2,3 likewise. */
/* n values between doubles and an array of type t */
static void pack(lw_dtype t, const double *x, void *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (t == LW_FLOAT64) ((double *)b)[i] = x[i];
        else if (t == LW_FLOAT32) ((float *)b)[i] = (float)x[i];
        else ((int32_t *)b)[i] = (int32_t)x[i];
    }
}
static void unpack(lw_dtype t, const void *b, double *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        x[i] = t == LW_FLOAT64 ? ((const double *)b)[i] : t == LW_FLOAT32 ? ((const float *)b)[i] : ((const int32_t *)b)[i];
}

/* An array whose last dim holds C channels, over axes that precede it, equals each channel's
 * array transformed alone (forward or inverse; the plan's levels: levels, or the maximum). */
static void channels_case(int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w, lw_mode m,
                          lw_layout lay, lw_dtype t, int levels, lw_direction dir)
{
    const int64_t C = shape[rank - 1];
    int64_t n = 1;
    for (int d = 0; d < rank - 1; d++) n *= shape[d];
    lw_plan *pc = NULL, *p1 = NULL;
    if (make_plan(&pc, rank, shape, naxes, axes, w, m, lay, t, levels, dir) != LW_OK) {
        CHECK(t == LW_INT32, "channels-last plan: %s", lw_last_error()); /* no integer variant */
        return;
    }
    CHECK(make_plan(&p1, rank - 1, shape, naxes, axes, w, m, lay, t, levels, dir) == LW_OK, "item plan: %s",
          lw_last_error());
    double *xc = malloc((size_t)(n * C) * sizeof *xc), *yc = malloc((size_t)(n * C) * sizeof *yc);
    double *item = malloc((size_t)n * sizeof *item), *z = malloc((size_t)n * sizeof *z);
    unsigned char *bx = malloc((size_t)(n * C) * 8), *by = malloc((size_t)(n * C) * 8);
    unsigned char *bi = malloc((size_t)n * 8), *bz = malloc((size_t)n * 8);
    if (!p1 || !xc || !yc || !item || !z || !bx || !by || !bi || !bz) {
        CHECK(0, "channels-last case: out of memory");
        goto done;
    }
    for (int64_t i = 0; i < n * C; i++) xc[i] = t == LW_INT32 ? (double)lw_rng_range(0, 255) : lw_rng_unit();
    pack(t, xc, bx, n * C);
    CHECK(lw_execute(pc, bx, by) == LW_OK, "channels-last run: %s", lw_last_error());
    unpack(t, by, yc, n * C);
    double err = 0, mx = 0;
    for (int64_t c = 0; c < C; c++) {
        for (int64_t i = 0; i < n; i++) item[i] = xc[i * C + c];
        pack(t, item, bi, n);
        lw_execute(p1, bi, bz);
        unpack(t, bz, z, n);
        for (int64_t i = 0; i < n; i++) {
            err = fmax(err, fabs(z[i] - yc[i * C + c]));
            mx = fmax(mx, fabs(z[i]));
        }
    }
    const double tol = t == LW_INT32 ? 0 : (t == LW_FLOAT32 ? 1e-5 : 1e-12) * (mx > 1 ? mx : 1);
    char dims[64] = "";
    for (int d = 0; d < rank; d++)
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%lld", d ? "x" : "", (long long)shape[d]);
    CHECK(err <= tol, "channels last %s %s %s L%d %s %s %s: max error %g", lw_wavelet_name(w), lw_dtype_name(t), dims,
          levels, m == LW_PERIODIC ? "periodic" : "symmetric", lay == LW_MALLAT ? "mallat" : "interleaved",
          dir == LW_FORWARD ? "fwd" : "inv", err);
done:
    free(xc), free(yc), free(item), free(z), free(bx), free(by), free(bi), free(bz);
    lw_destroy(pc);
    lw_destroy(p1);
}

static void batches(void)
{
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        int64_t shape3[3] = {3, 19, 26}, shape2[2] = {19, 26};
        int axes[2] = {1, 2};
        lw_plan *pb, *p1;
        CHECK(make_plan(&pb, 3, shape3, 2, axes, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 2,
                        LW_FORWARD) == LW_OK, "batch plan: %s", lw_last_error());
        make_plan(&p1, 2, shape2, 0, NULL, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 2, LW_FORWARD);
        double x[3 * 19 * 26], y[3 * 19 * 26], z[19 * 26];
        for (int i = 0; i < 3 * 19 * 26; i++) x[i] = lw_rng_unit();
        lw_execute(pb, x, y);
        double err = 0;
        for (int b = 0; b < 3; b++) {
            lw_execute(p1, x + b * 19 * 26, z);
            for (int i = 0; i < 19 * 26; i++) err = fmax(err, fabs(z[i] - y[b * 19 * 26 + i]));
        }
        CHECK(err == 0, "batch of 2-D %s differs: %g", lw_wavelet_name((lw_wavelet)w), err);
        lw_destroy(pb);
        lw_destroy(p1);

        /* batch axis in the middle: (H, B, W) on axes 0,2 */
        int64_t shapem[3] = {19, 3, 26};
        int axm[2] = {0, 2};
        CHECK(make_plan(&pb, 3, shapem, 2, axm, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 2,
                        LW_FORWARD) == LW_OK, "middle batch plan");
        make_plan(&p1, 2, shape2, 0, NULL, (lw_wavelet)w, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 2, LW_FORWARD);
        lw_execute(pb, x, y);
        err = 0;
        for (int b = 0; b < 3; b++) {
            double item[19 * 26];
            for (int r = 0; r < 19; r++)
                for (int c = 0; c < 26; c++) item[r * 26 + c] = x[(r * 3 + b) * 26 + c];
            lw_execute(p1, item, z);
            for (int r = 0; r < 19; r++)
                for (int c = 0; c < 26; c++) err = fmax(err, fabs(z[r * 26 + c] - y[(r * 3 + b) * 26 + c]));
        }
        CHECK(err == 0, "middle batch %s differs: %g", lw_wavelet_name((lw_wavelet)w), err);
        lw_destroy(pb);
        lw_destroy(p1);
    }
    /* channels last: the trailing dim's C channels each transformed alone, for channel counts on
     * both sides of the cpu backend's switch from lines of C-element samples to rows of C elements
     * (64), float64, float32 and int32 (the wavelets with an integer variant) */
    static const int64_t chans[] = {2, 3, 5, 6, 11, 16, 64, 67};
    static const lw_dtype ctypes[] = {LW_FLOAT64, LW_FLOAT32, LW_INT32};
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int ci = 0; ci < 8; ci++)
            for (int v = 0; v < 12; v++) {
                const lw_mode m = (v & 1) ? LW_PERIODIC : LW_SYMMETRIC; /* periodic: lengths multiples of 4 */
                const int64_t shc[3] = {m == LW_PERIODIC ? 20 : 19, m == LW_PERIODIC ? 28 : 26, chans[ci]};
                const int axc[2] = {0, 1};
                channels_case(3, shc, 2, axc, (lw_wavelet)w, m, (v & 2) ? LW_INTERLEAVED : LW_MALLAT, ctypes[v / 4], 2,
                              ((w + ci + v) & 1) ? LW_INVERSE : LW_FORWARD);
            }
    /* other ranks: stereo lines longer than a line segment of the cpu backend (1-D), NHWC on axes
     * 1,2, a THWC volume, each level count up to the maximum */
    static const struct {
        int rank, naxes, a0;
        int64_t shape[4];
    } other[] = {{2, 1, 0, {40002, 2}}, {4, 2, 1, {3, 12, 18, 4}}, {4, 3, 0, {6, 10, 12, 3}}, {4, 3, 0, {5, 9, 11, 2}}};
    for (int o = 0; o < 4; o++)
        for (int v = 0; v < 16; v++) {
            const int w = (int)lw_rng_range(0, LW_WAVELET_COUNT - 1), levels = (v >> 3) ? LW_LEVELS_MAX : 1;
            int axo[3];
            for (int a = 0; a < other[o].naxes; a++) axo[a] = other[o].a0 + a;
            const lw_mode m = (v & 1) && o != 3 ? LW_PERIODIC : LW_SYMMETRIC;
            channels_case(other[o].rank, other[o].shape, other[o].naxes, axo, (lw_wavelet)w, m,
                          (v & 2) ? LW_INTERLEAVED : LW_MALLAT, ctypes[(v >> 2) % 3], levels,
                          (v & 4) ? LW_INVERSE : LW_FORWARD);
        }
    /* rank 4: (2, 6, 7, 9) on axes 1,2,3, integer 5/3 round trip */
    int64_t s4[4] = {2, 6, 7, 9};
    int ax3[3] = {1, 2, 3};
    lw_plan *pf, *pi;
    CHECK(make_plan(&pf, 4, s4, 3, ax3, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_INT32, LW_LEVELS_MAX, LW_FORWARD) ==
              LW_OK, "rank-4 plan: %s", lw_last_error());
    make_plan(&pi, 4, s4, 3, ax3, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_INT32, LW_LEVELS_MAX, LW_INVERSE);
    int32_t a[2 * 6 * 7 * 9], b[2 * 6 * 7 * 9];
    for (int i = 0; i < 2 * 6 * 7 * 9; i++) a[i] = (int32_t)lw_rng_range(0, 255);
    lw_execute(pf, a, b);
    lw_execute(pi, b, b);
    CHECK(memcmp(a, b, sizeof a) == 0, "rank-4 integer round trip");
    lw_destroy(pf);
    lw_destroy(pi);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--backend") == 0 && argc > 2) lw_backend_parse(argv[2], &g_backend);
    lw_test_seed(20261122);
    printf("backend %s\n", lw_backend_name(g_backend));
    {   /* a tuning this machine cannot run (LW_CPU_SIMD=avx512 without AVX-512) skips, saying why */
        lw_plan *p = NULL;
        int64_t two[1] = {2};
        lw_status s = make_plan(&p, 1, two, 0, NULL, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 1, LW_FORWARD);
        lw_destroy(p);
        if (s == LW_ERR_UNSUPPORTED) {
            printf("SKIP: %s\n", lw_last_error());
            return 77;
        }
    }
    sweep();
    dtype_agreement();
    batches();
    printf("%ld round-trip cases\n", n_cases);
    return lw_test_finish("test_roundtrip");
}
