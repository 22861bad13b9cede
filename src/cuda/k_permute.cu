/* In-place Mallat reordering along one axis by cycles (Ikuzawa et al.): the
 * interleaved positions of a line move to their Mallat places, pos ->
 * lwd_mallat(pos, n), along the permutation's cycles, each started at its
 * leader (its smallest position; the list is made once at plan time,
 * lw_cycle_leaders).  One thread walks one cycle of one line in batches of
 * independent loads, with the lines side by side in a warp (coalesced where
 * neighbouring lines are contiguous).  No memory beyond the
 * array and the leaders. */
#include "lw_cuda_dev.cuh"

/* Positions moved per batch: a thread issues this many independent loads of
 * its cycle (the positions follow from arithmetic alone) before it stores
 * them one place along, so that a cycle costs its length / PERM_BATCH
 * memory latencies instead of its length. */
#define PERM_BATCH 16

/* inverse = 0: interleaved -> Mallat (x'[m(p)] = x[p]); 1: Mallat -> interleaved (x'[p] = x[m(p)]).
 * Along the cycle lead = c0 -> c1 = m(c0) -> ... -> c(L-1) -> lead, the forward moves
 * x[c(j)] to c(j+1), the inverse x[c(j+1)] to c(j).  Each batch loads the next
 * positions of the cycle (up to PERM_BATCH, stopping before the leader) and stores
 * them shifted by one; the value that crosses into the next batch is carried in
 * a register, and the leader's original (loaded first) closes the cycle. */
template <class T>
__global__ void permute_kernel(lwk_lines L, const int32_t *leaders, int64_t ncyc, int inverse, T *x)
{
    const int64_t n = L.n, ls = L.lstride, total = ncyc * L.nlines;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = e / L.nlines, line = e - c * L.nlines;
        T *b = x + lwd_decomp(line, L.nd, L.dlen, L.dstr);
        const int64_t lead = leaders[c];
        const T first = b[lead * ls];
        T carry = first; /* forward: the value moving into the next position */
        int64_t pos = lead;
        for (;;) {
            int64_t q[PERM_BATCH];
            T v[PERM_BATCH];
            int k = 0;
            int64_t r = pos, last = pos; /* last: the batch's last position (its q[k - 1]) */
#pragma unroll
            for (int u = 0; u < PERM_BATCH; u++) { /* the next positions, the leader excluded */
                q[u] = 0;
                if (k == u) {
                    r = lwd_mallat(r, n);
                    if (r != lead) q[u] = r, last = r, k = u + 1;
                }
            }
            const bool end = k < PERM_BATCH || lwd_mallat(last, n) == lead;
#pragma unroll
            for (int u = 0; u < PERM_BATCH; u++)
                if (u < k) v[u] = b[q[u] * ls];
            /* the array is indexed by constants only (unrolled), so that it stays in registers */
            if (!inverse) {
                T next = carry;
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++)
                    if (u < k) b[q[u] * ls] = u == 0 ? carry : v[u - 1], next = v[u];
                carry = next;
                if (end) {
                    b[lead * ls] = carry;
                    break;
                }
            } else {
                b[pos * ls] = v[0];
#pragma unroll
                for (int u = 0; u + 1 < PERM_BATCH; u++)
                    if (u + 1 < k) b[q[u] * ls] = v[u + 1];
                if (end) {
                    b[last * ls] = first;
                    break;
                }
            }
            pos = last;
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
    case LWK_F16:
    case LWK_BF16: return permute_run<uint16_t>(L, leaders, ncyc, inverse, x, s); /* 2-byte moves */
    default: return permute_run<float>(L, leaders, ncyc, inverse, x, s); /* float32 and int32: 4-byte moves */
    }
}
