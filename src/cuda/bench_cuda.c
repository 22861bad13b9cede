/* lw_cuda_bench: device timing for `liftwave bench --backend cuda` and the GPU
 * benchmark driver (docs/METHOD.md).  CUDA events around each execute
 * after warm-up, median of the timed runs, the bound measured in the same run
 * (device-to-device copy of the same bytes for G2G; host-to-device and
 * device-to-host concurrently on two streams, from and to pinned buffers, for
 * both C2C configs), output poisoned before
 * every timed run and compared with host_ref after the last one.  With
 * LW_FLAG_DESTROY_INPUT (G2G) the input is restored from a pristine device
 * copy before every run, outside the timed region.  device_extra_bytes: the
 * most device memory seen taken (cudaMemGetInfo) beyond the bench's own
 * buffers, from before the plan to after the runs. */
#include "cuda_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* a failed CUDA call ends the measurement through `done` (frees everything) */
#define CK_DONE(call, what)                               \
    do {                                                  \
        st = lw_cuda_check((call), (what));               \
        if (st != LW_OK) goto done;                       \
    } while (0)

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double now_s(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* cudaHostRegister + cudaHostUnregister of two pageable buffers: median of 3 */
static lw_status register_cost(void *a, void *b, size_t bytes, double *sec)
{
    double t[3];
    for (int i = 0; i < 3; i++) {
        double t0 = now_s();
        CK(cudaHostRegister(a, bytes, cudaHostRegisterDefault), "cudaHostRegister (bench input)");
        lw_status st = lw_cuda_check(cudaHostRegister(b, bytes, cudaHostRegisterDefault), "cudaHostRegister (bench output)");
        cudaHostUnregister(a);
        if (st != LW_OK) return st;
        CK(cudaHostUnregister(b), "cudaHostUnregister");
        t[i] = now_s() - t0;
    }
    *sec = median(t, 3);
    return LW_OK;
}

static double value_at(const void *b, lw_dtype t, size_t i)
{
    switch (t) {
    case LW_FLOAT32: return ((const float *)b)[i];
    case LW_FLOAT64: return ((const double *)b)[i];
    default: return ((const int32_t *)b)[i];
    }
}

/* max |out - ref| / max |ref|; NaN (poison left) counts as infinite */
static double rel_err(const void *out, const void *ref, lw_dtype t, size_t n)
{
    double mref = 0, merr = 0;
    for (size_t i = 0; i < n; i++) {
        double r = value_at(ref, t, i), o = value_at(out, t, i);
        if (fabs(r) > mref) mref = fabs(r);
        double e = fabs(o - r);
        if (!(e <= merr)) merr = isnan(e) ? INFINITY : e;
    }
    return mref > 0 ? merr / mref : merr;
}

lw_status lw_cuda_bench(const lw_config *cfg_in, lw_bench_config config, int repeat, const void *host_in,
                        const void *host_ref, double tol, lw_bench_result *res)
{
    if (!cfg_in || !host_in || !res) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    if (config != LW_BENCH_G2G && config != LW_BENCH_C2C && config != LW_BENCH_C2C_PAGEABLE)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bench: unknown lw_bench_config %d", (int)config);
    if (!lw_backend_available(LW_BACKEND_CUDA))
        return lw_fail(LW_ERR_NO_BACKEND, "no CUDA device (or built without CUDA)");
    memset(res, 0, sizeof *res);
    if (repeat < 1) repeat = 20;
    const int warm = 3;
    lw_status st = LW_OK;
    lw_config cfg = *cfg_in;
    cfg.backend = LW_BACKEND_CUDA;
    if (config == LW_BENCH_G2G) cfg.flags |= LW_FLAG_DEVICE_POINTERS;
    else cfg.flags &= ~LW_FLAG_DEVICE_POINTERS;

    lw_plan *plan = NULL;
    void *d_in = NULL, *d_out = NULL, *d_keep = NULL, *h_in = NULL, *h_out = NULL, *h_chk = NULL;
    void *p_in = NULL, *p_out = NULL; /* pinned: the PCIe bound (and the C2C buffers) */
    const int pageable = config == LW_BENCH_C2C_PAGEABLE, c2c = config != LW_BENCH_G2G;
    const int restore = config == LW_BENCH_G2G && (cfg.flags & LW_FLAG_DESTROY_INPUT);
    cudaStream_t s0 = NULL, s1 = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL, e2 = NULL;
    double *times = calloc((size_t)repeat, sizeof(double));
    if (!times) return lw_fail(LW_ERR_OUT_OF_MEMORY, "bench: no memory");

    size_t es = lw_dtype_size(cfg.dtype), n = 1;
    for (int i = 0; i < cfg.rank; i++) n *= (size_t)cfg.shape[i];
    size_t bytes = n * es;
    struct cudaDeviceProp pr;
    int dev = 0;
    CK_DONE(cudaGetDevice(&dev), "cudaGetDevice");
    CK_DONE(cudaGetDeviceProperties(&pr, dev), "cudaGetDeviceProperties");
    snprintf(res->device, sizeof res->device, "%.127s", pr.name);
    CK_DONE(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking), "cudaStreamCreate");
    CK_DONE(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), "cudaStreamCreate");
    CK_DONE(cudaEventCreate(&e0), "cudaEventCreate");
    CK_DONE(cudaEventCreate(&e1), "cudaEventCreate");
    CK_DONE(cudaEventCreate(&e2), "cudaEventCreate");
    h_chk = malloc(bytes);
    if (!h_chk) {
        st = lw_fail(LW_ERR_OUT_OF_MEMORY, "bench: cannot allocate %zu host bytes", bytes);
        goto done;
    }
    CK_DONE(cudaMalloc(&d_in, bytes), "cudaMalloc (bench input)");
    CK_DONE(cudaMalloc(&d_out, bytes), "cudaMalloc (bench output)");
    if (c2c) {
        CK_DONE(cudaMallocHost(&p_in, bytes), "cudaMallocHost (bench input)");
        CK_DONE(cudaMallocHost(&p_out, bytes), "cudaMallocHost (bench output)");
        memcpy(p_in, host_in, bytes);
        memset(p_out, 0, bytes);
        h_in = p_in, h_out = p_out;
    }
    if (pageable) { /* malloc'd and touched, as a NumPy array is */
        h_in = malloc(bytes), h_out = malloc(bytes);
        if (!h_in || !h_out) {
            st = lw_fail(LW_ERR_OUT_OF_MEMORY, "bench: cannot allocate %zu host bytes", bytes);
            goto done;
        }
        memcpy(h_in, host_in, bytes);
        memset(h_out, 0, bytes);
        st = register_cost(h_in, h_out, bytes, &res->register_s);
        if (st != LW_OK) goto done;
    }
    CK_DONE(cudaMemcpy(d_in, host_in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (bench input)");
    if (restore) {
        CK_DONE(cudaMalloc(&d_keep, bytes), "cudaMalloc (bench input copy)");
        CK_DONE(cudaMemcpy(d_keep, d_in, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (bench input copy)");
    }
    CK_DONE(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    size_t free0 = 0, free1 = 0, tot = 0;
    CK_DONE(cudaMemGetInfo(&free0, &tot), "cudaMemGetInfo");
    st = lw_plan_create(&plan, &cfg);
    if (st != LW_OK) goto done;
    if (config == LW_BENCH_G2G) lw_set_stream(plan, s0);
    size_t minfree = free0;

    /* the bound, measured now: same bytes, same device */
    const int nb = 20;
    double bt[20];
    for (int i = 0; i < nb + 2; i++) {
        CK_DONE(cudaEventRecord(e0, s0), "cudaEventRecord");
        if (config == LW_BENCH_G2G) {
            CK_DONE(cudaMemcpyAsync(d_out, d_in, bytes, cudaMemcpyDeviceToDevice, s0), "cudaMemcpyAsync (bound)");
            CK_DONE(cudaEventRecord(e1, s0), "cudaEventRecord");
        } else {
            CK_DONE(cudaStreamWaitEvent(s1, e0, 0), "cudaStreamWaitEvent");
            CK_DONE(cudaMemcpyAsync(d_out, p_in, bytes, cudaMemcpyHostToDevice, s0), "cudaMemcpyAsync (bound H2D)");
            CK_DONE(cudaMemcpyAsync(p_out, d_in, bytes, cudaMemcpyDeviceToHost, s1), "cudaMemcpyAsync (bound D2H)");
            CK_DONE(cudaEventRecord(e2, s1), "cudaEventRecord");
            CK_DONE(cudaStreamWaitEvent(s0, e2, 0), "cudaStreamWaitEvent");
            CK_DONE(cudaEventRecord(e1, s0), "cudaEventRecord");
        }
        CK_DONE(cudaEventSynchronize(e1), "bound copy");
        float ms = 0;
        CK_DONE(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        if (i >= 2) bt[i - 2] = ms * 1e-3;
    }
    res->bound = config == LW_BENCH_G2G ? "device-copy" : "pcie";
    res->bound_gbps = 2.0 * (double)bytes / median(bt, nb) / 1e9;

    /* warm-up, then timed runs with the output poisoned before each */
    const void *xin = config == LW_BENCH_G2G ? d_in : h_in;
    void *xout = config == LW_BENCH_G2G ? d_out : h_out;
    for (int i = 0; i < warm + repeat; i++) {
        if (restore) CK_DONE(cudaMemcpyAsync(d_in, d_keep, bytes, cudaMemcpyDeviceToDevice, s0), "cudaMemcpyAsync (input)");
        if (config == LW_BENCH_G2G) CK_DONE(cudaMemsetAsync(d_out, 0xff, bytes, s0), "cudaMemsetAsync (poison)");
        else memset(h_out, 0xff, bytes);
        CK_DONE(cudaStreamSynchronize(s0), "poison");
        CK_DONE(cudaEventRecord(e0, s0), "cudaEventRecord");
        if (c2c) CK_DONE(cudaStreamSynchronize(s0), "cudaStreamSynchronize");
        st = lw_execute(plan, xin, xout);
        if (st != LW_OK) goto done;
        CK_DONE(cudaEventRecord(e1, s0), "cudaEventRecord");
        CK_DONE(cudaEventSynchronize(e1), "transform");
        float ms = 0;
        CK_DONE(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        if (i >= warm) times[i - warm] = ms * 1e-3;
        size_t f = 0;
        CK_DONE(cudaMemGetInfo(&f, &tot), "cudaMemGetInfo");
        if (f < minfree) minfree = f;
    }
    CK_DONE(cudaMemGetInfo(&free1, &tot), "cudaMemGetInfo");
    if (free1 < minfree) minfree = free1;
    res->device_extra_bytes = free0 > minfree ? free0 - minfree : 0;
    double mn = times[0];
    for (int i = 1; i < repeat; i++)
        if (times[i] < mn) mn = times[i];
    res->min_s = mn;
    res->median_s = median(times, repeat);
    res->runs = repeat;

    if (config == LW_BENCH_G2G) CK_DONE(cudaMemcpy(h_chk, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (result)");
    else memcpy(h_chk, h_out, bytes);
    if (host_ref) {
        res->max_rel_err = rel_err(h_chk, host_ref, cfg.dtype, n);
        res->verified = res->max_rel_err <= tol;
    }

done:
    lw_destroy(plan);
    if (st != LW_OK) cudaGetLastError();
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_keep);
    if (pageable) free(h_in), free(h_out);
    if (p_in) cudaFreeHost(p_in);
    if (p_out) cudaFreeHost(p_out);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (e2) cudaEventDestroy(e2);
    if (s0) cudaStreamDestroy(s0);
    if (s1) cudaStreamDestroy(s1);
    free(h_chk);
    free(times);
    return st;
}
