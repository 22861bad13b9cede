/* `liftwave forward|inverse` on .npy/.raw arrays larger than the memory
 * limit: the out-of-core path (src/stream), with a complete-or-absent
 * output, the coefficient sidecar and a progress bar. */
#ifndef LW_CLI_STREAM_H
#define LW_CLI_STREAM_H

#include "cli_common.h"
#include "cli_meta.h"

/* An array stored in an open file. */
typedef struct lw_cli_stream_src {
    const char *name; /* for messages */
    int fd;
    uint64_t offset;
    uint64_t pitch0; /* bytes from one index of axis 0 to the next (a video's frames); 0: dense */
    lw_io_type type;
    int rank;
    int64_t shape[LW_IO_MAX_RANK];
} lw_cli_stream_src;

/* The memory limit in force: --memory-limit, else the default. */
uint64_t lw_cli_memory_limit(const lw_cli_opts *o);

/* If IN and OUT are .npy/.raw and the array does not fit the memory limit
 * in memory, transform it out of core (*streamed = 1) and return the exit
 * status; else *streamed = 0 and nothing is done. */
int lw_cli_stream_maybe(const char *in, const char *out, lw_cli_opts *o, lw_direction dir, int *streamed);

/* Transform src into out (.npy or .raw) out of core with cfg (filled from
 * the options; dtype the work type).  meta: the forward's sidecar to
 * write, its source fields set (NULL: no sidecar, a stale one removed). */
int lw_cli_stream_to_file(const lw_cli_stream_src *src, const char *out, const lw_cli_opts *o, lw_config *cfg,
                          lw_cli_meta *meta);

#endif
