/* Copies of a batch of 2-D sample grids between strided views (k_gridcopy.cu). */
#ifndef LW_GRIDCOPY_H
#define LW_GRIDCOPY_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rows x cols samples of blen[0] x blen[1] items; strides in elements: a
 * sample (r, j) of item (b0, b1) is src[b0*sbs[0] + b1*sbs[1] + r*srs + j*scs],
 * written to the same place by dst's strides.  src and dst do not overlap. */
typedef struct lwk_gridcopy {
    int64_t rows, cols, blen[2];
    int64_t srs, scs, sbs[2];
    int64_t drs, dcs, dbs[2];
} lwk_gridcopy;

cudaError_t lwk_gridcopy_launch(int dtype, const lwk_gridcopy *c, const void *src, void *dst, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
