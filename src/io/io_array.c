/* lw_array helpers, element type names and sizes, shape parsing, format from
 * file extension, and the small utilities the format sources share. */
#include "lw_io.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int lw_io_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const struct {
    const char *name;
    size_t size;
} type_info[] = {
    [LW_IO_U8] = {"uint8", 1},    [LW_IO_U16] = {"uint16", 2}, [LW_IO_I16] = {"int16", 2},
    [LW_IO_I32] = {"int32", 4},   [LW_IO_F32] = {"float32", 4}, [LW_IO_F64] = {"float64", 8},
};
#define N_TYPES ((int)(sizeof type_info / sizeof type_info[0]))

static int type_valid(lw_io_type t) { return (int)t >= 0 && (int)t < N_TYPES; }

size_t lw_io_type_size(lw_io_type t) { return type_valid(t) ? type_info[t].size : 0; }

const char *lw_io_type_name(lw_io_type t) { return type_valid(t) ? type_info[t].name : "unknown"; }

static int lower(int c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

static int same_nocase(const char *a, const char *b)
{
    while (*a && *b && lower((unsigned char)*a) == lower((unsigned char)*b)) {
        a++;
        b++;
    }
    return *a == 0 && *b == 0;
}

int lw_io_type_parse(const char *name, lw_io_type *t)
{
    static const struct {
        const char *name;
        lw_io_type type;
    } alias[] = {
        {"uint8", LW_IO_U8},     {"u8", LW_IO_U8},        {"uint16", LW_IO_U16}, {"u16", LW_IO_U16},
        {"int16", LW_IO_I16},    {"i16", LW_IO_I16},      {"int32", LW_IO_I32},  {"i32", LW_IO_I32},
        {"float32", LW_IO_F32},  {"f32", LW_IO_F32},      {"float", LW_IO_F32},  {"float64", LW_IO_F64},
        {"f64", LW_IO_F64},      {"double", LW_IO_F64},
    };
    if (!name || !t)
        return -1;
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++) {
        if (same_nocase(name, alias[i].name)) {
            *t = alias[i].type;
            return 0;
        }
    }
    return -1;
}

int lw_io_shape_parse(const char *text, lw_raw_spec *spec)
{
    if (!text || !spec)
        return -1;
    int rank = 0;
    int64_t shape[LW_IO_MAX_RANK];
    const char *p = text;
    for (;;) {
        if (*p < '0' || *p > '9')
            return -1;
        int64_t v = 0;
        while (*p >= '0' && *p <= '9') {
            int d = *p - '0';
            if (v > (INT64_MAX - d) / 10)
                return -1;
            v = v * 10 + d;
            p++;
        }
        if (v < 1 || rank == LW_IO_MAX_RANK)
            return -1;
        shape[rank++] = v;
        if (*p == 0)
            break;
        if (*p != 'x' && *p != 'X' && *p != ',')
            return -1;
        p++;
    }
    /* The whole shape must have a byte count that fits (for the largest type). */
    lw_array tmp = {.rank = rank, .type = LW_IO_F64};
    memcpy(tmp.shape, shape, sizeof(int64_t) * (size_t)rank);
    int64_t count;
    size_t bytes;
    if (lw_array_count(&tmp, &count, &bytes) != 0)
        return -1;
    spec->rank = rank;
    for (int i = 0; i < LW_IO_MAX_RANK; i++)
        spec->shape[i] = i < rank ? shape[i] : 0;
    return 0;
}

int lw_array_count(const lw_array *a, int64_t *count, size_t *bytes)
{
    if (!a || a->rank < 1 || a->rank > LW_IO_MAX_RANK || !type_valid(a->type))
        return -1;
    int64_t n = 1;
    for (int i = 0; i < a->rank; i++) {
        int64_t s = a->shape[i];
        if (s < 0)
            return -1;
        if (s != 0 && n > INT64_MAX / s)
            return -1;
        n *= s;
    }
    uint64_t es = type_info[a->type].size;
    if ((uint64_t)n > UINT64_MAX / es)
        return -1;
    uint64_t b = (uint64_t)n * es;
    if (b > (uint64_t)INT64_MAX || b > (uint64_t)SIZE_MAX)
        return -1;
    if (count)
        *count = n;
    if (bytes)
        *bytes = (size_t)b;
    return 0;
}

void lw_io_shape_text(int rank, const int64_t *shape, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    buf[0] = 0;
    size_t used = 0;
    for (int i = 0; i < rank && i < LW_IO_MAX_RANK; i++) {
        int w = snprintf(buf + used, len - used, i ? "x%lld" : "%lld", (long long)shape[i]);
        if (w < 0 || (size_t)w >= len - used)
            return;
        used += (size_t)w;
    }
}

static int check_shape(const lw_array *a, int64_t *count, size_t *bytes, char *err, size_t errlen)
{
    if (!a)
        return lw_io_fail(err, errlen, "no array");
    if (!type_valid(a->type))
        return lw_io_fail(err, errlen, "unknown element type %d", (int)a->type);
    if (a->rank < 1 || a->rank > LW_IO_MAX_RANK)
        return lw_io_fail(err, errlen, "rank %d arrays are not supported (1 to %d axes)", a->rank,
                          LW_IO_MAX_RANK);
    char st[96];
    lw_io_shape_text(a->rank, a->shape, st, sizeof st);
    for (int i = 0; i < a->rank; i++) {
        if (a->shape[i] < 1)
            return lw_io_fail(err, errlen, "shape %s has an empty or negative axis", st);
    }
    if (lw_array_count(a, count, bytes) != 0)
        return lw_io_fail(err, errlen, "shape %s of %s is too large (byte count overflows)", st,
                          lw_io_type_name(a->type));
    return 0;
}

int lw_array_check(const lw_array *a, int64_t *count, size_t *bytes, char *err, size_t errlen)
{
    if (check_shape(a, count, bytes, err, errlen) != 0)
        return -1;
    if (!a->data)
        return lw_io_fail(err, errlen, "array has no data");
    return 0;
}

int lw_array_alloc(lw_array *a, char *err, size_t errlen)
{
    size_t bytes;
    if (!a)
        return lw_io_fail(err, errlen, "no array");
    a->data = NULL;
    if (check_shape(a, NULL, &bytes, err, errlen) != 0)
        return -1;
    a->data = malloc(bytes ? bytes : 1);
    if (!a->data) {
        char st[96];
        lw_io_shape_text(a->rank, a->shape, st, sizeof st);
        return lw_io_fail(err, errlen, "out of memory: %llu bytes for a %s %s array",
                          (unsigned long long)bytes, st, lw_io_type_name(a->type));
    }
    return 0;
}

void lw_array_free(lw_array *a)
{
    if (!a)
        return;
    free(a->data);
    a->data = NULL;
    a->rank = 0;
}

lw_io_format lw_io_format_of(const char *path)
{
    if (!path)
        return LW_FMT_UNKNOWN;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return LW_FMT_UNKNOWN;
    const char *ext = dot + 1;
    if (same_nocase(ext, "npy"))
        return LW_FMT_NPY;
    if (same_nocase(ext, "pgm") || same_nocase(ext, "ppm") || same_nocase(ext, "pnm"))
        return LW_FMT_PNM;
    if (same_nocase(ext, "png"))
        return LW_FMT_PNG;
    if (same_nocase(ext, "raw"))
        return LW_FMT_RAW;
    return LW_FMT_UNKNOWN;
}

int lw_io_check_writable(lw_io_format fmt, const lw_array *a, char *err, size_t errlen)
{
    if (lw_array_check(a, NULL, NULL, err, errlen) != 0)
        return -1;
    switch (fmt) {
    case LW_FMT_NPY:
    case LW_FMT_RAW:
        return 0;
    case LW_FMT_PNM:
        return lw_pnm_check_writable(a, err, errlen);
    case LW_FMT_PNG:
        return lw_png_check_writable(a, err, errlen);
    default:
        return lw_io_fail(err, errlen, "unknown file format (use .npy, .pgm, .ppm, .pnm, .png or .raw)");
    }
}

int lw_io_host_le(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

void lw_io_swap_copy(void *dst, const void *src, size_t n, size_t elsize)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    unsigned char t[8];
    if (elsize < 2 || elsize > 8) {
        if (dst != src)
            memmove(dst, src, n * elsize);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < elsize; k++)
            t[k] = s[i * elsize + elsize - 1 - k];
        memcpy(d + i * elsize, t, elsize);
    }
}
