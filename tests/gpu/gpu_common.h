/* Shared pieces of the GPU tests: one case = one configuration run on the
 * CUDA backend and on the CPU reference, compared (float32 1e-5 relative,
 * float64 1e-12, int32 exact). */
#ifndef LW_GPU_COMMON_H
#define LW_GPU_COMMON_H

#include "liftwave.h"
#include "../unit/lw_test.h"
#include "core/lw_internal.h"
#include "cuda/cuda_exec.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LWE_COUNT (LWE_LINE1D + 1)

typedef struct gcase {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes;
    int axes[LW_MAX_AXES];
    lw_wavelet w;
    lw_mode m;
    lw_layout lay;
    lw_dtype t;
    int levels; /* -1: max, -2: random up to max */
    lw_direction dir;
    int devptr, inplace, generic;
    int graph; /* device pointers: lw_execute captured in a CUDA graph, the graph launched */
    const char *scheme; /* cuda scheme (overrides generic) */
    const char *tuning; /* cuda plan tuning string */
    uint64_t mem_limit; /* cuda: lw_config.device_memory_limit (0: automatic) */
    double gain[2];     /* lw_config.gain on both backends (0: none) */
} gcase;

static cudaStream_t g_stream;
static long g_cases;
static long g_engine_count[LWE_COUNT];
static long g_ip_tiles; /* in-place cases run by the fused in-place engines (walker or tile kernel) */
static long g_ip_walker; /* of those, by the strip walker */
static long g_ip_ring_segs; /* of those, periodic with level 1's rows in segments (their ring's wrap stashed) */
static long g_ip_rc_whole;      /* levels of in-place Mallat cases whose rows moved along whole cycles, */
static long g_ip_rc_cut;        /* along cycles cut in segments (k_rowcycle.cu: a flag a segment) */
static long g_ip_pc_whole;      /* walked passes of in-place cases whose lines moved to the Mallat order */
static long g_ip_pc_found;      /* along whole cycles from a leaders table, whole cycles whose leaders */
static long g_ip_pc_cut;        /* the kernel found, and cycles cut in pieces (k_permute.cu) */
static long g_ip_lines;  /* in-place cases run by passes of whole lines (k_lines.cu, the column pass) */
static long g_ip_small;  /* in-place cases of a fused engine's plan run by the small engine (items that fit it) */
static long g_planes;    /* cases whose plans run some level by plane passes (k_plane.cu) */
static long g_axis_planes; /* cases whose plans run some axis alone by the plane kernels */
static long g_il_fused;    /* out-of-place cases whose plans run level 1 by the interleaved fused 2-D tiles */
static long g_il_compact;  /* ... and levels 2.. by a Mallat plan on its compact lowpass */
static long g_il_oop_tile; /* out-of-place interleaved cases run from in by the in-place tile kernel */

static const char *engine_name(int e)
{
    return lw_cuda_engine_id_name(e);
}

static void fill_rand(void *b, lw_dtype t, int64_t n)
{
    for (int64_t i = 0; i < n; i++) switch (t) {
        case LW_FLOAT32: ((float *)b)[i] = (float)(lw_rng_unit() * 2 - 1); break;
        case LW_FLOAT64: ((double *)b)[i] = lw_rng_unit() * 2 - 1; break;
        default: ((int32_t *)b)[i] = (int32_t)lw_rng_range(-70000, 70000); break;
        }
}

static double val(const void *b, lw_dtype t, int64_t i)
{
    switch (t) {
    case LW_FLOAT32: return ((const float *)b)[i];
    case LW_FLOAT64: return ((const double *)b)[i];
    default: return ((const int32_t *)b)[i];
    }
}

static void case_text(const gcase *c, const lw_config *rc, char *buf, size_t len)
{
    int o = snprintf(buf, len, "%s %s %s %s %s rank %d shape", lw_wavelet_name(c->w), lw_dtype_name(c->t),
                     lw_mode_name(c->m), lw_layout_name(c->lay), lw_direction_str(c->dir), c->rank);
    for (int i = 0; i < c->rank && o > 0 && (size_t)o < len; i++) o += snprintf(buf + o, len - o, " %lld", (long long)c->shape[i]);
    if (c->naxes && o > 0 && (size_t)o < len) {
        o += snprintf(buf + o, len - o, " axes");
        for (int i = 0; i < c->naxes && (size_t)o < len; i++) o += snprintf(buf + o, len - o, " %d", c->axes[i]);
    }
    if (o > 0 && (size_t)o < len)
        o += snprintf(buf + o, len - o, " levels %d %s%s%s", rc ? rc->levels : c->levels, c->devptr ? "device" : "host",
                      c->inplace ? " in-place" : "", c->scheme ? c->scheme : (c->generic ? " scheme=generic" : ""));
    if ((c->gain[0] != 0.0 || c->gain[1] != 0.0) && o > 0 && (size_t)o < len)
        snprintf(buf + o, len - o, " gains %g %g", c->gain[0], c->gain[1]);
}

static lw_status make(lw_plan **p, const gcase *c, int levels, lw_backend b)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = c->rank;
    for (int i = 0; i < c->rank; i++) cfg.shape[i] = c->shape[i];
    cfg.naxes = c->naxes;
    for (int i = 0; i < c->naxes; i++) cfg.axes[i] = c->axes[i];
    cfg.wavelet = c->w, cfg.mode = c->m, cfg.layout = c->lay, cfg.dtype = c->t, cfg.integer = c->t == LW_INT32;
    cfg.levels = levels, cfg.direction = c->dir, cfg.backend = b;
    cfg.gain[0] = c->gain[0], cfg.gain[1] = c->gain[1];
    if (b == LW_BACKEND_CUDA) {
        cfg.flags = c->devptr ? LW_FLAG_DEVICE_POINTERS : 0;
        cfg.scheme = c->scheme ? c->scheme : (c->generic ? "generic" : NULL);
        cfg.tuning = c->tuning;
        cfg.device_memory_limit = c->mem_limit;
    }
    return lw_plan_create(p, &cfg);
}

/* Start of a GPU test program: 77 (ctest: skipped) with the reason when there
 * is no device; otherwise print the devices, seed the generator (LW_TEST_SEED
 * overrides `seed`), create g_stream and return 0. */
static inline int gpu_test_begin(uint64_t seed)
{
    if (!lw_backend_available(LW_BACKEND_CUDA)) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a crash report follows the lines before it */
    char info[1024];
    lw_cuda_device_info(info, sizeof info);
    printf("%s", info);
    lw_test_seed(seed);
    cudaStreamCreate(&g_stream);
    return 0;
}

/* The backend the GPU results are compared with: the double-precision
 * reference, or with LW_GPU_ORACLE=cpu the fast CPU backend (itself checked
 * against the reference by the CPU suite; many times faster, for the
 * sanitizer passes whose point is memory and races, not the numbers). */
static lw_backend oracle_backend(void)
{
    static int cpu = -1;
    if (cpu < 0) cpu = getenv("LW_GPU_ORACLE") && strcmp(getenv("LW_GPU_ORACLE"), "cpu") == 0;
    return cpu ? LW_BACKEND_CPU : LW_BACKEND_CPU_REF;
}

/* A random shape for case c (its mode already drawn): 1-D (sometimes up to
 * long_max samples), 2-D (sometimes up to 700), 3-D, or a batch of rank 3-4
 * over an axes subset (gaps: the subset may skip one axis); periodic lengths
 * made even. */
static inline void random_shape(gcase *c, int64_t long_max, int gaps)
{
    int kind = (int)lw_rng_range(0, 9);
    if (kind < 2) {
        c->rank = 1;
        c->shape[0] = lw_rng_range(0, 4) ? lw_rng_range(1, 70) : lw_rng_range(70, long_max);
    } else if (kind < 6) {
        c->rank = 2;
        c->shape[0] = lw_rng_range(1, 70), c->shape[1] = lw_rng_range(1, 70);
        if (kind == 5) c->shape[0] = lw_rng_range(60, 700), c->shape[1] = lw_rng_range(60, 700);
    } else if (kind < 8) {
        c->rank = 3;
        for (int i = 0; i < 3; i++) c->shape[i] = lw_rng_range(1, kind == 7 ? 40 : 24);
    } else {
        c->rank = (int)lw_rng_range(3, 4);
        for (int i = 0; i < c->rank; i++) c->shape[i] = lw_rng_range(1, c->rank == 4 ? 12 : 30);
        if (gaps) {
            c->naxes = (int)lw_rng_range(1, 3);
            if (c->naxes > c->rank - 1) c->naxes = c->rank - 1;
        } else {
            c->naxes = (int)lw_rng_range(1, c->rank - 1 < 3 ? c->rank - 1 : 3);
        }
        int start = (int)lw_rng_range(0, c->rank - c->naxes);
        int skip = gaps && c->naxes > 1 && lw_rng_range(0, 1) && start + c->naxes < c->rank;
        for (int i = 0, a = start; i < c->naxes; i++, a++) {
            if (i == 1 && skip) a++;
            c->axes[i] = a;
        }
    }
    if (c->m == LW_PERIODIC)
        for (int i = 0; i < c->rank; i++)
            if (c->shape[i] & 1) c->shape[i] += 1;
}

/* x through the cuda plan pc into y, by the case's pointers (host or device) and placement
 * (in place or not); xkeep: room for a copy of x, to check that x is left as it was */
static lw_status run_cuda(const gcase *c, lw_plan *pc, const void *x, void *y, void *xkeep, size_t bytes, const char *txt)
{
    memcpy(xkeep, x, bytes);
    lw_status se;
    if (!c->devptr) {
        if (c->inplace) {
            memcpy(y, x, bytes);
            return lw_execute(pc, y, y);
        }
        memset(y, 0xff, bytes);
        se = lw_execute(pc, xkeep, y);
        CHECK(memcmp(xkeep, x, bytes) == 0, "%s: input modified", txt);
        return se;
    }
    void *din = NULL, *dout = NULL;
    if (cudaMalloc(&din, bytes) != cudaSuccess || cudaMalloc(&dout, bytes) != cudaSuccess) {
        cudaFree(din);
        return lw_fail(LW_ERR_DEVICE_OUT_OF_MEMORY, "test: cudaMalloc");
    }
    cudaMemcpy(din, x, bytes, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xff, bytes);
    lw_set_stream(pc, g_stream);
    if (c->graph) {
        cudaGraph_t gr = NULL;
        cudaGraphExec_t ge = NULL;
        CHECK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal) == cudaSuccess, "%s: begin capture", txt);
        se = lw_execute(pc, din, c->inplace ? din : dout);
        cudaError_t cc = cudaStreamEndCapture(g_stream, &gr);
        CHECK(cc == cudaSuccess, "%s: capture: %s", txt, cudaGetErrorString(cc));
        if (cc == cudaSuccess) cc = cudaGraphInstantiate(&ge, gr, 0);
        if (cc == cudaSuccess) cc = cudaGraphLaunch(ge, g_stream);
        CHECK(cc == cudaSuccess, "%s: graph: %s", txt, cudaGetErrorString(cc));
        if (ge) cudaGraphExecDestroy(ge);
        if (gr) cudaGraphDestroy(gr);
        cudaGetLastError();
    } else {
        se = lw_execute(pc, din, c->inplace ? din : dout);
    }
    cudaError_t ce = cudaStreamSynchronize(g_stream);
    CHECK(ce == cudaSuccess, "%s: %s", txt, cudaGetErrorString(ce));
    cudaMemcpy(y, c->inplace ? din : dout, bytes, cudaMemcpyDeviceToHost);
    if (!c->inplace) {
        cudaMemcpy(xkeep, din, bytes, cudaMemcpyDeviceToHost);
        CHECK(memcmp(xkeep, x, bytes) == 0, "%s: input modified", txt);
    }
    cudaFree(din);
    cudaFree(dout);
    return se;
}

/* Device time of lw_execute(p, in, out) on stream st (the plan's stream):
 * one warm-up, then the median of 9, CUDA events (information lines). */
static inline float gpu_time_ms(const lw_plan *p, const void *in, void *out, cudaStream_t st)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float ts[9];
    for (int r = 0; r < 10; r++) {
        cudaEventRecord(e0, st);
        lw_execute(p, in, out);
        cudaEventRecord(e1, st);
        cudaEventSynchronize(e1);
        if (r) cudaEventElapsedTime(&ts[r - 1], e0, e1);
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    for (int i = 1; i < 9; i++)
        for (int j = i; j > 0 && ts[j] < ts[j - 1]; j--) {
            float t = ts[j];
            ts[j] = ts[j - 1], ts[j - 1] = t;
        }
    return ts[4];
}

/* A shape of a fixed sweep: rank, transformed axes (naxes 0: all), lengths */
typedef struct shape_case {
    int rank, naxes, axes[3];
    int64_t shape[4];
} shape_case;

/* an in-place case of shape sc (odd lengths padded to even in periodic mode) */
static inline gcase case_of(const shape_case *sc, lw_wavelet w, lw_dtype t, lw_mode m, lw_layout lay, lw_direction d,
                     int levels, int devptr)
{
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = sc->rank, c.naxes = sc->naxes;
    for (int i = 0; i < sc->rank; i++) c.shape[i] = sc->shape[i] + (m == LW_PERIODIC && (sc->shape[i] & 1));
    for (int i = 0; i < sc->naxes; i++) c.axes[i] = sc->axes[i];
    c.w = w, c.t = t, c.m = m, c.lay = lay, c.dir = d, c.levels = levels, c.devptr = devptr, c.inplace = 1;
    return c;
}

static void check_plans(const gcase *c, lw_plan *pr, lw_plan *pc, const char *txt);

static void run_case(const gcase *c)
{
    int levels = c->levels;
    if (levels == -2) {
        int lmax = 0;
        lw_max_levels(c->rank, c->shape, c->naxes, c->axes, &lmax);
        levels = (int)lw_rng_range(0, lmax);
        if (lw_rng_range(0, 3) == 0) levels = lmax;
    } else if (levels == -1) {
        lw_max_levels(c->rank, c->shape, c->naxes, c->axes, &levels);
    }
    lw_plan *pr = NULL, *pc = NULL;
    lw_status sr = make(&pr, c, levels, oracle_backend());
    while (sr == LW_ERR_ODD_PERIODIC && levels > 0) sr = make(&pr, c, --levels, oracle_backend());
    char txt[256];
    lw_status sc = make(&pc, c, levels, LW_BACKEND_CUDA);
    case_text(c, pr ? lw_plan_config(pr) : NULL, txt, sizeof txt);
    CHECK(sc == sr, "%s: cuda plan status %d, reference %d (%s)", txt, (int)sc, (int)sr, lw_last_error());
    if (sr != LW_OK || sc != LW_OK) {
        lw_destroy(pr);
        lw_destroy(pc);
        return;
    }
    check_plans(c, pr, pc, txt);
}

/* Case c by the CUDA plan pc against the reference plan pr (both made for
 * c, at the same levels; txt names the case): the engine's counters, random
 * data through both, the largest error within the dtype's tolerance.
 * Destroys both plans. */
static void check_plans(const gcase *c, lw_plan *pr, lw_plan *pc, const char *txt)
{
    g_engine_count[lw_cuda_plan_engine(pc)]++;
    char dsc[4096] = "";
    if (lw_plan_describe(pc, dsc, sizeof dsc) == LW_OK) {
        g_planes += strstr(dsc, "as one plane pass") != NULL;
        g_axis_planes += strstr(dsc, "of one axis as plane passes") != NULL;
        if (!c->inplace) g_il_fused += strstr(dsc, "by the fused 2-D tiles") != NULL;
        if (!c->inplace) g_il_compact += strstr(dsc, "by a Mallat plan of their own") != NULL;
        if (!c->inplace) g_il_oop_tile += strstr(dsc, "from in by the in-place tile kernel") != NULL;
        if (c->inplace) {
            const char *wk = strstr(dsc, "in_place: strip walker"), *seg = wk ? strstr(wk, " a plane, ") : NULL;
            g_ip_walker += wk != NULL;
            g_ip_ring_segs += c->m == LW_PERIODIC && seg && strtol(seg + 10, NULL, 10) > 1;
            g_ip_lines += strstr(dsc, "in_place: passes of whole lines") != NULL;
            g_ip_small += strstr(dsc, "in_place: the small engine") != NULL;
            g_ip_tiles += strstr(dsc, "in_place: tile kernel") != NULL || strstr(dsc, "in_place: strip walker") != NULL;
            const char *rc = strstr(dsc, "(whole cycles on ");
            long rw = 0, rcut = 0;
            if (rc && sscanf(rc, "(whole cycles on %ld level(s), cycles cut in segments on %ld)", &rw, &rcut) == 2)
                g_ip_rc_whole += rw, g_ip_rc_cut += rcut;
            const char *pc = strstr(dsc, "along cycles (whole cycles from ");
            long rfound = 0;
            if (pc && sscanf(pc,
                             "along cycles (whole cycles from a leaders table on %ld pass(es), whole cycles with the "
                             "leaders found by the kernel on %ld, cycles cut in pieces on %ld)",
                             &rw, &rfound, &rcut) == 3)
                g_ip_pc_whole += rw, g_ip_pc_found += rfound, g_ip_pc_cut += rcut;
        }
    }
    int64_t n = 1;
    for (int i = 0; i < c->rank; i++) n *= c->shape[i];
    size_t bytes = (size_t)n * lw_dtype_size(c->t);
    void *x = malloc(bytes), *yr = malloc(bytes), *yc = malloc(bytes), *xc = malloc(bytes);
    fill_rand(x, c->t, n);
    memcpy(xc, x, bytes);
    CHECK(lw_execute(pr, x, yr) == LW_OK, "%s: reference failed", txt);
    lw_status se = run_cuda(c, pc, x, yc, xc, bytes, txt);
    CHECK(se == LW_OK, "%s: cuda execute: %s", txt, lw_last_error());
    double err = 0, ref = 0;
    int64_t worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double e = fabs(val(yc, c->t, i) - val(yr, c->t, i));
        if (!(e <= err)) err = isnan(e) ? INFINITY : e, worst = i;
        ref = fmax(ref, fabs(val(yr, c->t, i)));
    }
    double tol = c->t == LW_INT32 ? 0.0 : c->t == LW_FLOAT32 ? 1e-5 : 1e-12;
    CHECK(err <= tol * (ref > 0 ? ref : 1), "%s [%s%s%s]: max error %g (relative %g) at %lld: cuda %g ref %g", txt,
          engine_name(lw_cuda_plan_engine(pc)), c->tuning ? " " : "", c->tuning ? c->tuning : "", err,
          ref > 0 ? err / ref : err, (long long)worst, val(yc, c->t, worst), val(yr, c->t, worst));
    if (!(err <= tol * (ref > 0 ? ref : 1))) /* the plan's routes, to tell which kernel went wrong */
        for (const char *l = dsc; *l;) {
            const char *e = strchr(l, '\n');
            const int n = e ? (int)(e - l) : (int)strlen(l);
            if (!strncmp(l, "in_place:", 9) || !strncmp(l, "out_of_place:", 13) || !strncmp(l, "engine", 6))
                printf("    %.*s\n", n, l);
            l += n + (e != NULL);
        }
    free(x), free(yr), free(yc), free(xc);
    lw_destroy(pr);
    lw_destroy(pc);
    g_cases++;
}

#ifndef LW_GPU_NO_BIG_CASE
/* An array of more than 2^31 samples (float32, 8.6 GB in and out): the fused
 * 2-D engine forward, checked against the reference on windows at the corners
 * and the middle (the last rows lie past 2^31), then the inverse round trip. */
static float big_val(uint64_t i)
{
    uint64_t h = i * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    return (float)((double)(h & 0xffffff) / 16777216.0 - 0.5);
}

static void big_case(void)
{
    const int64_t R = 46341, C = 46341, N = R * C;
    size_t bytes = (size_t)N * 4;
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    if (fr < 3 * bytes + ((size_t)1 << 30)) {
        printf("big case: skipped (needs %zu bytes of device memory, %zu free)\n", 3 * bytes, fr);
        return;
    }
    float *h = malloc(bytes), *o = malloc(bytes);
    void *din = NULL, *dout = NULL, *dback = NULL;
    if (!h || !o) {
        printf("big case: skipped (host memory)\n");
        free(h), free(o);
        return;
    }
    for (int64_t i = 0; i < N; i++) h[i] = big_val((uint64_t)i);
    cudaMalloc(&din, bytes), cudaMalloc(&dout, bytes), cudaMalloc(&dback, bytes);
    cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = 2, c.shape[0] = R, c.shape[1] = C, c.w = LW_CDF53, c.t = LW_FLOAT32, c.devptr = 1;
    lw_plan *pf = NULL, *pi = NULL;
    CHECK(make(&pf, &c, 1, LW_BACKEND_CUDA) == LW_OK, "big plan: %s", lw_last_error());
    c.dir = LW_INVERSE;
    CHECK(make(&pi, &c, 1, LW_BACKEND_CUDA) == LW_OK, "big plan: %s", lw_last_error());
    if (pf && pi) {
        CHECK(lw_execute(pf, din, dout) == LW_OK, "big forward: %s", lw_last_error());
        CHECK(lw_execute(pi, dout, dback) == LW_OK, "big inverse: %s", lw_last_error());
        CHECK(cudaDeviceSynchronize() == cudaSuccess, "big: sync");
        cudaMemcpy(o, dout, bytes, cudaMemcpyDeviceToHost);
        const int W = 48;
        int64_t wins[4][2] = {{0, 0}, {(R - W) & ~1LL, (C - W) & ~1LL}, {(R / 2) & ~1LL, (C / 2) & ~1LL}, {(R - W) & ~1LL, 0}};
        double err = 0;
        for (int k = 0; k < 4; k++) {
            int64_t r0 = wins[k][0], c0 = wins[k][1];
            int64_t wr = r0 + W >= R - 2 ? R - r0 : W, wc = c0 + W >= C - 2 ? C - c0 : W;
            gcase s;
            memset(&s, 0, sizeof s);
            s.rank = 2, s.shape[0] = wr, s.shape[1] = wc, s.w = LW_CDF53, s.t = LW_FLOAT32, s.lay = LW_INTERLEAVED;
            lw_plan *pw = NULL;
            make(&pw, &s, 1, LW_BACKEND_CPU_REF);
            float *win = malloc(sizeof(float) * (size_t)(wr * wc));
            for (int64_t i = 0; i < wr; i++)
                for (int64_t j = 0; j < wc; j++) win[i * wc + j] = h[(r0 + i) * C + c0 + j];
            lw_execute(pw, win, win);
            for (int64_t i = 0; i < wr; i++)
                for (int64_t j = 0; j < wc; j++) {
                    int64_t r = r0 + i, cc = c0 + j;
                    int inner_r = (r0 == 0 || i >= 8) && (r0 + wr == R || i < wr - 8);
                    int inner_c = (c0 == 0 || j >= 8) && (c0 + wc == C || j < wc - 8);
                    if (!inner_r || !inner_c) continue;
                    int64_t mr = (r & 1) ? (R + 1) / 2 + r / 2 : r / 2, mc = (cc & 1) ? (C + 1) / 2 + cc / 2 : cc / 2;
                    err = fmax(err, fabs((double)o[mr * C + mc] - win[i * wc + j]));
                }
            free(win);
            lw_destroy(pw);
        }
        CHECK(err <= 1e-5, "big forward windows: max error %g", err);
        cudaMemcpy(o, dback, bytes, cudaMemcpyDeviceToHost);
        double rt = 0;
        for (int64_t i = 0; i < N; i++) rt = fmax(rt, fabs((double)o[i] - h[i]));
        CHECK(rt <= 1e-5, "big round trip: max error %g", rt);
        printf("big case: %lld x %lld float32 (%lld samples > 2^31): window error %g, round trip error %g\n",
               (long long)R, (long long)C, (long long)N, err, rt);
    }
    lw_destroy(pf), lw_destroy(pi);
    cudaFree(din), cudaFree(dout), cudaFree(dback);
    free(h), free(o);
}

/* The Faber-Schauder kernels index in 64 bits only for arrays of 2^30
 * elements or more: a 1024x1024x1025 float32 volume (4.3 GB), max levels,
 * Mallat, forward against the cpu backend over the whole array, then the
 * inverse of the GPU's coefficients back to the input. */
static void fs_wide_case(void)
{
    const int64_t shape[3] = {1024, 1024, 1025}, N = shape[0] * shape[1] * shape[2];
    const size_t bytes = (size_t)N * 4;
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    float *h = malloc(bytes), *ref = malloc(bytes), *o = malloc(bytes);
    if (fr < 2 * bytes + ((size_t)1 << 30) || !h || !ref || !o) {
        printf("fs wide case: skipped (needs 2 x %zu bytes of device memory, %zu free, and 3 x on the host)\n", bytes,
               fr);
        free(h), free(ref), free(o);
        return;
    }
    for (int64_t i = 0; i < N; i++) h[i] = big_val((uint64_t)i);
    gcase c;
    memset(&c, 0, sizeof c);
    c.rank = 3, c.w = LW_FS, c.t = LW_FLOAT32, c.lay = LW_MALLAT, c.devptr = 1;
    for (int a = 0; a < 3; a++) c.shape[a] = shape[a];
    lw_plan *pr = NULL, *pf = NULL, *pi = NULL;
    CHECK(make(&pr, &c, -1, LW_BACKEND_CPU) == LW_OK, "fs wide plan: %s", lw_last_error());
    CHECK(make(&pf, &c, -1, LW_BACKEND_CUDA) == LW_OK, "fs wide plan: %s", lw_last_error());
    c.dir = LW_INVERSE;
    CHECK(make(&pi, &c, -1, LW_BACKEND_CUDA) == LW_OK, "fs wide plan: %s", lw_last_error());
    void *din = NULL, *dout = NULL;
    if (pr && pf && pi && cudaMalloc(&din, bytes) == cudaSuccess && cudaMalloc(&dout, bytes) == cudaSuccess) {
        CHECK(lw_execute(pr, h, ref) == LW_OK, "fs wide reference: %s", lw_last_error());
        cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
        CHECK(lw_execute(pf, din, dout) == LW_OK, "fs wide forward: %s", lw_last_error());
        CHECK(cudaMemcpy(o, dout, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "fs wide: copy back");
        double err = 0, mx = 0;
        for (int64_t i = 0; i < N; i++) err = fmax(err, fabs((double)o[i] - ref[i])), mx = fmax(mx, fabs(ref[i]));
        CHECK(err <= 1e-5 * (mx > 1 ? mx : 1), "fs wide forward: max error %g", err);
        CHECK(lw_execute(pi, dout, din) == LW_OK, "fs wide inverse: %s", lw_last_error());
        CHECK(cudaMemcpy(o, din, bytes, cudaMemcpyDeviceToHost) == cudaSuccess, "fs wide: copy back");
        double rt = 0;
        for (int64_t i = 0; i < N; i++) rt = fmax(rt, fabs((double)o[i] - h[i]));
        CHECK(rt <= 1e-5, "fs wide round trip: max error %g", rt);
        printf("fs wide case: 1024x1024x1025 float32 max levels: forward error %g, round trip error %g\n", err, rt);
    } else {
        CHECK(0, "fs wide case: plans or device buffers failed");
    }
    lw_destroy(pr), lw_destroy(pf), lw_destroy(pi);
    cudaFree(din), cudaFree(dout);
    free(h), free(ref), free(o);
}
#endif /* LW_GPU_NO_BIG_CASE */

#endif
