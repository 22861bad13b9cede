/* lw_execute_bands on device memory (bands_exec.c). */
#ifndef LW_BANDS_EXEC_H
#define LW_BANDS_EXEC_H

#include "cuda_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rp, s: the plan that runs (the caller's, or its transposed internal plan)
 * and its schedule, when lw_cuda_bands_direct_for says the bands take the
 * direct path; scratch: lw_cuda_bands_direct_scratch bytes.  On stream st. */
lw_status lw_cuda_run_bands_direct(const lw_plan *rp, const lw_cuda_sched *s, void *samples, const lw_band *bands,
                                   void *scratch, cudaStream_t st);
/* Any other case: the caller's plan p (schedule s) through a device array made for the call. */
lw_status lw_cuda_run_bands_via_array(const lw_plan *p, const lw_cuda_sched *s, void *samples, const lw_band *bands,
                                      cudaStream_t st);
/* device scratch of the direct path (the inner levels' lowpass bands) */
size_t lw_cuda_bands_direct_scratch(const lw_plan *rp, const lw_cuda_sched *s);
/* 1 when rp (schedule s) writes (reads) these bands in place */
int lw_cuda_bands_direct_for(const lw_plan *rp, const lw_cuda_sched *s, const lw_band *bands);
/* 1 when lw_execute_bands of device-pointer plan p on these bands takes the
 * direct path (for the tests). */
int lw_cuda_bands_direct(const lw_plan *p, const lw_band *bands);

#ifdef __cplusplus
}
#endif

#endif
