/* Fused 2-D engine for the interleaved layout, in place or out of place: one
 * level of a 2-D transform in ONE kernel that reads every sample once and
 * writes every coefficient once, at the position its sample had.
 *
 * A block owns a tile of TH rows x TW columns of the level's grid plus a halo
 * of H samples each way: a thread loads one window column into registers and
 * lifts it vertically, the tile's rows go through shared memory, and threads
 * lift segments of rows horizontally and store them (the integer inverse,
 * which must undo its forward's axis order, lifts the whole window's rows
 * first and then the columns).
 *
 * In place (a source is dst), a block must not overwrite samples another
 * block still has to read, and must read the original of every halo sample.
 * Blocks take tickets in launch order (an atomic counter), so that a lower
 * ticket always belongs to a block already running, and work in raster order
 * of tiles within a plane.  Per tile t:
 *   1. load the window into registers, except the parts owned by lower
 *      tickets (those tiles may already be stored);
 *   2. copy its own bottom H rows and right H columns (originals: no tile
 *      writes a tile but itself) to a stash slot;
 *   3. take the lower tickets' parts of the window from their slots;
 *   4. lift vertically (every loaded value consumed), raise readdone[t];
 *      wait for readdone[] of the lower tiles whose windows hold this
 *      tile's samples (the left one and the three above); lift horizontally
 *      and store.
 * No fence orders these steps: every stash word carries a tag (the launch's
 * base plus the writer's ticket) in the same 64-bit store, so that a reader
 * spins on the word itself until it holds its writer's tag; readdone is
 * raised only after the block's loads have delivered their values, and a
 * store cannot change a value already read.  Every wait is on a lower ticket,
 * and the lowest unfinished ticket waits on nothing unfinished, so the launch
 * always completes.  The slots form a ring of `slots` > (tiles a row) + 1
 * entries: a tile reuses the slot of ticket t - slots once the tiles that
 * read it (the right one and the three below) have raised readdone.  Memory
 * beyond the array: the ring and a flag a tile, Ikuzawa's chunked in-place
 * lifting with a working memory of a few halos per tile in flight.
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

/* 64-bit words of the stash: 32 bits of a value and a tag; a compute value
 * of type T takes W words */
template <class T> struct ip_word {
    enum { W = sizeof(T) / 4 };
    __device__ static __forceinline__ void put(unsigned long long *p, T v, unsigned tag)
    {
        unsigned b[W];
        memcpy(b, &v, sizeof v);
#pragma unroll
        for (int i = 0; i < W; i++) *(volatile unsigned long long *)(p + i) = ((unsigned long long)tag << 32) | b[i];
    }
    __device__ static __forceinline__ unsigned long long ld(const unsigned long long *p)
    {
        return *(const volatile unsigned long long *)p;
    }
    /* the value of words x[0..W) read at p, re-read until they hold tag */
    __device__ static __forceinline__ T value(unsigned long long (&x)[W], const unsigned long long *p, unsigned tag)
    {
        unsigned b[W];
#pragma unroll
        for (int i = 0; i < W; i++) {
            while ((unsigned)(x[i] >> 32) != tag) {
                __nanosleep(32);
                x[i] = ld(p + i);
            }
            b[i] = (unsigned)x[i];
        }
        T v;
        memcpy(&v, b, sizeof v);
        return v;
    }
};

/* tags: ticket + IP_TAG0, so that the zeroed workspace holds none */
#define IP_TAG0 1u

/* wait until flags[q[i]] holds q[i]'s tag for the tickets q[0..3] that are
 * >= 0, one thread each, then the block */
__device__ __forceinline__ void ip_wait4(const unsigned *flags, const int64_t q[4])
{
    if (threadIdx.x < 4) {
        const int64_t x = q[threadIdx.x];
        if (x >= 0)
            while (*(const volatile unsigned *)(flags + x) != IP_TAG0 + (unsigned)x) __nanosleep(32);
    }
    __syncthreads();
}

/* A tile's place, and the lower tickets whose samples its window holds: the
 * left neighbour and the three above (mirrored positions at the image's
 * edges fall in these too, or in the tile itself). */
template <int TH, int TW> struct ip_tile {
    int64_t t, ti, tj, ntc;
    __device__ __forceinline__ void lower4(int64_t q[4]) const
    {
        q[0] = tj > 0 ? t - 1 : -1;
        q[1] = ti > 0 && tj > 0 ? t - ntc - 1 : -1;
        q[2] = ti > 0 ? t - ntc : -1;
        q[3] = ti > 0 && tj + 1 < ntc ? t - ntc + 1 : -1;
    }
    /* 0..3: the index in lower4 of the owner of sample (rm, column tile ct),
     * -1 for this tile or a higher ticket, 4 for another lower one (such a
     * sample feeds no stored output) */
    __device__ __forceinline__ int owner(int64_t rm, int64_t ct) const
    {
        const int64_t rt = rm / TH;
        if (rt > ti || (rt == ti && ct >= tj)) return -1;
        if (rt == ti) return ct == tj - 1 ? 0 : 4;
        if (rt == ti - 1 && ct >= tj - 1 && ct <= tj + 1) return (int)(ct - tj) + 2;
        return 4;
    }
};

template <class S, int W, int INV, int HV>
__global__ void __launch_bounds__(288) tile_ip(lwk_tile2d_ip t, const S *llsrc, const S *detsrc, S *dst)
{
    typedef lwd_c<S> T;
    typedef ip_cfg<T> C;
    constexpr int H = sh_halo(W), TW = C::TW, TH = C::TH, K = C::K;
    constexpr int WC = TW + 2 * H, WCP = (WC + 3) & ~3, NR = TH + 2 * H, SEGS = TW / K, NU = K + 2 * H;
    constexpr int DIR = INV ? -1 : 1, SLOT = H * (TW + TH) * ip_word<T>::W; /* words */
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T(*win)[WCP] = (T(*)[WCP])smem_raw; /* the TH lifted rows (HV: the whole window) */
    __shared__ int64_t s_ticket;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x;
    const bool ip = llsrc == dst || detsrc == dst;
    const int64_t rows = t.rows, cols = t.cols, rs = t.rs, cs = t.cs;
    const int64_t ntc = (cols + TW - 1) / TW, ntr = (rows + TH - 1) / TH, per = ntc * ntr;
    unsigned *const readdone = t.flags + 1;
    unsigned long long *const stash = (unsigned long long *)t.stash;

    int64_t tk = blockIdx.x;
    if (ip) {
        if (tid == 0) s_ticket = (int64_t)atomicAdd(t.flags, 1u);
        __syncthreads();
        tk = s_ticket;
    }
    const unsigned tag = IP_TAG0 + (unsigned)tk;
    const int64_t b = tk / per, rem = tk - b * per;
    ip_tile<TH, TW> tile;
    tile.t = tk, tile.ntc = ntc, tile.ti = rem / ntc, tile.tj = rem - tile.ti * ntc;
    int64_t low[4];
    tile.lower4(low);
    const int64_t r0 = tile.ti * TH, c0 = tile.tj * TW;
    const int64_t off = (b / t.blen[1]) * t.bs[0] + (b % t.blen[1]) * t.bs[1];
    const S *lp = llsrc + off, *dp = detsrc + off;
    S *op = dst + off;

    /* 1. the window column of this thread, but for the parts of lower tickets */
    if (ip && tk >= t.slots) { /* the slot's last tile has been read by its readers */
        const int64_t x = tk - t.slots, rd[4] = {x + 1, x + ntc - 1, x + ntc, x + ntc + 1};
        ip_wait4(readdone, rd);
    }
    const bool col = tid < WC;
    const int64_t cm = ip_map(c0 - H + tid, cols, t.mode), ct = cm / TW;
    T v[NR];
    if (col) {
#pragma unroll
        for (int j = 0; j < NR; j++) {
            const int64_t rm = ip_map(r0 - H + j, rows, t.mode);
            const S *src = ((rm | cm) & 1) ? dp : lp;
            v[j] = ip && tile.owner(rm, ct) >= 0 ? (T)0 : lwd_ldg(src + rm * rs + cm * cs);
        }
    }
    if (ip) {
        typedef ip_word<T> WD;
        /* 2. this tile's bottom rows and right columns to its slot, tagged */
        unsigned long long *slot = stash + (tk % t.slots) * SLOT;
        if (tid >= H && tid < H + TW) {
#pragma unroll
            for (int h = 0; h < H; h++) WD::put(slot + (h * TW + tid - H) * WD::W, v[TH + h], tag);
        }
        if (tid >= TW && tid < TW + H) {
#pragma unroll
            for (int y = 0; y < TH; y++) WD::put(slot + (H * TW + y * H + tid - TW) * WD::W, v[H + y], tag);
        }
        /* 3. the lower tickets' parts from their slots, once their tags are there:
         * in batches of independent loads (a thread of the left halo needs a
         * whole column), each checked and re-read only if not yet written */
        if (col) {
            constexpr int NB = 8;
#pragma unroll
            for (int j0 = 0; j0 < NR; j0 += NB) {
                const unsigned long long *pa[NB];
                unsigned long long x[NB][WD::W];
                unsigned tg[NB];
                int own[NB];
#pragma unroll
                for (int u = 0; u < NB; u++) {
                    const int j = j0 + u;
                    own[u] = -1, pa[u] = stash, tg[u] = 0;
                    if (j >= NR) continue;
                    const int64_t rm = ip_map(r0 - H + j, rows, t.mode), rt = rm / TH;
                    const int o = tile.owner(rm, ct);
                    own[u] = o;
                    if (o < 0 || o > 3) continue;
                    const unsigned long long *os = stash + (low[o] % t.slots) * SLOT;
                    const int64_t br = rm - (rt + 1) * TH + H, rc = cm - (ct + 1) * TW + H;
                    if (br >= 0) pa[u] = os + (br * TW + (cm - ct * TW)) * WD::W;
                    else if (rc >= 0) pa[u] = os + (H * TW + (rm - rt * TH) * H + rc) * WD::W;
                    else own[u] = 4;
                    tg[u] = IP_TAG0 + (unsigned)low[o];
                }
#pragma unroll
                for (int u = 0; u < NB; u++)
#pragma unroll
                    for (int i = 0; i < WD::W; i++) x[u][i] = own[u] >= 0 && own[u] < 4 ? WD::ld(pa[u] + i) : 0ull;
#pragma unroll
                for (int u = 0; u < NB; u++) {
                    if (j0 + u >= NR || own[u] < 0) continue;
                    v[j0 + u] = own[u] < 4 ? WD::value(x[u], pa[u], tg[u]) : (T)0; /* 4: feeds no stored output */
                }
            }
        }
    }

    /* 4. lift */
    if (!HV) {
        if (col) {
            reg_lift_line<W, DIR>(v, w, r0 - H, rows, t.mode);
#pragma unroll
            for (int j = 0; j < TH; j++) win[j][tid] = v[H + j];
        }
        __syncthreads();
        if (ip) { /* every load has delivered: the lower tiles may now be overwritten by their right and lower neighbours */
            if (tid == 0) *(volatile unsigned *)(readdone + tk) = tag;
            ip_wait4(readdone, low);
        }
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
                for (int i = 0; i < NU; i++) u[i] = win[rr][seg * K + i];
                reg_lift_line<W, DIR>(u, w, cb - H, cols, t.mode);
                S *o = op + r * rs + cb * cs;
                if (vec && cb + K <= cols) {
                    store4<S>(o, u[H], u[H + 1], u[H + 2], u[H + 3], true);
                    store4<S>(o + 4, u[H + 4], u[H + 5], u[H + 6], u[H + 7], true);
                } else {
#pragma unroll
                    for (int i = 0; i < K; i++)
                        if (cb + i < cols) lwd_st(o + i * cs, u[H + i]);
                }
            }
        }
    } else {
        if (col) {
#pragma unroll
            for (int j = 0; j < NR; j++) win[j][tid] = v[j];
        }
        __syncthreads();
        if (ip && tid == 0) *(volatile unsigned *)(readdone + tk) = tag; /* every load has delivered */
        const int rp = blockDim.x / SEGS;
        for (int j0 = 0; j0 < NR; j0 += rp) {
            const int j = j0 + tid / SEGS, seg = tid % SEGS;
            const bool act = tid < rp * SEGS && j < NR;
            T u[NU];
            if (act) {
#pragma unroll
                for (int i = 0; i < NU; i++) u[i] = win[j][seg * K + i];
                reg_lift_line<W, DIR>(u, w, c0 + seg * K - H, cols, t.mode);
            }
            __syncthreads();
            if (act) {
#pragma unroll
                for (int i = 0; i < K; i++) win[j][H + seg * K + i] = u[H + i];
            }
            __syncthreads();
        }
        if (tid < TW) {
#pragma unroll
            for (int j = 0; j < NR; j++) v[j] = win[j][H + tid];
            reg_lift_line<W, DIR>(v, w, r0 - H, rows, t.mode);
        }
        if (ip) ip_wait4(readdone, low);
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
    const size_t smem = (size_t)(HV ? C::TH + 2 * H : C::TH) * WCP * sizeof(T);
    void (*k)(lwk_tile2d_ip, const S *, const S *, S *) = tile_ip<S, W, INV, HV>;
    static const cudaError_t attr = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
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
    switch (dtype) {
    case LWK_F32: return ip_dispatch_t<float>(inverse, t, ll, det, dst, s);
    case LWK_F64: return ip_dispatch_t<double>(inverse, t, ll, det, dst, s);
    case LWK_F16: return ip_dispatch_t<__half>(inverse, t, ll, det, dst, s);
    case LWK_BF16: return ip_dispatch_t<__nv_bfloat16>(inverse, t, ll, det, dst, s);
    default: return ip_dispatch_t<int32_t>(inverse, t, ll, det, dst, s);
    }
}

extern "C" void lwk_tile2d_ip_dims(int dtype, int wave_id, int *tw, int *th, int *halo, size_t *csize)
{
    const int dbl = dtype == LWK_F64;
    *tw = dbl ? (int)ip_cfg<double>::TW : (int)ip_cfg<float>::TW;
    *th = ip_cfg<float>::TH;
    *csize = dbl ? 16 : 8; /* a stash element: 32-bit words, each with its tag */
    *halo = 0;
    lwc_dispatch(wave_id, [&](auto wc) -> cudaError_t {
        *halo = sh_halo(decltype(wc)::value);
        return cudaSuccess;
    });
}
