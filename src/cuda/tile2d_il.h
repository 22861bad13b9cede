/* The fused 2-D engine's tiles on the interleaved layout, out of place
 * (k_tile2d_il.cu): one level between two planes of unit column stride, each
 * coefficient where its sample was, read once and written once. */
#ifndef LW_TILE2D_IL_H
#define LW_TILE2D_IL_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if lwk_tile2d_il runs this case: lwk_tile2d_supported's float cases (the
 * integer transforms stay on the walker: their inverse lifts rows first, and
 * the row stores move float bits) */
int lwk_tile2d_il_supported(int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols);
/* One level of t's planes from src to dst (distinct buffers; rs and bs as
 * lwk_plane's, columns contiguous); t->side is not used (NULL) */
cudaError_t lwk_tile2d_il(int dtype, int inverse, const lwk_tile2d *t, lwk_plane src, lwk_plane dst, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
