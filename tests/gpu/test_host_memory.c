/* Host-pointer execution of the CUDA backend from pinned and pageable memory
 * (src/cuda/staging*.c), against the CPU reference: every wavelet, forward
 * and inverse, 2-D 1 level (the row-band path) and 5 levels (bands + tail),
 * 3-D 1 level (slabs) and 2, 3 levels (slabs + octant tail), batches of 2-D
 * (groups of items), odd and even lengths,
 * both modes, each checked to take the pipeline it should; pageable memory
 * staged with the default ring, staged through a small ring (many chunks,
 * the ring wraps, rows cut in segments) and registered for the call; in
 * place; two threads executing one plan at once; a bad tuning value.
 *   LW_HOSTMEM_QUICK=1  a small subset (for compute-sanitizer)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"

#include "cuda/staging.h"

#include <pthread.h>

/* how the host buffers are made and the plan moves them */
typedef struct hostmem {
    const char *name;
    int pinned;         /* cudaMallocHost; else malloc */
    const char *tuning; /* the plan's tuning */
} hostmem;

static const hostmem g_mem[] = {
    {"pinned", 1, NULL},
    {"pageable staged", 0, NULL},
    {"pageable small ring", 0, "stage_kb=16,stage_buffers=3,copy_threads=3"},
    {"pageable tiny chunks", 0, "stage_kb=1,stage_buffers=2,copy_threads=2"},
    {"pageable registered", 0, "pageable=register"},
};
#define NMEM ((int)(sizeof g_mem / sizeof g_mem[0]))

typedef struct hcase {
    int rank;
    int64_t shape[3];
    int naxes, axes[2];
    int levels;
} hcase;

static void *host_alloc(size_t n, int pinned)
{
    void *p = NULL;
    if (pinned) {
        if (cudaMallocHost(&p, n) != cudaSuccess) p = NULL;
    } else {
        p = malloc(n);
    }
    return p;
}

static void host_free(void *p, int pinned)
{
    if (pinned) cudaFreeHost(p);
    else free(p);
}

static lw_status plan_of(lw_plan **p, const hcase *h, lw_wavelet w, lw_dtype t, lw_mode m, lw_direction d,
                         lw_backend b, const char *tuning)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = h->rank;
    for (int i = 0; i < h->rank; i++) cfg.shape[i] = h->shape[i];
    cfg.naxes = h->naxes;
    for (int i = 0; i < h->naxes; i++) cfg.axes[i] = h->axes[i];
    cfg.wavelet = w, cfg.dtype = t, cfg.integer = t == LW_INT32, cfg.mode = m, cfg.direction = d;
    cfg.levels = h->levels, cfg.backend = b;
    if (b == LW_BACKEND_CUDA) cfg.tuning = tuning;
    return lw_plan_create(p, &cfg);
}

static double max_err(const void *a, const void *b, lw_dtype t, int64_t n, double *ref)
{
    double e = 0;
    *ref = 0;
    for (int64_t i = 0; i < n; i++) {
        double d = fabs(val(a, t, i) - val(b, t, i));
        if (!(d <= e)) e = isnan(d) ? INFINITY : d;
        *ref = fmax(*ref, fabs(val(b, t, i)));
    }
    return e;
}

static long g_runs[NMEM];
static long g_paths[4]; /* configurations run in row bands (2-D pyramid), in slabs (3-D), in groups (batches), else */
static long g_band2;    /* of the row-band pyramids, those whose level 2 runs in bands too */

/* the pipeline the plan must take (staging_exec.c), checked on its description */
static void check_path(const lw_plan *pc, const hcase *h, lw_mode m, lw_direction d, const char *txt)
{
    char desc[4096];
    if (lw_plan_describe(pc, desc, sizeof desc) != LW_OK) return;
    int pyr2 = h->rank == 2 && h->levels >= 2 && h->shape[0] >= 256 && lw_cuda_plan_engine(pc) == LWE_TILE2D &&
               !(m == LW_PERIODIC && d == LW_INVERSE);
    lw_slabs sl;
    int slabs = h->rank == 3 && !h->naxes && h->levels >= 1 && m != LW_PERIODIC && pc->wav->separable &&
                lw_slabs_plan(h->shape[0], pc->wav->halo, 16, &sl) == 0;
    int64_t items = h->naxes ? h->shape[0] : 0, per = (items + 15) / 16; /* the cases' batches: axes 1, 2 */
    int groups = items && (items + per - 1) / per >= 3;
    int has_pyr = strstr(desc, "host_pipeline: level 1 in row bands") != NULL;
    int has_slabs = strstr(desc, "slabs of") != NULL, has_groups = strstr(desc, "groups of") != NULL;
    CHECK(pyr2 == has_pyr && slabs == has_slabs && groups == has_groups, "%s: pipeline (expected%s%s%s):\n%s", txt,
          pyr2 ? " bands+tail" : "", slabs ? " slabs" : "", groups ? " groups" : "", desc);
    /* pyramids of three levels or more in symmetric mode: level 2 in bands too, where the fused kernel
     * takes the level-1 lowpass band (haar in symmetric mode: even lengths) */
    const int64_t r1 = (h->shape[0] + 1) / 2, c1 = (h->shape[1] + 1) / 2;
    int band2 = pyr2 && m != LW_PERIODIC && h->levels >= 3 &&
                !(pc->wav->id == LW_HAAR && ((r1 | c1) & 1));
    CHECK(band2 == (strstr(desc, "level 2 in row bands") != NULL), "%s: level 2 in bands expected %d:\n%s", txt,
          band2, desc);
    g_band2 += band2;
    g_paths[pyr2 ? 0 : slabs ? 1 : groups ? 2 : 3]++;
}

/* one configuration on one kind of host memory, out of place and in place */
static void run_one(const hcase *h, lw_wavelet w, lw_dtype t, lw_mode m, lw_direction d, int k)
{
    const hostmem *hm = &g_mem[k];
    char txt[200];
    snprintf(txt, sizeof txt, "%s %s %s %s rank %d %lldx%lldx%lld%s levels %d, %s", lw_wavelet_name(w),
             lw_dtype_name(t), lw_mode_name(m), d ? "inverse" : "forward", h->rank, (long long)h->shape[0],
             (long long)h->shape[1], (long long)(h->rank > 2 ? h->shape[2] : 1), h->naxes ? " (axes 1,2)" : "",
             h->levels, hm->name);
    lw_plan *pr = NULL, *pc = NULL;
    lw_status sr = plan_of(&pr, h, w, t, m, d, LW_BACKEND_CPU_REF, NULL);
    if (sr != LW_OK) { /* e.g. odd periodic lengths: not a host-memory matter */
        lw_destroy(pr);
        return;
    }
    lw_status sc = plan_of(&pc, h, w, t, m, d, LW_BACKEND_CUDA, hm->tuning);
    CHECK(sc == LW_OK, "%s: cuda plan: %s", txt, lw_last_error());
    if (sc != LW_OK) {
        lw_destroy(pr);
        return;
    }
    check_path(pc, h, m, d, txt);
    int64_t n = 1;
    for (int i = 0; i < h->rank; i++) n *= h->shape[i];
    size_t bytes = (size_t)n * lw_dtype_size(t);
    void *x = malloc(bytes), *yr = malloc(bytes);
    void *hx = host_alloc(bytes, hm->pinned), *hy = host_alloc(bytes, hm->pinned);
    CHECK(x && yr && hx && hy, "%s: host memory", txt);
    if (x && yr && hx && hy) {
        fill_rand(x, t, n);
        CHECK(lw_execute(pr, x, yr) == LW_OK, "%s: reference failed", txt);
        double tol = t == LW_INT32 ? 0.0 : t == LW_FLOAT32 ? 1e-5 : 1e-12, ref = 0, e;
        for (int inplace = 0; inplace < 2; inplace++) {
            memcpy(hx, x, bytes);
            if (!inplace) memset(hy, 0xff, bytes);
            lw_status se = lw_execute(pc, hx, inplace ? hx : hy);
            CHECK(se == LW_OK, "%s%s: execute: %s", txt, inplace ? " in place" : "", lw_last_error());
            e = max_err(inplace ? hx : hy, yr, t, n, &ref);
            CHECK(e <= tol * (ref > 0 ? ref : 1), "%s%s [%s]: max error %g (max |ref| %g)", txt,
                  inplace ? " in place" : "", engine_name(lw_cuda_plan_engine(pc)), e, ref);
            if (!inplace) CHECK(memcmp(hx, x, bytes) == 0, "%s: input modified", txt);
        }
        g_runs[k]++;
    }
    free(x), free(yr);
    if (hx) host_free(hx, hm->pinned);
    if (hy) host_free(hy, hm->pinned);
    lw_destroy(pr);
    lw_destroy(pc);
}

/* ---- two threads, one plan ------------------------------------------------------ */

typedef struct targ {
    const lw_plan *p;
    const float *x, *ref;
    int64_t n;
    int bad;
} targ;

static void *thread_main(void *arg)
{
    targ *a = arg;
    size_t bytes = (size_t)a->n * sizeof(float);
    float *in = malloc(bytes), *out = malloc(bytes);
    for (int it = 0; it < 8 && in && out; it++) {
        memcpy(in, a->x, bytes);
        memset(out, 0xff, bytes);
        if (lw_execute(a->p, in, out) != LW_OK) a->bad++;
        double ref = 0, e = max_err(out, a->ref, LW_FLOAT32, a->n, &ref);
        if (!(e <= 1e-5 * ref)) a->bad++;
    }
    if (!in || !out) a->bad++;
    free(in), free(out);
    return NULL;
}

/* expect: a line the plan's description must hold (NULL: none) */
static void two_threads_of(const hcase *h, lw_wavelet w, lw_direction d, const char *tuning, const char *expect)
{
    lw_plan *pc = NULL, *pr = NULL;
    CHECK(plan_of(&pc, h, w, LW_FLOAT32, LW_SYMMETRIC, d, LW_BACKEND_CUDA, tuning) == LW_OK,
          "threads: plan: %s", lw_last_error());
    char desc[4096] = "";
    if (pc && expect) {
        lw_plan_describe(pc, desc, sizeof desc);
        CHECK(strstr(desc, expect) != NULL, "threads (%s): the plan should say \"%s\":\n%s", tuning ? tuning : "default",
              expect, desc);
    }
    CHECK(plan_of(&pr, h, w, LW_FLOAT32, LW_SYMMETRIC, d, LW_BACKEND_CPU_REF, NULL) == LW_OK,
          "threads: reference plan");
    int64_t n = 1;
    for (int i = 0; i < h->rank; i++) n *= h->shape[i];
    float *x[2], *ref[2];
    targ a[2];
    pthread_t th[2];
    for (int i = 0; i < 2; i++) {
        x[i] = malloc((size_t)n * sizeof(float)), ref[i] = malloc((size_t)n * sizeof(float));
        fill_rand(x[i], LW_FLOAT32, n);
        if (pr) lw_execute(pr, x[i], ref[i]);
        a[i].p = pc, a[i].x = x[i], a[i].ref = ref[i], a[i].n = n, a[i].bad = 0;
    }
    for (int i = 0; i < 2 && pc && pr; i++) pthread_create(&th[i], NULL, thread_main, &a[i]);
    for (int i = 0; i < 2 && pc && pr; i++) {
        pthread_join(th[i], NULL);
        CHECK(a[i].bad == 0, "threads (%s, %s, rank %d, levels %d): thread %d had %d bad executes", lw_wavelet_name(w),
              tuning ? tuning : "default", h->rank, h->levels, i, a[i].bad);
    }
    printf("threads: 2 threads x 8 executes of one plan, %s %s rank %d levels %d, pageable (%s)\n", lw_wavelet_name(w),
           d == LW_FORWARD ? "forward" : "inverse", h->rank, h->levels, tuning ? tuning : "default staging");
    for (int i = 0; i < 2; i++) free(x[i]), free(ref[i]);
    lw_destroy(pc);
    lw_destroy(pr);
}

static void two_threads(const hcase *h, const char *tuning) { two_threads_of(h, LW_CDF97, LW_FORWARD, tuning, NULL); }

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    (void)run_case; /* gpu_common.h's own runner: not used here */
    lw_test_seed(1616);
    const int quick = getenv("LW_HOSTMEM_QUICK") != NULL;
    static const hcase full[] = {
        {2, {600, 520, 0}, 0, {0, 0}, 1},  /* row bands */
        {2, {601, 519, 0}, 0, {0, 0}, 1},  /* odd: row bands */
        {2, {600, 520, 0}, 0, {0, 0}, 5},
        {2, {333, 277, 0}, 0, {0, 0}, 5},
        {2, {600, 520, 0}, 0, {0, 0}, 3},  /* level 2 in bands */
        {2, {2100, 262, 0}, 0, {0, 0}, 4}, /* bands of 96 rows: level-2 bands of 48 */
        {2, {100, 70, 0}, 0, {0, 0}, 1},   /* too short for bands */
        {3, {40, 36, 34}, 0, {0, 0}, 1},
        {3, {70, 36, 34}, 0, {0, 0}, 1},   /* slabs */
        {3, {67, 30, 28}, 0, {0, 0}, 1},   /* slabs, odd */
        {3, {70, 36, 34}, 0, {0, 0}, 2},   /* slabs + octant tail */
        {3, {67, 30, 29}, 0, {0, 0}, 3},
        {3, {33, 27, 41}, 0, {0, 0}, 3},
        {3, {5, 300, 260}, 2, {1, 2}, 1},  /* batch of 2-D (NCHW) */
        {3, {6, 90, 75}, 2, {1, 2}, 3},
    };
    static const hcase small[] = {
        {2, {300, 260, 0}, 0, {0, 0}, 1},
        {2, {97, 66, 0}, 0, {0, 0}, 3},
        {2, {520, 300, 0}, 0, {0, 0}, 3},  /* level 2 in bands */
        {3, {18, 20, 22}, 0, {0, 0}, 2},
        {3, {45, 20, 22}, 0, {0, 0}, 1},
        {3, {45, 21, 22}, 0, {0, 0}, 2},
        {3, {7, 40, 50}, 2, {1, 2}, 2},    /* batch groups */
    };
    const hcase *cs = quick ? small : full;
    int ncs = quick ? (int)(sizeof small / sizeof *small) : (int)(sizeof full / sizeof *full);
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        int has_int = (lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER) != 0;
        for (int i = 0; i < ncs; i++)
            for (int d = 0; d < 2; d++)
                for (int k = 0; k < NMEM; k++) {
                    if (quick && k != 1 && k != 3) continue;
                    /* float32 always; float64, int32 and periodic on some memories (they share the paths) */
                    lw_dtype t = LW_FLOAT32;
                    lw_mode m = LW_SYMMETRIC;
                    if (k == 2) t = LW_FLOAT64;
                    if (k == 3 && has_int) t = LW_INT32;
                    if (k == 4) m = LW_PERIODIC;
                    run_one(&cs[i], (lw_wavelet)w, t, m, (lw_direction)d, k);
                }
    }
    for (int k = 0; k < NMEM; k++) printf("hostmem: %-22s %ld configurations checked\n", g_mem[k].name, g_runs[k]);
    printf("hostmem: paths: %ld 2-D pyramid bands + tail (%ld with level 2 in bands), %ld 3-D slabs, %ld batch "
           "groups, %ld others (bands of one level, whole)\n", g_paths[0], g_band2, g_paths[1], g_paths[2], g_paths[3]);
    CHECK(g_paths[1] > 0 && g_band2 > 0 && (quick || (g_paths[0] > 0 && g_paths[2] > 0)), "the pipelines were reached");
    /* two threads on one plan: the band path and the whole path, pageable, with rings small enough to wrap */
    hcase band = {2, {1024, 768, 0}, 0, {0, 0}, 1}, pyr = {3, {24, 40, 36}, 0, {0, 0}, 2};
    hcase pyr2 = {2, {520, 384, 0}, 0, {0, 0}, 4}, vol = {3, {80, 40, 36}, 0, {0, 0}, 1};
    hcase vol3 = {3, {66, 40, 36}, 0, {0, 0}, 3};
    two_threads(&band, "stage_kb=64,stage_buffers=2");
    two_threads(&pyr, quick ? "stage_kb=8" : NULL);
    two_threads(&pyr2, "stage_kb=32");
    two_threads(&vol, "stage_kb=32,host_slabs=6");
    two_threads(&vol3, "stage_kb=32");
    hcase nchw = {3, {12, 64, 80}, 2, {1, 2}, 2};
    two_threads(&nchw, "stage_kb=16");
    if (!quick) two_threads(&band, "pageable=register");
    /* d4 batches of 512^2 planes, where the fused 2-D engine's end row tiles run on a stream of the
     * plan's beside the others (tile2d_side), and a three-level inverse in two groups on streams of the
     * plan's (tile2d_groups=2; every level on the fused engine: tail=fused; the lowpass bands in scratch,
     * not level 1 in bands: tile2d_lead_kb; the array whole: host_slabs=1): calls from two threads share
     * them (a forward's device input, ours, is destroyed: level 1 in bands, no groups) */
    hcase d4b = {3, {6, 512, 512}, 2, {1, 2}, 1}, d4g = {3, {4, 512, 512}, 2, {1, 2}, 3};
    two_threads_of(&d4b, LW_D4, LW_FORWARD, "host_slabs=1", "the end row tiles");
    two_threads_of(&d4g, LW_D4, LW_INVERSE, "host_slabs=1,tile2d_groups=2,tail=fused,tile2d_lead_kb=65536", "2 groups");
    /* a bad tuning value fails plan creation with a message naming the key */
    lw_plan *p = NULL;
    hcase h = {2, {64, 64, 0}, 0, {0, 0}, 1};
    lw_status s = plan_of(&p, &h, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD, LW_BACKEND_CUDA, "stage_buffers=65");
    CHECK(s == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "stage_buffers") && !p,
          "stage_buffers=65: status %d (%s)", (int)s, lw_last_error());
    char desc[4096];
    h.shape[0] = h.shape[1] = 1024; /* 4 MiB: room for 16 buffers of 256 KiB */
    s = plan_of(&p, &h, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_FORWARD, LW_BACKEND_CUDA, "stage_kb=256,copy_threads=2");
    CHECK(s == LW_OK && lw_plan_describe(p, desc, sizeof desc) == LW_OK &&
              strstr(desc, "2 rings of 16 pinned buffers of 262144 bytes, 2 copy threads"),
          "describe names the staging: %s", s == LW_OK ? desc : lw_last_error());
    lw_destroy(p);
    return lw_test_finish("test_host_memory");
}
