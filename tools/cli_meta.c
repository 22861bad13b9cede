/* The JSON sidecar of a coefficient file: checksum, writing, reading (the
 * format is described in cli_meta.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_meta.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define META_FORMAT "liftwave-coefficients"
#define META_VERSION 1
#define META_MAX_BYTES 65536

/* ---- checksum ----------------------------------------------------------- */

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* Four independent multiply-rotate lanes over 8-byte words (fast enough to
 * be negligible next to the file I/O), then the tail bytes and the length.
 * Incremental (lw_cli_checksum_add) so that a file can be summed in parts. */
void lw_cli_checksum_init(lw_cli_checksum_state *s)
{
    memset(s, 0, sizeof *s);
    for (int l = 0; l < 4; l++) s->h[l] = (uint64_t)l + 1;
}

static void add_block(lw_cli_checksum_state *s, const unsigned char *p)
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    for (int l = 0; l < 4; l++) {
        uint64_t w;
        memcpy(&w, p + 8 * l, 8);
        s->h[l] = rotl64((s->h[l] ^ w) * k, 31);
    }
}

void lw_cli_checksum_add(lw_cli_checksum_state *s, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    s->total += bytes;
    while (bytes > 0 && s->npend > 0) {
        s->pend[s->npend++] = *p++;
        bytes--;
        if (s->npend == 32) {
            add_block(s, s->pend);
            s->npend = 0;
        }
    }
    for (; bytes >= 32; bytes -= 32, p += 32) add_block(s, p);
    while (bytes > 0) {
        s->pend[s->npend++] = *p++;
        bytes--;
    }
}

uint64_t lw_cli_checksum_end(const lw_cli_checksum_state *s)
{
    uint64_t t = 0;
    for (int i = 0; i < s->npend; i++) t = (t ^ s->pend[i]) * 0x100000001b3ULL;
    const uint64_t *h = s->h;
    uint64_t r = mix64(h[0]) ^ rotl64(mix64(h[1]), 16) ^ rotl64(mix64(h[2]), 32) ^ rotl64(mix64(h[3]), 48);
    return mix64(r ^ mix64(t) ^ (uint64_t)s->total);
}

uint64_t lw_cli_checksum(const void *data, size_t bytes)
{
    lw_cli_checksum_state s;
    lw_cli_checksum_init(&s);
    lw_cli_checksum_add(&s, data, bytes);
    return lw_cli_checksum_end(&s);
}

/* ---- paths ---------------------------------------------------------------- */

int lw_cli_meta_path(const char *data_path, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s.json", data_path);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int lw_cli_meta_format(const char *data_path)
{
    lw_io_format f = lw_io_format_of(data_path);
    return f == LW_FMT_NPY || f == LW_FMT_RAW;
}

void lw_cli_axes_text(int naxes, const int *axes, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < naxes && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%d", i ? "," : "", axes[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

/* ---- writing ---------------------------------------------------------------- */

static void put_shape(FILE *f, const char *key, int rank, const int64_t *shape)
{
    fprintf(f, "  \"%s\": [", key);
    for (int i = 0; i < rank; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)shape[i]);
    fprintf(f, "],\n");
}

static void put_meta(FILE *f, const lw_cli_meta *m)
{
    int64_t axes[LW_MAX_AXES];
    for (int i = 0; i < m->naxes; i++) axes[i] = m->axes[i];
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"format_version\": %d,\n", META_FORMAT, META_VERSION);
    fprintf(f, "  \"library_version\": \"%s\",\n", m->library_version);
    fprintf(f, "  \"wavelet\": \"%s\",\n  \"levels\": %d,\n", lw_wavelet_name(m->wavelet), m->levels);
    fprintf(f, "  \"mode\": \"%s\",\n  \"layout\": \"%s\",\n", lw_mode_name(m->mode), lw_layout_name(m->layout));
    put_shape(f, "axes", m->naxes, axes);
    fprintf(f, "  \"integer\": %s,\n", m->integer ? "true" : "false");
    fprintf(f, "  \"source_dtype\": \"%s\",\n", lw_io_type_name(m->source_dtype));
    put_shape(f, "source_shape", m->source_rank, m->source_shape);
    fprintf(f, "  \"dtype\": \"%s\",\n", lw_io_type_name(m->dtype));
    put_shape(f, "shape", m->rank, m->shape);
    fprintf(f, "  \"checksum\": \"fold64:%016llx\"\n}\n", (unsigned long long)m->checksum);
}

int lw_cli_meta_stage(const char *data_path, const lw_cli_meta *m, char **tmp)
{
    char path[16400];
    *tmp = NULL;
    if (lw_cli_meta_path(data_path, path, sizeof path - 8) != 0)
        return lw_cli_fail(LW_EXIT_DATA, "cannot write the metadata of '%s': path too long", lw_cli_path(data_path));
    strcat(path, ".XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return lw_cli_fail(LW_EXIT_DATA, "cannot create '%s': %s", lw_cli_path(path), strerror(errno));
    mode_t mask = umask(022);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(path);
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': %s", lw_cli_path(path), strerror(errno));
    }
    put_meta(f, m);
    int bad = fflush(f) != 0 || ferror(f);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        unlink(path);
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': %s", lw_cli_path(path), strerror(errno));
    }
    *tmp = strdup(path);
    if (!*tmp) {
        unlink(path);
        return lw_cli_fail(LW_EXIT_DATA, "out of memory");
    }
    return LW_EXIT_OK;
}

int lw_cli_meta_commit(const char *data_path, char *tmp)
{
    char path[16400];
    int rc = LW_EXIT_OK;
    if (lw_cli_meta_path(data_path, path, sizeof path) != 0 || rename(tmp, path) != 0) {
        rc = lw_cli_fail(LW_EXIT_DATA, "cannot write the metadata '%s.json': %s", lw_cli_path(data_path),
                         strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

void lw_cli_meta_discard(char *tmp)
{
    if (tmp) unlink(tmp);
    free(tmp);
}

void lw_cli_meta_remove(const char *data_path)
{
    char path[16400];
    if (lw_cli_meta_path(data_path, path, sizeof path) != 0) return;
    if (unlink(path) != 0 && errno != ENOENT)
        lw_cli_warn("cannot remove the stale metadata '%s': %s", lw_cli_path(path), strerror(errno));
}

/* ---- reading: a flat JSON object -------------------------------------- */

typedef struct parser {
    const char *s;
    const char *err;
} parser;

static void skip_ws(parser *p)
{
    while (*p->s == ' ' || *p->s == '\n' || *p->s == '\r' || *p->s == '\t') p->s++;
}

static int expect(parser *p, char c)
{
    skip_ws(p);
    if (*p->s != c) {
        p->err = "malformed JSON";
        return -1;
    }
    p->s++;
    return 0;
}

/* A string without escapes other than \" and \\ (all this format needs). */
static int get_string(parser *p, char *buf, size_t len)
{
    if (expect(p, '"') != 0) return -1;
    size_t n = 0;
    while (*p->s && *p->s != '"') {
        char c = *p->s++;
        if (c == '\\') {
            c = *p->s++;
            if (c != '"' && c != '\\') return p->err = "unsupported escape in a string", -1;
        }
        if (n + 1 >= len) return p->err = "string too long", -1;
        buf[n++] = c;
    }
    if (*p->s != '"') return p->err = "unterminated string", -1;
    p->s++;
    buf[n] = '\0';
    return 0;
}

static int get_int(parser *p, int64_t *v)
{
    skip_ws(p);
    char *end;
    errno = 0;
    long long x = strtoll(p->s, &end, 10);
    if (end == p->s || errno) return p->err = "bad number", -1;
    p->s = end;
    *v = x;
    return 0;
}

static int get_int_list(parser *p, int64_t *v, int max, int *n)
{
    if (expect(p, '[') != 0) return -1;
    *n = 0;
    skip_ws(p);
    if (*p->s == ']') return p->s++, 0;
    for (;;) {
        if (*n == max) return p->err = "list too long", -1;
        if (get_int(p, &v[(*n)++]) != 0) return -1;
        skip_ws(p);
        if (*p->s == ']') return p->s++, 0;
        if (expect(p, ',') != 0) return -1;
    }
}

/* Skip a value of a key this version does not know (no nesting). */
static int skip_value(parser *p)
{
    char tmp[256];
    int64_t list[16];
    int n;
    skip_ws(p);
    if (*p->s == '"') return get_string(p, tmp, sizeof tmp);
    if (*p->s == '[') return get_int_list(p, list, 16, &n);
    if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4)) return p->s += 4, 0;
    if (!strncmp(p->s, "false", 5)) return p->s += 5, 0;
    int64_t v;
    return get_int(p, &v);
}

enum {
    K_FORMAT = 1 << 0, K_WAVELET = 1 << 1, K_LEVELS = 1 << 2, K_MODE = 1 << 3, K_LAYOUT = 1 << 4,
    K_AXES = 1 << 5, K_INTEGER = 1 << 6, K_DTYPE = 1 << 7, K_SHAPE = 1 << 8, K_CHECKSUM = 1 << 9,
    K_REQUIRED = (1 << 10) - 1
};

static int get_bool(parser *p, int *v)
{
    skip_ws(p);
    if (!strncmp(p->s, "true", 4)) return p->s += 4, *v = 1, 0;
    if (!strncmp(p->s, "false", 5)) return p->s += 5, *v = 0, 0;
    return p->err = "bad boolean", -1;
}

static int get_shape(parser *p, int *rank, int64_t *shape)
{
    if (get_int_list(p, shape, LW_IO_MAX_RANK, rank) != 0) return -1;
    for (int i = 0; i < *rank; i++)
        if (shape[i] < 1) return p->err = "bad shape", -1;
    return *rank >= 1 ? 0 : (p->err = "bad shape", -1);
}

/* One "key": value pair; *seen collects the K_* bits. */
static int get_pair(parser *p, lw_cli_meta *m, unsigned *seen)
{
    char key[64], text[64];
    if (get_string(p, key, sizeof key) != 0 || expect(p, ':') != 0) return -1;
    int64_t v, list[LW_IO_MAX_RANK];
    int n;
    if (!strcmp(key, "format")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        if (strcmp(text, META_FORMAT) != 0) return p->err = "not liftwave coefficient metadata", -1;
        *seen |= K_FORMAT;
    } else if (!strcmp(key, "format_version")) {
        if (get_int(p, &v) != 0) return -1;
        if (v != META_VERSION) return p->err = "unknown format_version (a newer liftwave wrote it)", -1;
    } else if (!strcmp(key, "library_version")) {
        if (get_string(p, m->library_version, sizeof m->library_version) != 0) return -1;
    } else if (!strcmp(key, "wavelet")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        if (lw_wavelet_parse(text, &m->wavelet) != LW_OK) return p->err = "unknown wavelet", -1;
        *seen |= K_WAVELET;
    } else if (!strcmp(key, "levels")) {
        if (get_int(p, &v) != 0) return -1;
        if (v < 0 || v > 64) return p->err = "bad levels", -1;
        m->levels = (int)v;
        *seen |= K_LEVELS;
    } else if (!strcmp(key, "mode")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        if (lw_mode_parse(text, &m->mode) != LW_OK) return p->err = "unknown mode", -1;
        *seen |= K_MODE;
    } else if (!strcmp(key, "layout")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        if (lw_layout_parse(text, &m->layout) != LW_OK) return p->err = "unknown layout", -1;
        *seen |= K_LAYOUT;
    } else if (!strcmp(key, "axes")) {
        if (get_int_list(p, list, LW_MAX_AXES, &n) != 0) return -1;
        if (n < 1) return p->err = "no axes", -1;
        for (int i = 0; i < n; i++) {
            if (list[i] < 0 || list[i] >= LW_MAX_RANK || (i && list[i] <= list[i - 1]))
                return p->err = "bad axes", -1;
            m->axes[i] = (int)list[i];
        }
        m->naxes = n;
        *seen |= K_AXES;
    } else if (!strcmp(key, "integer")) {
        if (get_bool(p, &m->integer) != 0) return -1;
        *seen |= K_INTEGER;
    } else if (!strcmp(key, "source_dtype") || !strcmp(key, "dtype")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        lw_io_type t;
        if (lw_io_type_parse(text, &t) != 0) return p->err = "unknown dtype", -1;
        if (key[0] == 'd') *seen |= K_DTYPE, m->dtype = t;
        else m->source_dtype = t;
    } else if (!strcmp(key, "shape")) {
        if (get_shape(p, &m->rank, m->shape) != 0) return -1;
        *seen |= K_SHAPE;
    } else if (!strcmp(key, "source_shape")) {
        if (get_shape(p, &m->source_rank, m->source_shape) != 0) return -1;
    } else if (!strcmp(key, "checksum")) {
        if (get_string(p, text, sizeof text) != 0) return -1;
        char *end;
        if (strncmp(text, "fold64:", 7) != 0 || strlen(text) != 23) return p->err = "bad checksum", -1;
        m->checksum = strtoull(text + 7, &end, 16);
        if (*end) return p->err = "bad checksum", -1;
        *seen |= K_CHECKSUM;
    } else {
        return skip_value(p);
    }
    return 0;
}

static int parse_meta(const char *text, lw_cli_meta *m, const char **err)
{
    parser p = {text, NULL};
    unsigned seen = 0;
    memset(m, 0, sizeof *m);
    if (expect(&p, '{') != 0) return *err = p.err, -1;
    skip_ws(&p);
    if (*p.s != '}')
        for (;;) {
            if (get_pair(&p, m, &seen) != 0) return *err = p.err, -1;
            skip_ws(&p);
            if (*p.s == '}') break;
            if (expect(&p, ',') != 0) return *err = p.err, -1;
        }
    p.s++;
    skip_ws(&p);
    if (*p.s) return *err = "text after the object", -1;
    if ((seen & K_REQUIRED) != K_REQUIRED) return *err = "a required key is missing", -1;
    for (int i = 0; i < m->naxes; i++)
        if (m->axes[i] >= m->rank) return *err = "an axis outside the shape", -1;
    return 0;
}

int lw_cli_meta_read(const char *data_path, lw_cli_meta *m, int *found)
{
    char path[16400];
    *found = 0;
    if (lw_cli_meta_path(data_path, path, sizeof path) != 0) return LW_EXIT_OK;
    struct stat st;
    if (stat(path, &st) != 0) return LW_EXIT_OK;
    *found = 1;
    if (!S_ISREG(st.st_mode) || st.st_size > META_MAX_BYTES)
        return lw_cli_fail(LW_EXIT_DATA, "'%s' is not a liftwave metadata file (remove it to go without)",
                           lw_cli_path(path));
    FILE *f = fopen(path, "rb");
    if (!f) return lw_cli_fail(LW_EXIT_DATA, "cannot read '%s': %s", lw_cli_path(path), strerror(errno));
    char *text = malloc((size_t)st.st_size + 1);
    size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!text) return lw_cli_fail(LW_EXIT_DATA, "out of memory");
    text[n] = '\0';
    const char *err = NULL;
    int bad = strlen(text) != n || parse_meta(text, m, &err) != 0;
    free(text);
    if (bad)
        return lw_cli_fail(LW_EXIT_DATA, "'%s': %s (remove it to go without the recorded parameters)",
                           lw_cli_path(path), err ? err : "not a text file");
    return LW_EXIT_OK;
}
