/* GPU benchmark driver for the targets (docs/METHOD.md), through
 * lw_cuda_bench: median of timed runs with CUDA events after warm-up, the
 * device copy (G2G) or concurrent PCIe (C2C) measured in the same run, output
 * poisoned and verified against an independent result (the generic CUDA
 * engine, itself tested against the CPU reference; the CPU reference for
 * 1920x1080).  Prints a table and writes one JSON object per line, with the
 * plan's workspace (lw_workspace_size) and the device memory seen taken beyond
 * in and out (extra_device_bytes, cudaMemGetInfo around the runs).
 *   gpu_bench [--smoke] [--json FILE] [--repeat N] [--only SUBSTRING] [--destroy-input]
 *                 [--t3v N]
 * --destroy-input: every case with LW_FLAG_DESTROY_INPUT (cases named
 * "-destroy" always have it).  --t3v N: tile variant of the fused 3-D engine
 * (the plans' tuning key tile3d: 0 16x64, 1 16x64-p1, 2 16x64-p3, 3 32x64).
 *   gpu_bench --fs [--tag NAME] ...   the Faber-Schauder set (NAME: the JSON "scheme")
 *   gpu_bench --scheme LIST ...        instead of the fixed cases, time the listed
 * schemes (comma separated names of lw_scheme.h, `auto` for the default engine;
 * `block` = auto and the ten block schemes of paper 003, `block:single` = their
 * single buffered variants) on cdf53, cdf97 and dd137, float32, one level,
 * forward, G2G, at 1024x1024, 3072x3072 and 16384x16384 (--only filters the
 * case names, e.g. "cdf97-3072"); input and reference are made once per
 * wavelet and size. */
#include "liftwave.h"
#include "cuda/cuda_exec.h"
#include "cuda/lw_cuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bcase {
    const char *name;
    int rank;
    int64_t s0, s1, s2;
    lw_wavelet w;
    int levels;
    lw_direction dir;
    lw_bench_config cfg;
    double target;    /* fraction of bound, or max median microseconds when time_us */
    int time_us;
    const char *scheme; /* NULL: auto */
    unsigned flags;     /* extra lw_config flags (LW_FLAG_DESTROY_INPUT) */
} bcase;

static const bcase FULL[] = {
    {"2d-cdf97-L1-16384-fwd", 2, 16384, 16384, 0, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-cdf97-L1-16384-inv", 2, 16384, 16384, 0, LW_CDF97, 1, LW_INVERSE, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-cdf53-L1-16384-fwd", 2, 16384, 16384, 0, LW_CDF53, 1, LW_FORWARD, LW_BENCH_G2G, 0.80, 0, NULL, 0},
    {"2d-cdf53-L1-16384-inv", 2, 16384, 16384, 0, LW_CDF53, 1, LW_INVERSE, LW_BENCH_G2G, 0.80, 0, NULL, 0},
    {"2d-haar-L1-16384-fwd", 2, 16384, 16384, 0, LW_HAAR, 1, LW_FORWARD, LW_BENCH_G2G, 0.80, 0, NULL, 0},
    {"2d-haar-L1-16384-inv", 2, 16384, 16384, 0, LW_HAAR, 1, LW_INVERSE, LW_BENCH_G2G, 0.80, 0, NULL, 0},
    {"2d-cdf97-L5-16384-fwd", 2, 16384, 16384, 0, LW_CDF97, 5, LW_FORWARD, LW_BENCH_G2G, 0.65, 0, NULL, 0},
    {"2d-cdf97-L5-16384-inv", 2, 16384, 16384, 0, LW_CDF97, 5, LW_INVERSE, LW_BENCH_G2G, 0.65, 0, NULL, 0},
    {"2d-cdf97-L5-16384-fwd-destroy", 2, 16384, 16384, 0, LW_CDF97, 5, LW_FORWARD, LW_BENCH_G2G, 0.65, 0, NULL,
     LW_FLAG_DESTROY_INPUT},
    {"2d-cdf97-L5-16384-inv-destroy", 2, 16384, 16384, 0, LW_CDF97, 5, LW_INVERSE, LW_BENCH_G2G, 0.65, 0, NULL,
     LW_FLAG_DESTROY_INPUT},
    {"3d-cdf97-L1-512-fwd", 3, 512, 512, 512, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 0.60, 0, NULL, 0},
    {"3d-cdf97-L1-512-inv", 3, 512, 512, 512, LW_CDF97, 1, LW_INVERSE, LW_BENCH_G2G, 0.60, 0, NULL, 0},
    /* the earlier 3-D path (z pass, then the 2-D engine per plane), kept for comparison: no target */
    {"3d-yx-cdf97-L1-512-fwd", 3, 512, 512, 512, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 0.0, 0, "3d-yx", 0},
    {"3d-cdf53-L1-512-fwd", 3, 512, 512, 512, LW_CDF53, 1, LW_FORWARD, LW_BENCH_G2G, 0.60, 0, NULL, 0},
    /* pyramids: the default (generic after level 1 until verified) and the fused engine by name */
    {"3d-cdf97-L3-512-fwd", 3, 512, 512, 512, LW_CDF97, 3, LW_FORWARD, LW_BENCH_G2G, 0.0, 0, NULL, 0},
    {"3d-cdf97-L3-512-fwd-fused3d", 3, 512, 512, 512, LW_CDF97, 3, LW_FORWARD, LW_BENCH_G2G, 0.65, 0, "fused3d", 0},
    {"3d-cdf97-L3-512-inv-fused3d", 3, 512, 512, 512, LW_CDF97, 3, LW_INVERSE, LW_BENCH_G2G, 0.65, 0, "fused3d", 0},
    {"3d-cdf97-L9-512-fwd-fused3d", 3, 512, 512, 512, LW_CDF97, 9, LW_FORWARD, LW_BENCH_G2G, 0.65, 0, "fused3d", 0},
    /* the Deslauriers-Dubuc pair: dd97 (added through the wavelet list) on the
     * fused engines at the fraction dd137 reaches */
    {"2d-dd137-L1-16384-fwd", 2, 16384, 16384, 0, LW_DD137, 1, LW_FORWARD, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-dd137-L1-16384-inv", 2, 16384, 16384, 0, LW_DD137, 1, LW_INVERSE, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-dd97-L1-16384-fwd", 2, 16384, 16384, 0, LW_DD97, 1, LW_FORWARD, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-dd97-L1-16384-inv", 2, 16384, 16384, 0, LW_DD97, 1, LW_INVERSE, LW_BENCH_G2G, 0.75, 0, NULL, 0},
    {"2d-dd97-L5-16384-fwd", 2, 16384, 16384, 0, LW_DD97, 5, LW_FORWARD, LW_BENCH_G2G, 0.65, 0, NULL, 0},
    {"3d-dd97-L1-512-fwd", 3, 512, 512, 512, LW_DD97, 1, LW_FORWARD, LW_BENCH_G2G, 0.60, 0, NULL, 0},
    {"3d-cdf97-L1-256x512x1024-fwd", 3, 256, 512, 1024, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 0.60, 0, NULL, 0},
    {"2d-cdf97-L1-16384-c2c-fwd", 2, 16384, 16384, 0, LW_CDF97, 1, LW_FORWARD, LW_BENCH_C2C, 0.70, 0, NULL, 0},
    {"2d-cdf97-L1-16384-c2c-inv", 2, 16384, 16384, 0, LW_CDF97, 1, LW_INVERSE, LW_BENCH_C2C, 0.70, 0, NULL, 0},
    {"2d-cdf97-L1-1920x1080-fwd", 2, 1080, 1920, 0, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 20.0, 1, NULL, 0},
    {"2d-cdf97-L1-1920x1080-inv", 2, 1080, 1920, 0, LW_CDF97, 1, LW_INVERSE, LW_BENCH_G2G, 20.0, 1, NULL, 0},
};

static const bcase SMOKE[] = {
    {"smoke-2d-cdf97-L1-1024", 2, 1024, 1024, 0, LW_CDF97, 1, LW_FORWARD, LW_BENCH_G2G, 0.0, 0, NULL, 0},
    {"smoke-2d-cdf97-L1-1024-c2c", 2, 1024, 1024, 0, LW_CDF97, 1, LW_FORWARD, LW_BENCH_C2C, 0.0, 0, NULL, 0},
    {"smoke-2d-cdf97-L3-1024-destroy", 2, 1024, 1024, 0, LW_CDF97, 3, LW_FORWARD, LW_BENCH_G2G, 0.0, 0, NULL,
     LW_FLAG_DESTROY_INPUT},
    {"smoke-2d-cdf97-L3-1024-inv", 2, 1024, 1024, 0, LW_CDF97, 3, LW_INVERSE, LW_BENCH_G2G, 0.0, 0, NULL, 0},
};

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static float frand(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (float)((double)((rng * 0x2545F4914F6CDD1Dull) >> 40) / 16777216.0 * 2 - 1);
}

static const char *g_tuning; /* --t3v: the fused 3-D engine's tile variant, as a tuning key */

static int run_one(const bcase *b, int repeat, FILE *js, const char *commit, int *all_pass, unsigned xflags,
                   const float *pin, const float *pref)
{
    lw_config c;
    lw_config_init(&c);
    c.flags = b->flags | xflags;
    c.rank = b->rank, c.shape[0] = b->s0, c.shape[1] = b->s1, c.shape[2] = b->s2;
    c.wavelet = b->w, c.levels = b->levels, c.direction = b->dir, c.scheme = b->scheme;
    c.tuning = g_tuning;
    int64_t n = b->s0 * b->s1 * (b->rank > 2 ? b->s2 : 1);
    float *in = pin ? NULL : malloc(sizeof(float) * (size_t)n), *ref = pin ? NULL : malloc(sizeof(float) * (size_t)n);
    if (!pin) {
        if (!in || !ref) return 1;
        for (int64_t i = 0; i < n; i++) in[i] = frand();
        /* independent result: the CPU reference for small images, else the generic engine */
        lw_config rc = c;
        lw_plan *rp = NULL;
        if (n <= 4 << 20) rc.backend = LW_BACKEND_CPU_REF;
        else rc.backend = LW_BACKEND_CUDA, rc.scheme = "generic";
        if (rc.backend == LW_BACKEND_CPU_REF) rc.scheme = NULL;
        rc.flags = 0;
        if (lw_plan_create(&rp, &rc) != LW_OK || lw_execute(rp, in, ref) != LW_OK) {
            fprintf(stderr, "%s: reference failed: %s\n", b->name, lw_last_error());
            lw_destroy(rp), free(in), free(ref);
            return 1;
        }
        lw_destroy(rp);
        pin = in, pref = ref;
    }
    lw_bench_result r;
    lw_status s = lw_cuda_bench(&c, b->cfg, repeat, pin, pref, 1e-5, &r);
    if (s != LW_OK) {
        fprintf(stderr, "%s: %s\n", b->name, lw_last_error());
        free(in), free(ref);
        *all_pass = 0;
        return 1;
    }
    /* engine used (for the notes) */
    lw_plan *pp = NULL;
    c.backend = LW_BACKEND_CUDA;
    c.flags = (c.flags & ~LW_FLAG_DEVICE_POINTERS) | (b->cfg == LW_BENCH_G2G ? LW_FLAG_DEVICE_POINTERS : 0);
    lw_plan_create(&pp, &c);
    int eng = lw_cuda_plan_engine(pp);
    size_t ws = 0;
    if (pp) lw_workspace_size(pp, &ws);
    lw_destroy(pp);
    int destroy = (c.flags & LW_FLAG_DESTROY_INPUT) != 0;
    double lev = 0;
    for (int k = 0; k < b->levels; k++) {
        double f = 1;
        int64_t d[3] = {b->s0, b->s1, b->s2};
        for (int a = 0; a < b->rank; a++) f *= (double)lw_lowpass_length(d[a], k) / (double)d[a];
        lev += f;
    }
    double floor_bytes = (b->cfg == LW_BENCH_G2G ? lev : 1.0) * 2.0 * (double)n * 4.0;
    double eff = floor_bytes / r.median_s / 1e9;
    double frac = eff / r.bound_gbps;
    int pass = r.verified && (b->time_us ? r.median_s * 1e6 <= b->target : frac >= b->target);
    if (!pass) *all_pass = 0;
    printf("%-30s %-7s %-4s %9.1f %9.1f %8.3f %8.1f %8.1f %6.3f %7s %-6s %s  ws %.3f MiB extra %.2f MiB err %.1e%s\n",
           b->name,
           lw_cuda_engine_id_name(eng), b->cfg == LW_BENCH_G2G ? "G2G" : "C2C", r.median_s * 1e6, r.min_s * 1e6,
           (double)n / r.median_s / 1e9, eff, r.bound_gbps, frac,
           b->time_us ? "<=20us" : b->target <= 0 ? "-" : (b->target >= 0.8 ? ">=0.80" : b->target >= 0.75 ? ">=0.75" : b->target >= 0.7 ? ">=0.70" : b->target >= 0.65 ? ">=0.65" : ">=0.60"),
           pass ? "PASS" : "MISS", r.verified ? "verified" : "NOT-VERIFIED", (double)ws / 1048576.0,
           (double)r.device_extra_bytes / 1048576.0, r.max_rel_err, destroy && !strstr(b->name, "destroy") ? " (destroy-input)" : "");
    if (js) {
        time_t now = time(NULL);
        char date[32];
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        char shape[64];
        if (b->rank > 2) snprintf(shape, sizeof shape, "%lld, %lld, %lld", (long long)b->s0, (long long)b->s1, (long long)b->s2);
        else snprintf(shape, sizeof shape, "%lld, %lld", (long long)b->s0, (long long)b->s1);
        fprintf(js,
                "{\"case\": \"%s\", \"engine\": \"%s\", \"config\": \"%s\", \"dtype\": \"float32\", \"shape\": [%s], "
                "\"wavelet\": \"%s\", \"levels\": %d, \"direction\": \"%s\", \"median_s\": %.6e, \"min_s\": %.6e, \"runs\": %d, "
                "\"gsamples_per_s\": %.4f, \"ps_per_sample\": %.4f, \"floor_bytes\": %.0f, \"effective_gbps\": %.2f, "
                "\"bound\": \"%s\", \"bound_gbps\": %.2f, \"fraction_of_bound\": %.4f, \"target\": %.2f, \"target_kind\": \"%s\", "
                "\"pass\": %s, \"verified\": %s, \"max_rel_err\": %.3e, \"destroy_input\": %s, \"workspace_bytes\": %zu, "
                "\"extra_device_bytes\": %zu, \"device\": \"%s\", "
                "\"commit\": \"%s\", \"date\": \"%s\", \"scheme\": \"%s\", \"command\": \"%s\"}\n",
                b->name, lw_cuda_engine_id_name(eng), b->cfg == LW_BENCH_G2G ? "G2G" : "C2C", shape,
                lw_wavelet_name(b->w), b->levels, b->dir ? "inverse" : "forward", r.median_s, r.min_s, r.runs,
                (double)n / r.median_s / 1e9, r.median_s / (double)n * 1e12, floor_bytes, eff, r.bound, r.bound_gbps, frac,
                b->target, b->time_us ? "max_median_us" : "min_fraction", pass ? "true" : "false",
                r.verified ? "true" : "false", r.max_rel_err, destroy ? "true" : "false", ws, r.device_extra_bytes,
                r.device, commit, date, b->scheme ? b->scheme : "auto",
                b->scheme ? "gpu_bench --scheme" : "tests/gpu/run.sh (gpu_bench)");
        fflush(js);
    }
    free(in), free(ref);
    return 0;
}

/* ---- Faber-Schauder: the paper's sizes (2^J) and its natural sizes (2^J+1),
 * every level, integer and float, forward and inverse.  Reference: the CPU
 * backend (tested against the CPU reference).  fraction_of_copy: the device
 * copy of the array (one read, one write: the least a one-pass transform
 * moves) over the transform's time; fraction_of_bound: the pyramid floor of
 * docs/METHOD.md, as for the other records. */
typedef struct fscase {
    int64_t n;
    lw_dtype t;
    lw_layout lay;
    lw_direction dir;
    lw_bench_config cfg;
} fscase;

static int run_fs_one(const fscase *f, int repeat, FILE *js, const char *commit, const char *tag, const char *only)
{
    char name[96];
    snprintf(name, sizeof name, "fs-%s-%s-%lld-%s%s", f->t == LW_INT32 ? "int" : "f32",
             f->lay == LW_MALLAT ? "mallat" : "inter", (long long)f->n, f->dir ? "inv" : "fwd",
             f->cfg == LW_BENCH_C2C ? "-c2c" : "");
    if (only && !strstr(name, only)) return 0;
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = c.shape[1] = f->n;
    c.wavelet = LW_FS, c.levels = LW_LEVELS_MAX, c.dtype = f->t, c.integer = f->t == LW_INT32;
    c.layout = f->lay, c.direction = f->dir;
    int levels = 0;
    lw_max_levels(2, c.shape, 0, NULL, &levels);
    int64_t n = f->n * f->n;
    size_t bytes = (size_t)n * 4;
    void *in = malloc(bytes), *ref = malloc(bytes);
    if (!in || !ref) return 1;
    for (int64_t i = 0; i < n; i++) {
        if (f->t == LW_INT32) ((int32_t *)in)[i] = (int32_t)(frand() * 32768.0f); /* 16-bit range: headroom */
        else ((float *)in)[i] = frand();
    }
    lw_config rc = c;
    rc.backend = LW_BACKEND_CPU;
    lw_plan *rp = NULL;
    if (lw_plan_create(&rp, &rc) != LW_OK || lw_execute(rp, in, ref) != LW_OK) {
        fprintf(stderr, "%s: reference failed: %s\n", name, lw_last_error());
        lw_destroy(rp), free(in), free(ref);
        return 1;
    }
    lw_destroy(rp);
    lw_bench_result r;
    if (lw_cuda_bench(&c, f->cfg, repeat, in, ref, f->t == LW_INT32 ? 0.0 : 1e-5, &r) != LW_OK) {
        fprintf(stderr, "%s: %s\n", name, lw_last_error());
        free(in), free(ref);
        return 1;
    }
    double lev = 0;
    for (int k = 0; k < levels; k++) {
        double q = (double)lw_lowpass_length(f->n, k) / (double)f->n;
        lev += q * q;
    }
    double copy_bytes = 2.0 * (double)bytes, floor_bytes = (f->cfg == LW_BENCH_G2G ? lev : 1.0) * copy_bytes;
    double fcopy = copy_bytes / r.median_s / 1e9 / r.bound_gbps, eff = floor_bytes / r.median_s / 1e9;
    printf("%-28s %-12s %-4s %3d %9.1f %9.1f %8.3f %8.1f %6.3f %6.3f %s err %.1e\n", name, tag,
           f->cfg == LW_BENCH_G2G ? "G2G" : "C2C", levels, r.median_s * 1e6, r.min_s * 1e6,
           (double)n / r.median_s / 1e9, r.bound_gbps, fcopy, eff / r.bound_gbps, r.verified ? "verified" : "NOT-VERIFIED",
           r.max_rel_err);
    if (js) {
        time_t now = time(NULL);
        char date[32];
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        fprintf(js,
                "{\"case\": \"%s\", \"engine\": \"fs\", \"scheme\": \"%s\", \"backend\": \"cuda\", \"config\": \"%s\", "
                "\"dtype\": \"%s\", \"layout\": \"%s\", \"mode\": \"symmetric\", \"shape\": [%lld, %lld], \"wavelet\": \"fs\", "
                "\"levels\": %d, \"direction\": \"%s\", \"median_s\": %.6e, \"min_s\": %.6e, \"runs\": %d, "
                "\"gsamples_per_s\": %.4f, \"ps_per_sample\": %.4f, \"floor_bytes\": %.0f, \"effective_gbps\": %.2f, "
                "\"bound\": \"%s\", \"bound_gbps\": %.2f, \"fraction_of_bound\": %.4f, \"fraction_of_copy\": %.4f, "
                "\"verified\": %s, \"max_rel_err\": %.3e, \"device_extra_bytes\": %zu, \"device\": \"%s\", "
                "\"commit\": \"%s\", \"date\": \"%s\", \"command\": \"gpu_bench --fs --tag %s\"}\n",
                name, tag, f->cfg == LW_BENCH_G2G ? "G2G" : "C2C", lw_dtype_name(f->t), lw_layout_name(f->lay),
                (long long)f->n, (long long)f->n, levels, f->dir ? "inverse" : "forward", r.median_s, r.min_s, r.runs,
                (double)n / r.median_s / 1e9, r.median_s / (double)n * 1e12, floor_bytes, eff, r.bound, r.bound_gbps,
                eff / r.bound_gbps, fcopy, r.verified ? "true" : "false", r.max_rel_err, r.device_extra_bytes, r.device,
                commit, date, tag);
        fflush(js);
    }
    free(in), free(ref);
    return r.verified ? 0 : 1;
}

static int run_fs_set(int repeat, FILE *js, const char *commit, const char *tag, const char *only)
{
    static const int64_t N[] = {256, 257, 512, 1024, 1025, 2048, 4096, 4097};
    static const lw_dtype T[] = {LW_INT32, LW_FLOAT32};
    printf("%-28s %-12s %-4s %3s %9s %9s %8s %8s %6s %6s\n", "case", "scheme", "cfg", "lev", "med_us", "min_us",
           "Gsmp/s", "copyGB/s", "f_copy", "f_bnd");
    int errs = 0;
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < sizeof N / sizeof N[0]; i++)
            for (int d = 0; d < 2; d++) {
                fscase f = {N[i], T[t], LW_MALLAT, (lw_direction)d, LW_BENCH_G2G};
                errs += run_fs_one(&f, repeat, js, commit, tag, only);
                if (N[i] == 4096) { /* the paper's layout (mixed scales) and its host-to-host timing */
                    f.lay = LW_INTERLEAVED;
                    errs += run_fs_one(&f, repeat, js, commit, tag, only);
                    f.lay = LW_MALLAT, f.cfg = LW_BENCH_C2C;
                    errs += run_fs_one(&f, repeat, js, commit, tag, only);
                }
            }
    return errs;
}

/* --scheme: every listed scheme on the papers' wavelets and sizes */
static int run_schemes(const char *list, int repeat, const char *only, FILE *js, const char *commit, int *all_pass)
{
    static const char block[] = "auto,sweldens,iwahashi,explosive,monolithic,polyphase,convolution,iwahashi*,"
                                "explosive*,monolithic*,polyphase*";
    static const char single[] = "sweldens:single,iwahashi:single,explosive:single,monolithic:single,"
                                 "polyphase:single,iwahashi*:single,explosive*:single,monolithic*:single,"
                                 "polyphase*:single";
    char names[32][32];
    int nn = 0;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", !strcmp(list, "block") ? block : !strcmp(list, "block:single") ? single : list);
    for (char *t = strtok(buf, ","); t && nn < 32; t = strtok(NULL, ",")) {
        size_t len = strlen(t) < sizeof names[0] - 1 ? strlen(t) : sizeof names[0] - 1;
        memcpy(names[nn], t, len);
        names[nn++][len] = 0;
    }
    static const lw_wavelet waves[] = {LW_CDF53, LW_CDF97, LW_DD137};
    static const int64_t sizes[][2] = {{1024, 1024}, {3072, 3072}, {16384, 16384}};
    int errs = 0;
    for (int si = 0; si < 3; si++)
        for (int wi = 0; wi < 3; wi++) {
            char base[64];
            snprintf(base, sizeof base, "%s-%lldx%lld", lw_wavelet_name(waves[wi]), (long long)sizes[si][0],
                     (long long)sizes[si][1]);
            int any = 0;
            char nm[32][128];
            for (int k = 0; k < nn; k++) {
                snprintf(nm[k], sizeof nm[k], "%.31s-%.63s-fwd", names[k], base);
                if (!only || strstr(nm[k], only)) any = 1;
            }
            if (!any) continue;
            int64_t n = sizes[si][0] * sizes[si][1];
            float *in = malloc(sizeof(float) * (size_t)n), *ref = malloc(sizeof(float) * (size_t)n);
            if (!in || !ref) return 1;
            for (int64_t i = 0; i < n; i++) in[i] = frand();
            lw_config rc;
            lw_config_init(&rc);
            rc.rank = 2, rc.shape[0] = sizes[si][0], rc.shape[1] = sizes[si][1], rc.wavelet = waves[wi], rc.levels = 1;
            rc.backend = n <= 4 << 20 ? LW_BACKEND_CPU_REF : LW_BACKEND_CUDA;
            rc.scheme = n <= 4 << 20 ? NULL : "generic";
            lw_plan *rp = NULL;
            if (lw_plan_create(&rp, &rc) != LW_OK || lw_execute(rp, in, ref) != LW_OK) {
                fprintf(stderr, "%s: reference failed: %s\n", base, lw_last_error());
                return 1;
            }
            lw_destroy(rp);
            for (int k = 0; k < nn; k++) {
                if (only && !strstr(nm[k], only)) continue;
                bcase b = {nm[k], 2, sizes[si][0], sizes[si][1], 0, waves[wi], 1, LW_FORWARD, LW_BENCH_G2G, 0.0, 0,
                           strcmp(names[k], "auto") ? names[k] : NULL, 0};
                errs += run_one(&b, repeat, js, commit, all_pass, 0, in, ref);
            }
            free(in), free(ref);
        }
    return errs;
}

int main(int argc, char **argv)
{
    int smoke = 0, repeat = 30, fs = 0;
    const char *json = NULL, *only = NULL, *tag = "fs", *schemes = NULL;
    unsigned xflags = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--smoke")) smoke = 1;
        else if (!strcmp(argv[i], "--fs")) fs = 1;
        else if (!strcmp(argv[i], "--tag") && i + 1 < argc) tag = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--destroy-input")) xflags |= LW_FLAG_DESTROY_INPUT;
        else if (!strcmp(argv[i], "--scheme") && i + 1 < argc) schemes = argv[++i];
        else if (!strcmp(argv[i], "--t3v") && i + 1 < argc) {
            static const char *const t3v[] = {"tile3d=16x64", "tile3d=16x64-p1", "tile3d=16x64-p3", "tile3d=32x64"};
            int v = atoi(argv[++i]);
            g_tuning = v >= 0 && v < 4 ? t3v[v] : NULL;
        }
        else {
            fprintf(stderr, "usage: gpu_bench [--smoke] [--fs [--tag NAME]] [--json FILE] [--repeat N] [--only SUBSTRING]\n"
                            "                 [--scheme LIST] [--destroy-input] [--t3v N]\n");
            return 2;
        }
    }
    if (!lw_backend_available(LW_BACKEND_CUDA)) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    const char *commit = getenv("LW_COMMIT") ? getenv("LW_COMMIT") : "unknown";
    FILE *js = json ? fopen(json, "w") : NULL;
    if (fs) { /* the Faber-Schauder set alone */
        int errs = run_fs_set(repeat, js, commit, tag, only);
        if (js) fclose(js);
        return errs ? 1 : 0;
    }
    const bcase *list = smoke ? SMOKE : FULL;
    size_t cnt = smoke ? sizeof SMOKE / sizeof SMOKE[0] : sizeof FULL / sizeof FULL[0];
    printf("%-30s %-7s %-4s %9s %9s %8s %8s %8s %6s %7s %-6s\n", "case", "engine", "cfg", "med_us", "min_us", "Gsmp/s",
           "eff_GB/s", "bnd_GB/s", "frac", "target", "result");
    int all_pass = 1, errs = 0;
    if (schemes) {
        errs = run_schemes(schemes, repeat, only, js, commit, &all_pass);
        if (js) fclose(js);
        return errs ? 1 : 0;
    }
    for (size_t i = 0; i < cnt; i++) {
        if (only && !strstr(list[i].name, only)) continue;
        errs += run_one(&list[i], smoke ? 5 : repeat, js, commit, &all_pass, xflags, NULL, NULL);
    }
    if (js) fclose(js);
    if (smoke) return errs ? 1 : 0;
    printf("targets: %s\n", all_pass ? "all met" : "some missed");
    return errs ? 1 : 0;
}
