/* The adjoint directions on the CUDA backend (docs/ADJOINT.md):
 *   - random cases (every wavelet x dtype x mode x layout x rank 1-4 with axes
 *     subsets and batches x levels x LW_FORWARD_ADJOINT / LW_INVERSE_ADJOINT,
 *     host and device pointers, in place and out of place) against the CPU
 *     reference; integer cases must fail alike (LW_ERR_UNSUPPORTED);
 *   - fixed cases that reach the generic pass's segments (long lines,
 *     periodic unwrapped windows), the column pass (strided axes of 3-D
 *     volumes), odd sizes, length-1 axes, and the orthogonal plans routed to
 *     the fused engines (haar, d4 periodic), and the same with band gains,
 *     which are not orthogonal (the transposed steps);
 *   - the dot-product identity <A x, y> = <x, A^T y> computed on the GPU
 *     alone (float64, relative 1e-12);
 *   - fs over several axes: LW_ERR_UNSUPPORTED with a message;
 *   - a timing line per direction (4096^2 cdf97 float32, device pointers,
 *     3 levels), information only.
 *   LW_GPU_CASES=N  random cases (default 1500)
 *   LW_GPU_QUICK=1  random cases only (for compute-sanitizer)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"

static lw_direction random_adjoint(void) { return lw_rng_range(0, 1) ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT; }

/* fs over several axes of length > 1: not offered by the cuda backend */
static int fs_multi(const gcase *c)
{
    if (c->w != LW_FS) return 0;
    int act = 0;
    if (c->naxes == 0)
        for (int i = 0; i < c->rank; i++) act += c->shape[i] > 1;
    else
        for (int i = 0; i < c->naxes; i++) act += c->shape[c->axes[i]] > 1;
    return act > 1;
}

static void random_adjoint_case(gcase *c)
{
    memset(c, 0, sizeof *c);
    c->w = (lw_wavelet)lw_rng_range(0, LW_WAVELET_COUNT - 1);
    int r = (int)lw_rng_range(0, 19);
    c->t = r == 0 ? LW_INT32 : (r < 10 ? LW_FLOAT64 : LW_FLOAT32);
    if (c->t == LW_INT32 && !(lw_wavelet_properties(c->w) & LW_WAVELET_INTEGER)) c->t = LW_FLOAT64;
    c->m = (lw_mode)lw_rng_range(0, 1);
    c->lay = lw_rng_range(0, 2) == 0 ? LW_INTERLEAVED : LW_MALLAT;
    c->dir = random_adjoint();
    random_shape(c, 60000, 0);
    c->levels = -2;
    c->devptr = lw_rng_range(0, 2) == 0;
    c->inplace = lw_rng_range(0, 3) == 0;
}

/* fs over several axes: the cuda plan fails clearly, the reference runs */
static void fs_unsupported(const gcase *c)
{
    lw_plan *p = NULL;
    lw_status st = make(&p, c, 1, LW_BACKEND_CUDA);
    CHECK(st == LW_ERR_UNSUPPORTED && p == NULL && strstr(lw_last_error(), "fs"),
          "fs adjoint over several axes on cuda: status %d (%s)", (int)st, lw_last_error());
    lw_destroy(p);
    st = make(&p, c, 1, LW_BACKEND_CPU_REF);
    CHECK(st == LW_OK, "fs adjoint on cpu-ref: %s", lw_last_error());
    lw_destroy(p);
}

static double dot(const void *a, const void *b, lw_dtype t, int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += val(a, t, i) * val(b, t, i);
    return s;
}

/* <A x, y> = <x, A^T y> with A (forward or inverse) and A^T both on cuda. */
static void identity_case(gcase c, lw_direction a)
{
    lw_direction adj = a == LW_FORWARD ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT;
    lw_plan *pa = NULL, *pt = NULL;
    c.dir = a;
    c.t = LW_FLOAT64;
    c.devptr = 0; /* host arrays here */
    int levels = c.levels < 0 ? 1 : c.levels;
    if (make(&pa, &c, levels, LW_BACKEND_CUDA) != LW_OK) {
        CHECK(0, "identity plan: %s", lw_last_error());
        return;
    }
    c.dir = adj;
    CHECK(make(&pt, &c, levels, LW_BACKEND_CUDA) == LW_OK, "identity adjoint plan: %s", lw_last_error());
    int64_t n = 1;
    for (int i = 0; i < c.rank; i++) n *= c.shape[i];
    size_t bytes = (size_t)n * 8;
    double *x = malloc(bytes), *y = malloc(bytes), *ax = malloc(bytes), *aty = malloc(bytes);
    fill_rand(x, LW_FLOAT64, n);
    fill_rand(y, LW_FLOAT64, n);
    if (pt) {
        CHECK(lw_execute(pa, x, ax) == LW_OK && lw_execute(pt, y, aty) == LW_OK, "identity execute: %s",
              lw_last_error());
        double lhs = dot(ax, y, LW_FLOAT64, n), rhs = dot(x, aty, LW_FLOAT64, n);
        double sc = sqrt(dot(ax, ax, LW_FLOAT64, n) * dot(y, y, LW_FLOAT64, n)) +
                    sqrt(dot(x, x, LW_FLOAT64, n) * dot(aty, aty, LW_FLOAT64, n));
        CHECK(fabs(lhs - rhs) <= 1e-12 * sc, "%s %s: <Ax,y> %.17g vs <x,A^T y> %.17g (engine %s)",
              lw_wavelet_name(c.w), lw_direction_str(adj), lhs, rhs, engine_name(lw_cuda_plan_engine(pt)));
    }
    free(x), free(y), free(ax), free(aty);
    lw_destroy(pa);
    lw_destroy(pt);
}

/* The engine of case c's cuda plan: the generic pass, or for an orthogonal
 * plan (routed, as_inverse) the engine of the plain inverse of the same
 * configuration. */
static void expect_engine(const gcase *c, int as_inverse)
{
    int levels = c->levels;
    if (levels < 0) lw_max_levels(c->rank, c->shape, c->naxes, c->axes, &levels);
    lw_plan *p = NULL, *q = NULL;
    lw_status st = make(&p, c, levels, LW_BACKEND_CUDA);
    int got = st == LW_OK ? lw_cuda_plan_engine(p) : -1, want = LWE_GENERIC;
    if (as_inverse) {
        gcase ci = *c;
        ci.dir = c->dir == LW_FORWARD_ADJOINT ? LW_INVERSE : LW_FORWARD;
        want = make(&q, &ci, levels, LW_BACKEND_CUDA) == LW_OK ? lw_cuda_plan_engine(q) : -2;
        CHECK(p && lw_plan_config(p)->direction == ci.dir, "%s %s: not run as %s", lw_wavelet_name(c->w),
              lw_direction_str(c->dir), lw_direction_str(ci.dir));
    }
    CHECK(got == want, "%s %s: engine %s, expected %s (%s)", lw_wavelet_name(c->w), lw_direction_str(c->dir),
          engine_name(got), engine_name(want), st == LW_OK ? "" : lw_last_error());
    lw_destroy(p);
    lw_destroy(q);
}

static void fixed_cases(void)
{
    static const struct {
        int rank;
        int64_t s0, s1, s2;
        int naxes, a0, a1;
        lw_wavelet w;
        lw_mode m;
        lw_layout lay;
        int levels;
        int orthogonal; /* runs as the inverse (forward): that engine; else the generic pass */
    } F[] = {
        {1, 100000, 0, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 3, 0},    /* segments */
        {1, 100001, 0, 0, 0, 0, 0, LW_DD137, LW_SYMMETRIC, LW_INTERLEAVED, 4, 0},
        {1, 60000, 0, 0, 0, 0, 0, LW_CDF97, LW_PERIODIC, LW_MALLAT, 2, 0},      /* unwrapped windows */
        {1, 50001, 0, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_INTERLEAVED, 4, 0},
        {2, 1080, 1920, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 3, 0},
        {2, 1081, 1919, 0, 0, 0, 0, LW_DD97, LW_SYMMETRIC, LW_MALLAT, -1, 0},
        {2, 4097, 33, 0, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, 3, 0},
        {2, 33, 4097, 0, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_INTERLEAVED, 3, 0},
        {3, 64, 64, 64, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 2, 0},      /* column pass */
        {3, 34, 40, 50, 0, 0, 0, LW_CDF53, LW_PERIODIC, LW_MALLAT, 1, 0},
        {3, 3, 300, 200, 2, 1, 2, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 2, 0},     /* batch */
        {3, 300, 3, 201, 2, 0, 2, LW_DD137, LW_SYMMETRIC, LW_MALLAT, 2, 0},
        {2, 1, 5000, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, 3, 0},      /* length-1 axis */
        {1, 257, 0, 0, 0, 0, 0, LW_FS, LW_SYMMETRIC, LW_MALLAT, -1, 0},         /* fs in 1-D: lifting */
        {2, 512, 512, 0, 0, 0, 0, LW_HAAR, LW_PERIODIC, LW_MALLAT, 3, 1}, /* orthogonal: the inverse */
        {2, 512, 512, 0, 0, 0, 0, LW_D4, LW_PERIODIC, LW_MALLAT, 2, 1},
        {2, 512, 512, 0, 0, 0, 0, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, 4, 1},
        {2, 513, 300, 0, 0, 0, 0, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, 2, 0},      /* odd: not orthogonal */
        {2, 513, 300, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_MALLAT, 2, 0},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = F[i].rank, c.shape[0] = F[i].s0, c.shape[1] = F[i].s1, c.shape[2] = F[i].s2;
            c.naxes = F[i].naxes, c.axes[0] = F[i].a0, c.axes[1] = F[i].a1;
            c.w = F[i].w, c.m = F[i].m, c.lay = F[i].lay, c.levels = F[i].levels;
            c.t = (v & 1) ? LW_FLOAT64 : LW_FLOAT32;
            c.dir = (v & 2) ? LW_INVERSE_ADJOINT : LW_FORWARD_ADJOINT;
            c.devptr = v == 1, c.inplace = v == 3;
            if (v < 4 && !(v & 1)) expect_engine(&c, F[i].orthogonal);
            run_case(&c);
            if (v == 0) {
                c.levels = F[i].levels < 0 ? 2 : F[i].levels;
                identity_case(c, LW_FORWARD);
                identity_case(c, LW_INVERSE);
            }
        }
}

/* Orthonormal wavelets with band gains are no longer orthogonal: their periodic adjoints run
 * the transposed steps (no fused kernel holds those rows), and agree with the CPU reference.
 * Shapes for the small engine, tile2d and fused3d. */
static void gained_orthonormal_cases(void)
{
    static const int64_t S[][3] = {{4, 10, 18}, {64, 64, 0}, {8, 96, 80}, {2, 6, 32}};
    static const int R[] = {3, 2, 3, 3};
    static const double G[][2] = {{0, 1.4142135623730951}, {-0.5, 2}};
    static const lw_wavelet W[] = {LW_HAAR, LW_D4};
    for (size_t si = 0; si < sizeof R / sizeof R[0]; si++)
        for (int k = 0; k < 16; k++) {
            lw_config c;
            lw_config_init(&c);
            c.rank = R[si];
            for (int i = 0; i < c.rank; i++) c.shape[i] = S[si][i];
            c.wavelet = W[k & 1];
            c.mode = LW_PERIODIC;
            c.dtype = (k & 2) ? LW_FLOAT64 : LW_FLOAT32;
            c.direction = (k & 4) ? LW_INVERSE_ADJOINT : LW_FORWARD_ADJOINT;
            c.gain[0] = G[(k >> 3) & 1][0], c.gain[1] = G[(k >> 3) & 1][1];
            c.levels = LW_LEVELS_MAX;
            c.backend = LW_BACKEND_CUDA;
            lw_plan *p = NULL, *q = NULL;
            if (lw_plan_create(&p, &c) != LW_OK) {
                CHECK(0, "%s gains %g %g: %s", lw_wavelet_name(c.wavelet), c.gain[0], c.gain[1], lw_last_error());
                continue;
            }
            c.backend = LW_BACKEND_CPU_REF;
            CHECK(lw_plan_create(&q, &c) == LW_OK, "reference plan: %s", lw_last_error());
            int64_t n = 1;
            for (int i = 0; i < c.rank; i++) n *= c.shape[i];
            const size_t es = lw_dtype_size(c.dtype);
            void *x = malloc((size_t)n * es), *y = malloc((size_t)n * es), *z = malloc((size_t)n * es);
            fill_rand(x, c.dtype, n);
            const lw_status st = lw_execute(p, x, y);
            CHECK(st == LW_OK, "%s %s %dD gains %g %g: execute: %s", lw_wavelet_name(c.wavelet),
                  lw_direction_str(c.direction), c.rank, c.gain[0], c.gain[1], lw_last_error());
            if (st == LW_OK && q && lw_execute(q, x, z) == LW_OK) {
                double err = 0, mag = 0;
                for (int64_t i = 0; i < n; i++)
                    err = fmax(err, fabs(val(y, c.dtype, i) - val(z, c.dtype, i))), mag = fmax(mag, fabs(val(z, c.dtype, i)));
                CHECK(err <= (c.dtype == LW_FLOAT64 ? 1e-12 : 2e-5) * (mag + 1e-30), "%s %s %dD gains %g %g: error %g of %g",
                      lw_wavelet_name(c.wavelet), lw_direction_str(c.direction), c.rank, c.gain[0], c.gain[1], err, mag);
            }
            g_cases++;
            free(x), free(y), free(z);
            lw_destroy(p);
            lw_destroy(q);
        }
}

/* Device time of one execute, median of 9 (information). */
static void timing(void)
{
    const int64_t N = 4096;
    size_t bytes = (size_t)(N * N) * 4;
    void *a = NULL, *b = NULL;
    if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
        printf("timing: skipped (device memory)\n");
        cudaFree(a);
        return;
    }
    cudaMemset(a, 0, bytes);
    for (int v = 0; v < 8; v++) { /* symmetric, then periodic (the transposed steps on the fused engines) */
        const int d = v & 3;
        gcase c;
        memset(&c, 0, sizeof c);
        c.rank = 2, c.shape[0] = c.shape[1] = N, c.w = LW_CDF97, c.t = LW_FLOAT32, c.devptr = 1;
        c.dir = (lw_direction)d, c.m = v >= 4 ? LW_PERIODIC : LW_SYMMETRIC;
        lw_plan *p = NULL;
        if (make(&p, &c, 3, LW_BACKEND_CUDA) != LW_OK) continue;
        lw_set_stream(p, g_stream);
        char dsc[4096] = "", *eng = NULL;
        if (lw_plan_describe(p, dsc, sizeof dsc) == LW_OK && (eng = strstr(dsc, "engine: "))) {
            char *nl = strchr(eng, '\n');
            if (nl) *nl = 0;
        }
        printf("timing: 4096^2 cdf97 float32 3 levels %-9s %-16s %8.3f ms (%s)\n", lw_mode_name(c.m),
               lw_direction_str(c.dir), gpu_time_ms(p, a, b, g_stream), eng ? eng : "?");
        lw_destroy(p);
    }
    cudaFree(a), cudaFree(b);
}

int main(void)
{
    int skip = gpu_test_begin(19);
    if (skip) return skip;
    const char *e = getenv("LW_GPU_CASES");
    long ncases = e ? strtol(e, NULL, 10) : 1500, nfs = 0;
    for (long i = 0; i < ncases; i++) {
        gcase c;
        random_adjoint_case(&c);
        if (fs_multi(&c) && c.t != LW_INT32) {
            fs_unsupported(&c);
            nfs++;
            continue;
        }
        run_case(&c);
        if (i % 10 == 0 && c.t != LW_INT32 && !fs_multi(&c)) {
            c.levels = 1;
            identity_case(c, lw_rng_range(0, 1) ? LW_FORWARD : LW_INVERSE);
        }
    }
    printf("random adjoint cases: %ld run, %ld fs-over-several-axes refusals\n", g_cases, nfs);
    if (!getenv("LW_GPU_QUICK")) { /* quick: random cases only (for compute-sanitizer) */
        long before = g_cases;
        fixed_cases();
        gained_orthonormal_cases();
        printf("fixed adjoint cases: %ld run\n", g_cases - before);
        timing();
    }
    for (int k = 0; k < LWE_COUNT; k++) printf("engine %-8s used by %ld cases\n", engine_name(k), g_engine_count[k]);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_gpu_adjoint");
}
