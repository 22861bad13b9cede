/* In-place Mallat reordering along one axis by cycles (Ikuzawa et al.): the
 * interleaved positions of a line move to their Mallat places, pos ->
 * lwd_mallat(pos, n), along the permutation's cycles, each started at its
 * leader (its smallest position; the list is made once at plan time,
 * lw_cycle_leaders).  One thread walks one cycle of one line: a chain of
 * dependent loads and stores, with the lines side by side in a warp
 * (coalesced where neighbouring lines are contiguous).  No memory beyond the
 * array and the leaders. */
#include "lw_cuda_dev.cuh"

/* inverse = 0: interleaved -> Mallat (x'[m(p)] = x[p]); 1: Mallat -> interleaved (x'[p] = x[m(p)]) */
template <class T>
__global__ void permute_kernel(lwk_lines L, const int32_t *leaders, int64_t ncyc, int inverse, T *x)
{
    const int64_t n = L.n, ls = L.lstride, total = ncyc * L.nlines;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = e / L.nlines, line = e - c * L.nlines;
        T *b = x + lwd_decomp(line, L.nd, L.dlen, L.dstr);
        const int64_t lead = leaders[c];
        int64_t pos = lead;
        if (!inverse) {
            T v = b[pos * ls];
            do {
                int64_t q = lwd_mallat(pos, n);
                T t = b[q * ls];
                b[q * ls] = v;
                v = t, pos = q;
            } while (pos != lead);
        } else {
            T first = b[pos * ls];
            for (;;) {
                int64_t q = lwd_mallat(pos, n);
                if (q == lead) {
                    b[pos * ls] = first;
                    break;
                }
                b[pos * ls] = b[q * ls];
                pos = q;
            }
        }
    }
}

template <class T>
static cudaError_t permute_run(const lwk_lines *L, const int32_t *leaders, int64_t ncyc, int inverse, void *x,
                               cudaStream_t s)
{
    int64_t total = ncyc * L->nlines, blocks = (total + 255) / 256;
    if (total < 1) return cudaSuccess;
    permute_kernel<T><<<(unsigned)(blocks < (1 << 20) ? blocks : (1 << 20)), 256, 0, s>>>(*L, leaders, ncyc, inverse,
                                                                                          (T *)x);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_permute_launch(int dtype, const lwk_lines *L, const int32_t *leaders, int64_t ncyc,
                                          int inverse, void *x, cudaStream_t s)
{
    switch (dtype) {
    case LWK_F64: return permute_run<double>(L, leaders, ncyc, inverse, x, s);
    default: return permute_run<float>(L, leaders, ncyc, inverse, x, s); /* float32 and int32: 4-byte moves */
    }
}
