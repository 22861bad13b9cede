/* Netpbm PGM / PPM reader (P2, P3, P5, P6; 8 and 16 bit) and writer (P5, P6).
 *
 * Header: magic, width, height, maxval, separated by whitespace, with '#'
 * comments running to the end of a line anywhere in between; for the binary
 * types exactly one whitespace byte follows maxval, then the raster.  maxval
 * 1..255 gives one byte per sample (LW_IO_U8), 256..65535 two bytes, most
 * significant first (LW_IO_U16).  Samples keep their values (no rescaling);
 * a sample above maxval is an error.  Bytes after the first image are
 * ignored (Netpbm allows several images in one file). */
#include "lw_io.h"

#include <stdlib.h>
#include <string.h>

typedef struct pnm_src {
    const unsigned char *p;
    size_t len, pos;
} pnm_src;

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* Skip whitespace and comments. */
static void skip_sep(pnm_src *s)
{
    while (s->pos < s->len) {
        int c = s->p[s->pos];
        if (is_space(c)) {
            s->pos++;
        } else if (c == '#') {
            while (s->pos < s->len && s->p[s->pos] != '\n' && s->p[s->pos] != '\r')
                s->pos++;
        } else {
            break;
        }
    }
}

/* A header number: decimal, at most limit. */
static int header_int(pnm_src *s, const char *what, int64_t limit, int64_t *v, char *err, size_t errlen)
{
    skip_sep(s);
    if (s->pos >= s->len)
        return lw_io_fail(err, errlen, "truncated PNM header (no %s)", what);
    int c = s->p[s->pos];
    if (c < '0' || c > '9')
        return lw_io_fail(err, errlen, "bad PNM header: %s is not a number", what);
    int64_t x = 0;
    while (s->pos < s->len && (c = s->p[s->pos]) >= '0' && c <= '9') {
        x = x * 10 + (c - '0');
        if (x > limit)
            return lw_io_fail(err, errlen, "bad PNM header: %s is larger than %lld", what, (long long)limit);
        s->pos++;
    }
    if (s->pos < s->len && !is_space(s->p[s->pos]) && s->p[s->pos] != '#')
        return lw_io_fail(err, errlen, "bad PNM header: junk after %s", what);
    *v = x;
    return 0;
}

/* ASCII raster (P2/P3): n whitespace-separated decimal samples. */
static int read_plain(pnm_src *s, lw_array *out, int64_t n, int64_t maxval, char *err, size_t errlen)
{
    /* from the first sample on, each sample needs a digit and (except the
     * last) a separator: 2n - 1 bytes */
    while (s->pos < s->len && is_space(s->p[s->pos]))
        s->pos++;
    size_t avail = s->len - s->pos;
    if ((uint64_t)n > ((uint64_t)avail + 1) / 2)
        return lw_io_fail(err, errlen,
                          "truncated: %lld samples need at least %llu bytes of raster text, the file has %llu",
                          (long long)n, 2 * (unsigned long long)n - 1, (unsigned long long)avail);
    if (lw_array_alloc(out, err, errlen) != 0)
        return -1;
    unsigned char *d8 = out->data;
    uint16_t *d16 = out->data;
    for (int64_t i = 0; i < n; i++) {
        while (s->pos < s->len && is_space(s->p[s->pos]))
            s->pos++;
        if (s->pos >= s->len)
            return lw_io_fail(err, errlen, "truncated: %lld of %lld samples present", (long long)i, (long long)n);
        int c = s->p[s->pos];
        if (c < '0' || c > '9')
            return lw_io_fail(err, errlen, "bad PNM raster: sample %lld is not a number", (long long)i);
        int64_t v = 0;
        while (s->pos < s->len && (c = s->p[s->pos]) >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            if (v > maxval)
                return lw_io_fail(err, errlen, "bad PNM raster: sample %lld exceeds maxval %lld", (long long)i,
                                  (long long)maxval);
            s->pos++;
        }
        if (s->pos < s->len && !is_space(s->p[s->pos]))
            return lw_io_fail(err, errlen, "bad PNM raster: junk after sample %lld", (long long)i);
        if (out->type == LW_IO_U8)
            d8[i] = (unsigned char)v;
        else
            d16[i] = (uint16_t)v;
    }
    return 0;
}

/* Binary raster (P5/P6). */
static int read_raw(pnm_src *s, lw_array *out, int64_t n, int64_t maxval, char *err, size_t errlen)
{
    size_t bytes;
    if (lw_array_count(out, NULL, &bytes) != 0)
        return lw_io_fail(err, errlen, "image too large");
    size_t avail = s->len - s->pos;
    if (avail < bytes)
        return lw_io_fail(err, errlen, "truncated: header says %llu bytes of data, file has %llu",
                          (unsigned long long)bytes, (unsigned long long)avail);
    if (lw_array_alloc(out, err, errlen) != 0)
        return -1;
    const unsigned char *src = s->p + s->pos;
    if (out->type == LW_IO_U8) {
        memcpy(out->data, src, bytes);
        if (maxval < 255) {
            const unsigned char *d = out->data;
            for (int64_t i = 0; i < n; i++)
                if (d[i] > maxval)
                    return lw_io_fail(err, errlen, "bad PNM raster: sample %lld (%d) exceeds maxval %lld",
                                      (long long)i, d[i], (long long)maxval);
        }
    } else {
        uint16_t *d = out->data;
        for (int64_t i = 0; i < n; i++) {
            d[i] = (uint16_t)(src[2 * i] << 8 | src[2 * i + 1]);
            if (d[i] > maxval)
                return lw_io_fail(err, errlen, "bad PNM raster: sample %lld (%d) exceeds maxval %lld", (long long)i,
                                  d[i], (long long)maxval);
        }
    }
    s->pos += bytes;
    return 0;
}

static int read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    if (!out)
        return lw_io_fail(err, errlen, "no output array");
    memset(out, 0, sizeof *out);
    if (!buf || len == 0)
        return lw_io_fail(err, errlen, "empty file");
    if (len < 2 || buf[0] != 'P' || buf[1] < '1' || buf[1] > '7')
        return lw_io_fail(err, errlen, "not a PNM file (bad magic)");
    int kind = buf[1] - '0';
    if (kind == 1 || kind == 4 || kind == 7)
        return lw_io_fail(err, errlen, "unsupported PNM type P%d (supported: P2, P3, P5, P6)", kind);
    pnm_src s = {buf, len, 2};
    if (s.pos < s.len && !is_space(buf[s.pos]) && buf[s.pos] != '#')
        return lw_io_fail(err, errlen, "not a PNM file (bad magic)");
    int64_t w, h, maxval;
    /* Netpbm caps dimensions well below this; the byte count is checked below. */
    if (header_int(&s, "width", INT32_MAX, &w, err, errlen) != 0 ||
        header_int(&s, "height", INT32_MAX, &h, err, errlen) != 0 ||
        header_int(&s, "maxval", 65535, &maxval, err, errlen) != 0)
        return -1;
    if (w == 0 || h == 0)
        return lw_io_fail(err, errlen, "bad PNM header: image is %lldx%lld", (long long)w, (long long)h);
    if (maxval == 0)
        return lw_io_fail(err, errlen, "bad PNM header: maxval 0 (must be 1..65535)");
    int binary = kind == 5 || kind == 6;
    int chans = (kind == 3 || kind == 6) ? 3 : 1;
    if (binary) {
        /* exactly one whitespace byte ends the header */
        if (s.pos >= s.len)
            return lw_io_fail(err, errlen, "truncated PNM header (no raster)");
        if (!is_space(buf[s.pos]))
            return lw_io_fail(err, errlen, "bad PNM header: maxval must be followed by one whitespace byte");
        s.pos++;
    }
    out->type = maxval < 256 ? LW_IO_U8 : LW_IO_U16;
    out->rank = chans == 1 ? 2 : 3;
    out->shape[0] = h;
    out->shape[1] = w;
    out->shape[2] = chans;
    int64_t n;
    if (lw_array_count(out, &n, NULL) != 0)
        return lw_io_fail(err, errlen, "image %lldx%lld is too large", (long long)w, (long long)h);
    int rc = binary ? read_raw(&s, out, n, maxval, err, errlen) : read_plain(&s, out, n, maxval, err, errlen);
    if (rc != 0)
        lw_array_free(out);
    return rc;
}

int lw_pnm_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    int rc = read_mem(buf, len, out, err, errlen);
    if (rc != 0 && out) {
        lw_array_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

int lw_pnm_check_writable(const lw_array *a, char *err, size_t errlen)
{
    if (a->type != LW_IO_U8 && a->type != LW_IO_U16)
        return lw_io_fail(err, errlen, "PGM/PPM holds uint8 or uint16 images, not %s (write .npy instead)",
                          lw_io_type_name(a->type));
    if (a->rank == 2)
        return 0;
    if (a->rank == 3 && (a->shape[2] == 1 || a->shape[2] == 3))
        return 0;
    char st[96];
    lw_io_shape_text(a->rank, a->shape, st, sizeof st);
    return lw_io_fail(err, errlen,
                      "PGM/PPM holds (height, width) or (height, width, 1 or 3) images, not shape %s", st);
}

int lw_pnm_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen)
{
    int64_t n;
    if (lw_array_check(a, &n, NULL, err, errlen) != 0 || lw_pnm_check_writable(a, err, errlen) != 0)
        return -1;
    int chans = a->rank == 3 ? (int)a->shape[2] : 1;
    int wide = a->type == LW_IO_U16;
    if (fprintf(f, "P%d\n%lld %lld\n%d\n", chans == 3 ? 6 : 5, (long long)a->shape[1], (long long)a->shape[0],
                wide ? 65535 : 255) < 0)
        return lw_io_fail(err, errlen, "write failed");
    if (!wide) {
        if (fwrite(a->data, 1, (size_t)n, f) != (size_t)n)
            return lw_io_fail(err, errlen, "write failed");
        return 0;
    }
    const uint16_t *src = a->data;
    unsigned char tmp[1 << 15];
    for (int64_t i = 0; i < n;) {
        size_t k = 0;
        for (; k + 1 < sizeof tmp && i < n; i++, k += 2) {
            tmp[k] = (unsigned char)(src[i] >> 8);
            tmp[k + 1] = (unsigned char)(src[i] & 0xff);
        }
        if (fwrite(tmp, 1, k, f) != k)
            return lw_io_fail(err, errlen, "write failed");
    }
    return 0;
}
