/* The 3-D engine's work queue (src/cpu/fast_vol_queue.c): units split while
 * they run.  Workers stream planes as vol_sweep does (claim plane i while
 * i < the window's end, then drain) and record the planes they output; every
 * plane of every unit's range must be output exactly once, and every plane a
 * unit claimed must lie inside its final window (what makes the engine's
 * results independent of when a split happens).
 *
 * 1. Simulated workers, interleaved by a seeded random schedule, in one
 *    thread: every interleaving the schedule picks is checked.
 * 2. Real threads (OpenMP) with uneven per-plane delays. */
#include "cpu/fast_vol_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int g_fail, g_checks;

#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        __atomic_fetch_add(&g_checks, 1, __ATOMIC_RELAXED);                                                            \
        if (!(c)) {                                                                                                    \
            if (__atomic_fetch_add(&g_fail, 1, __ATOMIC_RELAXED) < 20) {                                               \
                printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
                printf(__VA_ARGS__);                                                                                   \
                printf("\n");                                                                                          \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)

typedef struct problem {
    int64_t n0, E, strip, items, smin;
    int periodic;
} problem;

static void window(const problem *p, int64_t o0, int64_t o1, int64_t *w0, int64_t *w1)
{
    *w0 = o0 - p->E;
    *w1 = o1 + p->E;
    if (!p->periodic) {
        if (*w0 < 0) *w0 = 0;
        if (*w1 > p->n0) *w1 = p->n0;
    }
}

static int setup(lw_vqueue *q, const problem *p, int64_t spare)
{
    int64_t ns = (p->n0 + p->strip - 1) / p->strip, nunits = p->items * ns;
    if (!lw_vq_init(q, nunits, spare, p->E, p->n0, p->periodic, p->smin)) return 0;
    for (int64_t u = 0; u < nunits; u++) {
        int64_t o0 = (u % ns) * p->strip, o1 = o0 + p->strip < p->n0 ? o0 + p->strip : p->n0;
        lw_vq_unit(q, u, u / ns, o0, o1, 0, 1);
    }
    return 1;
}

/* A worker's state while it runs a slot. */
typedef struct worker {
    lw_vslot *sl;
    int64_t reserved, o0, o1, w1, i, lastclaim;
    double rate;
    int done;
} worker;

/* One step of a worker: take a slot, claim a plane, or finish the slot
 * (output its planes into cover[item * n0 + t]). */
static void step(lw_vqueue *q, const problem *p, worker *w, int *cover, int64_t *steals)
{
    if (w->done) return;
    if (!w->sl) {
        w->sl = lw_vq_take(q, &w->reserved, w->rate);
        if (!w->sl) {
            w->done = 1;
            return;
        }
        if (w->sl - q->slot >= q->nunits) (*steals)++;
        int64_t w0;
        w->o0 = w->sl->o0;
        w->o1 = lw_vq_end(q, w->sl);
        window(p, w->o0, w->o1, &w0, &w->w1);
        w->i = w0;
        w->lastclaim = w0 - 1;
        return;
    }
    if (w->i < w->w1) {
        int64_t e = lw_vq_claim(q, w->sl, w->i), w0;
        CHECK(e <= w->o1 && e > w->o0, "claim: end %lld outside (%lld, %lld]", (long long)e, (long long)w->o0,
              (long long)w->o1);
        w->o1 = e;
        window(p, w->o0, e, &w0, &w->w1);
        CHECK(w->i < w->w1, "claimed plane %lld outside the window end %lld", (long long)w->i, (long long)w->w1);
        w->lastclaim = w->i++;
        return;
    }
    /* drained: the window end never fell below a claimed plane */
    int64_t w0, w1;
    window(p, w->o0, lw_vq_end(q, w->sl), &w0, &w1);
    CHECK(w->lastclaim < w1, "plane %lld claimed beyond the final window end %lld", (long long)w->lastclaim,
          (long long)w1);
    CHECK(lw_vq_end(q, w->sl) == w->o1, "end moved after the last claim");
    for (int64_t t = w->o0; t < w->o1; t++) __atomic_fetch_add(&cover[w->sl->item * p->n0 + t], 1, __ATOMIC_RELAXED);
    double r = lw_vq_done(w->sl);
    if (r > 0) w->rate = r;
    w->sl = NULL;
}

static uint64_t g_rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return g_rng;
}

static void check_cover(const problem *p, const int *cover, const char *what)
{
    int bad = 0;
    for (int64_t k = 0; k < p->items * p->n0; k++) bad += cover[k] != 1;
    CHECK(!bad, "%s: %d planes not output exactly once (n0 %lld E %lld strip %lld smin %lld %s)", what, bad,
          (long long)p->n0, (long long)p->E, (long long)p->strip, (long long)p->smin,
          p->periodic ? "periodic" : "symmetric");
}

static void simulated(void)
{
    const int64_t n0s[] = {1, 5, 9, 40, 64, 256, 301}, Es[] = {1, 2, 4, 6};
    int64_t steals = 0;
    for (size_t a = 0; a < sizeof n0s / sizeof *n0s; a++)
        for (size_t b = 0; b < sizeof Es / sizeof *Es; b++)
            for (int per = 0; per < 2; per++)
                for (int rep = 0; rep < 6; rep++) {
                    problem p = {n0s[a], Es[b], 0, 1 + rep % 2, rep % 3 == 2 ? 0 : 1 + (int64_t)(rnd() % 9), per};
                    p.strip = 1 + (int64_t)(rnd() % (uint64_t)p.n0);
                    int nw = 1 + (int)(rnd() % 7);
                    lw_vqueue q;
                    if (!setup(&q, &p, 4 * nw)) {
                        CHECK(0, "lw_vq_init failed");
                        continue;
                    }
                    int *cover = calloc((size_t)(p.items * p.n0), sizeof(int));
                    worker w[8];
                    memset(w, 0, sizeof w);
                    for (int k = 0; k < nw; k++) w[k].reserved = -1;
                    /* uneven speeds: worker k steps with weight k + 1 */
                    for (int live = nw; live;) {
                        int k = (int)(rnd() % (uint64_t)nw);
                        if (rnd() % (uint64_t)(nw + 1) > (uint64_t)k) continue;
                        step(&q, &p, &w[k], cover, &steals);
                        live = 0;
                        for (int j = 0; j < nw; j++) live += !w[j].done;
                    }
                    check_cover(&p, cover, "simulated");
                    free(cover);
                    lw_vq_free(&q);
                }
    CHECK(steals > 50, "the simulation split only %lld units", (long long)steals);
    printf("simulated: %lld parts split off\n", (long long)steals);
}

static void spin(int64_t n)
{
    volatile double x = 1;
    for (int64_t k = 0; k < n; k++) x = x * 1.0000001 + 1e-9;
}

static void threaded(void)
{
#ifdef _OPENMP
    int64_t steals = 0;
    for (int rep = 0; rep < 8; rep++) {
        problem p = {256, 4, rep < 4 ? 256 : 64, 2, 4, rep & 1};
        int nth = 4 + rep % 3;
        lw_vqueue q;
        if (!setup(&q, &p, 4 * nth)) {
            CHECK(0, "lw_vq_init failed");
            continue;
        }
        int *cover = calloc((size_t)(p.items * p.n0), sizeof(int));
        int64_t st = 0;
#pragma omp parallel num_threads(nth) reduction(+ : st)
        {
            worker w;
            memset(&w, 0, sizeof w);
            w.reserved = -1;
            int tid = omp_get_thread_num();
            while (!w.done) {
                if (w.sl && w.i < w.w1) spin(2000 * (1 + 2 * (tid % 2))); /* odd threads 3x slower */
                step(&q, &p, &w, cover, &st);
            }
        }
        steals += st;
        check_cover(&p, cover, "threaded");
        free(cover);
        lw_vq_free(&q);
    }
    CHECK(steals > 0, "threads split no unit");
    printf("threaded: %lld parts split off\n", (long long)steals);
#else
    printf("threaded: SKIP (built without OpenMP)\n");
#endif
}

int main(void)
{
    simulated();
    threaded();
    printf("test_vol_queue: %d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
