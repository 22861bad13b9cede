/* Image I/O tests: PGM/PPM (P2, P3, P5, P6; 8 and 16 bit) and PNG (gray,
 * gray+alpha, RGB, RGBA, palette, low bit depths, 16 bit, interlaced):
 * round trips and bad input.  Usage: test_io_image [scratch-parent-dir] */
#include "io_test_util.h"

#ifdef LW_HAVE_PNG
#include <png.h>
#include <zlib.h>
#endif

static char err[512];

/* Read a PNM image from a C string (binary tails given separately). */
static int pnm_mem(const char *head, const void *tail, size_t tlen, lw_array *out)
{
    static unsigned char buf[1 << 16];
    size_t h = strlen(head);
    memcpy(buf, head, h);
    if (tlen)
        memcpy(buf + h, tail, tlen);
    return lw_pnm_read_mem(buf, h + tlen, out, err, sizeof err);
}

static void expect_pnm_fail(const char *head, const void *tail, size_t tlen, const char *want)
{
    lw_array a;
    int rc = pnm_mem(head, tail, tlen, &a);
    CHECK(rc == -1 && has(err, want) && a.data == NULL, "PNM '%.20s': want '%s', got rc %d '%s'", head, want, rc,
          rc ? err : "");
    if (rc == 0)
        lw_array_free(&a);
}

static void test_pnm_read(void)
{
    lw_array a;
    /* P2 with comments everywhere a header allows them */
    int rc = pnm_mem("P2 # plain gray\n# a comment line\n3 # width\n2\n# maxval next\n255\n0 1 2\n 253 254 255\n", NULL,
                     0, &a);
    CHECK(rc == 0 && a.rank == 2 && a.shape[0] == 2 && a.shape[1] == 3 && a.type == LW_IO_U8, "P2: %s", err);
    if (rc == 0) {
        const uint8_t *d = a.data;
        CHECK(d[0] == 0 && d[2] == 2 && d[3] == 253 && d[5] == 255, "P2 values");
        lw_array_free(&a);
    }
    /* P2 16-bit */
    rc = pnm_mem("P2\n2 2\n1000\n0 999\n1000 7\n", NULL, 0, &a);
    CHECK(rc == 0 && a.type == LW_IO_U16, "P2 16: %s", err);
    if (rc == 0) {
        const uint16_t *d = a.data;
        CHECK(d[1] == 999 && d[2] == 1000 && d[3] == 7, "P2 16 values");
        lw_array_free(&a);
    }
    /* P3 */
    rc = pnm_mem("P3\n2 1\n255\n255 0 0   0 128 255\n", NULL, 0, &a);
    CHECK(rc == 0 && a.rank == 3 && a.shape[0] == 1 && a.shape[1] == 2 && a.shape[2] == 3, "P3: %s", err);
    if (rc == 0) {
        const uint8_t *d = a.data;
        CHECK(d[0] == 255 && d[1] == 0 && d[4] == 128 && d[5] == 255, "P3 values");
        lw_array_free(&a);
    }
    /* P3 16-bit */
    rc = pnm_mem("P3 1 2 65535\n65535 0 1\n256 4096 300\n", NULL, 0, &a);
    CHECK(rc == 0 && a.type == LW_IO_U16 && a.rank == 3 && a.shape[0] == 2 && a.shape[1] == 1, "P3 16: %s", err);
    if (rc == 0) {
        const uint16_t *d = a.data;
        CHECK(d[0] == 65535 && d[2] == 1 && d[3] == 256 && d[5] == 300, "P3 16 values");
        lw_array_free(&a);
    }
    /* P5 8-bit with a comment */
    unsigned char px[12] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110};
    rc = pnm_mem("P5\n#c\n4 3\n255\n", px, 12, &a);
    CHECK(rc == 0 && a.rank == 2 && a.shape[0] == 3 && a.shape[1] == 4 && memcmp(a.data, px, 12) == 0, "P5: %s", err);
    if (rc == 0)
        lw_array_free(&a);
    /* P5 16-bit is big-endian */
    unsigned char be[4] = {0x01, 0x02, 0xff, 0xfe};
    rc = pnm_mem("P5 2 1 65535\n", be, 4, &a);
    CHECK(rc == 0 && a.type == LW_IO_U16 && ((uint16_t *)a.data)[0] == 0x0102 && ((uint16_t *)a.data)[1] == 0xfffe,
          "P5 16: %s", err);
    if (rc == 0)
        lw_array_free(&a);
    /* P6 8 and 16 bit */
    rc = pnm_mem("P6\n2 2\n255\n", px, 12, &a);
    CHECK(rc == 0 && a.rank == 3 && a.shape[2] == 3 && memcmp(a.data, px, 12) == 0, "P6: %s", err);
    if (rc == 0)
        lw_array_free(&a);
    unsigned char be6[6] = {0, 1, 1, 0, 0x12, 0x34};
    rc = pnm_mem("P6 1 1 8000\n", be6, 6, &a);
    CHECK(rc == 0 && a.type == LW_IO_U16 && ((uint16_t *)a.data)[1] == 256 && ((uint16_t *)a.data)[2] == 0x1234,
          "P6 16: %s", err);
    if (rc == 0)
        lw_array_free(&a);
    /* trailing bytes after the first image are ignored */
    rc = pnm_mem("P5 2 2 255\n", px, 12, &a);
    CHECK(rc == 0 && a.shape[0] == 2, "P5 trailing: %s", err);
    if (rc == 0)
        lw_array_free(&a);

    expect_pnm_fail("P5 4 3 255\n", px, 11, "truncated: header says 12 bytes of data, file has 11");
    expect_pnm_fail("P6 4 3 255\n", px, 12, "truncated: header says 36 bytes");
    expect_pnm_fail("P5 2 2 65535\n", px, 7, "truncated: header says 8 bytes");
    expect_pnm_fail("P2 3 2 255\n1 2 3 4 5", NULL, 0, "truncated");
    expect_pnm_fail("P2 300 200 255\n1 2 3", NULL, 0, "truncated");
    /* the ASCII pre-check counts a digit and a separator per sample */
    expect_pnm_fail("P2 3 3 255\n123456789", NULL, 0,
                    "truncated: 9 samples need at least 17 bytes of raster text, the file has 9");
    expect_pnm_fail("P2 2 2 255\n1 2 3", NULL, 0, "truncated: 4 samples need at least 7 bytes of raster text");
    expect_pnm_fail("P2 2 2 255\n1 2 3  ", NULL, 0, "truncated: 3 of 4 samples present");
    expect_pnm_fail("P3 2 1 255\n1 2 3 4 5", NULL, 0, "truncated: 6 samples need at least 11 bytes");
    expect_pnm_fail("P5 4 3 0\n", px, 12, "maxval 0");
    expect_pnm_fail("P5 4 3 65536\n", px, 12, "maxval is larger than 65535");
    expect_pnm_fail("P5 4 3 99999999999999999999999\n", px, 12, "maxval is larger");
    expect_pnm_fail("P5 4 3 100\n", px, 12, "exceeds maxval 100");
    expect_pnm_fail("P2 2 1 10\n5 11\n", NULL, 0, "exceeds maxval 10");
    expect_pnm_fail("P2 2 1 10\n5 x\n", NULL, 0, "not a number");
    expect_pnm_fail("P5 4 3 255#c\n", px, 12, "one whitespace");
    expect_pnm_fail("P4 4 3\n", px, 12, "unsupported PNM type P4");
    expect_pnm_fail("P1 4 3\n", NULL, 0, "unsupported PNM type P1");
    expect_pnm_fail("P7\nWIDTH 4\n", NULL, 0, "unsupported PNM type P7");
    expect_pnm_fail("P8 4 3 255\n", NULL, 0, "bad magic");
    expect_pnm_fail("P55 4 3 255\n", NULL, 0, "bad magic");
    expect_pnm_fail("GIF89a", NULL, 0, "bad magic");
    expect_pnm_fail("P5", NULL, 0, "truncated PNM header");
    expect_pnm_fail("P5 4", NULL, 0, "no height");
    expect_pnm_fail("P5 4 3 255", NULL, 0, "no raster");
    expect_pnm_fail("P5 0 3 255\n", NULL, 0, "0x3");
    expect_pnm_fail("P5 -4 3 255\n", NULL, 0, "width is not a number");
    expect_pnm_fail("P5 4x 3 255\n", NULL, 0, "junk after width");
    expect_pnm_fail("P5 4294967296 3 255\n", NULL, 0, "width is larger");
    /* dimensions whose byte counts are absurd but fit int64, and ones that do not */
    expect_pnm_fail("P5 2147483647 2147483647 65535\n", px, 12, "truncated: header says 9223372028264841218 bytes");
    expect_pnm_fail("P6 2147483647 2147483647 65535\n", px, 12, "too large");
    expect_pnm_fail("P3 2147483647 2147483647 65535\n1 2 3", NULL, 0, "too large");
    CHECK(lw_pnm_read_mem(NULL, 0, &a, err, sizeof err) == -1 && has(err, "empty"), "pnm empty");
}

static void test_pnm_roundtrip(void)
{
    struct {
        const char *name;
        lw_io_type t;
        int rank;
        int64_t shape[3];
    } cases[] = {
        {"g8.pgm", LW_IO_U8, 2, {17, 23}},      {"g16.pgm", LW_IO_U16, 2, {9, 31}},
        {"c8.ppm", LW_IO_U8, 3, {5, 7, 3}},     {"c16.ppm", LW_IO_U16, 3, {6, 4, 3}},
        {"g1.pnm", LW_IO_U8, 3, {4, 4, 1}},     {"c16.pnm", LW_IO_U16, 3, {1, 1, 3}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lw_array a, b;
        make_array(&a, cases[i].t, cases[i].rank, cases[i].shape);
        const char *p = spath(cases[i].name);
        CHECK(lw_io_write(p, &a, err, sizeof err) == 0, "write %s: %s", cases[i].name, err);
        int rc = lw_io_read(p, NULL, &b, err, sizeof err);
        CHECK(rc == 0, "read %s: %s", cases[i].name, err);
        if (rc == 0) {
            if (a.rank == 3 && a.shape[2] == 1) { /* (H, W, 1) reads back as (H, W) */
                CHECK(b.rank == 2 && b.shape[0] == a.shape[0] && b.shape[1] == a.shape[1], "shape %s", cases[i].name);
                CHECK(memcmp(a.data, b.data, (size_t)(a.shape[0] * a.shape[1])) == 0, "data %s", cases[i].name);
            } else {
                CHECK(same_array(&a, &b), "round trip %s", cases[i].name);
            }
            lw_array_free(&b);
        }
        lw_array_free(&a);
    }
    /* what the format cannot hold */
    lw_array a;
    int64_t s4[4] = {2, 2, 2, 2}, s3[3] = {4, 4, 4}, s1[1] = {16};
    make_array(&a, LW_IO_U8, 4, s4);
    CHECK(lw_io_write(spath("r4.pgm"), &a, err, sizeof err) == -1 && !exists(spath("r4.pgm")), "rank 4 pgm");
    lw_array_free(&a);
    make_array(&a, LW_IO_U8, 3, s3);
    CHECK(lw_io_write(spath("c4.ppm"), &a, err, sizeof err) == -1 && has(err, "4x4x4"), "4ch ppm: %s", err);
    lw_array_free(&a);
    make_array(&a, LW_IO_U8, 1, s1);
    CHECK(lw_io_write(spath("r1.pgm"), &a, err, sizeof err) == -1, "rank 1 pgm");
    lw_array_free(&a);
    make_array(&a, LW_IO_I16, 2, s3);
    CHECK(lw_io_write(spath("i16.pgm"), &a, err, sizeof err) == -1 && has(err, "int16"), "int16 pgm: %s", err);
    lw_array_free(&a);
    CHECK(!exists(spath("c4.ppm")) && !exists(spath("r1.pgm")) && !exists(spath("i16.pgm")), "no files");
}

#ifdef LW_HAVE_PNG
/* Write a PNG with libpng directly (to make the kinds our writer never makes). */
static int write_png_raw(const char *path, int w, int h, int depth, int ctype, int interlace, int npal, int ntrns,
                         const unsigned char *pixels /* packed rows */)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, ctype, interlace, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (npal) {
        png_color pal[256];
        for (int i = 0; i < npal; i++) {
            pal[i].red = (png_byte)(i * 10);
            pal[i].green = (png_byte)(i * 10 + 1);
            pal[i].blue = (png_byte)(255 - i);
        }
        png_set_PLTE(png, info, pal, npal);
    }
    if (ntrns) {
        png_byte tr[256];
        for (int i = 0; i < ntrns; i++)
            tr[i] = (png_byte)(i * 7);
        png_set_tRNS(png, info, tr, ntrns, NULL);
    }
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    int bpp = depth * (ctype == 0 ? 1 : ctype == 4 ? 2 : ctype == 2 ? 3 : ctype == 6 ? 4 : 1);
    size_t rowbytes = ((size_t)w * (size_t)bpp + 7) / 8;
    for (int p = 0; p < passes; p++)
        for (int y = 0; y < h; y++)
            png_write_row(png, pixels + (size_t)y * rowbytes);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f);
}

static int read_png(const char *path, lw_array *a)
{
    int rc = lw_io_read(path, NULL, a, err, sizeof err);
    CHECK(rc == 0, "read %s: %s", path, err);
    return rc;
}

static void test_png_kinds(void)
{
    lw_array a;
    /* palette, 8 bit -> RGB */
    unsigned char idx[6] = {0, 1, 2, 3, 4, 5};
    const char *p = spath("pal8.png");
    write_png_raw(p, 3, 2, 8, PNG_COLOR_TYPE_PALETTE, 0, 6, 0, idx);
    if (read_png(p, &a) == 0) {
        const uint8_t *d = a.data;
        CHECK(a.rank == 3 && a.shape[0] == 2 && a.shape[1] == 3 && a.shape[2] == 3 && a.type == LW_IO_U8,
              "palette shape");
        CHECK(d[3 * 4 + 0] == 40 && d[3 * 4 + 1] == 41 && d[3 * 4 + 2] == 251, "palette values");
        lw_array_free(&a);
    }
    /* palette, 4 bit, with transparency -> RGBA */
    unsigned char idx4[4] = {0x01, 0x23, 0x45, 0x67}; /* 4 px per row, 2 rows: indices 0..7 */
    p = spath("pal4t.png");
    write_png_raw(p, 4, 2, 4, PNG_COLOR_TYPE_PALETTE, 0, 8, 3, idx4);
    if (read_png(p, &a) == 0) {
        const uint8_t *d = a.data;
        CHECK(a.rank == 3 && a.shape[2] == 4, "palette tRNS -> RGBA");
        CHECK(d[4 * 2 + 0] == 20 && d[4 * 2 + 3] == 14 && d[4 * 5 + 3] == 255, "palette alpha values");
        lw_array_free(&a);
    }
    /* gray 1, 2, 4 bit expand to 8 */
    static const int depths[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        int dep = depths[k];
        unsigned char row[2] = {0xff, 0x00}; /* first 8/dep px at max, rest 0 */
        unsigned char px[4] = {row[0], row[1], row[0], row[1]};
        char name[32];
        snprintf(name, sizeof name, "gray%d.png", dep);
        p = spath(name);
        int w = 16 / dep; /* 2 bytes per row */
        write_png_raw(p, w, 2, dep, PNG_COLOR_TYPE_GRAY, 0, 0, 0, px);
        if (read_png(p, &a) == 0) {
            const uint8_t *d = a.data;
            CHECK(a.rank == 2 && a.type == LW_IO_U8 && a.shape[1] == w, "gray%d shape", dep);
            CHECK(d[0] == 255 && d[w / 2 - 1] == 255 && d[w / 2] == 0 && d[w - 1] == 0, "gray%d values", dep);
            lw_array_free(&a);
        }
    }
    /* gray 16 bit, interlaced RGB, gray+alpha 16 */
    unsigned char g16[8] = {0x12, 0x34, 0xff, 0x00, 0x00, 0x01, 0x80, 0x80};
    p = spath("g16.png");
    write_png_raw(p, 2, 2, 16, PNG_COLOR_TYPE_GRAY, 0, 0, 0, g16);
    if (read_png(p, &a) == 0) {
        const uint16_t *d = a.data;
        CHECK(a.type == LW_IO_U16 && d[0] == 0x1234 && d[1] == 0xff00 && d[2] == 1 && d[3] == 0x8080, "gray16");
        lw_array_free(&a);
    }
    static unsigned char rgb[13 * 11 * 3];
    for (size_t i = 0; i < sizeof rgb; i++)
        rgb[i] = (unsigned char)(i * 31 + 7);
    p = spath("inter.png");
    write_png_raw(p, 13, 11, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7, 0, 0, rgb);
    if (read_png(p, &a) == 0) {
        CHECK(a.rank == 3 && a.shape[0] == 11 && a.shape[1] == 13 && a.shape[2] == 3 &&
                  memcmp(a.data, rgb, sizeof rgb) == 0,
              "interlaced RGB");
        lw_array_free(&a);
    }
    unsigned char ga[2 * 1 * 4] = {0, 1, 0, 2, 3, 0, 4, 0};
    p = spath("ga16.png");
    write_png_raw(p, 2, 1, 16, PNG_COLOR_TYPE_GRAY_ALPHA, 0, 0, 0, ga);
    if (read_png(p, &a) == 0) {
        const uint16_t *d = a.data;
        CHECK(a.rank == 3 && a.shape[2] == 2 && d[0] == 1 && d[1] == 2 && d[2] == 0x0300 && d[3] == 0x0400, "GA16");
        lw_array_free(&a);
    }
}

static void test_png_roundtrip(void)
{
    for (int t = 0; t < 2; t++) {
        for (int c = 0; c <= 4; c++) {
            lw_array a, b;
            int64_t shape[3] = {19, 27, c};
            make_array(&a, t ? LW_IO_U16 : LW_IO_U8, c ? 3 : 2, shape);
            char name[32];
            snprintf(name, sizeof name, "rt%d_%d.png", t, c);
            const char *p = spath(name);
            CHECK(lw_io_write(p, &a, err, sizeof err) == 0, "write %s: %s", name, err);
            if (read_png(p, &b) == 0) {
                if (c == 1) {
                    CHECK(b.rank == 2 && b.type == a.type && b.shape[0] == 19 && b.shape[1] == 27, "%s shape", name);
                    CHECK(memcmp(a.data, b.data, 19 * 27 * (t ? 2 : 1)) == 0, "%s data", name);
                } else {
                    CHECK(same_array(&a, &b), "round trip %s", name);
                }
                lw_array_free(&b);
            }
            lw_array_free(&a);
        }
    }
    lw_array a;
    int64_t s5[3] = {4, 4, 5};
    make_array(&a, LW_IO_U8, 3, s5);
    CHECK(lw_io_write(spath("c5.png"), &a, err, sizeof err) == -1 && has(err, "c5.png: ") && has(err, "4x4x5"),
          "5 channels: %s", err);
    CHECK(!exists(spath("c5.png")), "no c5.png");
    lw_array_free(&a);
    make_array(&a, LW_IO_F64, 2, s5);
    CHECK(lw_io_write(spath("f.png"), &a, err, sizeof err) == -1 && has(err, "float64"), "f64 png: %s", err);
    lw_array_free(&a);
}

static void test_png_bad(void)
{
    lw_array a;
    int64_t shape[2] = {32, 32};
    make_array(&a, LW_IO_U8, 2, shape);
    const char *p = spath("good.png");
    lw_io_write(p, &a, err, sizeof err);
    lw_array_free(&a);
    unsigned char *buf;
    size_t len;
    if (lw_io_read_file(p, &buf, &len, err, sizeof err) != 0)
        return;
    /* every truncation fails cleanly */
    int fails = 0;
    for (size_t cut = 0; cut < len - 12; cut++) { /* up to the IEND chunk */
        if (lw_png_read_mem(buf, cut, &a, err, sizeof err) == -1)
            fails++;
        else
            lw_array_free(&a);
    }
    CHECK(fails == (int)(len - 12), "%d of %d truncations failed", fails, (int)(len - 12));
    CHECK(lw_png_read_mem(buf, len / 2, &a, err, sizeof err) == -1 && has(err, "bad PNG"), "half: %s", err);
    /* a flipped byte in IHDR: CRC error */
    unsigned char *c = malloc(len);
    memcpy(c, buf, len);
    c[17] ^= 0x40;
    CHECK(lw_png_read_mem(c, len, &a, err, sizeof err) == -1 && has(err, "bad PNG"), "crc: %s", err);
    /* huge dimensions with a tiny file are refused before allocating */
    memcpy(c, buf, len);
    c[16] = 0x7f; /* width 0x7fff0020 */
    c[17] = 0xff;
    uint32_t crc = (uint32_t)crc32(0, c + 12, 17);
    c[29] = (unsigned char)(crc >> 24);
    c[30] = (unsigned char)(crc >> 16);
    c[31] = (unsigned char)(crc >> 8);
    c[32] = (unsigned char)crc;
    CHECK(lw_png_read_mem(c, len, &a, err, sizeof err) == -1 && has(err, "cannot fit"), "huge: %s", err);
    c[0] = 'G';
    CHECK(lw_png_read_mem(c, len, &a, err, sizeof err) == -1 && has(err, "not a PNG"), "signature: %s", err);
    free(c);
    free(buf);
    put_bytes(spath("bad.png"), "\x89PNG\r\n\x1a\n", 8);
    CHECK(lw_io_read(spath("bad.png"), NULL, &a, err, sizeof err) == -1 && has(err, "bad.png: bad PNG"),
          "sig only: %s", err);
}
#endif

int main(int argc, char **argv)
{
    lw_test_seed(20240602);
    scratch_make(argc > 1 ? argv[1] : NULL);
    test_pnm_read();
    test_pnm_roundtrip();
#ifdef LW_HAVE_PNG
    CHECK(lw_io_have_png() == 1, "have png");
    test_png_kinds();
    test_png_roundtrip();
    test_png_bad();
#else
    printf("PNG tests skipped (built without libpng)\n");
#endif
    scratch_clean();
    return lw_test_finish("test_io_image");
}
