/* `liftwave bench`: in-memory timing of the transform (no file I/O) on random
 * data, one record per combination of the listed option values.
 *
 *   host (cpu, cpu-ref)  warm-up, median of N runs timed with CLOCK_MONOTONIC;
 *                        bound = memcpy of the array's bytes, measured in the
 *                        same run on the same number of threads.
 *   G2G, C2C (cuda)      lw_cuda_bench() (liftwave.h): CUDA events,
 *                        bound = device copy (G2G) or PCIe (C2C).
 *
 * Every record is checked: the output is poisoned before the timed runs and
 * compared afterwards with the cpu-ref backend on the same input.
 *
 * --inplace times every combination in place (lw_execute(plan, x, x), the
 * input restored before each run outside the timing); --inplace=both times
 * each out of place, then in place, and ends with their ratios.
 *
 * This file: options and combinations; cli_bench_output.c: the records;
 * cli_bench_run.c: one record. */
#define _POSIX_C_SOURCE 200809L

#include "cli_bench.h"
#include "cli_bench_int.h"
#include "cli_common.h"
#include "cli_env.h"
#include "lw_stream.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif

#define MAXV 16 /* values per option list */
#define MAX_COMBOS 4096
#define config_names lw_bench_config_names

typedef struct bench_opts {
    int nbackend, nwavelet, nlevels, nmode, nshape, ndtype, ndir, nconfig, nscheme, nthreads, nhostmem, nlayout;
    lw_backend backend[MAXV];
    lw_wavelet wavelet[MAXV];
    int levels[MAXV]; /* LW_LEVELS_MAX for "max" */
    lw_mode mode[MAXV];
    lw_layout layout[MAXV];
    int rank[MAXV];
    int64_t shape[MAXV][LW_MAX_RANK];
    lw_dtype dtype[MAXV];
    lw_direction dir[MAXV];
    int config[MAXV];
    int hostmem[MAXV]; /* HM_PINNED / HM_PAGEABLE (--host-memory) */
    char scheme[LW_BENCH_MAX_SCHEMES][32];
    int threads[MAXV]; /* 0 = the runtime's default */
    int integer, json, repeat, table, destroy_input;
    int nplace, place[2]; /* the placements timed: 0 out of place, 1 in place (--inplace) */
    int naxes, axes[3];   /* --axes: the transformed axes of every shape (0: all) */
    char tuning[768]; /* the environment's tuning, then --tune */
    uint64_t device_memory_limit; /* --device-memory-limit */
    int scheme_all, scheme_list; /* --scheme all (every GPU scheme + auto), --scheme list */
    int nmpix;
    double mpix[MAXV]; /* --sizes-mpix */
    /* resolved (backend, config, host memory) triples */
    int npair;
    lw_backend pair_backend[2 * MAXV * 4];
    int pair_config[2 * MAXV * 4];
    int pair_hostmem[2 * MAXV * 4];
} bench_opts;

/* ---- small helpers ------------------------------------------------------ */

static int usage_error(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lw_bench_errline("%s (see 'liftwave bench --help')", msg);
    return 2;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!s || !*s || isspace((unsigned char)*s)) return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

/* Split a comma list in place (copy of the argument).  Returns the count or
 * -1 (empty item, too many). */
static int split_list(char *s, char **items)
{
    int n = 0;
    for (char *p = s;;) {
        char *c = strchr(p, ',');
        if (c) *c = '\0';
        if (!*p || n == MAXV) return -1;
        items[n++] = p;
        if (!c) break;
        p = c + 1;
    }
    return n;
}

static int parse_shape(const char *s, int *rank, int64_t *shape)
{
    char buf[128];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    int r = 0;
    for (char *p = buf;;) {
        char *x = strchr(p, 'x');
        if (x) *x = '\0';
        long v;
        if (r == LW_MAX_RANK || parse_int(p, 1, 1L << 40, &v) != 0) return -1;
        shape[r++] = v;
        if (!x) break;
        p = x + 1;
    }
    *rank = r;
    return 0;
}


/* ---- option parsing ----------------------------------------------------- */

static void print_help(void)
{
    static char text[14336];
    snprintf(text, sizeof text,
        "usage: liftwave bench [--backend B] [--wavelet W] [--levels N|max] [--mode M]\n"
        "                      [--shape 8192x8192] [--dtype float32|float64|int32|float16|bfloat16]\n"
        "                      [--integer]\n"
        "                      [--direction forward|inverse|forward-adjoint|inverse-adjoint] [--config host|G2G|C2C]\n"
        "                      [--scheme S]\n"
        "                      [--host-memory pinned|pageable]\n"
        "                      [--layout mallat|interleaved] [--axes A,B] [--inplace[=both]]\n"
        "                      [--repeat N] [--threads N] [--sizes-mpix M] [--destroy-input]\n"
        "                      [--tune KEY=VALUE,...]\n"
        "                      [--json] [--table] [--help]\n"
        "       liftwave bench --backend cuda --matrix [--matrix-only P] [--dry-run] [--repeat N]\n"
        "                      [--tune T] [--inplace] [--json]\n"
        "       liftwave bench --matrix-summary RECORDS.json\n"
        "\n"
        "Times the transform in memory (no file I/O) on random data.  Options marked\n"
        "[list] take comma lists (--wavelet cdf97,cdf53 --shape 1920x1080,8192x8192);\n"
        "one record is printed per combination.\n"
        "\n"
        "  -b, --backend B [list] {backends} (auto: cuda when usable, else cpu) [auto]\n"
        "  -w, --wavelet W [list] {wavelets} [cdf97]\n"
        "  -l, --levels N  [list] levels, or the most the shape allows [1]\n"
        "  -m, --mode M    [list] symmetric or periodic [symmetric]\n"
        "  --layout L      [list] mallat or interleaved (docs/CONVENTIONS.md section 4) [mallat]\n"
        "  --shape S       [list] 1-D to 4-D shape, C order, e.g. 4096x4096, 256x256x256 or 8x64x256x256\n"
        "                  (a batch of volumes with --axes 1,2,3) [4096x4096]\n"
        "  --axes A,B      the transformed axes of every shape, 1 to 3 of 0..3 in increasing order\n"
        "                  (the others are a batch), e.g. --shape 192x512x512 --axes 1,2 [every axis]\n"
        "  --dtype T       [list] float32 float64 int32 float16 bfloat16 [float32; int32 with\n"
        "                  --integer]; the half types on cpu and cuda (not fs on cuda)\n"
        "  --integer       the integer (reversible) transforms, on int32 data\n"
        "  --direction D   [list] forward, inverse (of random coefficients), forward-adjoint or\n"
        "                  inverse-adjoint (the transposes, float only) [forward]\n"
        "  --config C      [list] host (cpu backends), G2G (device buffers) or C2C (host buffers,\n"
        "                  transfers included) for cuda [host for cpu, G2G for cuda]\n"
        "  --host-memory H [list] C2C: the host buffers, pinned (cudaMallocHost) or pageable\n"
        "                  (malloc, as NumPy's; moved as the plan's tuning says: --tune\n"
        "                  pageable=stage|register, docs/TUNING.md); implies --config C2C [pinned]\n"
        "  --scheme S      [list] a paper's GPU algorithm (cuda) or an engine of the backend\n"
        "                  (both listed by --scheme list; host: the cpu engines) [auto];\n"
        "                  'list' prints the papers' schemes this build has (paper, inverse,\n"
        "                  operations and barriers for CDF 9/7) and exits; with --wavelet W,\n"
        "                  each scheme's operations and barriers for those wavelets, counted\n"
        "                  from the kernels, next to the papers' (003 Table 2); no device\n"
        "                  needed.  'all' runs auto and every scheme (fs: the Faber-Schauder\n"
        "                  engine, -w fs only) and prints the papers' table at the end.  The\n"
        "                  combinations a scheme does not support are skipped, one line on\n"
        "                  stderr per scheme and setting (an error when only one was asked)\n"
        "  --repeat N      timed runs after warm-up [host: at least %d and about %.1f s of runs,\n"
        "                  at most %d; cuda: %d, 10 from 8 Mi samples, 5 from 64 Mi]\n"
        "  --threads N     [list] CPU threads (OpenMP builds only) [the OpenMP default]\n"
        "  --device-memory-limit SIZE  cuda C2C: the device bytes a call may hold (e.g. 1G; a\n"
        "                  larger transform streams the host array through the device, out\n"
        "                  of core) [0: what is free]\n"
        "  --tune T        the plans' tuning knobs, KEY=VALUE,... (docs/TUNING.md; cpu: simd,\n"
        "                  stream, ring_kb, prefetch, walk, walk_kb, split_min, vol_split; cuda host\n"
        "                  memory: stage_kb, stage_buffers, copy_threads, pageable, register_min_mb)\n"
        "  --destroy-input cuda: plan with LW_FLAG_DESTROY_INPUT (the input buffer is the\n"
        "                  workspace; restored before every timed run, outside the timing)\n"
        "  --inplace       time every record in place, lw_execute(plan, x, x), on every backend\n"
        "                  (cuda: one device array, or one host array for C2C): the input is\n"
        "                  copied back into x before every run, outside the timing (CUDA events\n"
        "                  or the clock around the execute only), and the last run's result is\n"
        "                  checked as usual.  --inplace=both: every combination out of place,\n"
        "                  then in place, and at the end the ratio of their median times per\n"
        "                  combination (stderr with --json).  Not with --destroy-input.  With\n"
        "                  --matrix: every cell out of place and in place, and the ratios\n"
        "                  after the matrix's summary\n"
        "  --sizes-mpix M  [list] square 2-D shapes of about M Mpixel (M * 2^20 samples, even side),\n"
        "                  added to the --shape list, e.g. 0.1,1,10,64,256\n"
        "  --table         after the records, the papers' table: ps/pixel and fraction of the\n"
        "                  bound at 1 and 10 Mpixel per scheme and wavelet (stderr with --json)\n"
        "  --json          one JSON object per line instead of the table\n"
        "\n"
        "Matrix (issue 16's targets): --matrix runs every cell of the table of targets on\n"
        "the cuda backend, float32, symmetric, forward and inverse: 2-D 16384^2 1 level (haar\n"
        "target 0.97 of the device copy, the others 0.85) and max levels (0.75); batch\n"
        "192x512x512 on axes 1,2, 1 and 3 levels (0.75); 3-D 512^3 1 level (0.75) and max\n"
        "levels (0.65); video 64x1080x1920 d4 3 levels (0.65); every wavelet in those; host\n"
        "memory (C2C) cdf97 2-D 16384^2 1 and 5 levels and 3-D 512^3, pinned (0.90 of PCIe)\n"
        "and pageable (0.80); 2-D cdf97 1 level 1080x1920 latency (<= 12 us).  One verified\n"
        "record per cell (JSON: the keys below plus cell, case, target_kind, target,\n"
        "meets, floor_bytes, bytes_counted, repeat, command), then the floor (the smallest\n"
        "fraction of the bound, and its cell; target 0.60), the median of the fractions and\n"
        "every cell that misses its target (latency cells are not in the floor or median).\n"
        "  --matrix-only P  comma list of cell names or patterns (glob with * ? [], else a\n"
        "                   substring), e.g. 3d-max or '2d-l1-*-fwd'\n"
        "  --dry-run        list the cells (name, shape, axes, levels, config, repeat, target)\n"
        "                   and run nothing; no device needed (JSON lines with --json)\n"
        "  --repeat N       timed runs of every cell [device cells 20, host memory 5, latency 200]\n"
        "  --matrix-summary FILE  the floor, median and misses of the records of an earlier\n"
        "                   run (its --json output)\n"
        "With --json the summary goes to stderr.  The exit status is 1 when a cell fails or\n"
        "its output differs from the reference; missed targets are reported, not errors.\n"
        "\n"
        "Host timing: median of the timed runs (CLOCK_MONOTONIC).  bound: memcpy of the array's\n"
        "bytes measured in the same run, split over the same threads (at least 256 KiB each),\n"
        "median of at least 20 copies (as the cuda device copy), bound_gbps counting bytes read\n"
        "plus written; host records also give bound_best_gbps (the best copy, STREAM's statistic)\n"
        "and fraction_of_best_bound.  cuda: device-to-device copy (G2G) or PCIe\n"
        "transfers (C2C), measured by the cuda backend in the same run.\n"
        "effective_gbps = floor bytes / median, the floor being 2 * itemsize * the samples\n"
        "transformed at each level, summed over the levels (docs/METHOD.md); for C2C the\n"
        "bytes that cross PCIe, 2 * itemsize * the samples, whatever the levels;\n"
        "fraction_of_bound = effective_gbps / bound_gbps.\n"
        "\n"
        "Verification: the output is poisoned before the timed runs (in place: the input is\n"
        "restored) and the last run's output compared with the cpu-ref backend's on the same\n"
        "input (float32 within 1e-5 of max|ref|, float64 1e-12, int32\n"
        "exact).  Over %lld Mi samples a cuda record is compared with the generic CUDA\n"
        "engine instead (itself tested against cpu-ref; where it does not apply, fs, with the\n"
        "cpu backend, up to the next limit), a cpu record up to %lld Mi samples\n"
        "still with cpu-ref; larger ones are not verified (\"verified\": false).  A mismatch\n"
        "is reported on stderr and the exit status is 1.\n"
        "\n"
        "JSON keys: wavelet levels shape axes dtype mode layout backend scheme direction config\n"
        "inplace median_s gsamples_per_s ps_per_sample effective_gbps bound bound_gbps\n"
        "fraction_of_bound threads device commit date verified  (threads is 0 for the cuda\n"
        "configs; inplace true for the records timed in place); host records also\n"
        "simd (the cpu backend's SIMD path: scalar, sse2, avx2, avx512; null for cpu-ref);\n"
        "cuda records also\n"
        "extra_device_bytes (device memory the plan took beyond the bench's own buffers, the\n"
        "peak seen by cudaMemGetInfo: G2G beyond in and out, in place beyond the one array;\n"
        "C2C: all the plan's device memory), destroy_input, host_memory (none, pinned,\n"
        "pageable), tuning and engine (the engine the plan ran);\n"
        "pageable records also register_s (cudaHostRegister + unregister of in and out, in\n"
        "place of the one array: the cost pageable=register adds per call).  The C2C bound\n"
        "is host-to-device and\n"
        "device-to-host copies of pinned buffers at once, whatever the host memory.\n"
        "\n" LW_CLI_EXIT_TEXT,
        LW_BENCH_AUTO_MIN_RUNS, LW_BENCH_AUTO_TARGET_S, LW_BENCH_AUTO_MAX_RUNS, LW_BENCH_CUDA_RUNS,
        (long long)(LW_BENCH_VERIFY_LIMIT >> 20), (long long)(LW_BENCH_VERIFY_LIMIT_HOST >> 20));
    lw_cli_print_usage(text);
}

/* Parse one list option's value into o.  Returns 0 or an exit status. */
static int parse_value(bench_opts *o, const char *opt, const char *val)
{
    char buf[1024], *items[MAXV];
    if (strlen(val) >= sizeof buf) return usage_error("%s: value too long", opt);
    strcpy(buf, val);
    if (!strcmp(opt, "--tune")) { /* one tuning string for every combination (checked by the plans) */
        const char *env = lw_cli_env_tuning(); /* the environment's first: --tune overrides it */
        if (snprintf(o->tuning, sizeof o->tuning, "%s%s%s", env ? env : "", env ? "," : "", val) >=
            (int)sizeof o->tuning)
            return usage_error("--tune: value too long");
        return 0;
    }
    if (!strcmp(opt, "--device-memory-limit")) { /* one budget for every combination */
        if (lw_stream_parse_size(val, &o->device_memory_limit) != 0)
            return usage_error("bad --device-memory-limit '%s': write bytes or e.g. 256M, 2G", val);
        return 0;
    }
    if (!strcmp(opt, "--axes")) { /* one set for every shape (its commas are not a list of values) */
        int n = split_list(buf, items);
        if (n < 1 || n > 3) return usage_error("--axes wants 1 to 3 axes like 1,2, not '%s'", val);
        for (int i = 0; i < n; i++) {
            long v;
            if (parse_int(items[i], 0, LW_MAX_RANK - 1, &v) || (i && v <= o->axes[i - 1]))
                return usage_error("--axes wants distinct axes 0..%d in increasing order, like 1,2, not '%s'",
                                   LW_MAX_RANK - 1, val);
            o->axes[i] = (int)v;
        }
        o->naxes = n;
        return 0;
    }
    if (!strcmp(opt, "--inplace")) { /* --inplace=both (the flag alone is parsed with the flags) */
        if (strcmp(val, "both"))
            return usage_error("--inplace takes no value or '=both' (out of place and in place), not '%s'", val);
        o->nplace = 2, o->place[0] = 0, o->place[1] = 1;
        return 0;
    }
    if (!strcmp(opt, "--repeat")) {
        long v;
        if (parse_int(val, 1, 1000000, &v)) return usage_error("--repeat wants a count in 1..1000000, not '%s'", val);
        o->repeat = (int)v;
        return 0;
    }
    int n = split_list(buf, items);
    if (n < 0) return usage_error("%s: bad list '%s' (empty item or more than %d values)", opt, val, MAXV);
    for (int i = 0; i < n; i++) {
        const char *s = items[i];
        long v;
        if (!strcmp(opt, "--backend")) {
            if (lw_backend_parse(s, &o->backend[i]) != LW_OK)
                return usage_error("%s", lw_last_error());
        } else if (!strcmp(opt, "--wavelet")) {
            if (lw_wavelet_parse(s, &o->wavelet[i]) != LW_OK)
                return usage_error("%s", lw_last_error());
        } else if (!strcmp(opt, "--levels")) {
            if (!strcmp(s, "max")) o->levels[i] = LW_LEVELS_MAX;
            else if (parse_int(s, 0, 1000000, &v) == 0) o->levels[i] = (int)v;
            else return usage_error("--levels wants a number >= 0 or 'max', not '%s'", s);
        } else if (!strcmp(opt, "--mode")) {
            if (lw_mode_parse(s, &o->mode[i]) != LW_OK)
                return usage_error("unknown mode '%s' (symmetric, periodic)", s);
        } else if (!strcmp(opt, "--layout")) {
            if (lw_layout_parse(s, &o->layout[i]) != LW_OK)
                return usage_error("unknown layout '%s' (mallat, interleaved)", s);
        } else if (!strcmp(opt, "--shape")) {
            if (parse_shape(s, &o->rank[i], o->shape[i]))
                return usage_error("bad shape '%s' (1 to %d lengths >= 1, like 4096x4096)", s, LW_MAX_RANK);
        } else if (!strcmp(opt, "--dtype")) {
            int k = 0;
            while (k <= LW_BFLOAT16 && strcmp(s, lw_dtype_name((lw_dtype)k))) k++;
            if (k > LW_BFLOAT16)
                return usage_error("unknown dtype '%s' (float32, float64, int32, float16, bfloat16)", s);
            o->dtype[i] = (lw_dtype)k;
        } else if (!strcmp(opt, "--direction")) {
            int k = 0;
            while (k < 4 && strcmp(s, lw_bench_dir_names[k])) k++;
            if (k == 4) return usage_error("unknown direction '%s' (forward, inverse, forward-adjoint, inverse-adjoint)", s);
            o->dir[i] = (lw_direction)k;
        } else if (!strcmp(opt, "--config")) {
            int k = 0;
            while (k < 3 && strcmp(s, config_names[k])) k++;
            if (k == 3 && !strcmp(s, "g2g")) k = CFG_G2G;
            if (k == 3 && !strcmp(s, "c2c")) k = CFG_C2C;
            if (k == 3) return usage_error("unknown config '%s' (host, G2G, C2C)", s);
            o->config[i] = k;
        } else if (!strcmp(opt, "--host-memory")) {
            if (!strcmp(s, "pinned")) o->hostmem[i] = HM_PINNED;
            else if (!strcmp(s, "pageable")) o->hostmem[i] = HM_PAGEABLE;
            else return usage_error("unknown host memory '%s' (pinned, pageable)", s);
        } else if (!strcmp(opt, "--scheme")) {
            if (strlen(s) >= sizeof o->scheme[i]) return usage_error("scheme name '%s' too long", s);
            strcpy(o->scheme[i], s);
            if (!strcmp(s, "list")) o->scheme_list = 1;
            if (!strcmp(s, "all")) {
                if (n > 1) return usage_error("--scheme all takes no other names");
                o->scheme_all = 1;
            }
        } else if (!strcmp(opt, "--sizes-mpix")) {
            char *end;
            double m = strtod(s, &end);
            if (*end || !(m >= 1e-4 && m <= 1e6))
                return usage_error("--sizes-mpix wants Mpixel counts like 0.1,1,10, not '%s'", s);
            o->mpix[i] = m;
        } else if (!strcmp(opt, "--threads")) {
            if (parse_int(s, 1, 4096, &v)) return usage_error("--threads wants a count in 1..4096, not '%s'", s);
            o->threads[i] = (int)v;
        }
    }
    if (!strcmp(opt, "--backend")) o->nbackend = n;
    else if (!strcmp(opt, "--wavelet")) o->nwavelet = n;
    else if (!strcmp(opt, "--levels")) o->nlevels = n;
    else if (!strcmp(opt, "--mode")) o->nmode = n;
    else if (!strcmp(opt, "--layout")) o->nlayout = n;
    else if (!strcmp(opt, "--shape")) o->nshape = n;
    else if (!strcmp(opt, "--sizes-mpix")) o->nmpix = n;
    else if (!strcmp(opt, "--dtype")) o->ndtype = n;
    else if (!strcmp(opt, "--direction")) o->ndir = n;
    else if (!strcmp(opt, "--config")) o->nconfig = n;
    else if (!strcmp(opt, "--host-memory")) o->nhostmem = n;
    else if (!strcmp(opt, "--scheme")) o->nscheme = n;
    else if (!strcmp(opt, "--threads")) o->nthreads = n;
    return 0;
}

static const char *const value_opts[] = {"--backend",   "--wavelet", "--levels", "--mode",
                                         "--shape",     "--dtype",   "--direction", "--config",
                                         "--scheme",    "--repeat",  "--threads", "--sizes-mpix",
                                         "--tune",      "--host-memory", "--layout", "--axes",
                                         "--inplace",   "--device-memory-limit"};

/* Fill defaults and the (backend, config) pairs.  Returns 0 or an exit status. */
static int resolve_opts(bench_opts *o)
{
    if (!o->nwavelet) o->wavelet[o->nwavelet++] = LW_CDF97;
    if (!o->nlevels) o->levels[o->nlevels++] = 1;
    if (!o->nmode) o->mode[o->nmode++] = LW_SYMMETRIC;
    if (!o->nlayout) o->layout[o->nlayout++] = LW_MALLAT;
    if (!o->nplace) o->place[o->nplace++] = 0;
    if (o->destroy_input && o->place[o->nplace - 1])
        return usage_error("--inplace and --destroy-input exclude each other (in place the input is overwritten "
                           "anyway; --destroy-input is for separate in and out buffers)");
    for (int i = 0; i < o->nmpix; i++) {
        if (o->nshape == MAXV) return usage_error("more than %d shapes (--shape and --sizes-mpix together)", MAXV);
        int64_t side = (int64_t)(sqrt(o->mpix[i] * 1048576.0) / 2.0 + 0.5) * 2;
        o->rank[o->nshape] = 2;
        o->shape[o->nshape][0] = o->shape[o->nshape][1] = side < 2 ? 2 : side;
        o->nshape++;
    }
    if (!o->nshape) {
        o->rank[0] = 2;
        o->shape[0][0] = o->shape[0][1] = 4096;
        o->nshape = 1;
    }
    if (!o->ndtype) o->dtype[o->ndtype++] = o->integer ? LW_INT32 : LW_FLOAT32;
    for (int i = 0; i < o->ndtype; i++) {
        if (o->integer && o->dtype[i] != LW_INT32)
            return usage_error("--integer works on int32 data, not %s", lw_dtype_name(o->dtype[i]));
        if (!o->integer && o->dtype[i] == LW_INT32)
            return usage_error("int32 data needs --integer (the reversible transforms)");
    }
    if (!o->ndir) o->dir[o->ndir++] = LW_FORWARD;
    if (!o->nscheme) strcpy(o->scheme[o->nscheme++], "auto");
    if (!o->nthreads) o->threads[o->nthreads++] = 0;
#ifndef _OPENMP
    for (int i = 0; i < o->nthreads; i++)
        if (o->threads[i] > 1) return usage_error("--threads %d: this build has no OpenMP (one thread only)", o->threads[i]);
#endif
    if (o->nhostmem) { /* host memory is a C2C matter: it implies C2C, and needs it */
        int c2c = 0;
        for (int k = 0; k < o->nconfig; k++) c2c |= o->config[k] == CFG_C2C;
        if (!o->nconfig) o->config[o->nconfig++] = CFG_C2C;
        else if (!c2c) return usage_error("--host-memory is for --config C2C (host buffers on cuda)");
    }
    if (!o->nhostmem) o->hostmem[o->nhostmem++] = HM_PINNED;
    if (!o->nbackend) o->backend[o->nbackend++] = LW_BACKEND_AUTO;
    int from_auto = 0; /* a backend the machine chose: its scheme errors are runtime errors */
    for (int i = 0; i < o->nbackend; i++) {
        if (o->backend[i] != LW_BACKEND_AUTO) continue;
        from_auto = 1;
        if (o->nconfig) { /* the configs asked for decide */
            int gpu = 0;
            for (int k = 0; k < o->nconfig; k++) gpu |= o->config[k] != CFG_HOST;
            o->backend[i] = gpu ? LW_BACKEND_CUDA : LW_BACKEND_CPU;
        } else {
            o->backend[i] = lw_backend_available(LW_BACKEND_CUDA) ? LW_BACKEND_CUDA : LW_BACKEND_CPU;
        }
    }
    /* pairs: each backend with each listed config it can run (or its natural one) */
    int used_cfg[3] = {0, 0, 0};
    o->npair = 0;
    for (int i = 0; i < o->nbackend; i++) {
        int gpu = o->backend[i] == LW_BACKEND_CUDA, found = 0;
        for (int j = 0; j < i; j++)
            if (o->backend[j] == o->backend[i]) found = -1; /* duplicate backend */
        if (found < 0) continue;
        if (!o->nconfig) {
            o->pair_backend[o->npair] = o->backend[i];
            o->pair_hostmem[o->npair] = HM_NONE;
            o->pair_config[o->npair++] = gpu ? CFG_G2G : CFG_HOST;
            continue;
        }
        for (int k = 0; k < o->nconfig; k++) {
            int dup = 0;
            for (int j = 0; j < k; j++) dup |= o->config[j] == o->config[k];
            if (dup || (o->config[k] != CFG_HOST) != gpu) continue;
            for (int h = 0; h < (o->config[k] == CFG_C2C ? o->nhostmem : 1); h++) {
                int hdup = 0;
                for (int j = 0; j < h; j++) hdup |= o->hostmem[j] == o->hostmem[h];
                if (hdup) continue;
                o->pair_backend[o->npair] = o->backend[i];
                o->pair_hostmem[o->npair] = o->config[k] == CFG_C2C ? o->hostmem[h] : HM_NONE;
                o->pair_config[o->npair++] = o->config[k];
            }
            used_cfg[o->config[k]] = found = 1;
        }
        if (!found)
            return usage_error("backend %s runs none of the configs asked for (host is for cpu and cpu-ref, "
                               "G2G and C2C for cuda)", lw_backend_name(o->backend[i]));
    }
    for (int k = 0; k < o->nconfig; k++)
        if (!used_cfg[o->config[k]])
            return usage_error("config %s needs %s", config_names[o->config[k]],
                               o->config[k] == CFG_HOST ? "a cpu backend" : "the cuda backend");
    for (int p = 0; p < o->npair && o->scheme_all; p++)
        if (o->pair_config[p] == CFG_HOST && from_auto) {
            lw_bench_errline("--scheme all runs the GPU schemes of the papers on cuda, and there is no CUDA device");
            return 1;
        } else if (o->pair_config[p] == CFG_HOST)
            return usage_error("--scheme all runs the GPU schemes of the papers: it needs --backend cuda, not %s",
                               lw_backend_name(o->pair_backend[p]));
    if (o->scheme_all) { /* the default engine first, then every registered scheme */
        int ns = lw_scheme_count();
        strcpy(o->scheme[0], "auto");
        o->nscheme = 1;
        for (int i = 0; i < ns && o->nscheme < LW_BENCH_MAX_SCHEMES; i++) {
            const char *nm = lw_scheme_name(i);
            if (nm && strlen(nm) < sizeof o->scheme[0]) strcpy(o->scheme[o->nscheme++], nm);
        }
        o->table = 1;
    }
    for (int s = 0; s < o->nscheme; s++)
        if (!lw_cli_scheme_where(o->scheme[s]))
            return usage_error("unknown scheme '%s' ('--scheme list' lists them)", o->scheme[s]);
    for (int p = 0; p < o->npair; p++) {
        unsigned on = o->pair_config[p] == CFG_HOST ? LW_CLI_ON_CPU : LW_CLI_ON_CUDA;
        for (int s = 0; s < o->nscheme; s++)
            if (!(lw_cli_scheme_where(o->scheme[s]) & on)) {
                const char *only = on == LW_CLI_ON_CPU ? "cuda" : "cpu";
                if (!from_auto || on == LW_CLI_ON_CUDA)
                    return usage_error("scheme '%s' exists only on the %s backend", o->scheme[s], only);
                lw_bench_errline("scheme '%s' exists only on the %s backend, and there is no CUDA device", o->scheme[s],
                                 only);
                return 1;
            }
    }
    return 0;
}

static int parse_args(int argc, char **argv, bench_opts *o, int *help)
{
    memset(o, 0, sizeof *o);
    *help = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            *help = 1;
            return 0;
        }
        if (!strcmp(a, "--json")) { o->json = 1; continue; }
        if (!strcmp(a, "--integer")) { o->integer = 1; continue; }
        if (!strcmp(a, "--destroy-input")) { o->destroy_input = 1; continue; }
        if (!strcmp(a, "--inplace")) { o->nplace = 1, o->place[0] = 1; continue; }
        if (!strcmp(a, "--table")) { o->table = 1; continue; }
        /* the short forms of forward/inverse */
        static const char *const shorts[][2] = {{"-w", "--wavelet"}, {"-l", "--levels"}, {"-m", "--mode"},
                                                {"-b", "--backend"}};
        for (size_t k = 0; k < sizeof shorts / sizeof *shorts; k++)
            if (!strcmp(a, shorts[k][0])) a = shorts[k][1];
        char name[32];
        const char *val = NULL, *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name) return usage_error("unknown option '%s'", a);
        memcpy(name, a, len);
        name[len] = '\0';
        int known = 0;
        for (size_t k = 0; k < sizeof value_opts / sizeof *value_opts; k++) known |= !strcmp(name, value_opts[k]);
        if (!known) {
            if (a[0] == '-') return usage_error("unknown option '%s'", a);
            return usage_error("unexpected argument '%s'", a);
        }
        if (eq) val = eq + 1;
        else if (i + 1 < argc) val = argv[++i];
        else return usage_error("option %s needs a value", name);
        int rc = parse_value(o, name, val);
        if (rc) return rc;
    }
    if (o->scheme_list) return 0;
    return resolve_opts(o);
}

/* ---- combinations ------------------------------------------------------- */

static long combo_count(const bench_opts *o)
{
    long n = 1;
    const int f[] = {o->nshape, o->ndtype, o->nwavelet, o->nlevels, o->nmode, o->nlayout, o->ndir, o->npair, o->nscheme,
                     o->nthreads, o->nplace};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        n *= f[i];
        if (n > MAX_COMBOS) return -1;
    }
    return n;
}

static void combo_at(const bench_opts *o, long idx, combo *c)
{
    int i;
    /* innermost first: the placements of a combination next to each other,
     * then everything that shares the data and its reference */
    i = (int)(idx % o->nplace), idx /= o->nplace, c->inplace = o->place[i];
    i = (int)(idx % o->nthreads), idx /= o->nthreads, c->threads = o->threads[i];
    i = (int)(idx % o->nscheme), idx /= o->nscheme, c->scheme = o->scheme[i];
    i = (int)(idx % o->npair), idx /= o->npair, c->backend = o->pair_backend[i], c->config = o->pair_config[i],
    c->host_memory = o->pair_hostmem[i];
    i = (int)(idx % o->ndir), idx /= o->ndir, c->dir = o->dir[i];
    i = (int)(idx % o->nlayout), idx /= o->nlayout, c->layout = o->layout[i];
    i = (int)(idx % o->nmode), idx /= o->nmode, c->mode = o->mode[i];
    i = (int)(idx % o->nlevels), idx /= o->nlevels, c->levels = o->levels[i];
    i = (int)(idx % o->nwavelet), idx /= o->nwavelet, c->wavelet = o->wavelet[i];
    i = (int)(idx % o->ndtype), idx /= o->ndtype, c->dtype = o->dtype[i];
    c->destroy_input = o->destroy_input;
    c->naxes = o->naxes; /* 0: every axis */
    memset(c->axes, 0, sizeof c->axes);
    memcpy(c->axes, o->axes, sizeof o->axes);
    c->tuning = o->tuning[0] ? o->tuning : lw_cli_env_tuning();
    c->device_memory_limit = o->device_memory_limit;
    i = (int)(idx % o->nshape), c->rank = o->rank[i];
    memcpy(c->shape, o->shape[i], sizeof c->shape);
}

/* ---- skipped combinations ------------------------------------------------ */

/* Combinations a GPU scheme does not take are skipped with one line per
 * group of them that differ only in shape. */
typedef struct skip_group {
    combo c;          /* the first of the group */
    int n;            /* combinations skipped */
    char shapes[100]; /* their shapes, the first few */
    char why[320];    /* the library's message for the first */
} skip_group;

static int same_but_shape(const combo *a, const combo *b)
{
    return !strcmp(a->scheme, b->scheme) && a->wavelet == b->wavelet && a->dtype == b->dtype && a->mode == b->mode &&
           a->layout == b->layout && a->dir == b->dir && a->levels == b->levels && a->backend == b->backend &&
           a->config == b->config && a->host_memory == b->host_memory && a->threads == b->threads &&
           a->inplace == b->inplace;
}

/* Count c in its group (a new one with the current error message if none). */
static int note_skip(skip_group **g, int *ng, const combo *c, lw_status s)
{
    int k = 0;
    while (k < *ng && !same_but_shape(&(*g)[k].c, c)) k++;
    if (k == *ng) {
        skip_group *m = realloc(*g, (size_t)(*ng + 1) * sizeof **g);
        if (!m) return 1;
        *g = m;
        memset(&m[k], 0, sizeof m[k]);
        m[k].c = *c;
        snprintf(m[k].why, sizeof m[k].why, "%s", *lw_last_error() ? lw_last_error() : lw_status_string(s));
        (*ng)++;
    }
    skip_group *e = &(*g)[k];
    char shp[64];
    lw_bench_shape_text(c, shp, sizeof shp);
    size_t len = strlen(e->shapes);
    if (len + strlen(shp) + 6 < sizeof e->shapes)
        snprintf(e->shapes + len, sizeof e->shapes - len, "%s%s", len ? " " : "", shp);
    else if (!strstr(e->shapes, " ..."))
        strcat(e->shapes, " ...");
    e->n++;
    return 0;
}

static void print_skips(const skip_group *g, int ng)
{
    for (int k = 0; k < ng; k++) {
        char desc[256];
        lw_bench_combo_text(&g[k].c, 0, desc, sizeof desc);
        lw_bench_errline("%s, scheme %s: skipped %d shape%s (%s): %s", desc, g[k].c.scheme, g[k].n,
                         g[k].n == 1 ? "" : "s", g[k].shapes, g[k].why);
    }
}

/* ---- in place against out of place (--inplace=both) ----------------------- */

/* The ratio of each combination's in-place and out-of-place times; the two
 * records are paired by the combination's text without its placement. */
static int inplace_ratios(FILE *f, const record *recs, int n)
{
    cell_result *res = calloc((size_t)(n > 0 ? n : 1), sizeof *res);
    if (!res) {
        lw_bench_errline("out of memory");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        const record *r = &recs[i];
        combo c = r->c;
        c.inplace = 0;
        lw_bench_combo_text(&c, 1, res[i].cell, sizeof res[i].cell);
        res[i].inplace = r->c.inplace;
        res[i].median_s = r->median_s, res[i].frac = r->frac, res[i].verified = r->verified;
        res[i].extra_bytes = (double)r->extra_device_bytes;
        res[i].array_bytes = c.config == CFG_HOST ? 0 : (double)lw_dtype_size(c.dtype);
        for (int a = 0; a < c.rank; a++) res[i].array_bytes *= (double)c.shape[a];
    }
    lw_bench_inplace_summary(f, res, n);
    free(res);
    return 0;
}

/* ---- entry -------------------------------------------------------------- */

int lw_cli_bench(int argc, char **argv)
{
    if (lw_bench_is_matrix(argc, argv)) return lw_bench_matrix(argc, argv);
    bench_opts *o = calloc(1, sizeof *o);
    if (!o) {
        lw_bench_errline("out of memory");
        return 1;
    }
    int help = 0, rc = parse_args(argc, argv, o, &help);
    if (rc || help || o->scheme_list) {
        if (help) print_help();
        else if (!rc) rc = lw_bench_scheme_list(o->wavelet, o->nwavelet);
        free(o);
        return rc;
    }
    rc = lw_cli_check_env_tuning();
    for (int i = 0; i < o->nthreads && !rc; i++)
        if (o->threads[i] > 0) rc = lw_cli_check_threads("--threads", o->threads[i]);
    if (rc) {
        free(o);
        return rc;
    }
    long count = combo_count(o);
    if (count < 0) {
        free(o);
        return usage_error("more than %d combinations asked for", MAX_COMBOS);
    }
    int need_cuda = 0;
    for (int p = 0; p < o->npair; p++) need_cuda |= o->pair_config[p] != CFG_HOST;
    if (need_cuda && !lw_backend_available(LW_BACKEND_CUDA)) {
        free(o);
        lw_bench_errline("the cuda backend is not available (built without CUDA, or no CUDA device)");
        return 1;
    }
    /* Validate every combination (plan on its backend) before timing anything;
     * what a GPU scheme does not support is skipped with one line (an error
     * when it is the only combination asked for). */
    unsigned char *skip = calloc((size_t)count, 1);
    record *recs = calloc((size_t)count, sizeof *recs);
    skip_group *groups = NULL;
    int ngroups = 0;
    if (!skip || !recs) {
        free(skip), free(recs), free(o);
        lw_bench_errline("out of memory");
        return 1;
    }
    for (long i = 0; i < count && !rc; i++) {
        combo c;
        combo_at(o, i, &c);
        lw_config cfg;
        lw_bench_make_config(&c, o->integer, c.backend, c.scheme, &cfg);
        if (c.config == CFG_G2G) cfg.flags |= LW_FLAG_DEVICE_POINTERS;
        lw_plan *p = NULL;
        lw_status s = lw_plan_create(&p, &cfg);
        if (s == LW_ERR_UNSUPPORTED && count > 1 && strcmp(c.scheme, "auto")) {
            skip[i] = 1;
            if (note_skip(&groups, &ngroups, &c, s)) {
                lw_bench_errline("out of memory");
                rc = 1;
            }
        } else if (s != LW_OK) {
            rc = lw_bench_lw_error(&c, "plan", s);
        }
        lw_destroy(p);
    }
    if (!rc) print_skips(groups, ngroups);
    free(groups);
    int header = 0, mismatch = 0, nrec = 0;
    char last_device[128] = "";
    for (long i = 0; i < count && !rc; i++) {
        combo c;
        record *r = &recs[nrec];
        if (skip[i]) continue;
        combo_at(o, i, &c);
        rc = lw_bench_run_one(&c, o->integer, o->repeat, r);
        if (rc) break;
        nrec++;
        mismatch |= r->checked && !r->verified;
        char date[32];
        lw_bench_iso_date(date, sizeof date);
        if (o->json) lw_bench_print_json(stdout, r, date, NULL);
        else lw_bench_print_row(r, &header, last_device, sizeof last_device);
        fflush(stdout);
    }
    lw_bench_cache_release();
    if (!rc && o->table && nrec) lw_bench_table(o->json ? stderr : stdout, recs, nrec);
    if (!rc && o->nplace == 2) rc = inplace_ratios(o->json ? stderr : stdout, recs, nrec);
    free(skip);
    free(recs);
    free(o);
    if (!rc && mismatch) rc = 1;
    return rc;
}
