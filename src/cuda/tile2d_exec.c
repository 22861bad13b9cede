/* The fused 2-D engine's levels (forward: level 1 down; inverse: the small
 * engine's tail, then upward), and a batch of planes in groups, one a stream
 * (tuning tile2d_groups): a group's lower levels, too small to fill the
 * device, overlap the next group's first level; and the stream of d4's end
 * tiles (tuning tile2d_side, lwk_tile2d.side). */
#include "cuda_exec.h"

#include <stdlib.h>
#include <string.h>

/* plane pl from item b0 of the batch's first dimension on */
static lwk_plane from_item(lwk_plane pl, int64_t b0, size_t es)
{
    pl.p = (const char *)pl.p + (size_t)(b0 * pl.bs[0]) * es;
    return pl;
}

/* Every level on items [b0, b0 + nb) of the batch's first dimension (nb 0: the whole batch) */
static lw_status tile2d_levels(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                               cudaStream_t st, lwk_side *side, int64_t b0, int64_t nb)
{
    const int L = p->geo.levels;
    const size_t es = s->esize;
    void *B[LW_MAX_LEVELS + 1];
    B[0] = out;
    /* the LL workspace: inside in (forward, bands) or out (inverse, bands) */
    char *ws = s->fwd_bands ? (char *)in : s->inv_bands ? (char *)out : (char *)scratch;
    for (int k = 1; k <= L; k++) B[k] = ws + s->scr_off[k % 2];
#define PLANE(base, k, compact) from_item(lw_cuda_plane_of(p, (base), (k), (compact)), b0, es)
    lwk_tile2d t;
#define SETUP(k) \
    (lw_cuda_tile_setup(p, s, (k), &t), t.blen[0] = nb ? nb : t.blen[0], t.side = side)
    if (p->cfg.direction == LW_FORWARD) {
        lwk_plane src = PLANE(in, 0, 0);
        for (int k = 0; k < L; k++) {
            if (k == 0 && s->fwd_bands) { /* level 1 in row bands, LL1 into in */
                SETUP(0);
                LW_TRY(lw_bands_run_fwd(s, &t, in, out, st));
                src = PLANE(B[1], 1, 1);
                continue;
            }
            if (k == s->small_from) {
                lwk_small sm;
                lw_cuda_small_setup(p, s, k, &sm);
                sm.sst[0] = src.rs, sm.sst[1] = 1;
                for (int i = 0; i < sm.nb; i++) sm.bsst[i] = src.bs[i];
                CK(lwk_small_launch(s->dtype, &sm, src.p, out, st), "cuda small kernel launch");
                return LW_OK;
            }
            const int last = k == L - 1;
            SETUP(k);
            lwk_plane det = PLANE(out, k, 0);
            lwk_plane ll = last || k + 1 == s->small_from ? det : PLANE(B[k + 1], k + 1, 1);
            CK(lwk_tile2d_forward(s->dtype, &t, src, ll, det, st), "cuda tile2d kernel launch");
            src = ll;
        }
        return LW_OK;
    }
    const int ks = s->small_from;
    if (ks < L) {
        lwk_small sm;
        lw_cuda_small_setup(p, s, ks, &sm);
        lwk_plane d = PLANE(B[ks], ks, 1);
        sm.dst_[0] = d.rs, sm.dst_[1] = 1;
        for (int i = 0; i < sm.nb; i++) sm.bdst[i] = d.bs[i];
        CK(lwk_small_launch(s->dtype, &sm, in, B[ks], st), "cuda small kernel launch");
    }
    for (int k = ks - 1; k >= 0; k--) {
        SETUP(k);
        lwk_plane det = PLANE(in, k, 0);
        lwk_plane ll = k == L - 1 ? det : PLANE(B[k + 1], k + 1, 1);
        if (k == 0 && s->inv_bands) { /* level 1 in row bands from LL1 at out's start */
            LW_TRY(lw_bands_run_inv(s, &t, in, out, scratch, st));
            break;
        }
        lwk_plane dst = k == 0 ? PLANE(out, 0, 0) : PLANE(B[k], k, 1);
        CK(lwk_tile2d_inverse(s->dtype, &t, ll, det, dst, st), "cuda tile2d kernel launch");
    }
    return LW_OK;
#undef SETUP
#undef PLANE
}

static lw_status tile2d_groups(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                               cudaStream_t st)
{
    const int G = s->t2_groups;
    /* fork: groups 1.. on the plan's streams after what st holds; join: st waits for them */
    CK(cudaEventRecord(s->t2_ev[0], st), "cudaEventRecord (groups' fork)");
    for (int g = 1; g < G; g++) CK(cudaStreamWaitEvent(s->t2_st[g - 1], s->t2_ev[0], 0), "cudaStreamWaitEvent (fork)");
    const int64_t n = s->t2_items;
    for (int g = 0; g < G; g++) {
        const int64_t b0 = n * g / G, b1 = n * (g + 1) / G;
        /* a group's own end-tile stream: one shared would order a group's first level after another's */
        lwk_side *side = s->t2_side ? &s->t2_side[g] : NULL;
        LW_TRY(tile2d_levels(p, s, in, out, scratch, g ? s->t2_st[g - 1] : st, side, b0, b1 - b0));
    }
    for (int g = 1; g < G; g++) {
        CK(cudaEventRecord(s->t2_ev[g], s->t2_st[g - 1]), "cudaEventRecord (groups' join)");
        CK(cudaStreamWaitEvent(st, s->t2_ev[g], 0), "cudaStreamWaitEvent (join)");
    }
    return LW_OK;
}

lw_status lw_tile2d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st)
{
    if (!s->t2_mu_ok) return tile2d_levels(p, s, in, out, scratch, st, NULL, 0, 0);
    /* the plan forks (groups, end tiles' streams): its events are shared by calls from several threads,
     * so the forks, launches and joins are issued under the plan's lock (an execute modifies nothing else) */
    pthread_mutex_t *mu = (pthread_mutex_t *)&s->t2_mu;
    if (pthread_mutex_lock(mu) != 0) return lw_fail(LW_ERR_INTERNAL, "pthread_mutex_lock (tile2d streams)");
    const lw_status r = s->t2_groups > 1 ? tile2d_groups(p, s, in, out, scratch, st)
                                         : tile2d_levels(p, s, in, out, scratch, st, s->t2_side, 0, 0);
    pthread_mutex_unlock(mu);
    return r;
}

/* the auto rule's bounds: levels (two or more), items along the batch's first dimension, samples in all */
#define GROUPS_AUTO_LEVELS 2
#define GROUPS_AUTO_ITEMS 16
#define GROUPS_AUTO_SAMPLES ((int64_t)16 << 20)

void lw_tile2d_streams_plan(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    s->t2_side_on = p->tune.tile2d_side && lw_cuda_mirror_refreshed(p);
    s->t2_groups = 1;
    int64_t first = 0; /* the batch's first dimension */
    for (int i = 0; i < g->rank && !first; i++)
        if (!lw_geo_is_axis(g, i)) first = g->shape[i];
    /* auto: two groups for forward pyramids of large batches, where the second group's first level
     * fills the device while the first group's small lower levels trail; not the inverse, whose small
     * coarse levels come first and found no first level to hide behind (measured: bench/NOTES-tile2d.md) */
    int64_t want = p->tune.tile2d_groups;
    if (want == 0)
        want = p->cfg.direction == LW_FORWARD && g->levels >= GROUPS_AUTO_LEVELS && first >= GROUPS_AUTO_ITEMS &&
                       g->total >= GROUPS_AUTO_SAMPLES
                   ? 2
                   : 1;
    /* whole levels on every group: no bands (they split level 1 by rows or planes) nor small-engine tail */
    if (want < 2 || s->fwd_bands || s->inv_bands || s->small_from < g->levels || first < want) return;
    s->t2_groups = (int)want;
    s->t2_items = first;
}

static lw_status stream_create(cudaStream_t *st)
{
    return lw_cuda_check(cudaStreamCreateWithFlags(st, cudaStreamNonBlocking), "cudaStreamCreate");
}

static lw_status event_create(cudaEvent_t *ev)
{
    return lw_cuda_check(cudaEventCreateWithFlags(ev, cudaEventDisableTiming), "cudaEventCreate");
}

lw_status lw_tile2d_streams_create(lw_cuda_sched *s)
{
    lw_status st = LW_OK;
    if (s->t2_groups < 2 && !s->t2_side_on) return st; /* the plan does not fork */
    if (pthread_mutex_init(&s->t2_mu, NULL) != 0) return lw_fail(LW_ERR_INTERNAL, "pthread_mutex_init");
    s->t2_mu_ok = 1;
    if (s->t2_groups > 1) {
        for (int i = 0; i < s->t2_groups && st == LW_OK; i++) {
            if (i > 0) st = stream_create(&s->t2_st[i - 1]);
            if (st == LW_OK) st = event_create(&s->t2_ev[i]);
        }
    }
    if (!s->t2_side_on || st != LW_OK) return st;
    const int n = s->t2_groups > 1 ? s->t2_groups : 1;
    s->t2_side = calloc((size_t)n, sizeof *s->t2_side);
    if (!s->t2_side) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the end tiles' streams");
    for (int g = 0; g < n && st == LW_OK; g++) {
        lwk_side *sd = &s->t2_side[g];
        s->t2_nside = g + 1;
        st = stream_create(&sd->st);
        for (int i = 0; i < 2 && st == LW_OK; i++) st = event_create(&sd->ev[i]);
    }
    return st;
}

void lw_tile2d_streams_release(lw_cuda_sched *s)
{
    for (int i = 0; i < LW_T2_GROUPS_MAX; i++) {
        if (s->t2_ev[i]) cudaEventDestroy(s->t2_ev[i]);
        if (i > 0 && s->t2_st[i - 1]) cudaStreamDestroy(s->t2_st[i - 1]);
        s->t2_ev[i] = NULL;
        if (i > 0) s->t2_st[i - 1] = NULL;
    }
    for (int g = 0; g < s->t2_nside; g++) {
        lwk_side *sd = &s->t2_side[g];
        for (int i = 0; i < 2; i++)
            if (sd->ev[i]) cudaEventDestroy(sd->ev[i]);
        if (sd->st) cudaStreamDestroy(sd->st);
    }
    free(s->t2_side);
    s->t2_side = NULL, s->t2_nside = 0;
    if (s->t2_mu_ok) pthread_mutex_destroy(&s->t2_mu);
    s->t2_mu_ok = 0;
}
