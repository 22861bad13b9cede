/* Whole rows moved along the cycles of the Mallat row permutation with their
 * columns as they are (k_rowcycle.cu; lwk_rowcycle_launch in lw_cuda.h
 * reorders the columns too).  The long-line engine's rounds leave a level
 * in place as pairs of half-pairs (lowpass, highpass); those half-pairs,
 * taken as the rows of a rows x cols region, reach the Mallat order by this
 * move alone.  Arguments as lwk_rowcycle_launch's. */
#ifndef LW_K_ROWCYCLE_H
#define LW_K_ROWCYCLE_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t lwk_rowcycle_keep_cols(int dtype, int inverse, int64_t rows, int64_t cols, int64_t rs,
                                   const int64_t blen[2], const int64_t bs[2], const int32_t *segs, int on_host,
                                   int64_t nseg, int *flags, void *data, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
