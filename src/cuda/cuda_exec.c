/* Device-side execution of a plan: picks the engine and enqueues the kernels
 * on a stream, given device buffers in/out and a scratch area.  No host
 * synchronisation here; the backend (backend_cuda.c) moves host data. */
#include "cuda_exec.h"
#include "local_exec.h"
#include "lw_scheme.h"
#include "../core/half.h"

#include <stdint.h>
#include <string.h>

_Static_assert(LWK_F32 == (int)LW_FLOAT32 && LWK_F64 == (int)LW_FLOAT64 && LWK_I32 == (int)LW_INT32 &&
                   LWK_F16 == (int)LW_FLOAT16 && LWK_BF16 == (int)LW_BFLOAT16,
               "the kernels' dtype codes are lw_dtype's");

lw_status lw_cuda_check_at(const char *file, int line, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return LW_OK;
    cudaGetLastError(); /* clear a non-sticky error */
    lw_status st = (e == cudaErrorMemoryAllocation) ? LW_ERR_DEVICE_OUT_OF_MEMORY : LW_ERR_CUDA;
    return lw_fail_at(file, line, st, "%s: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

void lwk_wave_from_def(lwk_wave *w, const lw_wavelet_def *d, int integer)
{
    memset(w, 0, sizeof *w);
    w->id = d->id;
    w->nsteps = d->nsteps;
    for (int s = 0; s < d->nsteps; s++) {
        const lw_step *st = &d->steps[s];
        w->target_odd[s] = st->target_odd;
        w->ntaps[s] = st->ntaps;
        for (int i = 0; i < st->ntaps; i++) {
            w->off[s][i] = st->offset[i];
            w->wt[s][i] = st->weight[i];
            w->wtf[s][i] = (float)st->weight[i];
            w->icoef[s][i] = st->icoef[i];
        }
        w->isign[s] = st->isign, w->iadd[s] = st->iadd, w->ishift[s] = st->ishift;
    }
    w->zl = d->zeta_low, w->zh = d->zeta_high;
    w->izl = 1.0 / d->zeta_low, w->izh = 1.0 / d->zeta_high;
    w->zlf = (float)w->zl, w->zhf = (float)w->zh, w->izlf = (float)w->izl, w->izhf = (float)w->izh;
    w->integer = integer;
    w->halo = d->halo;
    w->unit_zeta = d->zeta_low == 1.0 && d->zeta_high == 1.0;
}

static int tile3d_pass_axis(const lw_plan *p);

/* ---- engine choice -------------------------------------------------------- */

/* Scratch of the fused 2-D engine.  Level k's LL band (compact) lives at
 * scr_off[k % 2]: LL1 at 0, LL2 after all of LL1, LL3 at 0 again, ...  The
 * forward needs LL1 .. LL(ks-1), the inverse LL1 .. LL(ks) (ks: first level
 * of the small-engine tail, or L).  With dense contiguous planes that room is
 * taken inside `in` (forward) or `out` (inverse) when `in` may be
 * overwritten, the first level then running in row bands or plane groups
 * (tile2d_bands.c). */
static void tile2d_lowpass(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    int L = g->levels, inv = p->cfg.direction == LW_INVERSE;
    int ks = s->small_from = lw_cuda_small_from(p, s);
    if (L < 2) return;
    size_t ll1 = (size_t)(s->nbatch * lw_region_count(p, 1)) * s->esize;
    size_t ll2 = (size_t)(s->nbatch * lw_region_count(p, 2)) * s->esize;
    s->scr_off[1] = 0;
    s->scr_off[0] = ll1;
    int top = !inv ? ks - 1 : ks < L ? ks : L - 1; /* deepest LL band held */
    size_t need = top >= 1 ? ll1 + (top >= 2 ? ll2 : 0) : 0;
    s->scratch = need;
    if (!need || g->rank < 2 || g->axes[0] != g->rank - 2 || need > s->bytes) return;
    unsigned fl = p->cfg.flags;
    /* host pointers: the input's device copy is ours; a caller's device input (LW_FLAG_DEVICE_INPUT) is not */
    int destroy = (fl & LW_FLAG_DESTROY_INPUT) || !(fl & (LW_FLAG_DEVICE_POINTERS | LW_FLAG_DEVICE_INPUT));
    lw_band_geo *bg = &s->bg;
    bg->R = g->len[0][0], bg->C = g->len[0][1], bg->hr = g->len[1][0], bg->hc = g->len[1][1];
    /* the fused kernels' halo: the wavelet's reach rounded up to even (d4: 3 -> 4) */
    bg->nb = s->nbatch, bg->H = (s->w.halo + 1) & ~1, bg->mode = (int)p->cfg.mode;
    bg->stash_cheap = (int64_t)(((size_t)8 << 20) / ((size_t)bg->C * s->esize)); /* rows in 8 MiB */
    /* The inverse's lowpass bands: with an input the plan must keep, in scratch, as the forward's (one launch
     * a level: 0.87-0.95x the time of bands inside the output, bench/NOTES-tile2d.md); with one it may
     * overwrite, in the output, the last planes' copy within 1 MiB (no more memory than the forward's bands) */
    const size_t lead = p->tune.tile2d_lead_kb ? (size_t)p->tune.tile2d_lead_kb << 10
                        : destroy                ? (size_t)1 << 20
                                                 : SIZE_MAX;
    bg->lead_max = (int64_t)(lead / s->esize);
    if (!inv && destroy && lw_bands_plan_fwd(bg, &s->bands) == 0) {
        s->fwd_bands = 1;
        s->scratch = 0;
    } else if (inv && need > lead && lw_bands_plan_inv(bg, destroy, &s->bands) == 0) {
        const lw_bands *b = &s->bands;
        size_t stash = b->stash ? 0 : (size_t)(b->lead ? b->lead * bg->hr * bg->hc : b->x * bg->C) * s->esize;
        if (stash < need) {
            s->inv_bands = 1;
            s->scratch = stash;
        }
    }
}

static void tile2d_scratch(const lw_plan *p, lw_cuda_sched *s)
{
    tile2d_lowpass(p, s);
    lw_tile2d_streams_plan(p, s);
}

/* ---- engine records: what each engine applies to ---------------------------- */

/* The engines besides copy and generic lift forward and inverse only; the
 * adjoint directions run the generic path's transposed steps. */
static int not_adjoint(const lw_plan *p) { return !lw_dir_adjoint(p->cfg.direction); }

/* Transformed axes longer than 1: with one, Faber-Schauder is the 1-D
 * lifting step the generic path runs. */
static int active_axes(const lw_plan *p)
{
    int c = 0;
    for (int a = 0; a < p->geo.naxes; a++) c += p->geo.shape[p->geo.axes[a]] > 1;
    return c;
}

static int is_mallat_last(const lw_plan *p)
{
    const lw_geometry *g = &p->geo;
    return not_adjoint(p) && p->wav->separable && p->cfg.layout == LW_MALLAT && g->axes[g->naxes - 1] == g->rank - 1;
}

static int applies_copy(const lw_plan *p, const lw_cuda_sched *s) { return (void)s, p->geo.levels == 0; }
static int applies_fs(const lw_plan *p, const lw_cuda_sched *s) { return (void)s, !p->wav->separable && not_adjoint(p); }
static int applies_generic(const lw_plan *p, const lw_cuda_sched *s)
{
    return (void)s, p->wav->separable || (!not_adjoint(p) && active_axes(p) <= 1);
}

static int applies_small(const lw_plan *p, const lw_cuda_sched *s)
{
    return not_adjoint(p) && p->wav->separable && lw_cuda_fits_small(p, s, 0);
}

/* Whether the fused engines run level k (0-based) of the plan, or hand it
 * (and the levels below) to the small engine, which holds them in one
 * launch (tuning tail).  With tail=fused, the levels the small engine holds
 * still go to it where the fused engines refresh the mirror before every step
 * (d4, symmetric mode): on such small planes most tiles touch an edge. */
static int level_to_small(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return k > 0 && (p->tune.tail != 1 || !lw_cuda_mirror_free(p)) && lw_cuda_fits_small(p, s, k);
}
static int tile2d_level_ok(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return !level_to_small(p, s, k) &&
           lwk_tile2d_supported(s->dtype, &s->w, p->cfg.mode, p->geo.len[k][0], p->geo.len[k][1]);
}
static int fused3d_level_ok(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return !level_to_small(p, s, k) && lwk_tile3d_supported(s->dtype, &s->w, p->cfg.mode, p->geo.len[k]);
}

/* A fused engine runs its levels one launch each down to the first one it
 * does not run (level_ok); the small engine takes the rest in one launch,
 * and must hold them.  The first level of that tail, the levels count if
 * none, -1 if the plan cannot run so. */
static int tail_from(const lw_plan *p, const lw_cuda_sched *s, int (*level_ok)(const lw_plan *, const lw_cuda_sched *, int))
{
    if (!level_ok(p, s, 0)) return -1;
    for (int k = 1; k < p->geo.levels; k++)
        if (!level_ok(p, s, k)) return lw_cuda_fits_small(p, s, k) ? k : -1;
    return p->geo.levels;
}

int lw_line1d_level_ok(const lw_plan *p, const lw_cuda_sched *s, int k)
{
    return !level_to_small(p, s, k) && lwk_line1d_supported(s->dtype, &s->w, p->geo.len[k][0]);
}

int lw_cuda_small_from(const lw_plan *p, const lw_cuda_sched *s)
{
    const int ks = tail_from(p, s, s->engine == LWE_FUSED3D  ? fused3d_level_ok
                                   : s->engine == LWE_LINE1D || s->l1_route ? lw_line1d_level_ok
                                                             : tile2d_level_ok);
    return ks < 0 ? p->geo.levels : ks;
}

/* One transformed axis along contiguous lines too long for the small engine
 * (a 1-D signal, a batch of long rows) */
static int applies_line1d(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    return not_adjoint(p) && p->wav->separable && g->naxes == 1 && g->strides[g->axes[0]] == 1 &&
           tail_from(p, s, lw_line1d_level_ok) >= 0;
}

static int applies_tile2d(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (!is_mallat_last(p) || g->naxes != 2 || tail_from(p, s, tile2d_level_ok) < 0) return 0;
    return lw_cuda_mirror_worth_planes(p, g->len[0][0], g->len[0][1], g->levels);
}

static void ws_in_place(const lw_plan *p, lw_cuda_sched *s);

/* 3-D volumes, float: one fused kernel a level (fused3d_exec.c); a batch of
 * volumes too (rank 4 over axes 1..3). */
static int applies_fused3d(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (!is_mallat_last(p) || g->naxes != 3 || g->axes[0] != g->rank - 3 || tail_from(p, s, fused3d_level_ok) < 0)
        return 0;
    return lw_cuda_mirror_worth_volume(p);
}
/* auto: not a batch whose items the small engine holds whole (its one launch
 * for every level beats tiles wider than the item) */
static int auto_fused3d(const lw_plan *p, const lw_cuda_sched *s)
{
    return applies_fused3d(p, s) && (p->geo.rank == 3 || !lw_cuda_fits_small(p, s, 0));
}

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }
/* the engines that read neighbours another block writes: in place they run
 * the fused in-place kernels (2-D, s->ip2d: strip walker or tile kernel),
 * the generic path, or (tuning inplace=copy) themselves into a scratch copy */
int lw_cuda_engine_fused(int engine) { return engine == LWE_TILE2D || engine == LWE_TILE3D || engine == LWE_FUSED3D; }
int lw_cuda_inplace_routed(const lw_plan *p, int engine)
{
    return lw_cuda_engine_fused(engine) || (engine == LWE_LOCAL && p->cfg.layout == LW_MALLAT);
}
/* 3-D, float: level 1 by fused planes of two axes, then the third axis in
 * place by the column pass (pass axis 0 for "3d-yx", 1 for "3d-zx").
 * Pyramids ("3d-yx" on a volume, for the wavelets the fused 3-D engine does
 * not take): levels 2.. by the generic passes in place on out's lowpass
 * octant, each line whole in a block (run_tile3d). */
static int applies_tile3d_axis(const lw_plan *p, const lw_cuda_sched *s, int pa)
{
    const lw_geometry *g = &p->geo;
    if (!is_mallat_last(p) || g->naxes != 3 || p->cfg.integer || g->len[0][pa] < 2) return 0;
    if (g->levels != 1 && (pa != 0 || g->rank != 3)) return 0;
    if (!lw_cuda_mirror_worth_planes(p, g->len[0][pa == 0 ? 1 : 0], g->len[0][2], 1)) return 0;
    if (!lwk_tile2d_supported(s->dtype, &s->w, p->cfg.mode, g->len[0][pa == 0 ? 1 : 0], g->len[0][2])) return 0;
    lwk_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.w = s->w;
    lw_lines_for(p, 0, pa, &ps.L);
    if (!lw_cuda_pass_whole(s, &ps)) return 0;
    for (int k = 1; k < g->levels; k++)
        for (int a = 0; a < 3; a++) {
            lw_lines_for(p, k, a, &ps.L);
            if (ps.L.n >= 2 && !lw_cuda_pass_whole(s, &ps) && lwk_pass_segments(s->dtype, &ps) > 1) return 0;
        }
    return 1;
}

/* 2-D interleaved: the fused in-place kernels level by level (tile2d_inplace.c),
 * or out of place tile2d_il_oop.c's route at every level ("auto" takes it
 * where it takes the Mallat layout's fused engine; in place such a plan runs
 * the passes if the in-place kernels do not suit it) */
static int applies_tile2d_il(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (p->cfg.layout != LW_INTERLEAVED || g->naxes != 2) return 0;
    if (lw_il_oop_levels(p, s) == g->levels && lw_cuda_mirror_worth_planes(p, g->len[0][0], g->len[0][1], g->levels))
        return 1;
    return lw_cuda_mirror_worth_planes(p, g->len[0][0], g->len[0][1], -1) && lw_ip2d_applies(p, s);
}

static void ws_tile3d(const lw_plan *p, lw_cuda_sched *s);
static int applies_tile3d_yx(const lw_plan *p, const lw_cuda_sched *s) { return applies_tile3d_axis(p, s, 0); }
static int applies_tile3d_zx(const lw_plan *p, const lw_cuda_sched *s) { return applies_tile3d_axis(p, s, 1); }

/* workspace: device scratch of an out-of-place run (s->scratch) and of an
 * in-place one (s->inplace_scratch, preset to the generic path's need) */
static void ws_full(const lw_plan *p, lw_cuda_sched *s) { (void)p, s->scratch = s->inplace_scratch; }
static void ws_in_place(const lw_plan *p, lw_cuda_sched *s) { (void)p, s->inplace_scratch = 0; }
/* in place: the generic path's need (preset) unless the tile kernel takes it (lw_ip2d_prepare) */
static void ws_generic_in_place(const lw_plan *p, lw_cuda_sched *s) { (void)p, (void)s; }
static void ws_fs(const lw_plan *p, lw_cuda_sched *s)
{
    ws_full(p, s);
    lw_cuda_fs_sched(p, s);
}

typedef struct run_ctx run_ctx;
static lw_status run_copy(run_ctx *r, void *scratch);
static lw_status run_fs(run_ctx *r, void *scratch);
static lw_status run_small(run_ctx *r, void *scratch);
static lw_status run_tile2d(run_ctx *r, void *scratch);
static lw_status run_fused3d(run_ctx *r, void *scratch);
static lw_status run_tile3d(run_ctx *r, void *scratch);
static lw_status run_generic(run_ctx *r, void *scratch);
static lw_status run_tile2d_il(run_ctx *r, void *scratch);
static lw_status run_local(run_ctx *r, void *scratch);
static lw_status run_line1d(run_ctx *r, void *scratch);

typedef struct engine_rec {
    const char *name;
    int id;         /* LWE_* */
    int by_default; /* "auto" takes it when it applies */
    int (*applies)(const lw_plan *p, const lw_cuda_sched *s);
    void (*workspace)(const lw_plan *p, lw_cuda_sched *s);
    lw_status (*run)(run_ctx *r, void *scratch); /* out of place (fused ones; in place: lw_cuda_run) */
    const char *about;
    int (*auto_applies)(const lw_plan *p, const lw_cuda_sched *s); /* where "auto" takes it (NULL: applies) */
} engine_rec;

/* In order of preference: "auto" runs the first that applies. */
static const engine_rec engines[] = {
    {"copy", LWE_COPY, 1, applies_copy, ws_in_place, run_copy,
     "no level to compute (every transformed axis has length 1): a copy", NULL},
    {"fs", LWE_FS, 1, applies_fs, ws_fs, run_fs,
     "Faber-Schauder, every level from original samples in one launch (paper 004)", NULL},
    {"local", LWE_LOCAL, 1, lw_local_applies, lw_local_workspace, run_local,
     "steps inside their pairs (haar) on adjacent axes (channels last too), lengths multiples of 2^levels: each thread "
     "lifts its own block, up to 4 levels a launch; auto: not 2-D one level of 4- and 8-byte samples unless the "
     "warp-strided map applies, nor 2-D Mallat from host memory",
     lw_local_auto},
    {"tile2d", LWE_TILE2D, 1, applies_tile2d, tile2d_scratch, run_tile2d,
     "fused 2-D: one kernel a level reads the input once and writes four bands; the small engine takes every level "
     "from the first below the top that it holds, in one launch (tuning tail)", NULL},
    {"fused3d", LWE_FUSED3D, 1, applies_fused3d, lw_fused3d_workspace, run_fused3d,
     "fused 3-D: tiles streamed along z, eight bands once a level (pyramids: lowpass octants compact; the small "
     "engine takes every level from the first below the top that it holds, in one launch: tuning tail)", auto_fused3d},
    {"small", LWE_SMALL, 1, applies_small, ws_in_place, run_small,
     "whole items in shared memory, every level in one launch, each line of an axis by a group of lanes, or (few "
     "items of 2-3 axes, lines of at most 32 samples, float types) as the level's matrix along the axis (after the "
     "fused engines, which hand it their pyramids' lower levels; first in place, where it needs no workspace)",
     NULL},
    {"line1d", LWE_LINE1D, 1, applies_line1d, lw_line1d_workspace, run_line1d,
     "long contiguous lines (1-D signals, batches of long rows): a thread lifts a segment from its window in "
     "registers; a level that writes what it reads (in place, a pyramid's lower levels) held in the resident "
     "blocks' shared memory until every block has loaded (one cooperative launch, several levels a launch); out of "
     "place a level it cannot hold reads its lowpass staged in the scratch, in place it goes by the generic path; "
     "the small engine takes the levels it holds, in one launch",
     NULL},
    {"3d-yx", LWE_TILE3D, 1, applies_tile3d_yx, ws_tile3d, run_tile3d,
     "3-D: fused (y, x) planes, then z by the column pass; pyramids: levels 2.. by passes in place", NULL},
    {"3d-zx", LWE_TILE3D, 0, applies_tile3d_zx, ws_tile3d, run_tile3d,
     "3-D one level: fused (z, x) planes, then y by the column pass", NULL},
    {"tile2d-il", LWE_TILE2D_IL, 1, applies_tile2d_il, ws_generic_in_place, run_tile2d_il,
     "fused 2-D, interleaved layout: one kernel a level, in place (strips walked, or tiles in ticket order, halo "
     "originals stashed) or not (the first level by the fused 2-D tiles, each sample read and written once; a "
     "forward pyramid's levels 2.. by a Mallat plan on that level's compact lowpass: tuning il_compact)",
     NULL},
    {"generic", LWE_GENERIC, 1, applies_generic, ws_full, run_generic,
     "one pass a level and axis, any rank, layout and batch", NULL},
};
#define NENGINES ((int)(sizeof engines / sizeof engines[0]))

int lw_cuda_engine_count(void) { return NENGINES; }
const char *lw_cuda_engine_name(int i, const char **about)
{
    if (i < 0 || i >= NENGINES) return NULL;
    if (about) *about = engines[i].about;
    return engines[i].name;
}

const char *lw_cuda_engine_id_name(int engine)
{
    if (engine == LWE_SCHEME) return "scheme";
    for (int i = 0; i < NENGINES; i++)
        if (engines[i].id == engine) return engine == LWE_TILE3D ? "tile3d" : engines[i].name;
    return "?";
}

int lw_cuda_is_paper_scheme(const char *name)
{
    if (strcmp(name, "auto") == 0) return 0;
    for (int i = 0; i < NENGINES; i++)
        if (strcmp(name, engines[i].name) == 0) return 0;
    return 1;
}

static int tile3d_pass_axis(const lw_plan *p) { return strcmp(p->scheme, "3d-zx") == 0 ? 1 : 0; }

lw_status lw_cuda_choose(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    memset(s, 0, sizeof *s);
    s->dtype = (int)p->cfg.dtype;
    s->esize = lw_dtype_size(p->cfg.dtype);
    s->bytes = (size_t)g->total * s->esize;
    s->nbatch = g->naxes ? g->total / lw_region_count(p, 0) : g->total;
    lwk_wave_from_def(&s->w, p->wav, p->cfg.integer);
    const engine_rec *e = NULL;
    const int half = lw_dtype_is_half(p->cfg.dtype);
    if (half && !applies_copy(p, s) && !p->wav->separable)
        return lw_fail(LW_ERR_UNSUPPORTED,
                       "cuda: %s data: the non-separable %s transform has no half-precision kernels on the cuda "
                       "backend; use backend cpu (host memory) or float32",
                       lw_dtype_name(p->cfg.dtype), p->wav->name);
    if (applies_copy(p, s)) {
        e = &engines[0]; /* the identity, whatever the scheme */
    } else if (lw_dir_adjoint(p->cfg.direction) && !p->wav->separable && active_axes(p) > 1) {
        return lw_fail(LW_ERR_UNSUPPORTED,
                       "cuda: the %s of the non-separable %s transform over %d axes is not offered by the cuda "
                       "backend; use backend cpu or cpu-ref",
                       lw_direction_str(p->cfg.direction), p->wav->name, active_axes(p));
    } else if (lw_cuda_is_paper_scheme(p->scheme)) {
        if (lw_dir_adjoint(p->cfg.direction))
            return lw_fail(LW_ERR_UNSUPPORTED, "cuda: scheme '%s' has no %s (the generic engine has: scheme auto)",
                           p->scheme, lw_direction_str(p->cfg.direction));
        if (half && lwk_scheme_find(p->scheme))
            return lw_fail(LW_ERR_UNSUPPORTED,
                           "cuda: %s data: scheme '%s' (a paper's GPU algorithm) runs float32, float64 and int32 "
                           "only; use scheme auto or a cuda engine",
                           lw_dtype_name(p->cfg.dtype), p->scheme);
        s->engine = LWE_SCHEME;
        s->engine_name = p->scheme;
        return lw_cuda_choose_scheme(p, s);
    } else if (strcmp(p->scheme, "auto") != 0) {
        for (int i = 0; i < NENGINES && !e; i++)
            if (strcmp(p->scheme, engines[i].name) == 0) e = &engines[i];
        if (!e->applies(p, s))
            return lw_fail(LW_ERR_UNSUPPORTED, "cuda engine '%s' does not apply to this plan (%s)", e->name, e->about);
    } else {
        for (int i = 0; i < NENGINES && !e; i++)
            if (engines[i].by_default && (engines[i].auto_applies ? engines[i].auto_applies : engines[i].applies)(p, s))
                e = &engines[i];
        if (!e) return lw_fail(LW_ERR_INTERNAL, "cuda: no engine applies");
    }
    s->engine = e->id;
    s->engine_name = e->name;
    s->engine_index = (int)(e - engines);
    if (s->engine == LWE_COPY) return LW_OK;
    /* in place, the local engine's Mallat plans over long contiguous lines take the long-line engine's route */
    s->l1_route = e->id == LWE_LOCAL && lw_cuda_inplace_routed(p, e->id) && applies_line1d(p, s);
    if (e->id == LWE_LINE1D || s->l1_route) LW_TRY(lw_line1d_prepare(p, s));
    /* the generic path (every engine's in-place route) walks long lines in
     * place: its stash is the in-place scratch */
    if (!s->l1_all_held) LW_TRY(lw_cuda_walk_prepare(p, s));
    s->inplace_scratch = (s->walk_stash + 255) & ~(size_t)255;
    if (s->l1_rnd_scratch > s->inplace_scratch) s->inplace_scratch = s->l1_rnd_scratch;
    e->workspace(p, s);
    /* in place, items the small engine holds whole run there: one launch,
     * no workspace (the fused engines' in-place routes need some) */
    s->small_inplace = e->id != LWE_SMALL && lw_cuda_inplace_routed(p, e->id) && p->tune.inplace != 2 && applies_small(p, s);
    if (e->id == LWE_TILE2D_IL) {
        /* out of place: the fused tiles' route (tile2d_il_oop.c), the levels it leaves in place on out */
        LW_TRY(lw_il_oop_prepare(p, s));
        LW_TRY(lw_ip2d_prepare(p, s));
        lw_il_oop_scratch(p, s);
        if (s->small_inplace) s->ip2d = 0; /* in place the small engine runs it */
        else if (s->ip2d) s->inplace_scratch = s->ip2d_bytes;
    } else if (!s->small_inplace && (e->id == LWE_TILE2D || (e->id == LWE_LOCAL && lw_cuda_inplace_routed(p, e->id)))) {
        /* in place by the tile kernel where it fits */
        LW_TRY(lw_ip2d_prepare(p, s));
        if (s->ip2d) s->inplace_scratch = s->ip2d_bytes;
    }
    if (s->small_inplace) s->inplace_scratch = 0;
    if (p->tune.inplace == 2 && lw_cuda_inplace_routed(p, s->engine)) /* in place by copy: the output, then the engine's scratch */
        s->inplace_scratch = align256(s->bytes) + s->scratch;
    return LW_OK;
}

/* ---- generic separable path ----------------------------------------------- */

struct run_ctx {
    const lw_plan *p;
    const lw_cuda_sched *s;
    const void *in;
    void *out, *tmp;
    void *scr; /* the scratch: the walks' stash at offset 0 */
    cudaStream_t st;
    const void *cur;
};

/* Level k along axis a.  Lines longer than a block holds: from in to out in
 * parallel segments, else (in place on out) walked (inplace_exec.c). */
static lw_status do_pass(run_ctx *r, lwk_pass *ps, int k, int a)
{
    void *dst = r->cur == r->in ? r->out : (void *)r->cur;
    if (lw_cuda_pass_whole(r->s, ps)) /* whole lines a block: in place is safe */
        LW_TRY(lw_cuda_whole_pass(r->s, ps, r->cur, dst, r->st));
    else if (dst == r->cur && lw_cuda_pass_walks(r->s, ps)) /* the rule walk_prepare sized the stash by */
        LW_TRY(lw_cuda_walk_pass(r->s, k, a, ps, dst, r->scr, r->st));
    else
        CK(lwk_pass_launch(r->s->dtype, ps, r->cur, dst, r->st), "cuda pass kernel launch");
    r->cur = dst;
    return LW_OK;
}

/* Bring the level-k region back into out if it ended in tmp. */
static lw_status settle(run_ctx *r, int k)
{
    if (r->cur != r->tmp || !r->tmp) return LW_OK;
    lwk_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.w = r->s->w;
    lw_lines_for(r->p, k, r->p->geo.naxes - 1, &ps.L);
    ps.copy_only = 1;
    CK(lwk_pass_launch(r->s->dtype, &ps, r->tmp, r->out, r->st), "cuda copy kernel launch");
    r->cur = r->out;
    return LW_OK;
}

static lw_status start_copy(run_ctx *r)
{
    if (r->in != r->out)
        CK(cudaMemcpyAsync(r->out, r->in, r->s->bytes, cudaMemcpyDeviceToDevice, r->st), "cudaMemcpyAsync");
    r->cur = r->out;
    return LW_OK;
}

/* Level k along the axes at execution indices ai, ai + 1 (L NULL), or the
 * lines L of one axis, by one plane pass where one applies: 1 (and *st) if
 * it ran. */
static int do_plane(run_ctx *r, int k, int ai, const lw_lines *L, const lwk_wave *w, int inverse, int mallat,
                    lw_status *st)
{
    lwk_planes pl;
    void *dst = r->cur == r->in ? r->out : (void *)r->cur;
    const int ok = !L ? lw_cuda_planes_of(r->p, r->s, k, ai, w, inverse, r->cur, dst, &pl)
                      : lw_cuda_axis_plane_of(r->p, r->s, L, w, inverse, r->cur, dst, &pl);
    if (!ok || pl.mallat != mallat) return 0;
    *st = lw_cuda_check(lwk_plane_launch(r->s->dtype, &pl, r->cur, dst, r->st), "cuda plane pass launch");
    r->cur = dst;
    return 1;
}

/* inverse: the coarse-first structure (inverse, forward's adjoint);
 * the plan's direction says whether the steps are transposed */
static lw_status pass_level(run_ctx *r, int k, int inverse, const lwk_wave *w, int mallat, int only_axis)
{
    const lw_plan *p = r->p;
    for (int ai = 0; ai < p->geo.naxes; ai++) {
        int a = inverse ? p->geo.naxes - 1 - ai : ai;
        if (only_axis >= 0 && a != only_axis) continue;
        lw_status pst;
        if (only_axis < 0 && do_plane(r, k, ai, NULL, w, inverse, mallat, &pst)) {
            LW_TRY(pst);
            ai++;
            continue;
        }
        lwk_pass ps;
        memset(&ps, 0, sizeof ps);
        ps.w = *w;
        lw_lines_for(p, k, a, &ps.L);
        if (ps.L.n < 2) continue;
        if (do_plane(r, k, ai, &ps.L, w, inverse, mallat, &pst)) {
            LW_TRY(pst);
            continue;
        }
        ps.mode = (int)p->cfg.mode, ps.inverse = inverse, ps.mallat = mallat;
        ps.adjoint = lw_dir_adjoint(p->cfg.direction);
        LW_TRY(do_pass(r, &ps, k, a));
    }
    return settle(r, k);
}

static lw_status run_generic(run_ctx *r, void *scratch)
{
    (void)scratch; /* r->tmp */
    const lw_plan *p = r->p;
    int L = p->geo.levels, inv = lw_dir_coarse_first(p->cfg.direction);
    int mallat = p->cfg.layout == LW_MALLAT;
    if (inv && L > 1) LW_TRY(start_copy(r)); /* lower levels' bands live outside the region */
    for (int kk = 0; kk < L; kk++) {
        int k = inv ? L - 1 - kk : kk;
        LW_TRY(pass_level(r, k, inv, &r->s->w, mallat, -1));
    }
    if (r->cur == r->in && r->in != r->out) LW_TRY(start_copy(r));
    return LW_OK;
}

static lw_status run_tile2d_il(run_ctx *r, void *scratch)
{
    /* in place where the tile kernel's memory is not wanted (tuning inplace): the generic passes */
    if (r->in == r->out && !r->s->ip2d) return run_generic(r, scratch);
    return lw_ip2d_run(r->p, r->s, r->in, r->out, scratch, r->st);
}

static lw_status run_local(run_ctx *r, void *scratch)
{
    /* never Mallat in place (lw_cuda_inplace_routed: a block's bands land on other blocks' samples) */
    return lw_local_run(r->p, r->s, r->in, r->out, NULL, scratch, r->st);
}

static lw_status run_fused3d(run_ctx *r, void *scratch)
{
    return lw_fused3d_run(r->p, r->s, r->in, r->out, scratch, r->st);
}

static lw_status run_line1d(run_ctx *r, void *scratch)
{
    return lw_line1d_run(r->p, r->s, r->in, r->out, scratch, r->st);
}

lw_status lw_cuda_generic_level(const lw_plan *p, const lw_cuda_sched *s, int k, const void *in, void *out,
                                void *scratch, cudaStream_t st)
{
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.p = p, r.s = s, r.in = in, r.out = out, r.st = st, r.cur = out, r.scr = scratch;
    return pass_level(&r, k, lw_dir_coarse_first(p->cfg.direction), &s->w, p->cfg.layout == LW_MALLAT, -1);
}

static lw_status run_fs(run_ctx *r, void *scratch)
{
    (void)scratch;
    return lw_cuda_run_fs(r->p, r->s, r->in, r->out, r->tmp, r->st);
}

static lw_status run_copy(run_ctx *r, void *scratch)
{
    (void)scratch;
    return r->in != r->out ? start_copy(r) : LW_OK;
}

/* ---- small engine: everything in one launch -------------------------------- */

static lw_status run_small(run_ctx *r, void *scratch)
{
    (void)scratch;
    lwk_small sm;
    lw_cuda_small_setup(r->p, r->s, 0, &sm);
    CK(lwk_small_launch(r->s->dtype, &sm, r->in, r->out, r->st), "cuda small kernel launch");
    return LW_OK;
}

/* ---- fused 2-D engine ------------------------------------------------------- */

/* Plane view of buffer `base` at level k: array strides (compact=0) or the
 * compact scratch layout of region k (compact=1). */
static lwk_plane plane_of(const lw_plan *p, const lw_cuda_sched *s, const void *base, int k, int compact)
{
    const lw_geometry *g = &p->geo;
    lwk_plane pl;
    memset(&pl, 0, sizeof pl);
    pl.p = base;
    int nb = 0;
    if (compact) {
        int64_t rc = g->len[k][0] * g->len[k][1];
        pl.rs = g->len[k][1];
        int64_t bl[2] = {1, 1};
        for (int i = 0; i < g->rank; i++)
            if (!lw_geo_is_axis(g, i)) bl[nb++] = g->shape[i];
        pl.bs[1] = rc;
        pl.bs[0] = rc * bl[1];
    } else {
        pl.rs = g->strides[g->axes[0]];
        for (int i = 0; i < g->rank; i++)
            if (!lw_geo_is_axis(g, i)) pl.bs[nb++] = g->strides[i];
    }
    (void)s;
    return pl;
}

static void tile_setup(const lw_plan *p, const lw_cuda_sched *s, int k, int a0, int a1, lwk_tile2d *t)
{
    const lw_geometry *g = &p->geo;
    memset(t, 0, sizeof *t);
    t->w = s->w;
    t->rows = g->len[k][a0], t->cols = g->len[k][a1];
    t->blen[0] = t->blen[1] = 1;
    int nb = 0;
    for (int i = 0; i < g->rank; i++)
        if (!lw_geo_is_axis(g, i)) t->blen[nb++] = g->shape[i];
    t->mode = (int)p->cfg.mode;
    t->row_lo = 0, t->row_hi = t->rows;
    t->tiles = p->tune.tile2d;
    t->walk = (int)p->tune.tile2d_walk;
    t->ends = (int)p->tune.tile2d_ends;
}

lwk_plane lw_cuda_plane_of(const lw_plan *p, const void *base, int k, int compact)
{
    return plane_of(p, NULL, base, k, compact);
}

void lw_cuda_tile_setup(const lw_plan *p, const lw_cuda_sched *s, int k, lwk_tile2d *t)
{
    tile_setup(p, s, k, 0, 1, t);
}

static lw_status run_tile2d(run_ctx *r, void *scratch)
{
    return lw_tile2d_run(r->p, r->s, r->in, r->out, scratch, r->st);
}

/* 3-D, one level, float: the fused 2-D engine on every plane of two axes,
 * then the third axis lifted in place by the column pass (whole lines in
 * shared memory).  Default planes (axis 1, axis 2) + pass along axis 0;
 * scheme "3d-zx": planes (axis 0, axis 2) + pass along axis 1 (shorter
 * strides for the pass).  Axis order changes only rounding for float data. */

/* The level-1 lowpass octant of a volume (dims len[1]) as a 3-D copy between
 * an array with the volume's strides (full = 1) or a compact buffer. */
static lw_status octant_copy(const lw_plan *p, const lw_cuda_sched *s, void *dst, int dfull, const void *src, int sfull,
                             cudaStream_t st)
{
    const lw_geometry *g = &p->geo;
    const int64_t *n = g->len[1];
    struct cudaMemcpy3DParms m;
    memset(&m, 0, sizeof m);
    m.srcPtr.ptr = (void *)src, m.dstPtr.ptr = dst;
    m.srcPtr.pitch = (size_t)(sfull ? g->strides[1] : n[2]) * s->esize;
    m.dstPtr.pitch = (size_t)(dfull ? g->strides[1] : n[2]) * s->esize;
    m.srcPtr.xsize = m.dstPtr.xsize = (size_t)n[2] * s->esize;
    m.srcPtr.ysize = (size_t)(sfull ? g->shape[1] : n[1]);
    m.dstPtr.ysize = (size_t)(dfull ? g->shape[1] : n[1]);
    m.extent.width = (size_t)n[2] * s->esize, m.extent.height = (size_t)n[1], m.extent.depth = (size_t)n[0];
    m.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3DAsync(&m, st), "cudaMemcpy3DAsync (lowpass octant)");
    return LW_OK;
}

/* inverse pyramids: the level-1 lowpass octant, compact, for the planes */
static void ws_tile3d(const lw_plan *p, lw_cuda_sched *s)
{
    s->scratch = p->geo.levels > 1 && p->cfg.direction == LW_INVERSE ? align256(lw_cuda_octant_bytes(p, s, 1)) : 0;
}

static lw_status run_tile3d(run_ctx *r, void *scratch)
{
    const lw_plan *p = r->p;
    const lw_cuda_sched *s = r->s;
    const lw_geometry *g = &p->geo;
    const int inv = p->cfg.direction == LW_INVERSE, L = g->levels;
    int pa = tile3d_pass_axis(p), a0 = pa == 0 ? 1 : 0, a1 = 2;
    if (inv && L > 1) {
        /* levels L..2 in place on out's octant (a copy of in's), coarse first;
         * then the octant, compact, is the planes' lowpass source for the
         * lower half of z (out is overwritten by the planes) */
        LW_TRY(octant_copy(p, s, r->out, 1, r->in, 1, r->st));
        r->cur = r->out;
        for (int k = L - 1; k >= 1; k--) LW_TRY(pass_level(r, k, 1, &s->w, 1, -1));
        LW_TRY(octant_copy(p, s, scratch, 0, r->out, 1, r->st));
    }
    lwk_tile2d t;
    tile_setup(p, s, 0, a0, a1, &t);
    lwk_plane a, b;
    memset(&a, 0, sizeof a);
    a.rs = g->strides[g->axes[a0]];
    int nb = 0;
    int64_t bl[2] = {1, 1};
    for (int i = 0; i < g->rank; i++)
        if (i != g->axes[a0] && i != g->axes[a1]) {
            if (nb == 2) return lw_fail(LW_ERR_INTERNAL, "tile3d: too many batch dimensions");
            bl[nb] = g->shape[i], a.bs[nb] = g->strides[i], nb++;
        }
    t.blen[0] = bl[0], t.blen[1] = bl[1];
    b = a;
    a.p = r->in, b.p = r->out;
    if (inv && L > 1) {
        /* (axis order changes only rounding for float data: planes first) the
         * planes of the lower half of z take their lowpass quadrant from the
         * octant in scratch, those of the upper half from in */
        const int64_t hz = g->len[1][0], z = g->shape[0];
        lwk_plane ll = a, det = a, dst = b;
        ll.p = scratch, ll.rs = g->len[1][2], ll.bs[0] = g->len[1][1] * g->len[1][2];
        t.blen[0] = hz;
        CK(lwk_tile2d_inverse(s->dtype, &t, ll, det, dst, r->st), "cuda tile2d kernel launch");
        const size_t off = (size_t)(hz * g->strides[0]) * s->esize;
        det.p = (const char *)r->in + off, dst.p = (char *)r->out + off;
        t.blen[0] = z - hz;
        if (z > hz) CK(lwk_tile2d_inverse(s->dtype, &t, det, det, dst, r->st), "cuda tile2d kernel launch");
    } else if (inv) {
        CK(lwk_tile2d_inverse(s->dtype, &t, a, a, b, r->st), "cuda tile2d kernel launch");
    } else {
        CK(lwk_tile2d_forward(s->dtype, &t, a, b, b, r->st), "cuda tile2d kernel launch");
    }
    r->cur = r->out;
    lwk_pass ps;
    memset(&ps, 0, sizeof ps);
    ps.w = s->w;
    lw_lines_for(p, 0, pa, &ps.L);
    ps.mode = (int)p->cfg.mode, ps.inverse = inv, ps.mallat = 1;
    LW_TRY(lw_cuda_whole_pass(s, &ps, r->out, r->out, r->st));
    if (!inv) /* levels 2.. in place on out's lowpass octant */
        for (int k = 1; k < L; k++) LW_TRY(pass_level(r, k, 0, &s->w, 1, -1));
    return LW_OK;
}

lw_status lw_cuda_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                      cudaStream_t st)
{
    run_ctx r;
    memset(&r, 0, sizeof r);
    r.p = p, r.s = s, r.in = in, r.out = out, r.st = st, r.cur = in, r.scr = scratch;
    int inplace = in == out;
    r.tmp = s->tmp_full && (inplace || s->engine == LWE_GENERIC || s->engine == LWE_FS) ? scratch : NULL;
    if (s->engine == LWE_SCHEME) return lw_cuda_run_scheme(p, s, in, out, scratch, st);
    const engine_rec *e = &engines[s->engine_index];
    if (inplace && s->small_inplace) return run_small(&r, scratch);
    if (inplace && lw_cuda_inplace_routed(p, e->id)) {
        if (p->tune.inplace != 2)
            return s->ip2d       ? lw_ip2d_run(p, s, in, out, scratch, st)
                   : s->l1_route ? lw_line1d_run(p, s, in, out, scratch, st)
                                 : run_generic(&r, scratch);
        /* inplace=copy: the engine into the scratch's first part, then back */
        r.out = scratch;
        LW_TRY(e->run(&r, (char *)scratch + align256(s->bytes)));
        CK(cudaMemcpyAsync(out, scratch, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync (in place by copy)");
        return LW_OK;
    }
    return e->run(&r, scratch);
}
