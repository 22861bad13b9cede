/* The CUDA backend's mover for the out-of-core streaming (src/core/ooc.h):
 * device memory by cudaMalloc, the host moves through the execution
 * context's stager (pinned or registered memory straight through the copy
 * engines, pageable memory through the ring of pinned buffers), the
 * sub-plans on the context's three streams. */
#ifndef LW_OOC_CUDA_H
#define LW_OOC_CUDA_H

#include "core/ooc.h"
#include "staging_ring.h"

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sub-plans a plan's calls made, kept for its next calls (plan once):
 * by configuration, up to LW_OOC_KEEP of them; a sub-plan past that is made
 * and freed per call. */
#define LW_OOC_KEEP 48
typedef struct lw_ooc_subs {
    pthread_mutex_t mu;
    int n;
    struct {
        lw_config key;
        char scheme[32];
        lw_plan *plan;
        size_t scr;
    } e[LW_OOC_KEEP];
} lw_ooc_subs;
void lw_ooc_subs_init(lw_ooc_subs *k);
void lw_ooc_subs_free(lw_ooc_subs *k);

typedef struct lw_ooc_cuda {
    lw_ooc_subs *subs;    /* NULL: every sub-plan freed after the call */
    lw_stager *stg;
    cudaStream_t st[LW_OOC_QUEUES];
    cudaEvent_t ev[LW_OOC_EVENTS];
    const char *in, *out; /* the call's host arrays, `bytes` each */
    size_t bytes;
    int din, dout;        /* in / out go straight through the copy engines */
    /* uploads begun and not yet ended (the stager takes 8 at a time), oldest first, and their queues */
    lw_stage_ticket ups[8];
    int upq[8], nups;
} lw_ooc_cuda;

/* A mover over c (which must outlive it) with `budget` device bytes. */
void lw_ooc_cuda_mover(lw_ooc_cuda *c, size_t budget, lw_ooc_mover *m);

/* backend_cuda.c: cudaMalloc of `bytes` for `what` (nothing for 0), failing with the device's
 * free and total memory in the message; a device-pointer sub-plan's scratch, and its run on a
 * stream */
lw_status lw_cuda_alloc(void **p, size_t bytes, const char *what);
size_t lw_cuda_sub_scratch(const lw_plan *sub);
lw_status lw_cuda_run_sub(const lw_plan *sub, const void *in, void *out, void *scratch, cudaStream_t st);

#ifdef __cplusplus
}
#endif

#endif
