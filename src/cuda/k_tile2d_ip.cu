/* Fused 2-D engine for the interleaved layout, in place or out of place: one
 * level of a 2-D transform in ONE kernel that reads every sample once and
 * writes every coefficient once, at the position its sample had.
 *
 * A block owns a tile of TH rows x TW columns of the level's grid; it loads
 * the tile with a halo of H samples each way into shared memory, lifts the
 * window along both axes (vertical then horizontal; the integer inverse
 * horizontal then vertical, the reverse of its forward) and stores the tile.
 *
 * In place (a source is dst), a block must not overwrite samples another
 * block still has to read, and must read the original of every halo sample.
 * Blocks take tickets in launch order (an atomic counter), so that a lower
 * ticket always belongs to a block already running, and work in raster order
 * of tiles within a plane.  Per tile t:
 *   1. load the window, except the parts owned by lower tickets (those tiles
 *      may already be stored);
 *   2. copy its own bottom H rows and right H columns (originals: no tile
 *      writes a tile but itself) to a stash slot and raise stashed[t];
 *   3. wait for stashed[] of the lower tickets of its row and the row above
 *      and take their parts of the window from their slots; raise readdone[t];
 *   4. lift; wait for readdone[] of the same lower tickets (they read this
 *      tile's samples from the array); store.
 * Every wait is on a lower ticket, and the lowest unfinished ticket waits on
 * nothing unfinished, so the launch always completes.  The slots form a ring
 * of `slots` > (tiles a row) + 1 entries: a tile reuses the slot of ticket
 * t - slots once that ticket and the tiles that read its slot (tickets up to
 * t - slots + row + 1) have raised readdone.  The owner's own flag is needed:
 * the last tile of a plane has no readers, and without it nothing orders its
 * stash write before the next owner's (nor, through it, the readers of the
 * owner before).  Memory beyond the array: the ring and two flags a tile,
 * Ikuzawa's chunked in-place lifting with a working memory of a few halos per
 * tile in flight.
 *
 * Sources: LL positions (even row and column of the level's grid) from `ll`,
 * the others from `det` (an out-of-place inverse pyramid: the coarser level
 * in dst, this level's details in the input).  Boundaries as in k_tile2d.cu:
 * the window is loaded through the mode once and the windows at the image's
 * edges refresh their mirror before every step where that is not exact. */
#include "lw_cuda_dev.cuh"

#include "tile_lift.cuh"

template <class T> struct ip_cfg {
    enum { TW = sizeof(T) == 8 ? 128 : 256, TH = 32, K = 8 };
};

__device__ __forceinline__ int64_t ip_map(int64_t i, int64_t n, int mode)
{
    return (i >= 0 && i < n) ? i : lwd_bidx(i, n, mode);
}

__device__ __forceinline__ void ip_wait(const unsigned *f)
{
    while (*(const volatile unsigned *)f == 0) __nanosleep(64);
}

/* thread-parallel wait for flags[lo .. hi] (a few tiles) */
__device__ __forceinline__ void ip_wait_range(const unsigned *flags, int64_t lo, int64_t hi)
{
    for (int64_t x = lo + threadIdx.x; x <= hi; x += blockDim.x) ip_wait(flags + x);
    __threadfence();
    __syncthreads();
}

/* every thread's stores visible device-wide before thread 0 raises the flag */
__device__ __forceinline__ void ip_raise(unsigned *flag)
{
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) atomicExch(flag, 1u);
}

template <class S, int W, int INV, int HV>
__global__ void __launch_bounds__(288) tile_ip(lwk_tile2d_ip t, const S *llsrc, const S *detsrc, S *dst)
{
    typedef lwd_c<S> T;
    typedef ip_cfg<T> C;
    constexpr int H = sh_halo(W), TW = C::TW, TH = C::TH, K = C::K;
    constexpr int WC = TW + 2 * H, WCP = (WC + 3) & ~3, NR = TH + 2 * H, SEGS = TW / K, NU = K + 2 * H;
    constexpr int DIR = INV ? -1 : 1, SLOT = H * (TW + TH);
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T(*win)[WCP] = (T(*)[WCP])smem_raw;
    __shared__ int64_t s_ticket;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x;
    const bool ip = llsrc == dst || detsrc == dst;
    const int64_t rows = t.rows, cols = t.cols, rs = t.rs, cs = t.cs;
    const int64_t ntc = (cols + TW - 1) / TW, ntr = (rows + TH - 1) / TH, per = ntc * ntr;
    unsigned *const stashed = t.flags + 1, *const readdone = t.flags + 1 + t.tiles;
    T *const stash = (T *)t.stash;

    int64_t tk = blockIdx.x;
    if (ip) {
        if (tid == 0) s_ticket = (int64_t)atomicAdd(t.flags, 1u);
        __syncthreads();
        tk = s_ticket;
    }
    const int64_t b = tk / per, rem = tk - b * per, ti = rem / ntc, tj = rem - ti * ntc;
    const int64_t r0 = ti * TH, c0 = tj * TW;
    const int64_t off = (b / t.blen[1]) * t.bs[0] + (b % t.blen[1]) * t.bs[1];
    const S *lp = llsrc + off, *dp = detsrc + off;
    S *op = dst + off;
    const int64_t first = b * per; /* the plane's first ticket: planes do not share samples */
    const int64_t lo = tk - ntc - 1 > first ? tk - ntc - 1 : first;

    /* 1. the window, but for the parts of lower tickets */
    if (ip && tk >= t.slots) ip_wait_range(readdone, tk - t.slots, tk - t.slots + ntc + 1);
    if (tid < WC) {
        const int64_t cm = ip_map(c0 - H + tid, cols, t.mode), ct = cm / TW;
        T v[NR];
#pragma unroll
        for (int j = 0; j < NR; j++) {
            const int64_t rm = ip_map(r0 - H + j, rows, t.mode), rt = rm / TH;
            const bool lower = ip && (rt < ti || (rt == ti && ct < tj));
            const S *src = ((rm | cm) & 1) ? dp : lp;
            /* in place the array is written during the launch: coherent loads (the non-coherent
             * path is for data no thread writes while the kernel runs) */
            v[j] = lower ? (T)0 : ip ? lwd_ld(src + rm * rs + cm * cs) : lwd_ldg(src + rm * rs + cm * cs);
        }
#pragma unroll
        for (int j = 0; j < NR; j++) win[j][tid] = v[j];
    }
    if (ip) {
        __syncthreads();
        /* 2. this tile's bottom rows and right columns to its slot */
        T *slot = stash + (tk % t.slots) * SLOT;
        for (int x = tid; x < H * TW; x += blockDim.x) slot[x] = win[TH + x / TW][H + x % TW];
        for (int x = tid; x < TH * H; x += blockDim.x) slot[H * TW + x] = win[H + x / H][TW + x % H];
        ip_raise(stashed + tk);
        /* 3. the lower tickets' parts from their slots */
        ip_wait_range(stashed, lo, tk - 1);
        if (tid < WC) {
            const int64_t cm = ip_map(c0 - H + tid, cols, t.mode), ct = cm / TW;
            for (int j = 0; j < NR; j++) {
                const int64_t rm = ip_map(r0 - H + j, rows, t.mode), rt = rm / TH;
                if (!(rt < ti || (rt == ti && ct < tj))) continue;
                const T *os = stash + ((first + rt * ntc + ct) % t.slots) * SLOT;
                const int64_t br = rm - (rt + 1) * TH + H, rc = cm - (ct + 1) * TW + H;
                T x = 0; /* a sample no stored output reaches */
                if (br >= 0) x = __ldcg(os + br * TW + (cm - ct * TW));
                else if (rc >= 0) x = __ldcg(os + H * TW + (rm - rt * TH) * H + rc);
                win[j][tid] = x;
            }
        }
        ip_raise(readdone + tk);
    }
    __syncthreads();

    /* 4. lift */
    if (!HV) {
        if (tid < WC) {
            T v[NR];
#pragma unroll
            for (int j = 0; j < NR; j++) v[j] = win[j][tid];
            reg_lift_line<W, DIR>(v, w, r0 - H, rows, t.mode);
#pragma unroll
            for (int j = 0; j < TH; j++) win[H + j][tid] = v[H + j];
        }
        __syncthreads();
        if (ip) ip_wait_range(readdone, lo, tk - 1);
        const int rp = blockDim.x / SEGS;
        const bool vec = cs == 1 && (rs % 4) == 0 && (t.bs[0] % 4) == 0 && (t.bs[1] % 4) == 0 &&
                         ((uintptr_t)dst % (4 * sizeof(S))) == 0;
        if (tid < rp * SEGS) {
            const int seg = tid % SEGS;
            const int64_t cb = c0 + seg * K;
            for (int rr = tid / SEGS; rr < TH; rr += rp) {
                const int64_t r = r0 + rr;
                if (r >= rows) break;
                T u[NU];
#pragma unroll
                for (int i = 0; i < NU; i++) u[i] = win[H + rr][seg * K + i];
                reg_lift_line<W, DIR>(u, w, cb - H, cols, t.mode);
                store_seg8<H>(op + r * rs + cb * cs, u, cs, vec, cols - cb);
            }
        }
    } else {
        smem_rows_lift<W, DIR, NR, K, H, SEGS>(win, w, c0, cols, t.mode);
        T v[NR];
        if (tid < TW) {
#pragma unroll
            for (int j = 0; j < NR; j++) v[j] = win[j][H + tid];
            reg_lift_line<W, DIR>(v, w, r0 - H, rows, t.mode);
        }
        if (ip) ip_wait_range(readdone, lo, tk - 1);
        if (tid < TW && c0 + tid < cols) {
#pragma unroll
            for (int j = 0; j < TH; j++)
                if (r0 + j < rows) lwd_st(op + (r0 + j) * rs + (c0 + tid) * cs, v[H + j]);
        }
    }
}

/* ---- launchers ------------------------------------------------------------ */

template <class S, int W, int INV, int HV>
static cudaError_t ip_launch(const lwk_tile2d_ip *t, const void *ll, const void *det, void *dst, cudaStream_t s)
{
    typedef lwd_c<S> T;
    typedef ip_cfg<T> C;
    constexpr int H = sh_halo(W), WC = C::TW + 2 * H, WCP = (WC + 3) & ~3;
    const int threads = (WC + 31) & ~31;
    const size_t smem = (size_t)(C::TH + 2 * H) * WCP * sizeof(T);
    void (*k)(lwk_tile2d_ip, const S *, const S *, S *) = tile_ip<S, W, INV, HV>;
    const cudaError_t attr = lw_cuda_func_attr((const void *)k, LW_SMEM_ATTR, (int)smem);
    if (attr != cudaSuccess) return attr;
    if (t->tiles < 1) return cudaSuccess;
    if (t->tiles > 0x7fffffff) return cudaErrorInvalidConfiguration;
    k<<<(unsigned)t->tiles, threads, smem, s>>>(*t, (const S *)ll, (const S *)det, (S *)dst);
    return cudaGetLastError();
}

template <class S>
static cudaError_t ip_dispatch_t(int inverse, const lwk_tile2d_ip *t, const void *ll, const void *det, void *dst,
                                 cudaStream_t s)
{
    return lwc_dispatch(t->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!lwc_separable(W) || (std::is_same<S, int32_t>::value && !lwc_has_integer(W))) {
            return cudaErrorInvalidValue;
        } else if constexpr (std::is_same<S, int32_t>::value) {
            /* the integer inverse undoes the forward's axis order exactly */
            return inverse ? ip_launch<S, W, 1, 1>(t, ll, det, dst, s) : ip_launch<S, W, 0, 0>(t, ll, det, dst, s);
        } else {
            return inverse ? ip_launch<S, W, 1, 0>(t, ll, det, dst, s) : ip_launch<S, W, 0, 0>(t, ll, det, dst, s);
        }
    });
}

extern "C" cudaError_t lwk_tile2d_ip_run(int dtype, int inverse, const lwk_tile2d_ip *t, const void *ll,
                                         const void *det, void *dst, cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto ty) { return ip_dispatch_t<LWD_TYPE_OF(ty)>(inverse, t, ll, det, dst, s); });
}

extern "C" void lwk_tile2d_ip_dims(int dtype, int wave_id, int *tw, int *th, int *halo, size_t *csize)
{
    const int dbl = dtype == LWK_F64;
    *tw = dbl ? (int)ip_cfg<double>::TW : (int)ip_cfg<float>::TW;
    *th = ip_cfg<float>::TH;
    *csize = dbl ? 8 : 4;
    *halo = 0;
    lwc_dispatch(wave_id, [&](auto wc) -> cudaError_t {
        *halo = sh_halo(decltype(wc)::value);
        return cudaSuccess;
    });
}
