/* Horizontal-pass algorithms of Kucis et al. (paper 000, section III.A).
 * One block walks along one line in chunks (the paper's extension to lines
 * longer than a work group): the chunk and its halo go to shared memory, the
 * threads compute, the results go straight to their views.
 *
 *   galiano     convolution, one coefficient pair per thread (Galiano et al.):
 *               the wavelet's two analysis (or synthesis) filters, obtained
 *               from the lifting steps on the host; no barrier between steps.
 *               Exact only where a one-time extension is (periodic mode,
 *               symmetric-tap wavelets, haar on even lengths); no integers.
 *   laan        lifting, one pair per thread, a barrier after every step
 *               (Laan et al.); the sliding window of k_sep_dev.cuh with one
 *               lane, intermediate values kept between chunks.
 *   blazewicz1  lifting without barriers (Blazewicz et al.): each thread loads
 *   blazewicz4  its pairs plus the halo into registers and computes everything
 *               it needs itself (redundant work at the pair edges); 1 or 4
 *               pairs per thread.
 * The register kernels (blazewicz) can also lift the transposed columns of
 * the vertical blazewicz pass: every line view is a parameter. */
#include "k_sep_dev.cuh"

#include <type_traits>

#define SEPH_THREADS 256
#define LAANH_CHUNK 512  /* samples per step of the window: one target per thread */
#define LAANH_RING 2048

/* sm[0 .. K*NT + X) = samples p0.. of the line through the mode (0 from
 * `end` on): K samples per thread plus X more for the first threads, every
 * load issued before the first shared store (bytes in flight). */
template <class T, int K, int X>
__device__ __forceinline__ void sep_load_chunk(T *sm, const sep_in<T> &in, int64_t p0, int64_t end, int64_t n, int mode)
{
    const int tid = threadIdx.x, NT = blockDim.x;
    T v[K], x = 0;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int64_t pos = p0 + tid + (int64_t)j * NT;
        v[j] = pos < end ? in.ld(lwd_bidx(pos, n, mode)) : T(0);
    }
    const int64_t px = p0 + (int64_t)K * NT + tid;
    if (tid < X && px < end) x = in.ld(lwd_bidx(px, n, mode));
#pragma unroll
    for (int j = 0; j < K; j++) sm[tid + j * NT] = v[j];
    if (tid < X) sm[K * NT + tid] = x;
}

/* ---- galiano --------------------------------------------------------------- */
template <class T, int W, int DIR>
__global__ void __launch_bounds__(SEPH_THREADS) k_galiano(lwk_sep_lines L)
{
    constexpr sep_sup S = sep_conv_support(W, DIR);
    constexpr int R = sep_conv_reach(W, DIR);
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *sm = (T *)smem_raw;
    const int tid = threadIdx.x, NT = blockDim.x;
    const int64_t n = L.n, C = 2 * NT, nitems = L.nlines * L.blen[0] * L.blen[1];
    for (int64_t item = blockIdx.x; item < nitems; item += gridDim.x) {
        int64_t l, b0, b1;
        sep_item(item, L.nlines, L, &l, &b0, &b1);
        const sep_in<T> in = sep_in_line<T>(L.in, l, b0, b1);
        const sep_out<T> out = sep_out_line<T>(L.out, l, b0, b1);
        for (int64_t c0 = 0; c0 < n; c0 += C) {
            sep_load_chunk<T, 2, 2 * R>(sm, in, c0 - R, n + R, n, L.mode);
            __syncthreads();
            const int64_t t = c0 + 2 * tid;
            if (t < n) {
                const T *x = sm + 2 * tid + R;
                T a = 0;
#pragma unroll
                for (int m = S.lo[0]; m <= S.hi[0]; m++) a += sep_filt<T>::at(L, 0, m) * x[m];
                out.st(t, a);
                if (t + 1 < n) {
                    T b = 0;
#pragma unroll
                    for (int m = S.lo[1]; m <= S.hi[1]; m++) b += sep_filt<T>::at(L, 1, m) * x[1 + m];
                    out.st(t + 1, b);
                }
            }
            __syncthreads();
        }
    }
}

/* ---- laan ------------------------------------------------------------------ */
template <class T, int W, int DIR> __global__ void __launch_bounds__(LAANH_CHUNK / 2) k_laan_h(lwk_sep_lines L)
{
    __shared__ __align__(16) T ring[LAANH_RING][1];
    sep_laan_run<T, W, DIR, 1, LAANH_CHUNK, LAANH_RING>(L, ring);
}

/* ---- blazewicz1 / blazewicz4 ------------------------------------------------ */
template <class T, int W, int DIR, int P>
__global__ void __launch_bounds__(SEPH_THREADS) k_bz(lwk_sep_lines L)
{
    constexpr int H = sh_halo(W), NV = 2 * P + 2 * H;
    constexpr int VB = 2 * P * (int)sizeof(T) < 16 ? 2 * P * (int)sizeof(T) : 16;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *sm = (T *)smem_raw;
    const int tid = threadIdx.x, NT = blockDim.x;
    const bool sym = L.mode == LW_SYMMETRIC;
    const int64_t n = L.n, C = 2 * P * NT, nitems = L.nlines * L.blen[0] * L.blen[1];
    for (int64_t item = blockIdx.x; item < nitems; item += gridDim.x) {
        int64_t l, b0, b1;
        sep_item(item, L.nlines, L, &l, &b0, &b1);
        const sep_in<T> in = sep_in_line<T>(L.in, l, b0, b1);
        const sep_out<T> out = sep_out_line<T>(L.out, l, b0, b1);
        const bool vec_lo = out.pe == 1 && out.po == 1;                       /* forward: Mallat halves */
        const bool vec_il = out.pe == 2 && out.po == 2 && out.o == out.e + 1; /* inverse: interleaved */
        for (int64_t c0 = 0; c0 < n; c0 += C) {
            sep_load_chunk<T, 2 * P, 2 * H>(sm, in, c0 - H, n + H, n, L.mode);
            __syncthreads();
            const int64_t t0 = c0 + 2 * P * tid;
            if (t0 < n) {
                T v[NV];
                sep_window<T, NV, VB>(sm + 2 * P * tid, v);
                sep_lift_window<W, DIR>(v, L.w, t0 - H, n, sym);
                if (P == 4 && DIR > 0 && vec_lo && t0 + 8 <= n) {
                    store4<T>(out.e + (t0 >> 1), v[H], v[H + 2], v[H + 4], v[H + 6], true);
                    store4<T>(out.o + (t0 >> 1), v[H + 1], v[H + 3], v[H + 5], v[H + 7], true);
                } else if (P == 4 && DIR < 0 && vec_il && t0 + 8 <= n) {
                    store4<T>(out.e + t0, v[H], v[H + 1], v[H + 2], v[H + 3], true);
                    store4<T>(out.e + t0 + 4, v[H + 4], v[H + 5], v[H + 6], v[H + 7], true);
                } else {
#pragma unroll
                    for (int j = 0; j < 2 * P; j++)
                        if (t0 + j < n) out.st(t0 + j, v[H + j]);
                }
            }
            __syncthreads();
        }
    }
}

/* ---- launchers -------------------------------------------------------------- */

static int threads_for(int64_t n, int per_thread)
{
    int64_t t = (n + per_thread - 1) / per_thread;
    t = (t + 31) & ~(int64_t)31;
    return (int)(t < 32 ? 32 : t > SEPH_THREADS ? SEPH_THREADS : t);
}

struct seph_run {
    template <class T, int W>
    static cudaError_t run(int kind, int inverse, const lwk_sep_lines *L, cudaStream_t s)
    {
        constexpr int H = sh_halo(W);
        const int64_t items = L->nlines * L->blen[0] * L->blen[1];
        if (items < 1 || L->n < 1) return cudaSuccess;
        const unsigned grid = sep_grid(items);
        switch (kind) {
        case LWK_SEPH_GALIANO:
            if constexpr (std::is_floating_point<T>::value) {
                const int nt = threads_for(L->n, 2);
                if (inverse) {
                    const size_t sm = (size_t)(2 * nt + 2 * sep_conv_reach(W, -1)) * sizeof(T);
                    k_galiano<T, W, -1><<<grid, nt, sm, s>>>(*L);
                } else {
                    const size_t sm = (size_t)(2 * nt + 2 * sep_conv_reach(W, 1)) * sizeof(T);
                    k_galiano<T, W, 1><<<grid, nt, sm, s>>>(*L);
                }
                return cudaGetLastError();
            }
            return cudaErrorInvalidValue;
        case LWK_SEPH_LAAN:
            if (inverse) k_laan_h<T, W, -1><<<grid, LAANH_CHUNK / 2, 0, s>>>(*L);
            else k_laan_h<T, W, 1><<<grid, LAANH_CHUNK / 2, 0, s>>>(*L);
            return cudaGetLastError();
        case LWK_SEPH_BZ1:
        case LWK_SEPH_BZ4: {
            constexpr int P1 = sep_bz_pairs(LWK_SEPH_BZ1), P4 = sep_bz_pairs(LWK_SEPH_BZ4);
            const int P = sep_bz_pairs(kind);
            const int nt = threads_for(L->n, 2 * P);
            const size_t sm = (size_t)(2 * P * nt + 2 * H) * sizeof(T);
            if (kind == LWK_SEPH_BZ1) {
                if (inverse) k_bz<T, W, -1, P1><<<grid, nt, sm, s>>>(*L);
                else k_bz<T, W, 1, P1><<<grid, nt, sm, s>>>(*L);
            } else {
                if (inverse) k_bz<T, W, -1, P4><<<grid, nt, sm, s>>>(*L);
                else k_bz<T, W, 1, P4><<<grid, nt, sm, s>>>(*L);
            }
            return cudaGetLastError();
        }
        }
        return cudaErrorInvalidValue;
    }
};

extern "C" cudaError_t lwk_sep_hpass(int kind, int dtype, int inverse, const lwk_sep_lines *L, cudaStream_t s)
{
    return sep_dispatch<seph_run>(dtype, L->w.id, kind, inverse, L, s);
}
