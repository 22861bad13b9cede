/* The fused 2-D engine (k_tile2d_kernel.cuh) on the interleaved layout, out
 * of place: a tile and its halo read once from the input plane, lifted
 * vertically then horizontally, and its rows of outputs written once, each
 * coefficient where its sample was (the Mallat kernels' reads with the
 * inverse's row stores, and for the inverse their writes with the forward's
 * window loads).  Its own translation unit: these instantiations compile
 * beside the Mallat ones. */
#include "k_tile2d_kernel.cuh"
#include "tile2d_il.h"

extern "C" int lwk_tile2d_il_supported(int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols)
{
    return dtype != LWK_I32 && lwk_tile2d_supported(dtype, w, mode, rows, cols);
}

extern "C" cudaError_t lwk_tile2d_il(int dtype, int inverse, const lwk_tile2d *t, lwk_plane src, lwk_plane dst,
                                     cudaStream_t s)
{
    return tile_dispatch<1>(dtype, inverse, t, src, dst, dst, s);
}

extern "C" cudaError_t lwk_tile2d_il_split(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dst, lwk_plane even,
                                           cudaStream_t s)
{
    even.split = 1;
    return tile_dispatch<1>(dtype, 0, t, src, even, dst, s);
}
