/* The local engine's host side (local_exec.c): where it applies, its
 * workspace, and its launches (k_local.cu). */
#ifndef LW_LOCAL_EXEC_H
#define LW_LOCAL_EXEC_H

#include "cuda_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Forward or inverse of a wavelet whose steps stay inside their pairs, along
 * 1-3 adjacent axes (the trailing ones, or followed by one dim: channels
 * last), every transformed length a multiple of 2^levels. */
int lw_local_applies(const lw_plan *p, const lw_cuda_sched *s);
/* Where "auto" takes it (lw_local_applies, and measured ahead of the fused
 * engines): channels last always; else not one level of 2-D over 4- or 8-byte
 * samples unless the warp-strided map applies (the fused engine ties the
 * other maps), nor 2-D Mallat from host memory, whose fused engine overlaps
 * the copies in row bands. */
int lw_local_auto(const lw_plan *p, const lw_cuda_sched *s);
/* s->scratch: Mallat pyramids of several launches, two compact lowpass buffers */
void lw_local_workspace(const lw_plan *p, lw_cuda_sched *s);
/* Launches of a run, and launch i of it (in run order) between in and out,
 * with s->scratch bytes of scratch.  Out of place; in place (in == out) for
 * the interleaved layout only.  bands (NULL: none): the coefficients are the
 * Mallat bands of lw_execute_bands (forward: in holds the samples, out is
 * not used; inverse: out receives them, in is not used). */
int lw_local_launches(const lw_plan *p);
void lw_local_launch_at(const lw_plan *p, const lw_cuda_sched *s, int i, const void *in, void *out,
                        const lw_band *bands, void *scratch, lwk_local *k);
lw_status lw_local_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, const lw_band *bands,
                       void *scratch, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
