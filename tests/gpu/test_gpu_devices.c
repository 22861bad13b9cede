/* The same cases on two CUDA devices of one process, in turn (0, 1, 0):
 * kernel attributes (shared memory beyond 48 KiB, cluster sizes) and the
 * limits the planner asks for belong to a device, so a kernel that launched
 * on the first device must launch on the second too.  Every case is checked
 * against the reference backend (gpu_common.h).  Exits 77 with the reason
 * when the machine has fewer than two devices. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"

/* shapes that take the engines with large shared memory: the 2-D tile
 * engine, the in-place plane passes (a batch of planes held by clusters,
 * tall columns in strips), the fused 3-D engine, the line kernels */
static const shape_case shapes[] = {
    {2, 0, {0}, {1024, 1024}},    {2, 0, {0}, {2048, 256}},  {3, 2, {1, 2}, {8, 256, 256}},
    {3, 0, {0}, {48, 64, 96}},    {1, 0, {0}, {100000}},
};

static void cases_on(int dev)
{
    CHECK(cudaSetDevice(dev) == cudaSuccess, "cudaSetDevice(%d)", dev);
    cudaStream_t st = NULL;
    CHECK(cudaStreamCreate(&st) == cudaSuccess, "cudaStreamCreate on device %d", dev);
    if (!st) return;
    g_stream = st; /* run_case's stream: one of the current device */
    static const lw_wavelet ws[] = {LW_CDF97, LW_HAAR, LW_DD137};
    static const lw_dtype ts[] = {LW_FLOAT32, LW_FLOAT64};
    const long before = g_cases;
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
        for (int wi = 0; wi < 3; wi++)
            for (int ti = 0; ti < 2; ti++)
                for (int v = 0; v < 4; v++) { /* in place or not x Mallat or interleaved */
                    const lw_direction d = (si + wi + ti) & 1 ? LW_INVERSE : LW_FORWARD;
                    gcase c = case_of(&shapes[si], ws[wi], ts[ti], LW_SYMMETRIC, v & 1 ? LW_INTERLEAVED : LW_MALLAT, d,
                                      v < 2 ? 1 : -1, 1);
                    c.inplace = (v & 2) != 0;
                    run_case(&c);
                }
    printf("device %d: %ld cases\n", dev, g_cases - before);
    cudaStreamSynchronize(st);
    cudaStreamDestroy(st);
}

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 2) {
        cudaGetLastError();
        printf("SKIP: %d CUDA device(s); this test runs the same cases on two devices of one process\n", n);
        return 77;
    }
    int skip = gpu_test_begin(20261128);
    if (skip) return skip;
    cudaStreamDestroy(g_stream); /* made on device 0; cases_on makes each device's */
    cases_on(0);
    cases_on(1);
    cases_on(0);
    g_stream = NULL;
    return lw_test_finish("test_gpu_devices");
}
