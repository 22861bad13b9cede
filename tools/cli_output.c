/* Output paths: symlinks, the input-equals-output check, data + sidecar. */
#define _POSIX_C_SOURCE 200809L
#include "cli_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

int lw_cli_resolve(const char *path, char *buf, size_t len)
{
    if (snprintf(buf, len, "%s", path) >= (int)len)
        return lw_cli_fail(LW_EXIT_DATA, "'%s': path too long", lw_cli_path(path));
    for (int hop = 0;; hop++) {
        struct stat st;
        if (lstat(buf, &st) != 0 || !S_ISLNK(st.st_mode)) return LW_EXIT_OK;
        if (hop == MAX_LINKS)
            return lw_cli_fail(LW_EXIT_DATA, "'%s': too many levels of symbolic links", lw_cli_path(path));
        char target[16384];
        ssize_t n = readlink(buf, target, sizeof target - 1);
        if (n < 0) return lw_cli_fail(LW_EXIT_DATA, "'%s': %s", lw_cli_path(buf), strerror(errno));
        target[n] = '\0';
        if (target[0] == '/') {
            if ((size_t)n >= len) return lw_cli_fail(LW_EXIT_DATA, "'%s': path too long", lw_cli_path(path));
            memcpy(buf, target, (size_t)n + 1);
            continue;
        }
        /* relative: against the link's directory */
        char *slash = strrchr(buf, '/');
        size_t dir = slash ? (size_t)(slash - buf) + 1 : 0;
        if (dir + (size_t)n >= len) return lw_cli_fail(LW_EXIT_DATA, "'%s': path too long", lw_cli_path(path));
        memcpy(buf + dir, target, (size_t)n + 1);
    }
}

int lw_cli_check_not_input(const char *in, const char *out, const lw_cli_opts *o)
{
    struct stat si, so;
    if (o->overwrite || stat(in, &si) != 0 || stat(out, &so) != 0) return LW_EXIT_OK;
    if (si.st_dev != so.st_dev || si.st_ino != so.st_ino) return LW_EXIT_OK;
    const char *how = strcmp(in, out) == 0 ? "the same path" : "the same file";
    return lw_cli_fail(LW_EXIT_DATA, "output '%s' is the input '%s' (%s): refusing to overwrite the input; "
                       "give --overwrite to replace it",
                       lw_cli_path(out), lw_cli_path(in), how);
}

int lw_cli_write_output(const char *out, const lw_array *a, const lw_cli_meta *meta)
{
    char path[16384];
    int rc = lw_cli_resolve(out, path, sizeof path);
    if (rc != LW_EXIT_OK) return rc;
    char *tmp = NULL;
    if (meta && (rc = lw_cli_meta_stage(path, meta, &tmp)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_write(path, a)) != LW_EXIT_OK) {
        lw_cli_meta_discard(tmp);
        return rc;
    }
    if (!meta) {
        lw_cli_meta_remove(path);
        return LW_EXIT_OK;
    }
    if ((rc = lw_cli_meta_commit(path, tmp)) != LW_EXIT_OK) unlink(path);
    return rc;
}
