/* `liftwave bench --matrix`: each cell against its target, and the summary
 * of a run: the floor (smallest fraction of the bound, and its cell), the
 * median of the fractions, the cells that miss; with --inplace, the ratio of
 * each cell's in-place and out-of-place times (also for `--inplace=both`
 * without the matrix).  `--matrix-summary FILE` prints the same summary from
 * the records of an earlier run. */
#define _POSIX_C_SOURCE 200809L

#include "cli_bench_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lw_bench_target_kinds[2] = {"fraction", "latency_s"};

int lw_bench_cell_meets(const cell_result *r)
{
    if (r->failed || !r->verified) return 0;
    return r->kind == TGT_LATENCY ? r->median_s <= r->target : r->frac >= r->target;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void why_missed(const cell_result *r, char *buf, size_t len)
{
    if (r->failed) snprintf(buf, len, "no measurement (the run failed)");
    else if (!r->verified) snprintf(buf, len, "not verified");
    else if (r->kind == TGT_LATENCY)
        snprintf(buf, len, "%.1f us, target <= %.1f us", r->median_s * 1e6, r->target * 1e6);
    else snprintf(buf, len, "%.4f of the bound, target >= %.2f", r->frac, r->target);
}

/* The out-of-place result of the cell that r (in place) times too, or NULL. */
static const cell_result *out_of_place_twin(const cell_result *all, int n, const cell_result *r)
{
    for (int i = 0; i < n; i++)
        if (!all[i].inplace && !strcmp(all[i].cell, r->cell)) return &all[i];
    return NULL;
}

void lw_bench_inplace_summary(FILE *f, const cell_result *r, int n)
{
    int pairs = 0, worst_ratio = -1, worst_extra = -1;
    double max_ratio = 0, max_extra = 0;
    for (int i = 0; i < n; i++) {
        const cell_result *o = r[i].inplace ? out_of_place_twin(r, n, &r[i]) : NULL;
        if (!o) continue;
        if (!pairs++) fprintf(f, "# in place / out of place (median times), in-place fraction of the bound, "
                                 "extra device memory of the in-place run / the array (cuda):\n");
        if (r[i].failed || o->failed) {
            fprintf(f, "#   %s: no ratio (the %s run failed)\n", r[i].cell, o->failed ? "out-of-place" : "in-place");
            continue;
        }
        double ratio = r[i].median_s / (o->median_s > 0 ? o->median_s : 1e-300);
        int device = r[i].array_bytes > 0;
        double extra = device ? r[i].extra_bytes / r[i].array_bytes : 0;
        char mem[64] = "";
        if (device) snprintf(mem, sizeof mem, ", extra %.1f MiB = %.4f of the array", r[i].extra_bytes / 1048576.0, extra);
        fprintf(f, "#   %s: %.4g / %.4g ms = %.3f, %.3f of the bound%s%s\n", r[i].cell, r[i].median_s * 1e3,
                o->median_s * 1e3, ratio, r[i].frac, mem,
                r[i].verified && o->verified ? "" : r[i].verified ? " (out of place NOT verified)"
                                                                  : " (in place NOT verified)");
        if (worst_ratio < 0 || ratio > max_ratio) max_ratio = ratio, worst_ratio = i;
        if (device && (worst_extra < 0 || extra > max_extra)) max_extra = extra, worst_extra = i;
    }
    if (worst_ratio < 0) return;
    fprintf(f, "# in place: %d pairs, largest ratio %.3f (%s)", pairs, max_ratio, r[worst_ratio].cell);
    if (worst_extra >= 0) fprintf(f, ", largest extra device memory %.4f of the array (%s)", max_extra, r[worst_extra].cell);
    fprintf(f, "\n");
}

int lw_bench_matrix_summary(FILE *f, const cell_result *r, int n)
{
    int verified = 0, meets = 0, nfrac = 0, floor_at = -1, ncell = 0;
    double *fr = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        if (r[i].inplace) continue; /* the targets are the out-of-place ones; in place: the ratios below */
        ncell++;
        verified += !r[i].failed && r[i].verified;
        meets += lw_bench_cell_meets(&r[i]);
        if (r[i].failed || !r[i].verified || r[i].kind != TGT_FRACTION) continue;
        if (fr) fr[nfrac] = r[i].frac;
        nfrac++;
        if (floor_at < 0 || r[i].frac < r[floor_at].frac) floor_at = i;
    }
    fprintf(f, "# matrix: %d cells, %d verified, %d meet their targets, %d miss\n", ncell, verified, meets,
            ncell - meets);
    if (floor_at >= 0) {
        fprintf(f, "# floor: %.4f of the bound (%s), target >= %.2f: %s\n", r[floor_at].frac, r[floor_at].cell,
                LW_MATRIX_FLOOR_TARGET, r[floor_at].frac >= LW_MATRIX_FLOOR_TARGET ? "met" : "missed");
        if (fr) {
            qsort(fr, (size_t)nfrac, sizeof *fr, cmp_double);
            double med = nfrac % 2 ? fr[nfrac / 2] : 0.5 * (fr[nfrac / 2 - 1] + fr[nfrac / 2]);
            fprintf(f, "# median of the fractions: %.4f (%d verified cells with a fraction target; latency cells apart)\n",
                    med, nfrac);
        }
    } else {
        fprintf(f, "# floor: none (no verified cell with a fraction target)\n");
    }
    free(fr);
    for (int i = 0; i < n; i++) {
        if (r[i].inplace || lw_bench_cell_meets(&r[i])) continue;
        char why[128];
        why_missed(&r[i], why, sizeof why);
        fprintf(f, "# missed %s: %s\n", r[i].cell, why);
    }
    lw_bench_inplace_summary(f, r, n);
    return ncell - meets;
}

/* ---- reading records back ------------------------------------------------- */

/* A flat JSON object of one line (values: strings, numbers, true, false,
 * null, arrays of those): the few keys a summary needs. */
typedef struct rec_fields {
    char cell[128], kind[16], dtype[16];
    double target, frac, median_s, extra_bytes, samples;
    int has_cell, has_kind, has_target, has_frac, has_median, has_error, verified, inplace, host;
} rec_fields;

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p)) p++;
    return p;
}

/* A JSON string at p (after its opening quote); copies at most len-1 bytes
 * of it (escapes kept as their second character).  Returns the position
 * after the closing quote, NULL when it does not close. */
static const char *read_string(const char *p, char *buf, size_t len)
{
    size_t k = 0;
    for (; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) p++;
        if (buf && k + 1 < len) buf[k++] = *p;
    }
    if (buf && len) buf[k] = '\0';
    return *p == '"' ? p + 1 : NULL;
}

static const char *skip_scalar(const char *p)
{
    if (*p == '"') return read_string(p + 1, NULL, 0);
    const char *s = p;
    while (*p && *p != ',' && *p != '}' && *p != ']' && !isspace((unsigned char)*p)) p++;
    return p > s ? p : NULL;
}

static int parse_record(const char *line, rec_fields *f)
{
    memset(f, 0, sizeof *f);
    f->samples = 1;
    const char *p = skip_ws(line);
    if (*p++ != '{') return -1;
    p = skip_ws(p);
    if (*p == '}') return 0;
    for (;;) {
        char key[32];
        if (*p != '"' || !(p = read_string(p + 1, key, sizeof key))) return -1;
        p = skip_ws(p);
        if (*p++ != ':') return -1;
        p = skip_ws(p);
        const char *v = p;
        if (*p == '[') {
            for (p = skip_ws(p + 1); *p != ']';) {
                if (!strcmp(key, "shape")) f->samples *= strtod(p, NULL);
                if (!(p = skip_scalar(p))) return -1;
                p = skip_ws(p);
                if (*p == ',') p = skip_ws(p + 1);
                else if (*p != ']') return -1;
            }
            p++;
        } else if (!(p = skip_scalar(p))) {
            return -1;
        }
        char *end;
        if (!strcmp(key, "cell") && *v == '"') f->has_cell = read_string(v + 1, f->cell, sizeof f->cell) != NULL;
        else if (!strcmp(key, "target_kind") && *v == '"') f->has_kind = read_string(v + 1, f->kind, sizeof f->kind) != NULL;
        else if (!strcmp(key, "error") && *v == '"') f->has_error = 1;
        else if (!strcmp(key, "verified")) f->verified = !strncmp(v, "true", 4);
        else if (!strcmp(key, "inplace")) f->inplace = !strncmp(v, "true", 4);
        else if (!strcmp(key, "config")) f->host = !strncmp(v, "\"host\"", 6);
        else if (!strcmp(key, "dtype") && *v == '"') read_string(v + 1, f->dtype, sizeof f->dtype);
        else if (!strcmp(key, "extra_device_bytes")) f->extra_bytes = strtod(v, NULL);
        else if (!strcmp(key, "target")) f->target = strtod(v, &end), f->has_target = end > v;
        else if (!strcmp(key, "fraction_of_bound")) f->frac = strtod(v, &end), f->has_frac = end > v;
        else if (!strcmp(key, "median_s")) f->median_s = strtod(v, &end), f->has_median = end > v;
        p = skip_ws(p);
        if (*p == '}') return *skip_ws(p + 1) ? -1 : 0;
        if (*p++ != ',') return -1;
        p = skip_ws(p);
    }
}

/* One record line into r; returns NULL or what is wrong with it. */
static const char *to_result(const rec_fields *f, cell_result *r)
{
    memset(r, 0, sizeof *r);
    if (!f->has_cell) return "not a matrix record (no \"cell\")";
    if (!f->has_kind || !f->has_target) return "no \"target_kind\" or \"target\"";
    snprintf(r->cell, sizeof r->cell, "%s", f->cell);
    int k = 0;
    while (k < 2 && strcmp(f->kind, lw_bench_target_kinds[k])) k++;
    if (k == 2) return "unknown \"target_kind\" (fraction or latency_s)";
    r->kind = k;
    r->target = f->target;
    r->failed = f->has_error;
    r->inplace = f->inplace;
    if (r->failed) return NULL;
    if (!f->has_frac || !f->has_median) return "no \"fraction_of_bound\" or \"median_s\"";
    r->frac = f->frac;
    r->median_s = f->median_s;
    r->verified = f->verified;
    r->extra_bytes = f->extra_bytes;
    size_t item = 4; /* float32, the matrix's dtype, unless the record says otherwise */
    for (int t = 0; t <= LW_BFLOAT16; t++)
        if (!strcmp(f->dtype, lw_dtype_name((lw_dtype)t))) item = lw_dtype_size((lw_dtype)t);
    r->array_bytes = f->host ? 0 : f->samples * (double)item; /* 0: no device memory measured */
    return NULL;
}

int lw_bench_matrix_summary_file(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        lw_bench_errline("--matrix-summary: cannot open %s: %s", path, strerror(errno));
        return 1;
    }
    cell_result *res = NULL;
    int n = 0, cap = 0, lineno = 0, rc = 0;
    char *line = NULL;
    size_t lcap = 0;
    while (getline(&line, &lcap, fp) >= 0 && !rc) {
        lineno++;
        if (!*skip_ws(line)) continue;
        rec_fields f;
        const char *bad = parse_record(line, &f) ? "not a JSON object on one line" : NULL;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            cell_result *m = realloc(res, sizeof *res * (size_t)cap);
            if (!m) {
                lw_bench_errline("out of memory");
                rc = 1;
                break;
            }
            res = m;
        }
        if (!bad) bad = to_result(&f, &res[n]);
        if (bad) {
            lw_bench_errline("--matrix-summary: %s line %d: %s", path, lineno, bad);
            rc = 1;
        }
        n++;
    }
    free(line);
    fclose(fp);
    if (!rc && n == 0) {
        lw_bench_errline("--matrix-summary: %s holds no records", path);
        rc = 1;
    }
    if (!rc) lw_bench_matrix_summary(stdout, res, n);
    free(res);
    return rc;
}
