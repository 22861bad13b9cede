/* Whole-file reads, format dispatch, and atomic writes.
 *
 * A write goes to a temporary file made with mkstemp in the destination's
 * directory; it is flushed, fsync'd, closed and only then renamed over the
 * destination.  On any failure the temporary is unlinked, so a partial output
 * never exists under either name. */
#define _POSIX_C_SOURCE 200809L

#include "lw_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define EXT_HELP "use .npy, .pgm, .ppm, .pnm, .png or .raw"

const char *lw_io_path_brief(const char *path, char *buf, size_t len)
{
    if (!buf || len == 0)
        return "";
    size_t n = strlen(path);
    if (n < len || len < 16) {
        snprintf(buf, len, "%s", path);
        return buf;
    }
    size_t keep = len - 4; /* characters of the path kept, besides "..." and NUL */
    size_t head = keep / 2, tail = keep - head;
    snprintf(buf, len, "%.*s...%s", (int)head, path, path + n - tail);
    return buf;
}

/* Rewrite err as "path: err", the path shortened by lw_io_path_brief so that
 * the reason always fits. */
static int with_path(const char *path, char *err, size_t errlen)
{
    if (!err || !errlen)
        return -1;
    char tmp[512], p[LW_IO_PATH_BRIEF];
    snprintf(tmp, sizeof tmp, "%s", err);
    snprintf(err, errlen, "%s: %s", lw_io_path_brief(path, p, sizeof p), tmp);
    return -1;
}

/* lw_io_fail with the path in front (see with_path). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int path_fail(const char *path, char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return with_path(path, err, errlen);
}

/* Open path for reading; it must be a non-empty regular file whose size fits
 * size_t.  On success *fd is open and *size set. */
static int open_regular(const char *path, int *fd_out, size_t *size, char *err, size_t errlen)
{
    int fd;
    do
        fd = open(path, O_RDONLY);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return lw_io_fail(err, errlen, "cannot open: %s", strerror(errno));
    struct stat st;
    const char *why = NULL;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return lw_io_fail(err, errlen, "cannot stat: %s", strerror(e));
    }
    if (S_ISDIR(st.st_mode))
        why = "is a directory";
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (st.st_size == 0)
        why = "empty file";
    if (why) {
        close(fd);
        return lw_io_fail(err, errlen, "%s", why);
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        close(fd);
        return lw_io_fail(err, errlen, "file too large to read (%lld bytes)", (long long)st.st_size);
    }
    *fd_out = fd;
    *size = (size_t)st.st_size;
    return 0;
}

int lw_io_check_readable(const char *path, char *err, size_t errlen)
{
    int fd;
    size_t n;
    if (!path || !*path)
        return lw_io_fail(err, errlen, "no input file name");
    if (open_regular(path, &fd, &n, err, errlen) != 0)
        return with_path(path, err, errlen);
    close(fd);
    return 0;
}

int lw_io_read_file(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen)
{
    *buf = NULL;
    *len = 0;
    int fd;
    size_t n;
    if (open_regular(path, &fd, &n, err, errlen) != 0)
        return -1;
    unsigned char *b = malloc(n);
    if (!b) {
        close(fd);
        return lw_io_fail(err, errlen, "out of memory reading %llu bytes", (unsigned long long)n);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(b);
            close(fd);
            return lw_io_fail(err, errlen, "read failed: %s", strerror(e));
        }
        if (r == 0) {
            free(b);
            close(fd);
            return lw_io_fail(err, errlen, "file shrank while reading (%llu of %llu bytes)",
                              (unsigned long long)got, (unsigned long long)n);
        }
        got += (size_t)r;
    }
    close(fd);
    *buf = b;
    *len = n;
    return 0;
}

int lw_io_read(const char *path, const lw_raw_spec *spec, lw_array *out, char *err, size_t errlen)
{
    if (!out)
        return lw_io_fail(err, errlen, "no output array");
    memset(out, 0, sizeof *out);
    if (!path || !*path)
        return lw_io_fail(err, errlen, "no input file name");
    lw_io_format fmt = lw_io_format_of(path);
    if (fmt == LW_FMT_UNKNOWN)
        return path_fail(path, err, errlen, "unknown file format (" EXT_HELP ")");
    if (fmt == LW_FMT_RAW && (!spec || spec->rank == 0 || !spec->have_type))
        return path_fail(path, err, errlen, ".raw input needs a shape and a dtype (--shape, --dtype)");
    if (fmt == LW_FMT_PNG && !lw_io_have_png())
        return path_fail(path, err, errlen, "PNG support not built (install libpng-dev)");

    unsigned char *buf;
    size_t len;
    if (lw_io_read_file(path, &buf, &len, err, errlen) != 0)
        return with_path(path, err, errlen);
    int rc;
    switch (fmt) {
    case LW_FMT_NPY:
        rc = lw_npy_read_mem(buf, len, out, err, errlen);
        break;
    case LW_FMT_PNM:
        rc = lw_pnm_read_mem(buf, len, out, err, errlen);
        break;
    case LW_FMT_PNG:
        rc = lw_png_read_mem(buf, len, out, err, errlen);
        break;
    default:
        rc = lw_raw_read_mem(buf, len, spec, out, err, errlen);
        break;
    }
    free(buf);
    return rc != 0 ? with_path(path, err, errlen) : 0;
}

/* "dir/.base.XXXXXX" next to path; NULL when out of memory. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
    return t;
}

static int write_stream(lw_io_format fmt, FILE *f, const lw_array *a, char *err, size_t errlen)
{
    switch (fmt) {
    case LW_FMT_NPY:
        return lw_npy_write_stream(f, a, err, errlen);
    case LW_FMT_PNM:
        return lw_pnm_write_stream(f, a, err, errlen);
    case LW_FMT_PNG:
        return lw_png_write_stream(f, a, err, errlen);
    case LW_FMT_RAW:
        return lw_raw_write_stream(f, a, err, errlen);
    default:
        return lw_io_fail(err, errlen, "unknown file format (" EXT_HELP ")");
    }
}

/* Best effort: make the rename durable by syncing the directory. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return;
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

int lw_io_write(const char *path, const lw_array *a, char *err, size_t errlen)
{
    if (!path || !*path)
        return lw_io_fail(err, errlen, "no output file name");
    size_t plen = strlen(path);
    if (path[plen - 1] == '/')
        return path_fail(path, err, errlen, "is a directory");
    lw_io_format fmt = lw_io_format_of(path);
    if (fmt == LW_FMT_UNKNOWN)
        return path_fail(path, err, errlen, "unknown file format (" EXT_HELP ")");
    if (lw_io_check_writable(fmt, a, err, errlen) != 0)
        return with_path(path, err, errlen);

    char *tmp = temp_name(path);
    if (!tmp)
        return path_fail(path, err, errlen, "out of memory");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return path_fail(path, err, errlen, "cannot create file: %s", strerror(e));
    }
    /* mkstemp makes the file 0600; give it the usual 0666 & ~umask.  (umask
     * can only be read by setting it; the CLI is single-threaded here.) */
    mode_t mask = umask(022);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);

    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return path_fail(path, err, errlen, "cannot open stream: %s", strerror(e));
    }
    errno = 0;
    int rc = write_stream(fmt, f, a, err, errlen);
    int e = errno;
    if (rc != 0) {
        fclose(f);
        unlink(tmp);
        free(tmp);
        if (e && err && strcmp(err, "write failed") == 0)
            lw_io_fail(err, errlen, "write failed: %s", strerror(e));
        return with_path(path, err, errlen);
    }
    const char *step = NULL;
    if (fflush(f) != 0 || ferror(f))
        step = "write failed";
    else if (fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS)
        step = "fsync failed";
    e = errno;
    if (fclose(f) != 0 && !step) {
        step = "close failed";
        e = errno;
    }
    if (!step && rename(tmp, path) != 0) {
        step = "cannot rename into place";
        e = errno;
    }
    if (step) {
        unlink(tmp);
        free(tmp);
        return path_fail(path, err, errlen, "%s: %s", step, e ? strerror(e) : "unknown error");
    }
    free(tmp);
    sync_dir(path);
    return 0;
}
