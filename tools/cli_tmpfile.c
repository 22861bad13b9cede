/* Complete-or-absent outputs (cli_tmpfile.h). */
#define _GNU_SOURCE
#include "cli_tmpfile.h"

#include "cli_common.h"
#include "cli_output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary being written, removed by the handler of the signals that
 * end the program (Ctrl-C, kill), so that an interrupted run leaves
 * nothing either.  One at a time: the CLI writes one output at a time. */
static char *volatile pending;

static void on_signal(int sig)
{
    char *p = pending;
    if (p) unlink(p);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard(char *tmp)
{
    static int installed;
    if (!installed) {
        installed = 1;
        /* past a file size limit, write() then fails with EFBIG (reported,
         * the temporary removed) instead of the signal killing the program */
        signal(SIGXFSZ, SIG_IGN);
        int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            sigaction(sigs[i], &sa, NULL);
        }
    }
    pending = tmp;
}

int lw_cli_tmpfile_open(lw_cli_tmpfile *t, const char *out, uint64_t size)
{
    memset(t, 0, sizeof *t);
    t->fd = -1;
    int rc = lw_cli_resolve(out, t->path, sizeof t->path);
    if (rc != LW_EXIT_OK) return rc;
    const char *slash = strrchr(t->path, '/');
    if (!slash)
        snprintf(t->dir, sizeof t->dir, ".");
    else if (slash == t->path)
        snprintf(t->dir, sizeof t->dir, "/");
    else
        snprintf(t->dir, sizeof t->dir, "%.*s", (int)(slash - t->path), t->path);
    const char *base = slash ? slash + 1 : t->path;
    size_t n = strlen(t->dir) + strlen(base) + 16;
    t->tmp = malloc(n);
    if (!t->tmp) return lw_cli_fail(LW_EXIT_DATA, "out of memory");
    snprintf(t->tmp, n, "%s/.%s.XXXXXX", t->dir, base);
    t->fd = mkstemp(t->tmp);
    if (t->fd < 0) {
        int e = errno;
        free(t->tmp);
        t->tmp = NULL;
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': cannot create file: %s", lw_cli_path(out), strerror(e));
    }
    guard(t->tmp);
    mode_t mask = umask(022);
    umask(mask);
    (void)fchmod(t->fd, 0666 & ~mask);
    if (size > 0) {
        int e = posix_fallocate(t->fd, 0, (off_t)size);
        if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
            lw_cli_tmpfile_abort(t);
            char need[32];
            snprintf(need, sizeof need, "%llu", (unsigned long long)size);
            return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s' (%s bytes): %s", lw_cli_path(out), need, strerror(e));
        }
    }
    return LW_EXIT_OK;
}

void lw_cli_tmpfile_abort(lw_cli_tmpfile *t)
{
    pending = NULL;
    if (t->fd >= 0) close(t->fd);
    t->fd = -1;
    if (t->tmp) unlink(t->tmp);
    free(t->tmp);
    t->tmp = NULL;
}

int lw_cli_tmpfile_commit(lw_cli_tmpfile *t)
{
    const char *step = NULL;
    int e = 0;
    if (fsync(t->fd) != 0 && errno != EINVAL && errno != EROFS) {
        step = "fsync failed";
        e = errno;
    }
    if (close(t->fd) != 0 && !step) {
        step = "close failed";
        e = errno;
    }
    t->fd = -1;
    if (!step && rename(t->tmp, t->path) != 0) {
        step = "cannot rename into place";
        e = errno;
    }
    pending = NULL;
    if (step) {
        lw_cli_tmpfile_abort(t);
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': %s: %s", lw_cli_path(t->path), step, strerror(e));
    }
    free(t->tmp);
    t->tmp = NULL;
    int dfd = open(t->dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return LW_EXIT_OK;
}
