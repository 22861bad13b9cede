/* Recorded parameters (cli_meta.h) as the defaults of inverse and view. */
#ifndef LW_CLI_META_APPLY_H
#define LW_CLI_META_APPLY_H

#include "cli_meta.h"

/* Read the sidecar of data_path (the input, symlinks resolved) and check
 * that it describes a, the array read from it.  *have = 1 when the
 * parameters are to be used; a sidecar that describes another file is an
 * error (with --force: a warning, and it is ignored). */
int lw_cli_meta_load(const char *data_path, const lw_array *a, const lw_cli_opts *o, lw_cli_meta *m, int *have);

/* The same for an array known by its shape, type and a function giving
 * the checksum of its bytes (called only when the shape and type agree):
 * a file read in parts. */
int lw_cli_meta_load_described(const char *data_path, int rank, const int64_t *shape, lw_io_type type,
                               uint64_t (*sum)(void *ctx), void *ctx, const lw_cli_opts *o, lw_cli_meta *m,
                               int *have);

/* Options not given take the recorded values; given ones must agree with
 * them (else an error naming both values; with --force a warning). */
int lw_cli_meta_apply(lw_cli_opts *o, const lw_cli_meta *m, const char *data_path);

/* After planning: "-l max" must have meant the recorded level count. */
int lw_cli_meta_check_levels(const lw_cli_opts *o, const lw_cli_meta *m, const char *data_path, int levels);

#endif
