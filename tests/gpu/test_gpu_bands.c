/* lw_execute_bands on device pointers: random cases (every wavelet, mode,
 * dtype, 1-4 dimensions, odd lengths, gains, the three band layouts) and the
 * layer shapes of the direct path (2-D batches, stacked details, float32 /
 * float64 / float16 / bfloat16, 1-3 levels, forward and the inverse's
 * adjoint with their pairs), each bit for bit against lw_execute on a Mallat
 * array; the direct path must be taken where it applies.  Then timings of
 * the direct path against lw_execute on the same plan (LW_GPU_QUICK skips them). */
#include "../unit/lw_test_bands.h"
#include "cuda/bands_exec.h"

#include <cuda_runtime_api.h>

static void *dev_alloc(size_t n)
{
    void *p = NULL;
    return cudaMalloc(&p, n) == cudaSuccess ? p : NULL;
}
static void dev_free(void *p) { cudaFree(p); }
static void dev_put(void *d, const void *h, size_t n) { cudaMemcpy(d, h, n, cudaMemcpyHostToDevice); }
static void dev_get(void *h, const void *d, size_t n)
{
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
}

static bands_mem device_mem(void)
{
    bands_mem m = {dev_alloc, dev_free, dev_put, dev_get, LW_FLAG_DEVICE_POINTERS, LW_BACKEND_CUDA,
                   lw_cuda_bands_direct, 0};
    return m;
}

static void layer_cases(bands_mem *m, int quick)
{
    static const lw_wavelet ws[] = {LW_HAAR, LW_CDF97, LW_CDF53, LW_D4, LW_DD137};
    static const lw_dtype ts[] = {LW_FLOAT32, LW_FLOAT64, LW_FLOAT16, LW_BFLOAT16};
    /* planes the fused 2-D engine takes (not the small engine's whole items) at both levels */
    static const int64_t sizes[][3] = {{3, 256, 256}, {2, 258, 514}, {2, 512, 384}, {1, 384, 1030}};
    int ran = 0;
    long before = m->ndirect;
    for (int w = 0; w < 5; w++)
        for (int t = 0; t < 4; t++)
            for (int z = 0; z < 4; z++) {
                if (quick && (t + z + w) % 3) continue;
                bands_case c;
                memset(&c, 0, sizeof c);
                c.rank = 3, c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
                memcpy(c.shape, sizes[z], sizeof sizes[z]);
                c.w = ws[w], c.t = ts[t];
                c.m = (w + z) % 2 ? LW_SYMMETRIC : LW_PERIODIC;
                if (c.m == LW_PERIODIC) c.shape[1] = (c.shape[1] + 3) & ~3, c.shape[2] = (c.shape[2] + 3) & ~3;
                c.levels = 1 + (w + t + z) % 2;
                c.d = (t + z) % 2 ? LW_INVERSE_ADJOINT : LW_FORWARD;
                c.gain[0] = c.gain[1] = 1;
                if (c.w == LW_CDF97 && t % 2) c.gain[0] = 1.4142135623730951, c.gain[1] = 0.7071067811865476;
                c.style = z == 3 ? BANDS_SEPARATE : BANDS_STACKED;
                ran += bands_run_case(&c, m);
            }
    printf("bands, layer shapes: %d cases, %ld of %d calls direct\n", ran, m->ndirect - before, 2 * ran);
    /* not direct: d4 in symmetric mode (the pass engines below 4096^2), haar on odd lengths, the separate layout of
     * odd-sized bands (unequal row strides) */
    CHECK(m->ndirect - before >= ran, "the direct path ran on %ld of %d calls only", m->ndirect - before, 2 * ran);
}

static double time_ms(const lw_plan *p, void *x, void *y, const lw_band *bv, int bands, int reps)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a), cudaEventCreate(&b);
    float best = 1e30f;
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(a, 0);
        lw_status s = bands ? lw_execute_bands(p, x, bv) : lw_execute(p, x, y);
        cudaEventRecord(b, 0);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        if (s == LW_OK && ms < best) best = ms;
    }
    cudaEventDestroy(a), cudaEventDestroy(b);
    return best;
}

/* (192, 512, 512), the layer case: stacked details, lw_execute_bands against lw_execute */
static void timings(void)
{
    static const struct { lw_wavelet w; int levels; lw_dtype t; lw_direction d; } tc[] = {
        {LW_HAAR, 1, LW_FLOAT32, LW_FORWARD}, {LW_HAAR, 1, LW_FLOAT32, LW_INVERSE}, {LW_CDF97, 3, LW_FLOAT32, LW_FORWARD},
        {LW_CDF97, 3, LW_FLOAT32, LW_INVERSE}, {LW_CDF97, 3, LW_FLOAT32, LW_FORWARD_ADJOINT},
        {LW_HAAR, 1, LW_BFLOAT16, LW_FORWARD}, {LW_HAAR, 3, LW_BFLOAT16, LW_INVERSE}};
    bands_mem m = device_mem();
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++) {
        bands_case c;
        memset(&c, 0, sizeof c);
        c.rank = 3, c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2, c.shape[0] = 192, c.shape[1] = 512, c.shape[2] = 512;
        c.w = tc[i].w, c.t = tc[i].t, c.m = LW_PERIODIC, c.levels = tc[i].levels, c.gain[0] = c.gain[1] = 1;
        lw_plan *p = NULL;
        if (bands_plan(&p, &c, &m, tc[i].d) != LW_OK) {
            CHECK(0, "timing plan: %s", lw_last_error());
            continue;
        }
        const size_t es = lw_dtype_size(c.t), bytes = (size_t)(192 * 512 * 512) * es;
        const int n = lw_band_count(p);
        int64_t off[16], st[16][LW_MAX_RANK];
        const int64_t pool = bands_layout(p, BANDS_STACKED, off, st);
        void *x = dev_alloc(bytes), *y = dev_alloc(bytes), *bp = dev_alloc((size_t)pool * es);
        cudaMemset(x, 0, bytes), cudaMemset(bp, 0, (size_t)pool * es);
        lw_band bv[16];
        for (int k = 0; k < n; k++) {
            bv[k].data = (char *)bp + (size_t)off[k] * es;
            memcpy(bv[k].strides, st[k], sizeof bv[k].strides);
        }
        double tb = time_ms(p, x, y, bv, 1, 20), te = time_ms(p, x, y, bv, 0, 20), tcp = 1e30;
        for (int r = 0; r < 20; r++) { /* the device copy of the same bytes */
            cudaEvent_t a, b;
            cudaEventCreate(&a), cudaEventCreate(&b);
            cudaEventRecord(a, 0);
            cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, 0);
            cudaEventRecord(b, 0);
            cudaEventSynchronize(b);
            float ms;
            cudaEventElapsedTime(&ms, a, b);
            if (ms < tcp) tcp = ms;
            cudaEventDestroy(a), cudaEventDestroy(b);
        }
        printf("timing bands 192x512x512 %s %s L%d %s: lw_execute_bands %.3f ms (%s), lw_execute %.3f ms, copy %.3f ms "
               "(fraction %.2f)\n", lw_wavelet_name(c.w), lw_dtype_name(c.t), c.levels, lw_direction_str(tc[i].d), tb,
               lw_cuda_bands_direct(p, bv) ? "direct" : "via array", te, tcp, tcp / tb);
        dev_free(x), dev_free(y), dev_free(bp);
        lw_destroy(p);
    }
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    const char *q = getenv("LW_GPU_QUICK");
    const int quick = q && *q && *q != '0';
    bands_mem m = device_mem();
    layer_cases(&m, quick);
    static const lw_dtype dts[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32, LW_FLOAT16, LW_BFLOAT16};
    lw_rng_seed(0x6b1d5);
    int ran = 0, refused = 0, cases = quick ? 40 : 300;
    for (int i = 0; i < cases; i++) {
        bands_case c;
        bands_random_case(&c, dts, 5, 40);
        if (bands_run_case(&c, &m)) ran++;
        else refused++;
    }
    printf("bands, random: %d cases on device pointers, %d plans refused by the backend\n", ran, refused);
    CHECK(ran > cases * 2 / 3, "only %d of %d random cases ran", ran, cases);
    if (!quick) timings();
    return lw_test_finish("test_gpu_bands");
}
