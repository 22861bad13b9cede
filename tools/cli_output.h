/* Output files: never the input by accident, symlinks written through, the
 * coefficient metadata written (or a stale one removed) with the data. */
#ifndef LW_CLI_OUTPUT_H
#define LW_CLI_OUTPUT_H

#include "cli_meta.h"

/* The file a path names, symlinks on its last component followed (the path
 * itself when it is not a symlink; the target need not exist).  Exit status. */
int lw_cli_resolve(const char *path, char *buf, size_t len);

/* Refuse an output that is the input file (same path, a hard link or a
 * symlink to it) unless --overwrite. */
int lw_cli_check_not_input(const char *in, const char *out, const lw_cli_opts *o);

/* Write a to out (symlinks written through).  With meta (a forward's
 * coefficients in .npy/.raw) the sidecar out.json is written too, otherwise
 * a sidecar left there by an earlier forward is removed.  On failure
 * neither file changes. */
int lw_cli_write_output(const char *out, const lw_array *a, const lw_cli_meta *meta);

#endif
