/* In place without the permutation of host rows (ooc_pass.h, "held rows").
 *
 * In place, slab k may write a host row only once every slab that reads that
 * row from the host has read it.  With one level along axis 0 per pass, the
 * rows that must wait are the highpass half of each forward slab (its Mallat
 * rows lie ahead, in the second half of the array) and the inverse slabs'
 * output in the first half of the array (those host rows hold lowpass rows
 * that slab ~2k reads).  Both wait at most until the streaming has read about
 * half of the array, so at most about a quarter of it waits at any time.
 * They wait on the device in a ring of equal cells, in the order they were
 * made, and go down as soon as the slab that last reads their host rows has
 * its input up.  The ring is sized at plan time by running the same
 * bookkeeping over the slabs without moving anything.
 *
 * Queues: a held copy is made on the slab's queue after its transform and
 * marks EV_HOLD; releases go on a later slab's queue after its own moves,
 * wait for the other queues' EV_HOLD (so every held copy made before is
 * complete) and mark EV_REL; a copy into a cell released on another queue
 * waits for that queue's EV_REL (its last mark is at or after the cell's
 * download). */
#include "ooc_pass.h"

#include <stdlib.h>
#include <string.h>

int lw_ooc_hold_applies(const ooc_pass *P) { return P->inplace && P->t0 && P->mallat && !P->sl.periodic; }

/* the first slab whose extent reaches past host row r (whole rows read in
 * order: the forward), or past index g of its band (the inverse reads the
 * lowpass and the highpass band of level 1 from their Mallat places) */
static int64_t reader_of(const ooc_pass *P, int64_t r)
{
    int b = 0;
    int64_t g = r;
    if (P->in_bands) {
        const int64_t base1 = lw_ooc_band_base(1, 1, P->shape[0]);
        if (r >= base1) b = 1, g = r - base1;
    }
    int64_t lo = 0, hi = P->sl.n - 1;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        int64_t z0, z1, e0, e1;
        lw_ooc_slab_at(&P->sl, mid, &z0, &z1, &e0, &e1);
        const int64_t end = P->in_bands ? e0 / 2 + lw_ooc_band_count(b, 1, e1 - e0) : e1;
        if (end > g) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* the last slab that reads host rows [h0, h1) from the host */
static int64_t last_reader(const ooc_pass *P, int64_t h0, int64_t h1)
{
    int64_t rel = reader_of(P, h1 - 1);
    const int64_t base1 = lw_ooc_band_base(1, 1, P->shape[0]);
    if (P->in_bands && h0 < base1 && h1 > base1) { /* the band's last row decides within each band */
        const int64_t r0 = reader_of(P, base1 - 1);
        if (r0 > rel) rel = r0;
    }
    return rel;
}

/* the downloads of slab k: host rows h0[i].. of cnt[i] rows (the forward: the two bands of
 * level 1 by their Mallat places; the inverse: the core rows) */
static int slab_items(const ooc_pass *P, int64_t k, int64_t *h0, int64_t *cnt)
{
    int64_t z0, z1, e0, e1;
    lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
    if (P->in_bands) {
        h0[0] = z0, cnt[0] = z1 - z0;
        return 1;
    }
    for (int b = 0; b < 2; b++) {
        const int64_t g0 = lw_ooc_band_count(b, 1, z0), g1 = lw_ooc_band_count(b, 1, z1);
        h0[b] = lw_ooc_band_base(b, 1, P->shape[0]) + g0, cnt[b] = g1 - g0;
    }
    return 2;
}

lw_status lw_ooc_hold_size(ooc_pass *P)
{
    P->cells = P->cell_rows = 0;
    if (!P->hold) return LW_OK;
    if (P->sl.L1 != 1) /* one region of whole rows (make_regions), two bands */
        return lw_fail(LW_ERR_INTERNAL, "out of core: held rows need one level along axis 0 per pass");
    int64_t *rel = malloc((size_t)(2 * P->sl.n + 1) * sizeof *rel);
    if (!rel) return lw_fail(LW_ERR_OUT_OF_MEMORY, "out of core: cannot size the held rows");
    int64_t head = 0, tail = 0, peak = 0, rows = 0;
    for (int64_t k = 0; k < P->sl.n; k++) { /* as lw_ooc_run_slab: its rows held, then the releases */
        int64_t h0[2], cnt[2];
        const int n = slab_items(P, k, h0, cnt);
        for (int i = 0; i < n; i++) {
            if (cnt[i] <= 0) continue;
            const int64_t r = last_reader(P, h0[i], h0[i] + cnt[i]);
            if (r <= k) continue;
            rel[tail++] = r;
            if (cnt[i] > rows) rows = cnt[i];
        }
        if (tail - head > peak) peak = tail - head;
        while (head < tail && rel[head] <= k) head++;
    }
    free(rel);
    P->cells = peak, P->cell_rows = rows;
    return LW_OK;
}

/* cnt compact device rows, one contiguous copy on queue q */
static lw_status dev_rows(const ooc_pass *P, char *dst, const char *src, int64_t cnt, int q)
{
    lw_ooc_box b;
    b.row = (size_t)cnt * P->row, b.ny = 1, b.nz = 1;
    b.dpitch = b.spitch = b.dplane = b.splane = b.row;
    return P->mv->copy(P->mv->ctx, LW_OOC_D2D, dst, src, &b, q);
}

static char *cell(const ooc_pass *P, int64_t i)
{
    return (char *)P->hbuf + (size_t)(i % P->cells) * (size_t)P->cell_rows * P->row;
}

static lw_status wait_others(const ooc_pass *P, int ev, int q)
{
    for (int o = 0; o < LW_OOC_QUEUES; o++)
        if (o != q) LW_TRY(P->mv->wait(P->mv->ctx, ev + o, q));
    return LW_OK;
}

void lw_ooc_hold_reset(ooc_pass *P)
{
    P->nheld = P->held0 = 0;
    for (int64_t i = 0; i < P->cells; i++) P->held[i].freed_on = -1;
}

lw_status lw_ooc_hold_down(ooc_pass *P, int64_t k, char *out, int64_t h0, const char *dev, int64_t d0, int64_t cnt,
                           int q)
{
    if (cnt <= 0) return LW_OK;
    const int64_t rel = P->hold ? last_reader(P, h0, h0 + cnt) : k;
    if (rel <= k) return lw_ooc_move_rows(P, LW_OOC_DOWN, out, h0, 1, (char *)dev, d0, cnt, q);
    if (P->nheld >= P->cells || cnt > P->cell_rows)
        return lw_fail(LW_ERR_INTERNAL, "out of core: more rows wait than the ring was sized for");
    const int64_t i = P->held0 + P->nheld;
    struct held *h = &P->held[i % P->cells];
    if (h->freed_on >= 0 && h->freed_on != q) LW_TRY(P->mv->wait(P->mv->ctx, EV_REL + h->freed_on, q));
    LW_TRY(dev_rows(P, cell(P, i), dev + (size_t)d0 * P->row, cnt, q));
    LW_TRY(P->mv->record(P->mv->ctx, EV_HOLD + q, q));
    h->rel = rel, h->h0 = h0, h->cnt = cnt;
    P->nheld++;
    return LW_OK;
}

lw_status lw_ooc_hold_release(ooc_pass *P, int64_t k, char *out, int q)
{
    int waited = 0;
    while (P->nheld > 0 && P->held[P->held0 % P->cells].rel <= k) {
        struct held *h = &P->held[P->held0 % P->cells];
        if (!waited) LW_TRY(wait_others(P, EV_HOLD, q));
        waited = 1;
        LW_TRY(lw_ooc_move_rows(P, LW_OOC_DOWN, out, h->h0, 1, cell(P, P->held0), 0, h->cnt, q));
        h->freed_on = q;
        P->held0++, P->nheld--;
    }
    if (waited) LW_TRY(P->mv->record(P->mv->ctx, EV_REL + q, q));
    return LW_OK;
}
