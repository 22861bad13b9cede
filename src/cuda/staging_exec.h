/* Host-pointer runs of the CUDA backend (staging_exec.c): how the moves of
 * one call are scheduled against its kernels. */
#ifndef LW_STAGING_EXEC_H
#define LW_STAGING_EXEC_H

#include "cuda_exec.h"
#include "staging_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one call has: the plan, its execution context's buffers and streams,
 * how in and out move, and, for 2-D pyramids, the plan of levels 2..L on
 * the level-1 lowpass band (hr x hc, device pointers). */
typedef struct lw_host_call {
    const lw_plan *p;
    const lw_cuda_sched *s;
    lw_stager *stg;
    cudaStream_t st[3];
    cudaEvent_t ev[3];
    void *d_in, *d_out, *d_scr;
    void *d_ll, *d_ll2;         /* compact level-1 lowpass band / octant, before and after levels 2..L */
    int din, dout;              /* in / out go straight through the copy engines */
    const lw_plan *tail;        /* levels 2..L on the level-1 lowpass band (2-D) or octant (3-D); NULL: none;
                                 * band2: levels 3..L on the level-2 lowpass band */
    int band2;                  /* 2-D pyramids: level 2 in row bands beside level 1's */
    const lw_cuda_sched *tail_s;
    /* 3-D one level in slabs (staging_slabs.c); slab plans by shape (lw_slab_kind), NULL: none */
    const lw_slabs *sl;
    const lw_plan *slab[3];
    const lw_cuda_sched *slab_s[3];
    void *d_sin[3], *d_sout[3], *d_sscr[3]; /* per stream: a slab's input (inverse), output, scratch */
    /* batches in groups of items (staging_items.c): slab[0] a group's plan, slab[1] the last group's */
    int64_t per, groups;        /* items per group, groups; 0: none */
    int whole;                  /* 1: upload, run p whole, download (no pipeline) */
} lw_host_call;

/* The uploads of one step of a pipeline (a band, a slab), begun while the
 * previous step's are still being copied in (lw_stage_up_begin), so that
 * the copy threads always have a box to copy; lw_host_ups_end waits for
 * them all.  A step has at most LW_HOST_UPS boxes. */
#define LW_HOST_UPS 4
typedef struct lw_host_ups {
    lw_stage_ticket t[LW_HOST_UPS];
    int n;
} lw_host_ups;
lw_status lw_host_up_begin(lw_host_call *h, lw_host_ups *u, const lw_box *b, const void *host, void *dev,
                          cudaStream_t st);
lw_status lw_host_ups_end(lw_host_call *h, lw_host_ups *u);

/* A device-pointer sub-plan's configuration for part of plan p's work: p's
 * wavelet, dtype, mode, direction, integer variant and band gains, on cuda;
 * the caller sets the shape, layout, levels and flags. */
void lw_host_sub_config(const lw_plan *p, lw_config *cfg);

/* The tail plan of a 2-D pyramid, as the pyramid path needs it: fills cfg
 * and returns 1, or 0 when the plan does not take that path (engine, rank,
 * layout, levels, periodic inverse).  *band2: level 2 runs in bands too,
 * and the tail is levels 3..L on the level-2 lowpass band; else levels 2..L
 * on the level-1 one. */
int lw_host_pyramid_tail_config(const lw_plan *p, const lw_cuda_sched *s, lw_config *cfg, int *band2);

/* The slab plans of a 3-D volume's level 1 (device pointers, one level,
 * shapes by lw_slab_kind; the inverse ones may destroy their input) and,
 * for a pyramid, the tail plan of levels 2..L on the lowpass octant (rank 0
 * when one level): fills sl, cfg and tail and returns 1, or 0 when the plan
 * does not take that path (rank, layout, periodic, non-separable wavelet,
 * an engine named, fewer than 3 slabs).  want: slabs asked for (tuning
 * host_slabs; 0: 16; 1, 2: none). */
int lw_host_slab_configs(const lw_plan *p, int64_t want, lw_slabs *sl, lw_config cfg[3], lw_config *tail);
/* A 3-D volume in slabs (staging_slabs.c): in != out, h->sl set, h->tail
 * the octant's plan for a pyramid. */
lw_status lw_host_run_slabs(lw_host_call *h, const void *in, void *out);
/* Batches whose transformed axes are the trailing ones, in groups of about
 * 1/want of the items (want 0: 16; 1, 2: none): the plans of a group and of
 * the last group (device pointers, axes 1..naxes), *per items each, *groups
 * groups; 1, or 0 when the plan does not take that path (device pointers,
 * no batch dimension, other axes, an engine named, fewer than 3 groups). */
int lw_host_item_configs(const lw_plan *p, int64_t want, int64_t *per, int64_t *groups, lw_config cfg[2]);
/* A batch in groups (staging_items.c): in != out, h->groups set. */
lw_status lw_host_run_items(lw_host_call *h, const void *in, void *out);
/* Wait for the staged downloads and the streams. */
lw_status lw_host_finish(lw_host_call *h);
/* stream `to` of the call waits for what its other streams have queued so far */
lw_status lw_host_join(lw_host_call *h, int to);

/* Run one call.  Chooses: one-level 2-D in row bands; 2-D pyramids with
 * level 1 in row bands and levels 2..L on the lowpass band (h->tail);
 * 3-D in slabs (h->sl; pyramids with h->tail); batches in groups of items
 * (h->groups); else
 * the whole array up, transform, down.  The bands need in != out and at
 * least 256 rows.  Returns once out holds the result. */
lw_status lw_host_run(lw_host_call *h, const void *in, void *out);

#ifdef __cplusplus
}
#endif

#endif
