/* Engine choice and device-side execution of a plan (cuda_exec.c). */
#ifndef LW_CUDA_EXEC_H
#define LW_CUDA_EXEC_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LWE_COPY = 0,   /* no level: copy */
    LWE_GENERIC,    /* one generic pass per level and axis */
    LWE_SMALL,      /* whole items in shared memory, one launch */
    LWE_TILE2D,     /* fused 2-D levels, small-engine tail */
    LWE_TILE3D,     /* 3-D one level: fused planes + one pass */
    LWE_FS,         /* Faber-Schauder */
    LWE_FUSED3D     /* 3-D one level, float32: one fused kernel */
};

typedef struct lw_cuda_sched {
    int engine;
    int dtype;
    size_t esize, bytes;
    int64_t nbatch;
    lwk_wave w;
    size_t scratch;    /* device scratch bytes for an out-of-place run */
    size_t scr_off[2]; /* tile2d: offsets of the two level buffers */
    int tmp_full;      /* generic: scratch is a full-size ping-pong buffer */
    size_t inplace_scratch; /* extra bytes an in-place run needs */
} lw_cuda_sched;

void lw_cuda_choose(const lw_plan *p, lw_cuda_sched *s);

/* Enqueue the whole transform on st.  in/out are device pointers (in == out
 * allowed); scratch holds s->scratch bytes, or s->inplace_scratch for an
 * in-place run. */
lw_status lw_cuda_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                      cudaStream_t st);

/* Engine (LWE_*) a CUDA plan runs, for tests and benchmarks; -1 otherwise. */
int lw_cuda_plan_engine(const lw_plan *p);

#ifdef __cplusplus
}
#endif

#endif
