/* Internal to the out-of-core streaming (ooc_run.c: sizing and order of a
 * pass; ooc_slab.c: what one slab moves, the row permutation in place). */
#ifndef LW_OOC_PASS_H
#define LW_OOC_PASS_H

#include "ooc.h"

/* events: a slot's input complete, a slab's copy from the slot before it
 * done, a queue's last work, the corner's levels done */
enum {
    EV_UP = 0,
    EV_OVL = LW_OOC_QUEUES,
    EV_END = 2 * LW_OOC_QUEUES,
    EV_TAIL = 3 * LW_OOC_QUEUES,
    EV_HOLD = 3 * LW_OOC_QUEUES + 1, /* a queue's last copy into the held rows */
    EV_REL = 4 * LW_OOC_QUEUES + 1,  /* a queue's last download of held rows */
};
_Static_assert(EV_REL + LW_OOC_QUEUES <= LW_OOC_EVENTS, "LW_OOC_EVENTS too small");

#define MAX_SUBS 8
#define SLAB_TARGET ((int64_t)64 << 20) /* bytes of core a slab aims at: a few per GiB keep the copies overlapped */

typedef struct sub_entry {
    int64_t m;
    lw_plan *plan;
    size_t scr;
} sub_entry;

/* One pass: the array it works on (axis 0 cut in slabs) and what it holds. */
typedef struct ooc_pass {
    const lw_plan *p;
    const lw_ooc_mover *mv;
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes, axes[LW_MAX_AXES];
    int t0;                 /* axis 0 is transformed (else a slab is a group of items) */
    size_t es, row;         /* bytes of an element, of an index of axis 0 (compact, on the device) */
    int64_t hs[LW_MAX_RANK]; /* the host array's byte strides (a corner or grid of a larger array: wider) */
    lw_ooc_slabs sl;
    int L;                  /* levels of the transform */
    int coef_in, mallat, inplace;
    int in_bands, out_bands; /* the slot's input / output in Mallat bands along axis 0 */
    int host_bands;         /* the host's coefficients in Mallat bands along axis 0 (else rows) */
    /* in place without the permutation (ooc_hold.c): downloads whose host rows a later slab still
     * reads wait in a ring of `cells` cells of cell_rows rows on the device, released in order */
    int hold;
    int64_t cells, cell_rows;
    void *hbuf;
    struct held { int64_t rel, h0, cnt; int freed_on; } *held; /* freed_on: the queue of the cell's last release */
    int64_t nheld, held0; /* items waiting; index of the first in the ring */
    /* the parts of a row by the levels axis 0 went through (Mallat, see make_regions) */
    int nreg;
    struct region {
        int k;    /* levels along axis 0 */
        int nbox; /* boxes of row positions, [lo, hi) per dim (dim 0 unused) */
        int64_t lo[LW_MAX_AXES][LW_MAX_RANK], hi[LW_MAX_AXES][LW_MAX_RANK];
    } reg[LW_MAX_LEVELS];
    /* coefficients in, out of place, the levels past L1 by a pass of their own (stash_ok: Mallat, tuning
     * ooc_stash): that pass runs first, from the input's corner into the stash (the output's last rows,
     * which no slab has written back when a slab reads them, lw_ooc_stash_applies); the slabs then take the
     * level-L1 corner (st_corner) of their lowpass rows from the stash and the rest of region L1 (st_ring)
     * from the input.  NULL: no stash. */
    int stash_ok;
    const char *stash;
    struct region st_corner, st_ring;
    sub_entry sub[MAX_SUBS];
    int nsub;
    size_t scr_max;
    lw_plan *tail;          /* levels L1+1..L on the compact corner on the device, NULL: none */
    int host_cont;          /* levels L1+1..L by a pass of their own over the host's corner */
    size_t tail_scr;
    int64_t cshape[LW_MAX_RANK];
    size_t crow;            /* bytes of a corner row (an index of its axis 0) */
    int64_t N0;             /* lowpass indices along axis 0 after L1 levels */
    void *slot_in[LW_OOC_QUEUES], *slot_out[LW_OOC_QUEUES], *scr[LW_OOC_QUEUES];
    void *head, *ll, *ll2, *tscr;
    size_t slot_bytes;
    int ahead;              /* slab k+1's host rows begun before slab k runs (mover's up_begin; tuning ooc_ahead) */
    int begin_up;           /* while set, uploads go through up_begin */
} ooc_pass;

static inline int lw_ooc_transformed(const ooc_pass *P, int d)
{
    for (int a = 0; a < P->naxes; a++)
        if (P->axes[a] == d) return 1;
    return 0;
}

static inline size_t lw_ooc_elems_after(const int64_t *shape, int rank, int d)
{
    size_t n = 1;
    for (int i = d + 1; i < rank; i++) n *= (size_t)shape[i];
    return n;
}

/* the level-L1 lowpass rows of a slot: local index i at slot row i * low_stride */
static inline int64_t lw_ooc_low_stride(const ooc_pass *P) { return P->mallat ? 1 : (int64_t)1 << P->sl.L1; }

/* ooc_run.c: the sub-plan of slabs of m rows (made on first use) */
lw_status lw_ooc_sub_for(ooc_pass *P, int64_t m, const sub_entry **out);

/* ooc_slab.c */
/* cnt whole rows: host rows h0, h0 + hs, ... <-> device rows d0.. (compact) */
lw_status lw_ooc_move_rows(const ooc_pass *P, int kind, char *host, int64_t h0, int64_t hs, char *dev, int64_t d0,
                           int64_t cnt, int q);
/* the corner part of cnt lowpass rows, between the full layout (host or device) and the compact corner */
lw_status lw_ooc_corner_rows(const ooc_pass *P, int kind, char *full, int64_t fstride, int on_host, char *comp,
                             int64_t cnt, int to_comp, int q);
/* slab k: its input filled, its transform, its core down (P->ahead: its rows from the host were begun
 * by lw_ooc_prefill, which also made queue k % 3 wait until its slot may be refilled) */
lw_status lw_ooc_run_slab(ooc_pass *P, int64_t k, const char *in, char *out);
lw_status lw_ooc_prefill(ooc_pass *P, int64_t k, const char *in);
/* the host rows between interleaved and Mallat order along axis 0, each part by its levels */
lw_status lw_ooc_permute_host(const ooc_pass *P, char *base, int to_mallat);
/* the stash: its first row in the output; whether the pass takes one (its corner by passes of its own,
 * stash_ok, and no slab reads a stash row from the host that an earlier slab has written back); its
 * first rows to P->head (periodic: the last slab's wrap reads them) */
static inline int64_t lw_ooc_stash_row(const ooc_pass *P) { return P->shape[0] - P->N0; }
int lw_ooc_stash_applies(const ooc_pass *P);
lw_status lw_ooc_stash_head(const ooc_pass *P, int q);

/* ooc_hold.c: in place, held rows.  Whether the pass may hold (in place, axis 0 transformed, Mallat,
 * not periodic), the ring the slabs need (P->cells, P->cell_rows; 0 cells: nothing waits), cnt rows
 * of slab k down to host rows h0.. of `out` now or held, the held rows whose host rows slab k has
 * read (all: k = INT64_MAX) down. */
int lw_ooc_hold_applies(const ooc_pass *P);
lw_status lw_ooc_hold_size(ooc_pass *P);
lw_status lw_ooc_hold_down(ooc_pass *P, int64_t k, char *out, int64_t h0, const char *dev, int64_t d0, int64_t cnt,
                           int q);
lw_status lw_ooc_hold_release(ooc_pass *P, int64_t k, char *out, int q);
void lw_ooc_hold_reset(ooc_pass *P); /* the ring empty, its list allocated */

#endif
