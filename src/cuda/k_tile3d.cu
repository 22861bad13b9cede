/* Fused 3-D engine (a level of a Mallat pyramid, float32, float64 and the
 * half types computed in float32): one
 * kernel reads the volume once and writes the eight bands once (the lowpass
 * octant, in pyramids, to a compact buffer the next level reads).  Each block streams a
 * (y, x) tile's window along z through a register pipeline; the body and its
 * design notes are in k_tile3d_stream.cuh, the measurements in
 * bench/NOTES-cuda.md. */
#include "k_tile3d_stream.cuh"

#include <string.h>

struct t3_block_sync {
    __device__ static __forceinline__ void sync() { __syncthreads(); }
};

/* S the storage type; the configurations are the compute type's.  BATCH: a
 * batch of volumes, the items' x tiles side by side along grid x (a kernel of
 * its own: the item's pointers then live in registers, where one volume's
 * stay kernel parameters).  TMA: the raw pairs through the tensor maps; STG:
 * the stages of three pairs a step (t3_staged) */
template <class S, int W, int INV, int V, bool LONG, bool BATCH, bool TMA, bool STG>
__global__ void __launch_bounds__(t3s_cfg<lwd_c<S>, V>::NT, t3s_cfg<lwd_c<S>, V>::MINB)
    tile3s(lwk_tile3d t, const S *__restrict__ src, S *__restrict__ dst, lwk_tile3d_batch b,
           const __grid_constant__ lwk_t3_maps maps)
{
    extern __shared__ __align__(128) unsigned char smem_raw[];
    typedef t3s_cfg<lwd_c<S>, V> C;
    if constexpr (BATCH) {
        const unsigned gx = (unsigned)((t.n[2] + C::TX - 1) / C::TX), item = blockIdx.x / gx;
        t3s_body<S, W, INV, C, t3_block_sync, LONG, true, TMA, STG>(
            t, b, src + item * b.sb, dst + item * b.db, item * b.lb, smem_raw, (int)threadIdx.x, blockIdx.x - item * gx,
            blockIdx.y, (int)blockIdx.z, (int)gridDim.z, &maps, (int)item);
    } else {
        t3s_body<S, W, INV, C, t3_block_sync, LONG, false, TMA, STG>(t, b, src, dst, 0, smem_raw, (int)threadIdx.x,
                                                                blockIdx.x, blockIdx.y, (int)blockIdx.z,
                                                                (int)gridDim.z, &maps);
    }
}

/* Runs of output pairs per tile (gridDim.z): the fewest waves of resident
 * blocks times the steps of one block (its pairs plus the pipeline's warm-up
 * and drain), fewer runs on ties. */
extern "C" int lwk_tile3d_zruns(int64_t tiles, int64_t pairs, int64_t slots, int extra)
{
    int best = 1;
    double bestc = 0;
    if (slots < 1) slots = 1;
    for (int g = 1; g <= 1024 && g <= pairs; g++) {
        const int64_t per = (pairs + g - 1) / g, used = (pairs + per - 1) / per;
        const int64_t waves = (tiles * used + slots - 1) / slots;
        const double c = (double)waves * (double)(per + extra);
        if (g == 1 || c < bestc * 0.999) best = g, bestc = c;
    }
    return best;
}

/* float and float64, separable wavelets whose level reaches at most 6 samples
 * per side (dd137 included).  The tile shapes of t3s_cfg were sized for a
 * reach of 4; beyond it the float kernels run the 32 x 64 variant in both
 * directions (its 512 threads hold dd137's z windows without spilling, where
 * the 16 x 64 ones spill: ptxas -v), unless the plan's tuning names one. */
#define T3_MAX_HALO 6
#define T3_WIDE_HALO 4

/* The default tile variant of a storage type, wavelet and direction: the
 * fastest of a sweep of every variant (bench/NOTES-tile3d.md, "The tile
 * variants again" and "The half types' tiles").  Float32: the widest reach
 * (dd137) 32 x 64 both ways (its 512 threads hold the z windows without
 * spilling, where the 16 x 64 ones spill: ptxas -v); forward 32 x 64 (one
 * 512-thread block an SM), but d4's 16 x 64 (two 256-thread blocks; its
 * mirror refresh takes registers the larger tiles cannot spare); inverse
 * 32 x 64, but the shortest reach (cdf53) 16 x 64 with one pair prefetched
 * (three blocks an SM).  The half types, which compile only the default, take
 * the same forwards; their inverses widen every sample to float32 and spill
 * where float32's do not (ptxas -v: cdf53's one-pair tiles 150-340 bytes,
 * d4's 32 x 64 8-12 bytes), so cdf53 and d4 take 16 x 64.  Float64 runs
 * 16 x 64 only. */
template <class S, int W, int INV> static constexpr int t3_default_variant()
{
    if (sizeof(S) == 8) return 0; /* float64: 16 x 64 only */
    if (sh_halo(W) > T3_WIDE_HALO) return 3;
    if (!INV) return tile_once_mirror_exact(W) ? 3 : 0;
    if (sizeof(S) == 2) return sh_halo(W) > 2 && tile_once_mirror_exact(W) ? 3 : 0;
    return sh_halo(W) <= 2 ? 1 : 3;
}

/* The default variant of a float32 launch whose raw planes come by TMA: the
 * fastest of a sweep of every variant with TMA (bench/NOTES-tile3d.md, "TMA on
 * every tile variant").  Without the per-point copies the two 256-thread
 * blocks of 16 x 64 tiles (one block's barrier waits filled by the other's
 * work) win the forwards of reach 4 and d4's; the shortest (cdf53) and widest
 * (dd137) forwards and every inverse run 32 x 64, cdf53's inverse included
 * (the one-pair tiles suited its threads' copies, not TMA); single volumes
 * only (t3_launch) */
template <int W, int INV> static constexpr int t3_tma_variant()
{
    if (INV || sh_halo(W) > T3_WIDE_HALO) return 3;
    return !tile_once_mirror_exact(W) || sh_halo(W) == T3_WIDE_HALO ? 0 : 3;
}

/* Whether the auto choices of a single float32 volume follow the narrow
 * memory's ranking (lwk_tile3d.defaults; auto: the device's memory bus is
 * narrower than 6144 bits, asked once per device).  The defaults above are
 * the fastest variants measured on a GPU of wide memory (an H200's 6144-bit
 * HBM3e); one of narrower memory and the same SMs (an H100's 5120-bit HBM3)
 * ranks them otherwise: the forwards of reach up to 4 run fastest on 32 x 64
 * tiles by TMA, the inverses of cdf97, dd97 and d4 by the threads' copies, and
 * the other inverses by TMA on the threads' default tiles (the measurements:
 * bench/NOTES-tile3d-h100.md, docs/TUNING.md's tile3d_defaults). */
static bool t3_narrow_memory(const lwk_tile3d *t)
{
    if (t->defaults != LWK_T3_DEFAULTS_AUTO) return t->defaults == LWK_T3_DEFAULTS_NARROW;
    static const char key = 0;
    long long v = 0;
    if (!lw_cuda_memo_get(&key, 0, &v)) {
        int dev = 0, bits = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev) != cudaSuccess) {
            cudaGetLastError();
            bits = 0; /* unknown: the wide memory's defaults */
        }
        v = bits > 0 && bits < 6144;
        lw_cuda_memo_put(&key, 0, v);
    }
    return v != 0;
}

/* ---- the TMA path's host side ------------------------------------------- */

typedef CUresult (*t3_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                 const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* cuTensorMapEncodeTiled from the driver the runtime loaded (no link to
 * libcuda), looked up once; NULL where the driver lacks it */
static t3_encode_fn t3_encoder()
{
    static const t3_encode_fn fn = []() -> t3_encode_fn {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
        const cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
#else
        const cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q);
#endif
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) {
            cudaGetLastError();
            return nullptr;
        }
        return (t3_encode_fn)p;
    }();
    return fn;
}

/* The tensor map element type of a storage type the TMA path takes */
template <class S> static constexpr CUtensorMapDataType t3_tma_dtype()
{
    return sizeof(S) == 4                             ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
           : std::is_same<S, __nv_bfloat16>::value ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                                     : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

/* A batch of items volumes of lengths n (z, y, x), samples of es bytes of type
 * dt, element strides st (x 1), items si elements apart, as a 4-D tensor map of
 * boxes bx x by x 1 x 1 (x innermost, the item outermost); false where TMA
 * cannot describe it (alignment, strides, sizes) */
static bool t3_map4(CUtensorMap *m, CUtensorMapDataType dt, int es, const void *base, const int64_t n[3],
                    const int64_t st[3], int64_t items, int64_t si, int bx, int by)
{
    const t3_encode_fn enc = t3_encoder();
    if (items <= 1) si = st[0] * n[0]; /* a dimension of one: any valid stride */
    if (!enc || (uintptr_t)base % 16 || (st[1] * es) % 16 || (st[0] * es) % 16 || (si * es) % 16) return false;
    for (int a = 0; a < 3; a++)
        if (n[a] < 1 || n[a] >= ((int64_t)1 << 31) - 512 || st[a] < 0) return false;
    if (items < 1 || items >= ((int64_t)1 << 31) || si <= 0 || si * es >= ((int64_t)1 << 40)) return false;
    const cuuint64_t dim[4] = {(cuuint64_t)n[2], (cuuint64_t)n[1], (cuuint64_t)n[0], (cuuint64_t)items};
    const cuuint64_t str[3] = {(cuuint64_t)(st[1] * es), (cuuint64_t)(st[0] * es), (cuuint64_t)(si * es)};
    const cuuint32_t box[4] = {(cuuint32_t)bx, (cuuint32_t)by, 1, 1}, one[4] = {1, 1, 1, 1};
    return enc(m, dt, 4, (void *)base, dim, str, box, one, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* Whether a launch can take its raw pairs by TMA, and its maps: the plan
 * allows it, symmetric mode (a point outside the volume then reads its mirror
 * image, inside the window wherever an output needs it, if a line holds more
 * than its reach: one reflection), and maps for the volume read (boxes bx x by:
 * a window plane forward, a quadrant of one inverse) and the octant apart.  A
 * box's first column must lie at a multiple of 16 bytes: the inverse's odd
 * columns' band starts at a multiple of 16 bytes (of 16 / es samples). */
static bool t3_tma_fits(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, CUtensorMapDataType dt,
                        int es, int inv, int h, int bx, int by, lwk_t3_maps *m)
{
    if (t->load == LWK_T3_LOAD_THREADS || t->mode != LW_SYMMETRIC) return false;
    if (t->n[1] < 2 * h + 2 || t->n[2] < 2 * h + 2 || (inv && (t->n[2] + 1) / 2 % (16 / es))) return false;
    memset(m, 0, sizeof *m);
    if (!t3_map4(&m->src, dt, es, src, t->n, t->st, b->items, b->sb, bx, by)) return false;
    if (inv && t->ll) {
        const int64_t hn[3] = {(t->n[0] + 1) / 2, (t->n[1] + 1) / 2, (t->n[2] + 1) / 2};
        if (!t3_map4(&m->oct, dt, es, t->ll, hn, t->lt, b->items, b->lb, bx, by)) return false;
    }
    return true;
}

/* Whether kernel k runs TMA on this device: its binary was built for sm_90 or
 * newer (asked once per kernel and device) */
static bool t3_tma_ready(const void *k)
{
    long long v = 0;
    if (!lw_cuda_memo_get(k, 1, &v)) {
        cudaFuncAttributes fa;
        if (cudaFuncGetAttributes(&fa, k) != cudaSuccess) {
            cudaGetLastError();
            fa.binaryVersion = 0;
        }
        v = fa.binaryVersion >= 90;
        lw_cuda_memo_put(k, 1, v);
    }
    return v != 0;
}

template <class S, int W, int INV, int V, bool LONG, bool BATCH, bool STG, bool TMA = false>
static cudaError_t t3_launch_b(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, void *dst, cudaStream_t s,
                               const lwk_t3_maps *maps = nullptr)
{
    typedef lwd_c<S> T;
    typedef t3s_cfg<T, V> C;
    auto k = tile3s<S, W, INV, V, LONG, BATCH, TMA, STG>;
    constexpr size_t smem = t3s_smem<T, W, INV, C, TMA, STG, (int)sizeof(S)>();
    static const lwk_t3_maps none = {};
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    cudaError_t e = lw_cuda_func_attr((const void *)k, LW_SMEM_ATTR, (int)smem);
    if (e != cudaSuccess) return e;
    int64_t resident = 0;
    if ((e = lw_cuda_resident((const void *)k, C::NT, smem, &resident)) != cudaSuccess) return e;
    const int64_t items = BATCH ? b->items : 1;
    const int64_t gx = (t->n[2] + C::TX - 1) / C::TX * items, gy = (t->n[1] + C::TY - 1) / C::TY;
    if (gx > 0x7fffffff || gy > 65535) return cudaErrorInvalidConfiguration;
    const int64_t pairs = (t->n[0] + 1) / 2;
    const int gz = t->zruns > 0 ? (int)(t->zruns < pairs ? t->zruns : pairs)
                                : lwk_tile3d_zruns(gx * gy, pairs, resident > 0 ? resident : 1, (sh_halo(W) + 1) / 2 + Z.dp);
    k<<<dim3((unsigned)gx, (unsigned)gy, (unsigned)gz), C::NT, smem, s>>>(*t, (const S *)src, (S *)dst, *b,
                                                                          maps ? *maps : none);
    return cudaGetLastError();
}

/* The storage types whose raw planes TMA brings: float32 and the half types
 * (float64 keeps the threads' copies) */
template <class S> static constexpr bool t3_tma_type() { return sizeof(S) == 4 || sizeof(S) == 2; }

/* Whether a launch of variant V takes its raw pairs by TMA (t3_tma_type, LONG
 * tiles, t3_tma_fits, a kernel built for sm_90), and its maps.  Batches of
 * items one tile wide keep the threads' copies: every tile is then an edge
 * tile on both sides, and there TMA measured slower (bench/NOTES-tile3d.md). */
template <class S, int W, int INV, int V, bool LONG>
static bool t3_tma_takes(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, lwk_t3_maps *m)
{
    if constexpr (t3_tma_type<S>() && LONG) {
        typedef t3s_cfg<lwd_c<S>, V> C;
        constexpr int H = sh_halo(W);
        typedef t3_raw<INV, C::TY + 2 * H, C::TX + 2 * H, 16 / (int)sizeof(S)> R;
        if (b->items > 1 && t->n[2] <= C::TX) return false;
        return t3_tma_fits(t, b, src, t3_tma_dtype<S>(), (int)sizeof(S), INV, H, R::BW, R::BH, m) &&
               t3_tma_ready((const void *)tile3s<S, W, INV, V, LONG, false, true, t3_staged(INV)>);
    }
    return false;
}

/* STG: the threads' kernels staged, STGT: the TMA kernels */
template <class S, int W, int INV, int V, bool LONG, bool STG, bool STGT>
static cudaError_t t3_launch_s(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, void *dst, cudaStream_t s)
{
    const bool batch = b->items > 1;
    if constexpr (t3_tma_type<S>() && LONG) {
        lwk_t3_maps m;
        if (t3_tma_takes<S, W, INV, V, LONG>(t, b, src, &m))
            return batch ? t3_launch_b<S, W, INV, V, LONG, true, STGT, true>(t, b, src, dst, s, &m)
                         : t3_launch_b<S, W, INV, V, LONG, false, STGT, true>(t, b, src, dst, s, &m);
    }
    return batch ? t3_launch_b<S, W, INV, V, LONG, true, STG>(t, b, src, dst, s)
                 : t3_launch_b<S, W, INV, V, LONG, false, STG>(t, b, src, dst, s);
}

/* The float32 forwards staged as the inverses as the plan's tuning says
 * (tile3d_stages); every other kernel as t3_staged.  By default the forwards
 * of reach 2 (cdf53, d4) run staged where TMA brings their planes: measured
 * faster there, and slower for the forwards of reach 4 and more
 * (bench/NOTES-tile3d.md, "Staged forwards, batches and the half types"). */
template <class S, int W, int INV, int V, bool LONG = true>
static cudaError_t t3_launch_v(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, void *dst, cudaStream_t s)
{
    if constexpr (!INV && sizeof(S) == 4) {
        if (t->stages == LWK_T3_STAGES_STAGED) return t3_launch_s<S, W, INV, V, LONG, true, true>(t, b, src, dst, s);
        if (t->stages == LWK_T3_STAGES_AUTO && sh_halo(W) <= 2)
            return t3_launch_s<S, W, INV, V, LONG, false, true>(t, b, src, dst, s);
        return t3_launch_s<S, W, INV, V, LONG, false, false>(t, b, src, dst, s);
    }
    return t3_launch_s<S, W, INV, V, LONG, t3_staged(INV), t3_staged(INV)>(t, b, src, dst, s);
}

/* Whether variant V's tiles can be placed for t3_lift's fixed move sets
 * (t3s_body's LONG): at least two tile rows with a last one starting H or
 * more into the line, and one tile column or a last one starting H or more
 * in (a window then meets one end at most, at the ends' known offsets). */
template <class S, int W, int V> static bool t3_long(const lwk_tile3d *t)
{
    typedef t3s_cfg<lwd_c<S>, V> C;
    constexpr int H = sh_halo(W);
    return t->mode == LW_PERIODIC || (t->n[1] >= C::TY + 2 * H && (t->n[2] == C::TX || t->n[2] >= C::TX + H));
}

/* S the storage type */
template <class S, int W, int INV> static cudaError_t t3_launch(const lwk_tile3d *t, const lwk_tile3d_batch *b, const void *src, void *dst, cudaStream_t s)
{
    /* the wavelets that refresh their mirror (d4, symmetric mode) on lines too
     * short for the default tiles' fixed move sets: the 16-row tiles (more
     * blocks for small volumes), windows at the ends lifted in a local copy */
    if constexpr (!tile_once_mirror_exact(W)) {
        constexpr int V = t3_default_variant<S, W, INV>();
        constexpr int VS = sh_halo(W) > T3_WIDE_HALO ? 3 : 0;
        if (!t3_long<S, W, V>(t)) return t3_launch_v<S, W, INV, VS, false>(t, b, src, dst, s);
    }
    if constexpr (sizeof(S) != 4) { /* float64 and the half types: one variant */
        return t3_launch_v<S, W, INV, t3_default_variant<S, W, INV>()>(t, b, src, dst, s);
    } else {
        /* variants (tuning key tile3d): 0 = 16 x 64 tiles, 256 threads, 2 pairs prefetched,
         * 2 blocks/SM; 1 = the same with 1 pair, 3 blocks/SM; 2 = 3 pairs; 3 = 32 x 64, 512
         * threads, 1 block/SM */
        const int v = t->variant >= 0 && t->variant < LWK_T3_NVARIANTS ? t->variant : -1;
        constexpr int def = t3_default_variant<S, W, INV>(), deft = t3_tma_variant<W, INV>();
        lwk_t3_maps m;
        int pick = v < 0 ? def : v;
        /* batches keep the threads' tiles: with TMA the 16 x 64 forwards ran
         * slower than 32 x 64 on batches of 128^3 items, no faster on larger
         * ones (bench/NOTES-tile3d.md) */
        if (v < 0 && b->items <= 1 && t3_narrow_memory(t)) {
            /* the H100's ranking (t3_narrow_memory): forwards 32 x 64 by TMA, the inverses of reach 4
             * (cdf97, dd97) and d4's by the threads' copies, every inverse on the threads' default tiles */
            if (!INV && sh_halo(W) <= T3_WIDE_HALO && t3_tma_takes<S, W, INV, 3, true>(t, b, src, &m)) pick = 3;
            if (INV && (sh_halo(W) == T3_WIDE_HALO || !tile_once_mirror_exact(W)) && t->load == LWK_T3_LOAD_AUTO) {
                lwk_tile3d th = *t;
                th.load = LWK_T3_LOAD_THREADS;
                return t3_launch_v<S, W, INV, def>(&th, b, src, dst, s);
            }
        } else if (v < 0 && deft != def && b->items <= 1 && t3_tma_takes<S, W, INV, deft, true>(t, b, src, &m))
            pick = deft;
        /* a variant 3 (taller tiles) on lines shorter than its windows: the 16-row tiles */
        const int run = pick == 3 && !tile_once_mirror_exact(W) && !t3_long<S, W, 3>(t) ? 0 : pick;
        switch (run) {
        case 1: return t3_launch_v<S, W, INV, 1>(t, b, src, dst, s);
        case 2: return t3_launch_v<S, W, INV, 2>(t, b, src, dst, s);
        case 3: return t3_launch_v<S, W, INV, 3>(t, b, src, dst, s);
        default: return t3_launch_v<S, W, INV, 0>(t, b, src, dst, s);
        }
    }
}

static constexpr bool t3_runs(int W) { return lwc_separable(W) && sh_halo(W) <= T3_MAX_HALO; }

template <class T>
static cudaError_t t3_dispatch(const lwk_tile3d *t, const lwk_tile3d_batch *b, int inverse, const void *src, void *dst,
                               cudaStream_t s)
{
    return lwc_dispatch_all(t->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!t3_runs(W)) return cudaErrorInvalidValue;
        else return inverse ? t3_launch<T, W, 1>(t, b, src, dst, s) : t3_launch<T, W, 0>(t, b, src, dst, s);
    });
}

extern "C" int lwk_tile3d_supported(int dtype, const lwk_wave *w, int mode, const int64_t *n)
{
    if (dtype == LWK_I32) return 0;
    if (w->integer || !t3_runs(w->id)) return 0;
    /* the fused 2-D engine's rules per axis: haar on even lengths in symmetric
     * mode; d4 refreshes its mirror images (t3s_body) */
    for (int a = 0; a < 3; a++)
        if (!lwk_tile2d_supported(dtype, w, mode, n[a], 2)) return 0;
    return (n[1] + 15) / 16 <= 65535; /* grid y */
}

extern "C" cudaError_t lwk_tile3d_run(int dtype, const lwk_tile3d *t, const lwk_tile3d_batch *b, int inverse,
                                      const void *src, void *dst, cudaStream_t s)
{
    lwk_tile3d u = *t;
    const lwk_tile3d_batch one = {1, 0, 0, 0}, *bb = b && b->items > 1 ? b : &one;
    if (!u.dt[0] && !u.dt[1] && !u.dt[2])
        for (int a = 0; a < 3; a++) u.dt[a] = u.st[a];
    if (u.st[2] != 1 || u.dt[2] != 1 || (u.ll && u.lt[2] != 1)) return cudaErrorInvalidValue;
    switch (dtype) {
    case LWK_F64: return t3_dispatch<double>(&u, bb, inverse, src, dst, s);
    case LWK_F16: return t3_dispatch<__half>(&u, bb, inverse, src, dst, s);
    case LWK_BF16: return t3_dispatch<__nv_bfloat16>(&u, bb, inverse, src, dst, s);
    default: return t3_dispatch<float>(&u, bb, inverse, src, dst, s);
    }
}
