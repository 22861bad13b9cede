/* lw_execute_bands against lw_execute on a Mallat array, for host memory
 * (tests/unit/test_bands.c) and device memory (tests/gpu/test_gpu_bands.c):
 * one case = a plan pair (forward or inverse-adjoint writing bands, inverse
 * or forward-adjoint reading them), bands laid out in one pool buffer in one
 * of three styles, results compared bit for bit. */
#ifndef LW_TEST_BANDS_H
#define LW_TEST_BANDS_H

#include "liftwave.h"
#include "lw_test.h"

#include <string.h>

/* Where the pool lives: host memory (all NULL) or the device. */
typedef struct bands_mem {
    void *(*alloc)(size_t bytes);
    void (*release)(void *p);
    void (*put)(void *dst, const void *host, size_t bytes);
    void (*get)(void *host, const void *src, size_t bytes);
    unsigned flags; /* LW_FLAG_DEVICE_POINTERS or 0 */
    lw_backend backend;
    int (*direct)(const lw_plan *p, const lw_band *bands); /* NULL, or: the backend writes the bands in place */
    long ndirect;                                            /* calls that did */
} bands_mem;

enum { BANDS_SEPARATE = 0, BANDS_STRIDED = 1, BANDS_STACKED = 2, BANDS_STYLES = 3 };
static const char *const bands_style_name[] = {"separate", "strided", "stacked"};

typedef struct bands_case {
    int rank, naxes, axes[LW_MAX_AXES], levels, integer;
    int64_t shape[LW_MAX_RANK];
    lw_wavelet w;
    lw_mode m;
    lw_dtype t;
    lw_direction d; /* LW_FORWARD or LW_INVERSE_ADJOINT (its pair: LW_INVERSE or LW_FORWARD_ADJOINT) */
    double gain[2];
    int style;
} bands_case;

static void *bands_alloc(const bands_mem *m, size_t n)
{
    if (!n) n = 1;
    return m->alloc ? m->alloc(n) : malloc(n);
}
static void bands_release(const bands_mem *m, void *p) { m->alloc ? m->release(p) : free(p); }
static void bands_put(const bands_mem *m, void *d, const void *h, size_t n) { m->put ? m->put(d, h, n) : (void)memcpy(d, h, n); }
static void bands_get(const bands_mem *m, void *h, const void *d, size_t n) { m->get ? m->get(h, d, n) : (void)memcpy(h, d, n); }

static void bands_describe(const bands_case *c, char *buf, size_t len)
{
    int o = snprintf(buf, len, "%s%s %s %s %s L%d %s shape", c->integer ? "int " : "", lw_wavelet_name(c->w),
                     lw_mode_name(c->m), lw_dtype_name(c->t), c->d == LW_FORWARD ? "fwd" : "inv-adj", c->levels,
                     bands_style_name[c->style]);
    for (int i = 0; i < c->rank && o < (int)len; i++) o += snprintf(buf + o, len - (size_t)o, "%s%lld", i ? "x" : " ", (long long)c->shape[i]);
    if (o < (int)len) o += snprintf(buf + o, len - (size_t)o, " axes");
    for (int i = 0; i < c->naxes && o < (int)len; i++) o += snprintf(buf + o, len - (size_t)o, " %d", c->axes[i]);
}

static lw_status bands_plan(lw_plan **p, const bands_case *c, const bands_mem *m, lw_direction d)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = c->rank, cfg.naxes = c->naxes;
    memcpy(cfg.shape, c->shape, sizeof cfg.shape);
    memcpy(cfg.axes, c->axes, sizeof cfg.axes);
    cfg.wavelet = c->w, cfg.mode = c->m, cfg.dtype = c->t, cfg.levels = c->levels, cfg.integer = c->integer;
    cfg.direction = d, cfg.backend = m->backend, cfg.flags = m->flags;
    cfg.gain[0] = c->gain[0], cfg.gain[1] = c->gain[1];
    return lw_plan_create(p, &cfg);
}

/* Lay the bands out in a pool: element offsets and strides per band; returns
 * the pool's size in elements.  Separate: each band dense, one after the
 * other; strided: every axis padded, the last with stride 2; stacked: when a
 * level's detail bands share one shape, the layout of a (batch, 2^n - 1,
 * rest of the band) tensor (axis 0 a batch axis) or of (2^n - 1, band). */
static int64_t bands_layout(const lw_plan *p, int style, int64_t *off, int64_t (*st)[LW_MAX_RANK])
{
    const lw_config *cfg = lw_plan_config(p);
    const int n = lw_band_count(p), r = cfg->rank, per = (1 << cfg->naxes) - 1;
    int64_t at = 0, sh[LW_MAX_RANK];
    int stacked = 0;
    for (int i = 0; i < n; i++) {
        lw_band_shape(p, i, sh, NULL, NULL);
        int64_t e = 1;
        for (int d = r - 1; d >= 0; d--) st[i][d] = e, e *= sh[d];
        const int k = i == 0 ? -1 : (i - 1) % per; /* place within its level */
        if (style == BANDS_STRIDED) {
            st[i][r - 1] = 2;
            for (int d = r - 2; d >= 0; d--) st[i][d] = st[i][d + 1] * sh[d + 1] + 3;
            e = st[i][0] * sh[0] + 1;
        } else if (style == BANDS_STACKED && k >= 0) {
            if (k == 0) { /* the level stacks when all its bands have this shape */
                stacked = 1;
                for (int j = i + 1; j < i + per; j++) {
                    int64_t s2[LW_MAX_RANK];
                    lw_band_shape(p, j, s2, NULL, NULL);
                    stacked &= memcmp(s2, sh, sizeof(int64_t) * (size_t)r) == 0;
                }
            }
            if (stacked) {
                const int batch0 = cfg->axes[0] > 0 && r >= 2;
                const int64_t step = batch0 ? e / (sh[0] ? sh[0] : 1) : e;
                if (batch0) st[i][0] *= per;
                off[i] = k == 0 ? at : off[i - k] + step * k;
                if (k == 0) at += e * per;
                continue;
            }
        }
        off[i] = at;
        at += e;
    }
    return at;
}

/* Count elements differing between band i's view in pool (host copy) and its
 * region of the Mallat array. */
static int64_t bands_compare(const lw_plan *p, int i, const unsigned char *mallat, const unsigned char *pool, int64_t off,
                             const int64_t *st)
{
    const lw_config *cfg = lw_plan_config(p);
    const size_t es = lw_dtype_size(cfg->dtype);
    const int r = cfg->rank;
    int64_t sh[LW_MAX_RANK], lo[LW_MAX_RANK] = {0}, ast[LW_MAX_RANK], idx[LW_MAX_RANK] = {0};
    int lev;
    unsigned mask;
    lw_band_shape(p, i, sh, &lev, &mask);
    ast[r - 1] = 1;
    for (int d = r - 2; d >= 0; d--) ast[d] = ast[d + 1] * cfg->shape[d + 1];
    for (int a = 0; a < cfg->naxes; a++)
        if (mask & (1u << (cfg->naxes - 1 - a))) lo[cfg->axes[a]] = lw_lowpass_length(cfg->shape[cfg->axes[a]], lev);
    int64_t total = 1, bad = 0;
    for (int d = 0; d < r; d++) total *= sh[d];
    for (int64_t e = 0; e < total; e++) {
        int64_t ao = 0, bo = off;
        for (int d = 0; d < r; d++) ao += (lo[d] + idx[d]) * ast[d], bo += idx[d] * st[d];
        bad += memcmp(mallat + (size_t)ao * es, pool + (size_t)bo * es, es) != 0;
        for (int d = r - 1; d >= 0; d--) {
            if (++idx[d] < sh[d]) break;
            idx[d] = 0;
        }
    }
    return bad;
}

static void bands_fill(void *x, size_t n, lw_dtype t)
{
    for (size_t i = 0; i < n; i++) {
        double v = lw_rng_unit() * 2 - 1;
        switch (t) {
        case LW_FLOAT32: ((float *)x)[i] = (float)v; break;
        case LW_FLOAT64: ((double *)x)[i] = v; break;
        case LW_INT32: ((int32_t *)x)[i] = (int32_t)(v * 1000); break;
        default: ((uint16_t *)x)[i] = (uint16_t)(0x3c00 + (lw_rng_u64() & 0x3ff)); break; /* half or bf16: finite */
        }
    }
}

/* One case: 1 ran, 0 the plan was refused (reported, not a failure). */
static int bands_run_case(const bands_case *c, bands_mem *m)
{
    char what[256];
    bands_describe(c, what, sizeof what);
    lw_plan *pf = NULL, *pi = NULL;
    lw_direction back = c->d == LW_FORWARD ? LW_INVERSE : LW_FORWARD_ADJOINT;
    if (bands_plan(&pf, c, m, c->d) != LW_OK || bands_plan(&pi, c, m, back) != LW_OK) {
        if (getenv("LW_TEST_VERBOSE")) printf("refused: %s: %s\n", what, lw_last_error());
        lw_destroy(pf);
        return 0;
    }
    const lw_config *cfg = lw_plan_config(pf);
    const size_t es = lw_dtype_size(c->t);
    int64_t total = 1;
    for (int d = 0; d < c->rank; d++) total *= c->shape[d];
    const size_t bytes = (size_t)total * es;
    const int n = lw_band_count(pf);
    CHECK(n == 1 + cfg->levels * ((1 << cfg->naxes) - 1), "%s: lw_band_count %d", what, n);
    int64_t *off = malloc(sizeof(int64_t) * (size_t)n);
    int64_t(*st)[LW_MAX_RANK] = malloc(sizeof *st * (size_t)n);
    lw_band *bv = malloc(sizeof(lw_band) * (size_t)n);
    const int64_t pool_n = bands_layout(pf, c->style, off, st);
    unsigned char *hx = malloc(bytes + 1), *href = malloc(bytes + 1), *hpool = malloc((size_t)pool_n * es + 1),
                  *hout = malloc(bytes + 1);
    bands_fill(hx, (size_t)total, c->t);
    void *dx = bands_alloc(m, bytes), *dref = bands_alloc(m, bytes), *dpool = bands_alloc(m, (size_t)pool_n * es);
    memset(hpool, 0x7f, (size_t)pool_n * es);
    bands_put(m, dpool, hpool, (size_t)pool_n * es);
    bands_put(m, dx, hx, bytes);
    for (int i = 0; i < n; i++) {
        bv[i].data = (unsigned char *)dpool + (size_t)off[i] * es;
        memcpy(bv[i].strides, st[i], sizeof bv[i].strides);
    }
    if (m->direct) m->ndirect += m->direct(pf, bv) + m->direct(pi, bv);
    /* samples -> bands */
    lw_status s1 = lw_execute(pf, dx, dref), s2 = lw_execute_bands(pf, dx, bv);
    CHECK(s1 == LW_OK && s2 == LW_OK, "%s: execute %d, execute_bands %d (%s)", what, s1, s2, lw_last_error());
    bands_get(m, href, dref, bytes);
    bands_get(m, hpool, dpool, (size_t)pool_n * es);
    int64_t bad = 0;
    for (int i = 0; i < n; i++) bad += bands_compare(pf, i, href, hpool, off[i], st[i]);
    CHECK(bad == 0, "%s: %lld coefficients differ from the Mallat array's", what, (long long)bad);
    /* the samples input unchanged */
    bands_get(m, hout, dx, bytes);
    CHECK(memcmp(hout, hx, bytes) == 0, "%s: execute_bands modified the samples", what);
    /* bands -> samples: from the same coefficients, against lw_execute on the Mallat array */
    void *dy = bands_alloc(m, bytes);
    s1 = lw_execute(pi, dref, dx);
    s2 = lw_execute_bands(pi, dy, bv);
    CHECK(s1 == LW_OK && s2 == LW_OK, "%s: back: execute %d, execute_bands %d (%s)", what, s1, s2, lw_last_error());
    bands_get(m, href, dx, bytes);
    bands_get(m, hout, dy, bytes);
    CHECK(memcmp(href, hout, bytes) == 0, "%s: back: samples differ from lw_execute on the Mallat array", what);
    unsigned char *hpool2 = malloc((size_t)pool_n * es + 1);
    bands_get(m, hpool2, dpool, (size_t)pool_n * es);
    CHECK(memcmp(hpool, hpool2, (size_t)pool_n * es) == 0, "%s: back: the bands were modified", what);
    free(hpool2);
    bands_release(m, dy);
    bands_release(m, dx), bands_release(m, dref), bands_release(m, dpool);
    free(hx), free(href), free(hpool), free(hout), free(off), free(st), free(bv);
    lw_destroy(pf), lw_destroy(pi);
    return 1;
}

/* A random case: rank 1-4, 1-3 axes, odd and even lengths, 0..max levels. */
static void bands_random_case(bands_case *c, const lw_dtype *dtypes, int ndt, int64_t max_len)
{
    static const lw_wavelet ws[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97, LW_FS};
    memset(c, 0, sizeof *c);
    c->rank = (int)lw_rng_range(1, 4);
    for (int d = 0; d < c->rank; d++) c->shape[d] = lw_rng_range(1, d == 0 && c->rank > 2 ? 4 : max_len);
    c->naxes = (int)lw_rng_range(1, c->rank < 3 ? c->rank : 3);
    int first = c->rank - c->naxes; /* the last naxes axes, or a gap now and then */
    for (int a = 0; a < c->naxes; a++) c->axes[a] = first + a;
    if (c->rank == 4 && c->naxes == 2 && lw_rng_range(0, 1)) c->axes[0] = 1, c->axes[1] = 3;
    c->w = ws[lw_rng_range(0, (int)(sizeof ws / sizeof ws[0]) - 1)];
    c->m = lw_rng_range(0, 1) ? LW_PERIODIC : LW_SYMMETRIC;
    if (c->m == LW_PERIODIC)
        for (int a = 0; a < c->naxes; a++) c->shape[c->axes[a]] = 2 * ((c->shape[c->axes[a]] + 1) / 2) * 4;
    c->t = dtypes[lw_rng_range(0, ndt - 1)];
    int maxl = 0;
    lw_max_levels(c->rank, c->shape, c->naxes, c->axes, &maxl);
    if (c->m == LW_PERIODIC && maxl > 3) maxl = 3; /* lengths are multiples of 8: even through level 3 */
    c->levels = (int)lw_rng_range(0, maxl < 4 ? maxl : 4);
    c->d = lw_rng_range(0, 3) ? LW_FORWARD : LW_INVERSE_ADJOINT;
    c->gain[0] = c->gain[1] = 1;
    if (c->w != LW_FS && lw_rng_range(0, 3) == 0) c->gain[0] = 1.4142135623730951, c->gain[1] = 0.7071067811865476;
    if (c->t == LW_INT32) {
        c->integer = 1, c->w = lw_rng_range(0, 1) ? LW_CDF53 : LW_HAAR, c->d = LW_FORWARD, c->gain[0] = c->gain[1] = 1;
    }
    c->style = (int)lw_rng_range(0, BANDS_STYLES - 1);
}

#endif
