/* The fused 3-D engine (cuda engine "fused3d", k_tile3d.cu): one kernel a
 * level reads the volume (or the previous level's lowpass octant) once and
 * writes the seven detail bands to their Mallat places and the octant.  A
 * volume, or a batch of them (rank 4, axis 0 the batch): one launch a level
 * for every item.  Pyramids pass the octant from level to level through two
 * compact buffers of the workspace (an item's octant after another's): level
 * k's octants (the input of level k+1, k >= 1) at 0 for odd k, after the
 * largest odd ones (the level-1 octants) for even k, so that a level reads
 * one buffer and writes the other.  Levels the kernel does not run (from
 * s->small_from on: lines too short for its tiles) run in one launch of the
 * small engine: the forward's last, the inverse's first. */
#include "cuda_exec.h"

#include <string.h>

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

size_t lw_cuda_octant_bytes(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    const int64_t *n = p->geo.len[k];
    return (size_t)(n[0] * n[1] * n[2]) * s->esize;
}

/* the volumes of the batch (rank 4: axis 0), and the first dim of a volume */
static int64_t items_of(const lw_plan *p) { return p->geo.rank == 4 ? p->geo.shape[0] : 1; }
static int vol0(const lw_plan *p) { return p->geo.rank - 3; }

static size_t octants_bytes(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return lw_cuda_octant_bytes(p, s, k) * (size_t)items_of(p);
}

static size_t octant_offset(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return (k & 1) ? 0 : align256(octants_bytes(p, s, 1));
}

void lw_fused3d_workspace(const lw_plan *p, lw_cuda_sched *s)
{
    int L = p->geo.levels;
    s->small_from = lw_cuda_small_from(p, s);
    if (L < 2) return; /* one level: no scratch (in place: the generic path's own need) */
    s->scratch = octant_offset(p, s, 2) + (L > 2 ? octants_bytes(p, s, 2) : 0);
}

static void compact_strides(const int64_t *n, int64_t *st) { st[2] = 1, st[1] = n[2], st[0] = n[1] * n[2]; }
static int64_t compact_item(const int64_t *n) { return n[0] * n[1] * n[2]; }

/* Level k+1 (k = 0 .. L-1) of a pyramid.  Forward: reads the input (k = 0)
 * or level k's octant, writes the seven detail bands into out's region and
 * the octant to scratch (the last level: into out's corner).  Inverse: reads
 * the bands from in's region and the octant from scratch (the deepest level:
 * from in's corner), writes level k's octant to scratch (k = 0: out). */
static lw_status level(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, char *scratch, int k,
                       cudaStream_t st)
{
    const int L = p->geo.levels, inv = p->cfg.direction == LW_INVERSE;
    lwk_tile3d t;
    memset(&t, 0, sizeof t);
    t.w = s->w, t.mode = (int)p->cfg.mode, t.variant = p->tune.tile3d - 1;
    t.load = p->tune.tile3d_load, t.stages = p->tune.tile3d_stages, t.zruns = (int)p->tune.tile3d_zruns;
    t.defaults = p->tune.tile3d_defaults;
    int64_t full[3], own[3], oct[3];
    for (int a = 0; a < 3; a++) t.n[a] = p->geo.len[k][a], full[a] = p->geo.strides[vol0(p) + a];
    compact_strides(p->geo.len[k], own);
    compact_strides(p->geo.len[k + 1], oct);
    /* an item's distance in the whole array, in level k's octants, in level k+1's */
    const int64_t fi = vol0(p) ? p->geo.strides[0] : 0, oi = compact_item(p->geo.len[k]),
                  li = compact_item(p->geo.len[k + 1]);
    lwk_tile3d_batch b = {items_of(p), 0, 0, 0};
    const void *src;
    void *dst;
    if (!inv) {
        src = k == 0 ? in : scratch + octant_offset(p, s, k);
        memcpy(t.st, k == 0 ? full : own, sizeof t.st);
        b.sb = k == 0 ? fi : oi;
        dst = out;
        memcpy(t.dt, full, sizeof t.dt);
        b.db = fi;
    } else {
        src = in;
        memcpy(t.st, full, sizeof t.st);
        b.sb = fi;
        dst = k == 0 ? out : scratch + octant_offset(p, s, k);
        memcpy(t.dt, k == 0 ? full : own, sizeof t.dt);
        b.db = k == 0 ? fi : oi;
    }
    if (k + 1 < L) t.ll = scratch + octant_offset(p, s, k + 1), memcpy(t.lt, oct, sizeof t.lt), b.lb = li;
    CK(lwk_tile3d_run(s->dtype, &t, &b, inv, src, dst, st), "cuda tile3d kernel launch");
    return LW_OK;
}

/* Levels ks .. L-1 by the small engine: the forward from level ks's octant
 * in scratch into out's corner, the inverse from in's corner into it. */
static lw_status tail(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, char *scratch, int ks,
                      cudaStream_t st)
{
    lwk_small sm;
    lw_cuda_small_setup(p, s, ks, &sm);
    char *oct = scratch + octant_offset(p, s, ks);
    /* a batch: its one batch dim (axis 0) at the octants' item distance on the compact side */
    const int64_t oi = compact_item(p->geo.len[ks]);
    if (p->cfg.direction == LW_INVERSE) {
        compact_strides(p->geo.len[ks], sm.dst_);
        if (sm.nb) sm.bdst[0] = oi;
        CK(lwk_small_launch(s->dtype, &sm, in, oct, st), "cuda small kernel launch");
    } else {
        compact_strides(p->geo.len[ks], sm.sst);
        if (sm.nb) sm.bsst[0] = oi;
        CK(lwk_small_launch(s->dtype, &sm, oct, out, st), "cuda small kernel launch");
    }
    return LW_OK;
}

lw_status lw_fused3d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                         cudaStream_t st)
{
    const int ks = s->small_from, inv = p->cfg.direction == LW_INVERSE;
    char *ws = (char *)scratch;
    if (inv && ks < p->geo.levels) LW_TRY(tail(p, s, in, out, ws, ks, st));
    for (int i = 0; i < ks; i++) LW_TRY(level(p, s, in, out, ws, inv ? ks - 1 - i : i, st));
    if (!inv && ks < p->geo.levels) LW_TRY(tail(p, s, in, out, ws, ks, st));
    return LW_OK;
}
