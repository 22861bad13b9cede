/* The Mallat layout's row reorder alone (issue 15; k_rowcycle.cu, bench/NOTES-walker-plain.md, "The row
 * reorder's loads in flight"): a block a segment of a cycle of the row permutation moves whole rows, one row
 * at a time, so the loads a block has in flight pace it, and a row count with few long cycles (16000: 6 of
 * up to 5332 rows) leaves most of the device idle unless the cycles are cut in segments.  This times, on the
 * same array in the same run, against the device-to-device copy of the array: element loads (vec0, whole
 * cycles), 16-byte pieces (vec1, whole cycles) and 16-byte pieces with the cycles cut for the blocks the
 * device holds (cut, as the library plans them), forward and inverse; and checks them.  Needs
 * bench/exp/wip/rowcycle-vec.patch applied (the kernel's vec argument and the segments).
 *
 *   nvcc -O3 -arch=sm_90 -Iinclude -Isrc -o rowcycle_ab bench/exp/rowcycle_ab.cu src/core/cycles.c && ./rowcycle_ab [rows cols]
 *
 * float32 (the kernel moves 4-byte words), default 16384 x 16384.  Each time is the median of 20
 * launches after 3 warm-ups (CUDA events), 5 where an arm takes over 20 ms; the arms alternate.  Checks:
 * each arm's forward equals the permutation computed on the host on 64 random rows and vec0's everywhere,
 * and its inverse brings the array back. */
#include "../../src/cuda/k_rowcycle.cu"
#include "core/cycles.h"

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

cudaError_t lw_cuda_func_attr(const void *f, int attr, int value)
{
    return cudaFuncSetAttribute(f, (cudaFuncAttribute)attr, value);
}

cudaError_t lw_cuda_resident(const void *f, int threads, size_t smem, int64_t *blocks)
{
    int per = 0, dev = 0, sms = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, f, threads, smem);
    if (e == cudaSuccess) e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    *blocks = (int64_t)per * sms;
    return e;
}

#define CKX(x)                                                                                               \
    do {                                                                                                     \
        cudaError_t e_ = (x);                                                                                \
        if (e_ != cudaSuccess) {                                                                             \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                   \
            exit(1);                                                                                         \
        }                                                                                                    \
    } while (0)

static __global__ void fill(unsigned *a, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        a[i] = (unsigned)(x * 0xBF58476D1CE4E5B9ull >> 32);
    }
}

static __global__ void count_diff(const unsigned *a, const unsigned *b, int64_t n, unsigned long long *d)
{
    unsigned long long c = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        c += a[i] != b[i];
    if (c) atomicAdd(d, c);
}

static int64_t h_m(int64_t p, int64_t h) { return (p & 1) ? h + (p >> 1) : p >> 1; }
static int64_t h_minv(int64_t q, int64_t h) { return q < h ? 2 * q : 2 * (q - h) + 1; }

static int64_t R, C;
static int32_t *d_seg[2][2]; /* [inverse][cut] */
static int64_t nseg[2][2];
static int *d_flags;

/* arm 0: element loads, whole cycles (the kernel launched here); 1: 16-byte pieces, whole cycles; 2: cut */
static void launch(unsigned *a, int inverse, int arm)
{
    const int cut = arm == 2;
    if (arm == 0) {
        const size_t smem = rc_smem<unsigned>(C);
        rc_inline inl = {};
        rowcycle_kernel<unsigned><<<(unsigned)nseg[inverse][0], RC_THREADS, smem>>>(R, C, C, 1, 0, 0, 1,
                                                                                   d_seg[inverse][0], inl, nullptr,
                                                                                   inverse, 0, a);
        CKX(cudaGetLastError());
        return;
    }
    const int64_t blen[2] = {1, 1}, bs[2] = {0, 0};
    CKX(lwk_rowcycle_launch(LWK_F32, inverse, R, C, C, blen, bs, d_seg[inverse][cut], 0, nseg[inverse][cut],
                            cut && nseg[inverse][1] > nseg[inverse][0] ? d_flags : nullptr, a, 0));
}

static unsigned long long diffs(const unsigned *a, const unsigned *b, unsigned long long *d)
{
    unsigned long long h = 0;
    CKX(cudaMemset(d, 0, sizeof h));
    count_diff<<<1024, 256>>>(a, b, R * C, d);
    CKX(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    return h;
}

int main(int argc, char **argv)
{
    R = argc > 1 ? atoll(argv[1]) : 16384;
    C = argc > 2 ? atoll(argv[2]) : 16384;
    if (C % 4 || C > lwk_rowcycle_max_cols(LWK_F32)) {
        fprintf(stderr, "cols must be a multiple of 4 and at most %lld\n", (long long)lwk_rowcycle_max_cols(LWK_F32));
        return 2;
    }
    const int64_t n = R * C, hr = (R + 1) / 2, hc = (C + 1) / 2;
    int64_t resident = 0;
    CKX(lwk_rowcycle_resident(LWK_F32, C, &resident));
    unsigned *a, *ref, *cp, *v0;
    unsigned long long *d;
    CKX(cudaMalloc(&a, n * 4));
    CKX(cudaMalloc(&ref, n * 4));
    CKX(cudaMalloc(&cp, n * 4));
    CKX(cudaMalloc(&v0, n * 4));
    CKX(cudaMalloc(&d, 8));
    CKX(cudaMalloc(&d_flags, resident * sizeof(int)));
    for (int inv = 0; inv < 2; inv++)
        for (int cut = 0; cut < 2; cut++) {
            const int64_t k = lw_mallat_cycle_segments(R, inv, cut ? resident : 0, NULL, 0);
            std::vector<int32_t> h(3 * k);
            lw_mallat_cycle_segments(R, inv, cut ? resident : 0, h.data(), k);
            nseg[inv][cut] = k;
            CKX(cudaMalloc(&d_seg[inv][cut], 3 * k * sizeof(int32_t)));
            CKX(cudaMemcpy(d_seg[inv][cut], h.data(), 3 * k * sizeof(int32_t), cudaMemcpyHostToDevice));
        }
    cudaDeviceProp pr;
    CKX(cudaGetDeviceProperties(&pr, 0));
    printf("# rowcycle_ab %s, %lld x %lld float32, %lld cycles (%lld segments cut for %lld resident blocks), %d "
           "threads a block\n",
           pr.name, (long long)R, (long long)C, (long long)nseg[0][0], (long long)nseg[0][1], (long long)resident,
           RC_THREADS);

    /* checks */
    int bad = 0;
    fill<<<1024, 256>>>(ref, n);
    std::vector<unsigned> in(n), out(C);
    CKX(cudaMemcpy(in.data(), ref, n * 4, cudaMemcpyDeviceToHost));
    for (int arm = 0; arm < 3; arm++) {
        CKX(cudaMemcpy(a, ref, n * 4, cudaMemcpyDeviceToDevice));
        launch(a, 0, arm);
        CKX(cudaDeviceSynchronize());
        srand(7 + arm);
        for (int t = 0; t < 64; t++) {
            const int64_t q = t == 0 ? 0 : t == 1 ? R - 1 : rand() % R, s = h_minv(q, hr);
            CKX(cudaMemcpy(out.data(), a + q * C, C * 4, cudaMemcpyDeviceToHost));
            for (int64_t c = 0; c < C; c++)
                if (out[h_m(c, hc)] != in[s * C + c]) {
                    if (bad++ < 5) printf("FAIL arm %d forward row %lld col %lld\n", arm, (long long)q, (long long)c);
                    break;
                }
        }
        if (arm == 0) CKX(cudaMemcpy(v0, a, n * 4, cudaMemcpyDeviceToDevice));
        else if (unsigned long long k = diffs(a, v0, d)) {
            printf("FAIL arm %d's forward differs from vec0's in %llu samples\n", arm, k);
            bad++;
        }
        launch(a, 1, arm);
        if (unsigned long long k = diffs(a, ref, d)) {
            printf("FAIL arm %d: forward + inverse differs from the input in %llu samples\n", arm, k);
            bad++;
        }
    }
    CKX(cudaGetLastError());
    printf("checks: %s\n", bad ? "FAILED" : "passed");

    /* timing: the arms alternate, each launch after the previous has ended */
    const char *names[7] = {"copy", "fwd vec0", "fwd vec1", "fwd cut", "inv vec0", "inv vec1", "inv cut"};
    std::vector<float> t[7];
    cudaEvent_t e0, e1;
    CKX(cudaEventCreate(&e0));
    CKX(cudaEventCreate(&e1));
    int iters = 23;
    for (int it = 0; it < iters; it++)
        for (int k = 0; k < 7; k++) {
            CKX(cudaEventRecord(e0));
            if (k == 0) CKX(cudaMemcpyAsync(cp, a, n * 4, cudaMemcpyDeviceToDevice));
            else launch(a, k >= 4, (k - 1) % 3);
            CKX(cudaEventRecord(e1));
            CKX(cudaEventSynchronize(e1));
            float ms;
            CKX(cudaEventElapsedTime(&ms, e0, e1));
            if (it >= 3) t[k].push_back(ms);
            if (it == 0 && ms > 20 && iters > 8) iters = 8;
        }
    CKX(cudaGetLastError());
    float med[7];
    for (int k = 0; k < 7; k++) {
        std::sort(t[k].begin(), t[k].end());
        med[k] = t[k][t[k].size() / 2];
    }
    for (int k = 0; k < 7; k++)
        printf("%-9s %8.4f ms  %.3f of the copy  (min %.4f, max %.4f)\n", names[k], med[k], med[0] / med[k], t[k][0],
               t[k].back());
    return bad ? 1 : 0;
}
