/* float16 and bfloat16 on the CUDA backend (stored half, computed in float32):
 *   - random cases: every wavelet but fs x both modes x both layouts x 1-D /
 *     2-D / 3-D / batches over axes subsets x levels x the four directions x
 *     both half types, odd sizes, device and host pointers, in place and out
 *     of place, the engine auto or forced generic; each against the cpu
 *     backend's half result (the same transform computed in float32 and
 *     rounded once) and against the float64 reference of the widened input;
 *   - fixed cases that reach each engine (small, tile2d, tile2d-il, fused3d, 3d-yx, line1d, the
 *     generic pass's segments and its in-place walk + cycle reorder, the
 *     column pass) and the host-memory pipelines;
 *   - gains (lw_config.gain) against the cpu with the same gains;
 *   - refusals: fs, the integer variants, a paper's scheme (message checked);
 *     LW_BACKEND_AUTO on device pointers takes cuda;
 *   - timing lines (bfloat16 2-D and (B,C,H,W) haar against the device copy
 *     of the same bytes), information only.
 * Tolerance, relative to max |cpu result|, in units of the type's spacing
 * at 1 (u = 2^-10 float16, 2^-7 bfloat16): a kernel computes a whole level
 * (the fused engines) or an axis of a level (the generic pass) in float32 and
 * rounds at its store, so a plan of R rounding stores before the last may
 * differ from the cpu result (one rounding) by (1 + 3 R) u: the last
 * rounding's unit (float32 arithmetic order differs) plus each intermediate
 * rounding's half unit, amplified by the later steps (R at most levels x
 * axes - 1).  Plans with one store (the small engine on device pointers, one
 * level on one axis) must be within 1 u; copies (levels 0) exact.  The largest error seen per engine and type is printed.
 *   LW_GPU_CASES=N  random cases (default 1200)
 *   LW_GPU_QUICK=1  random cases only (for compute-sanitizer)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"
#include "core/half.h"

static double g_worst[LWE_COUNT][2]; /* largest error / u per engine, float16 / bfloat16 */
static long g_half_cases, g_refusals;

static int is_half(lw_dtype t) { return t == LW_FLOAT16 || t == LW_BFLOAT16; }
static double unit_of(lw_dtype t) { return t == LW_FLOAT16 ? 1.0 / 1024 : 1.0 / 128; }
static double widen(lw_dtype t, uint16_t h) { return t == LW_FLOAT16 ? lw_f16_to_f32(h) : lw_bf16_to_f32(h); }
static uint16_t narrow(lw_dtype t, float f) { return t == LW_FLOAT16 ? lw_f32_to_f16(f) : lw_f32_to_bf16(f); }

static lw_direction random_direction(void)
{
    static const lw_direction d[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
    return d[lw_rng_range(0, 3)];
}

static void random_half_case(gcase *c)
{
    memset(c, 0, sizeof *c);
    do c->w = (lw_wavelet)lw_rng_range(0, LW_WAVELET_COUNT - 1);
    while (!(lw_wavelet_properties(c->w) & LW_WAVELET_SEPARABLE));
    c->t = lw_rng_range(0, 1) ? LW_FLOAT16 : LW_BFLOAT16;
    c->m = (lw_mode)lw_rng_range(0, 1);
    c->lay = lw_rng_range(0, 2) == 0 ? LW_INTERLEAVED : LW_MALLAT;
    c->dir = random_direction();
    random_shape(c, 90000, 0);
    c->levels = -2;
    c->devptr = lw_rng_range(0, 2) != 0;
    c->inplace = lw_rng_range(0, 3) == 0;
    c->generic = lw_rng_range(0, 4) == 0;
}

/* Transformed axes of length > 1 (every axis when naxes is 0). */
static int active_axes(const gcase *c)
{
    int act = 0;
    if (c->naxes == 0)
        for (int i = 0; i < c->rank; i++) act += c->shape[i] > 1;
    else
        for (int i = 0; i < c->naxes; i++) act += c->shape[c->axes[i]] > 1;
    return act;
}

static void half_case(const gcase *c0)
{
    gcase c = *c0;
    int levels = c.levels;
    if (levels < 0) {
        int lmax = 0;
        lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &lmax);
        levels = levels == -1 ? lmax : (int)lw_rng_range(0, lmax);
        if (c.levels == -2 && lw_rng_range(0, 3) == 0) levels = lmax;
    }
    lw_plan *ph = NULL, *pc = NULL, *pe = NULL;
    lw_status sh = make(&ph, &c, levels, LW_BACKEND_CPU);
    while (sh == LW_ERR_ODD_PERIODIC && levels > 0) sh = make(&ph, &c, --levels, LW_BACKEND_CPU);
    lw_status sc = make(&pc, &c, levels, LW_BACKEND_CUDA);
    char txt[320];
    case_text(&c, ph ? lw_plan_config(ph) : NULL, txt, sizeof txt);
    CHECK(sc == sh, "%s: cuda plan status %d, cpu %d (%s)", txt, (int)sc, (int)sh, lw_last_error());
    gcase ce = c;
    ce.t = LW_FLOAT64;
    if (sh == LW_OK && sc == LW_OK) CHECK(make(&pe, &ce, levels, LW_BACKEND_CPU_REF) == LW_OK, "%s: reference plan", txt);
    if (sh != LW_OK || sc != LW_OK || !pe) {
        lw_destroy(ph), lw_destroy(pc), lw_destroy(pe);
        return;
    }
    const int eng = lw_cuda_plan_engine(pc);
    g_engine_count[eng]++;
    int64_t n = 1;
    for (int i = 0; i < c.rank; i++) n *= c.shape[i];
    size_t bytes = (size_t)n * 2;
    uint16_t *x = malloc(bytes), *yh = malloc(bytes), *yc = malloc(bytes), *xk = malloc(bytes);
    double *xe = malloc((size_t)n * sizeof(double)), *ye = malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        x[i] = narrow(c.t, (float)(lw_rng_unit() * 2 - 1));
        xe[i] = widen(c.t, x[i]);
    }
    CHECK(lw_execute(ph, x, yh) == LW_OK, "%s: cpu failed: %s", txt, lw_last_error());
    CHECK(lw_execute(pe, xe, ye) == LW_OK, "%s: reference failed: %s", txt, lw_last_error());
    lw_status se = run_cuda(&c, pc, x, yc, xk, bytes, txt);
    CHECK(se == LW_OK, "%s: cuda execute: %s", txt, lw_last_error());
    double err = 0, erre = 0, ref = 0;
    int64_t worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double g = widen(c.t, yc[i]), h = widen(c.t, yh[i]);
        double e = fabs(g - h);
        if (!(e <= err)) err = isnan(e) ? INFINITY : e, worst = i;
        double ee = fabs(g - ye[i]);
        if (!(ee <= erre)) erre = isnan(ee) ? INFINITY : ee;
        ref = fmax(ref, fabs(h));
    }
    const double u = unit_of(c.t), scale = ref > 0 ? ref : 1;
    const int act = active_axes(&c);
    /* rounding stores, the last included (host memory may split a plan in pipelined parts:
     * the bound of its levels and axes) */
    const int stores = eng == LWE_SMALL && c.devptr ? 1 : levels * act;
    const int R = stores > 1 ? stores - 1 : 0;
    if (levels == 0 || act == 0) {
        CHECK(memcmp(yc, yh, bytes) == 0, "%s [%s]: a copy differs from the input", txt, engine_name(eng));
    } else {
        const double tol = (1 + 3.0 * R) * u;
        CHECK(err <= tol * scale, "%s [%s]: max error vs cpu %g = %.2f u (allowed %.1f u) at %lld: cuda %g cpu %g", txt,
              engine_name(eng), err, err / (u * scale), tol / u, (long long)worst, widen(c.t, yc[worst]),
              widen(c.t, yh[worst]));
        CHECK(erre <= (tol + u) * scale, "%s [%s]: max error vs float64 %g = %.2f u (allowed %.1f u)", txt,
              engine_name(eng), erre, erre / (u * scale), tol / u + 1);
        double r = err / (u * scale);
        if (r > g_worst[eng][c.t == LW_BFLOAT16]) g_worst[eng][c.t == LW_BFLOAT16] = r;
    }
    free(x), free(yh), free(yc), free(xk), free(xe), free(ye);
    lw_destroy(ph), lw_destroy(pc), lw_destroy(pe);
    g_half_cases++;
}

/* ---- refusals ------------------------------------------------------------- */

static void expect_refusal(const lw_config *cfg, lw_status want, const char *a, const char *b, const char *what)
{
    lw_plan *p = NULL;
    lw_status st = lw_plan_create(&p, cfg);
    const char *m = lw_last_error();
    CHECK(st == want && p == NULL && strstr(m, a) && (!b || strstr(m, b)), "%s: status %d, want %d, message '%s'", what,
          (int)st, (int)want, m);
    lw_destroy(p);
    g_refusals++;
}

static void refusals(void)
{
    for (int t = 0; t < 2; t++) {
        lw_config cfg;
        lw_config_init(&cfg);
        cfg.rank = 2, cfg.shape[0] = 64, cfg.shape[1] = 48, cfg.levels = 2;
        cfg.dtype = t ? LW_BFLOAT16 : LW_FLOAT16;
        cfg.backend = LW_BACKEND_CUDA, cfg.flags = LW_FLAG_DEVICE_POINTERS;
        const char *tn = lw_dtype_name(cfg.dtype);
        cfg.wavelet = LW_FS;
        expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "non-separable", tn, "fs half on cuda");
        cfg.flags = 0;
        expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "non-separable", tn, "fs half on cuda, host memory");
        cfg.rank = 1, cfg.shape[0] = 100; /* 1-D fs is a lifting step, but the half kernels refuse it alike */
        expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "non-separable", tn, "1-D fs half on cuda");
        cfg.rank = 2, cfg.shape[0] = 64;
        cfg.wavelet = LW_CDF53, cfg.integer = 1, cfg.flags = LW_FLAG_DEVICE_POINTERS;
        expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "int32", tn, "integer half on cuda");
        cfg.integer = 0, cfg.scheme = "sweldens";
        if (lw_scheme_count() > 1) /* the papers' schemes built in (LW_CUDA_SCHEMES): refused for half data */
            expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "sweldens", tn, "paper scheme half on cuda");
        else /* built without them: the name is unknown */
            expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "unknown cuda scheme", "sweldens", "paper scheme half on cuda");
        /* the cpu backend refuses integer half alike (same message) */
        cfg.scheme = NULL, cfg.integer = 1, cfg.flags = 0, cfg.backend = LW_BACKEND_CPU;
        expect_refusal(&cfg, LW_ERR_UNSUPPORTED, "int32", tn, "integer half on cpu");
        /* AUTO: device pointers take cuda, host memory stays on a cpu backend */
        cfg.integer = 0, cfg.backend = LW_BACKEND_AUTO, cfg.flags = LW_FLAG_DEVICE_POINTERS;
        lw_plan *p = NULL;
        CHECK(lw_plan_create(&p, &cfg) == LW_OK && !strcmp(lw_plan_backend_name(p), "cuda"),
              "auto half on device pointers: %s (%s)", p ? lw_plan_backend_name(p) : "no plan", lw_last_error());
        lw_destroy(p);
        p = NULL;
        cfg.flags = 0;
        CHECK(lw_plan_create(&p, &cfg) == LW_OK && strncmp(lw_plan_backend_name(p), "cpu", 3) == 0,
              "auto half on host memory: %s (%s)", p ? lw_plan_backend_name(p) : "no plan", lw_last_error());
        lw_destroy(p);
    }
}

/* ---- fixed cases ---------------------------------------------------------- */

static const char *g_fixed_tuning; /* the plans' tuning in fixed() (NULL: none) */

static void fixed(int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w, lw_mode m, lw_layout lay,
                  int levels, int devptr, int inplace, const char *scheme)
{
    for (int t = 0; t < 2; t++)
        for (int d = 0; d < 4; d++) {
            static const lw_direction dirs[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = rank, c.naxes = naxes;
            for (int i = 0; i < rank; i++) c.shape[i] = shape[i];
            for (int i = 0; i < naxes; i++) c.axes[i] = axes[i];
            c.w = w, c.m = m, c.lay = lay, c.t = t ? LW_BFLOAT16 : LW_FLOAT16, c.levels = levels, c.dir = dirs[d];
            /* a named engine for the forward and the inverse; the adjoints by default
             * (the engines named here take no adjoint; the periodic ones run on a
             * transposed plan of the default engine) */
            c.devptr = devptr, c.inplace = inplace, c.scheme = d < 2 ? scheme : NULL, c.tuning = g_fixed_tuning;
            half_case(&c);
        }
}

static void fixed_cases(void)
{
    const int64_t s1[] = {300001}, s1e[] = {300000}, s2[] = {517, 389}, s2e[] = {1024, 768}, s3[] = {45, 37, 70}, s3e[] = {64, 48, 96},
                  s4[] = {3, 5, 17, 33}, sb[] = {12, 8, 64, 64}, sc[] = {70, 64, 33}, sv[] = {3, 20, 36, 72};
    const int64_t pb[] = {3, 200, 200}, p3[] = {6, 300, 260}, p2[] = {520, 512};
    const int64_t i2a[] = {300, 520}, i2b[] = {258, 1030};
    const int64_t t3[] = {20, 36, 80}, t4[] = {2, 18, 34, 80}; /* rows whole 16-byte units: TMA on sm_90 */
    const int ax2[] = {2, 3}, ax3[] = {1, 2, 3}, ax12[] = {1, 2};
    for (int wi = 0; wi < LW_WAVELET_COUNT; wi++) {
        lw_wavelet w = (lw_wavelet)wi;
        if (!(lw_wavelet_properties(w) & LW_WAVELET_SEPARABLE)) continue;
        fixed(2, s2e, 0, NULL, w, LW_PERIODIC, LW_MALLAT, -1, 1, 0, NULL);   /* tile2d, small tail */
        fixed(2, s2, 0, NULL, w, LW_SYMMETRIC, LW_MALLAT, 3, 1, 0, NULL);    /* odd sizes */
        fixed(3, s3e, 0, NULL, w, LW_PERIODIC, LW_MALLAT, 2, 1, 0, NULL);    /* fused3d pyramid */
        fixed(3, s3e, 0, NULL, w, LW_PERIODIC, LW_MALLAT, 1, 1, 0, "3d-zx"); /* fused planes + column pass */
        fixed(3, s3, 0, NULL, w, LW_SYMMETRIC, LW_MALLAT, 2, 1, 0, NULL);
        fixed(4, s4, 2, ax2, w, LW_SYMMETRIC, LW_INTERLEAVED, -1, 1, 0, NULL); /* batch of small items */
        fixed(4, sb, 3, ax3, w, LW_PERIODIC, LW_MALLAT, 2, 1, 0, NULL);        /* (B*C,T,H,W) 3-D */
        fixed(4, sv, 3, ax3, w, LW_PERIODIC, LW_MALLAT, 2, 1, 0, "fused3d");   /* a batch on the fused 3-D engine */
        fixed(3, t3, 0, NULL, w, LW_SYMMETRIC, LW_MALLAT, 1, 1, 0, "fused3d"); /* the raw planes by TMA */
        fixed(3, t3, 0, NULL, w, LW_SYMMETRIC, LW_MALLAT, -1, 1, 0, "fused3d");
        fixed(4, t4, 3, ax3, w, LW_SYMMETRIC, LW_MALLAT, 2, 1, 0, "fused3d");
        /* plane passes (k_plane.cu) in place: a batch, a volume's (y, x) planes, one image's pyramid */
        fixed(3, pb, 2, ax12, w, LW_SYMMETRIC, LW_MALLAT, 1, 1, 1, NULL);
        fixed(3, p3, 0, NULL, w, LW_PERIODIC, LW_INTERLEAVED, 1, 1, 1, NULL);
        fixed(2, p2, 0, NULL, w, LW_SYMMETRIC, LW_MALLAT, -1, 1, 1, NULL);
        /* the interleaved engine out of place: level 1 by the fused 2-D tiles (16-byte rows and not) */
        fixed(2, i2a, 0, NULL, w, LW_SYMMETRIC, LW_INTERLEAVED, 1, 1, 0, "tile2d-il");
        fixed(2, i2b, 0, NULL, w, LW_PERIODIC, LW_INTERLEAVED, -1, 1, 0, "tile2d-il");
        /* ... and a forward's levels 2.. on compact grids, odd at every level (auto) */
        fixed(2, s2, 0, NULL, w, LW_SYMMETRIC, LW_INTERLEAVED, 3, 1, 0, NULL);
    }
    /* the local engine's 64-sample blocks (2-D three levels, 3-D two) in each register bound, level 1
     * slab by slab and not */
    static const char *bounds[] = {"local_bound=none,local_slabs=on", "local_bound=4,local_slabs=off",
                                   "local_bound=5,local_slabs=on", "local_bound=6,local_slabs=off",
                                   "local_bound=none,local_slabs=off", "local_bound=4,local_slabs=on",
                                   "local_bound=5,local_slabs=off", "local_bound=6,local_slabs=on"};
    const int64_t l2[] = {4, 64, 96}, l3[] = {2, 16, 32, 64};
    for (int bi = 0; bi < 8; bi++) {
        g_fixed_tuning = bounds[bi];
        fixed(3, l2, 2, ax12, LW_HAAR, LW_PERIODIC, LW_MALLAT, 3, 1, 0, "local");
        fixed(4, l3, 3, ax3, LW_HAAR, LW_PERIODIC, LW_MALLAT, 2, 1, 0, "local");
    }
    g_fixed_tuning = NULL;
    /* d4 in symmetric mode on the fused 3-D engine (mirror refreshed per step), every level */
    fixed(3, s3, 0, NULL, LW_D4, LW_SYMMETRIC, LW_MALLAT, -1, 1, 0, "fused3d");
    /* long lines: the long-line engine (auto: direct and held levels), and the generic pass's
     * segments, in place its walk and the cycle reorder */
    for (int g = 0; g < 2; g++) {
        fixed(1, s1, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 2, 1, 0, g ? "generic" : NULL);
        fixed(1, s1, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 2, 1, 1, g ? "generic" : NULL);
        fixed(1, s1e, 0, NULL, LW_DD137, LW_PERIODIC, LW_INTERLEAVED, 3, 1, 1, g ? "generic" : NULL);
    }
    fixed(1, s1, 0, NULL, LW_D4, LW_SYMMETRIC, LW_MALLAT, -1, 1, 0, "line1d");
    /* the column pass (strided axis 0 of a volume), in place */
    fixed(3, sc, 0, NULL, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, 1, 1, 1, "generic");
    /* host memory: the staged pipelines (2-D pyramid tail, 3-D slabs, batch groups) */
    const int64_t h2[] = {1536, 1032}, h3[] = {96, 80, 64}, hb[] = {6, 3, 128, 128};
    fixed(2, h2, 0, NULL, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 3, 0, 0, NULL);
    fixed(2, h2, 0, NULL, LW_HAAR, LW_PERIODIC, LW_MALLAT, 2, 0, 1, NULL);
    fixed(3, h3, 0, NULL, LW_CDF53, LW_PERIODIC, LW_MALLAT, 1, 0, 0, NULL);
    fixed(4, hb, 2, ax2, LW_HAAR, LW_PERIODIC, LW_MALLAT, 1, 0, 0, NULL);
}

/* Gains (lw_config.gain) as for float32: cuda and cpu with the same gains, every direction. */
static void gain_cases(void)
{
    for (int t = 0; t < 2; t++)
        for (int d = 0; d < 4; d++) {
            static const lw_direction dirs[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
            lw_config cfg;
            lw_config_init(&cfg);
            cfg.rank = 2, cfg.shape[0] = 250, cfg.shape[1] = 199, cfg.levels = 2, cfg.wavelet = LW_CDF97;
            cfg.dtype = t ? LW_BFLOAT16 : LW_FLOAT16, cfg.direction = dirs[d];
            cfg.gain[0] = 1.75, cfg.gain[1] = 0.625;
            lw_plan *ph = NULL, *pc = NULL;
            cfg.backend = LW_BACKEND_CPU;
            CHECK(lw_plan_create(&ph, &cfg) == LW_OK, "gain cpu plan: %s", lw_last_error());
            cfg.backend = LW_BACKEND_CUDA, cfg.flags = LW_FLAG_DEVICE_POINTERS;
            CHECK(lw_plan_create(&pc, &cfg) == LW_OK, "gain cuda plan: %s", lw_last_error());
            if (ph && pc) {
                const int64_t n = 250 * 199;
                const size_t bytes = (size_t)n * 2;
                uint16_t *x = malloc(bytes), *yh = malloc(bytes), *yc = malloc(bytes), *xk = malloc(bytes);
                for (int64_t i = 0; i < n; i++) x[i] = narrow(cfg.dtype, (float)(lw_rng_unit() * 2 - 1));
                gcase c;
                memset(&c, 0, sizeof c);
                c.devptr = 1;
                CHECK(lw_execute(ph, x, yh) == LW_OK, "gain cpu: %s", lw_last_error());
                CHECK(run_cuda(&c, pc, x, yc, xk, bytes, "gain") == LW_OK, "gain cuda: %s", lw_last_error());
                double err = 0, ref = 0;
                for (int64_t i = 0; i < n; i++) {
                    double e = fabs(widen(cfg.dtype, yc[i]) - widen(cfg.dtype, yh[i]));
                    if (!(e <= err)) err = isnan(e) ? INFINITY : e;
                    ref = fmax(ref, fabs(widen(cfg.dtype, yh[i])));
                }
                const double u = unit_of(cfg.dtype), tol = (1 + 3.0 * 3) * u; /* 2 levels x 2 axes */
                CHECK(err <= tol * (ref > 0 ? ref : 1), "gains 1.75, 0.625 %s %s: error %.2f u (allowed %.0f u)",
                      lw_dtype_name(cfg.dtype), lw_direction_str(cfg.direction), err / (u * (ref > 0 ? ref : 1)),
                      tol / u);
                free(x), free(yh), free(yc), free(xk);
                g_half_cases++;
            }
            lw_destroy(ph), lw_destroy(pc);
        }
}

/* ---- timing (information) --------------------------------------------------- */

static void timing_one(int rank, const int64_t *shape, int naxes, const int *axes, lw_wavelet w, int levels)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = rank, cfg.naxes = naxes;
    int64_t n = 1;
    for (int i = 0; i < rank; i++) cfg.shape[i] = shape[i], n *= shape[i];
    for (int i = 0; i < naxes; i++) cfg.axes[i] = axes[i];
    cfg.wavelet = w, cfg.mode = LW_PERIODIC, cfg.levels = levels, cfg.backend = LW_BACKEND_CUDA;
    cfg.flags = LW_FLAG_DEVICE_POINTERS;
    void *a = NULL, *b = NULL;
    if (cudaMalloc(&a, (size_t)n * 4) != cudaSuccess || cudaMalloc(&b, (size_t)n * 4) != cudaSuccess) {
        printf("timing: skipped (device memory)\n");
        cudaFree(a);
        return;
    }
    cudaMemset(a, 0, (size_t)n * 4);
    float copy[2] = {0, 0};
    for (int k = 0; k < 2; k++) { /* the device copy of the bytes a 2- and a 4-byte type moves */
        cudaEvent_t e0, e1;
        cudaEventCreate(&e0), cudaEventCreate(&e1);
        cudaEventRecord(e0, g_stream);
        for (int r = 0; r < 10; r++) cudaMemcpyAsync(b, a, (size_t)n * (k ? 4 : 2), cudaMemcpyDeviceToDevice, g_stream);
        cudaEventRecord(e1, g_stream);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&copy[k], e0, e1);
        copy[k] /= 10;
        cudaEventDestroy(e0), cudaEventDestroy(e1);
    }
    char shp[64];
    int o = 0;
    for (int i = 0; i < rank; i++) o += snprintf(shp + o, sizeof shp - o, i ? "x%lld" : "%lld", (long long)shape[i]);
    static const lw_dtype ts[] = {LW_BFLOAT16, LW_FLOAT16, LW_FLOAT32};
    for (int ti = 0; ti < 3; ti++)
        for (int d = 0; d < 2; d++) {
            cfg.dtype = ts[ti], cfg.direction = d ? LW_INVERSE : LW_FORWARD;
            lw_plan *p = NULL;
            if (lw_plan_create(&p, &cfg) != LW_OK) {
                printf("timing: %s: %s\n", shp, lw_last_error());
                continue;
            }
            lw_set_stream(p, g_stream);
            float ms = gpu_time_ms(p, a, b, g_stream), cp = copy[ts[ti] == LW_FLOAT32];
            printf("timing: %s %s %s %d levels %-8s %-7s %8.3f ms, %.2f of the device copy (%s)\n", shp,
                   lw_wavelet_name(w), lw_dtype_name(ts[ti]), levels, lw_direction_str(cfg.direction),
                   engine_name(lw_cuda_plan_engine(p)), ms, ms > 0 ? cp / ms : 0, "information");
            lw_destroy(p);
        }
    cudaFree(a), cudaFree(b);
}

static void timing(void)
{
    /* (B,C,T,H,W) as liftwave.torch hands it over: the batch dims merged */
    const int64_t s2[] = {8192, 8192}, s4[] = {64, 3, 512, 512}, s5[] = {24, 16, 256, 256};
    const int ax2[] = {2, 3}, ax3[] = {1, 2, 3};
    timing_one(2, s2, 0, NULL, LW_HAAR, 1);
    timing_one(2, s2, 0, NULL, LW_CDF97, 3);
    timing_one(4, s4, 2, ax2, LW_HAAR, 1);
    timing_one(4, s4, 2, ax2, LW_CDF97, 3);
    timing_one(4, s5, 3, ax3, LW_HAAR, 2);
}

int main(void)
{
    (void)run_case; /* gpu_common.h's float comparison: this program compares half itself */
    int skip = gpu_test_begin(1916);
    if (skip) return skip;
    const char *e = getenv("LW_GPU_CASES");
    const long ncases = e ? strtol(e, NULL, 10) : 1200;
    const int quick = getenv("LW_GPU_QUICK") != NULL;
    refusals();
    printf("refusals: %ld checked\n", g_refusals);
    for (long i = 0; i < ncases; i++) {
        gcase c;
        random_half_case(&c);
        if (!is_half(c.t)) continue;
        half_case(&c);
    }
    printf("random half cases: %ld run\n", g_half_cases);
    if (!quick) { /* quick: random cases only (for compute-sanitizer) */
        long before = g_half_cases;
        fixed_cases();
        gain_cases();
        printf("fixed half cases (gains included): %ld run\n", g_half_cases - before);
        timing();
    }
    for (int k = 0; k < LWE_COUNT; k++)
        if (g_engine_count[k])
            printf("engine %-8s used by %ld cases; largest error vs cpu: float16 %.2f u, bfloat16 %.2f u\n",
                   engine_name(k), g_engine_count[k], g_worst[k][0], g_worst[k][1]);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_gpu_half");
}
