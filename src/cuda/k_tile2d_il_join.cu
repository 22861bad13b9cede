/* The interleaved layout's inverse level with a joined window (k_tile2d_kernel.cuh,
 * IL 2): the level's lowpass samples (even rows and columns) from a compact
 * plane, the rest from the input.  An inverse pyramid out of place runs its
 * levels 2.. as a Mallat plan on a compact lowpass (tile2d_il_oop.c), whose
 * output this level reads in place of those samples.  Its own translation unit:
 * these instantiations compile beside the other layouts'. */
#include "k_tile2d_kernel.cuh"
#include "tile2d_il.h"

extern "C" cudaError_t lwk_tile2d_il_join(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane low, lwk_plane dst,
                                          cudaStream_t s)
{
    return tile_dispatch<2>(dtype, 1, t, src, low, dst, s);
}
