/* Device-side timing used by `liftwave bench --backend cuda`, and the GPU
 * schemes' operation table (internal).  Implemented in src/cuda when built
 * with CUDA; otherwise LW_ERR_NO_BACKEND, and no counts. */
#ifndef LW_BENCH_H
#define LW_BENCH_H

#include "lw_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lw_bench_config {
    LW_BENCH_G2G = 0, /* device buffers in and out */
    LW_BENCH_C2C = 1  /* pinned host buffers, library moves the data */
} lw_bench_config;

typedef struct lw_bench_result {
    double median_s;     /* median time of one execute, seconds */
    double min_s;
    int runs;            /* timed runs after warm-up */
    const char *bound;   /* "device-copy" (G2G) or "pcie" (C2C) */
    double bound_gbps;   /* measured in the same run: bytes read + written per second */
    int verified;        /* 1: output of the timed runs equals host_ref within tol */
    double max_rel_err;  /* vs host_ref, relative to max |host_ref| */
    char device[128];    /* device name */
    size_t device_extra_bytes; /* device memory the plan took beyond in and out (peak seen) */
} lw_bench_result;

/* Plan cfg on the CUDA backend, upload host_in (random data of the plan's
 * shape and dtype), warm up, time `repeat` runs with CUDA events (median),
 * measure the bound in the same run, poison the output before the timed runs
 * and compare the result with host_ref (NULL: not verified). */
lw_status lw_cuda_bench(const lw_config *cfg, lw_bench_config config, int repeat, const void *host_in,
                        const void *host_ref, double tol, lw_bench_result *res);

/* The operation table of the papers' GPU schemes (`liftwave bench --scheme
 * list --wavelet W`): counts of scheme i of lw_scheme_name() for wavelet w,
 * one forward level, read off the programs the kernels run (host code, no
 * device needed), next to the paper's numbers. */
typedef struct lw_scheme_cost {
    double ops;         /* arithmetic operations per 2x2 quad of samples: one per lifting or filter tap
                         * executed, scaling omitted (as the papers count) */
    int barriers;       /* barriers per window position (tile), summed over the level's kernels */
    int paper_ops;      /* the paper's (003: Table 2); -1 where it gives none */
    int paper_barriers;
} lw_scheme_cost;

/* 1 and *c filled, or 0 if the scheme does not take w (or the build has no
 * CUDA). */
int lw_scheme_cost_of(int i, lw_wavelet w, lw_scheme_cost *c);

#ifdef __cplusplus
}
#endif

#endif
