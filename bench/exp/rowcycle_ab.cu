/* The Mallat layout's row reorder alone (issue 15; k_rowcycle.cu, bench/NOTES-walker-plain.md, "The row
 * reorder's loads in flight"): one block a cycle moves whole rows along the cycles of the row permutation,
 * one row at a time, so the loads a block has in flight pace it.  This times the kernel's two row paths on
 * the same array in the same run: element loads (vec 0) and 16-byte pieces (vec 1), forward and inverse,
 * against the device-to-device copy of the array, and checks them.  Needs bench/exp/wip/rowcycle-vec.patch
 * applied (the kernel's vec argument).
 *
 *   nvcc -O3 -arch=sm_90 -Iinclude -o rowcycle_ab bench/exp/rowcycle_ab.cu && ./rowcycle_ab [rows cols]
 *
 * float32 (the kernel moves 4-byte words), default 16384 x 16384.  Each time is the median of 20
 * launches after 3 warm-ups (CUDA events); the arms alternate.  Checks: each path's forward equals the
 * permutation computed on the host on 64 random rows, the two paths' forwards agree everywhere, and
 * the inverse brings the array back. */
#include "../../src/cuda/k_rowcycle.cu"

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

cudaError_t lw_cuda_func_attr(const void *f, int attr, int value)
{
    return cudaFuncSetAttribute(f, (cudaFuncAttribute)attr, value);
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
static int32_t *d_lead;
static int64_t nlead;

static void launch(unsigned *a, int inverse, int vec)
{
    const size_t smem = 2 * (size_t)((C + 7) & ~(int64_t)7) * sizeof(unsigned);
    rc_inline inl = {};
    rowcycle_kernel<unsigned><<<(unsigned)nlead, RC_THREADS, smem>>>(R, C, C, 1, 0, 0, 1, d_lead, inl, inverse, vec,
                                                                      a);
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
    /* the forward's cycles: row q takes row minv(q); a leader a cycle, fixed rows included */
    std::vector<int32_t> lead;
    std::vector<char> seen(R, 0);
    for (int64_t q = 0; q < R; q++) {
        if (seen[q]) continue;
        lead.push_back((int32_t)q);
        for (int64_t r = q; !seen[r]; r = h_minv(r, hr)) seen[r] = 1;
    }
    nlead = (int64_t)lead.size();
    unsigned *a, *ref, *cp;
    unsigned long long *d;
    CKX(cudaMalloc(&a, n * 4));
    CKX(cudaMalloc(&ref, n * 4));
    CKX(cudaMalloc(&cp, n * 4));
    CKX(cudaMalloc(&d, 8));
    CKX(cudaMalloc(&d_lead, nlead * 4));
    CKX(cudaMemcpy(d_lead, lead.data(), nlead * 4, cudaMemcpyHostToDevice));
    CKX(lw_cuda_func_attr((const void *)rowcycle_kernel<unsigned>, LW_SMEM_ATTR, RC_SMEM));
    cudaDeviceProp pr;
    CKX(cudaGetDeviceProperties(&pr, 0));
    printf("# rowcycle_ab %s, %lld x %lld float32, %lld cycles, %d threads a block\n", pr.name, (long long)R,
           (long long)C, (long long)nlead, RC_THREADS);

    /* checks */
    int bad = 0;
    fill<<<1024, 256>>>(ref, n);
    std::vector<unsigned> in(n), out(C);
    CKX(cudaMemcpy(in.data(), ref, n * 4, cudaMemcpyDeviceToHost));
    for (int vec = 0; vec < 2; vec++) {
        CKX(cudaMemcpy(a, ref, n * 4, cudaMemcpyDeviceToDevice));
        launch(a, 0, vec);
        CKX(cudaDeviceSynchronize());
        srand(7 + vec);
        for (int t = 0; t < 64; t++) {
            const int64_t q = t == 0 ? 0 : t == 1 ? R - 1 : rand() % R, s = h_minv(q, hr);
            CKX(cudaMemcpy(out.data(), a + q * C, C * 4, cudaMemcpyDeviceToHost));
            for (int64_t c = 0; c < C; c++)
                if (out[h_m(c, hc)] != in[s * C + c]) {
                    if (bad++ < 5) printf("FAIL vec %d forward row %lld col %lld\n", vec, (long long)q, (long long)c);
                    break;
                }
        }
        if (vec == 0) CKX(cudaMemcpy(cp, a, n * 4, cudaMemcpyDeviceToDevice));
        else if (unsigned long long k = diffs(a, cp, d)) {
            printf("FAIL the paths' forwards differ in %llu samples\n", k);
            bad++;
        }
        launch(a, 1, vec);
        if (unsigned long long k = diffs(a, ref, d)) {
            printf("FAIL vec %d: forward + inverse differs from the input in %llu samples\n", vec, k);
            bad++;
        }
    }
    CKX(cudaGetLastError());
    printf("checks: %s\n", bad ? "FAILED" : "passed");

    /* timing: the arms alternate, each launch after the previous has ended */
    const char *names[5] = {"copy", "fwd vec0", "fwd vec1", "inv vec0", "inv vec1"};
    std::vector<float> t[5];
    cudaEvent_t e0, e1;
    CKX(cudaEventCreate(&e0));
    CKX(cudaEventCreate(&e1));
    for (int it = 0; it < 23; it++)
        for (int k = 0; k < 5; k++) {
            CKX(cudaEventRecord(e0));
            if (k == 0) CKX(cudaMemcpyAsync(cp, a, n * 4, cudaMemcpyDeviceToDevice));
            else launch(a, k >= 3, (k - 1) % 2);
            CKX(cudaEventRecord(e1));
            CKX(cudaEventSynchronize(e1));
            float ms;
            CKX(cudaEventElapsedTime(&ms, e0, e1));
            if (it >= 3) t[k].push_back(ms);
        }
    CKX(cudaGetLastError());
    float med[5];
    for (int k = 0; k < 5; k++) {
        std::sort(t[k].begin(), t[k].end());
        med[k] = t[k][t[k].size() / 2];
    }
    for (int k = 0; k < 5; k++)
        printf("%-9s %8.4f ms  %.3f of the copy  (min %.4f, max %.4f)\n", names[k], med[k], med[0] / med[k], t[k][0],
               t[k].back());
    return bad ? 1 : 0;
}
