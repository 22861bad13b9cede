/* Out-of-core benchmark of the CUDA backend: one host array (as large as the
 * machine allows, larger than the device if asked) through a device budget,
 * against the PCIe bound measured in the same run.  Holds nothing but the
 * array (and, out of place, the output): the input is a function of the
 * index, so the round trip (forward, then inverse) is checked against it
 * without a copy.
 *   gpu_ooc_bench --shape 146000x146000 [--levels L] [--limit BYTES|auto]
 *                 [--pinned] [--out-of-place] [--wavelet NAME] [--repeat N]
 *                 [--tune KEYS] [--json FILE]
 *   gpu_ooc_bench --host-probe [--probe-gib G]
 *                 the host's side of the bound: memcpy between two pageable
 *                 buffers with 1..all threads, and the cost of pinning
 *                 pageable memory (cudaHostRegister / Unregister, 1, 4, 16 ..
 *                 and all threads on as many pieces), G GiB (default 2)
 * Prints the times and one JSON record per direction (device, the commit
 * this program was built from, the date, the command, array bytes,
 * device_memory_limit, the bound). */
#define _POSIX_C_SOURCE 200809L
#include "liftwave.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the input: a hash of the index in [-1, 1) */
static float value(uint64_t i)
{
    uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x ^= x >> 31, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 27;
    return (float)((double)(x >> 40) / 8388608.0 - 1.0);
}

static void fill(float *x, uint64_t n)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < (int64_t)n; i++) x[i] = value((uint64_t)i);
}

static double max_err(const float *x, uint64_t n)
{
    double m = 0;
#pragma omp parallel for schedule(static) reduction(max : m)
    for (int64_t i = 0; i < (int64_t)n; i++) {
        double d = fabs((double)x[i] - value((uint64_t)i));
        if (d > m) m = d;
    }
    return m;
}

/* up and down at once through pinned buffers of `chunk` bytes: bytes per second each way */
static int pcie_bound(size_t chunk, double *gbps)
{
    void *hu = NULL, *hd = NULL, *du = NULL, *dd = NULL;
    cudaStream_t s0, s1;
    if (cudaMallocHost(&hu, chunk) || cudaMallocHost(&hd, chunk) || cudaMalloc(&du, chunk) || cudaMalloc(&dd, chunk))
        return -1;
    memset(hu, 1, chunk);
    cudaStreamCreate(&s0), cudaStreamCreate(&s1);
    double best = 1e30;
    for (int i = 0; i < 6; i++) {
        double a = now();
        cudaMemcpyAsync(du, hu, chunk, cudaMemcpyHostToDevice, s0);
        cudaMemcpyAsync(hd, dd, chunk, cudaMemcpyDeviceToHost, s1);
        cudaStreamSynchronize(s0), cudaStreamSynchronize(s1);
        double t = now() - a;
        if (i > 0 && t < best) best = t;
    }
    *gbps = (double)chunk / best * 1e-9;
    cudaFreeHost(hu), cudaFreeHost(hd), cudaFree(du), cudaFree(dd);
    cudaStreamDestroy(s0), cudaStreamDestroy(s1);
    return 0;
}

/* host memcpy with t threads, each on its own part: bytes copied per second (best of 3) */
static double host_copy_gbps(char *dst, const char *src, size_t bytes, int t)
{
    double best = 1e30;
    for (int r = 0; r < 4; r++) {
        double a = now();
#pragma omp parallel for schedule(static, 1) num_threads(t)
        for (int i = 0; i < t; i++) {
            size_t per = (bytes / (size_t)t) & ~(size_t)4095, o = (size_t)i * per;
            memcpy(dst + o, src + o, i == t - 1 ? bytes - o : per);
        }
        double e = now() - a;
        if (r > 0 && e < best) best = e;
    }
    return (double)bytes / best * 1e-9;
}

/* pin `bytes` of pageable memory in `parts` pieces at once, then unpin: seconds each */
static int register_time(char *x, size_t bytes, int parts, double *reg, double *unreg)
{
    int bad = 0;
    size_t per = (bytes / (size_t)parts) & ~(size_t)4095;
    double a = now();
#pragma omp parallel for schedule(static, 1) num_threads(parts) reduction(| : bad)
    for (int i = 0; i < parts; i++)
        bad |= cudaHostRegister(x + (size_t)i * per, i == parts - 1 ? bytes - (size_t)i * per : per, 0) != cudaSuccess;
    *reg = now() - a;
    a = now();
#pragma omp parallel for schedule(static, 1) num_threads(parts)
    for (int i = 0; i < parts; i++) cudaHostUnregister(x + (size_t)i * per);
    *unreg = now() - a;
    return bad;
}

static int host_probe(double gib)
{
    const size_t bytes = (size_t)(gib * 1073741824.0) & ~(size_t)4095;
    char *a = malloc(bytes), *b = malloc(bytes);
    if (!a || !b) return fprintf(stderr, "cannot allocate 2 x %zu bytes\n", bytes), 1;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < (int64_t)(bytes >> 12); i++) a[(size_t)i << 12] = (char)i, b[(size_t)i << 12] = 0;
    int maxt = 1;
#ifdef _OPENMP
    maxt = omp_get_max_threads();
#endif
    for (int t = 1; t <= maxt; t *= 2) {
        printf("host memcpy, %2d thread(s): %.1f GB/s copied\n", t, host_copy_gbps(b, a, bytes, t));
        if (t < maxt && 2 * t > maxt) t = maxt / 2;
    }
    for (int parts = 1; parts <= maxt; parts = parts < maxt && 4 * parts > maxt ? maxt : 4 * parts) {
        double r, u;
        if (register_time(a, bytes, parts, &r, &u)) printf("cudaHostRegister failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        else printf("pin %.2f GiB in %d piece(s) at once: register %.3f s (%.1f GB/s), unregister %.3f s\n",
                    bytes / 1073741824.0, parts, r, bytes / r * 1e-9, u);
    }
    free(a), free(b);
    return 0;
}

static int parse_shape(const char *s, lw_config *c)
{
    c->rank = 0;
    while (*s && c->rank < 3) {
        char *e;
        long long v = strtoll(s, &e, 10);
        if (e == s || v <= 0) return -1;
        c->shape[c->rank++] = v;
        s = *e == 'x' ? e + 1 : e;
        if (*e && *e != 'x') return -1;
    }
    return *s ? -1 : 0;
}

int main(int argc, char **argv)
{
    lw_config c;
    lw_config_init(&c);
    c.backend = LW_BACKEND_CUDA;
    const char *json = NULL, *limit = "auto";
    int pinned = 0, oop = 0, repeat = 1, probe = 0;
    double probe_gib = 2;
    char cmd[1024] = "";
    for (int i = 0; i < argc; i++) {
        strncat(cmd, argv[i], sizeof cmd - strlen(cmd) - 2);
        strncat(cmd, " ", sizeof cmd - strlen(cmd) - 1);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--shape") && v) {
            if (parse_shape(v, &c)) return fprintf(stderr, "bad --shape %s\n", v), 2;
            i++;
        } else if (!strcmp(a, "--levels") && v) c.levels = atoi(v), i++;
        else if (!strcmp(a, "--limit") && v) limit = v, i++;
        else if (!strcmp(a, "--wavelet") && v) {
            if (lw_wavelet_parse(v, &c.wavelet) != LW_OK) return fprintf(stderr, "bad --wavelet %s\n", v), 2;
            i++;
        } else if (!strcmp(a, "--repeat") && v) repeat = atoi(v), i++;
        else if (!strcmp(a, "--json") && v) json = v, i++;
        else if (!strcmp(a, "--tune") && v) c.tuning = v, i++;
        else if (!strcmp(a, "--probe-gib") && v) probe_gib = atof(v), i++;
        else if (!strcmp(a, "--host-probe")) probe = 1;
        else if (!strcmp(a, "--pinned")) pinned = 1;
        else if (!strcmp(a, "--out-of-place")) oop = 1;
        else return fprintf(stderr, "usage: %s --shape RxC[xD] [--levels L] [--limit BYTES|auto] [--pinned] "
                                    "[--out-of-place] [--wavelet W] [--repeat N] [--tune KEYS] [--json FILE] | --host-probe [--probe-gib G]\n", argv[0]), 2;
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    if (probe) return host_probe(probe_gib);
    if (!c.rank) return fprintf(stderr, "--shape is required\n"), 2;
    c.device_memory_limit = strcmp(limit, "auto") ? strtoull(limit, NULL, 10) : 0;
    uint64_t n = 1;
    for (int d = 0; d < c.rank; d++) n *= (uint64_t)c.shape[d];
    const size_t bytes = (size_t)n * sizeof(float);
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    struct cudaDeviceProp pr;
    cudaGetDeviceProperties(&pr, 0);
    printf("array %.2f GiB (%s), device %s with %.2f GiB (%.2f free), budget %s\n", bytes / 1073741824.0,
           pinned ? "pinned" : "pageable", pr.name, tot / 1073741824.0, fr / 1073741824.0, limit);
    double bound = 0;
    if (pcie_bound((size_t)1 << 30, &bound)) return fprintf(stderr, "cannot measure the PCIe bound\n"), 1;
    printf("PCIe, both ways at once: %.1f GB/s each way\n", bound);

    float *x = NULL, *y = NULL;
    double t0 = now();
    if (pinned) {
        if (cudaMallocHost((void **)&x, bytes) != cudaSuccess) return fprintf(stderr, "cannot pin %zu bytes\n", bytes), 1;
        if (oop && cudaMallocHost((void **)&y, bytes) != cudaSuccess) return fprintf(stderr, "cannot pin the output\n"), 1;
    } else {
        x = malloc(bytes);
        y = oop ? malloc(bytes) : NULL;
        if (!x || (oop && !y)) return fprintf(stderr, "cannot allocate %zu bytes\n", bytes), 1;
    }
    fill(x, n);
    if (y) memset(y, 0, bytes);
    printf("filled in %.1f s\n", now() - t0);
    FILE *jf = json ? fopen(json, "a") : NULL;
    int fail = 0;
    for (int dir = 0; dir < 2 && !fail; dir++) {
        c.direction = dir ? LW_INVERSE : LW_FORWARD;
        lw_plan *p = NULL;
        if (lw_plan_create(&p, &c) != LW_OK) {
            fprintf(stderr, "plan: %s\n", lw_last_error());
            return 1;
        }
        char desc[4096] = "";
        lw_plan_describe(p, desc, sizeof desc);
        const char *oc = strstr(desc, "out of core:");
        printf("%s", dir ? "" : desc);
        float *src = dir && oop ? y : x, *dst = dir && oop ? x : oop ? y : x;
        double best = 1e30, ts[64];
        int nt = 0;
        for (int r = 0; r < repeat && !fail; r++) {
            if (r > 0) { /* back to where this direction starts */
                lw_plan *q = NULL;
                lw_config b = c;
                b.direction = dir ? LW_FORWARD : LW_INVERSE;
                if (lw_plan_create(&q, &b) != LW_OK || lw_execute(q, dst, src) != LW_OK) fail = 1;
                lw_destroy(q);
            }
            double a = now();
            if (lw_execute(p, src, dst) != LW_OK) {
                fprintf(stderr, "execute: %s\n", lw_last_error());
                fail = 1;
                break;
            }
            double t = now() - a;
            if (t < best) best = t;
            if (nt < 64) ts[nt++] = t;
        }
        for (int i = 0; i < nt; i++) /* the median of the timed calls */
            for (int j = i + 1; j < nt; j++)
                if (ts[j] < ts[i]) {
                    double u = ts[i];
                    ts[i] = ts[j], ts[j] = u;
                }
        const double med = nt ? ts[nt / 2] : 0;
        double tb = (double)bytes / (bound * 1e9); /* up and down overlapped */
        printf("%s: best %.3f s (median %.3f of %d), %.2f GB/s each way, %.3f of the PCIe bound\n", dir ? "inverse" : "forward", best, med, nt,
               bytes / best * 1e-9, tb / best);
        if (jf) {
            char date[32];
            const time_t now = time(NULL);
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
            fprintf(jf,
                    "{\"bench\": \"ooc\", \"device\": \"%s\", \"commit\": \"%s\", \"date\": \"%s\", \"command\": \"%s\", \"wavelet\": \"%s\", "
                    "\"shape\": [%lld, %lld, %lld], \"levels\": %d, \"direction\": \"%s\", \"in_place\": %s, "
                    "\"host_memory\": \"%s\", \"array_bytes\": %zu, \"device_memory_limit\": %llu, "
                    "\"device_total_bytes\": %zu, \"best_s\": %.6f, \"median_s\": %.6f, \"repeat\": %d, \"pcie_each_way_gbps\": %.3f, "
                    "\"fraction_of_bound\": %.4f, \"plan\": \"%.*s\"}\n",
                    pr.name, LW_GIT_COMMIT, date, cmd, lw_wavelet_name(c.wavelet),
                    (long long)c.shape[0], (long long)(c.rank > 1 ? c.shape[1] : 1),
                    (long long)(c.rank > 2 ? c.shape[2] : 1), c.levels, dir ? "inverse" : "forward",
                    oop ? "false" : "true", pinned ? "pinned" : "pageable", bytes,
                    (unsigned long long)c.device_memory_limit, tot, best, med, nt, bound, tb / best,
                    oc ? (int)strcspn(oc, "\n") : 0, oc ? oc : "");
        }
        lw_destroy(p);
    }
    double err = fail ? -1 : max_err(x, n); /* out of place the inverse wrote back into x */
    printf("round trip: max |x - x0| = %.3g\n", err);
    if (jf) fclose(jf);
    if (pinned) cudaFreeHost(x), cudaFreeHost(y);
    else free(x), free(y);
    return fail || err < 0 || err > 1e-4 ? 1 : 0;
}
