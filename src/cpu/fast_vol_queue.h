/* The 3-D engine's work queue: units (an item, a tile of dim 1, a range of
 * planes of dim 0) handed out in order, then split while they run.
 *
 * A unit streams its planes through a ring: plane i is loaded at iteration i
 * of its window [o0 - E, o1 + E) (clamped to the axis except when periodic).
 * Before loading a plane the unit claims it (lw_vq_claim): it publishes the
 * plane and reads its current end o1.  A thread with no unit left takes the
 * back part of the running unit with the most planes still to load
 * (lw_vq_take): it moves that unit's end from o1 to s, so that the unit's
 * new window still holds every plane already claimed, and runs [s, o1) as a
 * unit of its own (recomputing its halo).  s is chosen from the two threads'
 * rates so that both parts end together.  The two words (last claimed plane,
 * end) are one 64-bit atomic, so a claim and a split never interleave.
 *
 * Why: on a shared host some cores run far slower than others (measured on
 * the 16-vCPU Xeon: 3-4 threads of 16 took 1.6x as long on equal units), and
 * with one unit a thread the slowest sets the time. */
#ifndef LW_FAST_VOL_QUEUE_H
#define LW_FAST_VOL_QUEUE_H

#include <stdint.h>

typedef struct lw_vslot {
    uint64_t pe;             /* (last claimed plane, end) as two int32; atomic */
    int state;               /* 0 free or waiting, 1 running, 2 done; atomic */
    int64_t item, o0, a0, a1; /* fixed once the slot runs */
    int64_t o1;               /* the end when splits are off */
    int64_t p0;               /* the plane claimed before its first one */
    double t0;                /* when it started (CLOCK_MONOTONIC s) */
} lw_vslot;

typedef struct lw_vqueue {
    lw_vslot *slot;
    int64_t cap;    /* slots: the units first, then room for the split-off parts */
    int64_t nunits; /* units to hand out in order */
    int64_t next;   /* next unit to hand out; atomic */
    int64_t nslots; /* slots used; atomic */
    int64_t E, n0;  /* halo planes; length of dim 0 */
    int periodic;
    int64_t smin;   /* fewest planes of output split off (0: no splits) */
} lw_vqueue;

/* Slots for nunits units and up to `spare` split-off parts: 0 when the size
 * overflows or malloc fails.  lw_vq_unit fills unit u; lw_vq_free frees. */
int lw_vq_init(lw_vqueue *q, int64_t nunits, int64_t spare, int64_t E, int64_t n0, int periodic, int64_t smin);
void lw_vq_unit(lw_vqueue *q, int64_t u, int64_t item, int64_t o0, int64_t o1, int64_t a0, int64_t a1);
void lw_vq_free(lw_vqueue *q);

/* The next slot for this thread (marked running), or NULL when nothing is
 * left.  *reserved: this thread's reserved spare slot (-1 at first); rate:
 * this thread's planes a second in its last slot (0: unknown), to size the
 * part it splits off a slower thread's slot. */
lw_vslot *lw_vq_take(lw_vqueue *q, int64_t *reserved, double rate);

/* Claims plane i of a running slot; returns the slot's current end o1 (its
 * window must hold i: it does, by the split rule). */
int64_t lw_vq_claim(lw_vqueue *q, lw_vslot *s, int64_t i);

/* The slot's current end (before its first claim). */
int64_t lw_vq_end(const lw_vqueue *q, const lw_vslot *s);

/* Marks a slot done; returns its rate (planes claimed a second, 0 if too
 * few to tell). */
double lw_vq_done(lw_vslot *s);

#endif
