/* Option parsing, error reporting, file checks and dtype conversion shared by
 * the liftwave subcommands. */
#define _POSIX_C_SOURCE 200809L
#include "cli_common.h"

#include "lw_stream.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- errors -------------------------------------------------------------- */

/* "liftwave: <kind><message>" on stderr, always one line: any newline the
 * message carries is folded. */
static void print_line(const char *kind, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    fprintf(stderr, "liftwave: %s%s\n", kind, msg);
    fflush(stderr);
}

int lw_cli_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_line("", fmt, ap);
    va_end(ap);
    return status;
}

void lw_cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_line("warning: ", fmt, ap);
    va_end(ap);
}

const char *lw_cli_path(const char *path)
{
    static char bufs[4][LW_IO_PATH_BRIEF];
    static unsigned next;
    char *b = bufs[next++ % 4];
    return lw_io_path_brief(path, b, LW_IO_PATH_BRIEF);
}

int lw_cli_fail_lib(lw_status st)
{
    const char *e = lw_last_error();
    return lw_cli_fail(LW_EXIT_DATA, "%s", (e && e[0]) ? e : lw_status_string(st));
}

/* ---- option parsing ------------------------------------------------------ */

enum opt_id {
    OPT_WAVELET, OPT_LEVELS, OPT_MODE, OPT_LAYOUT, OPT_INTEGER, OPT_AXES, OPT_BACKEND,
    OPT_SCHEME, OPT_SHAPE, OPT_DTYPE, OPT_STRETCH, OPT_FORCE, OPT_OVERWRITE, OPT_VERBOSE, OPT_HELP,
    OPT_MEMORY_LIMIT, OPT_DEVICE_MEMORY_LIMIT, OPT_QUIET, OPT_PROGRESS_AFTER, OPT_PLANES
};

typedef struct opt_def {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 if none */
    int has_value;
    unsigned group;   /* LW_OPT_* bit, 0 = every command */
    enum opt_id id;
} opt_def;

static const opt_def opt_table[] = {
    {"wavelet", 'w', 1, LW_OPT_TRANSFORM, OPT_WAVELET},
    {"levels", 'l', 1, LW_OPT_TRANSFORM, OPT_LEVELS},
    {"mode", 'm', 1, LW_OPT_TRANSFORM, OPT_MODE},
    {"layout", 0, 1, LW_OPT_TRANSFORM, OPT_LAYOUT},
    {"integer", 0, 0, LW_OPT_TRANSFORM, OPT_INTEGER},
    {"axes", 0, 1, LW_OPT_TRANSFORM, OPT_AXES},
    {"backend", 'b', 1, LW_OPT_TRANSFORM, OPT_BACKEND},
    {"scheme", 0, 1, LW_OPT_TRANSFORM, OPT_SCHEME},
    {"shape", 0, 1, LW_OPT_RAW, OPT_SHAPE},
    {"dtype", 0, 1, LW_OPT_RAW, OPT_DTYPE},
    {"stretch", 0, 1, LW_OPT_VIEW, OPT_STRETCH},
    {"force", 0, 0, LW_OPT_TRANSFORM, OPT_FORCE},
    {"overwrite", 0, 0, LW_OPT_TRANSFORM, OPT_OVERWRITE},
    {"memory-limit", 0, 1, LW_OPT_TRANSFORM, OPT_MEMORY_LIMIT},
    {"device-memory-limit", 0, 1, LW_OPT_TRANSFORM, OPT_DEVICE_MEMORY_LIMIT},
    {"quiet", 'q', 0, LW_OPT_TRANSFORM, OPT_QUIET},
    {"progress-after", 0, 1, LW_OPT_TRANSFORM, OPT_PROGRESS_AFTER},
    {"planes", 0, 1, LW_OPT_TRANSFORM, OPT_PLANES},
    {"verbose", 'v', 0, 0, OPT_VERBOSE},
    {"help", 'h', 0, 0, OPT_HELP},
};
#define NOPTS ((int)(sizeof opt_table / sizeof opt_table[0]))

static int parse_int(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

static int parse_axes(const char *cmd, const char *text, lw_cli_opts *o)
{
    char buf[128];
    if (strlen(text) >= sizeof buf || !text[0])
        return lw_cli_fail(LW_EXIT_USAGE, "bad --axes '%s': write e.g. 0,1", text);
    strcpy(buf, text);
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long v;
        if (parse_int(tok, -LW_MAX_RANK, LW_MAX_RANK - 1, &v) != 0)
            return lw_cli_fail(LW_EXIT_USAGE, "bad --axes '%s': '%s' is not an axis in %d..%d", text, tok,
                               -LW_MAX_RANK, LW_MAX_RANK - 1);
        if (n == LW_MAX_AXES)
            return lw_cli_fail(LW_EXIT_USAGE, "bad --axes '%s': at most %d axes", text, LW_MAX_AXES);
        o->axes[n++] = (int)v;
    }
    if (n == 0 || text[strlen(text) - 1] == ',' || text[0] == ',' || strstr(text, ",,"))
        return lw_cli_fail(LW_EXIT_USAGE, "bad --axes '%s': write e.g. 0,1", text);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (o->axes[i] == o->axes[j])
                return lw_cli_fail(LW_EXIT_USAGE, "bad --axes '%s': axis %d is given twice", text, o->axes[i]);
    o->naxes = n;
    o->given |= LW_GIVEN_AXES;
    (void)cmd;
    return LW_EXIT_OK;
}

static int set_option(const char *cmd, const opt_def *d, const char *val, lw_cli_opts *o, int *help)
{
    long v;
    switch (d->id) {
    case OPT_WAVELET:
        if (lw_wavelet_parse(val, &o->wavelet) != LW_OK) return lw_cli_fail(LW_EXIT_USAGE, "%s", lw_last_error());
        o->given |= LW_GIVEN_WAVELET;
        break;
    case OPT_LEVELS:
        if (strcmp(val, "max") == 0)
            o->levels = LW_LEVELS_MAX;
        else if (parse_int(val, 0, 1000000, &v) == 0)
            o->levels = (int)v;
        else
            return lw_cli_fail(LW_EXIT_USAGE, "bad level count '%s': give a number >= 0 or 'max'", val);
        o->given |= LW_GIVEN_LEVELS;
        break;
    case OPT_MODE:
        if (lw_mode_parse(val, &o->mode) != LW_OK)
            return lw_cli_fail(LW_EXIT_USAGE, "unknown boundary mode '%s' (choose symmetric, periodic)", val);
        o->given |= LW_GIVEN_MODE;
        break;
    case OPT_LAYOUT:
        if (lw_layout_parse(val, &o->layout) != LW_OK)
            return lw_cli_fail(LW_EXIT_USAGE, "unknown layout '%s' (choose mallat, interleaved)", val);
        o->given |= LW_GIVEN_LAYOUT;
        break;
    case OPT_INTEGER:
        o->integer = 1;
        o->given |= LW_GIVEN_INTEGER;
        break;
    case OPT_FORCE: o->force = 1; break;
    case OPT_OVERWRITE: o->overwrite = 1; break;
    case OPT_AXES: return parse_axes(cmd, val, o);
    case OPT_BACKEND:
        if (lw_backend_parse(val, &o->backend) != LW_OK)
            return lw_cli_fail(LW_EXIT_USAGE, "unknown backend '%s' (choose auto, cpu, cuda, cpu-ref)", val);
        break;
    case OPT_SCHEME:
        if (!val[0]) return lw_cli_fail(LW_EXIT_USAGE, "empty --scheme name");
        o->scheme = val;
        break;
    case OPT_SHAPE: {
        lw_raw_spec tmp;
        memset(&tmp, 0, sizeof tmp);
        if (lw_io_shape_parse(val, &tmp) != 0 || tmp.rank < 1)
            return lw_cli_fail(LW_EXIT_USAGE, "bad --shape '%s': write e.g. 512x512 (at most %d axes, each >= 1)",
                               val, LW_IO_MAX_RANK);
        o->raw.rank = tmp.rank;
        memcpy(o->raw.shape, tmp.shape, sizeof tmp.shape);
        o->have_shape = 1;
        break;
    }
    case OPT_DTYPE:
        if (lw_io_type_parse(val, &o->raw.type) != 0)
            return lw_cli_fail(LW_EXIT_USAGE,
                               "unknown --dtype '%s' (choose uint8, uint16, int16, int32, float32, float64)", val);
        o->raw.have_type = 1;
        o->have_dtype = 1;
        break;
    case OPT_STRETCH:
        if (strcmp(val, "robust") == 0)
            o->stretch = LW_STRETCH_ROBUST;
        else if (strcmp(val, "minmax") == 0)
            o->stretch = LW_STRETCH_MINMAX;
        else
            return lw_cli_fail(LW_EXIT_USAGE, "unknown --stretch '%s' (choose robust, minmax)", val);
        break;
    case OPT_MEMORY_LIMIT:
        if (lw_stream_parse_size(val, &o->memory_limit) != 0)
            return lw_cli_fail(LW_EXIT_USAGE, "bad --memory-limit '%s': write bytes or e.g. 256M, 2G", val);
        break;
    case OPT_DEVICE_MEMORY_LIMIT:
        if (lw_stream_parse_size(val, &o->device_memory_limit) != 0)
            return lw_cli_fail(LW_EXIT_USAGE, "bad --device-memory-limit '%s': write bytes or e.g. 256M, 2G", val);
        break;
    case OPT_QUIET: o->quiet = 1; break;
    case OPT_PROGRESS_AFTER: {
        char *end;
        errno = 0;
        double v = strtod(val, &end);
        if (!val[0] || *end || errno || !(v >= 0 && v <= 86400))
            return lw_cli_fail(LW_EXIT_USAGE, "bad --progress-after '%s': write seconds, 0 to 86400", val);
        o->progress_after = v;
        break;
    }
    case OPT_PLANES:
        if (strcmp(val, "luma") == 0)
            o->all_planes = 0;
        else if (strcmp(val, "all") == 0)
            o->all_planes = 1;
        else
            return lw_cli_fail(LW_EXIT_USAGE, "unknown --planes '%s' (choose luma, all)", val);
        o->given_planes = 1;
        break;
    case OPT_VERBOSE: o->verbose = 1; break;
    case OPT_HELP: *help = 1; break;
    }
    return LW_EXIT_OK;
}

static const opt_def *find_long(const char *name, size_t len)
{
    for (int i = 0; i < NOPTS; i++)
        if (strlen(opt_table[i].name) == len && strncmp(opt_table[i].name, name, len) == 0) return &opt_table[i];
    return NULL;
}

static const opt_def *find_short(char c)
{
    for (int i = 0; i < NOPTS; i++)
        if (opt_table[i].short_name == c) return &opt_table[i];
    return NULL;
}

static void opts_init(lw_cli_opts *o)
{
    memset(o, 0, sizeof *o);
    o->wavelet = LW_CDF97;
    o->mode = LW_SYMMETRIC;
    o->layout = LW_MALLAT;
    o->levels = 1;
    o->backend = LW_BACKEND_AUTO;
    o->stretch = LW_STRETCH_ROBUST;
    o->progress_after = 1.0;
}

int lw_cli_parse(int argc, char **argv, unsigned accept, int npos, const char *usage, lw_cli_opts *o)
{
    const char *cmd = argc > 0 ? argv[0] : "?";
    int help = 0, only_pos = 0;
    opts_init(o);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (o->npos == LW_CLI_MAX_POS || o->npos >= npos)
                return lw_cli_fail(LW_EXIT_USAGE, "unexpected argument '%s' (try 'liftwave %s --help')", arg, cmd);
            o->pos[o->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        const opt_def *d;
        const char *val = NULL;
        if (arg[1] == '-') {
            const char *name = arg + 2, *eq = strchr(name, '=');
            d = find_long(name, eq ? (size_t)(eq - name) : strlen(name));
            if (!d) return lw_cli_fail(LW_EXIT_USAGE, "unknown option '%s' (try 'liftwave %s --help')", arg, cmd);
            if (eq) {
                if (!d->has_value) return lw_cli_fail(LW_EXIT_USAGE, "option --%s takes no value", d->name);
                val = eq + 1;
            }
        } else {
            d = find_short(arg[1]);
            if (!d || (!d->has_value && arg[2] != '\0'))
                return lw_cli_fail(LW_EXIT_USAGE, "unknown option '%s' (try 'liftwave %s --help')", arg, cmd);
            if (arg[2] != '\0') val = arg + 2;
        }
        if (d->group && !(d->group & accept))
            return lw_cli_fail(LW_EXIT_USAGE, "option --%s does not apply to '%s' (try 'liftwave %s --help')",
                               d->name, cmd, cmd);
        if (d->has_value && !val) {
            if (i + 1 >= argc) return lw_cli_fail(LW_EXIT_USAGE, "option --%s needs a value", d->name);
            val = argv[++i];
        }
        int rc = set_option(cmd, d, val ? val : "", o, &help);
        if (rc != LW_EXIT_OK) return rc;
    }
    if (help) {
        lw_cli_print_usage(usage);
        return LW_EXIT_HELP;
    }
    if (o->npos < npos)
        return lw_cli_fail(LW_EXIT_USAGE, "'%s' needs %d file argument%s, got %d (try 'liftwave %s --help')", cmd,
                           npos, npos == 1 ? "" : "s", o->npos, cmd);
    return LW_EXIT_OK;
}

/* ---- file checks --------------------------------------------------------- */

int lw_cli_is_image_path(const char *path)
{
    lw_io_format f = lw_io_format_of(path);
    return f == LW_FMT_PNM || f == LW_FMT_PNG;
}

int lw_cli_check_input(const char *path, const lw_cli_opts *o)
{
    lw_io_format f = lw_io_format_of(path);
    if (f == LW_FMT_UNKNOWN)
        return lw_cli_fail(LW_EXIT_USAGE,
                           "cannot tell the format of '%s' from its extension (use .npy, .pgm, .ppm, .pnm, .png or .raw)",
                           lw_cli_path(path));
    if (f == LW_FMT_RAW && (!o->have_shape || !o->have_dtype))
        return lw_cli_fail(LW_EXIT_USAGE, "reading '%s' needs --shape and --dtype", lw_cli_path(path));
    if (f != LW_FMT_RAW && (o->have_shape || o->have_dtype))
        return lw_cli_fail(LW_EXIT_USAGE, "--shape and --dtype apply only to .raw input, not '%s'",
                           lw_cli_path(path));
    if (f == LW_FMT_PNG && !lw_io_have_png())
        return lw_cli_fail(LW_EXIT_DATA, "cannot read '%s': this liftwave was built without PNG support",
                           lw_cli_path(path));
    char err[512] = "";
    if (lw_io_check_readable(path, err, sizeof err) != 0) return lw_cli_fail(LW_EXIT_DATA, "%s", err);
    return LW_EXIT_OK;
}

int lw_cli_check_output(const char *path, int image_only)
{
    lw_io_format f = lw_io_format_of(path);
    const char *p = lw_cli_path(path);
    if (image_only && f != LW_FMT_PNG && f != LW_FMT_PNM)
        return lw_cli_fail(LW_EXIT_USAGE, "cannot tell an image format from '%s' (use .png, .pgm or .ppm)", p);
    if (f == LW_FMT_UNKNOWN)
        return lw_cli_fail(LW_EXIT_USAGE,
                           "cannot tell the format of '%s' from its extension (use .npy, .pgm, .ppm, .pnm, .png or .raw)",
                           p);
    if (f == LW_FMT_PNG && !lw_io_have_png())
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': this liftwave was built without PNG support", p);

    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': it is a directory", p);
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        strcpy(dir, ".");
    } else {
        size_t n = slash == path ? 1 : (size_t)(slash - path);
        if (n >= sizeof dir) return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': path too long", p);
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT)
            return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': directory '%s' does not exist", p,
                               lw_cli_path(dir));
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': directory '%s': %s", p, lw_cli_path(dir),
                           strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': '%s' is not a directory", p, lw_cli_path(dir));
    return LW_EXIT_OK;
}

/* Print an I/O error, naming the file unless the message already does. */
static int io_fail(const char *verb, const char *path, const char *err)
{
    const char *p = lw_cli_path(path);
    if (!err[0]) return lw_cli_fail(LW_EXIT_DATA, "cannot %s '%s'", verb, p);
    if (strstr(err, p)) return lw_cli_fail(LW_EXIT_DATA, "%s", err);
    return lw_cli_fail(LW_EXIT_DATA, "%s: %s", p, err);
}

int lw_cli_read(const char *path, const lw_cli_opts *o, lw_array *a)
{
    char err[512] = "";
    memset(a, 0, sizeof *a);
    const lw_raw_spec *spec = lw_io_format_of(path) == LW_FMT_RAW ? &o->raw : NULL;
    if (lw_io_read(path, spec, a, err, sizeof err) != 0) {
        lw_array_free(a);
        return io_fail("read", path, err);
    }
    return LW_EXIT_OK;
}

int lw_cli_write(const char *path, const lw_array *a)
{
    char err[512] = "";
    if (lw_io_write(path, a, err, sizeof err) != 0) return io_fail("write", path, err);
    return LW_EXIT_OK;
}

/* ---- arrays and conversion ----------------------------------------------- */

int64_t lw_cli_count(const lw_array *a)
{
    int64_t n = 1;
    for (int i = 0; i < a->rank; i++) n *= a->shape[i];
    return n;
}

void lw_cli_shape_string(const lw_array *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->rank && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%lld", i ? "x" : "", (long long)a->shape[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

lw_io_type lw_cli_io_type(lw_dtype t)
{
    switch (t) {
    case LW_FLOAT32: return LW_IO_F32;
    case LW_FLOAT64: return LW_IO_F64;
    case LW_INT32: return LW_IO_I32;
    case LW_FLOAT16:
    case LW_BFLOAT16: return LW_IO_F32; /* no half file type: widened exactly */
    }
    return LW_IO_F64;
}

double lw_cli_get(const lw_array *a, int64_t i)
{
    switch (a->type) {
    case LW_IO_U8: return ((const uint8_t *)a->data)[i];
    case LW_IO_U16: return ((const uint16_t *)a->data)[i];
    case LW_IO_I16: return ((const int16_t *)a->data)[i];
    case LW_IO_I32: return ((const int32_t *)a->data)[i];
    case LW_IO_F32: return ((const float *)a->data)[i];
    case LW_IO_F64: return ((const double *)a->data)[i];
    }
    return 0.0;
}

/* Copy-convert src's elements into dst (already allocated) of a wider type. */
#define CONVERT_LOOP(DT, ST)                                                   \
    do {                                                                       \
        const ST *s_ = (const ST *)src->data;                                  \
        DT *d_ = (DT *)dst->data;                                              \
        for (int64_t i_ = 0; i_ < n; i_++) d_[i_] = (DT)s_[i_];                \
    } while (0)

#define CONVERT_TO(DT)                                                         \
    do {                                                                       \
        switch (src->type) {                                                   \
        case LW_IO_U8: CONVERT_LOOP(DT, uint8_t); break;                       \
        case LW_IO_U16: CONVERT_LOOP(DT, uint16_t); break;                     \
        case LW_IO_I16: CONVERT_LOOP(DT, int16_t); break;                      \
        case LW_IO_I32: CONVERT_LOOP(DT, int32_t); break;                      \
        case LW_IO_F32: CONVERT_LOOP(DT, float); break;                        \
        case LW_IO_F64: CONVERT_LOOP(DT, double); break;                       \
        }                                                                      \
    } while (0)

static void convert(const lw_array *src, lw_array *dst)
{
    int64_t n = lw_cli_count(src);
    switch (dst->type) {
    case LW_IO_I32: CONVERT_TO(int32_t); break;
    case LW_IO_F32: CONVERT_TO(float); break;
    case LW_IO_F64: CONVERT_TO(double); break;
    default: break; /* not used as a target */
    }
}

int lw_cli_work_dtype(lw_io_type t, int integer, lw_dtype *dt)
{
    if (integer) {
        if (t == LW_IO_F32 || t == LW_IO_F64)
            return lw_cli_fail(LW_EXIT_DATA, "--integer needs integer input data (this input is %s)",
                               lw_io_type_name(t));
        *dt = LW_INT32;
    } else if (t == LW_IO_F64 || t == LW_IO_I32) {
        *dt = LW_FLOAT64;
    } else {
        *dt = LW_FLOAT32;
    }
    return LW_EXIT_OK;
}

int lw_cli_to_work_type(lw_array *a, int integer, lw_dtype *dt)
{
    int rc = lw_cli_work_dtype(a->type, integer, dt);
    if (rc != LW_EXIT_OK) return rc;
    lw_io_type want = lw_cli_io_type(*dt);
    if (a->type == want) return LW_EXIT_OK;

    lw_array w = *a;
    char err[256] = "";
    w.type = want;
    w.data = NULL;
    if (lw_array_alloc(&w, err, sizeof err) != 0)
        return lw_cli_fail(LW_EXIT_DATA, "%s", err[0] ? err : "out of memory");
    convert(a, &w);
    lw_array_free(a);
    *a = w;
    return LW_EXIT_OK;
}

int lw_cli_to_image(const lw_array *src, lw_array *dst)
{
    int64_t n = lw_cli_count(src);
    double lo = INFINITY, hi = -INFINITY;
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = lw_cli_get(src, i);
        if (isnan(v)) {
            bad = 1;
            continue;
        }
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (n == 0) lo = hi = 0;
    double rlo = round(lo), rhi = round(hi);
    if (bad || rlo < 0 || rhi > 65535) {
        if (bad)
            return lw_cli_fail(LW_EXIT_DATA,
                               "values do not fit an image (NaN among them); write .npy or use 'liftwave view'");
        return lw_cli_fail(LW_EXIT_DATA,
                           "values do not fit an image (min %.6g .. max %.6g); write .npy or use 'liftwave view'", lo,
                           hi);
    }
    *dst = *src;
    dst->data = NULL;
    dst->type = rhi <= 255 ? LW_IO_U8 : LW_IO_U16;
    char err[256] = "";
    if (lw_array_alloc(dst, err, sizeof err) != 0)
        return lw_cli_fail(LW_EXIT_DATA, "%s", err[0] ? err : "out of memory");
    if (dst->type == LW_IO_U8) {
        uint8_t *d = dst->data;
        for (int64_t i = 0; i < n; i++) d[i] = (uint8_t)round(lw_cli_get(src, i));
    } else {
        uint16_t *d = dst->data;
        for (int64_t i = 0; i < n; i++) d[i] = (uint16_t)round(lw_cli_get(src, i));
    }
    return LW_EXIT_OK;
}

double lw_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void lw_cli_print_usage(const char *text)
{
    char waves[256] = "", ints[256] = "", backs[128] = "";
    for (int w = 0; w < LW_WAVELET_COUNT; w++) {
        const char *n = lw_wavelet_name((lw_wavelet)w);
        snprintf(waves + strlen(waves), sizeof waves - strlen(waves), "%s%s", w ? ", " : "", n);
        if (lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER)
            snprintf(ints + strlen(ints), sizeof ints - strlen(ints), "%s%s", ints[0] ? ", " : "", n);
    }
    for (int b = 0; b < LW_BACKEND_COUNT; b++)
        snprintf(backs + strlen(backs), sizeof backs - strlen(backs), "%s%s", b ? ", " : "",
                 lw_backend_name((lw_backend)b));
    static const char *const keys[3] = {"{wavelets}", "{integer_wavelets}", "{backends}"};
    const char *vals[3] = {waves, ints, backs};
    for (const char *p = text; *p;) {
        int hit = -1;
        for (int i = 0; i < 3 && hit < 0; i++)
            if (strncmp(p, keys[i], strlen(keys[i])) == 0) hit = i;
        if (hit >= 0) {
            fputs(vals[hit], stdout);
            p += strlen(keys[hit]);
        } else {
            fputc(*p++, stdout);
        }
    }
    fflush(stdout);
}

static int engine_of(lw_backend b, const char *name)
{
    for (int i = 0; i < lw_engine_count(b); i++)
        if (!strcmp(name, lw_engine_name(b, i, NULL))) return 1;
    return 0;
}

unsigned lw_cli_scheme_where(const char *name)
{
    if (!name || !strcmp(name, "auto")) return LW_CLI_ON_CPU | LW_CLI_ON_CUDA;
    unsigned w = engine_of(LW_BACKEND_CPU, name) ? LW_CLI_ON_CPU : 0u;
    if (engine_of(LW_BACKEND_CUDA, name)) w |= LW_CLI_ON_CUDA;
    for (int i = 0; i < lw_scheme_count(); i++)
        if (!strcmp(name, lw_scheme_name(i))) w |= LW_CLI_ON_CUDA;
    return w;
}
