/* The fused 2-D engine's tiles on the interleaved layout, out of place
 * (k_tile2d_il.cu): one level between two planes of unit column stride, each
 * coefficient where its sample was, read once and written once. */
#ifndef LW_TILE2D_IL_H
#define LW_TILE2D_IL_H

#include "lw_cuda.h"

#define LWK_MERGE_MAXLEV 32

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

/* The forward's level with its even rows kept apart: the odd rows to dst as
 * lwk_tile2d_il writes them, the even rows' outputs compact (row stride
 * even.rs, batch strides even.bs): the lowpass (even columns) at even.p, the
 * details (odd columns) at even.p + even.off[0] elements. */
cudaError_t lwk_tile2d_il_split(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dst, lwk_plane even,
                                cudaStream_t s);

/* The inverse's level with its lowpass apart (k_tile2d_il_join.cu): the samples
 * of src at even rows and columns replaced by low's (row stride low.rs, batch
 * strides low.bs; (r, c) at low.p + (r / 2) * low.rs + c / 2), the level
 * lifted from src to dst as lwk_tile2d_il's inverse does. */
cudaError_t lwk_tile2d_il_join(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane low, lwk_plane dst,
                               cudaStream_t s);

/* The even rows of an interleaved pyramid's output (k_il_merge.cu), from the
 * level-1 split (lwk_tile2d_il_split) and the pyramid of levels 2.. that its
 * lowpass took in the Mallat layout: row 2i of out is, for j < hc, the Mallat
 * sample of the lowpass grid's (i, j) at out column 2j and the details' (i, j)
 * at 2j + 1.  hr x hc the lowpass grid (compact, row stride hc, item stride
 * hr * hc in both mallat and det, items blen[0] x blen[1] as out's batch
 * strides obs), lens[s] the lengths of the pyramid's level s + 1 region
 * (s < levels; lens[0] = {hr, hc}). */
typedef struct lwk_il_merge {
    int64_t rows, cols, hr, hc, ors, obs[2], blen[2];
    int levels; /* of the Mallat pyramid */
    int64_t lens[LWK_MERGE_MAXLEV][2];
} lwk_il_merge;
cudaError_t lwk_il_merge_launch(int dtype, const lwk_il_merge *m, const void *mallat, const void *det, void *out,
                                cudaStream_t s);
/* The reverse for an inverse pyramid: the Mallat samples of the lowpass grid
 * gathered from the even rows and columns of in (row stride ors, batch
 * strides obs), as lwk_il_merge_launch places them; m's other fields as there. */
cudaError_t lwk_il_gather_launch(int dtype, const lwk_il_merge *m, const void *in, void *mallat, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
