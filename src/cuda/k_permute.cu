/* In-place Mallat reordering along one axis by cycles (Ikuzawa et al.): the
 * interleaved positions of a line move to their Mallat places, pos ->
 * lwd_mallat(pos, n), along the permutation's cycles, each started at its
 * leader (its smallest position).  The leaders come from a list made once at
 * plan time (lw_mallat_cycle_leaders) or, where that list would be long,
 * are found by the kernel itself.  One thread walks one cycle of one line in
 * batches of independent loads, with the lines side by side in a warp
 * (coalesced where neighbouring lines are contiguous).  No memory beyond the
 * array and the leaders. */
#include "lw_cuda_dev.cuh"

/* Positions moved per batch: a thread issues this many independent loads of
 * its cycle (the positions follow from arithmetic alone) before it stores
 * them one place along, so that a cycle costs its length / PERM_BATCH
 * memory latencies instead of its length. */
#define PERM_BATCH 16

/* One cycle of one line (b: the line's first sample, ls its stride), from its
 * leader.  inverse = 0: interleaved -> Mallat (x'[m(p)] = x[p]); 1: Mallat ->
 * interleaved (x'[p] = x[m(p)]).  Along the cycle lead = c0 -> c1 = m(c0) -> ...
 * -> c(L-1) -> lead, the forward moves x[c(j)] to c(j+1), the inverse x[c(j+1)]
 * to c(j).  Each batch loads the next positions of the cycle (up to PERM_BATCH,
 * stopping before the leader) and stores them shifted by one; the value that
 * crosses into the next batch is carried in a register, and the leader's
 * original (loaded first) closes the cycle. */
template <class T> __device__ __forceinline__ void walk_cycle(T *b, int64_t ls, int64_t n, int64_t lead, int inverse)
{
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
                return;
            }
        } else {
            b[pos * ls] = v[0];
#pragma unroll
            for (int u = 0; u + 1 < PERM_BATCH; u++)
                if (u + 1 < k) b[q[u] * ls] = v[u + 1];
            if (end) {
                b[last * ls] = first;
                return;
            }
        }
        pos = last;
    }
}

/* Whole cycles from the leaders table: a walker a cycle and line */
template <class T>
__global__ void permute_kernel(lwk_lines L, const int32_t *leaders, int64_t ncyc, int inverse, T *x)
{
    const int64_t total = ncyc * L.nlines;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = e / L.nlines, line = e - c * L.nlines;
        walk_cycle(x + lwd_decomp(line, L.nd, L.dlen, L.dstr), L.lstride, L.n, leaders[c], inverse);
    }
}

/* Whether p is the smallest position of a cycle longer than one.  The walk
 * stops at the first smaller position, so most positions cost a step or two
 * and a leader its cycle's length. */
__device__ __forceinline__ bool is_cycle_leader(int64_t p, int64_t n)
{
    int64_t r = lwd_mallat(p, n);
    if (r == p) return false;
    for (; r != p; r = lwd_mallat(r, n))
        if (r < p) return false;
    return true;
}

/* Positions a block tests for leaders at a time (SELF_THREADS threads), and
 * the lines a block walks their cycles on */
#define SELF_CHUNK 4096
#define SELF_THREADS 256
#define SELF_LINES 32

/* The reorder without a leaders table, for lines whose cycles are many and
 * short (2^k samples: about n / k cycles, a table of 4 bytes a cycle would be
 * 1/k of a float32 line): each block finds the leaders among a chunk of
 * positions (blockIdx.x) into shared memory, then walks their cycles on its
 * group of lines (blockIdx.y), a walker a cycle and line. */
template <class T> __global__ void __launch_bounds__(SELF_THREADS) permute_self_kernel(lwk_lines L, int inverse, T *x)
{
    __shared__ int32_t lead[SELF_CHUNK];
    __shared__ int count;
    const int64_t n = L.n;
    for (int64_t l0 = blockIdx.y * (int64_t)SELF_LINES; l0 < L.nlines; l0 += (int64_t)gridDim.y * SELF_LINES) {
        const int64_t nl = L.nlines - l0 < SELF_LINES ? L.nlines - l0 : SELF_LINES;
        for (int64_t p0 = blockIdx.x * (int64_t)SELF_CHUNK; p0 < n; p0 += (int64_t)gridDim.x * SELF_CHUNK) {
            if (threadIdx.x == 0) count = 0;
            __syncthreads();
            const int64_t p1 = n - p0 < SELF_CHUNK ? n : p0 + SELF_CHUNK;
            for (int64_t p = p0 + threadIdx.x; p < p1; p += blockDim.x)
                if (is_cycle_leader(p, n)) lead[atomicAdd(&count, 1)] = (int32_t)p;
            __syncthreads();
            const int64_t total = count * nl;
            for (int64_t e = threadIdx.x; e < total; e += blockDim.x) {
                const int64_t c = e / nl, line = l0 + (e - c * nl);
                walk_cycle(x + lwd_decomp(line, L.nd, L.dlen, L.dstr), L.lstride, n, lead[c], inverse);
            }
            __syncthreads(); /* the list is read before the next chunk's reset */
        }
    }
}

/* Cycles cut in pieces {first, last, prev, next} (lw_mallat_cycle_pieces:
 * along src(p) = lwd_mallat_src(p, n), each cycle's pieces chained).  Where a
 * line's cycles are few and long, a walker a cycle leaves the device idle
 * behind a chain of thousands of dependent batches; pieces give a walker
 * each a bounded chain.  First each piece's boundary sample is saved (the
 * forward: its first, which the piece before stores at its last; the inverse:
 * its last, which the piece after stores at its first), so that afterwards
 * every walker reads and writes its own positions only. */
template <class T>
__global__ void permute_save_kernel(lwk_lines L, const int32_t *pc, int64_t np, int inverse, const T *x, T *saved)
{
    const int64_t total = np * L.nlines;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = e / L.nlines, line = e - c * L.nlines;
        saved[e] = x[lwd_decomp(line, L.nd, L.dlen, L.dstr) + (int64_t)pc[4 * c + (inverse ? 1 : 0)] * L.lstride];
    }
}

/* The forward: p <- src(p) from the piece's first up to its last, which takes
 * the next piece's saved first.  The inverse: p <- the sample before it along
 * the piece, its first taking the previous piece's saved last.  Batches of
 * PERM_BATCH independent loads, as in permute_kernel. */
template <class T>
__global__ void permute_cut_kernel(lwk_lines L, const int32_t *pc, int64_t np, int inverse, const T *saved, T *x)
{
    const int64_t n = L.n, ls = L.lstride, total = np * L.nlines;
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < total; e += (int64_t)gridDim.x * blockDim.x) {
        const int64_t c = e / L.nlines, line = e - c * L.nlines;
        T *b = x + lwd_decomp(line, L.nd, L.dlen, L.dstr);
        const int64_t last = pc[4 * c + 1];
        T carry = saved[(int64_t)pc[4 * c + (inverse ? 2 : 3)] * L.nlines + line];
        int64_t pos = pc[4 * c];
        if (!inverse) {
            while (pos != last) {
                int64_t q[PERM_BATCH];
                T v[PERM_BATCH];
                int k = 0;
                int64_t r = pos;
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++) { /* the positions after pos, up to last */
                    q[u] = 0;
                    if (k == u && r != last) r = lwd_mallat_src(r, n), q[u] = r, k = u + 1;
                }
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++)
                    if (u < k) v[u] = b[q[u] * ls];
                b[pos * ls] = v[0];
#pragma unroll
                for (int u = 0; u + 1 < PERM_BATCH; u++)
                    if (u + 1 < k) b[q[u] * ls] = v[u + 1];
                pos = r; /* q[k - 1] */
            }
            b[last * ls] = carry;
        } else {
            for (bool end = false; !end;) {
                int64_t q[PERM_BATCH];
                T v[PERM_BATCH];
                int k = 0;
                int64_t r = pos;
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++) { /* pos and the positions after it, up to last */
                    q[u] = 0;
                    if (k == u && !end) q[u] = r, k = u + 1, end = r == last, r = lwd_mallat_src(r, n);
                }
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++)
                    if (u < k) v[u] = b[q[u] * ls];
#pragma unroll
                for (int u = 0; u < PERM_BATCH; u++) /* the carry ends as v[k - 1] */
                    if (u < k) b[q[u] * ls] = carry, carry = v[u];
                pos = r;
            }
        }
    }
}

template <class T>
static cudaError_t permute_cut_run(const lwk_lines *L, const int32_t *pc, int64_t np, int inverse, void *x, void *saved,
                                   cudaStream_t s)
{
    const int64_t total = np * L->nlines, blocks = (total + 255) / 256;
    if (total < 1) return cudaSuccess;
    const unsigned grid = (unsigned)(blocks < (1 << 20) ? blocks : (1 << 20));
    permute_save_kernel<T><<<grid, 256, 0, s>>>(*L, pc, np, inverse, (const T *)x, (T *)saved);
    permute_cut_kernel<T><<<grid, 256, 0, s>>>(*L, pc, np, inverse, (const T *)saved, (T *)x);
    return cudaGetLastError();
}

template <class T>
static cudaError_t permute_run(const lwk_lines *L, const int32_t *leaders, int64_t ncyc, int inverse, void *x,
                               cudaStream_t s)
{
    if (!leaders) { /* no table: the leaders found on the fly */
        const int64_t chunks = (L->n + SELF_CHUNK - 1) / SELF_CHUNK, groups = (L->nlines + SELF_LINES - 1) / SELF_LINES;
        if (chunks < 1 || groups < 1) return cudaSuccess;
        const dim3 grid((unsigned)(chunks < (1 << 20) ? chunks : (1 << 20)), (unsigned)(groups < 65535 ? groups : 65535));
        permute_self_kernel<T><<<grid, SELF_THREADS, 0, s>>>(*L, inverse, (T *)x);
        return cudaGetLastError();
    }
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

extern "C" cudaError_t lwk_permute_cut_launch(int dtype, const lwk_lines *L, const int32_t *pieces, int64_t npieces,
                                              int inverse, void *x, void *saved, cudaStream_t s)
{
    switch (dtype) {
    case LWK_F64: return permute_cut_run<double>(L, pieces, npieces, inverse, x, saved, s);
    case LWK_F16:
    case LWK_BF16: return permute_cut_run<uint16_t>(L, pieces, npieces, inverse, x, saved, s);
    default: return permute_cut_run<float>(L, pieces, npieces, inverse, x, saved, s);
    }
}
