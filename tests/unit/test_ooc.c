/* The out-of-core streaming (src/core/ooc.h) against the in-core transform,
 * through an emulated device: "device" buffers are host memory counted
 * against the budget (an allocation past it fails), sub-plans run on the
 * cpu backend, and downloads either land at once or only at finish (as
 * pageable staging does) so that neither a read of rows already written
 * back nor a reliance on rows not yet written back goes unnoticed; with the
 * slab loop's lookahead (ooc_ahead: the next slab's uploads begun before a
 * slab runs), begun uploads read the host and land on the device only when
 * their queue's uploads are ended, so that a slab using its rows before
 * that, or a host row overwritten before it is read, shows.
 *
 * Sweep: every wavelet (float, and the integer variants bit for bit), both
 * modes, both layouts, 1-D / 2-D / 3-D, batches (groups of items, or
 * slabs of each item), axes that leave axis 0 or the last axis out, 1, 2,
 * and the most levels (the lowpass corner's levels after the streamed
 * ones), forward, inverse and the adjoints, in place and out of place, two
 * budgets; float64, float16 and bfloat16 on a subset.  The budget is never
 * exceeded, nothing stays allocated, and a pass without a corner moves each
 * host row once each way.  Also: the row permutation, the halos, and a
 * budget too small. */
#include "lw_test.h"
#include "core/half.h"
#include "core/ooc.h"

#include <math.h>
#include <string.h>

/* ---- the emulated device -------------------------------------------------------- */

typedef struct pending {
    char *host;
    lw_ooc_box b;
    char *data;
} pending;

typedef struct up_pending {
    char *dev;
    const char *host;
    lw_ooc_box b;
    int q;
} up_pending;

typedef struct emu {
    size_t held, peak;
    int defer, ahead;
    pending *pend;
    int npend, cap;
    up_pending *ups;
    int nups, upcap;
    long begun; /* uploads begun (lookahead) */
    long copies, runs;
    size_t up, down; /* bytes moved each way between the host and the device */
} emu;

static void box_copy(char *dst, const char *src, const lw_ooc_box *b)
{
    for (int64_t z = 0; z < b->nz; z++)
        for (int64_t y = 0; y < b->ny; y++)
            memcpy(dst + (size_t)z * b->dplane + (size_t)y * b->dpitch, src + (size_t)z * b->splane + (size_t)y * b->spitch,
                   b->row);
}

static lw_status emu_make_sub(void *ctx, lw_config *cfg, lw_plan **sub, size_t *scr)
{
    (void)ctx;
    cfg->backend = LW_BACKEND_CPU;
    cfg->threads = 1;
    lw_status st = lw_plan_create(sub, cfg);
    size_t n = lw_dtype_size(cfg->dtype);
    for (int d = 0; d < cfg->rank; d++) n *= (size_t)cfg->shape[d];
    *scr = n / 8; /* a scratch the accounting must carry */
    return st;
}

static void emu_drop_sub(void *ctx, lw_plan *sub)
{
    (void)ctx;
    lw_destroy(sub);
}

static lw_status emu_alloc(void *ctx, void **p, size_t bytes, const char *what)
{
    emu *e = ctx;
    (void)what;
    *p = NULL;
    if (!bytes) return LW_OK;
    size_t *h = malloc(bytes + 16);
    if (!h) return LW_ERR_OUT_OF_MEMORY;
    h[0] = bytes;
    e->held += bytes;
    if (e->held > e->peak) e->peak = e->held;
    *p = (char *)h + 16;
    return LW_OK;
}

static void emu_release(void *ctx, void *p)
{
    emu *e = ctx;
    if (!p) return;
    size_t *h = (size_t *)((char *)p - 16);
    e->held -= h[0];
    free(h);
}

static lw_status emu_copy(void *ctx, int kind, void *dst, const void *src, const lw_ooc_box *b, int q)
{
    emu *e = ctx;
    (void)q;
    e->copies++;
    if (kind != LW_OOC_D2D) *(kind == LW_OOC_UP ? &e->up : &e->down) += b->row * (size_t)(b->ny * b->nz);
    if (kind != LW_OOC_DOWN || !e->defer) {
        box_copy(dst, src, b);
        return LW_OK;
    }
    if (e->npend == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->pend = realloc(e->pend, (size_t)e->cap * sizeof *e->pend);
    }
    pending *x = &e->pend[e->npend++];
    x->host = dst, x->b = *b;
    x->data = malloc(b->row * (size_t)(b->ny * b->nz));
    lw_ooc_box c = *b; /* gathered compact now, scattered at finish */
    c.dpitch = b->row, c.dplane = b->row * (size_t)b->ny;
    box_copy(x->data, src, &c);
    return LW_OK;
}

static lw_status emu_run(void *ctx, const lw_plan *sub, const void *in, void *out, void *scr, int q)
{
    emu *e = ctx;
    (void)scr, (void)q;
    e->runs++;
    return lw_execute(sub, in, out);
}

static lw_status emu_event(void *ctx, int ev, int q)
{
    (void)ctx;
    return ev >= 0 && ev < LW_OOC_EVENTS && q >= 0 && q < LW_OOC_QUEUES ? LW_OK : LW_ERR_INTERNAL;
}

static lw_status emu_up_begin(void *ctx, void *dst, const void *src, const lw_ooc_box *b, int q)
{
    emu *e = ctx;
    if (q < 0 || q >= LW_OOC_QUEUES) return LW_ERR_INTERNAL;
    e->copies++, e->begun++;
    e->up += b->row * (size_t)(b->ny * b->nz);
    if (e->nups == e->upcap) {
        e->upcap = e->upcap ? 2 * e->upcap : 64;
        e->ups = realloc(e->ups, (size_t)e->upcap * sizeof *e->ups);
    }
    up_pending *u = &e->ups[e->nups++];
    u->dev = dst, u->host = src, u->b = *b, u->q = q;
    return LW_OK;
}

/* the begun uploads of queue q (q < 0: all), in the order begun */
static lw_status emu_ups_end(void *ctx, int q)
{
    emu *e = ctx;
    int k = 0;
    for (int i = 0; i < e->nups; i++) {
        if (q < 0 || e->ups[i].q == q) box_copy(e->ups[i].dev, e->ups[i].host, &e->ups[i].b);
        else e->ups[k++] = e->ups[i];
    }
    e->nups = k;
    return LW_OK;
}

static lw_status emu_finish(void *ctx)
{
    emu *e = ctx;
    emu_ups_end(e, -1);
    for (int i = 0; i < e->npend; i++) {
        pending *x = &e->pend[i];
        lw_ooc_box c = x->b;
        c.spitch = c.row, c.splane = c.row * (size_t)c.ny;
        box_copy(x->host, x->data, &c);
        free(x->data);
    }
    e->npend = 0;
    return LW_OK;
}

static lw_ooc_mover mover(emu *e, size_t budget)
{
    lw_ooc_mover m = {e, budget, emu_make_sub, emu_drop_sub, emu_alloc, emu_release, emu_copy, emu_run, emu_event,
                      emu_event, emu_finish, NULL, NULL};
    if (e->ahead) m.up_begin = emu_up_begin, m.ups_end = emu_ups_end;
    return m;
}

/* ---- cases -------------------------------------------------------------------------- */

typedef struct shape_case {
    int rank;
    int64_t shape[4];
    int naxes;
    int axes[3];
    int periodic_ok;
} shape_case;

static long ran, refused, exact_moves, lookahead_runs, stash_runs, stash_cases;

static void fill(void *x, size_t n, lw_dtype t)
{
    for (size_t i = 0; i < n; i++) {
        const double v = (double)(lw_rng_u64() >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        switch (t) {
        case LW_INT32: ((int32_t *)x)[i] = (int32_t)(lw_rng_u64() % 1001) - 500; break;
        case LW_FLOAT64: ((double *)x)[i] = v; break;
        case LW_FLOAT16: ((uint16_t *)x)[i] = lw_f32_to_f16((float)v); break;
        case LW_BFLOAT16: ((uint16_t *)x)[i] = lw_f32_to_bf16((float)v); break;
        default: ((float *)x)[i] = (float)v; break;
        }
    }
}

static void one(const lw_config *cfg, size_t budget_rows, int inplace, int defer, const char *label)
{
    lw_config c = *cfg;
    c.backend = LW_BACKEND_CPU;
    c.threads = inplace && defer ? 3 : 1; /* the in-place row permutation on several threads, or one */
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &c) != LW_OK) return; /* a combination the library refuses */
    size_t n = 1, es = lw_dtype_size(c.dtype);
    for (int d = 0; d < c.rank; d++) n *= (size_t)c.shape[d];
    void *x = malloc(n * es), *ref = malloc(n * es), *y = malloc(n * es), *x0 = malloc(n * es);
    fill(x, n, c.dtype);
    memcpy(x0, x, n * es);
    lw_status s0 = lw_execute(p, x, ref);
    if (s0 != LW_OK) { /* integer overflow and the like: nothing to compare */
        free(x), free(x0), free(ref), free(y), lw_destroy(p);
        return;
    }
    /* the budget in rows of the first transformed axis' trailing elements */
    size_t row = es;
    for (int d = p->geo.axes[0] + 1; d < c.rank; d++) row *= (size_t)c.shape[d];
    emu e;
    memset(&e, 0, sizeof e);
    e.defer = defer;
    static long calls;
    e.ahead = (calls++ >> 1) & 1; /* the lookahead on every other pair of cases (both download modes) */
    lw_ooc_mover m = mover(&e, budget_rows * row);
    char plan_text[512] = "";
    lw_ooc_describe(p, &m, inplace, plan_text, sizeof plan_text);
    stash_runs += strstr(plan_text, "into the output's last rows") != NULL;
    lw_status st;
    if (inplace) {
        memcpy(y, x, n * es);
        st = lw_ooc_execute(p, &m, y, y);
    } else {
        memset(y, 0x5a, n * es);
        st = lw_ooc_execute(p, &m, x, y);
    }
    if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) {
        refused++;
        CHECK(strstr(lw_last_error(), "device_memory_limit") || strstr(lw_last_error(), "bytes"),
              "%s: refusal without a reason: %s", label, lw_last_error());
    } else {
        ran++;
        CHECK(st == LW_OK, "%s: %s", label, lw_last_error());
        CHECK(e.peak <= m.budget, "%s: held %zu device bytes, budget %zu", label, e.peak, m.budget);
        CHECK(e.held == 0, "%s: %zu device bytes not released", label, e.held);
        if (st == LW_OK && c.dtype == LW_INT32) {
            CHECK(memcmp(ref, y, n * es) == 0, "%s: integer result differs", label);
        } else if (st == LW_OK && c.dtype == LW_FLOAT32) {
            double mx, dm;
            lw_test_f32_diff(ref, y, n, &mx, &dm);
            CHECK(dm <= 1e-6 * (mx > 1 ? mx : 1), "%s: max difference %g (max %g)", label, dm, mx);
        } else if (st == LW_OK) { /* float64 to rounding, the half types to their last bit */
            const double tol = c.dtype == LW_FLOAT64 ? 1e-12 : c.dtype == LW_FLOAT16 ? 1e-3 : 8e-3;
            double mx = 0, dm = 0;
            for (size_t i = 0; i < n; i++) {
                double r = lw_sample_as_double(ref, c.dtype, i), v = lw_sample_as_double(y, c.dtype, i);
                if (fabs(r) > mx) mx = fabs(r);
                if (!(fabs(r - v) <= dm)) dm = fabs(r - v);
            }
            CHECK(dm <= tol * (mx > 1 ? mx : 1), "%s: max difference %g (max %g)", label, dm, mx);
        }
        if (!inplace) CHECK(memcmp(x, x0, n * es) == 0, "%s: the input changed", label);
        /* one pass without a corner, no wrap: each host row crosses once each way */
        if (st == LW_OK && c.mode == LW_SYMMETRIC && !strstr(plan_text, "corner")) {
            exact_moves++;
            CHECK(e.up == n * es && e.down == n * es, "%s: moved %zu bytes up and %zu down for an array of %zu (%s)",
                  label, e.up, e.down, n * es, plan_text);
        }
    }
    free(e.pend);
    free(e.ups);
    CHECK(e.nups == 0, "%s: %d uploads begun and never ended", label, e.nups);
    lookahead_runs += e.begun > 0;
    free(x), free(x0), free(ref), free(y);
    lw_destroy(p);
}

static int only_shape = -1; /* argv[1]: one shape of the sweep (debugging) */

static void sweep(void)
{
    static const shape_case shapes[] = {
        {1, {3001}, 0, {0}, 0},
        {1, {4096}, 0, {0}, 1},
        {2, {203, 37}, 0, {0}, 0},
        {2, {96, 40}, 0, {0}, 1},
        {3, {40, 12, 18}, 0, {0}, 0},
        {3, {32, 16, 24}, 0, {0}, 1},
        {3, {5, 40, 30}, 2, {1, 2}, 1},  /* a batch: groups of items, or slabs of each */
        {2, {150, 7}, 1, {0}, 0},        /* columns only */
        {2, {9, 300}, 1, {1}, 1},        /* rows only: groups of rows */
        {4, {3, 24, 10, 12}, 2, {1, 3}, 1}, /* a batch axis, a transformed one, a batch one, a transformed one */
        {2, {24, 300}, 0, {0}, 1},       /* axis 0 runs out of levels first: the last corner is one row */
        {3, {6, 40, 50}, 0, {0}, 1},
    };
    static const lw_wavelet wav[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_FS, LW_DD97};
    static const int levels[] = {1, 2, LW_LEVELS_MAX};
    static const size_t budgets[] = {150, 600};
    char label[256];
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++)
        for (size_t wi = 0; wi < sizeof wav / sizeof *wav; wi++)
            for (int mode = 0; mode < 2; mode++) {
                const shape_case *sc = &shapes[si];
                if (only_shape >= 0 && (int)si != only_shape) continue;
                if (mode == LW_PERIODIC && !sc->periodic_ok) continue;
                for (int lay = 0; lay < 2; lay++)
                    for (size_t li = 0; li < 3; li++)
                        for (int dir = 0; dir < 4; dir++)
                            for (int integer = 0; integer < 2; integer++) {
                                /* the adjoints on a subset: 2-D and the batch */
                                if (dir >= 2 && !(si == 2 || si == 3 || si == 6)) continue;
                                lw_config c;
                                lw_config_init(&c);
                                c.rank = sc->rank;
                                memcpy(c.shape, sc->shape, sizeof sc->shape);
                                c.naxes = sc->naxes;
                                memcpy(c.axes, sc->axes, sizeof sc->axes);
                                c.wavelet = wav[wi], c.mode = (lw_mode)mode, c.layout = (lw_layout)lay;
                                c.levels = levels[li], c.direction = (lw_direction)dir;
                                if (integer) c.dtype = LW_INT32, c.integer = 1;
                                for (int ip = 0; ip < 2; ip++)
                                    for (size_t bi = 0; bi < 2; bi++) {
                                        int defer = (int)((si + wi + li + (size_t)ip + bi) & 1);
                                        snprintf(label, sizeof label,
                                                 "shape #%zu wavelet %d mode %d layout %d levels %d dir %d int %d "
                                                 "%s budget %zu rows%s",
                                                 si, (int)wav[wi], mode, lay, levels[li], dir, integer,
                                                 ip ? "in place" : "out of place", budgets[bi],
                                                 defer ? " (downloads at finish)" : "");
                                        one(&c, budgets[bi], ip, defer, label);
                                    }
                            }
            }
}

/* float64 and the half types on a subset: the slabs move elements of every size */
static void sweep_dtypes(void)
{
    static const struct { int rank; int64_t shape[3]; int naxes, axes[2]; } sh[] = {
        {2, {203, 37}, 0, {0, 0}}, {3, {32, 16, 24}, 0, {0, 0}}, {3, {5, 40, 30}, 2, {1, 2}}};
    static const lw_wavelet wav[] = {LW_HAAR, LW_CDF97, LW_DD137};
    static const lw_dtype dts[] = {LW_FLOAT64, LW_FLOAT16, LW_BFLOAT16};
    char label[256];
    for (size_t si = 0; si < 3; si++)
        for (size_t wi = 0; wi < 3; wi++)
            for (size_t ti = 0; ti < 3; ti++)
                for (int mode = 0; mode < 2; mode++)
                    for (int lay = 0; lay < 2; lay++)
                        for (int L = 1; L <= 2; L++)
                            for (int dir = 0; dir < 2; dir++)
                                for (int ip = 0; ip < 2; ip++) {
                                    if (only_shape >= 0) return;
                                    lw_config c;
                                    lw_config_init(&c);
                                    c.rank = sh[si].rank, c.naxes = sh[si].naxes;
                                    memcpy(c.shape, sh[si].shape, sizeof sh[si].shape);
                                    for (int a = 0; a < 2; a++) c.axes[a] = sh[si].axes[a];
                                    c.wavelet = wav[wi], c.dtype = dts[ti], c.mode = (lw_mode)mode;
                                    c.layout = (lw_layout)lay, c.levels = L == 2 ? LW_LEVELS_MAX : 1;
                                    c.direction = (lw_direction)dir;
                                    snprintf(label, sizeof label, "dtypes: shape #%zu wavelet %d dtype %d mode %d layout %d "
                                             "levels %s dir %d %s", si, (int)wav[wi], (int)dts[ti], mode, lay,
                                             L == 2 ? "max" : "1", dir, ip ? "in place" : "out of place");
                                    one(&c, 150, ip, (int)((si + ti + (size_t)ip) & 1), label);
                                }
}

/* ---- the pieces ------------------------------------------------------------------------ */

static void permutation(void)
{
    for (int L = 1; L <= 5; L++)
        for (int64_t N = 1; N <= 70; N++) {
            /* lw_ooc_mallat_row is a bijection onto [0, N) that keeps each band's order */
            unsigned char *hit = calloc((size_t)N, 1);
            int ok = 1;
            for (int64_t p = 0; p < N; p++) {
                int64_t r = lw_ooc_mallat_row(L, N, p);
                if (r < 0 || r >= N || hit[r]) ok = 0;
                else hit[r] = 1;
            }
            CHECK(ok, "mallat_row L %d N %lld is not a permutation", L, (long long)N);
            free(hit);
            /* rows move there and back, on 1..3 threads */
            for (int th = 1; th <= 3; th++) {
                const size_t row = th == 3 ? 200000 : 12;
                unsigned char *a = malloc((size_t)N * row), *b = malloc((size_t)N * row);
                for (size_t i = 0; i < (size_t)N * row; i++) a[i] = (unsigned char)(i * 7 + (i / row) * 13);
                memcpy(b, a, (size_t)N * row);
                CHECK(lw_ooc_permute_rows(b, N, row, row, L, 1, th) == LW_OK, "permute");
                int placed = 1;
                for (int64_t p = 0; p < N && placed; p++)
                    placed = memcmp(b + (size_t)lw_ooc_mallat_row(L, N, p) * row, a + (size_t)p * row, row) == 0;
                CHECK(placed, "L %d N %lld: a row not at its Mallat place", L, (long long)N);
                CHECK(lw_ooc_permute_rows(b, N, row, row, L, 0, th) == LW_OK, "permute back");
                CHECK(memcmp(a, b, (size_t)N * row) == 0, "L %d N %lld threads %d: not back", L, (long long)N, th);
                free(a), free(b);
            }
        }
    /* bands: counts add up, bases follow each other */
    for (int L = 1; L <= 4; L++)
        for (int64_t n = 1; n <= 50; n++) {
            int64_t sum = 0;
            for (int b = 0; b <= L; b++) sum += lw_ooc_band_count(b, L, n);
            CHECK(sum == n, "band counts of %lld rows, %d levels: %lld", (long long)n, L, (long long)sum);
            for (int b = 1; b < L; b++)
                CHECK(lw_ooc_band_base(b, L, n) == lw_ooc_band_base(b + 1, L, n) + lw_ooc_band_count(b + 1, L, n),
                      "band %d base", b);
        }
    CHECK(lw_ooc_halo(4, 0, 1) == 4 && lw_ooc_halo(3, 0, 1) == 4 && lw_ooc_halo(4, 0, 2) == 12 &&
              lw_ooc_halo(4, 2, 3) == 48 && lw_ooc_halo(6, 0, 3) == 48, "halo");
}

static void too_small(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 300, c.shape[1] = 200, c.backend = LW_BACKEND_CPU;
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_OK, "plan");
    float *x = calloc(300 * 200, sizeof *x), *y = calloc(300 * 200, sizeof *y);
    emu e;
    memset(&e, 0, sizeof e);
    lw_ooc_mover m = mover(&e, 200 * 4 * 10); /* ten rows: less than the slabs' halos */
    lw_status st = lw_ooc_execute(p, &m, x, y);
    CHECK(st == LW_ERR_DEVICE_OUT_OF_MEMORY, "a budget of ten rows: %d", (int)st);
    CHECK(strstr(lw_last_error(), "device_memory_limit") != NULL, "the message names the knob: %s", lw_last_error());
    CHECK(e.held == 0, "nothing held after the refusal");
    char buf[512] = "";
    m.budget = 200 * 4 * 400;
    CHECK(lw_ooc_describe(p, &m, 0, buf, sizeof buf) == LW_OK && strstr(buf, "slabs"), "describe: %s", buf);
    free(x), free(y);
    lw_destroy(p);
}

/* In place without the host permutation: the rows wait on the device until
 * their places are read (symmetric mode, Mallat, a budget with room for about
 * a quarter of the array); each host row still crosses once each way. */
static long held_runs;
static void held(void)
{
    static const struct { int rank; int64_t shape[3]; } sh[] = {{1, {4000}}, {2, {600, 120}}, {3, {160, 20, 16}},
                                                                {2, {601, 37}}};
    static const int levels[] = {1, 2, LW_LEVELS_MAX};
    char label[160];
    for (size_t si = 0; si < sizeof sh / sizeof *sh; si++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (size_t li = 0; li < 3; li++)
                for (int dir = 0; dir < 2; dir++)
                    for (int integer = 0; integer < 2; integer++) {
                        lw_config c;
                        lw_config_init(&c);
                        c.rank = sh[si].rank;
                        memcpy(c.shape, sh[si].shape, sizeof sh[si].shape);
                        c.wavelet = (lw_wavelet)w, c.levels = levels[li], c.direction = (lw_direction)dir;
                        if (integer) {
                            if (!(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)) continue;
                            c.dtype = LW_INT32, c.integer = 1;
                        }
                        c.backend = LW_BACKEND_CPU;
                        lw_plan *p = NULL;
                        if (lw_plan_create(&p, &c) != LW_OK) continue;
                        size_t row = lw_dtype_size(c.dtype);
                        for (int d = 1; d < c.rank; d++) row *= (size_t)c.shape[d];
                        const size_t rows = (size_t)(c.rank == 3 ? c.shape[0] : c.shape[0] * 3 / 4); /* 3-D: halos of many planes */
                        emu e;
                        memset(&e, 0, sizeof e);
                        lw_ooc_mover m = mover(&e, rows * row);
                        char buf[512] = "";
                        lw_status st = lw_ooc_describe(p, &m, 1, buf, sizeof buf);
                        snprintf(label, sizeof label, "held: shape #%zu %s L%d %s%s", si, lw_wavelet_name(c.wavelet),
                                 c.levels, dir ? "inverse" : "forward", integer ? " integer" : "");
                        CHECK(st == LW_OK && strstr(buf, "held"), "%s: not held under %zu rows: %s", label, rows,
                              st == LW_OK ? buf : lw_last_error());
                        lw_destroy(p);
                        for (int defer = 0; defer < 2; defer++) one(&c, rows, 1, defer, label);
                        held_runs += 2;
                    }
}

/* the tuning keys ooc_pass_levels, ooc_slab_mb and ooc_ahead: the plan follows them, results unchanged */
static void tuning_keys(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 600, c.shape[1] = 120, c.levels = 3, c.backend = LW_BACKEND_CPU;
    const char *keys[] = {NULL, "ooc_pass_levels=1", "ooc_pass_levels=1,ooc_slab_mb=1", "ooc_ahead=0"};
    const char *want[] = {"slabs", "1 level(s) per pass", "1 level(s) per pass", "slabs"};
    for (int k = 0; k < 4; k++)
        for (int dir = 0; dir < 2; dir++) {
            c.tuning = keys[k], c.direction = (lw_direction)dir;
            lw_plan *p = NULL;
            CHECK(lw_plan_create(&p, &c) == LW_OK, "plan with %s: %s", keys[k] ? keys[k] : "defaults", lw_last_error());
            emu e;
            memset(&e, 0, sizeof e);
            lw_ooc_mover m = mover(&e, (size_t)120 * 4 * 400);
            char buf[512] = "";
            CHECK(p && lw_ooc_describe(p, &m, 0, buf, sizeof buf) == LW_OK && strstr(buf, want[k]),
                  "tuning %s: wanted \"%s\" in: %s", keys[k] ? keys[k] : "none", want[k], buf);
            /* ooc_ahead=0: no upload begun ahead even where the mover could */
            emu ea;
            memset(&ea, 0, sizeof ea);
            ea.ahead = 1;
            lw_ooc_mover ma = mover(&ea, (size_t)120 * 4 * 400);
            float *xa = calloc(600 * 120, sizeof *xa), *ya = calloc(600 * 120, sizeof *ya);
            CHECK(p && lw_ooc_execute(p, &ma, xa, ya) == LW_OK, "tuning %s: %s", keys[k] ? keys[k] : "none",
                  lw_last_error());
            CHECK((ea.begun > 0) == (k != 3), "tuning %s: %ld uploads begun a slab ahead", keys[k] ? keys[k] : "none",
                  ea.begun);
            free(xa), free(ya), free(ea.ups), free(ea.pend);
            lw_destroy(p);
            char label[96];
            snprintf(label, sizeof label, "tuning %s dir %d", keys[k] ? keys[k] : "none", dir);
            one(&c, 400, 0, 0, label);
            one(&c, 400, 1, 1, label);
        }
    c.tuning = "ooc_pass_levels=-1";
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "ooc_pass_levels"),
          "a negative ooc_pass_levels: %s", lw_last_error());
    lw_destroy(p);
}

/* An inverse out of place whose lowpass corner takes passes of its own: with the stash (ooc_stash=1, the
 * default) the corner's levels run first into the output's last rows, which the slabs read before any
 * slab writes them back; with ooc_stash=0 the input is copied to the output and every pass runs in place
 * there.  Both equal the in-core transform (one() compares, with downloads at once and at finish). */
static void stash_keys(void)
{
    static const struct { int rank; int64_t shape[3]; size_t rows; } sh[] = {
        {1, {4096}, 600}, {2, {203, 37}, 150}, {3, {40, 12, 18}, 150}, {3, {32, 16, 24}, 150}};
    static const lw_wavelet wav[] = {LW_CDF97, LW_DD137, LW_HAAR};
    for (size_t si = 0; si < sizeof sh / sizeof *sh; si++)
        for (size_t wi = 0; wi < sizeof wav / sizeof *wav; wi++)
            for (int mode = 0; mode < 2; mode++)
                for (int dir = 1; dir <= 2; dir += 1)
                    for (int key = 0; key < 2; key++) {
                        lw_config c;
                        lw_config_init(&c);
                        c.rank = sh[si].rank;
                        memcpy(c.shape, sh[si].shape, sizeof sh[si].shape);
                        c.wavelet = wav[wi], c.mode = (lw_mode)mode, c.levels = LW_LEVELS_MAX;
                        c.direction = dir == 1 ? LW_INVERSE : LW_FORWARD_ADJOINT;
                        c.tuning = key ? "ooc_stash=0" : NULL, c.backend = LW_BACKEND_CPU;
                        lw_plan *p = NULL;
                        if (lw_plan_create(&p, &c) != LW_OK) continue;
                        size_t row = lw_dtype_size(c.dtype);
                        for (int d = 1; d < c.rank; d++) row *= (size_t)c.shape[d];
                        emu e;
                        memset(&e, 0, sizeof e);
                        lw_ooc_mover m = mover(&e, sh[si].rows * row);
                        char buf[512] = "", label[160];
                        const lw_status st = lw_ooc_describe(p, &m, 0, buf, sizeof buf);
                        lw_destroy(p);
                        snprintf(label, sizeof label, "stash: shape #%zu %s mode %d dir %d ooc_stash=%d", si,
                                 lw_wavelet_name(c.wavelet), mode, (int)c.direction, !key);
                        CHECK(st == LW_OK, "%s: %s", label, lw_last_error());
                        if (!strstr(buf, "passes over the lowpass corner")) continue; /* the corner on the device */
                        stash_cases++;
                        CHECK((strstr(buf, "into the output's last rows") != NULL) == !key, "%s: %s", label, buf);
                        for (int defer = 0; defer < 2; defer++) one(&c, sh[si].rows, 0, defer, label);
                    }
    CHECK(stash_cases >= 24, "the corner by passes of its own in only %ld cases", stash_cases);
}

int main(int argc, char **argv)
{
    if (argc > 1) only_shape = atoi(argv[1]);
    lw_rng_seed(20261126);
    permutation();
    too_small();
    tuning_keys();
    held();
    stash_keys();
    sweep();
    sweep_dtypes();
    printf("out of core: %ld runs compared, %ld refused as over budget, %ld with the bytes moved counted, %ld in "
           "place with held rows, %ld with uploads begun a slab ahead, %ld with the corner's levels first into the "
           "output's last rows\n", ran, refused, exact_moves, held_runs, lookahead_runs, stash_runs);
    CHECK(lookahead_runs > ran / 4, "the lookahead ran in %ld of %ld runs", lookahead_runs, ran);
    CHECK(ran > 20 * refused, "most runs fit the budgets: %ld ran, %ld refused", ran, refused);
    return lw_test_finish("ooc");
}
