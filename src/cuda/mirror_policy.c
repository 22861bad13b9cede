/* When "auto" takes a fused engine for a wavelet whose boundary the fused
 * kernels must refresh before every lifting step (one-sided steps: d4, in
 * symmetric mode): the sizes from which the refresh, paid in the windows at
 * the data's edges, costs less than the line passes it replaces.  Named
 * engines run at any size. */
#include "cuda_exec.h"

#include <string.h>

/* Wavelets whose steps are one-sided (d4) run on the fused engines in
 * symmetric mode with the mirror refreshed before every step in the windows
 * at the image's edges (tile_lift.cuh), which costs most where most tiles
 * touch an edge: "auto" takes the fused engines for them on planes of at
 * least TILE_MIRROR_MIN samples each way, and for transforms of at most
 * TILE_MIRROR_LEVELS levels (levels: the fused 2-D kernel's, 1 for 3d-yx;
 * -1 for the in-place kernels, which refresh by selects) on planes of at
 * least TILE_MIRROR_PLANE: where the line passes outran them when measured
 * (every level of smaller single planes, planes of 256^2; the A/B in
 * bench/NOTES-matrix.md).  Named, they run at any size. */
#define TILE_MIRROR_MIN 4096
#define TILE_MIRROR_PLANE 512
#define TILE_MIRROR_LEVELS 3
int lw_cuda_mirror_refreshed(const lw_plan *p)
{
    return p->cfg.mode != LW_PERIODIC && !lw_wavelet_symmetric_taps(p->wav) && !lw_wavelet_inside_pairs(p->wav);
}
int lw_cuda_mirror_free(const lw_plan *p)
{
    return strcmp(p->scheme, "auto") != 0 || !lw_cuda_mirror_refreshed(p);
}
int lw_cuda_mirror_worth_planes(const lw_plan *p, int64_t rows, int64_t cols, int levels)
{
    if (lw_cuda_mirror_free(p)) return 1;
    if (levels >= 1 && levels <= TILE_MIRROR_LEVELS && rows >= TILE_MIRROR_PLANE && cols >= TILE_MIRROR_PLANE) return 1;
    return rows >= TILE_MIRROR_MIN && cols >= TILE_MIRROR_MIN;
}

/* The fused 3-D engine refreshes the mirror of d4 as the 2-D engines do, in
 * every window at a face of the volume, and on lines too short for its
 * fixed move sets lifts those windows in a local copy: "auto" takes it for
 * d4 in symmetric mode on volumes of FUSED3D_MIRROR_MIN samples, or
 * FUSED3D_MIRROR_ONE for one level, where it outran the line passes when
 * measured (32^3 and 64^3 pyramids were 1.2x slower, 128^3 pyramids even;
 * bench/NOTES-d4.md). */
#define FUSED3D_MIRROR_MIN ((int64_t)1 << 21)
#define FUSED3D_MIRROR_ONE ((int64_t)1 << 18)
int lw_cuda_mirror_worth_volume(const lw_plan *p)
{
    const int64_t *n = p->geo.len[0];
    const int64_t s = n[0] * n[1] * n[2];
    return lw_cuda_mirror_free(p) || s >= FUSED3D_MIRROR_MIN || (p->geo.levels == 1 && s >= FUSED3D_MIRROR_ONE);
}
