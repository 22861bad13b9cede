/* The fused multi-level 2-D engine (lw_cuda.h, "stream2d"): one thread
 * block a plane, up to three levels a launch, periodic mode; the block body
 * and its schedule are in stream2d_body.cuh. */
#include "stream2d_body.cuh"

template <class S, int W, int INV>
__global__ void __launch_bounds__(ST_NT, 2) st2_kernel(const __grid_constant__ lwk_stream2d p)
{
    typedef st2<S, W, INV> K;
    extern __shared__ __align__(16) unsigned char smem[];
    const int tid = threadIdx.x;
    st_geo g;
    K::geo(p.levels, (int)p.rows, (int)p.cols, g);
    typename K::planes pl;
    pl.p = &p;
    pl.b1 = (int64_t)blockIdx.x % p.blen[1], pl.b0 = (int64_t)blockIdx.x / p.blen[1];
    typename K::T rg[K::NCOLT][K::NW];
#pragma unroll
    for (int a = 0; a < K::NCOLT; a++)
#pragma unroll
        for (int b = 0; b < K::NW; b++) rg[a][b] = 0;
    for (int t = 0; t < K::D; t++) {
        K::fetch(g, pl, smem, t, tid);
        lwd_cp_commit();
    }
    for (int t = 0; t < g.ticks; t++) {
        lwd_cp_wait<K::D - 1>();
        __syncthreads(); /* this tick's rows landed; every thread is past the last tick */
        K::fetch(g, pl, smem, t + K::D, tid);
        lwd_cp_commit();
        K::vertical(p.w, g, smem, rg, t, tid);
        __syncthreads();
        K::horizontal(p.w, g, pl, smem, t, tid);
    }
}

/* separable wavelets (and the transposed rows the periodic adjoints run) on
 * the types computed in float */
template <class S> static constexpr bool st2_runs(int W)
{
    return lwc_separable(W) && std::is_same<lwd_c<S>, float>::value;
}

template <class S, int W, int INV> static cudaError_t st2_launch(const lwk_stream2d *t, cudaStream_t s)
{
    typedef st2<S, W, INV> K;
    const auto k = st2_kernel<S, W, INV>;
    const cudaError_t attr = lw_cuda_func_attr((const void *)k, LW_SMEM_ATTR, (int)K::smem());
    if (attr != cudaSuccess) return attr;
    const int64_t planes = t->blen[0] * t->blen[1];
    if (planes < 1) return cudaSuccess;
    if (planes > 0x7fffffff) return cudaErrorInvalidConfiguration;
    k<<<(unsigned)planes, ST_NT, K::smem(), s>>>(*t);
    return cudaGetLastError();
}

template <class S> static cudaError_t st2_dispatch_t(int inverse, const lwk_stream2d *t, cudaStream_t s)
{
    return lwc_dispatch_all(t->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!st2_runs<S>(W)) return cudaErrorInvalidValue;
        else return inverse ? st2_launch<S, W, 1>(t, s) : st2_launch<S, W, 0>(t, s);
    });
}

/* The schedule's needs: each fused level's plane has its rows in pairs and
 * at least the rows a level saves for the wrap, and its rows whole segments
 * of KP pairs. */
extern "C" int lwk_stream2d_supported(int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols, int levels)
{
    const lw_wavelet_def *d = lw_wavelet_get_any(w->id);
    if (!d || !d->separable || w->integer || mode != LW_PERIODIC || dtype == LWK_I32 || dtype == LWK_F64) return 0;
    if (w->id >= LW_TRANSPOSED_ID && !lwc_transposed_runs(w->id - LW_TRANSPOSED_ID)) return 0;
    if (levels < 1 || levels > ST_LMAX || cols > ST_CMAX || rows > (1 << 28)) return 0;
    const int64_t m = (int64_t)1 << levels;
    if (rows % m || cols % (m * ST_KP)) return 0;
    int ok = 0;
    lwc_dispatch_all(w->id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (lwc_separable(W)) {
            typedef st2<float, W, 0> F;
            typedef st2<float, W, 1> I;
            const int fs = F::NSAVE, is = I::NSAVE, fd = F::DP, id = I::DP;
            const int need = fs > is ? fs : is;
            const int reach = (int)F::LB + (fd > id ? fd : id);
            ok = (rows >> levels) >= need && (cols >> levels) >= reach && (cols >> levels) >= ST_KP;
        }
        return cudaSuccess;
    });
    return ok;
}

extern "C" cudaError_t lwk_stream2d_run(int dtype, int inverse, const lwk_stream2d *t, cudaStream_t s)
{
    if (!lwk_stream2d_supported(dtype, &t->w, LW_PERIODIC, t->rows, t->cols, t->levels)) return cudaErrorInvalidValue;
    return lwd_by_dtype(dtype, [&](auto ty) { return st2_dispatch_t<LWD_TYPE_OF(ty)>(inverse, t, s); });
}
