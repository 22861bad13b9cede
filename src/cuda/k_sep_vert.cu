/* Vertical-pass algorithms of Kucis et al. (paper 000, section III.B).  A
 * line is a column here: neighbouring lines are contiguous in memory, so a
 * warp reading one row of a 32-column strip is coalesced.
 *
 *   laan       one block per 32-column strip, sliding window down the strip
 *              (k_sep_dev.cuh: 16 new rows per window position, a barrier
 *              after each lifting step, intermediate rows kept in shared
 *              memory between positions).
 *   kucis      the paper's "proposed" pass: one block per 32-column strip,
 *              a window of 64 output rows plus the halo (71 rows for CDF 9/7
 *              as the paper counts it; 64 + 2*halo here), each thread lifts 8
 *              rows of one column in registers with no barrier between steps
 *              (the blazewicz4 scheme turned vertical); the window moves 64
 *              rows down and keeps the halo rows it already holds.
 *   blazewicz  transpose, horizontal blazewicz4 pass, transpose back: the
 *              transpose kernel is here, the sequence in scheme_sep.c. */
#include "k_sep_dev.cuh"

#define SEPV_LANES 32
#define LAANV_CHUNK 16 /* new rows per window position */
#define LAANV_RING 64
#define KUCIS_WIN 64   /* output rows per window position */
#define KUCIS_RING 128
#define TR_TILE 32

/* ---- laan ------------------------------------------------------------------ */
template <class T, int W, int DIR>
__global__ void __launch_bounds__(SEPV_LANES *LAANV_CHUNK / 2) k_laan_v(lwk_sep_lines L)
{
    __shared__ __align__(16) T ring[LAANV_RING][SEPV_LANES];
    sep_laan_run<T, W, DIR, SEPV_LANES, LAANV_CHUNK, LAANV_RING>(L, ring);
}

/* ---- kucis ("Vert-Proposed") ------------------------------------------------ */
template <class T, int W, int DIR>
__global__ void __launch_bounds__(SEPV_LANES *(KUCIS_WIN / KUCIS_ROWS)) k_kucis(lwk_sep_lines L)
{
    constexpr int H = sh_halo(W), NV = KUCIS_ROWS + 2 * H, SUBS = KUCIS_WIN / KUCIS_ROWS;
    static_assert(KUCIS_WIN + 2 * H <= KUCIS_RING, "ring too small");
    __shared__ __align__(16) T ring[KUCIS_RING][SEPV_LANES];
    const int tid = threadIdx.x, lane = tid % SEPV_LANES, sub = tid / SEPV_LANES;
    const bool sym = L.mode == LW_SYMMETRIC;
    const int64_t n = L.n, ngroups = (L.nlines + SEPV_LANES - 1) / SEPV_LANES;
    const int64_t nitems = ngroups * L.blen[0] * L.blen[1];
    for (int64_t item = blockIdx.x; item < nitems; item += gridDim.x) {
        int64_t g, b0, b1;
        sep_item(item, ngroups, L, &g, &b0, &b1);
        const int64_t l = g * SEPV_LANES + lane;
        const bool lane_ok = l < L.nlines;
        const sep_in<T> in = sep_in_line<T>(L.in, lane_ok ? l : 0, b0, b1);
        const sep_out<T> out = sep_out_line<T>(L.out, lane_ok ? l : 0, b0, b1);
        int64_t loaded = -H; /* rows [.., loaded) are in the ring */
        for (int64_t r0 = 0; r0 < n; r0 += KUCIS_WIN) {
            /* the rows this window position lacks: 64 + 2H the first time, 64 after */
            const int64_t need = r0 + KUCIS_WIN + H;
            {
                constexpr int K = KUCIS_WIN / SUBS; /* all loads in flight first */
                T v[K];
#pragma unroll
                for (int j = 0; j < K; j++) {
                    const int64_t t = loaded + sub + j * SUBS;
                    v[j] = lane_ok && t < n + H ? in.ld(lwd_bidx(t, n, L.mode)) : T(0);
                }
#pragma unroll
                for (int j = 0; j < K; j++) ring[(loaded + sub + j * SUBS) & (KUCIS_RING - 1)][lane] = v[j];
            }
            for (int64_t t = loaded + KUCIS_WIN + sub; t < need; t += SUBS) /* the first halo */
                ring[t & (KUCIS_RING - 1)][lane] = lane_ok && t < n + H ? in.ld(lwd_bidx(t, n, L.mode)) : T(0);
            loaded = need;
            __syncthreads();
            const int64_t t0 = r0 + KUCIS_ROWS * sub;
            if (lane_ok && t0 < n) {
                T v[NV];
#pragma unroll
                for (int j = 0; j < NV; j++) v[j] = ring[(t0 - H + j) & (KUCIS_RING - 1)][lane];
                sep_lift_window<W, DIR>(v, L.w, t0 - H, n, sym);
#pragma unroll
                for (int j = 0; j < KUCIS_ROWS; j++)
                    if (t0 + j < n) out.st(t0 + j, v[H + j]);
            }
            __syncthreads();
        }
    }
}

/* ---- transpose (vertical blazewicz) ------------------------------------------ */
template <class T> __global__ void __launch_bounds__(TR_TILE * 8) k_transpose(lwk_sep_tr t)
{
    __shared__ T tile[TR_TILE][TR_TILE + 1];
    const int x = threadIdx.x % TR_TILE, y = threadIdx.x / TR_TILE;
    const int64_t tc = (t.cols + TR_TILE - 1) / TR_TILE, tr = (t.rows + TR_TILE - 1) / TR_TILE;
    const int64_t nitems = tc * tr * t.blen[0] * t.blen[1];
    for (int64_t item = blockIdx.x; item < nitems; item += gridDim.x) {
        const int64_t ic = item % tc, rest = item / tc, ir = rest % tr, b = rest / tr;
        const int64_t b1 = b % t.blen[1], b0 = b / t.blen[1];
        const T *s = (const T *)t.src + b0 * t.sbs[0] + b1 * t.sbs[1];
        T *d = (T *)t.dst + b0 * t.dbs[0] + b1 * t.dbs[1];
        for (int k = y; k < TR_TILE; k += 8) {
            const int64_t r = ir * TR_TILE + k, c = ic * TR_TILE + x;
            if (r < t.rows && c < t.cols) tile[k][x] = s[r * t.srs + c];
        }
        __syncthreads();
        for (int k = y; k < TR_TILE; k += 8) {
            const int64_t c = ic * TR_TILE + k, r = ir * TR_TILE + x;
            if (r < t.rows && c < t.cols) d[c * t.drs + r] = tile[x][k];
        }
        __syncthreads();
    }
}

/* ---- launchers -------------------------------------------------------------- */

struct sepv_run {
    template <class T, int W>
    static cudaError_t run(int kind, int inverse, const lwk_sep_lines *L, cudaStream_t s)
    {
        const int64_t items = (L->nlines + SEPV_LANES - 1) / SEPV_LANES * L->blen[0] * L->blen[1];
        if (items < 1 || L->n < 1) return cudaSuccess;
        const unsigned grid = sep_grid(items);
        switch (kind) {
        case LWK_SEPV_LAAN:
            if (inverse) k_laan_v<T, W, -1><<<grid, SEPV_LANES * LAANV_CHUNK / 2, 0, s>>>(*L);
            else k_laan_v<T, W, 1><<<grid, SEPV_LANES * LAANV_CHUNK / 2, 0, s>>>(*L);
            return cudaGetLastError();
        case LWK_SEPV_KUCIS:
            if (inverse) k_kucis<T, W, -1><<<grid, SEPV_LANES * (KUCIS_WIN / KUCIS_ROWS), 0, s>>>(*L);
            else k_kucis<T, W, 1><<<grid, SEPV_LANES * (KUCIS_WIN / KUCIS_ROWS), 0, s>>>(*L);
            return cudaGetLastError();
        }
        return cudaErrorInvalidValue;
    }
};

extern "C" cudaError_t lwk_sep_vpass(int kind, int dtype, int inverse, const lwk_sep_lines *L, cudaStream_t s)
{
    return sep_dispatch<sepv_run>(dtype, L->w.id, kind, inverse, L, s);
}

extern "C" cudaError_t lwk_sep_transpose(int dtype, const lwk_sep_tr *t, cudaStream_t s)
{
    const int64_t items = (t->rows + TR_TILE - 1) / TR_TILE * ((t->cols + TR_TILE - 1) / TR_TILE) * t->blen[0] *
                          t->blen[1];
    if (items < 1) return cudaSuccess;
    /* a transpose moves bits: one kernel per element size */
    if (dtype == LWK_F64) k_transpose<uint64_t><<<sep_grid(items), TR_TILE * 8, 0, s>>>(*t);
    else k_transpose<uint32_t><<<sep_grid(items), TR_TILE * 8, 0, s>>>(*t);
    return cudaGetLastError();
}
