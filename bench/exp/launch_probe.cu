/* Where a small transform's time goes, on device pointers (default 1080 x
 * 1920 float32 cdf97, one level), medians of many runs after warm-up:
 *   host:    wall time of lw_execute against the CUDA calls it is made of
 *            (empty kernel launches, cudaSetDevice, ...), the stream drained
 *            every 64 calls so that the queue never fills;
 *   bench:   as `liftwave bench` times it: the stream idle, an event, then
 *            lw_execute, an event: host work + launch latency + kernels;
 *   gpu:     the same events, but the stream held by a host callback that
 *            waits until lw_execute has returned: the kernels and the gaps
 *            between them only;
 *   memset:  the floor of any launch: a 4-byte cudaMemsetAsync timed as "bench".
 * Build here (no GPU needed), run on the GPU machine:
 *   nvcc -O2 -arch=sm_90 -I include bench/exp/launch_probe.cu BUILD/libliftwave.a -lgomp -lpng -lz \
 *        -o launch_probe
 * Usage: launch_probe [ROWS COLS [WAVELET]] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "liftwave.h"

struct big {
    char b[768];
};
__global__ void k_small(int x)
{
    if (x == 12345) printf("");
}
__global__ void k_big(big p)
{
    if (p.b[0] == 123 && p.b[767] == 45) printf("");
}

static double now_us()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static std::atomic<int> gate;

/* holds the stream until the host has enqueued the call's work */
static void CUDART_CB hold(void *)
{
    while (!gate.load()) {
    }
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* bench, gpu and memset (above), us */
static void event_times(const char *what, lw_plan *p, const void *a, void *o, cudaStream_t s)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<double> t[3];
    for (int way = 0; way < 3; way++)
        for (int i = 0; i < 450; i++) {
            cudaStreamSynchronize(s);
            if (way == 1) {
                gate.store(0);
                cudaLaunchHostFunc(s, hold, nullptr);
            }
            cudaEventRecord(e0, s);
            if (way == 2) cudaMemsetAsync(o, 0, 4, s);
            else if (lw_execute(p, a, o) != LW_OK) fprintf(stderr, "execute: %s\n", lw_last_error()), exit(1);
            cudaEventRecord(e1, s);
            if (way == 1) gate.store(1);
            cudaEventSynchronize(e1);
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (i >= 50) t[way].push_back(1e3 * ms);
        }
    printf("%-44s bench %.2f us, gpu %.2f us, memset floor %.2f us\n", what, median(t[0]), median(t[1]),
           median(t[2]));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

template <class F> static double host_us(const char *what, cudaStream_t s, F f)
{
    std::vector<double> t;
    for (int i = 0; i < 4096; i++) {
        if (i % 64 == 0) cudaStreamSynchronize(s);
        const double t0 = now_us();
        f();
        const double t1 = now_us();
        if (i >= 512) t.push_back(t1 - t0);
    }
    cudaStreamSynchronize(s);
    std::sort(t.begin(), t.end());
    const double m = t[t.size() / 2];
    printf("%-44s %7.2f us (p10 %.2f, p90 %.2f)\n", what, m, t[t.size() / 10], t[t.size() * 9 / 10]);
    return m;
}

int main(int argc, char **argv)
{
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    big b;
    memset(&b, 0, sizeof b);
    int dev = 0;
    host_us("empty kernel, 4 bytes of parameters", s, [&] { k_small<<<1, 32, 0, s>>>(1); });
    host_us("empty kernel, 768 bytes of parameters", s, [&] { k_big<<<1, 32, 0, s>>>(b); });
    host_us("empty kernel 1020 blocks, 768 bytes", s, [&] { k_big<<<dim3(15, 68), 160, 0, s>>>(b); });
    host_us("cudaSetDevice(0)", s, [&] { cudaSetDevice(0); });
    host_us("cudaGetDevice", s, [&] { cudaGetDevice(&dev); });
    host_us("cudaGetLastError", s, [&] { cudaGetLastError(); });
    host_us("cudaFuncSetAttribute (same value)", s,
            [&] { cudaFuncSetAttribute((const void *)k_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024); });

    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = 2, cfg.shape[0] = argc > 2 ? atoll(argv[1]) : 1080, cfg.shape[1] = argc > 2 ? atoll(argv[2]) : 1920;
    cfg.backend = LW_BACKEND_CUDA, cfg.flags = LW_FLAG_DEVICE_POINTERS;
    if (argc > 3 && lw_wavelet_parse(argv[3], &cfg.wavelet) != LW_OK) return fprintf(stderr, "wavelet?\n"), 2;
    const size_t bytes = (size_t)(cfg.shape[0] * cfg.shape[1]) * 4;
    void *a = nullptr, *o = nullptr;
    cudaMalloc(&a, bytes);
    cudaMalloc(&o, bytes);
    cudaMemset(a, 0, bytes);
    for (int dir = 0; dir < 2; dir++) {
        cfg.direction = dir ? LW_INVERSE : LW_FORWARD;
        lw_plan *p = nullptr;
        if (lw_plan_create(&p, &cfg) != LW_OK) return fprintf(stderr, "plan: %s\n", lw_last_error()), 1;
        lw_set_stream(p, s);
        char what[96];
        snprintf(what, sizeof what, "lw_execute %lldx%lld %s %s", (long long)cfg.shape[0], (long long)cfg.shape[1],
                 argc > 3 ? argv[3] : "cdf97", dir ? "inverse" : "forward");
        host_us(what, s, [&] {
            if (lw_execute(p, a, o) != LW_OK) fprintf(stderr, "execute: %s\n", lw_last_error()), exit(1);
        });
        event_times(what, p, a, o, s);
        lw_destroy(p);
    }
    cudaFree(a), cudaFree(o);
    return 0;
}
