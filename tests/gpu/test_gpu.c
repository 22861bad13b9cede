/* CUDA backend against the CPU reference (docs/METHOD.md, cross-backend):
 * random cases over every wavelet x dtype x mode x layout x rank 1-4 (axes
 * subsets, batches) x levels x direction (the adjoints too), host and device pointers, in place
 * and out of place; fixed larger cases that reach every engine (fused 2-D,
 * fused 3-D, long lines cut in segments, small-engine tails); robustness: plan
 * create/destroy without device memory growth, two threads at once, device
 * out-of-memory reported clearly, and (LW_GPU_BIG=1) an array of more than
 * 2^31 samples.
 *   LW_GPU_CASES=N   random cases (default 1500)
 *   LW_GPU_QUICK=1   random cases only (for compute-sanitizer)
 *   LW_GPU_ONLY=destroy  only the LW_FLAG_DESTROY_INPUT cases (quick set with LW_GPU_QUICK)
 *   LW_GPU_ONLY=small    only the small engine's launches of few items (quick set with LW_GPU_QUICK)
 *   LW_GPU_ONLY=d4       only the d4 cases of the fused engines (quick set with LW_GPU_QUICK)
 *   LW_GPU_ONLY=gains    only the fixed cases with band gains
 *   LW_GPU_ONLY=fused3d  only the fused 3-D engine's cases, every tile variant named (with
 *                        LW_GPU_QUICK: the small set run under the sanitizers)
 *   LW_GPU_WAVELET=W random cases of wavelet W only, and only its fixed cases
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#include "gpu_common.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static int g_only_w = -1; /* LW_GPU_WAVELET: random cases of that wavelet only */

static void random_case(gcase *c)
{
    memset(c, 0, sizeof *c);
    c->w = (lw_wavelet)lw_rng_range(0, LW_WAVELET_COUNT - 1);
    if (g_only_w >= 0) c->w = (lw_wavelet)g_only_w;
    int has_int = (lw_wavelet_properties(c->w) & LW_WAVELET_INTEGER) != 0;
    int r = (int)lw_rng_range(0, 9);
    c->t = (has_int && r < 3) ? LW_INT32 : (r < 5 ? LW_FLOAT64 : LW_FLOAT32);
    c->m = (lw_mode)lw_rng_range(0, 1);
    c->lay = lw_rng_range(0, 3) == 0 ? LW_INTERLEAVED : LW_MALLAT;
    c->dir = (lw_direction)lw_rng_range(0, 1);
    random_shape(c, 40000, 1);
    c->levels = -2; /* random up to max */
    c->devptr = lw_rng_range(0, 2) == 0;
    c->inplace = lw_rng_range(0, 3) == 0;
    c->generic = lw_rng_range(0, 7) == 0;
    if (c->w == LW_FS) c->generic = 0, c->scheme = lw_rng_range(0, 3) == 0 ? "fs" : NULL; /* fs takes auto or fs only */
    /* one float case in five runs an adjoint (fs: not over several axes on cuda; test_gpu_adjoint has more) */
    if (c->t != LW_INT32 && c->w != LW_FS && lw_rng_range(0, 4) == 0)
        c->dir = c->dir == LW_FORWARD ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT;
    /* one float case of a separable wavelet in four scales its bands (gains fold into the factors every
     * engine reads, also those of the wavelets whose own factors are 1) */
    if (c->t != LW_INT32 && c->w != LW_FS && lw_rng_range(0, 3) == 0)
        c->gain[0] = 1.4142135623730951, c->gain[1] = lw_rng_range(0, 1) ? -0.70710678118654746 : 3.0;
}

/* a case of the given shape and axes, the rest zero */
static gcase sized_case(int rank, int64_t s0, int64_t s1, int64_t s2, int naxes, int a0, int a1)
{
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = rank;
    c.shape[0] = s0, c.shape[1] = s1, c.shape[2] = s2;
    c.naxes = naxes, c.axes[0] = a0, c.axes[1] = a1;
    return c;
}

/* Band gains on every separable wavelet, on shapes the fused engines take (2-D planes and batches, a volume,
 * small planes whose pyramids reach the small engine), against the CPU reference. */
static void gained_cases(void)
{
    static const struct {
        int rank;
        int64_t s0, s1, s2;
        int naxes, a0, a1;
        lw_mode m;
        int levels;
    } F[] = {
        {2, 64, 64, 0, 0, 0, 0, LW_PERIODIC, 3},   {2, 301, 257, 0, 0, 0, 0, LW_SYMMETRIC, 2},
        {3, 12, 64, 64, 2, 1, 2, LW_PERIODIC, 3},  {3, 12, 64, 64, 2, 1, 2, LW_SYMMETRIC, 1},
        {3, 40, 36, 34, 0, 0, 0, LW_SYMMETRIC, 2}, {2, 1024, 1024, 0, 0, 0, 0, LW_PERIODIC, 4},
    };
    static const lw_wavelet W[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
    const long before = g_cases;
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        for (size_t k = 0; k < sizeof W / sizeof W[0]; k++)
            for (int v = 0; v < 4; v++) {
                gcase c = sized_case(F[i].rank, F[i].s0, F[i].s1, F[i].s2, F[i].naxes, F[i].a0, F[i].a1);
                c.w = W[k], c.m = F[i].m, c.lay = LW_MALLAT, c.t = (v & 2) ? LW_FLOAT64 : LW_FLOAT32;
                c.levels = F[i].levels;
                c.dir = (lw_direction)(v & 1);
                c.devptr = (int)((i + k) & 1);
                c.gain[0] = 1.4142135623730951, c.gain[1] = -0.70710678118654746;
                run_case(&c);
            }
    printf("gained cases: %ld run\n", g_cases - before);
}

/* The CUDA plan of case c uses engine e or e2 (the case must reach the engine it tests). */
static void expect_engine_of(const gcase *c, int e, int e2)
{
    lw_plan *p = NULL;
    lw_status st = make(&p, c, c->levels, LW_BACKEND_CUDA);
    int got = st == LW_OK ? lw_cuda_plan_engine(p) : -1;
    CHECK(got == e || got == e2, "shape %lld x %lld x %lld %s: engine %s, expected %s", (long long)c->shape[0],
          (long long)c->shape[1], (long long)c->shape[2], lw_wavelet_name(c->w), engine_name(got), engine_name(e));
    lw_destroy(p);
}

static void expect_engine(const gcase *c, int e) { expect_engine_of(c, e, e); }

#include "gpu_fused3d_cases.h"
#include "gpu_d4_cases.h"
#include "gpu_batch_cases.h"
#include "gpu_small_cases.h"

/* The local engine (haar: steps inside their pairs; k_local.cu) named on
 * shapes whose transformed lengths are multiples of 2^levels: 1-D, 2-D and
 * 3-D along the trailing axes, batches, one to three launches (4 levels a
 * launch in 1-D, 3 in 2-D, 2 in 3-D), wide and narrow blocks, float32,
 * float64 and the integer haar, both layouts, forward and inverse, host and
 * device pointers, in place (interleaved: the engine; Mallat: the generic
 * passes); both modes (the same transform on these lengths). */
/* haar over the trailing naxes of an array of shape n (rank dims) */
static gcase trailing_haar(int rank, int naxes, const int64_t *n, int levels, lw_dtype t)
{
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = rank, c.naxes = naxes;
    for (int a = 0; a < rank; a++) c.shape[a] = n[a];
    for (int a = 0; a < naxes; a++) c.axes[a] = rank - naxes + a;
    c.w = LW_HAAR, c.t = t, c.m = LW_SYMMETRIC, c.levels = levels;
    return c;
}

static void local_cases(int quick)
{
    static const struct {
        int rank, naxes;
        int64_t n[4];
        int levels;
    } S[] = {
        {1, 1, {4096}, 1},       {1, 1, {3 * 512}, 9},       {2, 1, {5, 8 * 40}, 3},      {2, 2, {6, 10}, 1},
        {2, 2, {256, 512}, 1},   {2, 2, {96, 160}, 5},       {2, 2, {1024, 1024}, 10},    {3, 2, {7, 64, 96}, 2},
        {4, 2, {2, 3, 40, 56}, 3}, {3, 3, {8, 12, 16}, 2},   {3, 3, {64, 64, 64}, 1},     {3, 3, {32, 48, 64}, 4},
        {4, 3, {3, 16, 32, 32}, 2}, {4, 3, {2, 2, 2, 2}, 1},
    };
    static const lw_dtype T[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};
    const int n = (int)(sizeof S / sizeof S[0]);
    long k = 0, before = g_cases;
    for (int i = 0; i < n; i++)
        for (int ti = 0; ti < 3; ti++)
            for (int lay = 0; lay < 2; lay++)
                for (int v = 0; v < 6; v++, k++) {
                    if (quick && k % 5) continue;
                    gcase c = trailing_haar(S[i].rank, S[i].naxes, S[i].n, S[i].levels, T[ti]);
                    c.m = (lw_mode)(k % 2), c.lay = (lw_layout)lay, c.scheme = "local";
                    c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v >= 4;
                    if (!c.inplace) expect_engine(&c, LWE_LOCAL);
                    run_case(&c);
                }
    /* what auto takes for haar (lw_local_auto): local, except one level of 2-D over 4-byte samples where
     * the warp-strided map does not apply (rows of a multiple of 32 wide blocks of 8 samples), 2-D
     * Mallat from host memory and lengths not multiples of 2^levels (items the small engine holds whole
     * too: it comes after local and the fused engines); in place, the Mallat layout runs the fused
     * engines' in-place route, or the small engine where the items fit it */
    static const struct {
        int rank, naxes;
        int64_t n[3];
        int levels;
        lw_layout lay;
        int devptr, engine;
    } A[] = {
        {2, 2, {256, 512}, 3, LW_MALLAT, 1, LWE_LOCAL},        {2, 2, {256, 512}, 1, LW_MALLAT, 1, LWE_LOCAL},
        {2, 2, {256, 1920}, 1, LW_MALLAT, 1, LWE_TILE2D},      {2, 2, {64, 1024}, 1, LW_INTERLEAVED, 1, LWE_LOCAL},
        {2, 2, {256, 512}, 3, LW_MALLAT, 0, LWE_TILE2D},       {2, 2, {256, 512}, 3, LW_INTERLEAVED, 0, LWE_LOCAL},
        {2, 2, {256, 520}, 4, LW_MALLAT, 1, LWE_TILE2D},       {3, 3, {64, 64, 64}, 1, LW_MALLAT, 0, LWE_LOCAL},
        {3, 3, {32, 64, 64}, 2, LW_INTERLEAVED, 1, LWE_LOCAL}, {3, 2, {5, 256, 512}, 2, LW_MALLAT, 1, LWE_LOCAL},
        {1, 1, {1 << 20}, 6, LW_MALLAT, 1, LWE_LOCAL},        {3, 2, {5, 64, 96}, 2, LW_MALLAT, 1, LWE_LOCAL},
    };
    for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
        for (int v = 0; v < 3; v++) {
            gcase c = trailing_haar(A[i].rank, A[i].naxes, A[i].n, A[i].levels, LW_FLOAT32);
            c.lay = A[i].lay;
            c.dir = (lw_direction)(v & 1), c.devptr = A[i].devptr, c.inplace = v == 2;
            expect_engine(&c, A[i].engine);
            run_case(&c);
        }
    /* the thread block's x maps (tuning local_block): narrow, and the warp-strided chunks (rows of a
     * multiple of 32 wide blocks; float32 wide blocks are 8 samples, float64 4) */
    static const char *maps[] = {"local_block=narrow", "local_block=strided"};
    static const struct {
        int rank, naxes;
        int64_t n[3];
        int levels;
        lw_dtype t;
    } X[] = {{2, 2, {64, 512}, 1, LW_FLOAT32}, {2, 2, {64, 1024}, 2, LW_FLOAT32}, {3, 3, {8, 16, 256}, 1, LW_FLOAT32},
             {1, 1, {4096}, 6, LW_FLOAT32},   {2, 2, {32, 256}, 1, LW_FLOAT64},   {3, 2, {3, 16, 512}, 2, LW_INT32}};
    for (size_t i = 0; i < sizeof X / sizeof X[0]; i++)
        for (int mi = 0; mi < 2; mi++)
            for (int v = 0; v < 6; v++) {
                gcase c = trailing_haar(X[i].rank, X[i].naxes, X[i].n, X[i].levels, X[i].t);
                c.lay = (lw_layout)(v >= 4 || (v & 2));
                c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v >= 4;
                c.scheme = "local", c.tuning = maps[mi];
                run_case(&c);
            }
    /* the register bounds of the 64-sample blocks (tuning local_bound; 2-D three levels, 3-D two), level 1
     * slab by slab or not into the Mallat bands (local_slabs; whole blocks in the interleaved layout) */
    static const char *bounds[] = {"local_bound=none,local_slabs=on", "local_bound=4,local_slabs=off",
                                   "local_bound=5,local_slabs=on", "local_bound=6,local_slabs=off",
                                   "local_bound=none,local_slabs=off", "local_bound=4,local_slabs=on",
                                   "local_bound=5,local_slabs=off", "local_bound=6,local_slabs=on"};
    static const struct {
        int rank, naxes;
        int64_t n[4];
        int levels;
    } B[] = {{4, 2, {2, 3, 40, 56}, 3}, {4, 3, {3, 16, 32, 32}, 2}, {2, 2, {64, 128}, 6}};
    for (size_t i = 0; i < sizeof B / sizeof B[0]; i++)
        for (int bi = 0; bi < 8; bi++)
            for (int v = 0; v < 12; v++) {
                gcase c = trailing_haar(B[i].rank, B[i].naxes, B[i].n, B[i].levels, T[v % 3]);
                c.lay = (lw_layout)((v / 3) & 1), c.dir = (lw_direction)(v / 6), c.devptr = 1;
                c.scheme = "local", c.tuning = bounds[bi];
                run_case(&c);
            }
    /* channels last (the transformed axes followed by one dim: HWC, NHWC, THWC): auto takes local, or small
     * where local does not apply and a whole item fits a block; two variants in twelve force local at every size */
    static const struct {
        int rank, naxes, a0;
        int64_t n[4];
        int levels;
    } C[] = {{3, 2, 0, {1080, 1920, 3}, 3}, {3, 2, 0, {64, 128, 3}, 1}, {4, 2, 1, {4, 32, 64, 3}, 2},
             {4, 3, 0, {16, 32, 32, 2}, 2}, {2, 1, 0, {256, 3}, 4},     {4, 2, 1, {3, 32, 64, 4}, 5},
             {3, 2, 0, {96, 160, 1}, 2}};
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++)
        for (int v = 0; v < 12; v++, k++) {
            if (quick && k % 3) continue;
            gcase c = trailing_haar(C[i].rank, C[i].naxes, C[i].n, C[i].levels, T[v % 3]);
            for (int a = 0; a < C[i].naxes; a++) c.axes[a] = C[i].a0 + a;
            c.lay = (lw_layout)((v >> 1) & 1), c.dir = (lw_direction)((v / 3) & 1), c.devptr = v != 5, c.inplace = v >= 9;
            if (v == 2 || v == 4) c.scheme = "local";
            else if (!c.inplace && c.devptr) expect_engine_of(&c, LWE_LOCAL, LWE_SMALL);
            run_case(&c);
        }
    printf("fixed local-engine cases: %ld run\n", g_cases - before);
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
        lw_dtype t;
        int levels;
    } F[] = {
        {2, 1080, 1920, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1},
        {2, 1080, 1920, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, -1},
        /* float32 inverses of more short tiles than a wave: the kernel bounded to 8 blocks an SM */
        {2, 1080, 1920, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1},
        {2, 1080, 1920, 0, 0, 0, 0, LW_DD137, LW_PERIODIC, LW_INTERLEAVED, LW_FLOAT32, 2},
        {3, 64, 256, 256, 2, 1, 2, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1},
        {2, 4097, 33, 0, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 3},
        {2, 33, 4097, 0, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 3},
        {2, 601, 803, 0, 0, 0, 0, LW_DD137, LW_SYMMETRIC, LW_MALLAT, LW_INT32, 4},
        {2, 600, 800, 0, 0, 0, 0, LW_CDF53, LW_PERIODIC, LW_MALLAT, LW_INT32, 3},
        {2, 512, 512, 0, 0, 0, 0, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, LW_INT32, -1},
        {2, 512, 512, 0, 0, 0, 0, LW_D4, LW_PERIODIC, LW_MALLAT, LW_FLOAT64, 5},
        {2, 512, 512, 0, 0, 0, 0, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, -1},
        {2, 513, 300, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2},
        {2, 700, 900, 0, 0, 0, 0, LW_DD137, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 2},
        {3, 3, 300, 200, 2, 1, 2, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2},
        {3, 300, 3, 200, 2, 0, 2, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 2},
        {3, 64, 64, 64, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1},
        {3, 66, 96, 130, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 1},
        {3, 40, 50, 60, 0, 0, 0, LW_CDF53, LW_SYMMETRIC, LW_MALLAT, LW_INT32, 2},
        {1, 100000, 0, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 3},
        {1, 300001, 0, 0, 0, 0, 0, LW_DD137, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT64, 5},
        {1, 60000, 0, 0, 0, 0, 0, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FLOAT32, 2},
        {1, 50001, 0, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_INTERLEAVED, LW_FLOAT64, 4},
        {2, 5000, 40, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_INTERLEAVED, LW_FLOAT32, 3},
        {2, 1000, 1000, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_INTERLEAVED, LW_FLOAT32, 4},
        {2, 2048, 64, 0, 0, 0, 0, LW_CDF53, LW_PERIODIC, LW_INTERLEAVED, LW_INT32, 5},
        {2, 257, 257, 0, 0, 0, 0, LW_FS, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, -1},
        {2, 257, 257, 0, 0, 0, 0, LW_FS, LW_SYMMETRIC, LW_INTERLEAVED, LW_INT32, -1},
        {3, 33, 33, 33, 0, 0, 0, LW_FS, LW_PERIODIC, LW_MALLAT, LW_FLOAT64, 0},
        {3, 33, 34, 36, 0, 0, 0, LW_FS, LW_SYMMETRIC, LW_MALLAT, LW_INT32, -1},
        {2, 3000, 2, 0, 0, 0, 0, LW_HAAR, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2},
        {2, 1, 5000, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 3},
        /* planes of 4096 tiles and more: the fused 2-D engine's blocks walk two row tiles each (tile_walk),
         * odd sizes, d4's tiles placed at the ends */
        {2, 6001, 5999, 0, 0, 0, 0, LW_CDF97, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 2},
        {2, 8191, 4097, 0, 0, 0, 0, LW_D4, LW_SYMMETRIC, LW_MALLAT, LW_FLOAT32, 1},
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        for (int v = 0; v < 4; v++) {
            gcase c = sized_case(F[i].rank, F[i].s0, F[i].s1, F[i].s2, F[i].naxes, F[i].a0, F[i].a1);
            c.w = F[i].w, c.m = F[i].m, c.lay = F[i].lay, c.t = F[i].t;
            c.levels = F[i].levels;
            c.dir = (lw_direction)(v & 1);
            c.devptr = v >= 2;
            c.inplace = v == 3;
            run_case(&c);
        }
    fused3d_cases();
    d4_tile_cases(0);
    d4_fused3d_cases(0);
    small_tail_cases(0);
}

/* A few cases that reach the fused engines, small enough for the sanitizers. */
static void sanitizer_cases(void)
{
    /* fused 3-D: z shorter than the pipeline, several runs along z, float64 periodic */
    static const struct {
        int64_t n[3];
        lw_wavelet w;
        lw_mode m;
        lw_dtype t;
    } S3[] = {{{2, 40, 160}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},
              {{41, 20, 70}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},
              {{12, 20, 36}, LW_D4, LW_PERIODIC, LW_FLOAT64},
              {{9, 20, 40}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32}};
    for (int i = 0; i < (int)(sizeof S3 / sizeof S3[0]); i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = S3[i].n[0], c.shape[1] = S3[i].n[1], c.shape[2] = S3[i].n[2];
            c.w = S3[i].w, c.m = S3[i].m, c.t = S3[i].t, c.levels = 1;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2;
            if (c.w == LW_DD137) c.scheme = "fused3d";
            expect_engine(&c, LWE_FUSED3D);
            run_case(&c);
            /* the taller tiles (float32) */
            if (c.t == LW_FLOAT32 && c.w != LW_DD137) {
                c.tuning = "tile3d=32x64";
                run_case(&c);
            }
        }
    static const int64_t S[][3] = {{2, 200, 302}, {2, 130, 96}, {3, 40, 40}};
    for (int i = 0; i < 3; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = (int)S[i][0], c.shape[0] = S[i][1], c.shape[1] = S[i][2], c.shape[2] = 40;
            c.w = i == 1 ? LW_DD137 : LW_CDF97, c.t = i == 1 ? LW_INT32 : LW_FLOAT32;
            if (i == 1) c.w = LW_CDF53;
            c.levels = i == 0 ? 3 : 1, c.dir = (lw_direction)(v & 1), c.devptr = v >= 2;
            c.m = i == 1 ? LW_PERIODIC : LW_SYMMETRIC;
            run_case(&c);
        }
    pyramid3d_cases(1);
    batch3d_cases(1);
    d4_tile_cases(1);
    d4_fused3d_cases(1);
    small_tail_cases(1);
    /* the generic pass in windowed segments (a column of 1001 samples over 32
     * lanes does not fit shared memory whole): the window's edge taps must not
     * read the step's targets (racecheck found 1 hazard here) */
    for (int v = 0; v < 2; v++) {
        gcase c;
        memset(&c, 0, sizeof c);
        c.rank = 2, c.shape[0] = 1001, c.shape[1] = 777;
        c.w = LW_DD137, c.t = LW_FLOAT32, c.m = LW_SYMMETRIC, c.lay = LW_INTERLEAVED, c.levels = 3;
        c.dir = (lw_direction)v, c.devptr = 1;
        run_case(&c);
    }
}

/* ---- LW_FLAG_DESTROY_INPUT ---------------------------------------------------------
 * The flag must give the default path's result (bit for bit: the same kernels
 * on the same rows) and, on the fused 2-D engine, a workspace of at most 1 MiB;
 * without it the inverse holds at most its lowpass bands LL1 and LL2 in scratch,
 * as the forward does; the input stays unmodified without the flag; in place is
 * unchanged by the flag. */
static long g_destroy_cases, g_destroy_tile;
static char g_cur[300]; /* the case being run, for a crash report */
static const char *g_step = "";

static void crash_report(int sig)
{
    fprintf(stderr, "signal %d during %s (step %s)\n", sig, g_cur, g_step);
    _exit(128 + sig);
}
static size_t g_destroy_ws_max, g_default_inv_ws_max;

static lw_status make_flags(lw_plan **p, const gcase *c, int levels, lw_backend b, unsigned flags)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = c->rank;
    for (int i = 0; i < c->rank; i++) cfg.shape[i] = c->shape[i];
    cfg.naxes = c->naxes;
    for (int i = 0; i < c->naxes; i++) cfg.axes[i] = c->axes[i];
    cfg.wavelet = c->w, cfg.mode = c->m, cfg.layout = c->lay, cfg.dtype = c->t, cfg.integer = c->t == LW_INT32;
    cfg.levels = levels, cfg.direction = c->dir, cfg.backend = b, cfg.flags = flags;
    return lw_plan_create(p, &cfg);
}

/* samples of a case's level-1 and level-2 lowpass bands (naxes 0: every axis) */
static int64_t lowpass_samples(const gcase *c)
{
    int64_t l1 = 1, l2 = 1;
    for (int i = 0; i < c->rank; i++) {
        int on = c->naxes == 0;
        for (int a = 0; a < c->naxes; a++) on |= c->axes[a] == i;
        l1 *= on ? (c->shape[i] + 1) / 2 : c->shape[i];
        l2 *= on ? (c->shape[i] + 3) / 4 : c->shape[i];
    }
    return l1 + l2;
}

static void destroy_case(const gcase *c, int levels)
{
    lw_plan *pr = NULL, *pa = NULL, *pb = NULL;
    lw_status sr = make_flags(&pr, c, levels, LW_BACKEND_CPU_REF, 0);
    while (sr == LW_ERR_ODD_PERIODIC && levels > 1) sr = make_flags(&pr, c, --levels, LW_BACKEND_CPU_REF, 0);
    if (sr != LW_OK) return;
    char txt[256];
    case_text(c, lw_plan_config(pr), txt, sizeof txt);
    snprintf(g_cur, sizeof g_cur, "%s", txt);
    g_step = "plan";
    lw_status sa = make_flags(&pa, c, levels, LW_BACKEND_CUDA, LW_FLAG_DEVICE_POINTERS);
    lw_status sb = make_flags(&pb, c, levels, LW_BACKEND_CUDA, LW_FLAG_DEVICE_POINTERS | LW_FLAG_DESTROY_INPUT);
    CHECK(sa == LW_OK && sb == LW_OK, "%s: cuda plans: %d %d (%s)", txt, (int)sa, (int)sb, lw_last_error());
    if (sa != LW_OK || sb != LW_OK) {
        lw_destroy(pr), lw_destroy(pa), lw_destroy(pb);
        return;
    }
    int eng = lw_cuda_plan_engine(pb);
    size_t wsa = 0, wsb = 0;
    lw_workspace_size(pa, &wsa);
    lw_workspace_size(pb, &wsb);
    if (eng == LWE_TILE2D) {
        g_destroy_tile++;
        CHECK(wsb <= ((size_t)1 << 20), "%s: workspace %zu bytes with LW_FLAG_DESTROY_INPUT", txt, wsb);
        if (c->dir == LW_INVERSE) {
            const size_t bands = (size_t)lowpass_samples(c) * lw_dtype_size(c->t) + 512;
            CHECK(wsa <= (bands > ((size_t)1 << 20) ? bands : ((size_t)1 << 20)),
                  "%s: inverse workspace %zu bytes without the flag (lowpass bands %zu)", txt, wsa, bands);
        }
        if (wsb > g_destroy_ws_max) g_destroy_ws_max = wsb;
        if (c->dir == LW_INVERSE && wsa > g_default_inv_ws_max) g_default_inv_ws_max = wsa;
    }
    int64_t n = 1;
    for (int i = 0; i < c->rank; i++) n *= c->shape[i];
    size_t bytes = (size_t)n * lw_dtype_size(c->t);
    void *x = malloc(bytes), *yr = malloc(bytes), *ya = malloc(bytes), *yb = malloc(bytes), *xa = malloc(bytes);
    void *yi = malloc(bytes);
    fill_rand(x, c->t, n);
    g_step = "reference";
    CHECK(lw_execute(pr, x, yr) == LW_OK, "%s: reference failed", txt);
    g_step = "execute";
    void *din = NULL, *dout = NULL;
    CHECK(cudaMalloc(&din, bytes) == cudaSuccess && cudaMalloc(&dout, bytes) == cudaSuccess, "%s: cudaMalloc", txt);
    lw_set_stream(pa, g_stream);
    lw_set_stream(pb, g_stream);
    /* default */
    cudaMemcpy(din, x, bytes, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xff, bytes);
    lw_status ea = lw_execute(pa, din, dout);
    cudaStreamSynchronize(g_stream);
    cudaMemcpy(ya, dout, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(xa, din, bytes, cudaMemcpyDeviceToHost);
    CHECK(memcmp(xa, x, bytes) == 0, "%s: input modified without LW_FLAG_DESTROY_INPUT", txt);
    /* with the flag (input garbage-filled output, fresh input) */
    cudaMemcpy(din, x, bytes, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xa5, bytes);
    lw_status eb = lw_execute(pb, din, dout);
    cudaError_t ce = cudaStreamSynchronize(g_stream);
    cudaMemcpy(yb, dout, bytes, cudaMemcpyDeviceToHost);
    /* in place with the flag: as before (the flag only concerns in != out) */
    cudaMemcpy(din, x, bytes, cudaMemcpyHostToDevice);
    lw_status ei = lw_execute(pb, din, din);
    cudaError_t ci = cudaStreamSynchronize(g_stream);
    cudaMemcpy(yi, din, bytes, cudaMemcpyDeviceToHost);
    CHECK(ea == LW_OK && eb == LW_OK && ei == LW_OK && ce == cudaSuccess && ci == cudaSuccess,
          "%s: execute %d %d %d (%s) %s %s", txt, (int)ea, (int)eb, (int)ei, lw_last_error(), cudaGetErrorString(ce),
          cudaGetErrorString(ci));
    g_step = "compare";
    CHECK(memcmp(ya, yb, bytes) == 0, "%s [%s]: LW_FLAG_DESTROY_INPUT result differs from the default", txt,
          engine_name(eng));
    double tol = c->t == LW_INT32 ? 0.0 : c->t == LW_FLOAT32 ? 1e-5 : 1e-12;
    const void *got[2] = {yb, yi};
    for (int v = 0; v < 2; v++) {
        double err = 0, ref = 0;
        int64_t worst = 0;
        for (int64_t i = 0; i < n; i++) {
            double e = fabs(val(got[v], c->t, i) - val(yr, c->t, i));
            if (!(e <= err)) err = isnan(e) ? INFINITY : e, worst = i;
            ref = fmax(ref, fabs(val(yr, c->t, i)));
        }
        CHECK(err <= tol * (ref > 0 ? ref : 1), "%s [%s]%s: max error %g at %lld (cuda %g ref %g)", txt,
              engine_name(eng), v ? " in place" : " destroy-input", err, (long long)worst, val(got[v], c->t, worst),
              val(yr, c->t, worst));
    }
    cudaFree(din), cudaFree(dout);
    free(x), free(yr), free(ya), free(yb), free(xa), free(yi);
    lw_destroy(pr), lw_destroy(pa), lw_destroy(pb);
    g_destroy_cases++;
}

static void destroy_cases(int quick)
{
    /* shapes: rows x cols, odd, thin, wide; planes batches in front */
    static const int64_t S[][4] = {
        {2, 300, 300, 0},  {2, 301, 457, 0}, {2, 520, 130, 0},  {2, 130, 1030, 0}, {2, 1001, 64, 0},
        {2, 66, 1002, 0},  {2, 257, 255, 0}, {2, 800, 600, 0},  {2, 4100, 40, 0},  {2, 40, 4100, 0},
        {2, 2002, 34, 0},  {2, 122, 118, 0}, {3, 3, 300, 302}, {3, 5, 130, 260},  {3, 9, 260, 130},
        {4, 2, 3, 200},    {3, 2, 1200, 90}, {2, 1536, 1536, 0},
    };
    static const struct {
        lw_wavelet w;
        lw_dtype t;
    } WT[] = {{LW_CDF97, LW_FLOAT32}, {LW_CDF97, LW_FLOAT64}, {LW_CDF53, LW_FLOAT32}, {LW_CDF53, LW_FLOAT64},
              {LW_HAAR, LW_FLOAT32},  {LW_HAAR, LW_FLOAT64},  {LW_DD137, LW_FLOAT32}, {LW_DD137, LW_FLOAT64},
              {LW_D4, LW_FLOAT32},    {LW_D4, LW_FLOAT64},    {LW_HAAR, LW_INT32},    {LW_CDF53, LW_INT32},
              {LW_DD137, LW_INT32}};
    const int ns = (int)(sizeof S / sizeof S[0]), nw = (int)(sizeof WT / sizeof WT[0]);
    int per = quick ? 1 : 3;
    for (int i = 0; i < nw; i++)
        for (int m = 0; m < 2; m++)
            for (int d = 0; d < 2; d++)
                for (int k = 0; k < per; k++) {
                    gcase c;
                    memset(&c, 0, sizeof c);
                    int si = (i * 7 + m * 5 + d * 3 + k * 11) % ns;
                    if (quick) si = (i + m + d) % 4; /* small ones under the sanitizers */
                    c.rank = (int)S[si][0];
                    for (int a = 0; a < c.rank; a++) c.shape[a] = a < 3 ? S[si][1 + a] : 140; /* rank 4: 140 last */
                    if (c.rank >= 3) c.naxes = 2, c.axes[0] = c.rank - 2, c.axes[1] = c.rank - 1;
                    c.w = WT[i].w, c.t = WT[i].t, c.m = (lw_mode)m, c.dir = (lw_direction)d, c.devptr = 1;
                    if (c.m == LW_PERIODIC)
                        for (int a = 0; a < c.rank; a++) c.shape[a] += c.shape[a] & 1;
                    if (c.w == LW_HAAR && c.m == LW_SYMMETRIC) /* the fused engine takes even lengths */
                        for (int a = c.rank - 2; a < c.rank; a++) c.shape[a] += c.shape[a] & 1;
                    int lmax = 0;
                    lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &lmax);
                    CHECK(lmax >= 1, "destroy case %d: no level possible", si);
                    if (lmax < 1) continue;
                    int lv = k == 0 ? lmax : (int)lw_rng_range(1, lmax);
                    destroy_case(&c, lv);
                }
    /* a batch axis between the transformed ones: no bands, the flag changes nothing */
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = 3, c.shape[0] = 300, c.shape[1] = 3, c.shape[2] = 302, c.naxes = 2, c.axes[0] = 0, c.axes[1] = 2;
    c.w = LW_CDF97, c.t = LW_FLOAT32, c.devptr = 1;
    for (int d = 0; d < 2; d++) {
        c.dir = (lw_direction)d;
        destroy_case(&c, 3);
    }
    printf("destroy-input: %ld cases (%ld on the fused 2-D engine), largest workspace %zu bytes with the flag, "
           "%zu bytes for the default inverse\n",
           g_destroy_cases, g_destroy_tile, g_destroy_ws_max, g_default_inv_ws_max);
}

/* Faber-Schauder (one launch forward, coarse-to-fine inverse): natural sizes
 * 2^J+1, odd and even sizes, length-1 and length-2 axes, 1-D, 3-D, batches
 * and axes subsets (channels last, 1-D rows and columns), both modes and
 * layouts, every dtype, levels max or random below, forward and inverse, host
 * and device pointers, in place or not.  quick: the small shapes (sanitizers). */
static void fs_cases(int quick)
{
    static const struct {
        int rank;
        int64_t s[4];
        int naxes, axes[3];
    } S[] = {
        {2, {257, 257}, 0, {0}},       {2, {129, 65}, 0, {0}},       {2, {2, 2}, 0, {0}},
        {2, {1, 37}, 0, {0}},          {2, {37, 1}, 0, {0}},         {2, {3, 5}, 0, {0}},
        {2, {300, 301}, 0, {0}},       {2, {64, 64}, 0, {0}},        {2, {2049, 17}, 0, {0}},
        {2, {33, 1025}, 0, {0}},       {1, {1}, 0, {0}},             {1, {2}, 0, {0}},
        {1, {3}, 0, {0}},              {1, {4097}, 0, {0}},          {1, {70001}, 0, {0}},
        {3, {33, 33, 33}, 0, {0}},     {3, {17, 9, 5}, 0, {0}},      {3, {1, 20, 21}, 0, {0}},
        {3, {64, 66, 2}, 0, {0}},      {3, {65, 65, 65}, 0, {0}},    {3, {6, 129, 129}, 2, {1, 2}},
        {3, {129, 129, 3}, 2, {0, 1}}, {4, {3, 17, 18, 19}, 3, {1, 2, 3}}, {4, {5, 33, 4, 33}, 2, {1, 3}},
        {2, {7, 4097}, 1, {1}},        {2, {4097, 3}, 1, {0}},       {3, {9, 5, 300}, 2, {0, 2}},
    };
    static const lw_dtype T[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};
    long i = 0;
    for (size_t k = 0; k < sizeof S / sizeof S[0]; k++) {
        int64_t n = 1;
        for (int a = 0; a < S[k].rank; a++) n *= S[k].s[a];
        if (quick && n > 25000) continue;
        for (int m = 0; m < 2; m++)
            for (int lay = 0; lay < 2; lay++)
                for (int t = 0; t < 3; t++)
                    for (int dir = 0; dir < 2; dir++, i++) {
                        if (quick && (i % 9) != 0) continue;
                        gcase c;
                        memset(&c, 0, sizeof c);
                        c.rank = S[k].rank, c.naxes = S[k].naxes;
                        for (int a = 0; a < c.rank; a++) {
                            c.shape[a] = S[k].s[a];
                            if (m == 1 && (c.shape[a] & 1) && c.shape[a] > 1) c.shape[a] -= 1; /* 2^J for periodic */
                        }
                        for (int a = 0; a < c.naxes; a++) c.axes[a] = S[k].axes[a];
                        c.w = LW_FS, c.m = (lw_mode)m, c.lay = lay ? LW_INTERLEAVED : LW_MALLAT, c.t = T[t];
                        c.dir = (lw_direction)dir;
                        c.levels = i % 3 == 0 ? -2 : -1;
                        c.devptr = (i >> 1) & 1, c.inplace = (i % 5) == 1 || (i % 5) == 4;
                        if (i % 7 == 3) c.scheme = "fs";
                        run_case(&c);
                    }
    }
}

/* ---- robustness ------------------------------------------------------------------ */

static void leak_cycles(void)
{
    size_t f0, f1, tot;
    cudaDeviceSynchronize();
    cudaMemGetInfo(&f0, &tot);
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 1024, c.shape[1] = 768, c.levels = 3, c.backend = LW_BACKEND_CUDA;
    float *x = malloc(sizeof(float) * 1024 * 768), *y = malloc(sizeof(float) * 1024 * 768);
    for (int i = 0; i < 1024 * 768; i++) x[i] = (float)lw_rng_unit();
    int fails = 0;
    for (int i = 0; i < 1000; i++) {
        c.flags = (i & 1) ? LW_FLAG_DEVICE_POINTERS : 0;
        c.direction = (lw_direction)((i >> 1) & 1);
        lw_plan *p = NULL;
        if (lw_plan_create(&p, &c) != LW_OK) fails++;
        if (p && !(i & 1) && i % 20 == 0 && lw_execute(p, x, y) != LW_OK) fails++;
        lw_destroy(p);
    }
    cudaDeviceSynchronize();
    cudaMemGetInfo(&f1, &tot);
    double grow = (double)f0 - (double)f1;
    printf("leak check: 1000 plan create/destroy cycles (50 with host executes): device memory change %.0f bytes\n",
           grow);
    CHECK(fails == 0, "plan cycles: %d failures (%s)", fails, lw_last_error());
    CHECK(grow <= 2.0 * 1024 * 1024, "device memory grew by %.0f bytes over 1000 plan cycles", grow);
    free(x);
    free(y);
}

typedef struct thr_arg {
    const lw_plan *p;
    const float *x, *ref;
    int64_t n;
    int bad;
} thr_arg;

static void *thr_main(void *v)
{
    thr_arg *a = v;
    float *y = malloc(sizeof(float) * (size_t)a->n);
    for (int it = 0; it < 20; it++) {
        memset(y, 0xff, sizeof(float) * (size_t)a->n);
        if (lw_execute(a->p, a->x, y) != LW_OK) a->bad++;
        for (int64_t i = 0; i < a->n; i++)
            if (!(fabsf(y[i] - a->ref[i]) <= 1e-5f * 8)) {
                a->bad++;
                break;
            }
    }
    free(y);
    return NULL;
}

static void two_threads(void)
{
    int64_t shapes[2][2] = {{777, 1001}, {512, 640}};
    lw_plan *p[2], *r[2];
    float *x[2], *ref[2];
    thr_arg a[4];
    for (int k = 0; k < 2; k++) {
        lw_config c;
        lw_config_init(&c);
        c.rank = 2, c.shape[0] = shapes[k][0], c.shape[1] = shapes[k][1], c.levels = 2;
        c.backend = LW_BACKEND_CUDA;
        CHECK(lw_plan_create(&p[k], &c) == LW_OK, "thread plan: %s", lw_last_error());
        c.backend = LW_BACKEND_CPU_REF;
        lw_plan_create(&r[k], &c);
        int64_t n = shapes[k][0] * shapes[k][1];
        x[k] = malloc(sizeof(float) * (size_t)n), ref[k] = malloc(sizeof(float) * (size_t)n);
        for (int64_t i = 0; i < n; i++) x[k][i] = (float)(lw_rng_unit() * 2 - 1);
        lw_execute(r[k], x[k], ref[k]);
    }
    /* two plans on two threads, and the same plan on two threads */
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        int k = i < 2 ? i : 0;
        a[i].p = p[k], a[i].x = x[k], a[i].ref = ref[k], a[i].n = shapes[k][0] * shapes[k][1], a[i].bad = 0;
        pthread_create(&th[i], NULL, thr_main, &a[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(a[i].bad == 0, "thread %d: %d bad executes", i, a[i].bad);
    }
    printf("threads: 4 threads x 20 executes on 2 plans checked\n");
    for (int k = 0; k < 2; k++) {
        lw_destroy(p[k]);
        lw_destroy(r[k]);
        free(x[k]);
        free(ref[k]);
    }
}

static void out_of_memory(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = (int64_t)1 << 20, c.shape[1] = (int64_t)1 << 19, c.levels = 3;
    c.backend = LW_BACKEND_CUDA, c.flags = LW_FLAG_DEVICE_POINTERS;
    lw_plan *p = NULL;
    lw_status s = lw_plan_create(&p, &c);
    printf("out of memory: status %d (%s): %s\n", (int)s, lw_status_string(s), lw_last_error());
    CHECK(s == LW_ERR_DEVICE_OUT_OF_MEMORY && p == NULL, "huge plan: status %d", (int)s);
    CHECK(strstr(lw_last_error(), "device memory") != NULL, "out-of-memory message: %s", lw_last_error());
    /* the device is still usable afterwards */
    gcase g;
    memset(&g, 0, sizeof g);
    g.rank = 2, g.shape[0] = 300, g.shape[1] = 301, g.w = LW_CDF97, g.t = LW_FLOAT32, g.levels = 2;
    run_case(&g);
}

int main(void)
{
    int skip = gpu_test_begin(20240611);
    if (skip) return skip;
    signal(SIGFPE, crash_report);
    signal(SIGSEGV, crash_report);
    if (getenv("LW_GPU_ONLY") && !strcmp(getenv("LW_GPU_ONLY"), "destroy")) { /* the flag's and the bands' cases */
        destroy_cases(getenv("LW_GPU_QUICK") != NULL);
        lead_cases(getenv("LW_GPU_QUICK") != NULL);
        group_cases(getenv("LW_GPU_QUICK") != NULL);
        cudaStreamDestroy(g_stream);
        return lw_test_finish("test_gpu");
    }
    if (getenv("LW_GPU_ONLY") && !strcmp(getenv("LW_GPU_ONLY"), "fused3d")) { /* the fused 3-D engine */
        if (getenv("LW_GPU_QUICK")) {
            sanitizer_cases();
            tma3d_cases(1);
        } else {
            fused3d_cases();
            d4_fused3d_cases(0);
        }
        cudaStreamDestroy(g_stream);
        return lw_test_finish("test_gpu");
    }
    if (getenv("LW_GPU_ONLY") && !strcmp(getenv("LW_GPU_ONLY"), "small")) { /* the small engine's few-item launches */
        small_tail_cases(getenv("LW_GPU_QUICK") != NULL);
        cudaStreamDestroy(g_stream);
        return lw_test_finish("test_gpu");
    }
    if (getenv("LW_GPU_ONLY") && !strcmp(getenv("LW_GPU_ONLY"), "gains")) { /* band gains, every separable wavelet */
        gained_cases();
        cudaStreamDestroy(g_stream);
        return lw_test_finish("test_gpu");
    }
    if (getenv("LW_GPU_ONLY") && !strcmp(getenv("LW_GPU_ONLY"), "d4")) { /* d4 on the fused engines */
        d4_tile_cases(getenv("LW_GPU_QUICK") != NULL);
        d4_fused3d_cases(getenv("LW_GPU_QUICK") != NULL);
        cudaStreamDestroy(g_stream);
        return lw_test_finish("test_gpu");
    }
    const char *ow = getenv("LW_GPU_WAVELET");
    lw_wavelet onlyw;
    if (ow && lw_wavelet_parse(ow, &onlyw) == LW_OK) g_only_w = (int)onlyw;
    const char *e = getenv("LW_GPU_CASES");
    long ncases = e ? strtol(e, NULL, 10) : 1500;
    int quick = getenv("LW_GPU_QUICK") != NULL;
    for (long i = 0; i < ncases; i++) {
        gcase c;
        random_case(&c);
        run_case(&c);
    }
    printf("random cases: %ld run\n", g_cases);
    if (g_only_w < 0) gained_cases();
    if (quick && g_only_w < 0) sanitizer_cases();
    if (g_only_w < 0) destroy_cases(quick), lead_cases(quick), group_cases(quick);
    if (g_only_w < 0 || g_only_w == LW_HAAR) local_cases(quick);
    if (g_only_w < 0 || g_only_w == LW_FS) {
        long before = g_cases;
        fs_cases(quick);
        printf("fixed fs cases: %ld run\n", g_cases - before);
        if (getenv("LW_GPU_BIG") && atoi(getenv("LW_GPU_BIG"))) fs_wide_case();
    }
    if (!quick && g_only_w < 0) {
        long before = g_cases;
        fixed_cases();
        printf("fixed cases: %ld run\n", g_cases - before);
        leak_cycles();
        two_threads();
        out_of_memory();
        if (getenv("LW_GPU_BIG") && atoi(getenv("LW_GPU_BIG"))) big_case();
    }
    for (int k = 0; k < LWE_COUNT; k++) printf("engine %-8s used by %ld cases\n", engine_name(k), g_engine_count[k]);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_gpu");
}
