/* `liftwave bench --backend cuda --matrix`: every cell of issue 16's table of
 * targets in one command, one verified record per cell (the bench's usual
 * keys plus the cell, its target and whether it meets it), then the floor
 * (smallest fraction of the bound), the median of the fractions and the
 * cells that miss (cli_bench_summary.c).
 *
 *   --matrix-only P[,P...]  the cells whose name matches (glob with * ? [..],
 *                           else a substring)
 *   --dry-run               list the cells and what each runs; no device
 *   --repeat N              timed runs of every cell (default: the table's)
 *   --json                  records as JSON lines (the summary on stderr)
 *   --tune T                the plans' tuning, as for the bench
 *   --inplace               every cell out of place, then in place (the same
 *                           cell name, "inplace": true); the summary adds
 *                           their ratios
 *   --matrix-summary FILE   the summary of the records of an earlier run
 *
 * The cells are a table (`groups` below): each group is one row of the
 * issue's table, expanded over its wavelets, both directions and its host
 * memory kinds. */
#define _POSIX_C_SOURCE 200809L

#include "cli_bench_int.h"
#include "cli_env.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif

#define MAX_CELLS 256

/* wavelet sets of a group: every wavelet with a float transform (from the
 * library's registry), that without haar, or one named wavelet */
#define WSET_ALL "all"
#define WSET_ALL_BUT_HAAR "all-but-haar"

typedef struct variant {
    int host_memory; /* HM_NONE: G2G (device buffers); HM_PINNED / HM_PAGEABLE: C2C */
    double target;   /* fraction of the bound (>=), or seconds (<=) for TGT_LATENCY */
} variant;

typedef struct group {
    const char *id;    /* the cells' name prefix */
    const char *about; /* the row of the table */
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes; /* 0: every axis */
    int axes[3];
    int levels; /* LW_LEVELS_MAX: the most the shape allows */
    const char *wavelets;
    int kind; /* TGT_* */
    int repeat;
    int nvar;
    variant var[2];
} group;

/* Issue 16's targets (H100, float32, symmetric mode, forward and inverse).
 * 2-D haar 1 level is a group of its own, under the same name (its target,
 * 0.97, replaces the 0.85 of the other wavelets there).  fs (non-separable) is in every device-memory
 * group: its engine takes every rank and batch.  Host memory is a PCIe
 * matter (the transfers take ~40x the kernel's time on 16384^2): cdf97
 * only, the wavelet of the measurements.  Repeats: device cells 20
 * runs (a 1 GiB array takes about 1 ms a run; the host-side data and the
 * reference dominate a cell's time), host memory 5 (each run moves 2 GiB
 * over PCIe and poisons a 1 GiB output on the host), latency 200. */
static const group groups[] = {
    {"2d-l1", "2-D haar 1 level 16384^2", 2, {16384, 16384, 0}, 0, {0}, 1, "haar", TGT_FRACTION, 20, 1,
     {{HM_NONE, 0.97}}},
    {"2d-l1", "2-D 16384^2, 1 level", 2, {16384, 16384, 0}, 0, {0}, 1, WSET_ALL_BUT_HAAR, TGT_FRACTION, 20, 1,
     {{HM_NONE, 0.85}}},
    {"2d-max", "2-D 16384^2, max levels", 2, {16384, 16384, 0}, 0, {0}, LW_LEVELS_MAX, WSET_ALL, TGT_FRACTION, 20, 1,
     {{HM_NONE, 0.75}}},
    {"batch-l1", "batch 192x512x512 (axes 1,2), 1 level", 3, {192, 512, 512}, 2, {1, 2}, 1, WSET_ALL, TGT_FRACTION,
     20, 1, {{HM_NONE, 0.75}}},
    {"batch-l3", "batch 192x512x512 (axes 1,2), 3 levels", 3, {192, 512, 512}, 2, {1, 2}, 3, WSET_ALL, TGT_FRACTION,
     20, 1, {{HM_NONE, 0.75}}},
    {"3d-l1", "3-D 512^3, 1 level", 3, {512, 512, 512}, 0, {0}, 1, WSET_ALL, TGT_FRACTION, 20, 1, {{HM_NONE, 0.75}}},
    {"3d-max", "3-D 512^3, max levels", 3, {512, 512, 512}, 0, {0}, LW_LEVELS_MAX, WSET_ALL, TGT_FRACTION, 20, 1,
     {{HM_NONE, 0.65}}},
    {"video-l3", "video 64x1080x1920 d4, 3 levels (3-D)", 3, {64, 1080, 1920}, 0, {0}, 3, "d4", TGT_FRACTION, 20, 1,
     {{HM_NONE, 0.65}}},
    {"host-2d-l1", "host memory, 2-D 16384^2 1 level: pinned / pageable", 2, {16384, 16384, 0}, 0, {0}, 1, "cdf97",
     TGT_FRACTION, 5, 2, {{HM_PINNED, 0.90}, {HM_PAGEABLE, 0.80}}},
    {"host-2d-l5", "host memory, 2-D 16384^2 5 levels: pinned / pageable", 2, {16384, 16384, 0}, 0, {0}, 5, "cdf97",
     TGT_FRACTION, 5, 2, {{HM_PINNED, 0.90}, {HM_PAGEABLE, 0.80}}},
    {"host-3d-l1", "host memory, 3-D 512^3 1 level: pinned / pageable", 3, {512, 512, 512}, 0, {0}, 1, "cdf97",
     TGT_FRACTION, 5, 2, {{HM_PINNED, 0.90}, {HM_PAGEABLE, 0.80}}},
    {"latency-2d-l1", "2-D cdf97 1 level 1920x1080 (1080 rows of 1920), latency", 2, {1080, 1920, 0}, 0, {0}, 1,
     "cdf97", TGT_LATENCY, 200, 1, {{HM_NONE, 12e-6}}},
};
#define NGROUPS ((int)(sizeof groups / sizeof groups[0]))

typedef struct cell {
    const group *g;
    lw_wavelet wavelet;
    lw_direction dir;
    int var;
    char name[64];
} cell;

typedef struct matrix_opts {
    int matrix, dry_run, json, repeat, summary;
    int nplace; /* 1: out of place; 2: out of place, then in place (--inplace) */
    lw_backend backend; /* cuda; cpu runs the device-memory cells on the host (tests, comparisons) */
    char only[512];   /* --matrix-only, "" for every cell */
    char tuning[768]; /* --tune */
    const char *summary_file;
} matrix_opts;

static int usage_error(const char *msg, const char *arg)
{
    lw_bench_errline("%s%s%s (see 'liftwave bench --help')", msg, arg ? " " : "", arg ? arg : "");
    return 2;
}

int lw_bench_is_matrix(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--matrix") || !strncmp(argv[i], "--matrix-", 9) || !strcmp(argv[i], "--dry-run"))
            return 1;
    return 0;
}

/* ---- cells ---------------------------------------------------------------- */

static int in_set(const char *set, lw_wavelet w)
{
    if (!(lw_wavelet_properties(w) & LW_WAVELET_FLOAT)) return 0;
    if (!strcmp(set, WSET_ALL)) return 1;
    if (!strcmp(set, WSET_ALL_BUT_HAAR)) return w != LW_HAAR;
    lw_wavelet one;
    return lw_wavelet_parse(set, &one) == LW_OK && one == w;
}

static int name_matches(const char *name, const char *patterns)
{
    if (!*patterns) return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", patterns);
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int glob = strpbrk(p, "*?[") != NULL;
        if (glob ? fnmatch(p, name, 0) == 0 : strstr(name, p) != NULL) return 1;
    }
    return 0;
}

/* Every cell, in the order they run: group, wavelet, direction, host memory
 * (innermost: pinned and pageable share their data and reference). */
static int expand(const matrix_opts *o, cell *cells)
{
    int n = 0;
    for (int gi = 0; gi < NGROUPS; gi++) {
        const group *g = &groups[gi];
        for (int w = 0; w < LW_WAVELET_COUNT; w++) {
            if (!in_set(g->wavelets, (lw_wavelet)w)) continue;
            for (int d = 0; d < 2; d++)
                for (int v = 0; v < g->nvar && n < MAX_CELLS; v++) {
                    if (o->backend != LW_BACKEND_CUDA && g->var[v].host_memory != HM_NONE) continue;
                    cell *c = &cells[n];
                    c->g = g, c->wavelet = (lw_wavelet)w, c->dir = d ? LW_INVERSE : LW_FORWARD, c->var = v;
                    snprintf(c->name, sizeof c->name, "%s-%s-%s%s%s", g->id, lw_wavelet_name(c->wavelet),
                             d ? "inv" : "fwd", g->var[v].host_memory ? "-" : "",
                             g->var[v].host_memory ? lw_bench_host_memory_names[g->var[v].host_memory] : "");
                    if (name_matches(c->name, o->only)) n++;
                }
        }
    }
    return n;
}

static void cell_combo(const cell *c, const matrix_opts *o, combo *k)
{
    const group *g = c->g;
    memset(k, 0, sizeof *k);
    k->rank = g->rank;
    memcpy(k->shape, g->shape, sizeof k->shape);
    k->naxes = g->naxes;
    memcpy(k->axes, g->axes, sizeof k->axes);
    k->dtype = LW_FLOAT32;
    k->wavelet = c->wavelet;
    k->levels = g->levels;
    k->mode = LW_SYMMETRIC;
    k->dir = c->dir;
    k->backend = o->backend;
    k->host_memory = g->var[c->var].host_memory;
    k->config = o->backend != LW_BACKEND_CUDA ? CFG_HOST : k->host_memory == HM_NONE ? CFG_G2G : CFG_C2C;
    k->scheme = "auto";
    k->tuning = o->tuning[0] ? o->tuning : lw_cli_env_tuning();
}

static int cell_repeat(const cell *c, const matrix_opts *o) { return o->repeat ? o->repeat : c->g->repeat; }

static void levels_text(const group *g, char *buf, size_t len)
{
    if (g->levels == LW_LEVELS_MAX) {
        int l = 0;
        lw_max_levels(g->rank, g->shape, g->naxes, g->axes, &l);
        snprintf(buf, len, "max=%d", l);
    } else {
        snprintf(buf, len, "%d", g->levels);
    }
}

static void target_text(const cell *c, char *buf, size_t len)
{
    double t = c->g->var[c->var].target;
    if (c->g->kind == TGT_LATENCY) snprintf(buf, len, "<= %.0f us", t * 1e6);
    else snprintf(buf, len, ">= %.2f", t);
}

/* ---- dry run -------------------------------------------------------------- */

static void dry_run(const cell *cells, int n, const matrix_opts *o)
{
    double bytes_total = 0;
    if (!o->json)
        printf("%-34s %-15s %-7s %-6s %-8s %-3s %-12s %-5s %6s %-10s  %s\n", "cell", "shape", "axes", "levels",
               "wavelet", "dir", "config", "place", "repeat", "target", "case");
    for (int ip = 0; ip < n * o->nplace; ip++) {
        const cell *c = &cells[ip / o->nplace];
        combo k;
        cell_combo(c, o, &k);
        k.inplace = ip % o->nplace;
        char shp[64], ax[32], lv[16], tg[32];
        lw_bench_shape_text(&k, shp, sizeof shp);
        if (o->json)
            for (int a = 0, len = 0; a < k.rank; a++)
                len += snprintf(shp + len, sizeof shp - (size_t)len, "%s%lld", a ? ", " : "", (long long)k.shape[a]);
        lw_bench_axes_text(&k, ax, sizeof ax);
        levels_text(c->g, lv, sizeof lv);
        target_text(c, tg, sizeof tg);
        double b = 4.0;
        for (int a = 0; a < k.rank; a++) b *= (double)k.shape[a];
        bytes_total += b;
        const char *cfg = k.host_memory == HM_NONE ? lw_bench_config_names[k.config]
                          : k.host_memory == HM_PINNED ? "C2C/pinned" : "C2C/pageable";
        if (o->json) {
            printf("{\"cell\": \"%s\", \"case\": ", c->name);
            lw_bench_json_string(stdout, c->g->about);
            printf(", \"shape\": [%s], \"axes\": [%s], \"levels\": \"%s\", \"wavelet\": \"%s\", \"direction\": \"%s\", "
                   "\"config\": \"%s\", \"host_memory\": \"%s\", \"inplace\": %s, \"repeat\": %d, "
                   "\"target_kind\": \"%s\", \"target\": %g}\n",
                   shp, ax, lv, lw_wavelet_name(c->wavelet), lw_bench_dir_names[c->dir],
                   lw_bench_config_names[k.config], lw_bench_host_memory_names[k.host_memory],
                   k.inplace ? "true" : "false", cell_repeat(c, o),
                   lw_bench_target_kinds[c->g->kind], c->g->var[c->var].target);
            continue;
        }
        printf("%-34s %-15s %-7s %-6s %-8s %-3s %-12s %-5s %6d %-10s  %s\n", c->name, shp, ax, lv,
               lw_wavelet_name(c->wavelet), lw_bench_dir_short[c->dir], cfg, k.inplace ? "in" : "out",
               cell_repeat(c, o), tg, c->g->about);
    }
    if (o->json) return; /* the records only */
    printf("# %d cells%s, %.1f GiB of float32 arrays in all; nothing run (--dry-run)\n", n,
           o->nplace == 2 ? ", each out of place and in place" : "", bytes_total / (1024.0 * 1024.0 * 1024.0));
}

/* ---- a run ---------------------------------------------------------------- */

/* The keys a matrix record adds to the bench's usual ones. */
static char *extra_keys(const cell *c, const combo *k, const record *r, const char *command, int meets, int repeat)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    double one_pass = 2.0 * 4.0;
    for (int a = 0; a < k->rank; a++) one_pass *= (double)k->shape[a];
    if (k->config == CFG_HOST) /* the keys the cuda records have already */
        fprintf(f, ", \"extra_device_bytes\": 0, \"host_memory\": \"none\"");
    fprintf(f, ", \"cell\": \"%s\", \"case\": ", c->name);
    lw_bench_json_string(f, c->g->about);
    fprintf(f, ", \"target_kind\": \"%s\", \"target\": %g, \"meets\": %s, \"floor_bytes\": %.17g, "
               "\"bytes_counted\": ",
            lw_bench_target_kinds[c->g->kind], c->g->var[c->var].target, meets ? "true" : "false", r->floor_bytes);
    char bc[256];
    if (k->config == CFG_HOST)
        snprintf(bc, sizeof bc, "2 x 4 B x the samples each level transforms, summed over %d level%s: "
                 "%.6f x one pass; bound: memcpy", r->levels, r->levels == 1 ? "" : "s", r->floor_bytes / one_pass);
    else if (k->config == CFG_C2C)
        snprintf(bc, sizeof bc, "pcie: the array up and down once, 2 x 4 B x the samples, whatever the levels");
    else
        snprintf(bc, sizeof bc, "2 x 4 B x the samples each level transforms, summed over %d level%s: "
                 "%.6f x one pass (pyramids: 4/3 in 2-D, 8/7 in 3-D at most)", r->levels, r->levels == 1 ? "" : "s", r->floor_bytes / one_pass);
    lw_bench_json_string(f, bc);
    fprintf(f, ", \"repeat\": %d, \"command\": ", repeat);
    lw_bench_json_string(f, command);
    fclose(f);
    return buf;
}

static void print_text_row(const cell *c, const record *r, int meets, int *header)
{
    if (!*header) {
        printf("# liftwave %s bench --matrix, commit %s, device %s\n", lw_version(), LW_GIT_COMMIT, r->device);
        printf("%-34s %-5s %4s %11s %8s %-11s %6s %-10s %-5s %s\n", "cell", "place", "lev", "median_ms", "eff_GB/s",
               "bound", "frac", "target", "meets", "verified");
        *header = 1;
    }
    char tg[32];
    target_text(c, tg, sizeof tg);
    printf("%-34s %-5s %4d %11.4f %8.1f %-11s %6.3f %-10s %-5s %s\n", c->name, r->c.inplace ? "in" : "out", r->levels,
           r->median_s * 1e3, r->eff_gbps, r->bound, r->frac, tg, meets ? "yes" : "NO",
           r->verified ? "yes" : r->checked ? "NO" : "skipped");
}

static void print_failed(const cell *c, int inplace, const char *date, const char *command, int json)
{
    if (!json) {
        printf("%-34s %-5s failed (the message is above)\n", c->name, inplace ? "in" : "out");
        return;
    }
    printf("{\"cell\": \"%s\", \"case\": ", c->name);
    lw_bench_json_string(stdout, c->g->about);
    printf(", \"inplace\": %s, \"target_kind\": \"%s\", \"target\": %g, \"meets\": false, \"verified\": false, "
           "\"error\": \"the run failed (stderr has the message)\", \"commit\": ",
           inplace ? "true" : "false", lw_bench_target_kinds[c->g->kind], c->g->var[c->var].target);
    lw_bench_json_string(stdout, LW_GIT_COMMIT);
    printf(", \"date\": \"%s\", \"command\": ", date);
    lw_bench_json_string(stdout, command);
    printf("}\n");
}

static char *joined_command(int argc, char **argv)
{
    size_t len = strlen("liftwave") + 1;
    for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s) return NULL;
    strcpy(s, "liftwave");
    for (int i = 0; i < argc; i++) strcat(strcat(s, " "), argv[i]);
    return s;
}

/* v as a record writes it (6 significant digits): the run's own summary is
 * then the summary `--matrix-summary` prints from its records. */
static double as_written(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

static int run_cells(const cell *cells, int n, const matrix_opts *o, const char *command)
{
    int nres = n * o->nplace;
    cell_result *res = calloc((size_t)nres, sizeof *res);
    if (!res) {
        lw_bench_errline("out of memory");
        return 1;
    }
    int header = 0, status = 0;
    for (int i = 0; i < nres; i++) { /* each cell's placements in a row: they share its data */
        const cell *c = &cells[i / o->nplace];
        combo k;
        cell_combo(c, o, &k);
        k.inplace = i % o->nplace;
        record r;
        char date[32];
        int rc = lw_bench_run_one(&k, 0, cell_repeat(c, o), &r);
        lw_bench_iso_date(date, sizeof date);
        cell_result *cr = &res[i];
        snprintf(cr->cell, sizeof cr->cell, "%s", c->name);
        cr->kind = c->g->kind;
        cr->target = c->g->var[c->var].target;
        cr->inplace = k.inplace;
        if (rc) {
            cr->failed = 1, status = 1;
            print_failed(c, k.inplace, date, command, o->json);
        } else {
            cr->frac = as_written(r.frac), cr->median_s = as_written(r.median_s), cr->verified = r.verified;
            cr->extra_bytes = (double)r.extra_device_bytes;
            cr->array_bytes = k.config == CFG_HOST ? 0 : 4.0; /* float32; host: no device memory */
            for (int a = 0; a < k.rank; a++) cr->array_bytes *= (double)k.shape[a];
            if (r.checked && !r.verified) status = 1;
            int meets = lw_bench_cell_meets(cr);
            if (o->json) {
                char *extra = extra_keys(c, &k, &r, command, meets, cell_repeat(c, o));
                lw_bench_print_json(stdout, &r, date, extra ? extra : "");
                free(extra);
            } else {
                print_text_row(c, &r, meets, &header);
            }
        }
        fflush(stdout);
    }
    lw_bench_cache_release();
    lw_bench_matrix_summary(o->json ? stderr : stdout, res, nres);
    free(res);
    return status;
}

/* ---- options -------------------------------------------------------------- */

static int parse(int argc, char **argv, matrix_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = LW_BACKEND_CUDA;
    o->nplace = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '='), *val = NULL;
        char name[32];
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name) return usage_error("--matrix: unknown option", a);
        memcpy(name, a, len);
        name[len] = '\0';
        int takes = !strcmp(name, "--matrix-only") || !strcmp(name, "--repeat") || !strcmp(name, "--tune") ||
                    !strcmp(name, "--backend") || !strcmp(name, "-b") || !strcmp(name, "--matrix-summary");
        if (takes) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else {
                lw_bench_errline("option %s needs a value (see 'liftwave bench --help')", name);
                return 2;
            }
        } else if (eq) {
            return usage_error("--matrix: unknown option", a);
        }
        if (!strcmp(name, "--matrix")) {
            o->matrix = 1;
            continue;
        }
        if (!strcmp(name, "--dry-run")) o->dry_run = 1;
        else if (!strcmp(name, "--inplace")) o->nplace = 2;
        else if (!strcmp(name, "--json")) o->json = 1;
        else if (!strcmp(name, "--matrix-summary")) o->summary = 1, o->summary_file = val;
        else if (!strcmp(name, "--matrix-only")) {
            if (!*val || strlen(val) >= sizeof o->only) return usage_error("--matrix-only needs a pattern, not", *val ? "a longer one" : "''");
            snprintf(o->only, sizeof o->only, "%s", val);
        } else if (!strcmp(name, "--repeat")) {
            char *end;
            long v = strtol(val, &end, 10);
            if (*end || end == val || v < 1 || v > 100000) return usage_error("--repeat must be 1..100000, not", val);
            o->repeat = (int)v;
        } else if (!strcmp(name, "--tune")) {
            const char *env = lw_cli_env_tuning(); /* the environment's first: --tune overrides it */
            if (snprintf(o->tuning, sizeof o->tuning, "%s%s%s", env ? env : "", env ? "," : "", val) >=
                (int)sizeof o->tuning)
                return usage_error("--tune: value too long", NULL);
        } else if (!strcmp(name, "--backend") || !strcmp(name, "-b")) {
            if (lw_backend_parse(val, &o->backend) != LW_OK || (o->backend != LW_BACKEND_CUDA && o->backend != LW_BACKEND_CPU))
                return usage_error("--matrix runs on the cuda backend (cpu: its device-memory cells on the host), not", val);
        } else if (a[0] == '-') {
            lw_bench_errline("--matrix runs its own cases: %s is not taken with it (--matrix-only selects cells; "
                             "see 'liftwave bench --help')", name);
            return 2;
        } else {
            return usage_error("unexpected argument", a);
        }
    }
    if (!o->matrix && !o->summary)
        return usage_error("--dry-run and --matrix-only go with --matrix", NULL);
    if (o->summary && o->matrix) return usage_error("--matrix-summary FILE reads records: it does not run --matrix", NULL);
    if (o->summary && (o->dry_run || o->only[0] || o->repeat || o->tuning[0] || o->nplace == 2))
        return usage_error("--matrix-summary FILE reads records: it takes no other matrix option", NULL);
    return 0;
}

int lw_bench_matrix(int argc, char **argv)
{
    matrix_opts o;
    int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (o.summary) return lw_bench_matrix_summary_file(o.summary_file);
    cell *cells = calloc(MAX_CELLS, sizeof *cells);
    if (!cells) {
        lw_bench_errline("out of memory");
        return 1;
    }
    int n = expand(&o, cells);
    if (n == 0) {
        free(cells);
        lw_bench_errline("--matrix-only '%s' matches no cell ('liftwave bench --matrix --dry-run' lists them; "
                         "see 'liftwave bench --help')", o.only);
        return 2;
    }
    if (o.dry_run) {
        dry_run(cells, n, &o);
        free(cells);
        return 0;
    }
    rc = lw_cli_check_env_tuning();
    if (!rc && !lw_backend_available(o.backend)) {
        lw_bench_errline("--matrix needs the cuda backend, and it is not available (built without CUDA, or no CUDA "
                         "device); --dry-run lists the cells without one");
        rc = 1;
    }
    char *command = rc ? NULL : joined_command(argc, argv);
    if (!rc && !command) lw_bench_errline("out of memory"), rc = 1;
    if (!rc) rc = run_cells(cells, n, &o, command);
    free(command);
    free(cells);
    return rc;
}
