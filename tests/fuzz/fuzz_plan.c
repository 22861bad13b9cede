/* libFuzzer target for the public API on the CPU backends: the bytes choose
 * an lw_config (small shapes, any rank, axes, dtype, wavelet, mode, layout,
 * levels, direction, integer variant, flags, threads, gains, scheme and
 * tuning strings, now and then an invalid value of each), and the target
 * checks the library's contract on it:
 *   - lw_plan_create fails with a plan of NULL and one line of message, or
 *     succeeds; lw_plan_describe, lw_workspace_size, the band queries answer;
 *   - lw_execute leaves the input alone, in place equals out of place bit for
 *     bit, LW_FLAG_IN_PLACE refuses in != out;
 *   - the plan of the other direction undoes it (exactly for the integer
 *     variants, to rounding for the others); the adjoint direction is the
 *     transpose: <A x, y> = <x, A^T y>;
 *   - lw_execute_bands equals lw_execute with its bands copied, bit for bit.
 * Any breach abort()s.  fuzz_plan_random.c runs it on seeded random inputs
 * (a ctest, both CI stages); the libFuzzer binary fuzz_plan explores further. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "liftwave.h"
#include "core/half.h"

int lw_fuzz_plan(const uint8_t *data, size_t size);
void lw_fuzz_plan_backend(lw_backend b);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ELEMS 2048 /* per array: each input runs in well under a millisecond */

typedef struct cursor {
    const uint8_t *d;
    size_t n, pos;
} cursor;

static unsigned next(cursor *c) { return c->pos < c->n ? c->d[c->pos++] : 0; }

static lw_config g_cfg; /* the input's config, printed with a failure */

static void print_config(void)
{
    const lw_config *c = &g_cfg;
    fprintf(stderr, "fuzz_plan: config rank %d shape", c->rank);
    for (int i = 0; i < c->rank && i < LW_MAX_RANK; i++) fprintf(stderr, " %lld", (long long)c->shape[i]);
    fprintf(stderr, " naxes %d axes", c->naxes);
    for (int i = 0; i < c->naxes && i < LW_MAX_AXES; i++) fprintf(stderr, " %d", c->axes[i]);
    fprintf(stderr, " dtype %d wavelet %d mode %d layout %d levels %d direction %d integer %d backend %d flags %#x "
                    "threads %d gain %g %g scheme %s tuning %s\n",
            (int)c->dtype, (int)c->wavelet, (int)c->mode, (int)c->layout, c->levels, (int)c->direction, c->integer,
            (int)c->backend, c->flags, c->threads, c->gain[0], c->gain[1], c->scheme ? c->scheme : "(null)",
            c->tuning ? c->tuning : "(null)");
}

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz_plan: %s:%d: %s\n", __FILE__, __LINE__, #cond);                                     \
            fprintf(stderr, "fuzz_plan: the library's last error: %s\n", lw_last_error());                             \
            print_config();                                                                                            \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

static const char *const SCHEMES[] = {NULL, "auto", "nd", "vol", "small", "tile2d", "no-such-engine", ""};
static const char *const TUNINGS[] = {NULL, "", "simd=scalar", "tail=fused", "ring_kb=64", "tail=small",
                                      "no_such_key=1", "simd="};

/* The backend every config runs on (lw_fuzz_plan_backend), or the bytes' choice of cpu / cpu-ref */
static lw_backend g_backend = LW_BACKEND_AUTO;

void lw_fuzz_plan_backend(lw_backend b) { g_backend = b; }
static const double GAINS[] = {0, 1, 1.4142135623730951, -0.5, 0.7, NAN, INFINITY, -1.25};

/* The config the bytes describe (backend cpu or cpu-ref): mostly valid ones, each field now and
 * then out of its range or at odds with another */
static void config_from(cursor *c, lw_config *cfg)
{
    static const lw_wavelet INTEGER_WAVELETS[] = {LW_HAAR, LW_CDF53, LW_DD137, LW_FS, LW_DD97};
    static const lw_dtype FLOAT_TYPES[] = {LW_FLOAT32, LW_FLOAT64, LW_FLOAT16, LW_BFLOAT16};
    lw_config_init(cfg);
    unsigned m = next(c);
    cfg->mode = (lw_mode)(m & 1);
    cfg->layout = (lw_layout)((m >> 1) & 1);
    cfg->direction = (lw_direction)((m >> 2) & 3);
    cfg->backend = g_backend != LW_BACKEND_AUTO ? g_backend : (m & 0x10) ? LW_BACKEND_CPU_REF : LW_BACKEND_CPU;
    if (m == 0xff) cfg->mode = (lw_mode)2;
    if (m == 0xfe) cfg->layout = (lw_layout)5;
    if (m == 0xfd) cfg->direction = (lw_direction)9;
    unsigned b = next(c);
    cfg->rank = 1 + (int)(b % 4);
    if (b >= 0xfc) cfg->rank = b == 0xff ? 0 : b == 0xfe ? LW_MAX_RANK + 1 : -1;
    int64_t total = 1;
    for (int i = 0; i < cfg->rank && i < LW_MAX_RANK; i++) {
        unsigned s = next(c);
        cfg->shape[i] = 1 + (int64_t)(s % 40);
        if (cfg->mode == LW_PERIODIC && (s & 0x40)) cfg->shape[i] += cfg->shape[i] & 1; /* mostly even */
        if (s == 255) cfg->shape[i] = 0;
        if (s == 254) cfg->shape[i] = -3;
        total *= cfg->shape[i] > 0 ? cfg->shape[i] : 1;
    }
    for (int i = 0; i < cfg->rank && i < LW_MAX_RANK && total > MAX_ELEMS; i++) /* keep it quick */
        if (cfg->shape[i] > 4) {
            total = total / cfg->shape[i] * 4;
            cfg->shape[i] = 4;
        }
    unsigned a = next(c);
    if (a == 0xff) { /* raw axes: any values, any order */
        cfg->naxes = (int)(next(c) % 5);
        for (int i = 0; i < cfg->naxes && i < LW_MAX_AXES; i++) cfg->axes[i] = (int)(next(c) % 7) - 1;
    } else if (a & 0x40 || cfg->rank > 3) { /* a subset of the axes, increasing */
        int k = 0;
        for (int i = 0; i < cfg->rank && i < LW_MAX_RANK && k < LW_MAX_AXES; i++)
            if ((a >> i) & 1) cfg->axes[k++] = i;
        cfg->naxes = k;
    }
    unsigned t = next(c), w = next(c);
    cfg->integer = (t & 7) == 0;
    if (cfg->integer) {
        cfg->dtype = LW_INT32;
        cfg->wavelet = INTEGER_WAVELETS[w % 5];
        if (cfg->direction > LW_INVERSE && t != 0x80) cfg->direction = (lw_direction)(cfg->direction & 1);
    } else {
        cfg->dtype = FLOAT_TYPES[(t >> 3) % 4];
        cfg->wavelet = (lw_wavelet)(w % LW_WAVELET_COUNT);
    }
    if (t == 0xf8) cfg->dtype = LW_FLOAT32; /* integer with float data */
    if (t == 0xff) cfg->dtype = LW_INT32;   /* int32 data, float transform */
    if (t == 0xfe) cfg->dtype = (lw_dtype)7;
    if (w == 0xff) cfg->wavelet = (lw_wavelet)LW_WAVELET_COUNT;
    unsigned l = next(c);
    cfg->levels = (l & 0x80) ? LW_LEVELS_MAX : (int)(l % 5);
    if (l == 0x7f) cfg->levels = -2;
    if (l == 0x7e) cfg->levels = 40;
    unsigned f = next(c);
    /* device pointers only where they are refused: the cuda driver passes host memory */
    cfg->flags = ((f & 7) == 1 ? LW_FLAG_DESTROY_INPUT : 0) | ((f & 7) == 2 ? LW_FLAG_IN_PLACE : 0) |
                 (f == 0xfb ? LW_FLAG_IN_PLACE | LW_FLAG_DESTROY_INPUT : 0) |
                 (f == 0xff && cfg->backend != LW_BACKEND_CUDA ? LW_FLAG_DEVICE_POINTERS : 0) |
                 (f == 0xfe ? 0x80u : 0);
    cfg->threads = (int)((f >> 3) % 3);
    if (f == 0xfd) cfg->threads = -1;
    if (f == 0xfc) cfg->threads = LW_MAX_THREADS + 1;
    unsigned g = next(c);
    if ((g & 3) == 1) {
        cfg->gain[0] = GAINS[(g >> 2) % 8];
        cfg->gain[1] = GAINS[(g >> 5) % 8];
    }
    unsigned s = next(c);
    cfg->scheme = (s & 7) == 1 ? SCHEMES[(s >> 3) % 8] : NULL;
    cfg->tuning = (s & 7) == 2 ? TUNINGS[(s >> 3) % 8] : NULL;
}

static size_t count_of(const lw_config *cfg)
{
    size_t n = 1;
    for (int i = 0; i < cfg->rank; i++) n *= (size_t)cfg->shape[i];
    return n;
}


static void fill(void *p, lw_dtype t, size_t n, cursor *c, int integer)
{
    uint32_t x = 0x9e3779b9u ^ (uint32_t)c->pos ^ (uint32_t)(next(c) << 8);
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        double v = integer ? (double)((int32_t)(x % 2001) - 1000) : ((double)(x % 20001) - 10000.0) / 1000.0;
        switch (t) {
        case LW_FLOAT32: ((float *)p)[i] = (float)v; break;
        case LW_FLOAT64: ((double *)p)[i] = v; break;
        case LW_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
        case LW_FLOAT16: ((uint16_t *)p)[i] = lw_f32_to_f16((float)v); break;
        default: ((uint16_t *)p)[i] = lw_f32_to_bf16((float)v); break;
        }
    }
}

static void check_error_message(void)
{
    const char *e = lw_last_error();
    CHECK(e && e[0] && !strchr(e, '\n'));
}

/* The relative tolerance of one direction's result, by dtype and level count */
static double tolerance(const lw_config *cfg, int levels)
{
    double per = cfg->dtype == LW_FLOAT64 ? 1e-12
                 : cfg->dtype == LW_FLOAT32 ? 2e-6
                 : cfg->dtype == LW_BFLOAT16 ? 2e-2
                                              : 3e-3;
    return per * (4.0 + 4.0 * levels) * (cfg->wavelet == LW_DD137 || cfg->wavelet == LW_FS ? 4.0 : 1.0);
}

static double max_abs(const void *p, lw_dtype t, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) m = fmax(m, fabs(lw_sample_as_double(p, t, i)));
    return m;
}

/* Largest |a - b| over n samples, and in *scale the larger magnitude of the transform's two
 * ends x and y, by which rounding goes (gains may scale coefficients far from the samples) */
static double max_diff(const void *a, const void *b, const void *x, const void *y, lw_dtype t, size_t n,
                       double *scale)
{
    double err = 0;
    for (size_t i = 0; i < n; i++) err = fmax(err, fabs(lw_sample_as_double(a, t, i) - lw_sample_as_double(b, t, i)));
    *scale = fmax(max_abs(x, t, n), max_abs(y, t, n)) + 1e-30;
    return err;
}

/* The plan of direction d of the same config, or NULL */
static lw_plan *other(const lw_config *cfg, lw_direction d)
{
    lw_config o = *cfg;
    o.direction = d;
    o.flags &= ~(unsigned)LW_FLAG_IN_PLACE;
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &o) != LW_OK) return NULL;
    return p;
}

/* The other CPU backend (cpu against the double-precision reference cpu-ref) and another
 * thread count give the same result: to rounding, bit for bit for the integer variants; the
 * same backend on 1 and 2 threads, bit for bit */
static void check_agreement(const lw_config *cfg, const void *x, const void *y, size_t n, size_t es)
{
    lw_config o = *cfg;
    o.flags &= ~(unsigned)(LW_FLAG_IN_PLACE | LW_FLAG_DESTROY_INPUT);
    o.scheme = NULL;
    o.backend = cfg->backend == LW_BACKEND_CPU_REF ? LW_BACKEND_CPU : LW_BACKEND_CPU_REF;
    void *z = malloc(n * es);
    CHECK(z);
    lw_plan *q = NULL;
    CHECK(lw_plan_create(&q, &o) == LW_OK); /* both backends take every config */
    CHECK(lw_execute(q, x, z) == LW_OK);
    double scale, err = max_diff(z, y, x, y, cfg->dtype, n, &scale);
    if (cfg->integer ? err != 0 : !(err <= tolerance(cfg, cfg->levels) * scale)) {
        fprintf(stderr, "fuzz_plan: %s and %s differ by %g of %g\n", lw_backend_name(cfg->backend),
                lw_backend_name(o.backend), err, scale);
        CHECK(0);
    }
    lw_destroy(q);
    if (cfg->backend == LW_BACKEND_CUDA) { /* threads are the cpu backends' */
        free(z);
        return;
    }
    o.backend = cfg->backend;
    o.scheme = cfg->scheme;
    o.threads = cfg->threads == 1 ? 2 : 1;
    CHECK(lw_plan_create(&q, &o) == LW_OK);
    CHECK(lw_execute(q, x, z) == LW_OK);
    CHECK(memcmp(z, y, n * es) == 0);
    lw_destroy(q);
    free(z);
}

/* The transform's inverse undoes it */
static void check_round_trip(const lw_config *cfg, const lw_plan *p, const void *x, const void *y, size_t n,
                             size_t es)
{
    if (cfg->direction > LW_INVERSE) return;
    lw_plan *q = other(cfg, cfg->direction == LW_FORWARD ? LW_INVERSE : LW_FORWARD);
    CHECK(q != NULL); /* the other direction of an accepted plan is accepted */
    void *z = malloc(n * es);
    CHECK(z);
    CHECK(lw_execute(q, y, z) == LW_OK);
    double scale, err = max_diff(z, x, x, y, cfg->dtype, n, &scale);
    int levels = lw_plan_config(p)->levels;
    if (cfg->integer)
        CHECK(err == 0);
    else if (!(err <= tolerance(cfg, levels) * scale * (cfg->dtype >= LW_FLOAT16 ? 8.0 : 1.0))) {
        fprintf(stderr, "fuzz_plan: round trip error %g of %g\n", err, scale);
        CHECK(0);
    }
    free(z);
    lw_destroy(q);
}

/* The adjoint direction is the transpose: <A x, y> = <x, A^T y> */
static void check_adjoint(const lw_config *cfg, const void *x, const void *ax, size_t n, size_t es, cursor *c)
{
    if (cfg->integer || cfg->dtype != LW_FLOAT64) return; /* the identity to rounding needs double */
    lw_plan *t = other(cfg, (lw_direction)(cfg->direction ^ 2));
    if (!t) return; /* an adjoint the plan's options do not offer (checked by the other tests) */
    void *y = malloc(n * es), *aty = malloc(n * es);
    CHECK(y && aty);
    fill(y, cfg->dtype, n, c, 0);
    CHECK(lw_execute(t, y, aty) == LW_OK);
    double l = 0, r = 0, s = 0;
    for (size_t i = 0; i < n; i++) {
        l += lw_sample_as_double(ax, cfg->dtype, i) * lw_sample_as_double(y, cfg->dtype, i);
        r += lw_sample_as_double(x, cfg->dtype, i) * lw_sample_as_double(aty, cfg->dtype, i);
        s += fabs(lw_sample_as_double(ax, cfg->dtype, i) * lw_sample_as_double(y, cfg->dtype, i)) +
             fabs(lw_sample_as_double(x, cfg->dtype, i) * lw_sample_as_double(aty, cfg->dtype, i));
    }
    if (!(fabs(l - r) <= 1e-10 * (s + 1e-30))) {
        fprintf(stderr, "fuzz_plan: <Ax,y> = %.17g, <x,A^T y> = %.17g\n", l, r);
        CHECK(0);
    }
    free(y);
    free(aty);
    lw_destroy(t);
}

/* Copy band b (shape shp, first element at Mallat offset org of the plan's array) between the
 * dense array a and the dense band buffer v: to_band, a -> v, else v -> a */
static void band_copy(const lw_config *pc, const int64_t *shp, const int64_t *org, char *a, char *v, size_t es,
                      int to_band)
{
    int64_t idx[LW_MAX_RANK] = {0}, cnt = 1;
    for (int i = 0; i < pc->rank; i++) cnt *= shp[i];
    for (int64_t k = 0; k < cnt; k++) {
        int64_t pos = 0;
        for (int i = 0; i < pc->rank; i++) pos = pos * pc->shape[i] + org[i] + idx[i];
        if (to_band)
            memcpy(v + (size_t)k * es, a + (size_t)pos * es, es);
        else
            memcpy(a + (size_t)pos * es, v + (size_t)k * es, es);
        for (int i = pc->rank - 1; i >= 0; i--) { /* the next index, C order */
            if (++idx[i] < shp[i]) break;
            idx[i] = 0;
        }
    }
}

/* lw_execute_bands equals lw_execute with its bands copied out (in), bit for bit */
static void check_bands(const lw_config *pc, const lw_plan *p, const void *x, const void *y, size_t n, size_t es)
{
    int nb = lw_band_count(p);
    if (pc->layout != LW_MALLAT) {
        CHECK(nb == 0);
        return;
    }
    if (pc->flags & LW_FLAG_IN_PLACE) { /* bands are not in place: refused */
        lw_band none[1];
        memset(none, 0, sizeof none);
        CHECK(lw_execute_bands(p, (void *)x, none) == LW_ERR_INVALID_ARGUMENT);
        check_error_message();
        return;
    }
    CHECK(nb >= 1 && nb <= 1 + 8 * 7 * 40);
    int ax[LW_MAX_AXES], na = pc->naxes;
    for (int i = 0; i < (na ? na : pc->rank); i++) ax[i] = na ? pc->axes[i] : i;
    if (!na) na = pc->rank;
    lw_band *bands = calloc((size_t)nb, sizeof *bands);
    int64_t(*org)[LW_MAX_RANK] = calloc((size_t)nb, sizeof *org), (*shp)[LW_MAX_RANK] = calloc((size_t)nb, sizeof *shp);
    char *store = malloc(n * es), *samples = malloc(n * es), *mal = malloc(n * es);
    CHECK(bands && org && shp && store && samples && mal);
    size_t used = 0;
    for (int b = 0; b < nb; b++) {
        int level = -1;
        unsigned mask = 99;
        CHECK(lw_band_shape(p, b, shp[b], &level, &mask) == LW_OK);
        CHECK(b == 0 ? mask == 0 && level == pc->levels : mask >= 1 && mask < (1u << na) && level >= 1);
        size_t cnt = 1;
        for (int i = 0; i < pc->rank; i++) cnt *= (size_t)shp[b][i];
        for (int k = 0; k < na; k++) { /* highpass along transformed axis k: after the level's lowpass */
            int a = ax[k];
            int64_t lo = lw_lowpass_length(pc->shape[a], level);
            org[b][a] = (mask >> (na - 1 - k)) & 1 ? lo : 0;
            CHECK(org[b][a] + shp[b][a] <= pc->shape[a]);
        }
        int64_t st = 1;
        for (int i = pc->rank - 1; i >= 0; i--) {
            bands[b].strides[i] = st;
            st *= shp[b][i] > 0 ? shp[b][i] : 1;
        }
        bands[b].data = cnt ? store + used * es : NULL;
        used += cnt;
    }
    CHECK(used == n); /* the bands tile the array */
    if (pc->direction == LW_FORWARD || pc->direction == LW_INVERSE_ADJOINT) {
        memcpy(samples, x, n * es);
        CHECK(lw_execute_bands(p, samples, bands) == LW_OK);
        for (int b = 0; b < nb; b++) band_copy(pc, shp[b], org[b], mal, bands[b].data ? bands[b].data : store, es, 0);
        CHECK(memcmp(mal, y, n * es) == 0);
    } else { /* the bands hold x's regions */
        for (int b = 0; b < nb; b++)
            band_copy(pc, shp[b], org[b], (char *)x, bands[b].data ? bands[b].data : store, es, 1);
        CHECK(lw_execute_bands(p, samples, bands) == LW_OK);
        CHECK(memcmp(samples, y, n * es) == 0);
    }
    free(bands);
    free(org);
    free(shp);
    free(store);
    free(samples);
    free(mal);
}

int lw_fuzz_plan(const uint8_t *data, size_t size)
{
    cursor c = {data, size, 0};
    lw_config cfg;
    config_from(&c, &cfg);
    g_cfg = cfg;
    lw_plan *p = (lw_plan *)(uintptr_t)1;
    lw_status st = lw_plan_create(&p, &cfg);
    if (st != LW_OK) {
        CHECK(p == NULL);
        check_error_message();
        if (getenv("LW_FUZZ_VERBOSE")) fprintf(stderr, "rejected: %s\n", lw_last_error());
        return 0;
    }
    CHECK(p != NULL);
    char small[8], big[4096];
    CHECK(lw_plan_describe(p, big, sizeof big) == LW_OK);
    /* too short: LW_ERR_INVALID_ARGUMENT and the text's first 7 characters */
    CHECK(lw_plan_describe(p, small, sizeof small) == (strlen(big) < sizeof small ? LW_OK : LW_ERR_INVALID_ARGUMENT));
    CHECK(strlen(small) == (strlen(big) < 7 ? strlen(big) : 7) && strncmp(small, big, strlen(small)) == 0);
    size_t ws = 0;
    CHECK(lw_workspace_size(p, &ws) == LW_OK);
    const lw_config *pc = lw_plan_config(p);
    size_t n = count_of(pc), es = lw_dtype_size(pc->dtype);
    CHECK(n >= 1 && n <= MAX_ELEMS && es >= 2);
    void *x = malloc(n * es), *x0 = malloc(n * es), *y = malloc(n * es), *z = malloc(n * es);
    CHECK(x && x0 && y && z);
    fill(x, pc->dtype, n, &c, pc->integer);
    memcpy(x0, x, n * es);
    if (cfg.flags & LW_FLAG_IN_PLACE) {
        CHECK(lw_execute(p, x, y) == LW_ERR_INVALID_ARGUMENT);
        check_error_message();
        memcpy(y, x, n * es);
        st = lw_execute(p, y, y);
    } else {
        st = lw_execute(p, x, y);
        if (st == LW_OK && !(cfg.flags & LW_FLAG_DESTROY_INPUT)) CHECK(memcmp(x, x0, n * es) == 0);
        memcpy(x, x0, n * es);
        if (st == LW_OK) { /* in place gives the same bits (cuda: its in-place engines, to rounding) */
            memcpy(z, x, n * es);
            CHECK(lw_execute(p, z, z) == LW_OK);
            if (pc->backend != LW_BACKEND_CUDA || pc->integer) {
                CHECK(memcmp(z, y, n * es) == 0);
            } else {
                double scale, err = max_diff(z, y, x, y, pc->dtype, n, &scale);
                CHECK(err <= tolerance(pc, pc->levels) * scale);
            }
        }
    }
    if (st != LW_OK) { /* only an integer result out of int32's range may fail, and it cannot here */
        check_error_message();
        CHECK(0);
    }
    check_agreement(pc, x0, y, n, es);
    check_round_trip(pc, p, x0, y, n, es);
    check_adjoint(pc, x0, y, n, es, &c);
    check_bands(pc, p, x0, y, n, es);
    free(x);
    free(x0);
    free(y);
    free(z);
    lw_destroy(p);
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lw_fuzz_plan(data, size);
    return 0;
}
