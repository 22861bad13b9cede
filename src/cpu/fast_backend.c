/* The tuned cpu backend: plan-time tables and the level loop.
 *
 * Every level runs out of place, from a source nobody writes during the
 * level, so threads never race and the Mallat reordering needs no cycle
 * following:
 *   forward  level 0 reads in, writes out; the all-lowpass samples of level k
 *            go to a dense buffer T(k+1) (the next level's input) instead of
 *            out, except at the last level.
 *   inverse  level k reads the detail coefficients from in and the lowpass
 *            ones from T(k+1) (the previous inverse level's output), and
 *            writes T(k), or out at level 0.
 * So an out-of-place transform reads and writes each sample once per level it
 * touches, with scratch of 1/2^d + 1/4^d of the data (d active axes).  In
 * place (in == out), where every level's engine runs it in place (engine
 * record's in_place: the nd engine on levels with one vertical axis, the
 * planes engine), each level runs in the array on its own grid, with no
 * lowpass buffers and no copy; a Mallat level on the nd engine lifts its rows
 * in sample order, and fast_rows.c moves them along their cycles after a
 * forward level or before an inverse one.  Otherwise the input is first
 * copied to a full-size buffer and the levels run as out of place.
 *
 * Integer transforms run in int32 lanes.  That is exact while every value a
 * lifting step reads or writes stays below 2^29 in magnitude (2^26 for
 * dd137, whose taps sum to 20), and the kernels flag any value beyond; a
 * flagged transform is recomputed by the reference from the untouched input,
 * so results always equal the reference bit for bit, and a result that does
 * not fit int32 gets the reference's LW_ERR_INTEGER_OVERFLOW.  In place there
 * is no untouched input: a flagged transform is first undone in the array by
 * the opposite direction's levels.  That is exact whatever overflowed: the
 * lanes add and subtract modulo 2^32, and each lifting step's delta is a
 * function of samples the step does not write, which hold the same values
 * when the opposite step computes it again. */
#include "fast_internal.h"

#include "../core/half.h"

#include <stdlib.h>
#include <string.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

/* Streaming stores for levels whose output is at least this large (measured
 * no slower than cached stores for 3-D and 2-D outputs from 64 MiB up on
 * both test machines, also where the output would fit in a large L3). */
#define LW_FAST_NT_BYTES (16.0 * 1024 * 1024)

static void prep_steps(lw_fast_plan *fp, const lw_wavelet_def *w)
{
    int sumc = 0;
    fp->nsteps = w->nsteps;
    fp->D = 1;
    for (int q = 0; q < w->nsteps; q++) {
        const lw_step *s = &w->steps[q];
        lw_fstep *f = &fp->steps[q];
        memset(f, 0, sizeof *f);
        f->target_odd = s->target_odd;
        f->ntaps = s->ntaps;
        int sc = 0;
        for (int i = 0; i < s->ntaps; i++) {
            f->off[i] = s->offset[i];
            f->wd[i] = s->weight[i];
            f->wf[i] = (float)s->weight[i];
            f->ic[i] = s->icoef[i];
            sc += abs(s->icoef[i]);
            int a = abs(s->offset[i]);
            if (a > fp->D) fp->D = a;
        }
        if (sc > sumc) sumc = sc;
        f->iadd = s->iadd;
        f->ishift = s->ishift;
        f->isign = s->isign;
        if (s->ntaps == 1) {
            f->kind = LW_FK_1;
        } else if (s->ntaps == 2) {
            f->kind = (s->weight[0] == s->weight[1] && s->icoef[0] == s->icoef[1]) ? LW_FK_2S : LW_FK_2;
        } else {
            /* taps -3, -1, +1, +3, symmetric: weights (wf, wn) kept in [0], [1] */
            f->kind = LW_FK_4S;
        }
    }
    fp->E = fp->nsteps * fp->D;
    uint32_t lim = sumc > 4 ? (1u << 26) : (1u << 29);
    for (int q = 0; q < fp->nsteps; q++) {
        fp->steps[q].gbias = lim - 1;
        fp->steps[q].glim = 2 * lim - 2;
    }
}

typedef struct fast_shape fast_shape;
static int shape_of(const lw_plan *plan, fast_shape *fs);
static void build_level(const lw_plan *plan, const fast_shape *fs, int k, const int64_t *sst, const int64_t *dst,
                        const int64_t *lst, lw_fast_level *lv);
static lw_status force_engine(lw_plan *plan, lw_fast_plan *fp);

/* A periodic adjoint of a separable float plan runs as a plain transform of
 * the transposed steps, on the engines of the forward and the inverse
 * (lw_wavelet_transpose); scheme "adjoint" keeps the transposed-step engine. */
static int transposed_route(const lw_plan *plan)
{
    return lw_dir_adjoint(plan->cfg.direction) && plan->cfg.mode == LW_PERIODIC && plan->wav->separable &&
           !plan->cfg.integer && strcmp(plan->scheme, "adjoint") != 0;
}

lw_status lw_fast_plan_create(lw_plan *plan)
{
    if (plan->cfg.flags & LW_FLAG_DEVICE_POINTERS)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "device pointers need the cuda backend");
    if (lw_dtype_is_half(plan->cfg.dtype)) return lw_half_plan_create(plan);
    const lw_wavelet_def *w = plan->wav;
    for (int q = 0; q < w->nsteps; q++) {
        const lw_step *s = &w->steps[q];
        int ok = s->ntaps == 1 || s->ntaps == 2 ||
                 (s->ntaps == 4 && s->offset[0] == -3 && s->offset[1] == -1 && s->offset[2] == 1 &&
                  s->offset[3] == 3 && s->weight[0] == s->weight[3] && s->weight[1] == s->weight[2] &&
                  s->icoef[0] == s->icoef[3] && s->icoef[1] == s->icoef[2]);
        if (!ok) return lw_fail(LW_ERR_INTERNAL, "cpu backend: unsupported lifting step shape in %s", w->name);
    }
    lw_simd simd;
    lw_status st = lw_simd_choose(plan->tune.simd, &simd);
    if (st != LW_OK) return st;
    lw_fast_plan *fp = calloc(1, sizeof *fp);
    if (!fp) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the cpu plan");
    fp->simd = simd;
    fp->tune = plan->tune;
    fp->threads = lw_cpu_threads(plan->cfg.threads);
    fp->k = lw_simd_kernels(fp->simd, plan->cfg.dtype);
    fp->es = lw_dtype_size(plan->cfg.dtype);
    fp->isint = plan->cfg.integer != 0;
    fp->run = plan->cfg.direction;
    lw_wavelet_def wt;
    if (transposed_route(plan)) {
        lw_wavelet_transpose(w, &wt);
        w = &wt;
        fp->run = plan->cfg.direction == LW_FORWARD_ADJOINT ? LW_INVERSE : LW_FORWARD;
    }
    prep_steps(fp, w);
    fp->fused = fp->k->lift2s != NULL && (fp->nsteps == 1 || fp->nsteps == 2 || fp->nsteps == 4);
    for (int q = 0; q < fp->nsteps; q++) {
        const lw_fstep *f = &fp->steps[q];
        if (f->kind != LW_FK_2S || f->off[0] != -1 || f->off[1] != 1 || f->target_odd != !(q & 1)) fp->fused = 0;
    }
    fp->zl = fp->isint ? 1.0 : w->zeta_low;
    fp->zh = fp->isint ? 1.0 : w->zeta_high;
    plan->impl = fp;
    st = force_engine(plan, fp);
    if (st != LW_OK) lw_fast_destroy(plan);
    return st;
}

const char *lw_cpu_plan_simd(const lw_plan *plan)
{
    if (!plan || plan->ops != &lw_backend_cpu || !plan->impl) return NULL;
    if (lw_dtype_is_half(plan->cfg.dtype)) return lw_cpu_plan_simd(lw_half_inner(plan));
    return lw_simd_name(((const lw_fast_plan *)plan->impl)->simd);
}

void lw_fast_destroy(lw_plan *plan)
{
    if (lw_dtype_is_half(plan->cfg.dtype)) {
        lw_half_destroy(plan);
        return;
    }
    lw_fast_plan *fp = (lw_fast_plan *)plan->impl;
    if (fp) free(fp->cache);
    free(fp);
    plan->impl = NULL;
}

/* Scratch for one execute: the plan's cached block when free, else malloc. */
static void *scratch_get(lw_fast_plan *fp, size_t bytes, int *cached)
{
    *cached = 0;
    if (!__atomic_exchange_n(&fp->cache_busy, 1, __ATOMIC_ACQUIRE)) {
        if (fp->cache_size < bytes) {
            free(fp->cache);
            fp->cache = malloc(bytes);
            fp->cache_size = fp->cache ? bytes : 0;
        }
        if (fp->cache) {
            *cached = 1;
            return fp->cache;
        }
        __atomic_store_n(&fp->cache_busy, 0, __ATOMIC_RELEASE);
    }
    return malloc(bytes);
}

static void scratch_put(lw_fast_plan *fp, void *p, int cached)
{
    if (cached)
        __atomic_store_n(&fp->cache_busy, 0, __ATOMIC_RELEASE);
    else
        free(p);
}

/* ---- views ---------------------------------------------------------------- */

struct fast_shape {
    int nact;
    int ax[LW_MAX_AXES];  /* array axis of each active (length > 1) transformed axis */
    int gi[LW_MAX_AXES];  /* its index in geo->axes / geo->len */
    int fsmode, cmode;    /* non-separable Faber-Schauder; rows of contiguous batch elements */
    int gmode;            /* the C elements after the last active axis are one sample (lines of groups) */
    int64_t C;            /* elements after the last active axis */
};

static void dense_strides(const lw_plan *plan, const fast_shape *fs, int k, int64_t *st)
{
    const lw_geometry *geo = &plan->geo;
    int64_t len[LW_MAX_RANK];
    for (int i = 0; i < geo->rank; i++) len[i] = geo->shape[i];
    for (int a = 0; a < fs->nact; a++) len[fs->ax[a]] = geo->len[k][fs->gi[a]];
    int64_t s = 1;
    for (int i = geo->rank - 1; i >= 0; i--) {
        st[i] = s;
        s *= len[i];
    }
}

static int64_t dense_count(const lw_plan *plan, const fast_shape *fs, int k)
{
    const lw_geometry *geo = &plan->geo;
    int64_t c = geo->total;
    for (int a = 0; a < fs->nact; a++) c = c / geo->shape[fs->ax[a]] * geo->len[k][fs->gi[a]];
    return c;
}

static int is_active(const fast_shape *fs, int axis)
{
    for (int a = 0; a < fs->nact; a++)
        if (fs->ax[a] == axis) return 1;
    return 0;
}

/* Describe level k with the given per-array-axis strides of src, dst, ll. */
static void build_level(const lw_plan *plan, const fast_shape *fs, int k, const int64_t *sst, const int64_t *dst,
                        const int64_t *lst, lw_fast_level *lv)
{
    const lw_geometry *geo = &plan->geo;
    memset(lv, 0, sizeof *lv);
    lv->fp = (const lw_fast_plan *)plan->impl;
    lv->mode = plan->cfg.mode;
    lv->mallat = plan->cfg.layout == LW_MALLAT;
    lv->inverse = lv->fp->run == LW_INVERSE;
    lv->has_ll = lst != NULL;
    lv->fsmode = fs->fsmode;
    lv->adjoint = lw_dir_adjoint(lv->fp->run);
    lv->plan = plan;
    lv->level = k;
    lv->G = 1;
    int last = fs->ax[fs->nact - 1];
    int groups = fs->gmode && !lv->adjoint;
    int nv = (fs->fsmode || fs->cmode) ? fs->nact : fs->nact - 1;
    lv->nv = nv;
    for (int d = 0; d < nv; d++) {
        int a = fs->ax[d];
        lv->n[d] = geo->len[k][fs->gi[d]];
        lv->ss[d] = sst[a];
        lv->ds[d] = dst[a];
        lv->ls[d] = lst ? lst[a] : 0;
    }
    if (fs->cmode) {
        lv->hlift = 0;
        lv->rowlen = fs->C;
        lv->srs = lv->drs = lv->lrs = 1;
    } else if (fs->fsmode) {
        lv->hlift = 0;
        lv->rowlen = 1;
        lv->srs = lv->drs = lv->lrs = 1;
    } else {
        lv->hlift = 1;
        lv->rowlen = geo->len[k][fs->gi[fs->nact - 1]];
        lv->srs = sst[last];
        lv->drs = dst[last];
        lv->lrs = lst ? lst[last] : 1;
        if (groups) lv->G = fs->C;
    }
    for (int i = 0; i < geo->rank; i++) {
        if (is_active(fs, i) || geo->shape[i] == 1) continue;
        if ((fs->cmode || groups) && i > last) continue; /* inside the rows / the samples */
        lv->bn[lv->nb] = geo->shape[i];
        lv->bss[lv->nb] = sst[i];
        lv->bds[lv->nb] = dst[i];
        lv->bls[lv->nb] = lst ? lst[i] : 0;
        lv->nb++;
    }
}

static void par_copy(void *dst, const void *src, size_t bytes, int threads)
{
    size_t chunk = (size_t)1 << 20;
    int64_t nch = (int64_t)((bytes + chunk - 1) / chunk);
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && nch > 1) schedule(static)
#endif
    for (int64_t i = 0; i < nch; i++) {
        size_t o = (size_t)i * chunk, m = bytes - o < chunk ? bytes - o : chunk;
        memcpy((char *)dst + o, (const char *)src + o, m);
    }
}

/* The strides level k of an out-of-place execute reads and writes: the forward from the input
 * (level 0) or the dense lowpass of the level before, into the output (interleaved: every 2^k-th
 * place) and the next level's dense lowpass (ll, below the last level); the inverse the reverse. */
typedef struct level_strides {
    int64_t src[LW_MAX_RANK], dst[LW_MAX_RANK], ll[LW_MAX_RANK];
} level_strides;

static void strides_of(const lw_plan *plan, const fast_shape *fs, int k, level_strides *sv)
{
    const lw_geometry *geo = &plan->geo;
    int64_t grid[LW_MAX_RANK] = {0}, cur[LW_MAX_RANK] = {0};
    int64_t g = plan->cfg.layout == LW_INTERLEAVED ? ((int64_t)1 << k) : 1;
    memset(sv, 0, sizeof *sv);
    for (int i = 0; i < geo->rank; i++) grid[i] = geo->strides[i];
    for (int a = 0; a < fs->nact; a++) grid[fs->ax[a]] *= g;
    dense_strides(plan, fs, k, cur);
    dense_strides(plan, fs, k + 1, sv->ll);
    const int64_t *samples = k == 0 ? geo->strides : cur;
    int inverse = ((const lw_fast_plan *)plan->impl)->run == LW_INVERSE;
    memcpy(sv->src, inverse ? grid : samples, sizeof sv->src);
    memcpy(sv->dst, inverse ? samples : grid, sizeof sv->dst);
}

/* streaming stores once a level's output is well beyond the caches */
static void stores_of(const lw_plan *plan, const fast_shape *fs, int k, lw_fast_level *lv)
{
    lv->nt = (double)dense_count(plan, fs, k) * (double)lv->fp->es >= LW_FAST_NT_BYTES;
    if (lv->fp->tune.stream) lv->nt = lv->fp->tune.stream == 2; /* tuning: stream=cached|streaming */
}

static lw_status run_level(const lw_plan *plan, const fast_shape *fs, int k, const char *src, const int64_t *sst,
                           char *dst, const int64_t *dst_st, char *ll, const int64_t *lst, int threads, int *guard,
                           char *scratch, size_t per_thread)
{
    lw_fast_level lv;
    build_level(plan, fs, k, sst, dst_st, ll ? lst : NULL, &lv);
    stores_of(plan, fs, k, &lv);
    return lw_cpu_engine_for(&lv)->run(&lv, src, dst, ll, threads, guard, scratch, per_thread);
}

/* Level k of an in-place run: src and dst the level's grid in the array, no
 * lowpass buffer (the all-lowpass samples stay in the array for the next
 * level); vil set where route is 2; undo: the opposite direction's level (the
 * grid is the same either way) */
static void in_place_level(const lw_plan *plan, const fast_shape *fs, int k, int route, int undo, lw_fast_level *lv)
{
    level_strides sv;
    strides_of(plan, fs, k, &sv);
    const int64_t *grid = ((const lw_fast_plan *)plan->impl)->run == LW_INVERSE ? sv.src : sv.dst;
    build_level(plan, fs, k, grid, grid, NULL, lv);
    stores_of(plan, fs, k, lv);
    lv->vil = route == 2;
    if (lv->vil && lv->nv == 0) lv->mallat = 0; /* a line: lifted in sample order, then reordered */
    if (undo) lv->inverse = !lv->inverse;
}

/* Whether every level runs in place in the array on its engine (in == out:
 * no copy of the input, no lowpass buffers): route[k] 1 as the level is, 2
 * with its rows in sample order, moved to and from Mallat order
 * (fast_rows.c); undo[k] the same for the opposite direction's level, which
 * integer transforms need too (a flagged one is undone in the array, then
 * recomputed).  Not with tuning inplace=copy. */
static int in_place_routes(const lw_plan *plan, const fast_shape *fs, int *route, int *undo)
{
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    if (fp->tune.inplace == 2) return 0; /* tuning inplace=copy: the copy, by choice */
    for (int k = 0; k < plan->geo.levels; k++) {
        lw_fast_level lv;
        in_place_level(plan, fs, k, 0, 0, &lv);
        if (!lw_cpu_engine_in_place_for(&lv, &route[k])) return 0;
        undo[k] = 0;
        if (!fp->isint) continue;
        in_place_level(plan, fs, k, 0, 1, &lv);
        if (!lw_cpu_engine_in_place_for(&lv, &undo[k])) return 0;
    }
    return 1;
}

/* In place, every level in the array (the plan's direction, or with undo
 * the opposite one, levels in that direction's order): a forward level with
 * route 2 moves its rows to Mallat order after it, an inverse one from Mallat
 * order before.  *guard: set where an integer lane flagged an overflow. */
static lw_status in_place_levels(const lw_plan *plan, const fast_shape *fs, char *data, const int *route, int undo,
                                 int *guard)
{
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    const int L = plan->geo.levels, threads = fp->threads, inverse = (fp->run == LW_INVERSE) != (undo != 0);
    lw_fast_level lv0;
    int r = 0;
    in_place_level(plan, fs, 0, route[0], undo, &lv0);
    const size_t per_thread = lw_cpu_engine_in_place_for(&lv0, &r)->scratch(&lv0), tb = per_thread * (size_t)threads;
    char *blk = NULL, *ring = NULL;
    int cached = 0;
    if (tb) {
        blk = scratch_get((lw_fast_plan *)fp, tb + 64, &cached);
        if (!blk) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes of cpu backend buffers", tb);
        ring = (char *)(((uintptr_t)blk + 63) & ~(uintptr_t)63);
    }
    lw_status st = LW_OK;
    for (int q = 0; q < L && st == LW_OK; q++) {
        const int k = inverse ? L - 1 - q : q;
        lw_fast_level lv;
        in_place_level(plan, fs, k, route[k], undo, &lv);
        const lw_cpu_engine *e = lw_cpu_engine_in_place_for(&lv, &r);
        if (lv.vil && inverse) st = lw_fast_move_rows(&lv, data, 0, threads);
        if (st == LW_OK) st = e->run(&lv, data, data, NULL, threads, guard, ring, per_thread);
        if (st == LW_OK && lv.vil && !inverse) st = lw_fast_move_rows(&lv, data, 1, threads);
    }
    if (blk) scratch_put((lw_fast_plan *)fp, blk, cached);
    return st;
}

/* In place, every level in the array; an integer transform that flagged an
 * overflow is undone there (the input back, bit for bit) and recomputed
 * exactly, as out of place recomputes it from the input */
static lw_status run_in_place(const lw_plan *plan, const fast_shape *fs, char *data, const int *route,
                              const int *undo)
{
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    int guard = 0, ignored = 0;
    lw_status st = in_place_levels(plan, fs, data, route, 0, &guard);
    if (st != LW_OK || !guard) return st;
    if (!fp->isint) return lw_fail(LW_ERR_INTERNAL, "an in-place float transform flagged an integer overflow");
    st = in_place_levels(plan, fs, data, undo, 1, &ignored);
    return st == LW_OK ? lw_ref_transform(plan, data) : st;
}

/* The active (length > 1) transformed axes; 0 when there is nothing to lift. */
static int shape_of(const lw_plan *plan, fast_shape *fs)
{
    const lw_geometry *geo = &plan->geo;
    memset(fs, 0, sizeof *fs);
    for (int a = 0; a < geo->naxes; a++)
        if (geo->shape[geo->axes[a]] > 1) {
            fs->ax[fs->nact] = geo->axes[a];
            fs->gi[fs->nact++] = a;
        }
    if (geo->levels == 0 || fs->nact == 0) return 0;
    fs->C = 1;
    for (int i = fs->ax[fs->nact - 1] + 1; i < geo->rank; i++) fs->C *= geo->shape[i];
    fs->fsmode = !plan->wav->separable && fs->nact >= 2;
    /* The C contiguous elements after the last transformed axis (channels last): below 64, one
     * sample of the lifted rows (lines of groups, fast_line.c; the nd engine, unless the plan names
     * another); from 64 on, rows of C elements with every transformed axis vertical, whose rows stay
     * small where a line of groups outgrows the caches (bench/NOTES-cpu.md) */
    fs->cmode = !fs->fsmode && fs->C >= 64;
    fs->gmode = !fs->fsmode && !fs->cmode && fs->C > 1 &&
                (strcmp(plan->scheme, "auto") == 0 || strcmp(plan->scheme, "nd") == 0);
    return 1;
}

/* lw_config.scheme names an engine: it must exist and apply (every level has
 * the structure of level 0, so level 0 decides). */
static lw_status force_engine(lw_plan *plan, lw_fast_plan *fp)
{
    fp->engine = -1;
    if (strcmp(plan->scheme, "auto") == 0) return LW_OK;
    int e = lw_cpu_engine_find(plan->scheme);
    if (e < 0) {
        char names[128] = "";
        for (int i = 0; i < lw_cpu_engine_count(); i++) {
            strncat(names, i ? ", " : "", sizeof names - strlen(names) - 1);
            strncat(names, lw_cpu_engine_at(i)->name, sizeof names - strlen(names) - 1);
        }
        return lw_fail(LW_ERR_UNSUPPORTED, "scheme '%s' is no engine of the cpu backend (auto, %s)", plan->scheme,
                       names);
    }
    fast_shape fs;
    if (shape_of(plan, &fs)) {
        lw_fast_level lv0;
        build_level(plan, &fs, 0, plan->geo.strides, plan->geo.strides, NULL, &lv0);
        lv0.fp = fp;
        if (!lw_cpu_engine_at(e)->applies(&lv0))
            return lw_fail(LW_ERR_UNSUPPORTED, "cpu engine '%s' does not apply to this plan (%s)", plan->scheme,
                           lw_cpu_engine_at(e)->about);
    }
    fp->engine = e;
    return LW_OK;
}

void lw_fast_describe(const lw_plan *plan, char *buf, size_t len)
{
    if (lw_dtype_is_half(plan->cfg.dtype)) {
        lw_half_describe(plan, buf, len);
        return;
    }
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    lw_appendf(buf, len, "simd: %s\nthreads: %d\nengines:", lw_simd_name(fp->simd), fp->threads);
    fast_shape fs;
    if (!shape_of(plan, &fs)) {
        lw_appendf(buf, len, " copy\n");
        return;
    }
    for (int k = 0; k < plan->geo.levels; k++) {
        lw_fast_level lv;
        level_strides sv;
        strides_of(plan, &fs, k, &sv);
        if (lw_dir_adjoint(fp->run)) /* in place, level by level */
            build_level(plan, &fs, k, plan->geo.strides, plan->geo.strides, NULL, &lv);
        else
            build_level(plan, &fs, k, sv.src, sv.dst, k + 1 < plan->geo.levels ? sv.ll : NULL, &lv);
        lw_appendf(buf, len, " %s", lw_cpu_engine_for(&lv)->name);
    }
    lw_appendf(buf, len, " (levels 1..%d)\n", plan->geo.levels);
    if (!lw_dir_adjoint(fp->run)) {
        int route[LW_MAX_LEVELS], undo[LW_MAX_LEVELS], moved = 0;
        size_t kept = 0;
        if (in_place_routes(plan, &fs, route, undo)) {
            for (int k = 0; k < plan->geo.levels; k++) {
                lw_fast_level lv;
                int r = 0;
                in_place_level(plan, &fs, k, route[k], 0, &lv);
                const lw_cpu_engine *e = lw_cpu_engine_in_place_for(&lv, &r);
                const size_t b = e->in_place_bytes ? e->in_place_bytes(&lv, fp->threads) : 0;
                if (b > kept) kept = b;
                moved |= route[k] == 2;
            }
            lw_appendf(buf, len, "in place (in == out): every level in the array (%zu bytes of rows kept)%s\n", kept,
                       moved ? ", the rows of each level (a line's chunks) lifted in sample order and moved to "
                               "Mallat order along their cycles"
                             : "");
        } else {
            lw_appendf(buf, len, "in place (in == out): the input copied first (%zu bytes)\n",
                       (size_t)plan->geo.total * fp->es);
        }
    }
    if (fp->run != plan->cfg.direction)
        lw_appendf(buf, len, "adjoint: periodic, run as the %s of the transposed steps\n", lw_direction_str(fp->run));
}

/* The adjoint directions: every level in place in out, coarse to fine for
 * the forward's adjoint, fine to coarse for the inverse's, on the level's
 * engine ("adjoint"). */
static lw_status run_adjoint(const lw_plan *plan, const fast_shape *fs, const void *in, void *out)
{
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    if (in != out) par_copy(out, in, (size_t)plan->geo.total * fp->es, fp->threads);
    int L = plan->geo.levels, coarse = lw_dir_coarse_first(plan->cfg.direction), guard = 0;
    for (int q = 0; q < L; q++) {
        int k = coarse ? L - 1 - q : q;
        lw_fast_level lv;
        build_level(plan, fs, k, plan->geo.strides, plan->geo.strides, NULL, &lv);
        LW_TRY(lw_cpu_engine_for(&lv)->run(&lv, (const char *)out, (char *)out, NULL, fp->threads, &guard, NULL, 0));
    }
    return LW_OK;
}

lw_status lw_fast_execute(const lw_plan *plan, const void *in, void *out)
{
    if (lw_dtype_is_half(plan->cfg.dtype)) return lw_half_execute(plan, in, out);
    const lw_geometry *geo = &plan->geo;
    const lw_fast_plan *fp = (const lw_fast_plan *)plan->impl;
    size_t es = fp->es, bytes = (size_t)geo->total * es;
    int L = geo->levels, threads = fp->threads;
    fast_shape fs;
    if (!shape_of(plan, &fs)) {
        if (in != out) par_copy(out, in, bytes, threads);
        return LW_OK;
    }
    if (lw_dir_adjoint(fp->run)) return run_adjoint(plan, &fs, in, out);

    /* one block: F (in place, where the levels cannot run so: a copy of the
     * input), T(odd k) sized for level 1, T(even k >= 2) for level 2 */
    int route[LW_MAX_LEVELS], undo[LW_MAX_LEVELS];
    if (in == out && in_place_routes(plan, &fs, route, undo)) return run_in_place(plan, &fs, out, route, undo);
    size_t fb = in == out ? bytes : 0, t0 = 0, t1 = 0;
    if (L > 1) t0 = (size_t)dense_count(plan, &fs, 1) * es;
    if (L > 2) t1 = (size_t)dense_count(plan, &fs, 2) * es;
    fb = (fb + 63) & ~(size_t)63;
    t0 = (t0 + 63) & ~(size_t)63;
    t1 = (t1 + 63) & ~(size_t)63;
    /* per-thread rings, sized for level 0 (the largest) */
    lw_fast_level lv0;
    build_level(plan, &fs, 0, geo->strides, geo->strides, NULL, &lv0);
    size_t per_thread = lw_cpu_engine_for(&lv0)->scratch(&lv0);
    size_t tb = per_thread * (size_t)threads;
    char *blk = NULL, *F = NULL, *T[2] = {NULL, NULL};
    int cached = 0;
    lw_status st = LW_OK;
    char *ring = NULL;
    if (fb + t0 + t1 + tb > 0) {
        blk = scratch_get((lw_fast_plan *)fp, fb + t0 + t1 + tb + 64, &cached);
        if (!blk)
            return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes of cpu backend buffers",
                           fb + t0 + t1 + tb);
        char *a = (char *)(((uintptr_t)blk + 63) & ~(uintptr_t)63);
        if (fb) F = a;
        if (t0) T[0] = a + fb;
        if (t1) T[1] = a + fb + t0;
        if (tb) ring = a + fb + t0 + t1;
    }
    const char *src0 = (const char *)in;
    if (F) {
        par_copy(F, in, bytes, threads);
        src0 = F;
    }
    int guard = 0, inverse = fp->run == LW_INVERSE;
    for (int q = 0; q < L && st == LW_OK; q++) {
        int k = inverse ? L - 1 - q : q;
        level_strides sv;
        strides_of(plan, &fs, k, &sv);
        char *Tk = k > 0 ? T[(k - 1) & 1] : NULL;
        char *Tn = k + 1 < L ? T[k & 1] : NULL;
        if (!inverse)
            st = run_level(plan, &fs, k, k == 0 ? src0 : Tk, sv.src, (char *)out, sv.dst, Tn, sv.ll, threads, &guard,
                           ring, per_thread);
        else
            st = run_level(plan, &fs, k, src0, sv.src, k == 0 ? (char *)out : Tk, sv.dst, Tn, sv.ll, threads, &guard,
                           ring, per_thread);
    }
    if (st == LW_OK && guard) {
        /* int32 lanes could have overflowed: recompute exactly */
        if ((const void *)src0 != out) par_copy(out, src0, bytes, threads);
        st = lw_ref_transform(plan, out);
    }
    if (blk) scratch_put((lw_fast_plan *)fp, blk, cached);
    return st;
}
