/* `liftwave bench`, one record: random data, warm-up, timed runs (median),
 * the memcpy bound on the host, and verification against cpu-ref.  CUDA
 * configs go through lw_cuda_bench() (liftwave.h).  In place (combo.inplace)
 * every run transforms one buffer, lw_execute(plan, x, x), after the input
 * is copied back into it outside the timing. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */

#include "cli_bench_int.h"
#include "../src/core/half.h"


#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#ifdef _OPENMP
#include <omp.h>
#endif

const char *const lw_bench_config_names[3] = {"host", "G2G", "C2C"};
const char *const lw_bench_host_memory_names[3] = {"none", "pinned", "pageable"};
const char *const lw_bench_dir_names[4] = {"forward", "inverse", "forward-adjoint", "inverse-adjoint"};
const char *const lw_bench_dir_short[4] = {"fwd", "inv", "fadj", "iadj"};

void lw_bench_errline(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("liftwave: bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* The CLI's exit table (cli_common.h): a combination of options is a usage
 * error; levels and lengths that do not fit the shape are data errors, as in
 * forward and inverse. */
static int status_exit(lw_status s)
{
    switch (s) {
    case LW_ERR_INVALID_ARGUMENT:
    case LW_ERR_UNSUPPORTED:
        return 2;
    default:
        return 1;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void lw_bench_shape_text(const combo *c, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int a = 0; a < c->rank; a++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%lld", a ? "x" : "", (long long)c->shape[a]);
}

void lw_bench_combo_text(const combo *c, int with_shape, char *buf, size_t len)
{
    char shp[64] = "";
    if (with_shape) lw_bench_shape_text(c, shp, sizeof shp);
    char lv[16], ax[24] = "";
    if (c->levels == LW_LEVELS_MAX) strcpy(lv, "max");
    else snprintf(lv, sizeof lv, "%d", c->levels);
    for (int i = 0; i < c->naxes; i++)
        snprintf(ax + strlen(ax), sizeof ax - strlen(ax), "%s%d", i ? "," : " axes=", c->axes[i]);
    snprintf(buf, len, "%s%s%s%s levels=%s %s %s%s %s on %s/%s%s%s%s", lw_wavelet_name(c->wavelet),
             with_shape ? " " : "", shp, ax, lv, lw_dtype_name(c->dtype), lw_mode_name(c->mode),
             c->layout == LW_MALLAT ? "" : " interleaved", lw_bench_dir_names[c->dir],
             lw_backend_name(c->backend), lw_bench_config_names[c->config], c->host_memory ? "/" : "",
             c->host_memory ? lw_bench_host_memory_names[c->host_memory] : "", c->inplace ? " in place" : "");
}

/* The SIMD path a cpu plan runs (its "simd:" line of lw_plan_describe), ""
 * for backends without one. */
static void plan_simd(const lw_plan *plan, char *buf, size_t len)
{
    char d[4096];
    buf[0] = 0;
    if (lw_plan_describe(plan, d, sizeof d) != LW_OK) return;
    const char *s = strstr(d, "\nsimd: ");
    if (!s) return;
    s += 7;
    size_t n = strcspn(s, "\n");
    if (n >= len) n = len - 1;
    memcpy(buf, s, n);
    buf[n] = 0;
}

void lw_bench_make_config(const combo *c, int integer, lw_backend backend, const char *scheme, lw_config *cfg)
{
    lw_config_init(cfg);
    cfg->rank = c->rank;
    for (int a = 0; a < c->rank; a++) cfg->shape[a] = c->shape[a];
    cfg->naxes = c->naxes;
    for (int a = 0; a < c->naxes; a++) cfg->axes[a] = c->axes[a];
    cfg->dtype = c->dtype;
    cfg->wavelet = c->wavelet;
    cfg->mode = c->mode;
    cfg->layout = c->layout;
    cfg->levels = c->levels;
    cfg->direction = c->dir;
    cfg->integer = integer;
    cfg->backend = backend;
    cfg->scheme = scheme;
    cfg->tuning = c->tuning;
    cfg->device_memory_limit = c->device_memory_limit;
    if (c->destroy_input && backend == LW_BACKEND_CUDA) cfg->flags |= LW_FLAG_DESTROY_INPUT;
    if (c->inplace) cfg->flags |= LW_FLAG_IN_PLACE;
}

/* ---- data --------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Random values, never zero: floats in [-1.5,-0.5] U [0.5,1.5]; int32 16-bit range. */
static void fill_random(void *buf, lw_dtype t, int64_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = rng_next(&s);
        double u = (double)(r >> 11) * (1.0 / 9007199254740992.0);
        double v = (r & 1) ? 0.5 + u : -0.5 - u;
        switch (t) {
        case LW_FLOAT32: ((float *)buf)[i] = (float)v; break;
        case LW_FLOAT64: ((double *)buf)[i] = v; break;
        case LW_FLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_f16((float)v); break;
        case LW_BFLOAT16: ((uint16_t *)buf)[i] = lw_f32_to_bf16((float)v); break;
        case LW_INT32: {
            int32_t k = (int32_t)((r >> 20) % 65535u) - 32767;
            ((int32_t *)buf)[i] = k ? k : 1;
            break;
        }
        }
    }
}

/* Host arrays: 64-byte aligned; from 4 MiB up 2 MiB aligned and advised for
 * transparent huge pages, as numpy does for its large arrays on Linux (the
 * memcpy bound runs on the same arrays).  LW_BENCH_HUGEPAGES=0: 4 KiB pages. */
#define HUGE_FROM ((size_t)4 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)
static void *alloc_buf(size_t bytes)
{
    const char *e = getenv("LW_BENCH_HUGEPAGES");
    int huge = bytes >= HUGE_FROM && !(e && e[0] == '0' && !e[1]);
    size_t a = huge ? HUGE_ALIGN : 64, b = (bytes + a - 1) / a * a;
    void *p = aligned_alloc(a, b ? b : a);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p && huge) (void)madvise(p, b, MADV_HUGEPAGE); /* advice only: no error if refused */
#endif
    return p;
}

/* relative to max|ref|: float32 and float64 rounding, and a few steps of the
 * half types (the reference computes in double, cpu in float32, both round
 * once to the storage type; docs/CONVENTIONS.md "Half precision") */
static double tolerance(lw_dtype t)
{
    switch (t) {
    case LW_FLOAT32: return 1e-5;
    case LW_FLOAT64: return 1e-12;
    case LW_FLOAT16: return 4e-3;
    case LW_BFLOAT16: return 3e-2;
    case LW_INT32: return 0.0;
    }
    return 0.0;
}

/* Largest |out - ref| relative to max|ref| (NaN counts as infinite); returns 1
 * within the dtype's tolerance (int32: exact). */
static int compare(const void *out, const void *ref, lw_dtype t, int64_t n, double *max_rel)
{
    double amax = 0, emax = 0;
    for (int64_t i = 0; i < n; i++) {
        double o = lw_sample_as_double(out, t, i), r = lw_sample_as_double(ref, t, i);
        double e = fabs(o - r);
        if (!(e <= emax)) emax = isnan(e) ? INFINITY : e;
        if (fabs(r) > amax) amax = fabs(r);
    }
    if (amax == 0) amax = 1;
    *max_rel = emax / amax;
    return t == LW_INT32 ? emax == 0 : *max_rel <= tolerance(t);
}

/* memcpy split over the threads when the build has OpenMP (at least
 * COPY_CHUNK bytes a thread: below that, waking threads costs more than it
 * gains). */
#define COPY_CHUNK ((size_t)256 << 10)
static void par_copy(void *dst, const void *src, size_t bytes, int threads)
{
#ifdef _OPENMP
    if ((size_t)threads > bytes / COPY_CHUNK) threads = (int)(bytes / COPY_CHUNK);
    if (threads > 1) {
#pragma omp parallel num_threads(threads)
        {
            size_t nt = (size_t)omp_get_num_threads(), t = (size_t)omp_get_thread_num();
            size_t chunk = (bytes / nt + 63) / 64 * 64, b = t * chunk;
            if (b < bytes) memcpy((char *)dst + b, (const char *)src + b, chunk < bytes - b ? chunk : bytes - b);
        }
        return;
    }
#endif
    (void)threads;
    memcpy(dst, src, bytes);
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) && strncmp(line, "Hardware", 8) && strncmp(line, "cpu model", 9)) continue;
        char *c = strchr(line, ':');
        if (!c) continue;
        c++;
        while (*c == ' ' || *c == '\t') c++;
        c[strcspn(c, "\n")] = '\0';
        if (*c) snprintf(buf, len, "%s", c);
        break;
    }
    fclose(f);
}

static int transformed(const combo *c, int a)
{
    if (c->naxes == 0) return 1;
    for (int k = 0; k < c->naxes; k++)
        if (c->axes[k] == a) return 1;
    return 0;
}

/* Floor bytes (docs/METHOD.md): 2 * itemsize * the samples transformed at
 * each level (the batch axes in full); C2C: the array up and down once. */
double lw_bench_floor_bytes(const combo *c, int levels)
{
    double isz = (double)lw_dtype_size(c->dtype), all = 1;
    for (int a = 0; a < c->rank; a++) all *= (double)c->shape[a];
    if (c->config == CFG_C2C) return 2.0 * isz * all;
    double sum = 0;
    for (int k = 0; k < levels; k++) {
        double s = 1;
        for (int a = 0; a < c->rank; a++) s *= (double)(transformed(c, a) ? lw_lowpass_length(c->shape[a], k) : c->shape[a]);
        sum += s;
    }
    return 2.0 * isz * sum;
}

static int64_t samples_of(const combo *c)
{
    int64_t n = 1;
    for (int a = 0; a < c->rank; a++) n *= c->shape[a];
    return n;
}

/* ---- one record ---------------------------------------------------------- */

int lw_bench_lw_error(const combo *c, const char *what, lw_status s)
{
    char desc[256];
    lw_bench_combo_text(c, 1, desc, sizeof desc);
    const char *e = lw_last_error();
    lw_bench_errline("%s: %s: %s", desc, what, *e ? e : lw_status_string(s));
    return status_exit(s);
}

/* The reference result on the same input (NULL when over the size limit). */
static int reference(const combo *c, int integer, const void *in, size_t bytes, void **ref)
{
    *ref = NULL;
    lw_backend rb = LW_BACKEND_CPU_REF;
    const char *scheme = NULL;
    if (samples_of(c) > LW_BENCH_VERIFY_LIMIT) {
        /* over the limit of the (one-thread, double) reference: a cuda record
         * is checked against the generic CUDA engine (its own tests compare it
         * with the reference), a cpu record up to the host limit still against
         * the reference, beyond that not at all (verified = false) */
        if (c->backend == LW_BACKEND_CUDA && lw_backend_available(LW_BACKEND_CUDA))
            rb = LW_BACKEND_CUDA, scheme = "generic";
        else if (samples_of(c) > LW_BENCH_VERIFY_LIMIT_HOST)
            return 0;
    }
    lw_config cfg;
    lw_bench_make_config(c, integer, rb, scheme, &cfg);
    cfg.flags &= ~(LW_FLAG_DESTROY_INPUT | LW_FLAG_IN_PLACE); /* the reference runs out of place */
    lw_plan *p = NULL;
    lw_status s = lw_plan_create(&p, &cfg);
    if (s != LW_OK && rb == LW_BACKEND_CUDA && samples_of(c) <= LW_BENCH_VERIFY_LIMIT_HOST) {
        /* the generic engine does not take it (fs: non-separable): the cpu
         * backend, itself tested against cpu-ref, on every core */
        rb = LW_BACKEND_CPU;
        lw_bench_make_config(c, integer, rb, NULL, &cfg);
        cfg.flags &= ~(LW_FLAG_DESTROY_INPUT | LW_FLAG_IN_PLACE);
        s = lw_plan_create(&p, &cfg);
    }
    if (s != LW_OK && rb != LW_BACKEND_CPU_REF) return 0; /* no reference engine takes it: not verified */
    if (s != LW_OK) return lw_bench_lw_error(c, "cpu-ref plan", s);
    void *r = alloc_buf(bytes);
    if (!r) {
        lw_destroy(p);
        lw_bench_errline("cannot allocate %zu bytes for the reference", bytes);
        return 1;
    }
    s = lw_execute(p, in, r);
    lw_destroy(p);
    if (s != LW_OK) {
        free(r);
        return lw_bench_lw_error(c, rb == LW_BACKEND_CUDA ? "generic cuda reference execute"
                                    : rb == LW_BACKEND_CPU ? "cpu reference execute" : "cpu-ref execute", s);
    }
    *ref = r;
    return 0;
}

/* Blocks of alternating copies and timed runs in a host record. */
#define LW_BENCH_HOST_BLOCKS 4

/* One execute of a host record, its time in *sec (NULL: untimed).  In place
 * the input is first copied into out, outside the timing, and out is
 * transformed where it is. */
static lw_status host_run(const combo *c, const lw_plan *plan, const void *in, void *out, size_t bytes, int threads,
                          double *sec)
{
    if (c->inplace) par_copy(out, in, bytes, threads);
    double a = now_s();
    lw_status s = lw_execute(plan, c->inplace ? out : in, out);
    if (sec) *sec = now_s() - a;
    return s;
}

static int run_host(const combo *c, int repeat, lw_plan *plan, void *in, void *out, size_t bytes,
                    record *r)
{
    double one = 0;
    lw_status s = host_run(c, plan, in, out, bytes, r->threads, NULL); /* warm-up */
    if (s == LW_OK) s = host_run(c, plan, in, out, bytes, r->threads, &one);
    if (s != LW_OK) return lw_bench_lw_error(c, "execute", s);
    int runs = repeat;
    if (!runs) {
        one = one > 1e-9 ? one : 1e-9;
        double want = ceil(LW_BENCH_AUTO_TARGET_S / one);
        runs = want < LW_BENCH_AUTO_MIN_RUNS ? LW_BENCH_AUTO_MIN_RUNS : want > LW_BENCH_AUTO_MAX_RUNS ? LW_BENCH_AUTO_MAX_RUNS : (int)want;
    }
    int copies = runs < 20 ? 20 : runs;
    double *tv = malloc(sizeof(double) * (size_t)(copies + runs));
    if (!tv) {
        lw_bench_errline("out of memory");
        return 1;
    }
    double *tc = tv + runs;
    /* bound: memcpy of the same bytes, same threads, same run.  Copies and
     * transforms alternate in blocks (each block: two warm-up copies, its
     * share of the >= 20 timed copies, the poison (in place: none, each run
     * restores its input), its share of the timed runs), so that both see
     * the same host: on a shared machine the
     * neighbours' load drifts within a record.  The bound is the median copy,
     * as the cuda backend takes the median of its device copies (like with
     * like: the transform's time is a median too); the best copy (STREAM's
     * statistic) is kept in the record as well. */
    int blocks = runs < LW_BENCH_HOST_BLOCKS ? runs : LW_BENCH_HOST_BLOCKS, nc = 0, nr = 0;
    for (int k = 0; k < blocks && s == LW_OK; k++) {
        int ce = (int)((int64_t)copies * (k + 1) / blocks), re = (int)((int64_t)runs * (k + 1) / blocks);
        par_copy(out, in, bytes, r->threads);
        par_copy(out, in, bytes, r->threads);
        for (; nc < ce; nc++) {
            double a = now_s();
            par_copy(out, in, bytes, r->threads);
            tc[nc] = now_s() - a;
        }
        /* poison, one untimed run (the copies left the output dirty in the
         * caches), then the timed runs; what the plan does not write stays
         * poison, and the last block's output is verified */
        if (!c->inplace) memset(out, c->dtype == LW_INT32 ? 0x7f : 0xff, bytes);
        s = host_run(c, plan, in, out, bytes, r->threads, NULL);
        for (; nr < re && s == LW_OK; nr++) s = host_run(c, plan, in, out, bytes, r->threads, &tv[nr]);
    }
    if (s != LW_OK) {
        free(tv);
        return lw_bench_lw_error(c, "execute", s);
    }
    double best_s = tc[0];
    for (int i = 1; i < copies; i++) best_s = tc[i] < best_s ? tc[i] : best_s;
    double copy_s = median(tc, copies);
    r->median_s = median(tv, runs);
    free(tv);
    if (r->median_s < 1e-9) r->median_s = 1e-9;
    if (copy_s < 1e-9) copy_s = 1e-9;
    r->bound = "memcpy";
    r->bound_gbps = 2.0 * (double)bytes / copy_s / 1e9;
    r->bound_best_gbps = 2.0 * (double)bytes / (best_s > 1e-9 ? best_s : 1e-9) / 1e9;
    cpu_model(r->device, sizeof r->device);
    return 0;
}

/* ---- the data of a record, kept for the next one ------------------------- */

/* Input and reference of the last combination: `--scheme all`, backend,
 * config and placement lists time the same data many times, and the
 * reference is the slow part (a double-precision pass on one thread).  The
 * random input depends only on shape, dtype and wavelet, so it also outlives
 * a change of levels, mode, layout, axes or direction (which need a new
 * reference). */
typedef struct data_cache {
    int has_in, has_ref, integer;
    combo key;
    void *in, *ref; /* ref NULL: over the verification limit */
} data_cache;
static data_cache g_cache;

static int same_input(const combo *a, const combo *b)
{
    if (a->rank != b->rank || a->dtype != b->dtype || a->wavelet != b->wavelet) return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return 0;
    return 1;
}

static int same_transform(const combo *a, const combo *b)
{
    if (!same_input(a, b) || a->levels != b->levels || a->mode != b->mode || a->layout != b->layout ||
        a->dir != b->dir || a->naxes != b->naxes)
        return 0;
    for (int i = 0; i < a->naxes; i++)
        if (a->axes[i] != b->axes[i]) return 0;
    return 1;
}

void lw_bench_cache_release(void)
{
    free(g_cache.in);
    free(g_cache.ref);
    memset(&g_cache, 0, sizeof g_cache);
}

/* in and ref (NULL over the limit) for c; owned by the cache. */
static int data_for(const combo *c, int integer, size_t bytes, void **in, void **ref)
{
    if (g_cache.has_ref && g_cache.integer == integer && same_transform(&g_cache.key, c)) {
        *in = g_cache.in, *ref = g_cache.ref;
        return 0;
    }
    free(g_cache.ref);
    g_cache.ref = NULL, g_cache.has_ref = 0;
    if (!g_cache.has_in || !same_input(&g_cache.key, c)) {
        lw_bench_cache_release();
        void *x = alloc_buf(bytes);
        if (!x) {
            lw_bench_errline("cannot allocate %zu bytes for the data", bytes);
            return 1;
        }
        fill_random(x, c->dtype, samples_of(c), (uint64_t)samples_of(c) + 17u * (uint64_t)c->wavelet);
        g_cache.in = x, g_cache.has_in = 1;
    }
    g_cache.key = *c;
    void *rf = NULL;
    int rc = reference(c, integer, g_cache.in, bytes, &rf);
    if (rc) return rc;
    g_cache.has_ref = 1, g_cache.integer = integer;
    *in = g_cache.in;
    g_cache.ref = *ref = rf;
    return 0;
}

/* --repeat default on cuda: fewer runs for big arrays (each takes longer and
 * varies less). */
static int cuda_runs(int64_t n)
{
    if (n >= ((int64_t)64 << 20)) return 5;
    if (n >= ((int64_t)8 << 20)) return 10;
    return LW_BENCH_CUDA_RUNS;
}

int lw_bench_run_one(const combo *c, int integer, int repeat, record *r)
{
    memset(r, 0, sizeof *r);
    r->c = *c;
    int64_t n = samples_of(c);
    size_t isz = lw_dtype_size(c->dtype);
    if ((uint64_t)n > SIZE_MAX / isz) {
        lw_bench_errline("shape too large");
        return 1;
    }
    size_t bytes = (size_t)n * isz;
    int host = c->config == CFG_HOST;
    r->threads = 0;
    if (host) {
#ifdef _OPENMP
        if (c->threads > 0) omp_set_num_threads(c->threads);
        r->threads = omp_get_max_threads();
#else
        r->threads = 1;
#endif
    }
    lw_config cfg;
    lw_bench_make_config(c, integer, c->backend, c->scheme, &cfg);
    lw_plan *plan = NULL;
    lw_status s = LW_OK;
    if (host) {
        s = lw_plan_create(&plan, &cfg);
        if (s != LW_OK) return lw_bench_lw_error(c, "plan", s);
        cfg = *lw_plan_config(plan);
        plan_simd(plan, r->simd, sizeof r->simd);
    } else {
        lw_config rc;
        lw_plan *p = NULL;
        lw_bench_make_config(c, integer, LW_BACKEND_CPU_REF, NULL, &rc);
        s = lw_plan_create(&p, &rc);
        if (s != LW_OK) return lw_bench_lw_error(c, "plan", s);
        cfg.levels = lw_plan_config(p)->levels;
        lw_destroy(p);
    }
    r->levels = cfg.levels;
    void *in = NULL, *out = host ? alloc_buf(bytes) : NULL, *ref = NULL;
    int rc = 0;
    if (host && !out) {
        lw_bench_errline("cannot allocate %zu bytes for the data", bytes);
        rc = 1;
        goto done;
    }
    rc = data_for(c, integer, bytes, &in, &ref);
    if (rc) goto done;
    if (host) {
        rc = run_host(c, repeat, plan, in, out, bytes, r);
        if (!rc && ref) {
            double err;
            r->checked = 1;
            r->verified = compare(out, ref, c->dtype, n, &err);
            if (!r->verified) {
                char desc[256];
                lw_bench_combo_text(c, 1, desc, sizeof desc);
                lw_bench_errline("%s: output differs from cpu-ref (max error %.3g of max|ref|)", desc, err);
            }
        }
    } else {
        lw_bench_result br;
        memset(&br, 0, sizeof br);
        unsigned bc = c->config == CFG_G2G            ? LW_BENCH_G2G
                      : c->host_memory == HM_PAGEABLE ? LW_BENCH_C2C_PAGEABLE
                                                      : LW_BENCH_C2C;
        if (c->inplace) bc |= LW_BENCH_IN_PLACE;
        s = lw_cuda_bench(&cfg, (lw_bench_config)bc, repeat ? repeat : cuda_runs(n), in, ref, tolerance(c->dtype), &br);
        if (s != LW_OK) {
            rc = s == LW_ERR_NO_BACKEND ? (lw_bench_errline("CUDA is not available: %s", lw_last_error()), 1)
                                        : lw_bench_lw_error(c, "cuda bench", s);
            goto done;
        }
        r->median_s = br.median_s > 1e-12 ? br.median_s : 1e-12;
        r->bound = br.bound && !strcmp(br.bound, "pcie") ? "pcie" : "device-copy";
        r->bound_gbps = br.bound_gbps;
        r->extra_device_bytes = br.device_extra_bytes;
        snprintf(r->engine, sizeof r->engine, "%s", br.engine);
        r->register_s = br.register_s;
        r->checked = ref != NULL;
        r->verified = ref && br.verified;
        snprintf(r->device, sizeof r->device, "%s", br.device[0] ? br.device : "unknown GPU");
        if (ref && !br.verified) {
            char desc[256];
            lw_bench_combo_text(c, 1, desc, sizeof desc);
            lw_bench_errline("%s: output differs from cpu-ref (max error %.3g of max|ref|)", desc, br.max_rel_err);
        }
    }
    if (!rc) {
        r->gsps = (double)n / r->median_s / 1e9;
        r->ps = r->median_s / (double)n * 1e12;
        /* C2C: what crosses PCIe, the array up and down once, whatever the levels */
        double fb = lw_bench_floor_bytes(c, r->levels);
        r->floor_bytes = fb;
        r->eff_gbps = fb / r->median_s / 1e9;
        r->frac = r->bound_gbps > 0 ? r->eff_gbps / r->bound_gbps : 0.0;
    }
done:
    lw_destroy(plan);
    free(out);
    return rc;
}
