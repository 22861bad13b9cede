/* A progress bar on stderr for long runs: drawn only when stderr is a
 * terminal, not --quiet, and the run has lasted longer than `after` seconds
 * (--progress-after, default 1); the line is cleared at the end, so nothing
 * of it stays in the terminal.  The bar moves when the transform reports
 * progress (once per slab), so a run may end before its first drawing. */
#ifndef LW_CLI_PROGRESS_H
#define LW_CLI_PROGRESS_H

#include <stdint.h>

typedef struct lw_cli_progress {
    int enabled;
    int drawn;
    double start, last;
    double after; /* seconds before the first drawing */
    const char *label;
} lw_cli_progress;

void lw_cli_progress_init(lw_cli_progress *p, const char *label, int quiet, double after);
/* The callback of lw_stream_job (ctx: the lw_cli_progress). */
void lw_cli_progress_update(void *ctx, int64_t done, int64_t total);
void lw_cli_progress_end(lw_cli_progress *p);

#endif
