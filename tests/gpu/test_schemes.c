/* Every scheme of the papers (lw_scheme.h registry) against the CPU
 * reference: each wavelet / integer flag / dtype / mode / direction the
 * scheme accepts, on odd and even sizes (2 .. 1025), batches, level counts up
 * to max, host and device pointers, in place and not.  The minimum
 * coverage is asserted: separable schemes take float32 cdf97 in both modes,
 * forward and inverse; block schemes take cdf53, cdf97 and dd137 forward in
 * both modes; sweldens and monolithic* have an inverse.
 *   LW_SCHEME_ONLY=name   test one scheme
 *   LW_GPU_QUICK=1        fewer sizes (for compute-sanitizer); =2 one size (racecheck)
 *   LW_SCHEME_SHARD=i/k   the schemes with registry index i modulo k
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"
#include "cuda/lw_scheme.h"

#include <stdio.h>
#include <stdlib.h>

static const lw_wavelet waves[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4};
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

static int needs(const lwk_scheme *sc, lw_wavelet w, lw_dtype t, lw_direction d)
{
    if (t != LW_FLOAT32) return 0;
    int sep = strncmp(sc->name, "sep:", 4) == 0;
    if (sep) return w == LW_CDF97;
    if (d == LW_INVERSE) return 0; /* checked separately below */
    return w == LW_CDF53 || w == LW_CDF97 || w == LW_DD137;
}

int main(void)
{
    if (!lw_backend_available(LW_BACKEND_CUDA)) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    lw_test_seed(20261122);
    cudaStreamCreate(&g_stream);
    const char *only = getenv("LW_SCHEME_ONLY");
    /* LW_SCHEME_SHARD=i/k: only the schemes whose registry index is i modulo k
     * (run.sh runs k shards side by side: the CPU reference is the slow part) */
    int shard = 0, nshards = 1;
    if (getenv("LW_SCHEME_SHARD") && (sscanf(getenv("LW_SCHEME_SHARD"), "%d/%d", &shard, &nshards) != 2 ||
                                      nshards < 1 || shard < 0 || shard >= nshards)) {
        fprintf(stderr, "LW_SCHEME_SHARD must be i/k with 0 <= i < k\n");
        return 2;
    }
    int quick = getenv("LW_GPU_QUICK") ? (atoi(getenv("LW_GPU_QUICK")) >= 2 ? 2 : 1) : 0;
    int n = lwk_scheme_count();
    printf("%d schemes registered\n", n);
    for (int i = 0; i < n; i++) {
        const lwk_scheme *sc = lwk_scheme_at(i);
        CHECK(sc && sc->name && lwk_scheme_find(sc->name) == sc, "registry entry %d does not round-trip", i);
        if (!sc || (only && strcmp(only, sc->name) != 0) || i % nshards != shard) continue;
        long nrun = 0;
        char took[512] = "";
        size_t o = 0;
        for (int wi = 0; wi < NWAVES; wi++)
            for (int integer = 0; integer <= 1; integer++)
                for (int ti = 0; ti < 2; ti++) {
                    lw_dtype t = integer ? LW_INT32 : (ti ? LW_FLOAT64 : LW_FLOAT32);
                    if (integer && ti) continue;
                    for (int m = 0; m <= 1; m++)
                        for (int d = 0; d <= 1; d++) {
                            gcase c;
                            base_case(&c, sc->name, waves[wi], t, (lw_mode)m, (lw_direction)d);
                            int ok = plan_ok(&c);
                            if (needs(sc, waves[wi], t, (lw_direction)d))
                                CHECK(ok, "scheme %s must take %s %s %s %s", sc->name, lw_wavelet_name(waves[wi]),
                                      lw_dtype_name(t), lw_mode_name((lw_mode)m), d ? "inverse" : "forward");
                            if (!ok) continue;
                            if (m == 0 && d == 0 && o < sizeof took - 32)
                                o += (size_t)snprintf(took + o, sizeof took - o, " %s/%s", lw_wavelet_name(waves[wi]),
                                                      lw_dtype_name(t));
                            sweep(sc->name, waves[wi], t, (lw_mode)m, (lw_direction)d, quick, &nrun);
                        }
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
    if (!only) {
        gcase c;
        base_case(&c, "no-such-scheme", LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD);
        CHECK(!plan_ok(&c), "an unknown scheme name was accepted");
    }
    printf("cases: %ld run\n", g_cases);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_schemes");
}
