/* File I/O tests: array helpers, type and shape parsing, .npy and .raw round
 * trips and bad input, and the atomic-write guarantees of lw_io_write.
 * Usage: test_io [scratch-parent-dir] */
#include "io_test_util.h"

#include <signal.h>
#include <sys/resource.h>

static char err[512];

static void test_types(void)
{
    static const char *names[] = {"uint8", "uint16", "int16", "int32", "float32", "float64"};
    static const size_t sizes[] = {1, 2, 2, 4, 4, 8};
    for (int t = 0; t < 6; t++) {
        lw_io_type got;
        CHECK(lw_io_type_size((lw_io_type)t) == sizes[t], "size of %d", t);
        CHECK(strcmp(lw_io_type_name((lw_io_type)t), names[t]) == 0, "name of %d", t);
        CHECK(lw_io_type_parse(names[t], &got) == 0 && got == (lw_io_type)t, "parse %s", names[t]);
    }
    lw_io_type got;
    CHECK(lw_io_type_parse("F32", &got) == 0 && got == LW_IO_F32, "alias F32");
    CHECK(lw_io_type_parse("double", &got) == 0 && got == LW_IO_F64, "alias double");
    CHECK(lw_io_type_parse("complex64", &got) == -1, "unknown type");
    CHECK(lw_io_type_parse("", &got) == -1, "empty type");
    CHECK(lw_io_type_size((lw_io_type)17) == 0, "bad type size");
}

static void test_shapes(void)
{
    lw_raw_spec s;
    memset(&s, 0, sizeof s);
    CHECK(lw_io_shape_parse("512x512", &s) == 0 && s.rank == 2 && s.shape[0] == 512 && s.shape[1] == 512, "512x512");
    CHECK(lw_io_shape_parse("3,5", &s) == 0 && s.rank == 2 && s.shape[0] == 3 && s.shape[1] == 5, "3,5");
    CHECK(lw_io_shape_parse("4x512x512", &s) == 0 && s.rank == 3 && s.shape[0] == 4, "4x512x512");
    CHECK(lw_io_shape_parse("1X2x3,4", &s) == 0 && s.rank == 4 && s.shape[3] == 4, "rank 4");
    CHECK(lw_io_shape_parse("7", &s) == 0 && s.rank == 1 && s.shape[0] == 7, "rank 1");
    static const char *bad[] = {"",       "x",          "5x",          "x5",   "1x2x3x4x5", "0x5", "-1", "5x-3",
                                "5 x 3",  "3.5",        "abc",         "5xx5", "99999999999999999999",
                                "4294967296x4294967296", "1048576x1048576x1048576"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s.rank = 99;
        CHECK(lw_io_shape_parse(bad[i], &s) == -1 && s.rank == 99, "shape '%s' should fail", bad[i]);
    }
}

static void test_format_of(void)
{
    CHECK(lw_io_format_of("a.npy") == LW_FMT_NPY, "npy");
    CHECK(lw_io_format_of("dir.png/A.NPY") == LW_FMT_NPY, "NPY");
    CHECK(lw_io_format_of("x.pgm") == LW_FMT_PNM && lw_io_format_of("x.PPM") == LW_FMT_PNM &&
              lw_io_format_of("x.pnm") == LW_FMT_PNM,
          "pnm");
    CHECK(lw_io_format_of("x.png") == LW_FMT_PNG, "png");
    CHECK(lw_io_format_of("x.raw") == LW_FMT_RAW, "raw");
    CHECK(lw_io_format_of("x.tif") == LW_FMT_UNKNOWN && lw_io_format_of("npy") == LW_FMT_UNKNOWN &&
              lw_io_format_of("dir.npy/x") == LW_FMT_UNKNOWN && lw_io_format_of(".npy") == LW_FMT_UNKNOWN,
          "unknown");
}

static void test_count(void)
{
    lw_array a = {.rank = 2, .type = LW_IO_F64, .shape = {3, 5}};
    int64_t n;
    size_t b;
    CHECK(lw_array_count(&a, &n, &b) == 0 && n == 15 && b == 120, "3x5 f64");
    a.shape[0] = INT64_MAX;
    a.shape[1] = 2;
    CHECK(lw_array_count(&a, &n, &b) == -1, "INT64_MAX x 2");
    a.shape[0] = (int64_t)1 << 61;
    a.shape[1] = 1;
    CHECK(lw_array_count(&a, &n, &b) == -1, "2^61 float64 bytes overflow");
    a.type = LW_IO_U8;
    CHECK(lw_array_count(&a, &n, &b) == 0 && n == (int64_t)1 << 61, "2^61 bytes fits");
    a.shape[0] = 3037000500;
    a.shape[1] = 3037000500;
    CHECK(lw_array_count(&a, &n, &b) == -1, "count overflow");
    a.shape[1] = -1;
    CHECK(lw_array_count(&a, &n, &b) == -1, "negative axis");
    a.rank = 5;
    CHECK(lw_array_count(&a, &n, &b) == -1, "rank 5");
    a.rank = 0;
    CHECK(lw_array_count(&a, &n, &b) == -1, "rank 0");
    lw_array big = {.rank = 3, .type = LW_IO_F32, .shape = {1 << 30, 1 << 30, 1 << 30}};
    CHECK(lw_array_alloc(&big, err, sizeof err) == -1 && has(err, "too large") && big.data == NULL, "alloc: %s", err);
    lw_array_free(NULL);
}

/* ---- .npy ---------------------------------------------------------------- */

/* Build an .npy image: prefix for the version, the dict text padded, data. */
static size_t npy_bytes(unsigned char *out, size_t cap, int major, int minor, const char *dict, const void *data,
                        size_t dlen)
{
    size_t prefix = major == 1 ? 10 : 12, dl = strlen(dict);
    size_t total = (prefix + dl + 1 + 63) / 64 * 64;
    if (total + dlen > cap)
        abort();
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = (unsigned char)minor;
    size_t hlen = total - prefix;
    for (size_t i = 0; i < prefix - 8; i++)
        out[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(out + prefix, dict, dl);
    memset(out + prefix + dl, ' ', total - prefix - dl - 1);
    out[total - 1] = '\n';
    if (dlen)
        memcpy(out + total, data, dlen);
    return total + dlen;
}

static unsigned char fbuf[1 << 16];

/* Read an npy image from memory and via a file; both must fail (when want is
 * non-NULL, with that text in the message) or both succeed. */
static int npy_try(const char *what, const unsigned char *buf, size_t len, const char *want, lw_array *out)
{
    lw_array a;
    int rc = lw_npy_read_mem(buf, len, &a, err, sizeof err);
    if (want) {
        CHECK(rc == -1 && has(err, want) && a.data == NULL, "%s: want '%s', got rc %d '%s'", what, want, rc,
              rc ? err : "");
        CHECK(strchr(err, '\n') == NULL, "%s: message has a newline", what);
    } else {
        CHECK(rc == 0, "%s: %s", what, err);
    }
    if (rc == 0) {
        if (out)
            *out = a;
        else
            lw_array_free(&a);
    }
    /* the same through the file path: message must start with the file name */
    const char *p = spath("case.npy");
    put_bytes(p, buf, len);
    lw_array b;
    int rc2 = lw_io_read(p, NULL, &b, err, sizeof err);
    CHECK(rc2 == rc, "%s: file rc %d vs mem rc %d", what, rc2, rc);
    if (rc2 == 0)
        lw_array_free(&b);
    else
        CHECK(strncmp(err, p, strlen(p)) == 0 && err[strlen(p)] == ':', "%s: message lacks file name: %s", what, err);
    return rc;
}

static void test_npy_versions(void)
{
    float v[6] = {1, 2, 3, 4, 5, 6};
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    for (int major = 1; major <= 3; major++) {
        lw_array a = {0};
        size_t n = npy_bytes(fbuf, sizeof fbuf, major, 0, dict, v, sizeof v);
        char what[32];
        snprintf(what, sizeof what, "version %d.0", major);
        if (npy_try(what, fbuf, n, NULL, &a) == 0) {
            CHECK(a.rank == 2 && a.shape[0] == 2 && a.shape[1] == 3 && a.type == LW_IO_F32, "%s shape", what);
            CHECK(memcmp(a.data, v, sizeof v) == 0, "%s data", what);
            lw_array_free(&a);
        }
    }
    size_t n = npy_bytes(fbuf, sizeof fbuf, 4, 0, dict, v, sizeof v);
    npy_try("version 4.0", fbuf, n, "unsupported npy version 4.0", NULL);
    n = npy_bytes(fbuf, sizeof fbuf, 1, 1, dict, v, sizeof v);
    npy_try("version 1.1", fbuf, n, "unsupported npy version 1.1", NULL);
    n = npy_bytes(fbuf, sizeof fbuf, 1, 0, dict, v, sizeof v);
    fbuf[1] = 'X';
    npy_try("bad magic", fbuf, n, "bad magic", NULL);
    npy_try("short magic", (const unsigned char *)"\x93NUM", 4, "bad magic", NULL);
    npy_try("prefix only", (const unsigned char *)"\x93NUMPY\x02\x00\x10", 9, "truncated npy header", NULL);
    n = npy_bytes(fbuf, sizeof fbuf, 1, 0, dict, v, sizeof v);
    npy_try("header cut", fbuf, 40, "truncated npy header", NULL);
}

static void test_npy_headers(void)
{
    int32_t d[4] = {1, -2, 3, -4};
    struct {
        const char *dict;
        const char *want; /* NULL = must load as int32 (4,) or (2, 2) */
    } cases[] = {
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", NULL},
        {"{'shape': (4,), 'fortran_order': False, 'descr': '<i4'}", NULL},
        {"{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (2, 2)}", NULL},
        {"{'descr':'<i4','fortran_order':False,'shape':(2L,2L,),}", NULL},
        {"  {  'descr' : '<i4' ,\t'fortran_order' : False , 'shape' : ( 4 , ) }  ", NULL},
        {"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '<c8'"},
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", "unsupported dtype '>f4' (big-endian"},
        {"{'descr': '>i4', 'fortran_order': False, 'shape': (4,), }", "big-endian"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", "unsupported dtype '|O' (object"},
        {"{'descr': '|b1', 'fortran_order': False, 'shape': (16,), }", "unsupported dtype '|b1'"},
        {"{'descr': '|i1', 'fortran_order': False, 'shape': (16,), }", "unsupported dtype '|i1'"},
        {"{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '<U4'"},
        {"{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (4,), }", "structured"},
        {"{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2), }", "fortran_order True"},
        {"{'descr': '<i4', 'fortran_order': false, 'shape': (4,), }", "True or False"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (), }", "0-d"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 4), }", "rank 5"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4), }", "must be a tuple"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': [4], }", "must be a tuple"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (0, 4), }", "empty array"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (-4,), }", "non-negative"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,), }", "64 bits"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (9223372036854775807, 2), }", "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", "too large"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846976,), }", "too large"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (1048576, 1048576), }",
         "truncated: header says 4398046511104 bytes of data, file has 16"},
        {"{'descr': '<i4', 'fortran_order': False, }", "missing key 'shape'"},
        {"{'descr': '<i4', 'shape': (4,)}", "missing key 'fortran_order'"},
        {"{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (4,)}", "duplicate key"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), 'extra': 1}", "unknown key 'extra'"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,)} x", "unexpected text"},
        {"{'descr': '<i4' 'fortran_order': False, 'shape': (4,)}", "expected ',' or '}'"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,)", "expected ',' or '}'"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), ", "expected a quoted key"},
        {"{'descr': '<i4, 'fortran_order': False, 'shape': (4,)}", "bad npy header"},
        {"['descr', '<i4']", "not a dict"},
        {"", "not a dict"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = npy_bytes(fbuf, sizeof fbuf, 1, 0, cases[i].dict, d, sizeof d);
        lw_array a = {0};
        if (npy_try(cases[i].dict, fbuf, n, cases[i].want, &a) == 0 && !cases[i].want) {
            CHECK(a.type == LW_IO_I32 && memcmp(a.data, d, sizeof d) == 0, "data of %s", cases[i].dict);
            lw_array_free(&a);
        }
    }
    /* data length checks */
    const char *dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (16, 32), }";
    static double big[520];
    size_t n = npy_bytes(fbuf, sizeof fbuf, 1, 0, dict, big, 100);
    npy_try("truncated", fbuf, n, "truncated: header says 4096 bytes of data, file has 100", NULL);
    n = npy_bytes(fbuf, sizeof fbuf, 1, 0, dict, big, 4104);
    npy_try("trailing", fbuf, n, "trailing data: header says 4096 bytes of data, file has 4104", NULL);
    /* header length field claims more than the file has */
    n = npy_bytes(fbuf, sizeof fbuf, 2, 0, dict, big, 0);
    fbuf[10] = 0xff;
    fbuf[11] = 0xff;
    npy_try("header length", fbuf, n, "truncated npy header", NULL);
    /* one-byte types take any byte-order mark */
    n = npy_bytes(fbuf, sizeof fbuf, 1, 0, "{'descr': '<u1', 'fortran_order': False, 'shape': (3,)}", "abc", 3);
    npy_try("<u1", fbuf, n, NULL, NULL);
}

/* Round trip every type and rank through lw_io_write / lw_io_read. */
static void test_npy_roundtrip(void)
{
    static const int64_t shapes[4][4] = {{7}, {5, 9}, {3, 4, 5}, {2, 3, 1, 4}};
    for (int t = 0; t < 6; t++) {
        for (int r = 1; r <= 4; r++) {
            lw_array a, b;
            if (make_array(&a, (lw_io_type)t, r, shapes[r - 1]) != 0)
                continue;
            const char *p = spath("rt.npy");
            int w = lw_io_write(p, &a, err, sizeof err);
            CHECK(w == 0, "write %s rank %d: %s", lw_io_type_name(a.type), r, err);
            int rd = lw_io_read(p, NULL, &b, err, sizeof err);
            CHECK(rd == 0, "read %s rank %d: %s", lw_io_type_name(a.type), r, err);
            if (rd == 0) {
                CHECK(same_array(&a, &b), "round trip %s rank %d", lw_io_type_name(a.type), r);
                lw_array_free(&b);
            }
            /* the header is version 1.0, 64-byte aligned, newline-terminated */
            unsigned char *buf;
            size_t len;
            if (lw_io_read_file(p, &buf, &len, err, sizeof err) == 0) {
                size_t hl = buf[8] | (size_t)buf[9] << 8;
                CHECK(buf[6] == 1 && buf[7] == 0 && (10 + hl) % 64 == 0 && buf[9 + hl] == '\n', "npy header layout");
                if (r == 1)
                    CHECK(strstr((char *)buf + 10, "(7,)") != NULL, "rank-1 shape tuple");
                free(buf);
            }
            lw_array_free(&a);
        }
    }
}

/* ---- .raw ---------------------------------------------------------------- */

static void test_raw(void)
{
    for (int t = 0; t < 6; t++) {
        lw_array a, b;
        int64_t shape[3] = {3, 10, 7};
        if (make_array(&a, (lw_io_type)t, 3, shape) != 0)
            continue;
        const char *p = spath("rt.raw");
        CHECK(lw_io_write(p, &a, err, sizeof err) == 0, "raw write: %s", err);
        lw_raw_spec s = {.rank = 3, .shape = {3, 10, 7}, .type = (lw_io_type)t, .have_type = 1};
        CHECK(lw_io_read(p, &s, &b, err, sizeof err) == 0 && same_array(&a, &b), "raw round trip %d: %s", t, err);
        lw_array_free(&b);
        s.shape[2] = 8;
        CHECK(lw_io_read(p, &s, &b, err, sizeof err) == -1 && has(err, "wrong size") && has(err, "3x10x8") &&
                  has(err, "rt.raw"),
              "raw wrong size: %s", err);
        lw_array_free(&a);
    }
    unsigned char bytes[100] = {0};
    lw_raw_spec s = {.rank = 2, .shape = {10, 10}, .type = LW_IO_U16, .have_type = 1};
    lw_array b;
    CHECK(lw_raw_read_mem(bytes, 100, &s, &b, err, sizeof err) == -1 &&
              has(err, "wrong size: shape 10x10 of uint16 needs 200 bytes, file has 100"),
          "raw size msg: %s", err);
    s.type = LW_IO_U8;
    CHECK(lw_raw_read_mem(bytes, 100, &s, &b, err, sizeof err) == 0 && b.rank == 2, "raw 10x10 u8: %s", err);
    lw_array_free(&b);
    s.shape[0] = INT64_MAX;
    CHECK(lw_raw_read_mem(bytes, 100, &s, &b, err, sizeof err) == -1 && has(err, "too large"), "raw huge: %s", err);
    s.shape[0] = 0;
    CHECK(lw_raw_read_mem(bytes, 100, &s, &b, err, sizeof err) == -1 && has(err, "empty"), "raw 0: %s", err);
    put_bytes(spath("x.raw"), bytes, 100);
    CHECK(lw_io_read(spath("x.raw"), NULL, &b, err, sizeof err) == -1 && has(err, "needs a shape and a dtype"),
          "raw no spec: %s", err);
    s = (lw_raw_spec){.rank = 1, .shape = {100}, .have_type = 0};
    CHECK(lw_io_read(spath("x.raw"), &s, &b, err, sizeof err) == -1 && has(err, "--dtype"), "raw no type: %s", err);
}

/* ---- files and atomic writes --------------------------------------------- */

static void test_files(void)
{
    lw_array b;
    const char *missing = spath("missing.npy");
    CHECK(lw_io_read(missing, NULL, &b, err, sizeof err) == -1 && has(err, missing) &&
              has(err, "No such file or directory"),
          "missing: %s", err);
    put_bytes(spath("empty.npy"), "", 0);
    CHECK(lw_io_read(spath("empty.npy"), NULL, &b, err, sizeof err) == -1 && has(err, "empty.npy: empty file"),
          "empty: %s", err);
    put_bytes(spath("empty.pgm"), "", 0);
    CHECK(lw_io_read(spath("empty.pgm"), NULL, &b, err, sizeof err) == -1 && has(err, "empty file"), "empty pgm");
    mkdir(spath("adir.npy"), 0755);
    CHECK(lw_io_read(spath("adir.npy"), NULL, &b, err, sizeof err) == -1 && has(err, "is a directory"),
          "dir: %s", err);
    CHECK(lw_io_read(spath("x.tiff"), NULL, &b, err, sizeof err) == -1 && has(err, "unknown file format"),
          "ext: %s", err);
    CHECK(lw_io_read("", NULL, &b, err, sizeof err) == -1, "empty name");

    /* lw_io_check_readable: the same checks, nothing read */
    CHECK(lw_io_check_readable(spath("missing.npy"), err, sizeof err) == -1 && has(err, "missing.npy: cannot open") &&
              has(err, "No such file"),
          "check missing: %s", err);
    CHECK(lw_io_check_readable(spath("adir.npy"), err, sizeof err) == -1 && has(err, "is a directory"), "check dir");
    CHECK(lw_io_check_readable(spath("empty.npy"), err, sizeof err) == -1 && has(err, "empty file"), "check empty");
    put_bytes(spath("one.raw"), "x", 1);
    CHECK(lw_io_check_readable(spath("one.raw"), err, sizeof err) == 0, "check readable: %s", err);
}

/* Very long paths: messages keep the head and tail of the path around "..."
 * and always end with the reason. */
static void test_long_paths(void)
{
    enum { LEN = 5000 };
    static char path[LEN + 1], brief[LW_IO_PATH_BRIEF], longerr[2048];
    for (int i = 0; i < LEN; i++) path[i] = (i % 101 == 100) ? '/' : (char)('a' + i % 26);
    memcpy(path + LEN - 6, "/y.npy", 7);
    char small[32];
    CHECK(strcmp(lw_io_path_brief("dir/x.npy", small, sizeof small), "dir/x.npy") == 0, "short path kept");
    lw_io_path_brief(path, brief, sizeof brief);
    CHECK(strlen(brief) == sizeof brief - 1 && strncmp(brief, path, 100) == 0 && strstr(brief, "...") &&
              strcmp(brief + strlen(brief) - 6, "/y.npy") == 0,
          "brief: %s", brief);
    lw_array b;
    CHECK(lw_io_read(path, NULL, &b, longerr, sizeof longerr) == -1 && has(longerr, brief) &&
              has(longerr, "cannot open: File name too long") && strlen(longerr) < 400,
          "long read: %s", longerr);
    CHECK(lw_io_read(path, NULL, &b, err, sizeof err) == -1 && has(err, "File name too long"), "long read: %s", err);
    CHECK(lw_io_check_readable(path, err, sizeof err) == -1 && has(err, "File name too long"), "long check: %s", err);
    lw_array a;
    int64_t shape[1] = {4};
    make_array(&a, LW_IO_U8, 1, shape);
    CHECK(lw_io_write(path, &a, err, sizeof err) == -1 && has(err, "...") && has(err, "/y.npy: cannot create file"),
          "long write: %s", err);
    memcpy(path + LEN - 6, "/y.bmp", 7);
    CHECK(lw_io_write(path, &a, err, sizeof err) == -1 && has(err, "/y.bmp: unknown file format"), "long ext: %s",
          err);
    lw_array_free(&a);
}

static void test_atomic(void)
{
    lw_array a, f;
    int64_t shape[2] = {64, 64};
    make_array(&a, LW_IO_U8, 2, shape);
    make_array(&f, LW_IO_F32, 2, shape);
    int before = dir_entries(scratch);

    const char *nodir = spath("no/such/dir/out.npy");
    CHECK(lw_io_write(nodir, &a, err, sizeof err) == -1 && has(err, nodir) && has(err, "cannot create"),
          "no dir: %s", err);
    CHECK(!exists(nodir), "no dir file");

    CHECK(lw_io_write(spath("f.pgm"), &f, err, sizeof err) == -1 && has(err, "f.pgm: ") && has(err, "float32"),
          "f32 pgm: %s", err);
    CHECK(!exists(spath("f.pgm")), "no f.pgm");
    CHECK(lw_io_write(spath("f.png"), &f, err, sizeof err) == -1 && has(err, "f.png: "), "f32 png: %s", err);
    CHECK(!exists(spath("f.png")), "no f.png");
    lw_array two = a;
    two.rank = 3;
    two.shape[0] = 64;
    two.shape[1] = 32;
    two.shape[2] = 2;
    CHECK(lw_io_write(spath("two.ppm"), &two, err, sizeof err) == -1 && has(err, "64x32x2"), "2ch ppm: %s", err);
    CHECK(!exists(spath("two.ppm")), "no two.ppm");
    CHECK(lw_io_write(spath("a.xyz"), &a, err, sizeof err) == -1 && has(err, "unknown file format"), "ext: %s", err);
    CHECK(lw_io_write(spath("dir/"), &a, err, sizeof err) == -1, "trailing slash");
    lw_array nodata = a;
    nodata.data = NULL;
    CHECK(lw_io_write(spath("nodata.npy"), &nodata, err, sizeof err) == -1 && has(err, "no data"), "nodata");
    CHECK(!exists(spath("nodata.npy")), "no nodata.npy");

    /* destination is a directory: the rename fails and the temp goes away */
    mkdir(spath("isdir.npy"), 0755);
    before = dir_entries(scratch);
    CHECK(lw_io_write(spath("isdir.npy"), &a, err, sizeof err) == -1 && has(err, "rename"), "dir dest: %s", err);
    CHECK(dir_entries(scratch) == before, "temp left behind (dir dest)");
    CHECK(dir_entries(spath("isdir.npy")) == 0, "wrote inside the directory");

    /* overwrite keeps the old file until the new one is complete */
    const char *p = spath("over.npy");
    CHECK(lw_io_write(p, &f, err, sizeof err) == 0, "write f: %s", err);
    CHECK(lw_io_write(p, &a, err, sizeof err) == 0, "overwrite: %s", err);
    lw_array b;
    CHECK(lw_io_read(p, NULL, &b, err, sizeof err) == 0 && same_array(&a, &b), "overwritten content");
    lw_array_free(&b);
    struct stat st;
    mode_t mask = umask(022);
    umask(mask);
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask), "mode %o", (unsigned)(st.st_mode & 0777));

    /* a write that fails half way (file size limit) leaves nothing */
    lw_array large;
    int64_t lshape[2] = {512, 512};
    make_array(&large, LW_IO_F64, 2, lshape);
    struct rlimit old, lim;
    if (getrlimit(RLIMIT_FSIZE, &old) == 0) {
        void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
        lim = old;
        lim.rlim_cur = 100000;
        before = dir_entries(scratch);
        static const char *names[] = {"big.npy", "big.raw"};
        if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
            for (int i = 0; i < 2; i++) {
                int rc = lw_io_write(spath(names[i]), &large, err, sizeof err);
                CHECK(rc == -1 && has(err, names[i]) && (has(err, "too large") || has(err, "failed")),
                      "fsize limit %s: rc %d %s", names[i], rc, err);
                CHECK(!exists(spath(names[i])), "%s exists after failed write", names[i]);
            }
            /* an image too: 2048x2048 8-bit PGM is 4 MiB */
            lw_array img;
            int64_t ishape[2] = {2048, 2048};
            make_array(&img, LW_IO_U8, 2, ishape);
            CHECK(lw_io_write(spath("big.pgm"), &img, err, sizeof err) == -1 && !exists(spath("big.pgm")),
                  "fsize pgm: %s", err);
            if (lw_io_have_png())
                CHECK(lw_io_write(spath("big.png"), &img, err, sizeof err) == -1 && !exists(spath("big.png")),
                      "fsize png: %s", err);
            lw_array_free(&img);
            setrlimit(RLIMIT_FSIZE, &old);
            CHECK(dir_entries(scratch) == before, "temp files left after failed writes");
        }
        signal(SIGXFSZ, prev);
    }
    lw_array_free(&large);
    lw_array_free(&a);
    lw_array_free(&f);
}

int main(int argc, char **argv)
{
    lw_test_seed(20240601);
    scratch_make(argc > 1 ? argv[1] : NULL);
    test_types();
    test_shapes();
    test_format_of();
    test_count();
    test_npy_versions();
    test_npy_headers();
    test_npy_roundtrip();
    test_raw();
    test_files();
    test_long_paths();
    test_atomic();
    scratch_clean();
    return lw_test_finish("test_io");
}
