/* `liftwave bench`: the list of the papers' GPU schemes (--scheme list) and
 * the papers' table after a run (--table, implied by --scheme all). */
#include "cli_bench_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- --scheme list ---------------------------------------------------------- */

/* Split lw_scheme_about()'s "a | b | c | d | e" into its fields. */
static int split_about(const char *about, char f[5][256])
{
    int k = 0;
    const char *p = about;
    while (k < 5) {
        const char *bar = k < 4 ? strstr(p, " | ") : NULL;
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len >= 256) len = 255;
        memcpy(f[k], p, len);
        f[k][len] = '\0';
        k++;
        if (!bar) break;
        p = bar + 3;
    }
    return k;
}

/* strip a known prefix/suffix word from a field ("paper 000" -> "000") */
static const char *field_value(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(s, prefix, n) == 0 ? s + n : s;
}

static void paper_cell(char *buf, size_t len, int v)
{
    if (v < 0) snprintf(buf, len, "-");
    else snprintf(buf, len, "%d", v);
}

/* --scheme list --wavelet W,..: every scheme's counts for each wavelet it takes */
static void scheme_costs(const lw_wavelet *w, int nw)
{
    int n = lw_scheme_count();
    printf("%-7s %-26s %-5s %-7s %8s %9s %8s %14s\n", "wavelet", "scheme", "paper", "inverse", "ops/quad", "ops:paper",
           "barriers", "barriers:paper");
    for (int k = 0; k < nw; k++)
        for (int i = 0; i < n; i++) {
            lw_scheme_cost c;
            const char *name = lw_scheme_name(i), *about = lw_scheme_about(i);
            char f[5][256], po[16], pb[16];
            if (!name || !about || split_about(about, f) != 5 || !lw_scheme_cost_of(i, w[k], &c)) continue;
            paper_cell(po, sizeof po, c.paper_ops);
            paper_cell(pb, sizeof pb, c.paper_barriers);
            printf("%-7s %-26s %-5s %-7s %8g %9s %8d %14s\n", lw_wavelet_name(w[k]), name, field_value(f[0], "paper "),
                   field_value(f[1], "inverse "), c.ops, po, c.barriers, pb);
        }
    printf("# ops/quad: arithmetic operations per 2x2 quad of samples, one forward level: one per lifting or\n"
           "# filter tap the kernels execute (the register kernels' redundant evaluations included), scaling\n"
           "# omitted; barriers: per window position (tile) of a level, summed over the scheme's kernels.\n"
           "# Counted from the compile-time step programs the kernels run.  ops:paper, barriers:paper: the\n"
           "# paper's Table 2 (003; its barriers are one per spatial step, i.e. double buffering); '-' where the\n"
           "# paper gives none (000 and 004 have no such table)\n");
}

/* The engine records of every backend, as comment lines. */
static void engine_list(void)
{
    printf("# engines (--scheme NAME forces one; auto takes the first that applies):\n");
    for (int b = 0; b < LW_BACKEND_COUNT; b++)
        for (int i = 0; i < lw_engine_count((lw_backend)b); i++) {
            const char *about = NULL, *name = lw_engine_name((lw_backend)b, i, &about);
            printf("#   %-5s %-8s %s\n", lw_backend_name((lw_backend)b), name, about ? about : "");
        }
}

int lw_bench_scheme_list(const lw_wavelet *w, int nw)
{
    int n = lw_scheme_count();
    if (n == 0) {
        printf("no GPU schemes: liftwave was built without CUDA\n");
        engine_list();
        return 0;
    }
    if (nw > 0) {
        scheme_costs(w, nw);
        return 0;
    }
    printf("%-26s %-5s %-7s %8s %8s  %s\n", "scheme", "paper", "inverse", "ops/quad", "barriers", "description");
    printf("%-26s %-5s %-7s %8s %8s  %s\n", "auto", "-", "yes", "-", "-",
           "the default engine (fused 2-D tiles, one kernel per level)");
    for (int i = 0; i < n; i++) {
        const char *name = lw_scheme_name(i), *about = lw_scheme_about(i);
        char f[5][256];
        if (!name || !about) continue;
        if (split_about(about, f) != 5) {
            printf("%-26s %s\n", name, about);
            continue;
        }
        f[2][strcspn(f[2], " ")] = '\0'; /* "44 ops/quad" -> "44" */
        f[3][strcspn(f[3], " ")] = '\0';
        printf("%-26s %-5s %-7s %8s %8s  %s\n", name, field_value(f[0], "paper "), field_value(f[1], "inverse "), f[2],
               f[3], f[4]);
    }
    printf("# ops/quad: multiply-accumulates per 2x2 block of samples for CDF 9/7 (fs: for the fs wavelet;\n"
           "# one per lifting tap or filter tap, scaling omitted, as the papers count them); barriers: per\n"
           "# window position of one level, summed over the scheme's kernels.  Per wavelet, next to the\n"
           "# papers' numbers: --scheme list --wavelet cdf53,cdf97,dd137,fs\n");
    if (!lw_backend_available(LW_BACKEND_CUDA)) printf("# no CUDA device here: the schemes run only on one\n");
    engine_list();
    return 0;
}

/* ---- the papers' table ------------------------------------------------------ */

static int64_t samples(const record *r)
{
    int64_t n = 1;
    for (int a = 0; a < r->c.rank; a++) n *= r->c.shape[a];
    return n;
}

/* same row of the table: everything but the shape */
static int same_row(const record *a, const record *b)
{
    return !strcmp(a->c.scheme, b->c.scheme) && a->c.wavelet == b->c.wavelet && a->c.dtype == b->c.dtype &&
           a->c.mode == b->c.mode && a->c.layout == b->c.layout && a->c.dir == b->c.dir && a->levels == b->levels &&
           a->c.config == b->c.config && a->c.backend == b->c.backend && a->c.threads == b->c.threads &&
           a->c.inplace == b->c.inplace;
}

/* the record of row `row` closest to `target` samples (within a factor 1.6), or NULL */
static const record *near_size(const record *r, int n, const record *row, double target)
{
    const record *best = NULL;
    double bd = 0;
    for (int i = 0; i < n; i++) {
        if (!same_row(&r[i], row)) continue;
        double d = fabs(log((double)samples(&r[i]) / target));
        if (d < log(1.6) && (!best || d < bd)) best = &r[i], bd = d;
    }
    return best;
}

static void cell(FILE *f, const record *r)
{
    if (r) fprintf(f, " %9.1f %6.3f", r->ps, r->frac);
    else fprintf(f, " %9s %6s", "-", "-");
}

void lw_bench_table(FILE *f, const record *r, int n)
{
    const double M = 1048576.0;
    int marked = 0;
    for (int i = 0; i < n; i++) marked |= r[i].c.inplace || r[i].c.layout != LW_MALLAT;
    fprintf(f, "# picoseconds per pixel (ps/px, the papers' unit) and fraction of the %s bandwidth (frac)\n",
            n && r[0].bound ? r[0].bound : "bound");
    fprintf(f, "# at 1 and 10 Mpixel (2^20 and 10*2^20 samples, nearest measured shape)%s%s\n",
            n && r[0].device[0] ? "; device: " : "", n ? r[0].device : "");
    if (marked) fprintf(f, "# scheme+interleaved: the interleaved layout; scheme+inplace: timed in place (in == out)\n");
    fprintf(f, "%-26s %-6s %-3s %-7s %-9s %3s %9s %6s %9s %6s\n", "scheme", "wavelet", "dir", "dtype", "mode", "lev",
            "ps/px@1M", "frac", "ps/px@10M", "frac");
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++) first = !same_row(&r[j], &r[i]);
        if (!first) continue;
        const record *a = near_size(r, n, &r[i], M), *b = near_size(r, n, &r[i], 10 * M);
        if (!a && !b) continue;
        char label[64]; /* the scheme, marked +interleaved and +inplace where the row is */
        snprintf(label, sizeof label, "%s%s%s", r[i].c.scheme, r[i].c.layout == LW_MALLAT ? "" : "+interleaved",
                 r[i].c.inplace ? "+inplace" : "");
        fprintf(f, "%-26s %-6s %-3s %-7s %-9s %3d", label, lw_wavelet_name(r[i].c.wavelet),
                lw_bench_dir_short[r[i].c.dir], lw_dtype_name(r[i].c.dtype), lw_mode_name(r[i].c.mode),
                r[i].levels);
        cell(f, a);
        cell(f, b);
        fputc('\n', f);
    }
}
