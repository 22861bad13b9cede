/* Out of core on the CUDA backend: host arrays streamed through a device
 * budget (lw_config.device_memory_limit) in slabs equal the in-core run.
 *   - every wavelet x float32 (and the integer variants on int32, bit for
 *     bit) x both modes x both layouts x forward / inverse x 1, 2 and the
 *     most levels, on 1-D, 2-D, 3-D and a batch over axes (1, 2); in place
 *     and out of place; pageable and pinned host memory; each against the
 *     same plan without a limit (in core), float32 within 1e-5 relative;
 *   - the plan says so (lw_plan_describe: "out_of_core"), the input of an
 *     out-of-place call is left as it was;
 *   - in place with the rows held on the device (a budget with room for the
 *     quarter of the array that waits), every wavelet and level count;
 *   - inverses out of place whose corner takes passes of its own, its levels
 *     first into the output's last rows (ooc_stash) or on a copy of the input;
 *   - a budget too small for the halos: plan creation fails with
 *     LW_ERR_DEVICE_OUT_OF_MEMORY naming device_memory_limit;
 *   - one side on the device (LW_FLAG_DEVICE_INPUT: G->C, LW_FLAG_DEVICE_OUTPUT:
 *     C->G) equal to the host-pointer run on 1-D, 2-D (both layouts, both
 *     modes, 1 and 3 levels), 3-D and a batch, forward and inverse, float32
 *     and int32; the device input left as it was; in == out refused; device
 *     memory given to a host-pointer plan refused with a clear error;
 *   - timing (information, LW_GPU_QUICK skips it): 8192^2 float32 cdf97, 1
 *     and 5 levels, forward, pinned, a 64 MiB budget, against the copy
 *     engines' bound measured in the same run.
 *   LW_GPU_QUICK=1  fewer shapes and combinations (compute-sanitizer memcheck); =2 fewer still (racecheck)
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
    {3, 0, {0}, {96, 24, 20}, 300 << 10}, /* nine slab buffers of 2 + 2 halos' planes fit */
    {3, 2, {1, 2}, {5, 160, 128}, 200 << 10}, /* a batch: groups of planes, or slabs of each */
};
static const shape_case quick_shapes[] = {
    {2, 0, {0}, {300, 260}, 160 << 10},
};

static long g_ooc_runs, g_described, g_placed;

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
            double mx, dm;
            lw_test_f32_diff(r, y, n, &mx, &dm);
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
                                if (quick > 1 && (li != 0 || wi != 2 || integer || mode != lay)) continue;
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
    lw_status st = make(&p, &c, 20000);
    CHECK(st == LW_ERR_DEVICE_OUT_OF_MEMORY && strstr(lw_last_error(), "device_memory_limit") && !p,
          "a budget of 20000 bytes: plan creation gave status %d, %s", (int)st, lw_last_error());
    lw_destroy(p);
}

/* one side on the device against the host-pointer plan */
static void placement_one(const lw_config *c0, const char *label)
{
    lw_config c = *c0;
    c.backend = LW_BACKEND_CUDA;
    lw_plan *ref = NULL, *gc = NULL, *cg = NULL;
    if (lw_plan_create(&ref, &c) != LW_OK) return;
    c.flags = LW_FLAG_DEVICE_INPUT;
    CHECK(lw_plan_create(&gc, &c) == LW_OK, "%s: G->C plan: %s", label, lw_last_error());
    c.flags = LW_FLAG_DEVICE_OUTPUT;
    CHECK(lw_plan_create(&cg, &c) == LW_OK, "%s: C->G plan: %s", label, lw_last_error());
    size_t n = 1, es = lw_dtype_size(c.dtype);
    for (int d = 0; d < c.rank; d++) n *= (size_t)c.shape[d];
    void *x = malloc(n * es), *r = malloc(n * es), *y = malloc(n * es), *back = malloc(n * es), *dx = NULL, *dy = NULL;
    cudaMalloc(&dx, n * es);
    cudaMalloc(&dy, n * es);
    fill(x, n, c.dtype);
    cudaMemcpy(dx, x, n * es, cudaMemcpyHostToDevice);
    lw_status s0 = lw_execute(ref, x, r);
    if (s0 == LW_OK && gc && cg) {
        memset(y, 0x7f, n * es);
        lw_status st = lw_execute(gc, dx, y);
        CHECK(st == LW_OK, "%s: G->C: %s", label, lw_last_error());
        CHECK(st != LW_OK || memcmp(r, y, n * es) == 0, "%s: G->C differs from the host-pointer run", label);
        cudaMemcpy(back, dx, n * es, cudaMemcpyDeviceToHost);
        CHECK(memcmp(back, x, n * es) == 0, "%s: G->C changed the device input", label);
        cudaMemset(dy, 0x7f, n * es);
        st = lw_execute(cg, x, dy);
        CHECK(st == LW_OK, "%s: C->G: %s", label, lw_last_error());
        cudaMemcpy(back, dy, n * es, cudaMemcpyDeviceToHost);
        CHECK(st != LW_OK || memcmp(r, back, n * es) == 0, "%s: C->G differs from the host-pointer run", label);
        CHECK(lw_execute(cg, dx, dx) == LW_ERR_INVALID_ARGUMENT, "%s: in == out with one side on the device", label);
        g_placed++;
    }
    cudaFree(dx), cudaFree(dy);
    free(x), free(r), free(y), free(back);
    lw_destroy(ref), lw_destroy(gc), lw_destroy(cg);
}

static void placement(int quick)
{
    static const shape_case sh[] = {
        {1, 0, {0}, {100000}, 0},
        {2, 0, {0}, {1000, 800}, 0},
        {3, 0, {0}, {64, 48, 40}, 0},
        {3, 2, {1, 2}, {4, 300, 256}, 0},
    };
    char label[200];
    for (size_t si = 0; si < sizeof sh / sizeof *sh; si++)
        for (int mode = 0; mode < 2; mode++)
            for (int lay = 0; lay < 2; lay++)
                for (int L = 1; L <= 3; L += 2)
                    for (int dir = 0; dir < 2; dir++)
                        for (int integer = 0; integer < 2; integer++) {
                            if (quick && (si != 1 || L != 1 || mode != lay)) continue;
                            if (quick > 1 && integer) continue;
                            lw_config c;
                            lw_config_init(&c);
                            c.rank = sh[si].rank, c.naxes = sh[si].naxes;
                            memcpy(c.shape, sh[si].shape, sizeof c.shape);
                            memcpy(c.axes, sh[si].axes, sizeof c.axes);
                            c.mode = (lw_mode)mode, c.layout = (lw_layout)lay, c.levels = L;
                            c.direction = (lw_direction)dir;
                            if (integer) c.dtype = LW_INT32, c.integer = 1, c.wavelet = LW_CDF53;
                            snprintf(label, sizeof label, "placement shape #%zu mode %d layout %d levels %d dir %d int %d",
                                     si, mode, lay, L, dir, integer);
                            placement_one(&c, label);
                        }
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 64, c.shape[1] = 64, c.backend = LW_BACKEND_CUDA;
    c.flags = LW_FLAG_DEVICE_INPUT | LW_FLAG_IN_PLACE;
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_ARGUMENT, "LW_FLAG_IN_PLACE with LW_FLAG_DEVICE_INPUT accepted");
    lw_destroy(p);
    /* device memory given to a host-pointer plan (in core and out of core): refused, never read as host memory */
    void *d = NULL;
    float *h = calloc(64 * 64, sizeof *h);
    cudaMalloc(&d, 64 * 64 * sizeof(float));
    for (int k = 0; k < 2; k++) {
        c.flags = 0, p = NULL;
        /* 40 KiB: less than the whole array's in, out and scratch, room for nine slab buffers */
        CHECK(make(&p, &c, k ? 40 << 10 : 0) == LW_OK, "host plan: %s", lw_last_error());
        CHECK(lw_execute(p, d, h) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "device memory"),
              "a device input to a host-pointer plan (%s): %s", k ? "out of core" : "in core", lw_last_error());
        CHECK(lw_execute(p, h, d) == LW_ERR_INVALID_ARGUMENT, "a device output to a host-pointer plan: %s",
              lw_last_error());
        lw_destroy(p);
    }
    cudaFree(d);
    free(h);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* n bytes up (x -> d) and down (d -> y), each alone: the best of 3 after one warm-up */
static void copy_times(const void *x, void *y, void *d, size_t n, double *tu, double *td)
{
    *tu = *td = 1e9;
    for (int i = 0; i < 4; i++) {
        double a = now();
        cudaMemcpy(d, x, n, cudaMemcpyHostToDevice);
        double b = now();
        cudaMemcpy(y, d, n, cudaMemcpyDeviceToHost);
        double e = now();
        if (i && b - a < *tu) *tu = b - a;
        if (i && e - b < *td) *td = e - b;
    }
}

/* the median of 5 runs after one warm-up */
static lw_status time_exec(lw_plan *p, const void *in, void *out, double *med)
{
    double t[5];
    lw_status st = lw_execute(p, in, out);
    CHECK(st == LW_OK, "timing run: %s", lw_last_error());
    for (int i = 0; i < 5 && st == LW_OK; i++) {
        double a = now();
        st = lw_execute(p, in, out);
        t[i] = now() - a;
        CHECK(st == LW_OK, "timing run: %s", lw_last_error());
    }
    if (st != LW_OK) return st;
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                double s = t[i];
                t[i] = t[j], t[j] = s;
            }
    *med = t[2];
    return LW_OK;
}

/* one timing case: in core and out of core under a 64 MiB budget, against
 * the copy engines' bound (up and down overlapped) of this run */
static void time_case(const lw_config *c, const char *what, float *x, float *r, float *y, double tu, double td,
                      const char *mem)
{
    const size_t budget = (size_t)64 << 20;
    double ti = 0, to = 0;
    size_t n = 1;
    for (int d = 0; d < c->rank; d++) n *= (size_t)c->shape[d];
    lw_plan *in_core = NULL, *ooc = NULL;
    if (make(&in_core, c, 0) != LW_OK || make(&ooc, c, budget) != LW_OK) {
        CHECK(0, "timing plans: %s", lw_last_error());
        lw_destroy(in_core), lw_destroy(ooc);
        return;
    }
    if (time_exec(in_core, x, r, &ti) != LW_OK || time_exec(ooc, x, y, &to) != LW_OK) {
        lw_destroy(in_core), lw_destroy(ooc);
        return;
    }
    double dm = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs((double)r[i] - y[i]) > dm) dm = fabs((double)r[i] - y[i]);
    CHECK(dm < 1e-3, "timing case %s: differs from in core by %g", what, dm);
    const double bound = tu > td ? tu : td;
    printf("timing: %s %s: in core %.2f ms, out of core (64 MiB budget) %.2f ms; bound %.2f ms (up and down "
           "overlapped): %.2f of it, in core %.2f\n",
           what, mem, ti * 1e3, to * 1e3, bound * 1e3, bound / to, bound / ti);
    printf("RECORD {\"case\": \"%s\", \"host_memory\": \"%s\", \"array_bytes\": %zu, \"device_memory_limit\": %zu, "
           "\"in_core_ms\": %.3f, \"out_of_core_ms\": %.3f, \"pcie_bound_ms\": %.3f, \"fraction_of_bound\": %.3f, "
           "\"in_core_fraction\": %.3f, \"max_abs_diff_vs_in_core\": %.3g}\n",
           what, mem, n * sizeof(float), budget, ti * 1e3, to * 1e3, bound * 1e3, bound / to, bound / ti, dm);
    lw_destroy(in_core), lw_destroy(ooc);
}

static void timing(void)
{
    const size_t n = (size_t)8192 * 8192 * sizeof(float);
    float *x = NULL, *y = NULL, *r = NULL;
    void *d = NULL;
    if (cudaMallocHost((void **)&x, n) != cudaSuccess || cudaMallocHost((void **)&y, n) != cudaSuccess ||
        cudaMallocHost((void **)&r, n) != cudaSuccess || cudaMalloc(&d, n) != cudaSuccess) {
        printf("timing: skipped (no room for 3 x %zu pinned bytes)\n", n);
        cudaGetLastError();
        return;
    }
    fill(x, n / sizeof(float), LW_FLOAT32);
    /* the bound: each way alone (a call moves n up and n down; they may overlap) */
    double tu, td;
    copy_times(x, y, d, n, &tu, &td);
    printf("timing: copy engines %.1f GB/s up, %.1f GB/s down (pinned, %zu MiB)\n", n / tu * 1e-9, n / td * 1e-9,
           n >> 20);
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 8192, c.shape[1] = 8192;
    for (int L = 1; L <= 5; L += 4)
        for (int dir = 0; dir < 2; dir++) {
            char what[96];
            c.levels = L, c.direction = (lw_direction)dir;
            snprintf(what, sizeof what, "2-D cdf97 8192x8192 L%d %s", L, dir ? "inverse" : "forward");
            time_case(&c, what, x, r, y, tu, td, "pinned");
            if (L == 1 && dir == 0) { /* in place: the rows reordered on the host */
                lw_plan *p = NULL;
                if (make(&p, &c, (size_t)64 << 20) == LW_OK) {
                    memcpy(y, x, n);
                    double a = now();
                    lw_status st = lw_execute(p, y, y);
                    double t = now() - a;
                    CHECK(st == LW_OK, "in place timing: %s", lw_last_error());
                    printf("timing: %s pinned in place (first call, rows reordered on the host): %.2f ms\n", what,
                           t * 1e3);
                }
                lw_destroy(p);
            }
        }
    /* 3-D: planes of 256 KiB, so that slabs with their halos fit the 64 MiB budget nine times */
    c.rank = 3, c.shape[0] = 1024, c.shape[1] = 256, c.shape[2] = 256, c.levels = 1, c.direction = LW_FORWARD;
    time_case(&c, "3-D cdf97 1024x256x256 L1 forward", x, r, y, tu, td, "pinned");
    c.levels = 3;
    time_case(&c, "3-D cdf97 1024x256x256 L3 forward", x, r, y, tu, td, "pinned");
    /* pageable: through the staging ring */
    float *px = malloc(n), *py = malloc(n);
    if (px && py) {
        memcpy(px, x, n);
        c.rank = 2, c.shape[0] = 8192, c.shape[1] = 8192, c.levels = 1;
        time_case(&c, "2-D cdf97 8192x8192 L1 forward", px, r, py, tu, td, "pageable");
    }
    free(px), free(py);
    cudaFreeHost(x), cudaFreeHost(y), cudaFreeHost(r), cudaFree(d);
}

/* C->G and G->C at 16384^2 float32 cdf97 L1 forward, pinned, against the one-way copy */
static void placement_timing(void)
{
    const int64_t R = 16384, C = 16384;
    const size_t n = (size_t)(R * C) * sizeof(float);
    float *x = NULL, *y = NULL;
    void *d0 = NULL, *d1 = NULL;
    if (cudaMallocHost((void **)&x, n) != cudaSuccess || cudaMallocHost((void **)&y, n) != cudaSuccess ||
        cudaMalloc(&d0, n) != cudaSuccess || cudaMalloc(&d1, n) != cudaSuccess) {
        printf("timing: C->G / G->C skipped (no room)\n");
        cudaGetLastError();
        return;
    }
    fill(x, (size_t)(R * C), LW_FLOAT32);
    double tu, td;
    copy_times(x, y, d0, n, &tu, &td);
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = R, c.shape[1] = C, c.backend = LW_BACKEND_CUDA;
    const char *names[2] = {"C->G", "G->C"};
    for (int k = 0; k < 2; k++) {
        c.flags = k ? LW_FLAG_DEVICE_INPUT : LW_FLAG_DEVICE_OUTPUT;
        lw_plan *p = NULL;
        if (lw_plan_create(&p, &c) != LW_OK) {
            CHECK(0, "%s plan: %s", names[k], lw_last_error());
            continue;
        }
        const void *in = k ? d0 : (const void *)x;
        void *out = k ? (void *)y : d1;
        double t = 0, bound = k ? td : tu;
        if (time_exec(p, in, out, &t) != LW_OK) {
            lw_destroy(p);
            continue;
        }
        printf("timing: %s cdf97 16384x16384 L1 forward pinned: %.2f ms, one-way copy %.2f ms: %.2f of it\n", names[k],
               t * 1e3, bound * 1e3, bound / t);
        printf("RECORD {\"case\": \"%s 2-D cdf97 16384x16384 L1 forward\", \"host_memory\": \"pinned\", "
               "\"array_bytes\": %zu, \"median_s\": %.6f, \"one_way_copy_s\": %.6f, \"fraction_of_bound\": %.3f}\n",
               names[k], n, t, bound, bound / t);
        lw_destroy(p);
    }
    cudaFreeHost(x), cudaFreeHost(y), cudaFree(d0), cudaFree(d1);
}

/* in place with the rows held on the device (symmetric, Mallat, a budget of
 * about the array's rows: room for the quarter that waits) against in core */
static void held(int quick)
{
    static const shape_case sh[] = {
        {2, 0, {0}, {600, 500}, 600 * 500 * 4},
        {3, 0, {0}, {160, 40, 36}, 160 * 40 * 36 * 5},
        {1, 0, {0}, {300000}, 300000 * 4 * 3 / 4},
    };
    static const int levels[] = {1, 2, LW_LEVELS_MAX};
    char label[200];
    for (size_t si = 0; si < (quick ? 1 : sizeof sh / sizeof *sh); si++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (size_t li = 0; li < 3; li++)
                for (int dir = 0; dir < 2; dir++)
                    for (int integer = 0; integer < 2; integer++) {
                        if (quick && (li != 0 || w != LW_CDF97)) continue;
                        if (quick > 1 && integer) continue;
                        if (integer && !(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                        lw_config c;
                        lw_config_init(&c);
                        c.rank = sh[si].rank;
                        memcpy(c.shape, sh[si].shape, sizeof c.shape);
                        c.wavelet = (lw_wavelet)w, c.levels = levels[li], c.direction = (lw_direction)dir;
                        if (integer) c.dtype = LW_INT32, c.integer = 1;
                        snprintf(label, sizeof label, "held shape #%zu %s L%d dir %d int %d", si,
                                 lw_wavelet_name(c.wavelet), c.levels, dir, integer);
                        one(&sh[si], &c, 1, (w + dir) & 1, label);
                    }
}

/* An inverse out of place whose lowpass corner takes passes of its own over the host: the budget is
 * searched from half the array down for the first whose plan says so.  The corner's levels then run
 * first into the output's last rows (ooc_stash, the default); with ooc_stash=0 the input is copied to
 * the output and the passes run in place there.  Both against in core, pinned and pageable. */
static long g_stash;
static void stash(int quick)
{
    static const shape_case sh[] = {{3, 0, {0}, {256, 24, 20}, 0}, {2, 0, {0}, {1024, 64}, 0}};
    static const lw_wavelet wav[] = {LW_CDF97, LW_DD137, LW_HAAR};
    char label[256];
    for (size_t si = 0; si < sizeof sh / sizeof *sh; si++)
        for (size_t wi = 0; wi < sizeof wav / sizeof *wav; wi++)
            for (int mode = 0; mode < 2; mode++) {
                if (quick && (wi || mode || (quick > 1 && si))) continue;
                lw_config c;
                lw_config_init(&c);
                c.rank = sh[si].rank;
                memcpy(c.shape, sh[si].shape, sizeof sh[si].shape);
                c.wavelet = wav[wi], c.mode = (lw_mode)mode, c.levels = LW_LEVELS_MAX, c.direction = LW_INVERSE;
                size_t bytes = sizeof(float);
                for (int d = 0; d < c.rank; d++) bytes *= (size_t)c.shape[d];
                shape_case sc = sh[si];
                for (size_t b = bytes / 2; b > bytes / 512 && !sc.limit; b = b * 31 / 32) {
                    lw_plan *p = NULL;
                    if (make(&p, &c, b) != LW_OK) continue; /* too small for the halos */
                    char desc[4096] = "";
                    lw_plan_describe(p, desc, sizeof desc);
                    lw_destroy(p);
                    if (strstr(desc, "into the output's last rows")) sc.limit = b;
                }
                snprintf(label, sizeof label, "stash: shape #%zu wavelet %d mode %d budget %zu", si, (int)wav[wi], mode,
                         sc.limit);
                CHECK(sc.limit, "%s: no budget between %zu and %zu bytes runs the corner's levels first into the "
                      "output", label, bytes / 512, bytes / 2);
                if (!sc.limit) continue;
                g_stash++;
                for (int key = 0; key < 2; key++)
                    for (int pin = 0; pin < 2; pin++) {
                        c.tuning = key ? "ooc_stash=0" : NULL;
                        one(&sc, &c, 0, pin, label);
                    }
            }
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    lw_rng_seed(20261126);
    /* LW_GPU_QUICK=1: a few cases of each kind (memcheck); 2: fewer still (racecheck, the slowest tool) */
    const char *qe = getenv("LW_GPU_QUICK");
    int quick = qe ? (atoi(qe) > 1 ? 2 : 1) : 0;
    too_small();
    sweep(quick);
    held(quick);
    stash(quick);
    printf("out of core: %ld runs against in core, %ld plans described out_of_core, %ld inverses with the corner's "
           "levels first into the output\n", g_ooc_runs, g_described, g_stash);
    placement(quick);
    printf("one side on the device: %ld configurations, G->C and C->G each\n", g_placed);
    if (!quick) timing(), placement_timing();
    return lw_test_finish("test_gpu_ooc");
}
