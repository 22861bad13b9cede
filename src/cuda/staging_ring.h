/* The stager (staging_ring.c) and host buffer holds (staging_pin.c): the
 * CUDA side of staging.h. */
#ifndef LW_STAGING_RING_H
#define LW_STAGING_RING_H

#include "lw_cuda.h"
#include "staging.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A ring of pinned buffers with its copy threads; one per execution context
 * (never shared by two calls at once). */
typedef struct lw_stager lw_stager;

lw_status lw_stager_new(const lw_stage_cfg *cfg, lw_stager **out);
void lw_stager_free(lw_stager *s);

/* Enqueue the move of a box on st.  direct: the host side is pinned (or
 * registered): one copy engine transfer.  Otherwise through the ring: an
 * upload returns once its last chunk is in a ring buffer (the caller may
 * then reuse nothing of the device side until st says so, as with any
 * asynchronous copy); a download leaves chunks pending in the ring, and the
 * host buffer holds the data only after lw_stage_drain.  direct ==
 * LW_STAGE_DEVICE: the "host" side is the caller's device array: a copy on
 * the device, none when both sides are the same place. */
#define LW_STAGE_DEVICE 2 /* direct: the "host" side is device memory too (one side on the device) */
lw_status lw_stage_up(lw_stager *s, const lw_box *b, const void *host, void *dev, int direct, cudaStream_t st);
lw_status lw_stage_down(lw_stager *s, const lw_box *b, void *host, const void *dev, int direct, cudaStream_t st);
/* An upload in two halves, so that the next box's chunks are copied in
 * while the caller still waits for (or works on) the previous one: _begin
 * hands the box to the copy threads and returns at once (direct moves are
 * enqueued on st right away); _end returns once every chunk's copy is
 * enqueued on st, like lw_stage_up.  Every begun upload must be ended (at
 * most 8 at a time), or the stager aborted; ticket 0 means nothing to wait
 * for. */
typedef unsigned long long lw_stage_ticket;
lw_status lw_stage_up_begin(lw_stager *s, const lw_box *b, const void *host, void *dev, int direct, cudaStream_t st,
                           lw_stage_ticket *t);
lw_status lw_stage_up_end(lw_stager *s, lw_stage_ticket t);
/* Wait for every pending download and copy it out to the host. */
lw_status lw_stage_drain(lw_stager *s);
/* After a failure: wait for the ring's copies, drop pending downloads and
 * uploads begun and not ended. */
void lw_stage_abort(lw_stager *s);
/* The configuration it was made with. */
const lw_stage_cfg *lw_stager_cfg(const lw_stager *s);

/* Copy a box between two pitched places on st (any kind): one 1-D, 2-D or
 * 3-D copy where the pitches allow, else one 2-D copy per plane. */
cudaError_t lw_copy_box(void *dst, size_t dpitch, size_t dplane, const void *src, size_t spitch, size_t splane,
                        size_t row, int64_t ny, int64_t nz, enum cudaMemcpyKind kind, cudaStream_t st);

/* How the host side of one call is moved: pinned by the user, registered
 * by the library for the call (shared by concurrent calls on the same range,
 * unregistered by the last), or pageable (staged). */
enum { LW_HOST_PAGEABLE = 0, LW_HOST_PINNED = 1, LW_HOST_REGISTERED = 2,
       LW_HOST_NOT_HOST = 3 /* device memory passed as a host pointer: the call refuses it */ };
typedef struct lw_host_hold {
    int how;
    void *reg; /* the registration held (LW_HOST_REGISTERED) */
} lw_host_hold;

/* Classify [p, p+bytes); with want_register, register it when pageable
 * (a failed registration leaves it pageable: it is then staged). */
void lw_host_hold_begin(const void *p, size_t bytes, int want_register, lw_host_hold *h);
/* Release a hold (after the call's copies have finished). */
void lw_host_hold_end(lw_host_hold *h);

#ifdef __cplusplus
}
#endif

#endif
