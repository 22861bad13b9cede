/* .raw: bare C-order samples in host byte order, with the shape and element
 * type given by the caller (--shape, --dtype).  The file size must match. */
#include "lw_io.h"

#include <string.h>

static int read_mem(const unsigned char *buf, size_t len, const lw_raw_spec *spec, lw_array *out, char *err,
                    size_t errlen)
{
    if (!out)
        return lw_io_fail(err, errlen, "no output array");
    memset(out, 0, sizeof *out);
    if (!spec || spec->rank == 0 || !spec->have_type)
        return lw_io_fail(err, errlen, "raw data needs a shape and a dtype (--shape, --dtype)");
    if (spec->rank < 1 || spec->rank > LW_IO_MAX_RANK)
        return lw_io_fail(err, errlen, "raw shape has %d axes (1 to %d supported)", spec->rank, LW_IO_MAX_RANK);
    if (lw_io_type_size(spec->type) == 0)
        return lw_io_fail(err, errlen, "raw dtype %d is unknown", (int)spec->type);
    out->rank = spec->rank;
    out->type = spec->type;
    memcpy(out->shape, spec->shape, sizeof(int64_t) * (size_t)spec->rank);
    char st[96];
    lw_io_shape_text(out->rank, out->shape, st, sizeof st);
    for (int i = 0; i < out->rank; i++) {
        if (out->shape[i] < 1)
            return lw_io_fail(err, errlen, "raw shape %s has an empty or negative axis", st);
    }
    size_t bytes;
    if (lw_array_count(out, NULL, &bytes) != 0)
        return lw_io_fail(err, errlen, "raw shape %s of %s is too large (byte count overflows)", st,
                          lw_io_type_name(out->type));
    if (!buf || len == 0)
        return lw_io_fail(err, errlen, "empty file");
    if (len != bytes)
        return lw_io_fail(err, errlen, "wrong size: shape %s of %s needs %llu bytes, file has %llu", st,
                          lw_io_type_name(out->type), (unsigned long long)bytes, (unsigned long long)len);
    if (lw_array_alloc(out, err, errlen) != 0)
        return -1;
    memcpy(out->data, buf, bytes);
    return 0;
}

int lw_raw_read_mem(const unsigned char *buf, size_t len, const lw_raw_spec *spec, lw_array *out, char *err,
                    size_t errlen)
{
    int rc = read_mem(buf, len, spec, out, err, errlen);
    if (rc != 0 && out) {
        lw_array_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

int lw_raw_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen)
{
    size_t bytes;
    if (lw_array_check(a, NULL, &bytes, err, errlen) != 0)
        return -1;
    if (fwrite(a->data, 1, bytes, f) != bytes)
        return lw_io_fail(err, errlen, "write failed");
    return 0;
}
