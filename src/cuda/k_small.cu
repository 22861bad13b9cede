/* Small engine: one block holds a whole item (up to 3 transformed axes) in
 * shared memory and runs several levels on it, every axis, every step, with a
 * barrier between steps and the boundary read through the mode at every step.
 * Used for batches of small arrays and for the tail levels of a pyramid, so
 * that small levels cost one launch instead of one per level and axis. */
#include "lw_cuda_dev.cuh"

#define SMALL_THREADS 256
#define SMALL_SMEM_MAX (96 * 1024)

/* bytes of the compute type (shared memory): float for the half types */
static int small_elsize(int dtype) { return dtype == LWK_F64 ? 8 : 4; }

extern "C" int64_t lwk_small_capacity(int dtype) { return SMALL_SMEM_MAX / 2 / small_elsize(dtype); }

/* Offset of dense index e over the item's axes (C order) with strides st. */
__device__ __forceinline__ int64_t small_off(int64_t e, int na, const int *m, const int64_t *st)
{
    int64_t off = 0;
    for (int a = na - 1; a >= 0; a--) {
        int64_t q = e / m[a];
        off += (e - q * m[a]) * st[a];
        e = q;
    }
    return off;
}

/* One level along axis a of the dense shared item: reorder and lift. */
template <class T>
__device__ void small_axis(const lwk_small &p, T *buf, T *tmp, const int *m, const int *r, int g, int a, int dir)
{
    const int tid = threadIdx.x, nt = blockDim.x;
    const int na = p.na;
    int ds[3], ol[2], os[2], no = 0;
    for (int b = na - 1, s = 1; b >= 0; b--) ds[b] = s, s *= m[b];
    for (int b = 0; b < na; b++)
        if (b != a) ol[no] = r[b], os[no] = g * ds[b], no++;
    int nl = 1;
    for (int i = 0; i < no; i++) nl *= ol[i];
    const int n = r[a], ls = g * ds[a];
    const int h = (n + 1) / 2;
    const int mallat = p.mallat;
#define LINE_BASE(l) \
    (no == 0 ? 0 : (no == 1 ? (l) * os[0] : ((l) / ol[1]) * os[0] + ((l) % ol[1]) * os[1]))

    if (mallat && dir < 0) { /* Mallat -> interleaved along a */
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            int b = LINE_BASE(l);
            tmp[b + j * ls] = buf[b + ((j & 1) ? h + (j >> 1) : (j >> 1)) * ls];
        }
        __syncthreads();
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            int b = LINE_BASE(l);
            buf[b + j * ls] = tmp[b + j * ls];
        }
        __syncthreads();
    }
    if (dir < 0) {
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            T *x = &buf[LINE_BASE(l) + j * ls];
            *x = lwd_scale<T>(p.w, *x, j & 1, -1);
        }
        __syncthreads();
    }
    for (int ss = 0; ss < p.w.nsteps; ss++) {
        int s = dir < 0 ? p.w.nsteps - 1 - ss : ss;
        int par = p.w.target_odd[s];
        int ntg = (n - par + 1) / 2;
        for (int e = tid; e < nl * ntg; e += nt) {
            int l = e / ntg, q = e - l * ntg;
            int t = par + 2 * q;
            T *line = &buf[LINE_BASE(l)];
            T taps[LW_MAX_TAPS];
            for (int i = 0; i < p.w.ntaps[s]; i++)
                taps[i] = line[(int)lwd_bidx(t + p.w.off[s][i], n, p.mode) * ls];
            line[t * ls] = lwd_step<T>(p.w, s, line[t * ls], taps, dir);
        }
        __syncthreads();
    }
    if (dir > 0) {
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            T *x = &buf[LINE_BASE(l) + j * ls];
            *x = lwd_scale<T>(p.w, *x, j & 1, 1);
        }
        __syncthreads();
    }
    if (mallat && dir > 0) { /* interleaved -> Mallat along a */
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            int b = LINE_BASE(l);
            tmp[b + ((j & 1) ? h + (j >> 1) : (j >> 1)) * ls] = buf[b + j * ls];
        }
        __syncthreads();
        for (int e = tid; e < nl * n; e += nt) {
            int l = e / n, j = e - l * n;
            int b = LINE_BASE(l);
            buf[b + j * ls] = tmp[b + j * ls];
        }
        __syncthreads();
    }
#undef LINE_BASE
}

/* S: the storage type; shared memory holds the compute type T */
template <class S>
__global__ void __launch_bounds__(SMALL_THREADS) small_kernel(lwk_small p, const S *src, S *dst)
{
    typedef lwd_c<S> T;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const int *m = p.len[0];
    int D = 1;
    for (int a = 0; a < p.na; a++) D *= m[a];
    T *buf = (T *)smem_raw;
    T *tmp = buf + D;
    const int dir = p.inverse ? -1 : 1;
    for (int64_t b = blockIdx.x; b < p.nbatch; b += gridDim.x) {
        int64_t sb = lwd_decomp(b, p.nb, p.blen, p.bsst);
        int64_t db = lwd_decomp(b, p.nb, p.blen, p.bdst);
        for (int e = threadIdx.x; e < D; e += blockDim.x) buf[e] = lwd_ld(src + sb + small_off(e, p.na, m, p.sst));
        __syncthreads();
        for (int ii = 0; ii < p.nlev; ii++) {
            int i = p.inverse ? p.nlev - 1 - ii : ii;
            int g = p.interleaved ? (1 << i) : 1;
            for (int aa = 0; aa < p.na; aa++) {
                int a = p.inverse ? p.na - 1 - aa : aa;
                if (p.len[i][a] < 2) continue;
                small_axis<T>(p, buf, tmp, m, p.len[i], g, a, dir);
            }
        }
        for (int e = threadIdx.x; e < D; e += blockDim.x) lwd_st(dst + db + small_off(e, p.na, m, p.dst_), buf[e]);
        __syncthreads();
    }
}

template <class S> static cudaError_t small_run(const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    typedef lwd_c<S> T;
    int64_t D = 1;
    for (int a = 0; a < p->na; a++) D *= p->len[0][a];
    size_t smem = 2 * (size_t)D * sizeof(T);
    if (smem > SMALL_SMEM_MAX) return cudaErrorInvalidValue;
    const cudaError_t attr = lw_cuda_func_attr((const void *)small_kernel<S>, LW_SMEM_ATTR, SMALL_SMEM_MAX);
    if (attr != cudaSuccess) return attr;
    int64_t grid = p->nbatch < (1 << 20) ? p->nbatch : (1 << 20);
    if (grid < 1) return cudaSuccess;
    small_kernel<S><<<(unsigned)grid, SMALL_THREADS, smem, s>>>(*p, (const S *)src, (S *)dst);
    return cudaGetLastError();
}

extern "C" cudaError_t lwk_small_launch(int dtype, const lwk_small *p, const void *src, void *dst, cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto t) { return small_run<LWD_TYPE_OF(t)>(p, src, dst, s); });
}
