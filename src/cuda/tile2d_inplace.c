/* 2-D transforms by the fused in-place engines, level by level: the strip
 * walker (k_walk2d.cu) where it runs every level, else the tile kernel
 * (k_tile2d_ip.cu):
 *   - the interleaved layout (engine "tile2d-il"), in place or out of place:
 *     each level on its grid of step 2^k, coefficients where their samples
 *     were; out of place the first level reads the input (forward) or the
 *     details come from it (inverse), the rest runs in place on out; where
 *     the columns are contiguous, out of place, one level or a forward
 *     pyramid runs tile2d_il_oop.c's route instead (the fused 2-D tiles, no
 *     neighbour to wait for; a pyramid's levels 2.. by a Mallat plan);
 *   - the Mallat layout in place (the tile2d engine's in == out): each level
 *     lifted in place on its corner region, then its rows moved along the
 *     cycles of the row permutation with their columns reordered on the way
 *     (k_rowcycle.cu); the inverse reorders back first, coarsest level first.
 * Workspace: the walker's counters (one a block, none with one strip a
 * plane) or the tile kernel's stash ring and flags (at most 0.5% of the
 * array, 512 KiB below 100 MiB), and the row reorder's flags where it cuts
 * cycles in segments (an int a segment and plane); the plan holds each level's
 * cycle segments. */
#include "cuda_exec.h"
#include "core/cycles.h"
#include "core/line_geom.h"

#include <stdlib.h>
#include <string.h>

/* workspace bound: half of the in-place limit (1% of the array, 1 MiB below
 * 100 MiB), leaving room for the allocator's granularity */
#define IP_BUDGET_DIV 200
#define IP_BUDGET_SMALL ((size_t)512 << 10)
/* tiles in flight the ring serves beyond one row of tiles (fewer when the
 * budget is small, never fewer than IP_MIN_SPARE) */
#define IP_SPARE 1024
#define IP_MIN_SPARE 16

typedef struct ip_geo {
    int tw, th, halo;
    size_t csize;
} ip_geo;

static void dims_of(const lw_cuda_sched *s, ip_geo *d)
{
    lwk_tile2d_ip_dims(s->dtype, s->w.id, &d->tw, &d->th, &d->halo, &d->csize);
}

/* the batch dimensions (every array dimension but the two axes) */
static int batch_of(const lw_plan *p, int64_t blen[2], int64_t bs[2])
{
    const lw_geometry *g = &p->geo;
    int nb = 0;
    blen[0] = blen[1] = 1, bs[0] = bs[1] = 0;
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) {
            if (nb == 2) return 0;
            blen[nb] = g->shape[i], bs[nb] = g->strides[i], nb++;
        }
    return 1;
}

static int64_t tiles_of(const lw_plan *p, const ip_geo *d, int k, int64_t nbatch)
{
    const int64_t *n = p->geo.len[k];
    return ((n[0] + d->th - 1) / d->th) * ((n[1] + d->tw - 1) / d->tw) * nbatch;
}

/* The path's workspace for this plan; 0 when its geometry does not suit it
 * or the workspace would exceed the budget. */
typedef struct ip_sizes {
    int64_t slots;
    int64_t lead_off[LW_MAX_LEVELS], lead_n[LW_MAX_LEVELS], nlead; /* Mallat: the row reorder's segments
                                                                      (int32 offset, count; int32 in all) */
    int64_t walkers[LW_MAX_LEVELS];                                 /* the blocks it cuts cycles for, */
    int cut[LW_MAX_LEVELS];                                         /* whether it does, */
    int64_t rc_flags;                                               /* its flags (ints) where it does */
    size_t rc_flag_off;
    size_t flag_off, bytes;
    int walk;                                /* the walker runs every level */
    size_t stash_off;                        /* its stash, after its counters */
    int tile_ok;                             /* the tile kernel runs every level too, */
    size_t tile_bytes;                       /* with this workspace */
    struct lw_walk_level wl[LW_MAX_LEVELS]; /* its blocks */
} ip_sizes;

/* every level's row-cycle segments few enough to travel as a kernel parameter
 * (and no level cuts cycles: its flags need device memory anyway) */
static int leaders_inline(const lw_plan *p, const ip_sizes *z)
{
    for (int k = 0; k < p->geo.levels; k++)
        if (z->cut[k] || 3 * z->lead_n[k] > LWK_ROWCYCLE_INLINE) return 0;
    return 1;
}

/* Level k's row reorder: its cycles as segments, cut for as many blocks as
 * the device holds where the cycles of all planes are fewer (then with a
 * flag a segment and plane).  0 where the reorder cannot run. */
static int reorder_sizes(const lw_plan *p, const lw_cuda_sched *s, int k, int64_t planes, ip_sizes *z)
{
    const int64_t rows = p->geo.len[k][0], cols = p->geo.len[k][1];
    const int inv = p->cfg.direction == LW_INVERSE;
    if (cols > lwk_rowcycle_max_cols(s->dtype)) return 0;
    int64_t resident = 0;
    if (lwk_rowcycle_resident(s->dtype, cols, &resident) != cudaSuccess) resident = 0, (void)cudaGetLastError();
    const int64_t walkers = planes <= resident ? resident / planes : 0;
    const int64_t cycles = lw_mallat_cycle_segments(rows, inv, 0, NULL, 0);
    const int64_t n = lw_mallat_cycle_segments(rows, inv, walkers, NULL, 0);
    if (cycles < 0 || n < 0) return 0;
    z->walkers[k] = walkers;
    z->cut[k] = n > cycles;
    z->lead_off[k] = z->nlead;
    z->lead_n[k] = n;
    z->nlead += 3 * n;
    if (z->cut[k] && n * planes > z->rc_flags) z->rc_flags = n * planes;
    return 1;
}

/* rows segments a plane at most (each adds a stash of 2H rows) */
#define WALK_MAX_SEGS 8
/* bytes kept for the walker's counters when its stash is sized (one 4-byte
 * counter a resident block) */
#define WALK_FLAGS_RESERVE ((size_t)64 << 10)

/* The walker's blocks for level k: whole rows (wide) where the planes alone
 * fill the device or strips would need counters that may not be had
 * (allow_ws 0: no workspace), else strips of columns with plane groups up to
 * what is resident; where the planes are fewer than that, their rows cut in
 * segments (a stash of 2H rows at each cut, and in periodic mode at the
 * wrap), as many as stash_cap bytes of stash allow.  0 when it does not run the level. */
static int walk_level(const lw_plan *p, const lw_cuda_sched *s, int k, int allow_ws, size_t stash_cap,
                      struct lw_walk_level *o)
{
    const int64_t R = p->geo.len[k][0], C = p->geo.len[k][1], P = s->nbatch;
    const int inv = p->cfg.direction == LW_INVERSE, per = p->cfg.mode == LW_PERIODIC;
    int sw = 0, h = 0, sww = 0, bh = 0, bhw = 0, dev = 0, sms = 0;
    int64_t capw = 0, caps = 0;
    memset(o, 0, sizeof *o);
    if (!lwk_walk2d_dims(s->dtype, s->w.id, 0, &sw, &bh, &h) || !lwk_walk2d_dims(s->dtype, s->w.id, 1, &sww, &bhw, &h))
        return 0;
    if (!lwk_tile2d_supported(s->dtype, &s->w, (int)p->cfg.mode, R, C)) return 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        lwk_walk2d_capacity(s->dtype, s->w.id, inv, 0, &caps) != cudaSuccess ||
        lwk_walk2d_capacity(s->dtype, s->w.id, inv, 1, &capw) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    const int64_t S = (C + sw - 1) / sw;
    /* a periodic ring of strips: the last one holds the halo its neighbour
     * reads (the window's margin: the halo rounded up to 16 bytes) */
    const int strips_ok = S <= caps && (S == 1 || allow_ws) && !(per && S > 1 && C - (S - 1) * sw < ((h + 3) & ~3));
    const int wide_ok = C <= sww && capw > 0;
    if (wide_ok && (!strips_ok || (S > 1 && P >= sms))) {
        o->wide = 1, o->strips = 1, o->groups = P < capw ? P : capw;
    } else if (strips_ok) {
        o->strips = S, o->groups = P < caps / S ? P : caps / S;
    } else {
        return 0;
    }
    o->per_group = (P + o->groups - 1) / o->groups;
    o->groups = (P + o->per_group - 1) / o->per_group;
    const int64_t nb = (R + (o->wide ? bhw : bh) - 1) / (o->wide ? bhw : bh), cap = o->wide ? capw : caps;
    o->vsegs = 1, o->vbands = nb;
    if (allow_ws && o->groups == P) {
        int64_t v = cap / (o->strips * P);
        const size_t cut = (size_t)P * (size_t)(2 * h) * (size_t)C * s->esize; /* stash bytes a cut */
        if (v > nb) v = nb;
        if (v > WALK_MAX_SEGS) v = WALK_MAX_SEGS;
        if (v > 1 && (size_t)LWK_WALK2D_EDGES(v, per) > stash_cap / cut) v = (int64_t)(stash_cap / cut) + 1 - per;
        if (v >= 2) o->vbands = (nb + v - 1) / v, o->vsegs = (nb + o->vbands - 1) / o->vbands;
    }
    return 1;
}

/* the walker for every level: its counters' bytes in *flags, its stash's in
 * *stash (the largest level's, at most stash_cap) */
static int walk_levels(const lw_plan *p, const lw_cuda_sched *s, int allow_ws, size_t stash_cap, ip_sizes *z,
                       size_t *flags, size_t *stash)
{
    int64_t n = 0;
    size_t st = 0;
    int sw = 0, bh = 0, h = 0;
    lwk_walk2d_dims(s->dtype, s->w.id, 0, &sw, &bh, &h);
    for (int k = 0; k < p->geo.levels; k++) {
        const struct lw_walk_level *l = &z->wl[k];
        if (!walk_level(p, s, k, allow_ws, stash_cap, &z->wl[k])) return 0;
        if (l->strips > 1 && l->strips * l->groups * l->vsegs > n) n = l->strips * l->groups * l->vsegs;
        const size_t b = (size_t)s->nbatch * (size_t)LWK_WALK2D_EDGES(l->vsegs, p->cfg.mode == LW_PERIODIC) * (size_t)(2 * h) *
                         (size_t)p->geo.len[k][1] * s->esize;
        if (b > st) st = b;
    }
    *flags = n ? ((size_t)n * sizeof(unsigned) + 255) & ~(size_t)255 : 0;
    *stash = (st + 255) & ~(size_t)255;
    return 1;
}

/* the tile kernel's ring of stash slots and its flags for this plan */
static int tile_sizes(const lw_plan *p, const lw_cuda_sched *s, ip_sizes *z)
{
    const lw_geometry *g = &p->geo;
    ip_geo d;
    dims_of(s, &d);
    const int64_t ntc = (g->len[0][1] + d.tw - 1) / d.tw, tiles = tiles_of(p, &d, 0, s->nbatch);
    const size_t slot = (size_t)d.halo * (size_t)(d.tw + d.th) * d.csize;
    const size_t flags = ((size_t)(1 + 2 * tiles) * sizeof(unsigned) + 255) & ~(size_t)255;
    const size_t budget = s->bytes >= ((size_t)100 << 20) ? s->bytes / IP_BUDGET_DIV : IP_BUDGET_SMALL;
    const size_t fixed = flags + (size_t)z->nlead * sizeof(int32_t);
    if (fixed >= budget) return 0;
    int64_t spare = (int64_t)((budget - fixed) / slot) - ntc - 2;
    if (spare > IP_SPARE) spare = IP_SPARE;
    if (spare < IP_MIN_SPARE) return 0;
    z->slots = ntc + 2 + spare;
    z->flag_off = ((size_t)z->slots * slot + 255) & ~(size_t)255;
    z->tile_bytes = z->flag_off + flags;
    return 1;
}

static int sizes_choose(const lw_plan *p, const lw_cuda_sched *s, ip_sizes *z)
{
    const lw_geometry *g = &p->geo;
    const int mallat = p->cfg.layout == LW_MALLAT;
    int64_t blen[2], bs[2];
    memset(z, 0, sizeof *z);
    if (g->naxes != 2 || !p->wav->separable || lw_dir_adjoint(p->cfg.direction) || !batch_of(p, blen, bs)) return 0;
    if (mallat && g->strides[g->axes[1]] != 1) return 0;
    for (int k = 0; k < g->levels; k++) {
        if (!lwk_tile2d_supported(s->dtype, &s->w, p->cfg.mode, g->len[k][0], g->len[k][1])) return 0;
        if (mallat && !reorder_sizes(p, s, k, blen[0] * blen[1], z)) return 0;
    }
    /* the tile kernel's ring (not periodic: its windows would wrap to the
     * far tiles of a plane, outside the ring's reach) */
    z->tile_ok = p->cfg.mode != LW_PERIODIC && tile_sizes(p, s, z);
    if (p->tune.inplace == 4) { /* ring: the tile kernel, never the walker */
        z->bytes = z->tile_bytes;
        return z->tile_ok;
    }
    /* the walker, with counters where their page stays within 1% of the
     * array (or always, tuning inplace=tiles), else without */
    size_t wflags = 0, wstash = 0;
    const size_t unit = (size_t)2 << 20, lead = leaders_inline(p, z) ? 0 : (size_t)z->nlead * sizeof(int32_t);
    /* the stash takes what the 1% leaves after the leaders and the counters
     * (one a resident block: WALK_FLAGS_RESERVE covers them), so that long
     * reaches (dd137: 12 rows a cut) cut fewer segments rather than lose the
     * walker */
    const size_t pages = s->bytes / 100 / unit * unit;
    size_t stash_cap = pages > lead + WALK_FLAGS_RESERVE ? pages - lead - WALK_FLAGS_RESERVE : 0;
    if (p->tune.inplace == 3) stash_cap = SIZE_MAX;
    for (int allow = 1; allow >= 0; allow--)
        if (walk_levels(p, s, allow, stash_cap, z, &wflags, &wstash) &&
            (!allow || p->tune.inplace == 3 || (wflags + wstash + lead + unit - 1) / unit * unit <= s->bytes / 100)) {
            z->walk = 1, z->stash_off = wflags, z->bytes = wflags + wstash;
            return 1;
        }
    z->bytes = z->tile_bytes;
    return z->tile_ok;
}

/* the engine's workspace, the row reorder's flags after it */
static int sizes_of(const lw_plan *p, const lw_cuda_sched *s, ip_sizes *z)
{
    if (!sizes_choose(p, s, z)) return 0;
    if (z->rc_flags) {
        z->rc_flag_off = (z->bytes + 255) & ~(size_t)255;
        z->bytes = z->rc_flag_off + (size_t)z->rc_flags * sizeof(int);
    }
    return 1;
}

/* the in-place engines run every level */
int lw_ip2d_applies(const lw_plan *p, const lw_cuda_sched *s)
{
    ip_sizes z;
    return sizes_of(p, s, &z);
}

lw_status lw_ip2d_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    ip_sizes z;
    s->ip2d = 0, s->ip2d_bytes = 0;
    if (!sizes_of(p, s, &z)) return LW_OK;
    s->ip2d_slots = z.slots, s->ip2d_flag_off = z.flag_off, s->ip2d_bytes = z.bytes;
    s->ip2d_walk = z.walk;
    s->ip2d_stash_off = z.stash_off;
    /* out of place, the tile kernel outruns the walker where that walks whole
     * rows (planes of up to 2 KiB rows: 0.29 against 0.45 ms for 192 planes of
     * 512^2 cdf97 on an H100), unless it runs in place itself: the levels of
     * an inverse pyramid but the coarsest read their LL band from out (3
     * levels: 1.24 against 0.82 ms) */
    s->ip2d_oop_tile = z.walk && z.tile_ok && z.wl[0].wide && (p->cfg.direction == LW_FORWARD || g->levels == 1);
    s->ip2d_tile_bytes = z.tile_ok ? z.tile_bytes : 0;
    memcpy(s->ip2d_wl, z.wl, sizeof z.wl);
    memcpy(s->ip2d_lead_off, z.lead_off, sizeof z.lead_off);
    memcpy(s->ip2d_lead_n, z.lead_n, sizeof z.lead_n);
    memcpy(s->ip2d_lead_cut, z.cut, sizeof z.cut);
    s->ip2d_rc_flag_off = z.rc_flag_off;
    /* in-place calls take it (tuning inplace: auto where its device memory,
     * the row-cycle segments included, in the allocator's 2 MiB units, stays
     * within 1% of the array; tiles always; lean and copy never); only they
     * need the segments */
    const int inl = leaders_inline(p, &z);
    const size_t unit = (size_t)2 << 20, lead = inl ? 0 : (size_t)z.nlead * sizeof(int32_t);
    const size_t pages = (z.bytes + lead + unit - 1) / unit * unit;
    /* Mallat: where every pass holds whole lines (narrow planes; or columns
     * too long for a block, held by a cluster in strips), the passes
     * take the Mallat order as they store; the walker would need the
     * row-cycle reorder, one more read and write of every row, and walks
     * narrow planes slowly (measured: bench/NOTES-inplace.md).  Either
     * layout: where every level runs as one plane pass (k_plane.cu: planes
     * that a cluster holds), one read and one write a level, as the walker */
    const int passes = lw_cuda_passes_whole(p, s) &&
                       (p->cfg.layout == LW_MALLAT || lw_cuda_plane_levels(p, s, NULL) == g->levels);
    /* the interleaved layout's plans that "auto" gives tile2d-il for its out-of-place tiles alone (d4 on
     * planes where the in-place kernels' mirror refresh costs more than the passes) take the passes */
    const int worth = p->cfg.layout == LW_MALLAT || lw_cuda_mirror_worth_planes(p, g->len[0][0], g->len[0][1], -1);
    s->ip2d = p->tune.inplace >= 3 || (p->tune.inplace == 0 && pages <= s->bytes / 100 && !passes && worth);
    if (!s->ip2d) return LW_OK;
    if (z.nlead) {
        int32_t *h = malloc((size_t)z.nlead * sizeof *h);
        if (!h) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %lld cycle segments", (long long)z.nlead / 3);
        for (int k = 0; k < g->levels; k++)
            lw_mallat_cycle_segments(g->len[k][0], p->cfg.direction == LW_INVERSE, z.walkers[k], h + z.lead_off[k],
                                     z.lead_n[k]);
        if (inl) { /* kept on the host, passed by value */
            s->ip2d_lead_host = h;
            return LW_OK;
        }
        s->ip2d_lead_bytes = (size_t)z.nlead * sizeof *h;
        lw_status st = lw_cuda_check(cudaMalloc((void **)&s->ip2d_lead, s->ip2d_lead_bytes), "cudaMalloc (row cycles)");
        if (st == LW_OK)
            st = lw_cuda_check(cudaMemcpy(s->ip2d_lead, h, s->ip2d_lead_bytes, cudaMemcpyHostToDevice),
                               "cudaMemcpy (row cycles)");
        free(h);
        LW_TRY(st);
    }
    return LW_OK;
}

void lw_ip2d_release(lw_cuda_sched *s)
{
    lw_il_oop_release(s);
    if (s->ip2d_lead) cudaFree(s->ip2d_lead);
    free(s->ip2d_lead_host);
    s->ip2d_lead = NULL, s->ip2d_lead_host = NULL, s->ip2d_lead_bytes = 0;
}

/* level k's grid and the kernel's workspace */
static void level_of(const lw_plan *p, const lw_cuda_sched *s, const ip_geo *d, int k, void *ws, lwk_tile2d_ip *t)
{
    const lw_geometry *g = &p->geo;
    const int64_t gs = lw_grid_step(p, k);
    memset(t, 0, sizeof *t);
    t->w = s->w;
    t->rows = g->len[k][0], t->cols = g->len[k][1];
    t->rs = gs * g->strides[g->axes[0]], t->cs = gs * g->strides[g->axes[1]];
    batch_of(p, t->blen, t->bs);
    t->mode = (int)p->cfg.mode;
    t->tiles = tiles_of(p, d, k, s->nbatch);
    t->slots = s->ip2d_slots;
    t->stash = ws;
    t->flags = (unsigned *)((char *)ws + s->ip2d_flag_off);
}

static lw_status lift(const lw_cuda_sched *s, int inverse, lwk_tile2d_ip *t, const void *ll, const void *det,
                      void *dst, cudaStream_t st)
{
    if (ll == dst || det == dst)
        CK(cudaMemsetAsync(t->flags, 0, (size_t)(1 + 2 * t->tiles) * sizeof(unsigned), st), "cudaMemsetAsync (tile flags)");
    CK(lwk_tile2d_ip_run(s->dtype, inverse, t, ll, det, dst, st), "cuda in-place tile kernel launch");
    return LW_OK;
}

/* level k by the walker: counters zeroed where it runs in place on strips */
static lw_status walk(const lw_plan *p, const lw_cuda_sched *s, int inverse, int k, void *ws, const void *ll,
                      const void *det, void *dst, cudaStream_t st)
{
    const lw_geometry *g = &p->geo;
    const int64_t gs = lw_grid_step(p, k);
    const struct lw_walk_level *l = &s->ip2d_wl[k];
    lwk_walk2d t;
    memset(&t, 0, sizeof t);
    t.w = s->w;
    t.rows = g->len[k][0], t.cols = g->len[k][1];
    t.rs = gs * g->strides[g->axes[0]], t.cs = gs * g->strides[g->axes[1]];
    batch_of(p, t.blen, t.bs);
    t.mode = (int)p->cfg.mode;
    t.wide = l->wide, t.strips = l->strips, t.groups = l->groups, t.per_group = l->per_group;
    t.vsegs = l->vsegs, t.vbands = l->vbands;
    if ((ll == dst || det == dst) && l->strips > 1) {
        t.flags = (unsigned *)ws;
        CK(cudaMemsetAsync(t.flags, 0, (size_t)(l->strips * l->groups * l->vsegs) * sizeof(unsigned), st),
           "cudaMemsetAsync (walker counters)");
    }
    if ((ll == dst || det == dst) && l->vsegs > 1) t.stash = (char *)ws + s->ip2d_stash_off;
    CK(lwk_walk2d_run(s->dtype, inverse, &t, ll, det, dst, st), "cuda strip walker launch");
    return LW_OK;
}

static lw_status reorder(const lw_cuda_sched *s, int inverse, int k, const lwk_tile2d_ip *t, void *data, void *ws,
                         cudaStream_t st)
{
    const int host = s->ip2d_lead_host != NULL;
    int *flags = s->ip2d_lead_cut[k] ? (int *)((char *)ws + s->ip2d_rc_flag_off) : NULL;
    CK(lwk_rowcycle_launch(s->dtype, inverse, t->rows, t->cols, t->rs, t->blen, t->bs,
                           (host ? s->ip2d_lead_host : s->ip2d_lead) + s->ip2d_lead_off[k], host,
                           s->ip2d_lead_n[k], flags, data, st),
       "cuda row-cycle kernel launch");
    return LW_OK;
}

lw_status lw_ip2d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *ws, cudaStream_t st)
{
    const int L = p->geo.levels, inv = p->cfg.direction == LW_INVERSE, mallat = p->cfg.layout == LW_MALLAT;
    /* the tile kernel out of place where it runs level 1 from in (not after the fused tiles' level 1: on
     * a batch of 192 planes of 512^2 its in-place levels 2.. then failed verification, bench/NOTES-tile2d.md) */
    const int walker = s->ip2d_walk && !(in != out && s->ip2d_oop_tile && !s->ip2d_oop_fused);
    /* out of place, the first levels by the fused tiles (tile2d_il_oop.c: a forward's, or one level's inverse) */
    const int nf = in != out ? s->ip2d_oop_fused : 0;
    if (mallat && in != out) return lw_fail(LW_ERR_INTERNAL, "cuda: the Mallat tile path runs in place only");
    if (nf) LW_TRY(lw_il_oop_run(p, s, in, out, ws, st));
    if (nf == L) return LW_OK;
    if (!s->ip2d_walk && !s->ip2d_tile_bytes)
        return lw_fail(LW_ERR_INTERNAL, "cuda: tile2d-il has no in-place kernel for levels %d..", nf + 1);
    ip_geo d;
    dims_of(s, &d);
    for (int kk = nf; kk < L; kk++) {
        const int k = inv ? L - 1 - kk : kk;
        lwk_tile2d_ip t;
        level_of(p, s, &d, k, ws, &t);
        if (!inv) {
            const void *src = k == 0 ? in : out;
            if (walker) LW_TRY(walk(p, s, 0, k, ws, src, src, out, st));
            else LW_TRY(lift(s, 0, &t, src, src, out, st));
            if (mallat) LW_TRY(reorder(s, 0, k, &t, out, ws, st));
        } else {
            if (mallat) LW_TRY(reorder(s, 1, k, &t, out, ws, st));
            const void *ll = k == L - 1 ? in : out;
            if (walker) LW_TRY(walk(p, s, 1, k, ws, ll, in, out, st));
            else LW_TRY(lift(s, 1, &t, ll, in, out, st));
        }
    }
    return LW_OK;
}
