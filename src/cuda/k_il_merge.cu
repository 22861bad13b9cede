/* The even rows of an interleaved forward pyramid's output (tile2d_il.h,
 * lwk_il_merge): the level-1 split kept them compact (its lowpass and its
 * details), and the lowpass went through levels 2.. in the Mallat layout.
 * A thread takes samples (i, j) of the lowpass grid (runs of two, below): the pyramid's
 * coefficient of that place, found in the Mallat layout by the level at which
 * i and j stop being both even, and the details' sample, written side by side
 * to columns 2j and 2j + 1 of row 2i: each row written whole, once.  An
 * inverse pyramid gathers the same places back (il_gather_kernel).  The
 * samples move as their bytes, so one kernel serves each size. */
#include "lw_cuda_dev.cuh"
#include "tile2d_il.h"

#define IM_THREADS 128
#define IM_MAX_Y 65535
#define IM_MAX_Z 65535

/* two and four samples of E bytes side by side */
template <int E> struct im_vec;
template <> struct im_vec<2> { typedef unsigned pair; typedef uint2 quad; };
template <> struct im_vec<4> { typedef uint2 pair; typedef uint4 quad; };
template <> struct im_vec<8> { typedef ulonglong2 pair; struct quad { ulonglong2 a, b; }; };

__device__ __forceinline__ int64_t im_source(const lwk_il_merge &m, int64_t i, int64_t j)
{
    const int64_t ij = i | j;
    int s = ij ? __ffsll((long long)ij) - 1 : m.levels;
    if (s > m.levels) s = m.levels;
    const int64_t a = i >> s, b = j >> s;
    if (s == m.levels) return a * m.hc + b; /* the coarsest lowpass */
    const int64_t hr = (m.lens[s][0] + 1) >> 1, hc = (m.lens[s][1] + 1) >> 1;
    return ((a >> 1) + ((a & 1) ? hr : 0)) * m.hc + (b >> 1) + ((b & 1) ? hc : 0);
}

/* A thread takes IM_RUN runs of two samples (j, j + 1 from an even j), the
 * runs a block apart: their loads are issued before any store (one sample a
 * thread left too few loads in flight: 0.43 of the copy's rate on an H200),
 * each run's four outputs go out as one vector (quads) and a warp's lanes
 * store consecutive runs, whole sectors an instruction (four adjacent
 * samples a thread, stored as pairs, wrote a quarter of every sector an
 * instruction touched: 0.61 of the copy). */
#define IM_RUN 2

template <class T>
__global__ void il_merge_kernel(lwk_il_merge m, const T *__restrict__ mal, const T *__restrict__ det, T *__restrict__ out,
                                int vec)
{
    typedef typename im_vec<sizeof(T)>::pair P;
    typedef typename im_vec<sizeof(T)>::quad Q;
    const int64_t nb = m.blen[0] * m.blen[1], item = m.hr * m.hc, half = m.cols >> 1;
    const int64_t step = 2 * (int64_t)blockDim.x, span = step * IM_RUN;
    for (int64_t bb = blockIdx.z; bb < nb; bb += gridDim.z) {
        const int64_t b0 = bb / m.blen[1], b1 = bb - b0 * m.blen[1];
        const T *mp = mal + bb * item, *dp = det + bb * item;
        T *op = out + b0 * m.obs[0] + b1 * m.obs[1];
        for (int64_t i = blockIdx.y; i < m.hr; i += gridDim.y) {
            T *row = op + 2 * i * m.ors;
            const T *drow = dp + i * m.hc;
            for (int64_t j0 = (int64_t)blockIdx.x * span + 2 * threadIdx.x; j0 < m.hc; j0 += (int64_t)gridDim.x * span) {
                T lo[2 * IM_RUN], hi[2 * IM_RUN];
#pragma unroll
                for (int q = 0; q < 2 * IM_RUN; q++) {
                    const int64_t j = j0 + (q >> 1) * step + (q & 1);
                    if (j < m.hc) lo[q] = mp[im_source(m, i, j)];
                    if (j < half) hi[q] = drow[j];
                }
#pragma unroll
                for (int r = 0; r < IM_RUN; r++) {
                    const int64_t j = j0 + r * step;
                    if (vec == 2 && j + 1 < half) {
                        T v[4] = {lo[2 * r], hi[2 * r], lo[2 * r + 1], hi[2 * r + 1]};
                        *(Q *)(row + 2 * j) = *(const Q *)v;
                        continue;
                    }
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        if (j + e < half) {
                            if (vec) {
                                T v[2] = {lo[2 * r + e], hi[2 * r + e]};
                                *(P *)(row + 2 * (j + e)) = *(const P *)v;
                            } else {
                                row[2 * (j + e)] = lo[2 * r + e], row[2 * (j + e) + 1] = hi[2 * r + e];
                            }
                        } else if (j + e < m.hc) {
                            row[2 * (j + e)] = lo[2 * r + e];
                        }
                    }
                }
            }
        }
    }
}

/* The reverse (an inverse pyramid's first step): a thread takes IM_RUN groups
 * of four adjacent samples (j .. j + 3 from a multiple of 4), the groups a
 * block apart, loading columns 2j .. 2j + 7 of row 2i (two vectors where rows
 * and items start on 4-sample units) and keeping the even ones.  Samples j
 * and j + 2 land side by side in one band where i and j put both in the same
 * level's band (every odd row i, and j + 1, j + 3 on every row), stored as
 * one pair where aligned: a warp's lanes store consecutive pairs, whole
 * sectors an instruction (one sample a lane wrote a quarter of each
 * instruction's reach: 0.56 of the copy's rate on an H200). */
template <class T>
__global__ void il_gather_kernel(lwk_il_merge m, const T *__restrict__ in, T *__restrict__ mal, int vec)
{
    typedef typename im_vec<sizeof(T)>::pair P;
    typedef typename im_vec<sizeof(T)>::quad Q;
    const int64_t nb = m.blen[0] * m.blen[1], item = m.hr * m.hc;
    const int64_t step = 4 * (int64_t)blockDim.x, span = step * IM_RUN;
    for (int64_t bb = blockIdx.z; bb < nb; bb += gridDim.z) {
        const int64_t b0 = bb / m.blen[1], b1 = bb - b0 * m.blen[1];
        T *mp = mal + bb * item;
        const T *ip = in + b0 * m.obs[0] + b1 * m.obs[1];
        for (int64_t i = blockIdx.y; i < m.hr; i += gridDim.y) {
            const T *row = ip + 2 * i * m.ors;
            for (int64_t j0 = (int64_t)blockIdx.x * span + 4 * threadIdx.x; j0 < m.hc; j0 += (int64_t)gridDim.x * span) {
                T lo[4 * IM_RUN];
#pragma unroll
                for (int r = 0; r < IM_RUN; r++) {
                    const int64_t j = j0 + r * step;
                    if (vec && 2 * j + 7 < m.cols) {
                        T v[8];
                        *(Q *)v = *(const Q *)(row + 2 * j);
                        *(Q *)(v + 4) = *(const Q *)(row + 2 * j + 4);
#pragma unroll
                        for (int e = 0; e < 4; e++) lo[4 * r + e] = v[2 * e];
                    } else {
#pragma unroll
                        for (int e = 0; e < 4; e++)
                            if (j + e < m.hc) lo[4 * r + e] = row[2 * (j + e)];
                    }
                }
#pragma unroll
                for (int r = 0; r < IM_RUN; r++) {
                    const int64_t j = j0 + r * step;
#pragma unroll
                    for (int e = 0; e < 2; e++) { /* samples j + e and j + e + 2 */
                        if (j + e >= m.hc) break;
                        const int64_t d = im_source(m, i, j + e);
                        const bool two = j + e + 2 < m.hc;
                        const int64_t d2 = two ? im_source(m, i, j + e + 2) : -1;
                        if (d2 == d + 1 && !(d & 1) && !((uintptr_t)mp % (2 * sizeof(T)))) {
                            T v[2] = {lo[4 * r + e], lo[4 * r + e + 2]};
                            *(P *)(mp + d) = *(const P *)v;
                        } else {
                            mp[d] = lo[4 * r + e];
                            if (two) mp[d2] = lo[4 * r + e + 2];
                        }
                    }
                }
            }
        }
    }
}

/* The launch grid over m's lowpass rows and items, a block covering span
 * samples of a row; grid.x 0 where there is nothing to do */
static cudaError_t im_grid(const lwk_il_merge *m, int64_t span, dim3 *grid)
{
    const int64_t nb = m->blen[0] * m->blen[1];
    *grid = dim3(0, 0, 0);
    if (m->hr < 1 || m->hc < 1 || nb < 1) return cudaSuccess;
    if (m->levels > LWK_MERGE_MAXLEV) return cudaErrorInvalidValue;
    const int64_t gx = (m->hc + span - 1) / span;
    *grid = dim3((unsigned)(gx < 1024 ? gx : 1024), (unsigned)(m->hr < IM_MAX_Y ? m->hr : IM_MAX_Y),
                 (unsigned)(nb < IM_MAX_Z ? nb : IM_MAX_Z));
    return cudaSuccess;
}

template <class T> static cudaError_t il_merge_run(const lwk_il_merge *m, const void *mal, const void *det, void *out, cudaStream_t s)
{
    dim3 grid;
    const cudaError_t e = im_grid(m, 2 * IM_THREADS * IM_RUN, &grid);
    if (e != cudaSuccess || !grid.x) return e;
    /* 0: samples one by one; 1: pairs; 2: runs of four, their rows and items starting on 4-sample units */
    const uintptr_t a = (uintptr_t)out;
    const int vec = (m->ors % 2 == 0 && ((m->obs[0] | m->obs[1]) & 3) == 0 && a % (4 * sizeof(T)) == 0)   ? 2
                    : (((m->obs[0] | m->obs[1]) & 1) == 0 && a % (2 * sizeof(T)) == 0) ? 1
                                                                                          : 0;
    il_merge_kernel<T><<<grid, IM_THREADS, 0, s>>>(*m, (const T *)mal, (const T *)det, (T *)out, vec);
    return cudaGetLastError();
}

template <class T> static cudaError_t il_gather_run(const lwk_il_merge *m, const void *in, void *mal, cudaStream_t s)
{
    /* narrow rows: fewer threads a block, so that each still has its groups (64 at least) */
    int nt = IM_THREADS;
    while (nt > 64 && 4 * IM_RUN * (int64_t)(nt / 2) >= m->hc) nt /= 2;
    dim3 grid;
    const cudaError_t e = im_grid(m, 4 * (int64_t)nt * IM_RUN, &grid);
    if (e != cudaSuccess || !grid.x) return e;
    const int vec = m->ors % 2 == 0 && ((m->obs[0] | m->obs[1]) & 3) == 0 && (uintptr_t)in % (4 * sizeof(T)) == 0;
    il_gather_kernel<T><<<grid, nt, 0, s>>>(*m, (const T *)in, (T *)mal, vec);
    return cudaGetLastError();
}

/* f(T()) with T the unsigned type of dtype's sample size: the samples move as their bytes */
template <class F> static cudaError_t im_by_size(int dtype, F &&f)
{
    switch (dtype) {
    case LWK_F64: return f((unsigned long long)0);
    case LWK_F16:
    case LWK_BF16: return f((unsigned short)0);
    default: return f(0u);
    }
}

extern "C" cudaError_t lwk_il_gather_launch(int dtype, const lwk_il_merge *m, const void *in, void *mallat,
                                            cudaStream_t s)
{
    return im_by_size(dtype, [&](auto z) { return il_gather_run<decltype(z)>(m, in, mallat, s); });
}

extern "C" cudaError_t lwk_il_merge_launch(int dtype, const lwk_il_merge *m, const void *mallat, const void *det,
                                           void *out, cudaStream_t s)
{
    return im_by_size(dtype, [&](auto z) { return il_merge_run<decltype(z)>(m, mallat, det, out, s); });
}
