/* The local engine's kernels (lw_cuda.h, "local engine"): wavelets whose
 * lifting steps stay inside their pairs (haar, and its integer S-transform).
 * A thread owns a block of 2^F samples along each transformed dimension and
 * lifts F levels of it in registers (local_body.cuh); blocks share nothing,
 * so a launch reads every sample once and writes every coefficient once, with
 * no shared memory, halo or barrier, in place as well as out of place where
 * a block's coefficients land on its own samples (interleaved layout). */
#include "local_body.cuh"

#define LC_THREADS 128
#define LC_MAX_GRID (1 << 20)

/* A thread's block of 64 samples (2-D three levels, 3-D two) takes 100-250 registers
 * unbounded: a quarter of the warps an SM or fewer, too few loads in flight.  Those kernels
 * come in four register bounds (MB thread blocks an SM: 1 = none, 4, 5, 6), chosen per launch
 * (lwk_local.min_blocks, the plan's local_bound; TUNING.md). */
__host__ __device__ constexpr bool lc_bounded(int D, int F) { return D * F == 6; }

template <class S, int W, int D, int F, int XM, bool INV, int MB, bool SL>
__global__ void __launch_bounds__(LC_THREADS, MB) lc_kernel(const lwk_local k, int64_t items)
{
    /* consecutive items on consecutive lanes: a warp holds 32 adjacent x-blocks (the warp-strided map) */
    for (int64_t it = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; it < items; it += (int64_t)gridDim.x * blockDim.x)
        lc_item<S, W, D, F, XM, INV, SL>(k, it);
}

/* the launch of tag T's kernel in bound MB, level 1 slab by slab (k.slabs) or not */
template <class T, int MB>
static void lc_launch_mb(const lwk_local *k, int64_t items, unsigned grid, cudaStream_t st)
{
    typedef typename T::type S;
    if constexpr (lc_slabbed_t<S, T::d, T::f, T::xm>()) {
        if (k->slabs) {
            lc_kernel<S, T::w, T::d, T::f, T::xm, T::inv, MB, true><<<grid, LC_THREADS, 0, st>>>(*k, items);
            return;
        }
    }
    lc_kernel<S, T::w, T::d, T::f, T::xm, T::inv, MB, false><<<grid, LC_THREADS, 0, st>>>(*k, items);
}

extern "C" int lwk_local_bounded(int D, int F) { return lc_bounded(D, F); }

extern "C" int lwk_local_fmax(int D) { return D >= 1 && D <= 3 ? lc_fmax(D) : 0; }

static int esize_of(int dtype) { return dtype == LWK_F64 ? 8 : lwk_is_half(dtype) ? 2 : 4; }

extern "C" int lwk_local_slabs_ok(int dtype, int D, int F, int wide)
{
    /* the block is 2^F samples along every dim (wide or not, as lc_select_t picks XM 0) */
    return D >= 1 && D <= 3 && lc_xlog(D, F, esize_of(dtype), wide != 0) == F && lc_slabbed(D, F, 1 << (F * D), 0);
}

extern "C" int lwk_local_xlog(int dtype, int D, int F, int wide) { return lc_xlog(D, F, esize_of(dtype), wide != 0); }

extern "C" int lwk_local_strided_ok(int dtype, int D, int F) { return lc_strided_ok(esize_of(dtype), D, F); }

extern "C" int lwk_local_supported(int dtype, const lwk_wave *w)
{
    if (w->id >= LW_TRANSPOSED_ID || (dtype == LWK_I32) != (w->integer != 0)) return 0;
    int ok = 0;
    lwc_dispatch(w->id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        ok = dtype == LWK_I32 ? lc_runs<int32_t>(W) : lc_runs<float>(W);
        return cudaSuccess;
    });
    return ok;
}

extern "C" cudaError_t lwk_local_launch(int dtype, const lwk_local *k, cudaStream_t st)
{
    if (k->F < 1 || k->F > lwk_local_fmax(k->D)) return cudaErrorInvalidValue;
    return lc_select(dtype, k, [&](auto tag) -> cudaError_t {
        typedef decltype(tag) T;
        typedef typename T::type S;
        const int64_t items = lc_items(k, lc_block<S, T::d, T::f, T::wide>::XL);
        if (items <= 0) return cudaSuccess;
        const int64_t blocks = (items + LC_THREADS - 1) / LC_THREADS;
        const unsigned grid = (unsigned)(blocks < LC_MAX_GRID ? blocks : LC_MAX_GRID);
        if constexpr (lc_bounded(T::d, T::f)) {
            if (k->min_blocks == 4) lc_launch_mb<T, 4>(k, items, grid, st);
            else if (k->min_blocks == 5) lc_launch_mb<T, 5>(k, items, grid, st);
            else if (k->min_blocks == 6) lc_launch_mb<T, 6>(k, items, grid, st);
            else lc_launch_mb<T, 1>(k, items, grid, st);
        } else {
            lc_launch_mb<T, 1>(k, items, grid, st);
        }
        return cudaGetLastError();
    });
}
