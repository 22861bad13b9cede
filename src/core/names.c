/* Names of the enums, for command lines, records and messages. */
#include "lw_internal.h"
#include "wavelet_list.h"

#include <string.h>

#define WAVELET_NAME(ID, name, ...) name,
static const char *const wavelet_names[] = {LW_WAVELET_LIST(WAVELET_NAME)};
static const char *const mode_names[] = {"symmetric", "periodic"};
static const char *const layout_names[] = {"mallat", "interleaved"};
static const char *const dtype_names[] = {"float32", "float64", "int32", "float16", "bfloat16"};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *name_of(const char *const *names, int n, int v)
{
    return (v >= 0 && v < n) ? names[v] : "?";
}

static int index_of(const char *const *names, int n, const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

const char *lw_wavelet_name(lw_wavelet w) { return name_of(wavelet_names, COUNT(wavelet_names), (int)w); }
const char *lw_mode_name(lw_mode m) { return name_of(mode_names, COUNT(mode_names), (int)m); }
const char *lw_layout_name(lw_layout l) { return name_of(layout_names, COUNT(layout_names), (int)l); }
const char *lw_dtype_name(lw_dtype t) { return name_of(dtype_names, COUNT(dtype_names), (int)t); }

size_t lw_dtype_size(lw_dtype t)
{
    switch (t) {
    case LW_FLOAT32: return 4;
    case LW_FLOAT64: return 8;
    case LW_INT32: return 4;
    case LW_FLOAT16:
    case LW_BFLOAT16: return 2;
    }
    return 0;
}

/* "a, b, c" of a name table */
static void join_names(const char *const *names, int n, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < n; i++) lw_appendf(buf, len, "%s%s", i ? ", " : "", names[i]);
}

#define PARSER(fn, type, table, what)                                                        \
    lw_status fn(const char *name, type *out)                                                \
    {                                                                                        \
        int i = index_of(table, COUNT(table), name);                                         \
        if (i < 0 || !out) {                                                                 \
            char names_[160];                                                                \
            join_names(table, COUNT(table), names_, sizeof names_);                          \
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown " what " '%.64s' (%s)",         \
                           name ? name : "(null)", names_);                                  \
        }                                                                                    \
        *out = (type)i;                                                                      \
        return LW_OK;                                                                        \
    }

PARSER(lw_wavelet_parse, lw_wavelet, wavelet_names, "wavelet")
PARSER(lw_mode_parse, lw_mode, mode_names, "boundary mode")
PARSER(lw_layout_parse, lw_layout, layout_names, "layout")

