/* The fused 2-D engine on the Mallat layout (k_tile2d_kernel.cuh): one
 * kernel a level reads the input once and writes the four bands once; the
 * inverse reads the four bands once and writes the output once. */
#include "k_tile2d_kernel.cuh"

/* Every separable wavelet in both modes (a window that reaches past an end
 * of the image is lifted with the boundary applied at every step where a
 * single mirroring of the load is not exact, reg_lift_line), except the
 * wavelets whose steps stay inside their pairs (haar) on odd lengths in
 * symmetric mode: lifted as loaded, they are exact on even lengths only. */
extern "C" int lwk_tile2d_supported(int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols)
{
    const lw_wavelet_def *d = lw_wavelet_get_any(w->id);
    if (rows < 2 || cols < 2 || !d || !d->separable) return 0;
    if (w->id >= LW_TRANSPOSED_ID && (mode != LW_PERIODIC || !lwc_transposed_runs(w->id - LW_TRANSPOSED_ID))) return 0;
    if (dtype == LWK_I32 && !d->has_integer) return 0;
    if (lwk_is_half(dtype) && w->integer) return 0;
    if (mode != LW_PERIODIC && !lw_wavelet_symmetric_taps(d) && lw_wavelet_inside_pairs(d))
        return (rows % 2) == 0 && (cols % 2) == 0;
    return 1;
}

extern "C" cudaError_t lwk_tile2d_forward(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dll,
                                          lwk_plane ddet, cudaStream_t s)
{
    return tile_dispatch<0>(dtype, 0, t, src, dll, ddet, s);
}

extern "C" cudaError_t lwk_tile2d_inverse(int dtype, const lwk_tile2d *t, lwk_plane sll, lwk_plane sdet,
                                          lwk_plane dst, cudaStream_t s)
{
    return tile_dispatch<0>(dtype, 1, t, sll, sdet, dst, s);
}
