/* `liftwave bench`: a record as one JSON line or as a row of the text table. */
#define _POSIX_C_SOURCE 200809L

#include "cli_bench_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif

void lw_bench_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

void lw_bench_axes_text(const combo *c, char *buf, size_t len)
{
    buf[0] = '\0';
    int n = c->naxes ? c->naxes : c->rank;
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%d", i ? ", " : "", c->naxes ? c->axes[i] : i);
}

static double finite(double v) { return isfinite(v) ? v : 0.0; }

void lw_bench_print_json(FILE *f, const record *r, const char *date, const char *extra)
{
    const combo *c = &r->c;
    char ax[32];
    lw_bench_axes_text(c, ax, sizeof ax);
    fprintf(f, "{\"wavelet\": \"%s\", \"levels\": %d, \"shape\": [", lw_wavelet_name(c->wavelet), r->levels);
    for (int a = 0; a < c->rank; a++) fprintf(f, "%s%lld", a ? ", " : "", (long long)c->shape[a]);
    fprintf(f, "], \"axes\": [%s], \"dtype\": \"%s\", \"mode\": \"%s\", \"layout\": \"%s\", \"backend\": \"%s\", "
               "\"scheme\": ", ax, lw_dtype_name(c->dtype), lw_mode_name(c->mode), lw_layout_name(c->layout),
            lw_backend_name(c->backend));
    lw_bench_json_string(f, c->scheme);
    fprintf(f, ", \"direction\": \"%s\", \"config\": \"%s\", \"inplace\": %s, \"median_s\": %.6g, "
               "\"gsamples_per_s\": %.6g, \"ps_per_sample\": %.6g, \"effective_gbps\": %.6g, \"bound\": \"%s\", "
               "\"bound_gbps\": %.6g, \"fraction_of_bound\": %.6g, \"threads\": %d, \"device\": ",
            lw_bench_dir_names[c->dir], lw_bench_config_names[c->config],
            c->inplace ? "true" : "false", finite(r->median_s), finite(r->gsps), finite(r->ps), finite(r->eff_gbps),
            r->bound, finite(r->bound_gbps), finite(r->frac), r->threads);
    lw_bench_json_string(f, r->device);
    fprintf(f, ", \"commit\": ");
    lw_bench_json_string(f, LW_GIT_COMMIT);
    fprintf(f, ", \"date\": \"%s\", \"verified\": %s", date, r->verified ? "true" : "false");
    if (c->config == CFG_HOST) {
        fprintf(f, ", \"bound_best_gbps\": %.6g, \"fraction_of_best_bound\": %.6g", finite(r->bound_best_gbps),
                r->bound_best_gbps > 0 ? finite(r->eff_gbps / r->bound_best_gbps) : 0.0);
        fprintf(f, ", \"simd\": ");
        if (r->simd[0]) lw_bench_json_string(f, r->simd);
        else fprintf(f, "null");
    }
    if (c->config != CFG_HOST) {
        fprintf(f, ", \"extra_device_bytes\": %zu, \"destroy_input\": %s, \"host_memory\": \"%s\", \"tuning\": ",
                r->extra_device_bytes, c->destroy_input ? "true" : "false",
                lw_bench_host_memory_names[c->host_memory]);
        if (c->tuning && *c->tuning) lw_bench_json_string(f, c->tuning);
        else fprintf(f, "null");
        fprintf(f, ", \"engine\": ");
        if (r->engine[0]) lw_bench_json_string(f, r->engine);
        else fprintf(f, "null");
        if (c->host_memory == HM_PAGEABLE) fprintf(f, ", \"register_s\": %.6g", finite(r->register_s));
        fprintf(f, ", \"device_memory_limit\": %llu", (unsigned long long)c->device_memory_limit);
    }
    if (extra) fputs(extra, f);
    fprintf(f, "}\n");
}

void lw_bench_print_row(const record *r, int *header, char *last_device, size_t ldlen)
{
    const combo *c = &r->c;
    if (!*header) {
        printf("# liftwave %s bench, commit %s\n", lw_version(), LW_GIT_COMMIT);
        printf("%-6s %3s %-14s %-7s %-9s %-6s %-4s %-7s %-4s %-5s %-10s %3s %11s %8s %8s %8s %-11s %8s %5s %s\n",
               "wavelet", "lev", "shape", "dtype", "mode", "layout", "dir", "backend", "cfg", "place", "scheme", "thr",
               "median_ms", "Gsmp/s", "ps/smp", "eff_GB/s", "bound", "bnd_GB/s", "frac", "verified");
        *header = 1;
    }
    if (strcmp(last_device, r->device)) {
        printf("# device (%s): %s\n", lw_bench_config_names[c->config], r->device);
        snprintf(last_device, ldlen, "%s", r->device);
    }
    char shp[64];
    lw_bench_shape_text(c, shp, sizeof shp);
    if (c->naxes) { /* the transformed axes after the shape: 192x512x512@1,2 */
        size_t k = strlen(shp);
        for (int i = 0; i < c->naxes && k + 4 < sizeof shp; i++, k = strlen(shp))
            snprintf(shp + k, sizeof shp - k, "%c%d", i ? ',' : '@', c->axes[i]);
    }
    printf("%-6s %3d %-14s %-7s %-9s %-6s %-4s %-7s %-4s %-5s %-10s %3d %11.4f %8.3f %8.1f %8.2f %-11s %8.2f %5.3f %s\n",
           lw_wavelet_name(c->wavelet), r->levels, shp, lw_dtype_name(c->dtype), lw_mode_name(c->mode),
           c->layout == LW_MALLAT ? "mallat" : "interl", lw_bench_dir_short[c->dir],
           lw_backend_name(c->backend), c->host_memory == HM_PAGEABLE ? "C2Cp" : lw_bench_config_names[c->config],
           c->inplace ? "in" : "out", c->scheme, r->threads, r->median_s * 1e3, r->gsps, r->ps, r->eff_gbps, r->bound,
           r->bound_gbps, r->frac, r->verified ? "yes" : r->checked ? "NO" : "skipped");
}

void lw_bench_iso_date(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
