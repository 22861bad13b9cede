/* An output file that is complete or absent: written under a temporary
 * name in its directory, fsync'd and renamed over the destination at the
 * end; removed on any failure, and when SIGINT, SIGTERM or SIGHUP ends the
 * program while it is written. */
#ifndef LW_CLI_TMPFILE_H
#define LW_CLI_TMPFILE_H

#include <stdint.h>

typedef struct lw_cli_tmpfile {
    char path[4096]; /* destination (symlinks resolved) */
    char dir[4096];  /* its directory */
    char *tmp;       /* temporary name (malloc'd), NULL once renamed or removed */
    int fd;
} lw_cli_tmpfile;

/* Create the temporary next to `out` (symlinks written through) and
 * reserve `size` bytes (a full disk fails here, not midway).  Exit status;
 * errors printed. */
int lw_cli_tmpfile_open(lw_cli_tmpfile *t, const char *out, uint64_t size);
/* fsync, close, rename into place. Exit status; on failure the temporary is
 * removed. */
int lw_cli_tmpfile_commit(lw_cli_tmpfile *t);
/* Remove the temporary (no-op after commit). */
void lw_cli_tmpfile_abort(lw_cli_tmpfile *t);

#endif
