/* NumPy .npy reader and writer.
 *
 * Layout: "\x93NUMPY", major, minor, header length (uint16 LE in version 1,
 * uint32 LE in versions 2 and 3), then a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (512, 512), }
 * padded with spaces to a multiple of 64 bytes and ending in '\n', then the
 * raw C-order data.  Only little-endian (or byte-order-free) plain dtypes of
 * the six lw_io types are accepted; nothing in the header is trusted. */
#include "lw_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* dtype strings as NumPy writes them, in lw_io_type order. */
static const char *const npy_descr[] = {"|u1", "<u2", "<i2", "<i4", "<f4", "<f8"};
#define NPY_SUPPORTED "<f4 <f8 <i4 <i2 <u2 |u1"

typedef struct npy_header {
    int have_descr, have_fortran, have_shape;
    char descr[40];
    int fortran;
    int rank; /* as written, may exceed LW_IO_MAX_RANK (then capped at 32) */
    int64_t shape[32];
} npy_header;

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int peek(cursor *c) { return c->p < c->end ? (unsigned char)*c->p : -1; }

/* A quoted string without escapes into out (NUL-terminated); -1 if malformed
 * or longer than outlen - 1. */
static int parse_string(cursor *c, char *out, size_t outlen)
{
    int q = peek(c);
    if (q != '\'' && q != '"')
        return -1;
    c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || *c->p == '\n' || n + 1 >= outlen)
            return -1;
        out[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return -1;
    c->p++;
    out[n] = 0;
    return 0;
}

static int parse_word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0)
        return 0;
    /* the word must end here */
    if ((size_t)(c->end - c->p) > n) {
        char nx = c->p[n];
        if ((nx >= 'a' && nx <= 'z') || (nx >= 'A' && nx <= 'Z') || (nx >= '0' && nx <= '9') || nx == '_')
            return 0;
    }
    c->p += n;
    return 1;
}

/* Non-negative decimal integer (an old Python 2 'L' suffix is allowed). */
static int parse_int(cursor *c, int64_t *v, char *err, size_t errlen)
{
    int ch = peek(c);
    if (ch < '0' || ch > '9')
        return lw_io_fail(err, errlen, "bad npy header: shape entries must be non-negative integers");
    int64_t x = 0;
    while ((ch = peek(c)) >= '0' && ch <= '9') {
        int d = ch - '0';
        if (x > (INT64_MAX - d) / 10)
            return lw_io_fail(err, errlen, "bad npy header: shape entry does not fit in 64 bits");
        x = x * 10 + d;
        c->p++;
    }
    if (peek(c) == 'L' || peek(c) == 'l')
        c->p++;
    *v = x;
    return 0;
}

static int parse_shape(cursor *c, npy_header *h, char *err, size_t errlen)
{
    if (peek(c) != '(')
        return lw_io_fail(err, errlen, "bad npy header: 'shape' must be a tuple");
    c->p++;
    int n = 0, commas = 0;
    skip_ws(c);
    while (peek(c) != ')') {
        int64_t v = 0;
        if (parse_int(c, &v, err, errlen) != 0)
            return -1;
        if (n >= (int)(sizeof h->shape / sizeof h->shape[0]))
            return lw_io_fail(err, errlen, "bad npy header: shape has too many axes");
        h->shape[n++] = v;
        skip_ws(c);
        if (peek(c) == ',') {
            c->p++;
            commas++;
            skip_ws(c);
        } else if (peek(c) != ')') {
            return lw_io_fail(err, errlen, "bad npy header: malformed 'shape' tuple");
        }
    }
    c->p++;
    if (n == 1 && commas == 0)
        return lw_io_fail(err, errlen, "bad npy header: 'shape' must be a tuple, e.g. (5,)");
    h->rank = n;
    return 0;
}

static int parse_header(const char *text, size_t len, npy_header *h, char *err, size_t errlen)
{
    cursor c = {text, text + len};
    memset(h, 0, sizeof *h);
    skip_ws(&c);
    if (peek(&c) != '{')
        return lw_io_fail(err, errlen, "bad npy header: not a dict literal");
    c.p++;
    for (;;) {
        skip_ws(&c);
        if (peek(&c) == '}') {
            c.p++;
            break;
        }
        char key[32];
        if (parse_string(&c, key, sizeof key) != 0)
            return lw_io_fail(err, errlen, "bad npy header: expected a quoted key");
        skip_ws(&c);
        if (peek(&c) != ':')
            return lw_io_fail(err, errlen, "bad npy header: expected ':' after '%s'", key);
        c.p++;
        skip_ws(&c);
        if (strcmp(key, "descr") == 0) {
            if (h->have_descr++)
                return lw_io_fail(err, errlen, "bad npy header: duplicate key 'descr'");
            if (peek(&c) == '[')
                return lw_io_fail(err, errlen, "unsupported dtype: structured arrays are not supported");
            if (parse_string(&c, h->descr, sizeof h->descr) != 0)
                return lw_io_fail(err, errlen, "bad npy header: 'descr' must be a short quoted string");
        } else if (strcmp(key, "fortran_order") == 0) {
            if (h->have_fortran++)
                return lw_io_fail(err, errlen, "bad npy header: duplicate key 'fortran_order'");
            if (parse_word(&c, "True"))
                h->fortran = 1;
            else if (parse_word(&c, "False"))
                h->fortran = 0;
            else
                return lw_io_fail(err, errlen, "bad npy header: 'fortran_order' must be True or False");
        } else if (strcmp(key, "shape") == 0) {
            if (h->have_shape++)
                return lw_io_fail(err, errlen, "bad npy header: duplicate key 'shape'");
            if (parse_shape(&c, h, err, errlen) != 0)
                return -1;
        } else {
            return lw_io_fail(err, errlen, "bad npy header: unknown key '%s'", key);
        }
        skip_ws(&c);
        if (peek(&c) == ',') {
            c.p++;
        } else if (peek(&c) != '}') {
            return lw_io_fail(err, errlen, "bad npy header: expected ',' or '}'");
        }
    }
    skip_ws(&c);
    if (c.p != c.end)
        return lw_io_fail(err, errlen, "bad npy header: unexpected text after the dict");
    if (!h->have_descr || !h->have_fortran || !h->have_shape)
        return lw_io_fail(err, errlen, "bad npy header: missing key '%s'",
                          !h->have_descr ? "descr" : !h->have_fortran ? "fortran_order" : "shape");
    return 0;
}

static int descr_type(const char *d, lw_io_type *t, char *err, size_t errlen)
{
    for (int i = 0; i < (int)(sizeof npy_descr / sizeof npy_descr[0]); i++) {
        if (strcmp(d, npy_descr[i]) == 0) {
            *t = (lw_io_type)i;
            return 0;
        }
    }
    /* byte order does not matter for one-byte unsigned data */
    if (strcmp(d, "<u1") == 0 || strcmp(d, ">u1") == 0 || strcmp(d, "=u1") == 0) {
        *t = LW_IO_U8;
        return 0;
    }
    const char *why = "";
    if (d[0] == 0)
        return lw_io_fail(err, errlen, "unsupported dtype '' (supported: " NPY_SUPPORTED ")");
    if (d[0] == '>' && d[1] != 0 && strcmp(d + 2, "1") != 0)
        why = "big-endian; ";
    else if (d[0] == '|' && (d[1] == 'O' || d[1] == 'V'))
        why = "object or void data; ";
    else if (d[1] == 'c')
        why = "complex; ";
    return lw_io_fail(err, errlen, "unsupported dtype '%s' (%ssupported: " NPY_SUPPORTED ")", d, why);
}

static uint32_t get_le(const unsigned char *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* The header of a .npy file held in buf[0..len) (the whole file, or at
 * least its header): rank, shape and type into out (no data), the byte
 * offset of the data into *data_off and the data's byte count into *bytes. */
static int parse_head(const unsigned char *buf, size_t len, lw_array *out, size_t *data_off, size_t *bytes, char *err,
                      size_t errlen)
{
    if (!buf || len == 0)
        return lw_io_fail(err, errlen, "empty file");
    if (len < 8 || memcmp(buf, npy_magic, 6) != 0)
        return lw_io_fail(err, errlen, "not a .npy file (bad magic)");
    int major = buf[6], minor = buf[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        return lw_io_fail(err, errlen, "unsupported npy version %d.%d (supported: 1.0, 2.0, 3.0)", major, minor);
    size_t prefix = major == 1 ? 10 : 12;
    if (len < prefix)
        return lw_io_fail(err, errlen, "truncated npy header");
    size_t hlen = get_le(buf + 8, major == 1 ? 2 : 4);
    if (hlen > len - prefix)
        return lw_io_fail(err, errlen, "truncated npy header: header length %llu, file has %llu bytes after the prefix",
                          (unsigned long long)hlen, (unsigned long long)(len - prefix));
    npy_header h;
    if (parse_header((const char *)buf + prefix, hlen, &h, err, errlen) != 0)
        return -1;
    lw_io_type type = LW_IO_U8;
    if (descr_type(h.descr, &type, err, errlen) != 0)
        return -1;
    if (h.fortran)
        return lw_io_fail(err, errlen, "fortran_order True is not supported (save a C-order array)");
    if (h.rank == 0)
        return lw_io_fail(err, errlen, "0-d (scalar) arrays are not supported");
    if (h.rank > LW_IO_MAX_RANK)
        return lw_io_fail(err, errlen, "rank %d arrays are not supported (at most %d axes)", h.rank, LW_IO_MAX_RANK);
    out->rank = h.rank;
    out->type = type;
    memcpy(out->shape, h.shape, sizeof(int64_t) * (size_t)h.rank);
    char st[96];
    lw_io_shape_text(h.rank, h.shape, st, sizeof st);
    for (int i = 0; i < h.rank; i++) {
        if (h.shape[i] == 0)
            return lw_io_fail(err, errlen, "empty array (shape %s) is not supported", st);
    }
    if (lw_array_count(out, NULL, bytes) != 0)
        return lw_io_fail(err, errlen, "shape %s of %s is too large (byte count overflows)", st,
                          lw_io_type_name(type));
    *data_off = prefix + hlen;
    return 0;
}

/* The data's byte count against what the file holds after the header. */
static int check_data_size(size_t bytes, uint64_t avail, char *err, size_t errlen)
{
    if (avail < bytes)
        return lw_io_fail(err, errlen, "truncated: header says %llu bytes of data, file has %llu",
                          (unsigned long long)bytes, (unsigned long long)avail);
    if (avail > bytes)
        return lw_io_fail(err, errlen, "trailing data: header says %llu bytes of data, file has %llu",
                          (unsigned long long)bytes, (unsigned long long)avail);
    return 0;
}

int lw_npy_parse_head(const unsigned char *buf, size_t len, uint64_t file_size, lw_array *info, size_t *data_off,
                      char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    size_t bytes;
    if (parse_head(buf, len, info, data_off, &bytes, err, errlen) != 0)
        return -1;
    return check_data_size(bytes, file_size - *data_off, err, errlen);
}

static int read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    if (!out)
        return lw_io_fail(err, errlen, "no output array");
    memset(out, 0, sizeof *out);
    size_t off, bytes;
    if (parse_head(buf, len, out, &off, &bytes, err, errlen) != 0)
        return -1;
    if (check_data_size(bytes, len - off, err, errlen) != 0)
        return -1;
    lw_io_type type = out->type;
    if (lw_array_alloc(out, err, errlen) != 0)
        return -1;
    const unsigned char *src = buf + off;
    size_t es = lw_io_type_size(type);
    if (es > 1 && !lw_io_host_le())
        lw_io_swap_copy(out->data, src, bytes / es, es);
    else
        memcpy(out->data, src, bytes);
    return 0;
}

int lw_npy_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    int rc = read_mem(buf, len, out, err, errlen);
    if (rc != 0 && out) {
        lw_array_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

static int put(FILE *f, const void *p, size_t n, char *err, size_t errlen)
{
    if (n && fwrite(p, 1, n, f) != n)
        return lw_io_fail(err, errlen, "write failed");
    return 0;
}

int lw_npy_header(int rank, const int64_t *shape, lw_io_type type, unsigned char *head, size_t cap, size_t *len,
                  char *err, size_t errlen)
{
    if (rank < 1 || rank > LW_IO_MAX_RANK || lw_io_type_size(type) == 0)
        return lw_io_fail(err, errlen, "cannot describe a rank-%d array in a npy header", rank);
    /* dict text; shape entries are at most 19 digits each */
    char dict[256];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", npy_descr[type]);
    for (int i = 0; i < rank; i++)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld, ", (long long)shape[i]);
    if (rank > 1)
        n -= 2; /* "(5,)" keeps its comma, "(5, 6)" does not */
    else
        n -= 1;
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    /* Version 1.0 (the padded header always fits 16 bits with rank <= 4). */
    size_t prefix = 10, total = prefix + (size_t)n + 1;
    total = (total + 63) / 64 * 64;
    size_t hlen = total - prefix;
    if (total > cap)
        return lw_io_fail(err, errlen, "npy header too long");
    memcpy(head, npy_magic, 6);
    head[6] = 1;
    head[7] = 0;
    head[8] = (unsigned char)(hlen & 0xff);
    head[9] = (unsigned char)(hlen >> 8);
    memcpy(head + prefix, dict, (size_t)n);
    memset(head + prefix + n, ' ', total - prefix - (size_t)n - 1);
    head[total - 1] = '\n';
    *len = total;
    return 0;
}

int lw_npy_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen)
{
    size_t bytes;
    if (lw_array_check(a, NULL, &bytes, err, errlen) != 0)
        return -1;
    unsigned char head[LW_NPY_HEADER_MAX];
    size_t total;
    if (lw_npy_header(a->rank, a->shape, a->type, head, sizeof head, &total, err, errlen) != 0)
        return -1;
    if (put(f, head, total, err, errlen) != 0)
        return -1;
    size_t es = lw_io_type_size(a->type);
    if (es == 1 || lw_io_host_le())
        return put(f, a->data, bytes, err, errlen);
    unsigned char tmp[1 << 16];
    const unsigned char *src = a->data;
    for (size_t off = 0; off < bytes; off += sizeof tmp) {
        size_t chunk = bytes - off < sizeof tmp ? bytes - off : sizeof tmp;
        lw_io_swap_copy(tmp, src + off, chunk / es, es);
        if (put(f, tmp, chunk, err, errlen) != 0)
            return -1;
    }
    return 0;
}
