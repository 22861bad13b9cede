/* Transforms of host arrays larger than the device: the array streams
 * through a bounded device budget in slabs (docs/OUT_OF_CORE.md, "On the
 * GPU").
 *
 * The array is cut along its axis 0.  When axis 0 is a batch axis (the
 * transformed axes come later), a slab is a group of whole items and runs
 * the plan's transform as it is.  When axis 0 is transformed, slab k owns the
 * core rows [z0, z1) and reads the extent [z0 - E, z1 + E): a halo of E rows
 * each side, enough for the lifting steps of L1 levels, so that the core's
 * coefficients are those of the whole array.  Each host row goes up once:
 * the rows a slab shares with the one before come from that slab's device
 * copy.  The core comes down to its place: Mallat bands along axis 0 out of
 * place.  In place, a row may come down only once no later slab still reads
 * it from the host: where the device can hold the rows that wait (about a
 * quarter of the array, one level along axis 0 per pass, symmetric mode),
 * they wait there and go down to their Mallat places as soon as their host
 * rows have been read ("held"); else the rows stay where they were read (the
 * interleaved order along axis 0, which no later slab still needs), and one
 * permutation of whole rows on the host puts them in Mallat order (the
 * inverse: the opposite permutation first).  Levels L1+1..L run on the level-L1 lowpass
 * corner (Mallat) or grid (interleaved), kept compact on the device.
 *
 * The moves, the sub-plans and the queues are a backend's (lw_ooc_mover):
 * the CUDA backend's copy engines and streams (src/cuda/ooc_cuda.c), or a
 * synchronous host emulation in the tests. */
#ifndef LW_OOC_H
#define LW_OOC_H

#include "lw_internal.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LW_OOC_QUEUES 3
#define LW_OOC_EVENTS 16

/* One copy of the streaming: nz planes of ny rows of `row` bytes, with the
 * pitches of each side (bytes between rows, between planes). */
typedef struct lw_ooc_box {
    size_t row;
    int64_t ny, nz;
    size_t dpitch, dplane, spitch, splane;
} lw_ooc_box;

enum { LW_OOC_UP = 0, LW_OOC_DOWN = 1, LW_OOC_D2D = 2 };

/* What a backend gives the streaming: device memory, copies and sub-plan
 * runs on LW_OOC_QUEUES ordered queues, events between queues.  Every
 * function returns LW_OK or a status with the error set. */
typedef struct lw_ooc_mover {
    void *ctx;
    size_t budget;   /* device bytes the streaming may hold */
    /* a sub-plan for cfg (shape, axes, levels, layout set; the plan's other
     * fields copied): on the device, run with the caller's scratch of
     * *scratch bytes */
    lw_status (*make_sub)(void *ctx, lw_config *cfg, lw_plan **sub, size_t *scratch);
    void (*drop_sub)(void *ctx, lw_plan *sub); /* done with a sub-plan (a mover may keep it for the next call) */
    lw_status (*alloc)(void *ctx, void **p, size_t bytes, const char *what);
    void (*release)(void *ctx, void *p);
    /* kind LW_OOC_UP: src host, dst device; DOWN the reverse; D2D both device */
    lw_status (*copy)(void *ctx, int kind, void *dst, const void *src, const lw_ooc_box *b, int q);
    lw_status (*run)(void *ctx, const lw_plan *sub, const void *in, void *out, void *scratch, int q);
    lw_status (*record)(void *ctx, int ev, int q); /* event ev (< LW_OOC_EVENTS) marks queue q now */
    lw_status (*wait)(void *ctx, int ev, int q);   /* queue q waits for ev's last mark */
    /* everything issued done, and the downloads in host memory */
    lw_status (*finish)(void *ctx);
    /* optional (NULL: the slab loop uploads with copy): an upload of kind
     * LW_OOC_UP begun on queue q, complete in stream order once ups_end(q)
     * has returned (finish ends every one still begun).  The slab loop then
     * begins slab k+1's uploads from the host before it runs slab k, so that
     * a mover that copies pageable memory on host threads always has rows to
     * copy. */
    lw_status (*up_begin)(void *ctx, void *dst, const void *src, const lw_ooc_box *b, int q);
    lw_status (*ups_end)(void *ctx, int q);
} lw_ooc_mover;

/* ---- the slab geometry (ooc_geometry.c; pure arithmetic) ----------------- */

/* One pass of slabs over an array of N rows (the indices of axis 0). */
typedef struct lw_ooc_slabs {
    int64_t N;     /* rows */
    int64_t Z;     /* core rows of a slab (the last may have fewer) */
    int64_t E;     /* halo rows each side: 0 when axis 0 is not transformed */
    int64_t n;     /* slabs */
    int L1;        /* levels of the pass (0 when axis 0 is not transformed) */
    int periodic;  /* the halo wraps around (extents leave [0, N)) */
} lw_ooc_slabs;

/* Slab k: core [z0, z1) (within [0, N)) and extent [e0, e1), which holds
 * [z0 - E, z1 + E): periodic extents may start below 0 or end past N (the
 * rows wrap); the others stay within [0, N) and keep the length Z + 2E
 * (the last may be longer by less than 2^L1).  Extents start at multiples
 * of 2^L1 and never move backwards. */
void lw_ooc_slab_at(const lw_ooc_slabs *s, int64_t k, int64_t *z0, int64_t *z1, int64_t *e0, int64_t *e1);

/* The halo of L1 levels for a wavelet of reach `halo` (lw_wavelet_def)
 * plus `slack` a level (lw_ooc_halo_slack), a multiple of 2^L1. */
int64_t lw_ooc_halo(int halo, int slack, int L1);
/* the slack a plan's direction and mode need */
int lw_ooc_halo_slack(const lw_config *cfg);

/* Bands along axis 0 after L levels: b = 0 the level-L lowpass, b = j the
 * level-j highpass (1 <= j <= L).  Among the first x rows (x a multiple of
 * 2^L, or the whole length) there are lw_ooc_band_count of band b; in Mallat
 * order band b starts at lw_ooc_band_base(b, n) of n rows; band b's index g
 * sits at interleaved row lw_ooc_band_row. */
int lw_ooc_band_level(int b, int L);
int64_t lw_ooc_band_count(int b, int L, int64_t x);
int64_t lw_ooc_band_base(int b, int L, int64_t n);
int64_t lw_ooc_band_row(int b, int L, int64_t g);

/* The permutation of whole rows between interleaved order and Mallat
 * order along axis 0 after L levels: row p of the interleaved order is row
 * lw_ooc_mallat_row(p) of the Mallat order. */
int64_t lw_ooc_mallat_row(int L, int64_t N, int64_t p);

/* Permute N rows of `row` bytes, `pitch` bytes apart, in place: to_mallat
 * moves interleaved row p to lw_ooc_mallat_row(p), else the opposite.
 * Threads split the row bytes.  LW_OK, or LW_ERR_OUT_OF_MEMORY. */
lw_status lw_ooc_permute_rows(void *base, int64_t N, size_t pitch, size_t row, int L, int to_mallat, int threads);

/* ---- the run (ooc_run.c) --------------------------------------------------- */

/* Transform host arrays in -> out (in == out: in place) for plan p through
 * the mover's budget.  The sub-plans and device buffers live for the call. */
lw_status lw_ooc_execute(const lw_plan *p, const lw_ooc_mover *m, const void *in, void *out);

/* What lw_ooc_execute would do for a call in place (inplace 1) or out of
 * place (0), for lw_plan_describe and the tests: the pass over the first item
 * ("slabs": n, Z, E, L1; "groups": items per group) as one line appended to
 * buf. */
lw_status lw_ooc_describe(const lw_plan *p, const lw_ooc_mover *m, int inplace, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
