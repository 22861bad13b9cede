/* The file I/O layer built without libpng: PNG calls fail with a clear
 * message and never leave a file behind.  Usage: test_io_nopng [scratch-dir] */
#include "io_test_util.h"

int main(int argc, char **argv)
{
    char err[512];
    lw_array a, b;
    scratch_make(argc > 1 ? argv[1] : NULL);
    CHECK(lw_io_have_png() == 0, "have_png should be 0");
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    CHECK(lw_png_read_mem(sig, 8, &b, err, sizeof err) == -1 && has(err, "PNG support not built (install libpng-dev)"),
          "read_mem: %s", err);
    put_bytes(spath("in.png"), sig, 8);
    CHECK(lw_io_read(spath("in.png"), NULL, &b, err, sizeof err) == -1 && has(err, "in.png: PNG support not built"),
          "read: %s", err);
    int64_t shape[2] = {8, 8};
    make_array(&a, LW_IO_U8, 2, shape);
    CHECK(lw_io_write(spath("out.png"), &a, err, sizeof err) == -1 && has(err, "out.png: PNG support not built"),
          "write: %s", err);
    CHECK(!exists(spath("out.png")), "out.png exists");
    CHECK(dir_entries(scratch) == 1, "stray files");
    /* the other formats still work */
    CHECK(lw_io_write(spath("out.pgm"), &a, err, sizeof err) == 0, "pgm: %s", err);
    lw_array_free(&a);
    scratch_clean();
    return lw_test_finish("test_io_nopng");
}
