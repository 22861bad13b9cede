/* Where the 1080p latency cell's time goes: one small 2-D transform on device
 * pointers (default 1080 x 1920 float32 cdf97, one level), timed three ways
 * on one stream, median of many runs after warm-up:
 *   bench:   as `liftwave bench` times it: the stream idle, an event, then
 *            lw_execute, an event: host work + launch latency + kernels;
 *   gpu:     the same events, but the stream held by a host callback that
 *            waits until lw_execute has returned: the kernels and the gaps
 *            between them only;
 *   enqueue: host wall time of the lw_execute call alone;
 * and the floor of any launch: a 4-byte cudaMemsetAsync timed as "bench".
 * Build (device machine, against a CUDA build's static library):
 *   gcc -O2 -std=c11 -I include bench/exp/latency_probe.c BUILD/libliftwave.a \
 *       -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart_static -lgomp -lpng -lz -lm -lpthread -ldl -lrt \
 *       -lstdc++ -o latency_probe
 * Usage: latency_probe [ROWS COLS [WAVELET [inverse]]] */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "liftwave.h"

#define RUNS 400
#define WARM 50

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static atomic_int gate;

/* holds the stream until the host has enqueued the call's work */
static void CUDART_CB hold(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate)) {
    }
}

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                                   \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = 2, cfg.shape[0] = argc > 2 ? atoll(argv[1]) : 1080, cfg.shape[1] = argc > 2 ? atoll(argv[2]) : 1920;
    cfg.backend = LW_BACKEND_CUDA, cfg.flags = LW_FLAG_DEVICE_POINTERS;
    if (argc > 3 && lw_wavelet_parse(argv[3], &cfg.wavelet) != LW_OK) return fprintf(stderr, "wavelet?\n"), 2;
    if (argc > 4 && !strcmp(argv[4], "inverse")) cfg.direction = LW_INVERSE;
    const size_t n = (size_t)(cfg.shape[0] * cfg.shape[1]), bytes = n * 4;
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &cfg) != LW_OK) return fprintf(stderr, "plan: %s\n", lw_last_error()), 1;
    lw_set_stream(p, s);
    float *h = malloc(bytes), *a = NULL, *b = NULL;
    for (size_t i = 0; i < n; i++) h[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    CK(cudaMalloc((void **)&a, bytes));
    CK(cudaMalloc((void **)&b, bytes));
    CK(cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    static double tb[RUNS], tg[RUNS], te[RUNS], tm[RUNS];
    for (int way = 0; way < 3; way++)
        for (int i = 0; i < WARM + RUNS; i++) {
            CK(cudaStreamSynchronize(s));
            if (way == 1) {
                atomic_store(&gate, 0);
                CK(cudaLaunchHostFunc(s, hold, NULL));
            }
            CK(cudaEventRecord(e0, s));
            double t0 = now_s(), t1;
            if (way == 2) {
                CK(cudaMemsetAsync(b, 0, 4, s));
            } else if (lw_execute(p, a, b) != LW_OK) {
                return fprintf(stderr, "execute: %s\n", lw_last_error()), 1;
            }
            t1 = now_s();
            CK(cudaEventRecord(e1, s));
            if (way == 1) atomic_store(&gate, 1);
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (i >= WARM) {
                double *t = way == 0 ? tb : way == 1 ? tg : tm;
                t[i - WARM] = 1e-3 * ms;
                if (way == 0) te[i - WARM] = t1 - t0;
            }
        }
    char d[4096];
    lw_plan_describe(p, d, sizeof d);
    for (char *q = d; *q; q++)
        if (*q == '\n') *q = ';';
    printf("%lldx%lld %s %s: bench %.2f us, gpu %.2f us, enqueue %.2f us, memset floor %.2f us | %s\n",
           (long long)cfg.shape[0], (long long)cfg.shape[1], argc > 3 ? argv[3] : "cdf97",
           cfg.direction == LW_INVERSE ? "inverse" : "forward", 1e6 * median(tb, RUNS), 1e6 * median(tg, RUNS),
           1e6 * median(te, RUNS), 1e6 * median(tm, RUNS), d);
    lw_destroy(p);
    cudaFree(a), cudaFree(b), free(h);
    return 0;
}
