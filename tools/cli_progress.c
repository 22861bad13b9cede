/* The progress bar of long transforms (cli_progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_progress.h"

#include "cli_common.h"

#include <stdio.h>
#include <unistd.h>

#define BAR_WIDTH 30
#define REDRAW_S 0.1

void lw_cli_progress_init(lw_cli_progress *p, const char *label, int quiet, double after)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->after = after;
    p->drawn = 0;
    p->start = p->last = lw_cli_now();
    p->label = label;
}

void lw_cli_progress_update(void *ctx, int64_t done, int64_t total)
{
    lw_cli_progress *p = ctx;
    if (!p || !p->enabled || total <= 0) return;
    double now = lw_cli_now();
    if (now - p->start < p->after || (p->drawn && now - p->last < REDRAW_S)) return;
    double f = (double)done / (double)total;
    if (f > 1) f = 1;
    int fill = (int)(f * BAR_WIDTH);
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = 0;
    double el = now - p->start, eta = f > 0 ? el * (1 - f) / f : 0;
    fprintf(stderr, "\rliftwave: %s [%s] %3d%%  %.0f s left ", p->label, bar, (int)(100 * f), eta);
    fflush(stderr);
    p->drawn = 1;
    p->last = now;
}

void lw_cli_progress_end(lw_cli_progress *p)
{
    if (p->enabled && p->drawn) {
        fprintf(stderr, "\r%*s\r", BAR_WIDTH + 40, "");
        fflush(stderr);
    }
    p->drawn = 0;
}
