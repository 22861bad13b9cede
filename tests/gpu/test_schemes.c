/* Every scheme of the papers (lw_scheme.h registry) against the CPU
 * reference: each wavelet / integer flag / dtype / mode / direction the
 * scheme accepts, on odd and even sizes (2 .. 1920, batches), level counts up
 * to max, host and device pointers, in place and not; two larger sizes
 * (1999x1001, 2048x1536) for float32 cdf97 only.  Asserted: every scheme
 * takes what its family documents (documented(): float32 and float64, int32
 * where said, both modes) in both directions when it says it has an inverse
 * (the minimum: separable schemes, sweldens and monolithic*), and
 * the inverse undoes the forward (a round trip per wavelet, dtype and mode).
 * Then "fs" of the public list, the Faber-Schauder engine (-w fs only).
 *   LW_SCHEME_ONLY=name   test one scheme (fs too)
 *   LW_GPU_QUICK=1        fewer sizes (for compute-sanitizer); =2 one size (racecheck)
 *   LW_SCHEME_SHARD=i/k   every k-th (scheme, wavelet, dtype, mode) combination,
 *                         from the i-th (k processes side by side cover all)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"
#include "cuda/lw_scheme.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const lw_wavelet waves[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
#define NWAVES ((int)(sizeof waves / sizeof waves[0]))

/* Can the scheme plan this case?  (Creates and destroys a CUDA plan.) */
static int plan_ok(const gcase *c)
{
    lw_plan *p = NULL;
    lw_status s = make(&p, c, c->levels < 0 ? 1 : c->levels, LW_BACKEND_CUDA);
    lw_destroy(p);
    if (s != LW_OK && s != LW_ERR_UNSUPPORTED)
        CHECK(0, "scheme %s: plan status %d (%s)", c->scheme, (int)s, lw_last_error());
    return s == LW_OK;
}

static void base_case(gcase *c, const char *scheme, lw_wavelet w, lw_dtype t, lw_mode m, lw_direction d)
{
    memset(c, 0, sizeof *c);
    c->rank = 2, c->shape[0] = 64, c->shape[1] = 64;
    c->w = w, c->t = t, c->m = m, c->dir = d, c->lay = LW_MALLAT, c->levels = 1;
    c->scheme = scheme;
}

/* Sizes: (rows, cols); periodic mode needs even lengths at every level. */
static const int64_t sizes_any[][2] = {{2, 2}, {3, 5}, {5, 3}, {17, 33}, {64, 64}, {101, 77}, {256, 300},
                                        {513, 1025}, {1080, 1920}, {7, 700}, {700, 9}};
static const int64_t sizes_even[][2] = {{2, 2}, {4, 6}, {18, 34}, {64, 64}, {100, 78}, {256, 300}, {512, 1024},
                                         {1080, 1920}, {8, 700}, {700, 10}};
/* larger, few cases (float32 cdf97 only: the CPU reference is the slow part) */
static const int64_t sizes_large[][2] = {{1999, 1001}, {2048, 1536}};

static void sweep(const char *scheme, lw_wavelet w, lw_dtype t, lw_mode m, lw_direction d, int quick, long *nrun)
{
    int per = m == LW_PERIODIC;
    int ns = per ? (int)(sizeof sizes_even / sizeof sizes_even[0]) : (int)(sizeof sizes_any / sizeof sizes_any[0]);
    for (int i = 0; i < ns; i++) {
        if (quick == 1 && i % 3 != 1) continue;
        if (quick >= 2 && i != 6) continue; /* one multi-tile size (256 x 300) */
        const int64_t *sz = per ? sizes_even[i] : sizes_any[i];
        gcase c;
        base_case(&c, scheme, w, t, m, d);
        c.shape[0] = sz[0], c.shape[1] = sz[1];
        c.levels = i % 4 == 3 ? -1 : (i % 2 ? -2 : 1);
        c.devptr = i % 3 == 0;
        c.inplace = i % 5 == 4;
        run_case(&c);
        (*nrun)++;
    }
    /* a batch of planes: (B, H, W) over axes 1, 2 and (B1, B2, H, W) */
    gcase c;
    base_case(&c, scheme, w, t, m, d);
    c.rank = 3, c.shape[0] = 3, c.shape[1] = per ? 38 : 37, c.shape[2] = per ? 42 : 41;
    c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2, c.levels = -2, c.devptr = 1;
    if (quick < 2) run_case(&c);
    if (!quick) {
        base_case(&c, scheme, w, t, m, d);
        c.rank = 4, c.shape[0] = 2, c.shape[1] = 3, c.shape[2] = 20, c.shape[3] = per ? 30 : 31;
        c.naxes = 2, c.axes[0] = 2, c.axes[1] = 3, c.levels = 2;
        run_case(&c);
    }
    *nrun += quick ? (quick < 2) : 2;
}

static void sweep_large(const char *scheme, lw_mode m, lw_direction d, long *nrun)
{
    for (int i = 0; i < (int)(sizeof sizes_large / sizeof sizes_large[0]); i++) {
        if (m == LW_PERIODIC && (sizes_large[i][0] & 1 || sizes_large[i][1] & 1)) continue;
        gcase c;
        base_case(&c, scheme, LW_CDF97, LW_FLOAT32, m, d);
        c.shape[0] = sizes_large[i][0], c.shape[1] = sizes_large[i][1];
        c.levels = i ? -2 : 1;
        c.devptr = i;
        run_case(&c);
        (*nrun)++;
    }
}

/* What the family tables document (scheme_sep.c, scheme_block.c, lw_scheme.h):
 *   sep:H+V  float32 and float64 for haar, cdf53, cdf97, dd137, d4; int32 for
 *            the integer haar, cdf53, dd137; galiano: no int32, and in
 *            symmetric mode only the symmetric filters (cdf53, cdf97, dd137)
 *   block    float32 (both bufferings) and float64 (double buffering) for
 *            cdf53, cdf97, dd137; int32 for sweldens (cdf53, dd137)
 * every one in both modes (64x64 here), and both directions with an inverse. */
static int documented(const lwk_scheme *sc, lw_wavelet w, lw_dtype t, lw_mode m, lw_direction d)
{
    if (d == LW_INVERSE && !sc->has_inverse) return 0;
    if (strncmp(sc->name, "sep:", 4) == 0) {
        int galiano = strncmp(sc->name, "sep:galiano+", 12) == 0;
        int symf = w == LW_CDF53 || w == LW_CDF97 || w == LW_DD137;
        if (galiano && (t == LW_INT32 || (m == LW_SYMMETRIC && !symf))) return 0;
        if (t == LW_INT32) return w == LW_HAAR || w == LW_CDF53 || w == LW_DD137;
        return 1;
    }
    if (w != LW_CDF53 && w != LW_CDF97 && w != LW_DD137) return 0;
    int single = strstr(sc->name, ":single") != NULL;
    int sweldens = strncmp(sc->name, "sweldens", 8) == 0;
    if (t == LW_INT32) return sweldens && w != LW_CDF97;
    return t == LW_FLOAT32 || !single;
}

/* forward then inverse with the scheme gives the input back (float32 within
 * 1e-5 of max|x| per level, float64 1e-12, int32 exactly) */
static void roundtrip(const char *scheme, lw_wavelet w, lw_dtype t, lw_mode m, lw_layout lay)
{
    gcase c;
    base_case(&c, scheme, w, t, m, LW_FORWARD);
    c.lay = lay;
    c.shape[0] = m == LW_PERIODIC ? 128 : 101, c.shape[1] = m == LW_PERIODIC ? 96 : 77;
    int levels = 3;
    lw_plan *pf = NULL, *pi = NULL;
    lw_status sf = make(&pf, &c, levels, LW_BACKEND_CUDA);
    c.dir = LW_INVERSE;
    lw_status si = make(&pi, &c, levels, LW_BACKEND_CUDA);
    char txt[256];
    case_text(&c, pf ? lw_plan_config(pf) : NULL, txt, sizeof txt);
    CHECK(sf == LW_OK && si == LW_OK, "%s: round trip plans: forward %d, inverse %d (%s)", txt, (int)sf, (int)si,
          lw_last_error());
    if (sf == LW_OK && si == LW_OK) {
        int64_t n = c.shape[0] * c.shape[1];
        size_t bytes = (size_t)n * lw_dtype_size(t);
        void *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
        fill_rand(x, t, n);
        memset(z, 0xff, bytes);
        CHECK(lw_execute(pf, x, y) == LW_OK && lw_execute(pi, y, z) == LW_OK, "%s: round trip: %s", txt,
              lw_last_error());
        double err = 0, ref = 0;
        for (int64_t i = 0; i < n; i++) {
            double e = fabs(val(z, t, i) - val(x, t, i));
            err = e <= err ? err : isnan(e) ? INFINITY : e;
            ref = fmax(ref, fabs(val(x, t, i)));
        }
        double tol = t == LW_INT32 ? 0.0 : t == LW_FLOAT32 ? 1e-5 * levels : 1e-12;
        CHECK(err <= tol * ref, "%s: round trip error %g (max |x| %g)", txt, err, ref);
        free(x), free(y), free(z);
        g_cases++;
    }
    lw_destroy(pf);
    lw_destroy(pi);
}

/* "fs" of the public list (lw_scheme_name): the Faber-Schauder engine, for
 * the fs wavelet only, int32 and float, both layouts, both directions. */
static void test_fs(int quick)
{
    int i = lw_scheme_count() - 1;
    CHECK(i >= 0 && lw_scheme_name(i) && strcmp(lw_scheme_name(i), "fs") == 0, "fs is not the last public scheme");
    CHECK(lw_scheme_count() == lwk_scheme_count() + 1, "public list: %d schemes, registry %d + fs", lw_scheme_count(),
          lwk_scheme_count());
    if (quick >= 2) return; /* racecheck: the fs kernels have their own pass in test_gpu */
    static const lw_dtype types[] = {LW_INT32, LW_FLOAT32, LW_FLOAT64};
    long nrun = 0;
    for (int ti = 0; ti < 3; ti++)
        for (int m = 0; m <= 1; m++)
            for (int lay = 0; lay <= 1; lay++) {
                for (int d = 0; d <= 1; d++) {
                    gcase c;
                    base_case(&c, "fs", LW_FS, types[ti], (lw_mode)m, (lw_direction)d);
                    c.lay = lay ? LW_INTERLEAVED : LW_MALLAT;
                    CHECK(plan_ok(&c), "fs must take %s %s %s", lw_dtype_name(types[ti]), lw_mode_name((lw_mode)m),
                          d ? "inverse" : "forward");
                    c.shape[0] = m == LW_PERIODIC ? 256 : 257, c.shape[1] = m == LW_PERIODIC ? 300 : 301;
                    c.levels = -1, c.devptr = d;
                    run_case(&c);
                    nrun++;
                    if (quick) continue;
                    c.shape[0] = m == LW_PERIODIC ? 2048 : 1999, c.shape[1] = m == LW_PERIODIC ? 1536 : 1001;
                    c.levels = -2, c.inplace = lay;
                    run_case(&c);
                    nrun++;
                }
                roundtrip("fs", LW_FS, types[ti], (lw_mode)m, lay ? LW_INTERLEAVED : LW_MALLAT);
            }
    gcase c;
    base_case(&c, "fs", LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD);
    CHECK(!plan_ok(&c), "scheme fs accepted cdf97");
    printf("scheme %-22s %5ld cases (inverse: yes) takes: fs/int32 fs/float32 fs/float64\n", "fs", nrun);
}

int main(void)
{
    if (!lw_backend_available(LW_BACKEND_CUDA)) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    /* line by line, so that a shard stopped by a timeout still shows where it was */
    setvbuf(stdout, NULL, _IOLBF, 0);
    lw_test_seed(20261122);
    cudaStreamCreate(&g_stream);
    double t_start = now_s();
    const char *only = getenv("LW_SCHEME_ONLY");
    /* LW_SCHEME_SHARD=i/k: only every k-th combination of scheme, wavelet,
     * dtype and mode, and the per-scheme checks of the schemes whose registry
     * index is i modulo k (run.sh runs k shards side by side: the CPU
     * reference is the slow part, and a combination is a fairer unit than a
     * scheme, whose case counts differ by 4x) */
    int shard = 0, nshards = 1;
    if (getenv("LW_SCHEME_SHARD") && (sscanf(getenv("LW_SCHEME_SHARD"), "%d/%d", &shard, &nshards) != 2 ||
                                      nshards < 1 || shard < 0 || shard >= nshards)) {
        fprintf(stderr, "LW_SCHEME_SHARD must be i/k with 0 <= i < k\n");
        return 2;
    }
    int quick = getenv("LW_GPU_QUICK") ? (atoi(getenv("LW_GPU_QUICK")) >= 2 ? 2 : 1) : 0;
    int n = lwk_scheme_count();
    long combo = 0; /* combinations seen, for the shard */
    printf("%d schemes registered\n", n);
    for (int i = 0; i < n; i++) {
        const lwk_scheme *sc = lwk_scheme_at(i);
        CHECK(sc && sc->name && lwk_scheme_find(sc->name) == sc, "registry entry %d does not round-trip", i);
        if (!sc || (only && strcmp(only, sc->name) != 0)) continue;
        int mine = i % nshards == shard; /* the per-scheme checks */
        long nrun = 0;
        char took[512] = "";
        size_t o = 0;
        for (int wi = 0; wi < NWAVES; wi++)
            for (int integer = 0; integer <= 1; integer++)
                for (int ti = 0; ti < 2; ti++) {
                    lw_dtype t = integer ? LW_INT32 : (ti ? LW_FLOAT64 : LW_FLOAT32);
                    if (integer && ti) continue;
                    for (int m = 0; m <= 1; m++) {
                        if (combo++ % nshards != shard) continue;
                        printf("combo %s %s %s %s at %.1f s\n", sc->name, lw_wavelet_name(waves[wi]), lw_dtype_name(t),
                               lw_mode_name((lw_mode)m), now_s() - t_start);
                        int okd[2];
                        for (int d = 0; d <= 1; d++) {
                            gcase c;
                            base_case(&c, sc->name, waves[wi], t, (lw_mode)m, (lw_direction)d);
                            int ok = okd[d] = plan_ok(&c);
                            if (documented(sc, waves[wi], t, (lw_mode)m, (lw_direction)d))
                                CHECK(ok, "scheme %s must take %s %s %s %s", sc->name, lw_wavelet_name(waves[wi]),
                                      lw_dtype_name(t), lw_mode_name((lw_mode)m), d ? "inverse" : "forward");
                            if (!ok) continue;
                            if (m == 0 && d == 0 && o < sizeof took - 32)
                                o += (size_t)snprintf(took + o, sizeof took - o, " %s/%s", lw_wavelet_name(waves[wi]),
                                                      lw_dtype_name(t));
                            sweep(sc->name, waves[wi], t, (lw_mode)m, (lw_direction)d, quick, &nrun);
                            if (!quick && waves[wi] == LW_CDF97 && t == LW_FLOAT32)
                                sweep_large(sc->name, (lw_mode)m, (lw_direction)d, &nrun);
                        }
                        /* an inverse where the forward plans, and it undoes the forward */
                        if (sc->has_inverse && okd[0]) {
                            CHECK(okd[1], "scheme %s: forward %s %s %s plans, its inverse does not", sc->name,
                                  lw_wavelet_name(waves[wi]), lw_dtype_name(t), lw_mode_name((lw_mode)m));
                            if (okd[1] && quick < 2) roundtrip(sc->name, waves[wi], t, (lw_mode)m, LW_MALLAT);
                        }
                    }
                }
        if (!mine) {
            if (nrun) printf("scheme %-22s %5ld cases (shard %d/%d)\n", sc->name, nrun, shard, nshards);
            continue;
        }
        int sep = strncmp(sc->name, "sep:", 4) == 0;
        if (sep || strcmp(sc->name, "sweldens") == 0 || strcmp(sc->name, "monolithic*") == 0)
            CHECK(sc->has_inverse, "scheme %s must have an inverse", sc->name);
        /* a scheme refuses what it cannot do with a clear status */
        gcase c;
        base_case(&c, sc->name, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD);
        c.lay = LW_INTERLEAVED;
        CHECK(!plan_ok(&c), "scheme %s accepted the interleaved layout", sc->name);
        c.lay = LW_MALLAT, c.rank = 3, c.shape[2] = 8;
        CHECK(!plan_ok(&c), "scheme %s accepted a 3-D transform", sc->name);
        printf("scheme %-22s %5ld cases (inverse: %s) takes:%s\n", sc->name, nrun, sc->has_inverse ? "yes" : "no",
               took);
    }
    if ((!only || strcmp(only, "fs") == 0) && shard == nshards - 1) test_fs(quick);
    if (!only) {
        gcase c;
        base_case(&c, "no-such-scheme", LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD);
        CHECK(!plan_ok(&c), "an unknown scheme name was accepted");
    }
    printf("cases: %ld run\n", g_cases);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_schemes");
}
