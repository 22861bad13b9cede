/* lw_cuda_bench: device timing for `liftwave bench --backend cuda` and the GPU
 * benchmark driver (docs/METHOD.md).  CUDA events around each execute
 * after warm-up, median of the timed runs, the bound measured in the same run
 * (device-to-device copy of the same bytes for G2G; host-to-device and
 * device-to-host concurrently on two streams, from and to pinned buffers, for
 * both C2C configs), output poisoned before
 * every timed run and compared with host_ref after the last one.  With
 * LW_FLAG_DESTROY_INPUT (G2G) the input is restored from a pristine device
 * copy before every run, outside the timed region.  In place
 * (LW_BENCH_IN_PLACE) there is one buffer, lw_execute(plan, x, x): the input
 * is copied back into it before every run, outside the timed region (G2G
 * from a pristine device copy, C2C from the caller's host_in), and the last
 * run's result is verified.  device_extra_bytes: the most device memory seen
 * taken (cudaMemGetInfo) beyond the bench's own buffers, from before the
 * plan to after the runs (sampled after every run, and in the warm-up also as
 * soon as lw_execute returns, while its work runs: what a call allocates and
 * frees itself). */
#include "cuda_exec.h"
#include "../core/half.h"

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

/* cudaHostRegister + cudaHostUnregister of the pageable buffers a call
 * moves (b NULL: in place, one buffer): median of 3 */
static lw_status register_cost(void *a, void *b, size_t bytes, double *sec)
{
    double t[3];
    for (int i = 0; i < 3; i++) {
        double t0 = now_s();
        CK(cudaHostRegister(a, bytes, cudaHostRegisterDefault), "cudaHostRegister (bench input)");
        lw_status st = b ? lw_cuda_check(cudaHostRegister(b, bytes, cudaHostRegisterDefault), "cudaHostRegister (bench output)")
                         : LW_OK;
        cudaHostUnregister(a);
        if (st != LW_OK) return st;
        if (b) CK(cudaHostUnregister(b), "cudaHostUnregister");
        t[i] = now_s() - t0;
    }
    *sec = median(t, 3);
    return LW_OK;
}

/* max |out - ref| / max |ref|; NaN (poison left) counts as infinite */
static double rel_err(const void *out, const void *ref, lw_dtype t, size_t n)
{
    double mref = 0, merr = 0;
    for (size_t i = 0; i < n; i++) {
        double r = lw_sample_as_double(ref, t, (int64_t)i), o = lw_sample_as_double(out, t, (int64_t)i);
        if (fabs(r) > mref) mref = fabs(r);
        double e = fabs(o - r);
        if (!(e <= merr)) merr = isnan(e) ? INFINITY : e;
    }
    return mref > 0 ? merr / mref : merr;
}

/* The free device memory now, folded into *minfree. */
static lw_status note_free(size_t *minfree)
{
    size_t f = 0, tot = 0;
    CK(cudaMemGetInfo(&f, &tot), "cudaMemGetInfo");
    if (f < *minfree) *minfree = f;
    return LW_OK;
}

lw_status lw_cuda_bench(const lw_config *cfg_in, lw_bench_config config, int repeat, const void *host_in,
                        const void *host_ref, double tol, lw_bench_result *res)
{
    if (!cfg_in || !host_in || !res) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    const int inplace = ((unsigned)config & LW_BENCH_IN_PLACE) != 0;
    const unsigned kind = (unsigned)config & ~(unsigned)LW_BENCH_IN_PLACE;
    if (kind != LW_BENCH_G2G && kind != LW_BENCH_C2C && kind != LW_BENCH_C2C_PAGEABLE)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bench: unknown lw_bench_config %d", (int)config);
    if (inplace && (cfg_in->flags & LW_FLAG_DESTROY_INPUT))
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "bench: in place (in == out) and LW_FLAG_DESTROY_INPUT exclude each "
                                                "other (in place the input is overwritten anyway)");
    if (!lw_backend_available(LW_BACKEND_CUDA))
        return lw_fail(LW_ERR_NO_BACKEND, "no CUDA device (or built without CUDA)");
    memset(res, 0, sizeof *res);
    if (repeat < 1) repeat = 20;
    const int warm = 3;
    lw_status st = LW_OK;
    lw_config cfg = *cfg_in;
    cfg.backend = LW_BACKEND_CUDA;
    const int g2g = kind == LW_BENCH_G2G, pageable = kind == LW_BENCH_C2C_PAGEABLE, c2c = !g2g;
    if (g2g) cfg.flags |= LW_FLAG_DEVICE_POINTERS;
    else cfg.flags &= ~LW_FLAG_DEVICE_POINTERS;
    if (inplace) cfg.flags |= LW_FLAG_IN_PLACE; /* the plan holds the in-place workspace only */

    lw_plan *plan = NULL;
    /* d_in: the input (G2G in place: the one array); d_out: the output out of
     * place and the bound's destination (not allocated for G2G in place);
     * d_keep: the pristine input that restores d_in before every run (G2G in
     * place, or with LW_FLAG_DESTROY_INPUT) */
    void *d_in = NULL, *d_out = NULL, *d_keep = NULL, *h_in = NULL, *h_out = NULL, *h_chk = NULL;
    void *p_in = NULL, *p_out = NULL; /* pinned: the PCIe bound (and the C2C buffers) */
    const int restore = g2g && (inplace || (cfg.flags & LW_FLAG_DESTROY_INPUT));
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
    if (!(g2g && inplace)) CK_DONE(cudaMalloc(&d_out, bytes), "cudaMalloc (bench output)");
    if (c2c) {
        CK_DONE(cudaMallocHost(&p_in, bytes), "cudaMallocHost (bench input)");
        CK_DONE(cudaMallocHost(&p_out, bytes), "cudaMallocHost (bench output)");
        memcpy(p_in, host_in, bytes);
        memset(p_out, 0, bytes);
        h_in = p_in, h_out = inplace ? p_in : p_out;
    }
    if (pageable) { /* malloc'd and touched, as a NumPy array is */
        h_in = malloc(bytes), h_out = inplace ? h_in : malloc(bytes);
        if (!h_in || !h_out) {
            st = lw_fail(LW_ERR_OUT_OF_MEMORY, "bench: cannot allocate %zu host bytes", bytes);
            goto done;
        }
        memcpy(h_in, host_in, bytes);
        if (!inplace) memset(h_out, 0, bytes);
        st = register_cost(h_in, inplace ? NULL : h_out, bytes, &res->register_s);
        if (st != LW_OK) goto done;
    }
    CK_DONE(cudaMemcpy(d_in, host_in, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (bench input)");
    if (restore) {
        CK_DONE(cudaMalloc(&d_keep, bytes), "cudaMalloc (bench input copy)");
        CK_DONE(cudaMemcpy(d_keep, d_in, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (bench input copy)");
    }
    CK_DONE(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    /* the bench's buffers exist: from here on every byte taken is the plan's */
    size_t free0 = 0, tot = 0;
    CK_DONE(cudaMemGetInfo(&free0, &tot), "cudaMemGetInfo");
    st = lw_plan_create(&plan, &cfg);
    if (st != LW_OK) goto done;
    if (g2g) lw_set_stream(plan, s0);
    {
        char d[4096];
        const char *e = lw_plan_describe(plan, d, sizeof d) == LW_OK ? strstr(d, "engine: ") : NULL;
        if (e) snprintf(res->engine, sizeof res->engine, "%.*s", (int)strcspn(e + 8, "\n"), e + 8);
    }
    size_t minfree = free0;
    st = note_free(&minfree);
    if (st != LW_OK) goto done;

    /* the bound, measured now: same bytes, same device (G2G in place: into
     * the pristine copy, which holds the same data) */
    const int nb = 20;
    double bt[20];
    void *bound_dst = d_out ? d_out : d_keep;
    for (int i = 0; i < nb + 2; i++) {
        CK_DONE(cudaEventRecord(e0, s0), "cudaEventRecord");
        if (g2g) {
            CK_DONE(cudaMemcpyAsync(bound_dst, d_in, bytes, cudaMemcpyDeviceToDevice, s0), "cudaMemcpyAsync (bound)");
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
    res->bound = g2g ? "device-copy" : "pcie";
    res->bound_gbps = 2.0 * (double)bytes / median(bt, nb) / 1e9;

    /* warm-up, then timed runs; before each, untimed: the input restored
     * where a run overwrites it, and out of place the output poisoned */
    void *xin = g2g ? d_in : h_in;
    void *xout = inplace ? xin : g2g ? d_out : h_out;
    for (int i = 0; i < warm + repeat; i++) {
        if (restore) CK_DONE(cudaMemcpyAsync(d_in, d_keep, bytes, cudaMemcpyDeviceToDevice, s0), "cudaMemcpyAsync (input)");
        if (c2c && inplace) memcpy(h_in, host_in, bytes);
        if (!inplace && g2g) CK_DONE(cudaMemsetAsync(d_out, 0xff, bytes, s0), "cudaMemsetAsync (poison)");
        if (!inplace && c2c) memset(h_out, 0xff, bytes);
        CK_DONE(cudaStreamSynchronize(s0), "poison");
        CK_DONE(cudaEventRecord(e0, s0), "cudaEventRecord");
        if (c2c) CK_DONE(cudaStreamSynchronize(s0), "cudaStreamSynchronize");
        st = lw_execute(plan, xin, xout);
        if (st != LW_OK) goto done;
        if (i < warm) { /* warm-up only (its time is not kept): the memory held while the work runs */
            st = note_free(&minfree);
            if (st != LW_OK) goto done;
        }
        CK_DONE(cudaEventRecord(e1, s0), "cudaEventRecord");
        CK_DONE(cudaEventSynchronize(e1), "transform");
        float ms = 0;
        CK_DONE(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
        if (i >= warm) times[i - warm] = ms * 1e-3;
        st = note_free(&minfree);
        if (st != LW_OK) goto done;
    }
    res->device_extra_bytes = free0 > minfree ? free0 - minfree : 0;
    double mn = times[0];
    for (int i = 1; i < repeat; i++)
        if (times[i] < mn) mn = times[i];
    res->min_s = mn;
    res->median_s = median(times, repeat);
    res->runs = repeat;

    if (g2g) CK_DONE(cudaMemcpy(h_chk, xout, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (result)");
    else memcpy(h_chk, xout, bytes);
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
    if (pageable) {
        if (h_out != h_in) free(h_out);
        free(h_in);
    }
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
