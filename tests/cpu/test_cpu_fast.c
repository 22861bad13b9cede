/* The tuned cpu backend equals the reference (cpu-ref) across the sweep:
 * every wavelet x mode x layout x dtype x direction, ranks 1-4 with axes
 * subsets and batches, odd / even / length-1 axes, random levels up to max,
 * in place and out of place.  float32 within 1e-5 and float64 within 1e-12
 * of max |reference|, int32 bit-exact (also for inputs large enough that the
 * int32 lanes must hand over to the exact path, and with the same
 * LW_ERR_INTEGER_OVERFLOW when a result does not fit int32).
 *
 * The SIMD path and thread count come from the environment (LW_CPU_SIMD,
 * mapped to the plans' tuning by lw_test_tuning.h, and OMP_NUM_THREADS), one
 * ctest per combination; a path this CPU lacks is skipped with exit status
 * 77. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include "liftwave.h"
#include "cpu/fast_internal.h"
#include "core/half.h"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>

static long n_cases;

static int periodic_levels(int rank, const int64_t *shape, int naxes, const int *axes)
{
    int best = 64;
    for (int i = 0; i < (naxes ? naxes : rank); i++) {
        int64_t n = shape[naxes ? axes[i] : i];
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

/* The most levels a shape takes in mode m (periodic: even lengths at every level) */
static int levels_in(int rank, const int64_t *shape, int naxes, const int *axes, lw_mode m)
{
    int lmax = 0;
    lw_max_levels(rank, shape, naxes, axes, &lmax);
    if (m == LW_PERIODIC) {
        int pl = periodic_levels(rank, shape, naxes, axes);
        if (pl < lmax) lmax = pl;
    }
    return lmax;
}

static void fill(void *buf, lw_dtype t, int64_t n, int64_t imax)
{
    for (int64_t i = 0; i < n; i++) {
        switch (t) {
        case LW_FLOAT32: ((float *)buf)[i] = (float)(lw_rng_unit() * 2 - 1); break;
        case LW_FLOAT64: ((double *)buf)[i] = lw_rng_unit() * 2 - 1; break;
        case LW_FLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_f16((float)(lw_rng_unit() * 2 - 1)); break;
        case LW_BFLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_bf16((float)(lw_rng_unit() * 2 - 1)); break;
        case LW_INT32: ((int32_t *)buf)[i] = (int32_t)lw_rng_range(-imax, imax); break;
        }
    }
}

static lw_simd g_want;
static int g_overflows; /* integer cases whose results do not fit int32 */
static int g_in_place;  /* 1: every check in place (else one in three) */

/* Compare cpu with cpu-ref on one configuration (levels < 0: random). */
static void check(int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w, lw_mode m,
                  lw_layout lay, lw_dtype t, int levels, lw_direction dir, int64_t imax)
{
    const int lmax = levels_in(rank, shape, naxes, axes, m);
    if (levels < 0) {
        levels = lmax > 0 ? (int)lw_rng_range(1, lmax) : 0;
        if (lmax > 0 && lw_rng_range(0, 2) == 0) levels = lmax;
    }
    if (levels > lmax) levels = lmax;
    lw_plan *pf = NULL, *pr = NULL;
    lw_status s1 = lw_test_plan(&pf, rank, shape, naxes, axes, w, m, lay, t, levels, dir, LW_BACKEND_CPU);
    lw_status s2 = lw_test_plan(&pr, rank, shape, naxes, axes, w, m, lay, t, levels, dir, LW_BACKEND_CPU_REF);
    CHECK(s1 == LW_OK && s2 == LW_OK, "plan %s %s %s %s rank %d: %s", lw_wavelet_name(w), lw_mode_name(m),
          lw_layout_name(lay), lw_dtype_name(t), rank, lw_last_error());
    if (s1 != LW_OK || s2 != LW_OK) {
        lw_destroy(pf);
        lw_destroy(pr);
        return;
    }
    const lw_fast_plan *fp = (const lw_fast_plan *)pf->impl;
    CHECK(fp->simd == g_want, "plan uses %s, not the forced %s", lw_simd_name(fp->simd), lw_simd_name(g_want));
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    size_t es = lw_dtype_size(t);
    void *x = malloc((size_t)n * es), *y = malloc((size_t)n * es), *z = malloc((size_t)n * es);
    fill(x, t, n, imax);
    int inplace = g_in_place ? 1 : lw_rng_range(0, 3) == 0;
    memset(y, 0x5a, (size_t)n * es);
    lw_status ef, er;
    if (inplace) {
        memcpy(y, x, (size_t)n * es);
        ef = lw_execute(pf, y, y);
    } else {
        void *xc = malloc((size_t)n * es);
        memcpy(xc, x, (size_t)n * es);
        ef = lw_execute(pf, xc, y);
        CHECK(memcmp(xc, x, (size_t)n * es) == 0, "input modified");
        free(xc);
    }
    er = lw_execute(pr, x, z);
    /* integer results beyond int32 (large imax): both report the overflow */
    CHECK(ef == er && (er == LW_OK || (t == LW_INT32 && er == LW_ERR_INTEGER_OVERFLOW)),
          "execute%s: cpu %s, cpu-ref %s (%s)", inplace ? " in place" : "", lw_status_string(ef),
          lw_status_string(er), lw_last_error());
    if (er == LW_ERR_INTEGER_OVERFLOW) g_overflows++;
    if (ef != LW_OK || er != LW_OK) {
        free(x);
        free(y);
        free(z);
        lw_destroy(pf);
        lw_destroy(pr);
        return;
    }
    double err = 0, ref = 0;
    for (int64_t i = 0; i < n; i++) {
        double a = lw_sample_as_double(y, t, i), b = lw_sample_as_double(z, t, i);
        double e = fabs(a - b);
        if (!(e <= err)) err = isnan(e) ? INFINITY : e;
        ref = fmax(ref, fabs(b));
    }
    double tol = t == LW_INT32 ? 0.0 : t == LW_FLOAT32 ? 1e-5 : 1e-12;
    CHECK(err <= tol * (ref > 0 ? ref : 1),
          "%s %s %s %s %s shape %lldx%lldx%lldx%lld axes %d levels %d%s: err %g (max %g)", lw_wavelet_name(w),
          lw_mode_name(m), lw_layout_name(lay), lw_dtype_name(t), dir == LW_FORWARD ? "forward" : "inverse",
          (long long)shape[0], (long long)(rank > 1 ? shape[1] : 1), (long long)(rank > 2 ? shape[2] : 1),
          (long long)(rank > 3 ? shape[3] : 1), naxes, levels, inplace ? " in place" : "", err, ref);
    free(x);
    free(y);
    free(z);
    lw_destroy(pf);
    lw_destroy(pr);
    n_cases++;
}

static int64_t rnd_len(int64_t hi, int periodic)
{
    int64_t v = lw_rng_range(1, hi);
    if (periodic && v > 1) v &= ~(int64_t)1;
    return v;
}

static void sweep(void)
{
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int m = 0; m < 2; m++)
            for (int lay = 0; lay < 2; lay++)
                for (int t = 0; t < 3; t++) {
                    if (t == LW_INT32 && !(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                    lw_wavelet W = (lw_wavelet)w;
                    lw_mode M = (lw_mode)m;
                    lw_layout Y = (lw_layout)lay;
                    lw_dtype D = (lw_dtype)t;
                    int per = m == LW_PERIODIC;
                    for (int dir = 0; dir < 2; dir++) {
                        lw_direction R = (lw_direction)dir;
                        int64_t s[4];
                        for (int64_t len = 1; len <= 70; len++) {
                            s[0] = len;
                            check(1, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        }
                        s[0] = per ? 9000 : 9001; /* several line segments / strips */
                        check(1, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        for (int k = 0; k < 10; k++) {
                            s[0] = rnd_len(40, per);
                            s[1] = rnd_len(40, per);
                            check(2, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        }
                        s[0] = per ? 150 : 151; /* strips on 2+ threads */
                        s[1] = per ? 38 : 37;
                        check(2, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        for (int k = 0; k < 4; k++) {
                            s[0] = rnd_len(14, per);
                            s[1] = rnd_len(14, per);
                            s[2] = rnd_len(14, per);
                            check(3, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        }
                        s[0] = per ? 96 : 97;
                        s[1] = 6;
                        s[2] = per ? 10 : 11;
                        check(3, s, 0, NULL, W, M, Y, D, -1, R, 70000);
                        /* batches: (B, H, W) on 1,2; (H, B, W) on 0,2; (N, C>=16) on 0;
                         * (H, W, 3) on 0,1 (strided lines); rank 4 (B, H, W, C) on 1,2 */
                        int a12[2] = {1, 2}, a02[2] = {0, 2}, a0[1] = {0}, a01[2] = {0, 1}, a013[3] = {0, 1, 3};
                        int64_t b1[3] = {3, per ? 10 : 11, per ? 16 : 15};
                        check(3, b1, 2, a12, W, M, Y, D, -1, R, 70000);
                        int64_t b2[3] = {per ? 12 : 13, 3, per ? 18 : 19};
                        check(3, b2, 2, a02, W, M, Y, D, -1, R, 70000);
                        int64_t b3[2] = {per ? 34 : 35, 20};
                        check(2, b3, 1, a0, W, M, Y, D, -1, R, 70000);
                        int64_t b4[3] = {per ? 14 : 15, per ? 10 : 9, 3};
                        check(3, b4, 2, a01, W, M, Y, D, -1, R, 70000);
                        int64_t b5[4] = {2, per ? 8 : 9, per ? 6 : 7, 17};
                        check(4, b5, 2, a12, W, M, Y, D, -1, R, 70000);
                        int64_t b6[4] = {per ? 6 : 5, per ? 4 : 3, 2, per ? 10 : 11};
                        check(4, b6, 3, a013, W, M, Y, D, -1, R, 70000);
                        int64_t b7[3] = {1, per ? 12 : 13, 1}; /* length-1 transformed axes */
                        check(3, b7, 0, NULL, W, M, Y, D, -1, R, 70000);
                        (void)s;
                    }
                }
}

/* The plan's first level runs on the planes engine, and the plan forced onto the nd engine gives
 * the same bits (the planes engine only puts items side by side) */
static void same_as_nd(int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w, lw_mode m,
                       lw_layout lay, lw_dtype t, int levels, lw_direction dir)
{
    lw_config c;
    lw_test_config(&c, rank, shape, naxes, axes, w, m, lay, t, levels, dir, LW_BACKEND_CPU);
    lw_plan *pa = NULL, *pn = NULL;
    CHECK(lw_plan_create(&pa, &c) == LW_OK, "planes plan: %s", lw_last_error());
    c.scheme = "nd";
    CHECK(lw_plan_create(&pn, &c) == LW_OK, "nd plan: %s", lw_last_error());
    if (pa && pn) {
        char d[4096];
        /* interleaved levels with a next level keep the nd engine (their lowpass is not a block) */
        int want = lay == LW_MALLAT || levels == 1;
        CHECK(lw_plan_describe(pa, d, sizeof d) == LW_OK && (!want || strstr(d, "engines: planes")),
              "not on planes:\n%s", d);
        int64_t n = 1;
        for (int i = 0; i < rank; i++) n *= shape[i];
        size_t es = lw_dtype_size(t);
        void *x = malloc((size_t)n * es), *ya = malloc((size_t)n * es), *yn = malloc((size_t)n * es);
        fill(x, t, n, 70000);
        CHECK(lw_execute(pa, x, ya) == LW_OK && lw_execute(pn, x, yn) == LW_OK, "execute: %s", lw_last_error());
        CHECK(memcmp(ya, yn, (size_t)n * es) == 0, "planes and nd differ: %s %s %s %s %s shape %lldx%lldx%lld axes %d "
              "levels %d", lw_wavelet_name(w), lw_mode_name(m), lw_layout_name(lay), lw_dtype_name(t),
              dir == LW_FORWARD ? "forward" : "inverse", (long long)shape[0], (long long)shape[1],
              (long long)shape[2], naxes, levels);
        free(x);
        free(ya);
        free(yn);
    }
    lw_destroy(pa);
    lw_destroy(pn);
}

/* Batches of small 2-D items (the planes engine: 8 or more items of up to 128 x 128): every
 * wavelet x mode x layout x dtype x direction, one level and the most, odd and even sizes, one
 * and two batch axes, a batch axis between the transformed ones and a last partial chunk;
 * against the reference and, bit for bit, against the nd engine */
static void planes(void)
{
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int m = 0; m < 2; m++)
            for (int lay = 0; lay < 2; lay++)
                for (int t = 0; t < 3; t++) {
                    if (w == LW_FS) continue; /* non-separable: its own engine */
                    if (t == LW_INT32 && !(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                    int per = m == LW_PERIODIC;
                    int a12[2] = {1, 2}, a02[2] = {0, 2}, a23[2] = {2, 3};
                    struct {
                        int rank, naxes;
                        int64_t shape[4];
                        const int *axes;
                    } cs[] = {{3, 2, {8, 16, 16, 1}, a12},
                              {3, 2, {37, per ? 10 : 9, per ? 14 : 13, 1}, a12},
                              {3, 2, {per ? 12 : 13, 9, per ? 20 : 21, 1}, a02},
                              {4, 2, {3, 7, per ? 12 : 11, per ? 10 : 9}, a23},
                              {3, 2, {17, per ? 2 : 3, per ? 64 : 65, 1}, a12}};
                    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
                        for (int dir = 0; dir < 2; dir++) {
                            const int lmax = levels_in(cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_mode)m);
                            for (int levels = 1; levels <= lmax; levels += lmax > 1 ? lmax - 1 : 1) {
                                check(cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_wavelet)w, (lw_mode)m,
                                      (lw_layout)lay, (lw_dtype)t, levels, (lw_direction)dir, 70000);
                                same_as_nd(cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_wavelet)w,
                                           (lw_mode)m, (lw_layout)lay, (lw_dtype)t, levels, (lw_direction)dir);
                            }
                        }
                }
}

/* Integer inputs near the int32 limits: the fast path must hand over to the
 * exact computation and still equal the reference. */
static void int_limits(void)
{
    const lw_wavelet ws[5] = {LW_HAAR, LW_CDF53, LW_DD137, LW_FS, LW_DD97};
    const int64_t mags[3] = {1 << 20, 1 << 26, (int64_t)1 << 30};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            for (int dir = 0; dir < 2; dir++) {
                int64_t s2[2] = {23, 30}, s1[1] = {41};
                check(2, s2, 0, NULL, ws[i], LW_SYMMETRIC, LW_MALLAT, LW_INT32, -1, (lw_direction)dir, mags[j]);
                check(1, s1, 0, NULL, ws[i], LW_SYMMETRIC, LW_INTERLEAVED, LW_INT32, -1, (lw_direction)dir,
                      mags[j]);
            }
}

/* 3-D shapes large enough for several dim-1 tiles in the depth-0 ring (and
 * strips on 2+ threads), each layout, both modes and directions. */
static void tiles(void)
{
    int64_t s[3] = {12, 200, 400}, c[4] = {6, 1000, 2, 24}, st[3] = {70, 30, 36};
    int a01[2] = {0, 1};
    const lw_wavelet ws[3] = {LW_CDF97, LW_DD137, LW_HAAR};
    for (int i = 0; i < 3; i++)
        for (int m = 0; m < 2; m++)
            for (int dir = 0; dir < 2; dir++) {
                lw_layout lay = (lw_layout)((i + dir) & 1);
                check(3, s, 0, NULL, ws[i], (lw_mode)m, lay, LW_FLOAT32, 2, (lw_direction)dir, 0);
            }
    check(3, s, 0, NULL, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_INT32, 2, LW_FORWARD, 70000);
    check(3, s, 0, NULL, LW_CDF53, LW_PERIODIC, LW_INTERLEAVED, LW_INT32, 2, LW_INVERSE, 70000);
    check(3, s, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 1, LW_INVERSE, 0);
    /* rows of 48 contiguous batch elements, lifted along axes 0 and 1 */
    check(4, c, 2, a01, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2, LW_FORWARD, 0);
    check(4, c, 2, a01, LW_DD137, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 1, LW_INVERSE, 0);
    /* strips of axis 0 on 2+ threads */
    for (int dir = 0; dir < 2; dir++) {
        check(3, st, 0, NULL, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 2, (lw_direction)dir, 0);
        check(3, st, 0, NULL, LW_CDF53, LW_SYMMETRIC, LW_INTERLEAVED, LW_INT32, 2, (lw_direction)dir, 70000);
    }
}

/* The 3-D engine (fast_vol.c): rows whose halves fill whole vector blocks
 * (the kernel drops its margin blocks) and rows that do not, each mode,
 * layout and direction, multi-level (the lowpass buffer), and the tilings
 * chosen for other thread counts (units of tiles x strips, 1 to 16 threads). */
static void volumes(void)
{
    int64_t a[3] = {40, 70, 128}, b[3] = {9, 33, 100}, p[4] = {3, 20, 24, 64};
    int a123[3] = {1, 2, 3};
    for (int m = 0; m < 2; m++)
        for (int dir = 0; dir < 2; dir++)
            for (int lay = 0; lay < 2; lay++) {
                check(3, a, 0, NULL, LW_CDF97, (lw_mode)m, (lw_layout)lay, LW_FLOAT32, 2, (lw_direction)dir, 0);
                if (m == LW_SYMMETRIC)
                    check(3, b, 0, NULL, LW_CDF97, (lw_mode)m, (lw_layout)lay, LW_FLOAT32, 1, (lw_direction)dir, 0);
                check(3, a, 0, NULL, LW_CDF53, (lw_mode)m, (lw_layout)lay, LW_INT32, 2, (lw_direction)dir, 70000);
                check(3, a, 0, NULL, LW_FS, (lw_mode)m, (lw_layout)lay, LW_FLOAT64, 1, (lw_direction)dir, 0);
            }
    /* odd rows in both modes (periodic halo of another parity, an odd last
     * sample), float64 cdf97 (the four-step row kernels on double lanes) */
    int64_t o[3] = {9, 20, 37};
    for (int m = 0; m < 2; m++)
        for (int dir = 0; dir < 2; dir++) {
            check(3, o, 0, NULL, LW_CDF97, (lw_mode)m, LW_MALLAT, LW_FLOAT32, 1, (lw_direction)dir, 0);
            check(3, a, 0, NULL, LW_CDF97, (lw_mode)m, LW_MALLAT, LW_FLOAT64, 2, (lw_direction)dir, 0);
        }
    /* batches of volumes: (B, D, H, W) on 1, 2, 3 */
    check(4, p, 3, a123, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2, LW_FORWARD, 0);
    check(4, p, 3, a123, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 2, LW_INVERSE, 0);
    const int th[4] = {3, 5, 8, 16};
    for (int i = 0; i < 4; i++) {
        lw_test_threads = th[i];
        check(3, a, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1, LW_FORWARD, 0);
        check(3, a, 0, NULL, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 1, LW_INVERSE, 0);
        check(3, b, 0, NULL, LW_DD137, LW_SYMMETRIC, LW_INTERLEAVED, LW_FLOAT32, 1, LW_INVERSE, 0);
    }
    /* the inverse with the rows last (rows of whole merged blocks): odd
     * dims 0 and 1 (periodic: halo planes and rows of the other parity),
     * every level (the lowpass buffer), both float types, 1 to 16 threads */
    int64_t q[3] = {37, 21, 96};
    const int tq[4] = {1, 2, 7, 16};
    for (int i = 0; i < 4; i++) {
        lw_test_threads = tq[i];
        for (int m = 0; m < 2; m++) {
            check(3, q, 0, NULL, LW_CDF97, (lw_mode)m, LW_MALLAT, LW_FLOAT32, LW_LEVELS_MAX, LW_INVERSE, 0);
            check(3, q, 0, NULL, LW_CDF97, (lw_mode)m, LW_MALLAT, LW_FLOAT64, 1, LW_INVERSE, 0);
        }
    }
    lw_test_threads = 0; /* back to the OpenMP default */
}

/* Units split while they run (fast_vol_queue.c): one unit (forced with
 * the tuning vol_split=1x1) on 4 threads, so that three threads split it at
 * whatever planes it has reached; the forward, the inverse with the rows
 * last and the one with the rows first (interleaved), each mode.  Where the
 * splits fall depends on timing, so each case runs a few times and at least
 * one run must have split (the engine's timeline counts the parts). */
static void splits(void)
{
    static lw_vol_trace tr;
    int64_t v[3] = {160, 24, 64};
    long runs = 0, split = 0;
    char tb[600];
    const char *base = lw_test_tuning();
    snprintf(tb, sizeof tb, "%s%svol_split=1x1", base ? base : "", base ? "," : "");
    lw_test_tuning_set(tb);
    lw_test_threads = 4;
    for (int rep = 0; rep < 3; rep++)
        for (int m = 0; m < 2; m++)
            for (int dir = 0; dir < 2; dir++)
                for (int lay = 0; lay < 2; lay++) {
                    memset(&tr, 0, sizeof tr);
                    lw_vol_trace_sink = &tr;
                    check(3, v, 0, NULL, lay ? LW_DD137 : LW_CDF97, (lw_mode)m, (lw_layout)lay, LW_FLOAT32, 1,
                          (lw_direction)dir, 0);
                    lw_vol_trace_sink = NULL;
                    int parts = 0;
                    for (int t = 0; t < tr.nthreads && t < LW_TRACE_THREADS; t++) parts += tr.units[t];
                    runs++;
                    split += parts > 1;
                }
    /* on a loaded machine (ctest -j on 2 cores) a small unit may end before
     * the other threads are scheduled: then longer units until one splits */
    int64_t big[3] = {256, 64, 128};
    for (int rep = 0; rep < 20 && !split; rep++) {
        memset(&tr, 0, sizeof tr);
        lw_vol_trace_sink = &tr;
        check(3, big, 0, NULL, LW_CDF97, (lw_mode)(rep & 1), LW_MALLAT, LW_FLOAT32, 1, (lw_direction)(rep >> 1 & 1), 0);
        lw_vol_trace_sink = NULL;
        int parts = 0;
        for (int t = 0; t < tr.nthreads && t < LW_TRACE_THREADS; t++) parts += tr.units[t];
        runs++;
        split += parts > 1;
    }
    CHECK(split > 0, "no unit was split in %ld runs of one unit on 4 threads", runs);
    printf("splits: %ld of %ld runs split the unit\n", split, runs);
    lw_test_tuning_set(NULL);
    lw_test_threads = 0;
}

/* Multi-level float32 cdf97 / dd137 on a larger image stays inside 1e-5. */
static void float_depth(void)
{
    int64_t s[2] = {256, 192};
    check(2, s, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, LW_LEVELS_MAX, LW_FORWARD, 0);
    check(2, s, 0, NULL, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, LW_LEVELS_MAX, LW_INVERSE, 0);
    check(2, s, 0, NULL, LW_DD137, LW_SYMMETRIC, LW_INTERLEAVED, LW_FLOAT32, LW_LEVELS_MAX, LW_FORWARD, 0);
    check(2, s, 0, NULL, LW_DD137, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, LW_LEVELS_MAX, LW_INVERSE, 0);
}

/* Tuning and thread counts are validated at plan creation: an unknown key,
 * a bad value or a SIMD path this CPU lacks fails with a message naming
 * it (never silently ignored). */
static lw_status plan_with(const char *tuning, int threads)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = c.shape[1] = 16;
    c.backend = LW_BACKEND_CPU;
    c.tuning = tuning;
    c.threads = threads;
    lw_plan *p = NULL;
    lw_status s = lw_plan_create(&p, &c);
    lw_destroy(p);
    n_cases++;
    return s;
}

static void bad_tuning(void)
{
    static const struct {
        const char *tuning, *says;
    } bad[] = {
        {"simd=avx3", "scalar sse2 avx2 avx512"}, {"ring=4", "unknown key 'ring'"},
        {"ring_kb=-1", "ring_kb=-1"},            {"prefetch=2", "prefetch=2"},
        {"walk_kb", "not KEY=VALUE"},            {"vol_split=4", "AxB"},
        {"vol_split=0x3", "AxB"},                {"stream=fast", "auto cached streaming"},
        {"split_min=1e3", "split_min=1e3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lw_status s = plan_with(bad[i].tuning, 0);
        CHECK(s == LW_ERR_INVALID_ARGUMENT, "tuning '%s': status %d, not LW_ERR_INVALID_ARGUMENT", bad[i].tuning,
              (int)s);
        CHECK(strstr(lw_last_error(), bad[i].says) != NULL, "tuning '%s': message '%s' lacks '%s'", bad[i].tuning,
              lw_last_error(), bad[i].says);
    }
    CHECK(plan_with("simd=scalar,stream=cached,ring_kb=512,prefetch=0,walk=0,walk_kb=8,split_min=0,vol_split=2x3", 3) ==
              LW_OK,
          "every knob: %s", lw_last_error());
    CHECK(plan_with(NULL, LW_MAX_THREADS + 1) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "threads"),
          "threads above LW_MAX_THREADS: %s", lw_last_error());
    CHECK(plan_with(NULL, -1) == LW_ERR_INVALID_ARGUMENT, "negative threads");
    for (int s = 1; s < LW_SIMD_COUNT; s++)
        if (!lw_simd_supported((lw_simd)s)) {
            char t[32];
            snprintf(t, sizeof t, "simd=%s", lw_simd_name((lw_simd)s));
            CHECK(plan_with(t, 0) == LW_ERR_UNSUPPORTED && strstr(lw_last_error(), "not available"),
                  "%s on a CPU without it: %s", t, lw_last_error());
        }
}

/* The "in place" line of a cpu plan's description: 1 with the bytes of rows
 * kept where every level runs in the array, 0 where the input is copied first */
static int in_place_route(const lw_plan *p, size_t *kept)
{
    char d[4096];
    const char *key = "in place (in == out): ";
    unsigned long long k = 0;
    *kept = 0;
    if (lw_plan_describe(p, d, sizeof d) != LW_OK) return -1;
    const char *l = strstr(d, key);
    if (!l) return -1;
    l += strlen(key);
    if (strncmp(l, "the input copied first", 22) == 0) return 0;
    if (sscanf(l, "every level in the array (%llu bytes of rows kept)", &k) != 1) return -1;
    *kept = (size_t)k;
    return 1;
}

/* In place without a copy of the input or lowpass buffers, every level in the array: lines, 2-D
 * and 3-D levels on the nd engine (segments and strips that keep the samples, rows or planes
 * their windows read beyond them; 1 to 7 threads; Mallat levels with the rows or planes in
 * sample order, then moved along their cycles), batches of small planes on the planes engine;
 * volumes on the vol engine (strips of whole planes that keep theirs); the integer transforms
 * (a flagged one undone in the array and recomputed) and fs over two or three axes too, both
 * layouts; Mallat lines longer than a segment lifted in sample order and then reordered (chunks
 * within themselves, their halves along cycles, the short chunk's lowpass half rotated).
 * Each case equals the reference and, bit for bit, out of place; it takes the route expected
 * and keeps at most 2E sub-blocks a strip with no more strips than threads unless those stay
 * within 1% of the array. */
static void in_place(void)
{
    static const int threads[] = {1, 3, 7};
    int a12[2] = {1, 2}, a1[1] = {1}, a0[1] = {0}, a01[2] = {0, 1}, a012[3] = {0, 1, 2};
    long direct = 0, copied = 0;
    g_in_place = 1;
    for (size_t ti = 0; ti < sizeof threads / sizeof threads[0]; ti++) {
        lw_test_threads = threads[ti];
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int m = 0; m < 2; m++)
                for (int lay = 0; lay < 2; lay++)
                    for (int t = 0; t < 3; t++) {
                        if (t == LW_INT32 && !(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                        const int per = m == LW_PERIODIC;
                        struct {
                            int rank, naxes;
                            int64_t shape[4];
                            const int *axes;
                            int inp; /* in place on the array (separable float) */
                        } cs[] = {{2, 0, {per ? 600 : 601, per ? 34 : 33, 1}, NULL, 1}, /* up to 9 strips */
                                  {2, 0, {per ? 150 : 151, per ? 38 : 37, 1}, NULL, 1},
                                  {3, 2, {3, per ? 132 : 131, per ? 18 : 17}, a12, 1}, /* batch, nd */
                                  {3, 2, {24, per ? 12 : 11, 16}, a12, 1},             /* planes */
                                  {1, 0, {per ? 9000 : 9001, 1, 1}, NULL, 1}, /* a line: segments on 2+ threads */
                                  {2, 1, {5, per ? 300 : 301, 1}, a1, 1},     /* lines of a batch */
                                  {1, 0, {per ? 70000 : 70001, 1, 1}, NULL, 1}, /* segments (Mallat: reordered) */
                                  {2, 1, {3, per ? 40000 : 40001, 1}, a1, 1},   /* long lines of a batch */
                                  {2, 1, {per ? 40000 : 40001, 3, 1}, a0, 1},   /* long lines of stride 3 */
                                  /* a volume of 3-channel samples (the nd engine: vol takes single ones) */
                                  {4, 3, {per ? 20 : 21, per ? 12 : 11, per ? 18 : 17, 3}, a012, 1},
                                  {3, 2, {per ? 30 : 31, per ? 10 : 9, 64}, a01, 1}, /* 64 channels: rows of 64 */
                                  {3, 0, {per ? 70 : 71, per ? 10 : 9, 16}, NULL, 1}}; /* the vol engine: 2 strips */
                        for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
                            for (int dir = 0; dir < 2; dir++) {
                                const int lmax =
                                    levels_in(cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_mode)m);
                                const int levels = (k & 1) ? lmax : lmax > 1 ? 2 : lmax;
                                lw_plan *p = NULL;
                                if (lw_test_plan(&p, cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_wavelet)w,
                                                 (lw_mode)m, (lw_layout)lay, (lw_dtype)t, levels, (lw_direction)dir,
                                                 LW_BACKEND_CPU) != LW_OK) {
                                    CHECK(0, "plan: %s", lw_last_error());
                                    continue;
                                }
                                size_t kept = 0;
                                const int route = in_place_route(p, &kept);
                                int64_t total = 1;
                                for (int i = 0; i < cs[k].rank; i++) total *= cs[k].shape[i];
                                const size_t es = lw_dtype_size((lw_dtype)t);
                                const lw_fast_plan *fp = (const lw_fast_plan *)p->impl;
                                const int want = cs[k].inp;
                                CHECK(route == want, "%s %s %s %s shape %d: in-place route %d, expected %d",
                                      lw_wavelet_name((lw_wavelet)w), lw_mode_name((lw_mode)m),
                                      lw_layout_name((lw_layout)lay), lw_dtype_name((lw_dtype)t), (int)k, route, want);
                                /* strips of the first transformed axis: 2E of its sub-blocks (rows,
                                 * planes) each, no more than the threads unless within 1% */
                                const int64_t n0 = cs[k].shape[cs[k].naxes ? cs[k].axes[0] : 0];
                                const size_t per_strip = (size_t)(2 * fp->E) * (size_t)(total / n0) * es;
                                const size_t bound = (size_t)threads[ti] * per_strip;
                                const size_t pct = (size_t)total * es / 100;
                                CHECK(kept <= (bound > pct + per_strip ? bound : pct + per_strip),
                                      "%s shape %d on %d threads: %zu bytes kept (a strip %zu, 1%% %zu)",
                                      lw_wavelet_name((lw_wavelet)w), (int)k, threads[ti], kept, per_strip, pct);
                                direct += route == 1, copied += route == 0;
                                /* in place gives the bits out of place gives */
                                const size_t bytes = (size_t)total * es;
                                char *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
                                fill(x, (lw_dtype)t, total, 70000);
                                memcpy(z, x, bytes);
                                lw_status e1 = lw_execute(p, x, y), e2 = lw_execute(p, z, z);
                                CHECK(e1 == e2 && (e1 != LW_OK || memcmp(y, z, bytes) == 0),
                                      "%s %s %s %s shape %d %s: in place differs from out of place (%s)",
                                      lw_wavelet_name((lw_wavelet)w), lw_mode_name((lw_mode)m),
                                      lw_layout_name((lw_layout)lay), lw_dtype_name((lw_dtype)t), (int)k,
                                      dir ? "inverse" : "forward", lw_last_error());
                                free(x), free(y), free(z);
                                lw_destroy(p);
                                check(cs[k].rank, cs[k].shape, cs[k].naxes, cs[k].axes, (lw_wavelet)w, (lw_mode)m,
                                      (lw_layout)lay, (lw_dtype)t, levels, (lw_direction)dir, 70000);
                            }
                    }
    }
    /* tuning inplace=copy: the copy, by choice, with the same bits */
    {
        int64_t vs[3] = {22, 10, 12};
        char tb[600];
        const char *base = lw_test_tuning();
        snprintf(tb, sizeof tb, "%s%sinplace=copy", base ? base : "", base ? "," : "");
        lw_test_tuning_set(tb);
        lw_plan *p = NULL;
        size_t kept = 0;
        CHECK(lw_test_plan(&p, 3, vs, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2, LW_FORWARD,
                           LW_BACKEND_CPU) == LW_OK &&
                  in_place_route(p, &kept) == 0,
              "tuning inplace=copy: the input is not copied first (%s)", lw_last_error());
        lw_destroy(p);
        for (int dir = 0; dir < 2; dir++)
            check(3, vs, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2, (lw_direction)dir, 0);
        lw_test_tuning_set(NULL);
    }
    /* integer transforms whose int32 lanes overflow: in place the array is undone by the opposite
     * direction's levels and recomputed exactly, so it ends as out of place ends (the same bits, or
     * the same LW_ERR_INTEGER_OVERFLOW where the result does not fit); on the nd, planes and vol
     * engines and lines, both layouts, 1 and 3 threads */
    {
        static const int64_t os[5][3] = {{301, 47, 1}, {24, 12, 16}, {71, 9, 16}, {9001, 1, 1}, {40001, 1, 1}};
        static const int oranks[5] = {2, 3, 3, 1, 1}, onax[5] = {0, 2, 0, 0, 0};
        int oax[2] = {1, 2};
        long fits = 0, overflows = 0;
        for (int w = 0; w < LW_WAVELET_COUNT; w++) {
            if (!(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
            for (int k = 0; k < 5; k++)
                for (int lay = 0; lay < 2; lay++)
                    for (int dir = 0; dir < 2; dir++)
                        for (int big = 0; big < 2; big++) {
                            lw_test_threads = 1 + 2 * ((k + lay + dir) & 1);
                            const int64_t n = os[k][0] * os[k][1] * os[k][2];
                            const int levels = 2 + big;
                            lw_plan *p = NULL;
                            size_t kept = 0;
                            if (lw_test_plan(&p, oranks[k], os[k], onax[k], onax[k] ? oax : NULL, (lw_wavelet)w,
                                             LW_SYMMETRIC, (lw_layout)lay, LW_INT32, levels, (lw_direction)dir,
                                             LW_BACKEND_CPU) != LW_OK) {
                                CHECK(0, "overflow case: plan: %s", lw_last_error());
                                continue;
                            }
                            const int route = in_place_route(p, &kept);
                            const int want = 1; /* every one of these runs in the array */
                            CHECK(route == want, "%s int32 %s shape %d: in-place route %d, expected %d",
                                  lw_wavelet_name((lw_wavelet)w), lw_layout_name((lw_layout)lay), k, route, want);
                            int32_t *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4), *z = malloc((size_t)n * 4);
                            /* 2^28: lanes past the guard, results within int32; 2^30.9: results past it */
                            fill(x, LW_INT32, n, big ? 2000000000 : (int64_t)1 << 28);
                            memcpy(z, x, (size_t)n * 4);
                            const lw_status e1 = lw_execute(p, x, y), e2 = lw_execute(p, z, z);
                            CHECK(e1 == e2 && (e1 == LW_OK || e1 == LW_ERR_INTEGER_OVERFLOW) &&
                                      (e1 != LW_OK || memcmp(y, z, (size_t)n * 4) == 0),
                                  "%s int32 %s shape %d %s %d levels, overflowing lanes: in place %d, out of place %d%s",
                                  lw_wavelet_name((lw_wavelet)w), lw_layout_name((lw_layout)lay), k,
                                  dir ? "inverse" : "forward", levels, (int)e2, (int)e1,
                                  e1 == e2 ? ": the results differ" : "");
                            fits += e1 == LW_OK, overflows += e1 == LW_ERR_INTEGER_OVERFLOW;
                            free(x), free(y), free(z);
                            lw_destroy(p);
                            n_cases++;
                        }
        }
        lw_test_threads = 0;
        CHECK(fits > 0 && overflows > 0, "overflowing lanes: %ld results within int32, %ld past it", fits, overflows);
        printf("in place, overflowing int32 lanes: %ld results recomputed, %ld past int32\n", fits, overflows);
    }
    /* the half types (float32 in place on a scratch, either way): in place bit for bit as out of place */
    int64_t hs[2] = {301, 45};
    for (int t = LW_FLOAT16; t <= LW_BFLOAT16; t++)
        for (int lay = 0; lay < 2; lay++)
            for (int dir = 0; dir < 2; dir++) {
                lw_plan *p = NULL;
                const size_t n = (size_t)(hs[0] * hs[1]);
                uint16_t *x = malloc(n * 2), *y = malloc(n * 2), *z = malloc(n * 2);
                fill(x, (lw_dtype)t, (int64_t)n, 0);
                memcpy(z, x, n * 2);
                lw_status st = lw_test_plan(&p, 2, hs, 0, NULL, LW_CDF97, LW_SYMMETRIC, (lw_layout)lay, (lw_dtype)t, 2,
                                            (lw_direction)dir, LW_BACKEND_CPU);
                if (st == LW_OK) st = lw_execute(p, x, y);
                if (st == LW_OK) st = lw_execute(p, z, z);
                CHECK(st == LW_OK && memcmp(y, z, n * 2) == 0, "%s %s in place differs from out of place (%s)",
                      lw_dtype_name((lw_dtype)t), lw_layout_name((lw_layout)lay), lw_last_error());
                lw_destroy(p);
                free(x), free(y), free(z);
            }
    g_in_place = 0;
    lw_test_threads = 0;
    CHECK(direct > 0 && copied == 0, "in place: %ld cases without a copy, %ld with", direct, copied);
    printf("in place: %ld cases on the input, %ld with a copy first\n", direct, copied);
}

int main(void)
{
    const char *e = getenv("LW_CPU_SIMD");
    if (e && *e) {
        if (lw_simd_parse(e, &g_want) != LW_OK) {
            fprintf(stderr, "bad LW_CPU_SIMD '%s'\n", e);
            return 2;
        }
        if (!lw_simd_supported(g_want)) {
            printf("SKIP: no %s\n", e);
            return 77;
        }
    } else if (lw_simd_choose(0, &g_want) != LW_OK) {
        fprintf(stderr, "%s\n", lw_last_error());
        return 2;
    }
    lw_test_seed(20261123);
    printf("simd %s, threads %d\n", lw_simd_name(g_want), lw_cpu_threads(lw_test_threads));
    sweep();
    int_limits();
    /* 2^30 inputs overflow int32 in many of those cases: that path ran */
    CHECK(g_overflows > 0, "no integer case reported LW_ERR_INTEGER_OVERFLOW");
    float_depth();
    planes();
    tiles();
    volumes();
    splits();
    in_place();
    bad_tuning();
    printf("%ld cases (%d integer overflows reported by both backends)\n", n_cases, g_overflows);
    return lw_test_finish("test_cpu_fast");
}
