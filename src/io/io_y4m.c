/* YUV4MPEG2 (.y4m) reader: what `ffmpeg -f yuv4mpegpipe` writes.
 *
 *   stream header  "YUV4MPEG2" then space-separated tags, '\n':
 *                  W<width> H<height> F<num>:<den> I<p|t|b|m> A<num>:<den>
 *                  C<colour space> X<anything>
 *   each frame     "FRAME" [tags] '\n', then the planes: Y (W x H), then
 *                  Cb and Cr subsampled as the colour space says (and an
 *                  alpha plane for 444alpha), 8 bits a sample.
 *
 * Read sequentially from a stream (a file or a pipe), so the number of
 * frames is known only at the end.  Only 8-bit colour spaces are accepted:
 * 420jpeg 420paldv 420mpeg2 420 422 444 444alpha mono (the default, as in
 * the format, is 420jpeg). */
#define _POSIX_C_SOURCE 200809L
#include "lw_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096

/* Colour spaces: planes, and the subsampling of planes 1.. (shift of
 * width, height). */
typedef struct chroma_def {
    const char *name;
    int nplanes, sw, sh;
} chroma_def;

static const chroma_def chromas[] = {
    {"420jpeg", 3, 1, 1}, {"420paldv", 3, 1, 1}, {"420mpeg2", 3, 1, 1}, {"420", 3, 1, 1},
    {"422", 3, 1, 0},     {"444", 3, 0, 0},      {"444alpha", 4, 0, 0}, {"mono", 1, 0, 0},
};

/* One '\n'-terminated line (without the '\n') into buf; *got = its length,
 * -1 at a clean end of stream (nothing read). */
static int read_line(FILE *f, char *buf, size_t cap, long *got, char *err, size_t errlen)
{
    size_t n = 0;
    for (;;) {
        int c = getc(f);
        if (c == EOF) {
            if (ferror(f)) return lw_io_fail(err, errlen, "read failed: %s", strerror(errno));
            if (n == 0) {
                *got = -1;
                return 0;
            }
            return lw_io_fail(err, errlen, "truncated: the stream ends inside a header line");
        }
        if (c == '\n') break;
        if (n + 1 >= cap) return lw_io_fail(err, errlen, "header line longer than %zu bytes", cap - 1);
        buf[n++] = (char)c;
    }
    buf[n] = 0;
    *got = (long)n;
    return 0;
}

static int parse_pos(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || *end || x <= 0 || s[0] == '+' || s[0] == '-') return -1;
    *v = x;
    return 0;
}

static int parse_ratio(const char *s, int *num, int *den)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (*end != ':') return -1;
    long b = strtol(end + 1, &end, 10);
    if (*end || a < 0 || b < 0 || a > 0x7fffffff || b > 0x7fffffff) return -1;
    *num = (int)a;
    *den = (int)b;
    return 0;
}

int lw_y4m_open(lw_y4m *y, FILE *f, char *err, size_t errlen)
{
    memset(y, 0, sizeof *y);
    y->f = f;
    char line[LINE_MAX_BYTES];
    long n;
    if (read_line(f, line, sizeof line, &n, err, errlen) != 0) return -1;
    if (n < 0) return lw_io_fail(err, errlen, "empty stream (no YUV4MPEG2 header)");
    if (strncmp(line, "YUV4MPEG2", 9) != 0 || (line[9] != ' ' && line[9] != 0))
        return lw_io_fail(err, errlen, "not a YUV4MPEG2 stream (it must start with 'YUV4MPEG2 ')");
    const chroma_def *cd = &chromas[0];
    snprintf(y->colorspace, sizeof y->colorspace, "420jpeg");
    y->interlace = 'p';
    char *save = NULL;
    for (char *tok = strtok_r(line + 9, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char *v = tok + 1;
        switch (tok[0]) {
        case 'W':
            if (parse_pos(v, &y->width) != 0) return lw_io_fail(err, errlen, "bad width tag 'W%s'", v);
            break;
        case 'H':
            if (parse_pos(v, &y->height) != 0) return lw_io_fail(err, errlen, "bad height tag 'H%s'", v);
            break;
        case 'F':
            if (parse_ratio(v, &y->fps_num, &y->fps_den) != 0)
                return lw_io_fail(err, errlen, "bad frame rate tag 'F%s'", v);
            break;
        case 'A':
            if (parse_ratio(v, &y->par_num, &y->par_den) != 0)
                return lw_io_fail(err, errlen, "bad pixel aspect tag 'A%s'", v);
            break;
        case 'I':
            if (strlen(v) != 1 || !strchr("ptbm?", v[0]))
                return lw_io_fail(err, errlen, "bad interlacing tag 'I%s'", v);
            y->interlace = v[0];
            break;
        case 'C': {
            cd = NULL;
            for (size_t i = 0; i < sizeof chromas / sizeof chromas[0]; i++)
                if (strcmp(v, chromas[i].name) == 0) cd = &chromas[i];
            if (!cd)
                return lw_io_fail(err, errlen,
                                  "colour space 'C%.40s' is not supported (8-bit 420jpeg 420paldv 420mpeg2 420 422 "
                                  "444 444alpha mono only)",
                                  v);
            snprintf(y->colorspace, sizeof y->colorspace, "%s", v);
            break;
        }
        case 'X':
            break; /* application data */
        default:
            return lw_io_fail(err, errlen, "unknown header tag '%.40s'", tok);
        }
    }
    if (!y->width || !y->height) return lw_io_fail(err, errlen, "the header has no %s tag", y->width ? "H" : "W");
    if (y->width > (1 << 20) || y->height > (1 << 20))
        return lw_io_fail(err, errlen, "frame size %lldx%lld is too large", (long long)y->width, (long long)y->height);
    y->nplanes = cd->nplanes;
    y->frame_bytes = 0;
    for (int p = 0; p < cd->nplanes; p++) {
        int sub = p == 1 || p == 2;
        y->plane_w[p] = sub ? (y->width + (1 << cd->sw) - 1) >> cd->sw : y->width;
        y->plane_h[p] = sub ? (y->height + (1 << cd->sh) - 1) >> cd->sh : y->height;
        y->plane_off[p] = y->frame_bytes;
        y->frame_bytes += y->plane_w[p] * y->plane_h[p];
    }
    return 0;
}

int lw_y4m_read_frame(lw_y4m *y, unsigned char *frame, int *eof, char *err, size_t errlen)
{
    *eof = 0;
    char line[LINE_MAX_BYTES];
    long n;
    int64_t k = y->frames + 1;
    if (read_line(y->f, line, sizeof line, &n, err, errlen) != 0) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s", err);
        return lw_io_fail(err, errlen, "frame %lld: %s", (long long)k, tmp);
    }
    if (n < 0) {
        *eof = 1;
        return 0;
    }
    if (strncmp(line, "YUV4MPEG2", 9) == 0)
        return lw_io_fail(err, errlen,
                          "frame %lld: a new stream header where a frame was expected (the frame size or format "
                          "changes mid-stream; transform each part on its own)",
                          (long long)k);
    if (strncmp(line, "FRAME", 5) != 0 || (line[5] != ' ' && line[5] != 0))
        return lw_io_fail(err, errlen, "frame %lld: expected a 'FRAME' header, found '%.20s'", (long long)k, line);
    size_t want = (size_t)y->frame_bytes, got = fread(frame, 1, want, y->f);
    if (got != want) {
        if (ferror(y->f)) return lw_io_fail(err, errlen, "frame %lld: read failed: %s", (long long)k, strerror(errno));
        return lw_io_fail(err, errlen, "truncated: frame %lld has %zu of its %zu bytes", (long long)k, got, want);
    }
    y->frames++;
    return 0;
}
