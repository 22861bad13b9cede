/* CUDA backend against the CPU reference (DESIGN.md section 6, cross-backend):
 * random cases over every wavelet x dtype x mode x layout x rank 1-4 (axes
 * subsets, batches) x levels x direction, host and device pointers, in place
 * and out of place; fixed larger cases that reach every engine (fused 2-D,
 * fused 3-D, long lines cut in segments, small-engine tails); robustness: plan
 * create/destroy without device memory growth, two threads at once, device
 * out-of-memory reported clearly, and (LW_GPU_BIG=1) an array of more than
 * 2^31 samples.
 *   LW_GPU_CASES=N   random cases (default 1500)
 *   LW_GPU_QUICK=1   random cases only (for compute-sanitizer)
 *   LW_GPU_WAVELET=W random cases of wavelet W only, and only its fixed cases
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#include "gpu_common.h"

#include <pthread.h>

static int g_only_w = -1; /* LW_GPU_WAVELET: random cases of that wavelet only */

static void random_case(gcase *c)
{
    memset(c, 0, sizeof *c);
    c->w = (lw_wavelet)lw_rng_range(0, LW_FS);
    if (g_only_w >= 0) c->w = (lw_wavelet)g_only_w;
    int has_int = c->w == LW_HAAR || c->w == LW_CDF53 || c->w == LW_DD137 || c->w == LW_FS;
    int r = (int)lw_rng_range(0, 9);
    c->t = (has_int && r < 3) ? LW_INT32 : (r < 5 ? LW_FLOAT64 : LW_FLOAT32);
    c->m = (lw_mode)lw_rng_range(0, 1);
    c->lay = lw_rng_range(0, 3) == 0 ? LW_INTERLEAVED : LW_MALLAT;
    c->dir = (lw_direction)lw_rng_range(0, 1);
    int kind = (int)lw_rng_range(0, 9);
    if (kind < 2) { /* 1-D, sometimes long */
        c->rank = 1;
        c->shape[0] = lw_rng_range(0, 4) ? lw_rng_range(1, 70) : lw_rng_range(70, 40000);
    } else if (kind < 6) {
        c->rank = 2;
        c->shape[0] = lw_rng_range(1, 70), c->shape[1] = lw_rng_range(1, 70);
        if (kind == 5) c->shape[0] = lw_rng_range(60, 700), c->shape[1] = lw_rng_range(60, 700);
    } else if (kind < 8) {
        c->rank = 3;
        for (int i = 0; i < 3; i++) c->shape[i] = lw_rng_range(1, kind == 7 ? 40 : 24);
    } else { /* batches: rank 3 or 4 with an axes subset */
        c->rank = (int)lw_rng_range(3, 4);
        for (int i = 0; i < c->rank; i++) c->shape[i] = lw_rng_range(1, c->rank == 4 ? 12 : 30);
        c->naxes = (int)lw_rng_range(1, 3);
        if (c->naxes > c->rank - 1) c->naxes = c->rank - 1;
        int start = (int)lw_rng_range(0, c->rank - c->naxes);
        int skip = c->naxes > 1 && lw_rng_range(0, 1) && start + c->naxes < c->rank;
        for (int i = 0, a = start; i < c->naxes; i++, a++) {
            if (i == 1 && skip) a++;
            c->axes[i] = a;
        }
    }
    if (c->m == LW_PERIODIC)
        for (int i = 0; i < c->rank; i++)
            if (c->shape[i] & 1) c->shape[i] += 1;
    c->levels = -2; /* random up to max */
    c->devptr = lw_rng_range(0, 2) == 0;
    c->inplace = lw_rng_range(0, 3) == 0;
    c->generic = lw_rng_range(0, 7) == 0;
    if (c->w == LW_FS) c->generic = 0, c->scheme = lw_rng_range(0, 3) == 0 ? "fs" : NULL; /* fs takes auto or fs only */
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
    };
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = F[i].rank;
            c.shape[0] = F[i].s0, c.shape[1] = F[i].s1, c.shape[2] = F[i].s2;
            c.naxes = F[i].naxes, c.axes[0] = F[i].a0, c.axes[1] = F[i].a1;
            c.w = F[i].w, c.m = F[i].m, c.lay = F[i].lay, c.t = F[i].t;
            c.levels = F[i].levels;
            c.dir = (lw_direction)(v & 1);
            c.devptr = v >= 2;
            c.inplace = v == 3;
            run_case(&c);
        }
    /* the fused 3-D engine: odd sizes, sizes under one tile, every wavelet it takes */
    static const int64_t F3[][3] = {{65, 47, 131}, {20, 10, 30}, {34, 66, 130}, {18, 36, 72}};
    static const lw_wavelet W3[] = {LW_CDF97, LW_CDF53, LW_HAAR, LW_D4};
    for (int i = 0; i < 4; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = F3[i][0], c.shape[1] = F3[i][1], c.shape[2] = F3[i][2];
            c.w = W3[i], c.t = LW_FLOAT32, c.levels = 1;
            c.m = i >= 2 ? LW_PERIODIC : LW_SYMMETRIC;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3;
            run_case(&c);
        }
    /* the other 3-D plane order */
    static const int64_t S3[][3] = {{64, 64, 64}, {66, 96, 130}, {30, 20, 300}};
    static const char *sch[] = {"3d-zx", "3d-yx", "3d-zx"};
    for (int i = 0; i < 3; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = S3[i][0], c.shape[1] = S3[i][1], c.shape[2] = S3[i][2];
            c.w = i == 1 ? LW_DD137 : LW_CDF97, c.t = i == 2 ? LW_FLOAT64 : LW_FLOAT32, c.levels = 1;
            c.m = i == 2 ? LW_PERIODIC : LW_SYMMETRIC;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3, c.scheme = sch[i];
            run_case(&c);
        }
}

/* A few cases that reach the fused engines, small enough for the sanitizers. */
static void sanitizer_cases(void)
{
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
    if (!lw_backend_available(LW_BACKEND_CUDA)) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    char info[1024];
    lw_cuda_device_info(info, sizeof info);
    printf("%s", info);
    lw_test_seed(20240611);
    cudaStreamCreate(&g_stream);
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
    if (quick && g_only_w < 0) sanitizer_cases();
    if (g_only_w < 0 || g_only_w == LW_FS) {
        long before = g_cases;
        fs_cases(quick);
        printf("fixed fs cases: %ld run\n", g_cases - before);
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
