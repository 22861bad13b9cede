/* The 3-D engine's work queue with range splitting (see fast_vol_queue.h). */
#include "fast_vol_queue.h"
#include "fast_internal.h" /* lw_trace_now */

#include <stdlib.h>
#include <string.h>

static uint64_t pack(int64_t pos, int64_t end)
{
    return ((uint64_t)(uint32_t)(int32_t)pos << 32) | (uint64_t)(uint32_t)(int32_t)end;
}

static int64_t pos_of(uint64_t pe) { return (int64_t)(int32_t)(uint32_t)(pe >> 32); }
static int64_t end_of(uint64_t pe) { return (int64_t)(int32_t)(uint32_t)pe; }

/* The last plane "claimed" before a slot's first iteration: its window's
 * first plane less one. */
static int64_t pos_before(const lw_vqueue *q, int64_t o0)
{
    int64_t w0 = o0 - q->E;
    if (!q->periodic && w0 < 0) w0 = 0;
    return w0 - 1;
}

int lw_vq_init(lw_vqueue *q, int64_t nunits, int64_t spare, int64_t E, int64_t n0, int periodic, int64_t smin)
{
    memset(q, 0, sizeof *q);
    if (nunits < 0 || spare < 0 || nunits > INT64_MAX / 2 - spare) return 0;
    q->cap = nunits + spare;
    if ((uint64_t)q->cap > SIZE_MAX / sizeof(lw_vslot)) return 0;
    q->slot = calloc((size_t)q->cap > 0 ? (size_t)q->cap : 1, sizeof(lw_vslot));
    if (!q->slot) return 0;
    q->nunits = nunits;
    q->nslots = nunits;
    q->E = E;
    q->n0 = n0;
    q->periodic = periodic;
    /* planes and ends as int32 in one word: splits need the window in range */
    q->smin = n0 + 4 * E + 4 < INT32_MAX && E >= 0 ? (smin > 0 ? smin : 0) : 0;
    return 1;
}

void lw_vq_unit(lw_vqueue *q, int64_t u, int64_t item, int64_t o0, int64_t o1, int64_t a0, int64_t a1)
{
    lw_vslot *s = &q->slot[u];
    s->item = item;
    s->o0 = o0;
    s->a0 = a0;
    s->a1 = a1;
    s->pe = pack(pos_before(q, o0), o1);
    s->o1 = o1;
    s->state = 0;
}

void lw_vq_free(lw_vqueue *q)
{
    free(q->slot);
    q->slot = NULL;
}

/* Where a split of a slot whose last claimed plane is pos and whose end is e
 * falls: both parts end at about the same time, the slot at its rate rv
 * (planes loaded a second) and the new part at the thief's rate rt, with
 * E planes of halo before s (halo planes are loaded and lifted along dim 0
 * only: about half a plane's work each, so the 2E of them count as E); and
 * the slot's window [.., s + E) still holds every plane claimed so far and
 * the next one. */
static int64_t split_at(const lw_vqueue *q, int64_t pos, int64_t e, double rv, double rt)
{
    int64_t lo = pos + 2 - q->E, s;
    if (!(rv > 0) || !(rt > 0)) rv = rt = 1;
    s = (int64_t)((rv * (double)(e + q->E) + rt * (double)(pos + 1 - q->E)) / (rv + rt) + 0.5);
    return s > lo ? s : lo;
}

/* Whether a slot whose last claimed plane is pos may end at s instead of e:
 * it keeps at least one output plane, at least smin planes go, and it will
 * still claim a plane (pos + 1) inside its new window, which is how it
 * learns of its new end.  (Clamped to the axis, the window of s can end
 * where the slot's loads already did.) */
static int splittable(const lw_vqueue *q, const lw_vslot *c, int64_t pos, int64_t e, int64_t s)
{
    int64_t w1 = s + q->E;
    if (!q->periodic && w1 > q->n0) w1 = q->n0;
    return s > c->o0 && e - s >= q->smin && pos + 1 < w1;
}

/* A running slot's rate so far (planes claimed a second), or 0 when it has
 * claimed too few to tell. */
static double slot_rate(const lw_vslot *c, int64_t pos, double t)
{
    double dt = t - c->t0;
    return pos - c->p0 >= 4 && dt > 0 ? (double)(pos - c->p0) / dt : 0;
}

lw_vslot *lw_vq_take(lw_vqueue *q, int64_t *reserved, double rate)
{
    int64_t u = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED);
    if (u < q->nunits) {
        lw_vslot *w = &q->slot[u];
        w->t0 = lw_trace_now();
        w->p0 = pos_of(w->pe);
        __atomic_store_n(&w->state, 1, __ATOMIC_RELEASE);
        return w;
    }
    if (!q->smin) return NULL;
    for (;;) {
        double t = lw_trace_now();
        /* the running slot whose end the split brings forward the most:
         * planes split off over its rate */
        lw_vslot *v = NULL;
        double best = 0;
        int64_t n = __atomic_load_n(&q->nslots, __ATOMIC_ACQUIRE);
        if (n > q->cap) n = q->cap;
        for (int64_t k = 0; k < n; k++) {
            lw_vslot *c = &q->slot[k];
            if (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != 1) continue;
            uint64_t pe = __atomic_load_n(&c->pe, __ATOMIC_ACQUIRE);
            double rv = slot_rate(c, pos_of(pe), t);
            int64_t e = end_of(pe), s = split_at(q, pos_of(pe), e, rv, rate);
            double gain = (double)(e - s) / (rv > 0 ? rv : rate > 0 ? rate : 1);
            if (splittable(q, c, pos_of(pe), e, s) && gain > best) best = gain, v = c;
        }
        if (!v) return NULL;
        if (*reserved < 0) {
            int64_t r = __atomic_fetch_add(&q->nslots, 1, __ATOMIC_ACQ_REL);
            if (r >= q->cap) return NULL; /* no room for another part */
            *reserved = r;
        }
        uint64_t old = __atomic_load_n(&v->pe, __ATOMIC_ACQUIRE);
        for (;;) {
            int64_t pos = pos_of(old), e = end_of(old), s = split_at(q, pos, e, slot_rate(v, pos, lw_trace_now()), rate);
            if (!splittable(q, v, pos, e, s)) break; /* look again */
            if (__atomic_compare_exchange_n(&v->pe, &old, pack(pos, s), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                lw_vslot *w = &q->slot[*reserved];
                *reserved = -1;
                w->item = v->item;
                w->o0 = s;
                w->a0 = v->a0;
                w->a1 = v->a1;
                w->o1 = e;
                w->p0 = pos_before(q, s);
                w->t0 = lw_trace_now();
                __atomic_store_n(&w->pe, pack(w->p0, e), __ATOMIC_RELAXED);
                __atomic_store_n(&w->state, 1, __ATOMIC_RELEASE);
                return w;
            }
        }
    }
}

int64_t lw_vq_claim(lw_vqueue *q, lw_vslot *s, int64_t i)
{
    if (!q->smin) return s->o1;
    uint64_t old = __atomic_load_n(&s->pe, __ATOMIC_ACQUIRE);
    while (!__atomic_compare_exchange_n(&s->pe, &old, pack(i, end_of(old)), 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    }
    return end_of(old);
}

int64_t lw_vq_end(const lw_vqueue *q, const lw_vslot *s)
{
    return q->smin ? end_of(__atomic_load_n(&s->pe, __ATOMIC_ACQUIRE)) : s->o1;
}

double lw_vq_done(lw_vslot *s)
{
    __atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
    return slot_rate(s, pos_of(__atomic_load_n(&s->pe, __ATOMIC_ACQUIRE)), lw_trace_now());
}
