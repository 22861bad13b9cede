/* Out of core on the CUDA backend: host arrays streamed through a device
 * budget (lw_config.device_memory_limit) in slabs equal the in-core run.
 *   - every wavelet x float32 (and the integer variants on int32, bit for
 *     bit) x both modes x both layouts x forward / inverse x 1, 2 and the
 *     most levels, on 1-D, 2-D, 3-D and a batch over axes (1, 2); in place
 *     and out of place; pageable and pinned host memory; each against the
 *     same plan without a limit (in core), float32 within 1e-5 relative;
 *   - the plan says so (lw_plan_describe: "out_of_core"), the input of an
 *     out-of-place call is left as it was;
 *   - a budget too small for the halos: LW_ERR_DEVICE_OUT_OF_MEMORY naming
 *     device_memory_limit;
 *   - timing (information, LW_GPU_QUICK skips it): 8192^2 float32 cdf97, 1
 *     and 5 levels, forward, pinned, a 64 MiB budget, against the copy
 *     engines' bound measured in the same run.
 *   LW_GPU_QUICK=1  fewer shapes and combinations (compute-sanitizer)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define _POSIX_C_SOURCE 200809L
#include "liftwave.h"
#include "../unit/lw_test.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct shape_case {
    int rank, naxes, axes[3];
    int64_t shape[4];
    size_t limit; /* bytes */
} shape_case;

static const shape_case shapes[] = {
    {1, 0, {0}, {300000}, 400 << 10},
    {2, 0, {0}, {600, 500}, 400 << 10},
    {3, 0, {0}, {48, 40, 36}, 300 << 10},
    {3, 2, {1, 2}, {5, 160, 128}, 200 << 10}, /* a batch: groups of planes, or slabs of each */
};
static const shape_case quick_shapes[] = {
    {2, 0, {0}, {300, 260}, 160 << 10},
};

static long g_ooc_runs, g_described;

static void fill(void *x, size_t n, lw_dtype t)
{
    for (size_t i = 0; i < n; i++) {
        if (t == LW_INT32) ((int32_t *)x)[i] = (int32_t)lw_rng_range(-500, 500);
        else ((float *)x)[i] = (float)(lw_rng_unit() * 2 - 1);
    }
}

static lw_status make(lw_plan **p, const lw_config *c0, size_t limit)
{
    lw_config c = *c0;
    c.backend = LW_BACKEND_CUDA;
    c.device_memory_limit = limit;
    return lw_plan_create(p, &c);
}

static void one(const shape_case *sc, const lw_config *c, int inplace, int pinned, const char *label)
{
    lw_plan *ref = NULL, *p = NULL;
    if (make(&ref, c, 0) != LW_OK) return; /* a combination the library refuses */
    lw_status sp = make(&p, c, sc->limit);
    CHECK(sp == LW_OK, "%s: plan with a limit: %s", label, lw_last_error());
    if (sp != LW_OK) {
        lw_destroy(ref);
        return;
    }
    char desc[4096] = "";
    lw_plan_describe(p, desc, sizeof desc);
    CHECK(strstr(desc, "out_of_core") != NULL, "%s: not out of core under %zu bytes:\n%s", label, sc->limit, desc);
    g_described += strstr(desc, "out_of_core") != NULL;
    size_t n = 1, es = lw_dtype_size(c->dtype);
    for (int d = 0; d < c->rank; d++) n *= (size_t)c->shape[d];
    void *x = NULL, *y = NULL, *r = malloc(n * es), *x0 = malloc(n * es);
    if (pinned) {
        cudaMallocHost(&x, n * es);
        cudaMallocHost(&y, n * es);
    } else {
        x = malloc(n * es), y = malloc(n * es);
    }
    fill(x, n, c->dtype);
    memcpy(x0, x, n * es);
    lw_status s0 = lw_execute(ref, x, r);
    if (s0 == LW_OK) {
        lw_status st;
        if (inplace) {
            memcpy(y, x, n * es);
            st = lw_execute(p, y, y);
        } else {
            memset(y, 0x7f, n * es);
            st = lw_execute(p, x, y);
            CHECK(memcmp(x, x0, n * es) == 0, "%s: the input changed", label);
        }
        g_ooc_runs++;
        CHECK(st == LW_OK, "%s: %s", label, lw_last_error());
        if (st == LW_OK && c->dtype == LW_INT32) {
            CHECK(memcmp(r, y, n * es) == 0, "%s: integer result differs from in core", label);
        } else if (st == LW_OK) {
            double mx = 0, dm = 0;
            for (size_t i = 0; i < n; i++) {
                double a = ((float *)r)[i], b = ((float *)y)[i];
                if (fabs(a) > mx) mx = fabs(a);
                if (!(fabs(a - b) <= dm)) dm = fabs(a - b);
            }
            CHECK(dm <= 1e-5 * (mx > 1 ? mx : 1), "%s: max difference %g from in core (max %g)", label, dm, mx);
        }
    }
    if (pinned) cudaFreeHost(x), cudaFreeHost(y);
    else free(x), free(y);
    free(r), free(x0);
    lw_destroy(p);
    lw_destroy(ref);
}

static void sweep(int quick)
{
    static const lw_wavelet wav[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_FS, LW_DD97};
    static const int levels[] = {1, 2, LW_LEVELS_MAX};
    const shape_case *sh = quick ? quick_shapes : shapes;
    const size_t ns = quick ? sizeof quick_shapes / sizeof *quick_shapes : sizeof shapes / sizeof *shapes;
    char label[256];
    for (size_t si = 0; si < ns; si++)
        for (size_t wi = 0; wi < sizeof wav / sizeof *wav; wi++)
            for (int mode = 0; mode < 2; mode++)
                for (int lay = 0; lay < 2; lay++)
                    for (size_t li = 0; li < 3; li++)
                        for (int dir = 0; dir < 2; dir++)
                            for (int integer = 0; integer < 2; integer++) {
                                if (quick && (li == 1 || (wi != 2 && wi != 4 && wi != 5))) continue;
                                const shape_case *sc = &sh[si];
                                lw_config c;
                                lw_config_init(&c);
                                c.rank = sc->rank, c.naxes = sc->naxes;
                                memcpy(c.shape, sc->shape, sizeof sc->shape);
                                memcpy(c.axes, sc->axes, sizeof sc->axes);
                                c.wavelet = wav[wi], c.mode = (lw_mode)mode, c.layout = (lw_layout)lay;
                                c.levels = levels[li], c.direction = (lw_direction)dir;
                                if (integer) c.dtype = LW_INT32, c.integer = 1;
                                const int ip = (int)((si + wi + li) & 1), pin = (int)((wi + (size_t)mode + li) & 1);
                                snprintf(label, sizeof label,
                                         "shape #%zu wavelet %d mode %d layout %d levels %d dir %d int %d %s %s", si,
                                         (int)wav[wi], mode, lay, levels[li], dir, integer,
                                         ip ? "in place" : "out of place", pin ? "pinned" : "pageable");
                                one(sc, &c, ip, pin, label);
                            }
}

static void too_small(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 600, c.shape[1] = 500, c.levels = 3;
    lw_plan *p = NULL;
    CHECK(make(&p, &c, 20000) == LW_OK, "plan: %s", lw_last_error());
    float *x = calloc(600 * 500, sizeof *x), *y = calloc(600 * 500, sizeof *y);
    lw_status st = p ? lw_execute(p, x, y) : LW_ERR_INVALID_ARGUMENT;
    CHECK(st == LW_ERR_DEVICE_OUT_OF_MEMORY && strstr(lw_last_error(), "device_memory_limit"),
          "a budget of 20000 bytes: status %d, %s", (int)st, lw_last_error());
    free(x), free(y);
    lw_destroy(p);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the median of 5 runs after one warm-up */
static double time_exec(lw_plan *p, const void *in, void *out)
{
    double t[5];
    lw_execute(p, in, out);
    for (int i = 0; i < 5; i++) {
        double a = now();
        lw_status st = lw_execute(p, in, out);
        t[i] = now() - a;
        CHECK(st == LW_OK, "timing run: %s", lw_last_error());
    }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                double s = t[i];
                t[i] = t[j], t[j] = s;
            }
    return t[2];
}

static void timing(void)
{
    const int64_t R = 8192, C = 8192;
    const size_t n = (size_t)(R * C) * sizeof(float);
    float *x = NULL, *y = NULL, *r = NULL;
    void *d = NULL;
    if (cudaMallocHost((void **)&x, n) != cudaSuccess || cudaMallocHost((void **)&y, n) != cudaSuccess ||
        cudaMallocHost((void **)&r, n) != cudaSuccess || cudaMalloc(&d, n) != cudaSuccess) {
        printf("timing: skipped (no room for 3 x %zu pinned bytes)\n", n);
        cudaGetLastError();
        return;
    }
    fill(x, (size_t)(R * C), LW_FLOAT32);
    /* the bound: each way alone (a call moves n up and n down; they may overlap) */
    double tu = 1e9, td = 1e9;
    for (int i = 0; i < 3; i++) {
        double a = now();
        cudaMemcpy(d, x, n, cudaMemcpyHostToDevice);
        double b = now();
        cudaMemcpy(y, d, n, cudaMemcpyDeviceToHost);
        double e = now();
        if (b - a < tu) tu = b - a;
        if (e - b < td) td = e - b;
    }
    printf("timing: copy engines %.1f GB/s up, %.1f GB/s down (pinned, %zu MiB)\n", n / tu * 1e-9, n / td * 1e-9,
           n >> 20);
    for (int L = 1; L <= 5; L += 4) {
        lw_config c;
        lw_config_init(&c);
        c.rank = 2, c.shape[0] = R, c.shape[1] = C, c.levels = L;
        lw_plan *in_core = NULL, *ooc = NULL;
        if (make(&in_core, &c, 0) != LW_OK || make(&ooc, &c, (size_t)64 << 20) != LW_OK) {
            CHECK(0, "timing plans: %s", lw_last_error());
            lw_destroy(in_core), lw_destroy(ooc);
            continue;
        }
        double ti = time_exec(in_core, x, r), to = time_exec(ooc, x, y);
        double dm = 0;
        for (int64_t i = 0; i < R * C; i++)
            if (fabs((double)r[i] - y[i]) > dm) dm = fabs((double)r[i] - y[i]);
        CHECK(dm < 1e-3, "timing case: differs from in core by %g", dm);
        const double serial = tu + td, overlap = tu > td ? tu : td;
        printf("timing: cdf97 %lldx%lld L%d forward pinned: in core %.2f ms, out of core (64 MiB budget) %.2f ms; "
               "bound %.2f ms both ways overlapped (%.2f of it), %.2f ms one after the other\n",
               (long long)R, (long long)C, L, ti * 1e3, to * 1e3, overlap * 1e3, overlap / to, serial * 1e3);
        lw_destroy(in_core), lw_destroy(ooc);
    }
    cudaFreeHost(x), cudaFreeHost(y), cudaFreeHost(r), cudaFree(d);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    lw_rng_seed(20261126);
    int quick = getenv("LW_GPU_QUICK") != NULL;
    too_small();
    sweep(quick);
    printf("out of core: %ld runs against in core, %ld plans described out_of_core\n", g_ooc_runs, g_described);
    if (!quick) timing();
    return lw_test_finish("test_gpu_ooc");
}
