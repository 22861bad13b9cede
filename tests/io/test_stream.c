/* Unit tests of the out-of-core module (src/stream) and the YUV4MPEG2
 * reader (src/io/io_y4m.c), below the CLI:
 *   - sizes ("256M"), halos of every wavelet
 *   - strided views of a file: rows written and read back, the overlay
 *   - lw_stream_run against lw_execute of the whole array, bit for bit, with
 *     limits small enough that every level streams
 *   - y4m headers and frames from memory streams, and the bad ones. */
#include "io_test_util.h"

#include "liftwave.h"
#include "lw_stream.h"

#include <fcntl.h>

static void test_sizes(void)
{
    uint64_t b = 0;
    CHECK(lw_stream_parse_size("256M", &b) == 0 && b == 256ull << 20, "256M");
    CHECK(lw_stream_parse_size("2G", &b) == 0 && b == 2ull << 30, "2G");
    CHECK(lw_stream_parse_size("64KiB", &b) == 0 && b == 64ull << 10, "64KiB");
    CHECK(lw_stream_parse_size("1048576", &b) == 0 && b == 1048576, "bytes");
    const char *bad[] = {"", "0", "-5", "12Q", "M", "1.5G", "99999999999999999999", "16EB"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(lw_stream_parse_size(bad[i], &b) != 0, "'%s' accepted", bad[i]);
    CHECK(lw_stream_default_limit() >= (64ull << 20), "default limit");
}

static void test_halos(void)
{
    int64_t prev = 0;
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int d = 0; d < 2; d++) {
            int64_t h = -1;
            char err[256];
            CHECK(lw_stream_halo((lw_wavelet)w, (lw_direction)d, &h, err, sizeof err) == 0, "halo %d", w);
            CHECK(h >= 2 && h % 2 == 0 && h <= 16, "halo of %s: %lld", lw_wavelet_name((lw_wavelet)w), (long long)h);
            if (w == LW_CDF53 && d == 0) prev = h;
            if (w == LW_CDF97 && d == 0) CHECK(h > prev, "cdf97 reaches further than cdf53");
        }
}

static int temp_fd(const char *name)
{
    return open(spath(name), O_RDWR | O_CREAT | O_TRUNC, 0600);
}

/* A 3-D float32 array in a file: write a strided view, read it back, and
 * check the file and the overlay of a coarser grid. */
static void test_views(void)
{
    int fd = temp_fd("view.bin");
    int64_t shape[3] = {9, 7, 10};
    float zero[630] = {0};
    CHECK(pwrite(fd, zero, sizeof zero, 16) == (ssize_t)sizeof zero, "init");
    lw_sview v;
    lw_sview_dense(&v, fd, 16, LW_IO_F32, 3, shape);
    v.count[1] = 4; /* rows 0,2,4,6 of axis 1 */
    v.step[1] = 2;
    v.count[2] = 3; /* 0,3,6 of axis 2 */
    v.step[2] = 3;
    lw_sio io;
    CHECK(lw_sio_init(&io, 4096) == 0, "sio");
    float buf[9 * 4 * 3];
    for (int i = 0; i < 9 * 4 * 3; i++) buf[i] = (float)(i + 1);
    /* axis 1 as the row axis: outer = 9, inner = 3 */
    CHECK(lw_sview_write_rows(&v, 1, 0, 4, buf, LW_FLOAT32, 4, 0, &io) == 0, "write: %s", io.err);
    float all[630];
    CHECK(pread(fd, all, sizeof all, 16) == (ssize_t)sizeof all, "read back");
    int ok = 1;
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < 10; c++) {
                float want = 0;
                if (b % 2 == 0 && c % 3 == 0 && c / 3 < 3) want = (float)(((a * 4 + b / 2) * 3 + c / 3) + 1);
                ok &= all[(a * 7 + b) * 10 + c] == want;
            }
    CHECK(ok, "strided write lands on the view's elements only");
    double back[9 * 2 * 3];
    CHECK(lw_sview_read_rows(&v, 1, 1, 2, back, LW_FLOAT64, 2, 0, &io) == 0, "read: %s", io.err);
    ok = 1;
    for (int a = 0; a < 9; a++)
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < 3; c++) ok &= back[(a * 2 + r) * 3 + c] == buf[(a * 4 + 1 + r) * 3 + c];
    CHECK(ok, "strided read, converted to float64");
    /* overlay: a dense (9,2,2) file laid on every 2nd element of axes 1, 2 */
    int fo = temp_fd("ov.bin");
    float ov[36];
    for (int i = 0; i < 36; i++) ov[i] = -(float)(i + 1);
    CHECK(pwrite(fo, ov, sizeof ov, 0) == (ssize_t)sizeof ov, "ov");
    lw_sview o;
    int64_t oshape[3] = {9, 2, 2};
    lw_sview_dense(&o, fo, 0, LW_IO_F32, 3, oshape);
    int64_t ostep[3] = {1, 2, 2};
    float reg[9 * 4 * 3], tmp[9 * 2];
    memcpy(reg, buf, sizeof reg);
    CHECK(lw_sview_overlay_rows(&o, ostep, &v, 1, 0, 4, reg, LW_FLOAT32, 4, 0, tmp, &io) == 0, "overlay");
    ok = 1;
    for (int a = 0; a < 9; a++)
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 3; c++) {
                float want = buf[(a * 4 + r) * 3 + c];
                if (r % 2 == 0 && r / 2 < 2 && c % 2 == 0 && c / 2 < 2) want = ov[(a * 2 + r / 2) * 2 + c / 2];
                ok &= reg[(a * 4 + r) * 3 + c] == want;
            }
    CHECK(ok, "overlay replaces the coarse grid's elements");
    lw_sio_free(&io);
    close(fd);
    close(fo);
}

/* lw_stream_run equals lw_execute of the whole array. */
static void run_case(const lw_config *cfg, uint64_t limit, const char *label)
{
    int64_t n = 1;
    for (int i = 0; i < cfg->rank; i++) n *= cfg->shape[i];
    size_t es = lw_dtype_size(cfg->dtype);
    unsigned char *x = malloc((size_t)n * es), *ref = malloc((size_t)n * es), *got = malloc((size_t)n * es);
    for (int64_t i = 0; i < n; i++) {
        if (cfg->dtype == LW_INT32)
            ((int32_t *)x)[i] = (int32_t)lw_rng_range(-300, 300);
        else
            ((float *)x)[i] = (float)(lw_rng_unit() * 2 - 1);
    }
    lw_plan *p = NULL;
    if (lw_plan_create(&p, cfg) != LW_OK) {
        CHECK(0, "%s: plan: %s", label, lw_last_error());
        goto out;
    }
    CHECK(lw_execute(p, x, ref) == LW_OK, "%s: execute", label);
    lw_destroy(p);
    int fi = temp_fd("in.bin"), fo = temp_fd("out.bin");
    CHECK(pwrite(fi, x, (size_t)n * es, 0) == (ssize_t)((size_t)n * es), "write input");
    lw_stream_job job;
    memset(&job, 0, sizeof job);
    job.cfg = *cfg;
    lw_io_type t = lw_sview_work_type(cfg->dtype);
    lw_sview_dense(&job.in, fi, 0, t, cfg->rank, cfg->shape);
    lw_sview_dense(&job.out, fo, 0, t, cfg->rank, cfg->shape);
    job.scratch_dir = scratch;
    job.memory_limit = limit;
    int rc = lw_stream_run(&job);
    CHECK(rc == 0, "%s: %s", label, job.err);
    if (rc == 0) {
        CHECK(job.levels_streamed >= 1, "%s: nothing streamed", label);
        CHECK(pread(fo, got, (size_t)n * es, 0) == (ssize_t)((size_t)n * es), "read output");
        CHECK(memcmp(got, ref, (size_t)n * es) == 0, "%s: differs from lw_execute", label);
    }
    close(fi);
    close(fo);
out:
    free(x);
    free(ref);
    free(got);
}

static void test_run(void)
{
    char label[128];
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        for (int mode = 0; mode < 2; mode++)
            for (int lay = 0; lay < 2; lay++)
                for (int dir = 0; dir < 2; dir++) {
                    lw_config c;
                    lw_config_init(&c);
                    c.rank = 2;
                    c.shape[0] = mode ? 160 : 157;
                    c.shape[1] = mode ? 24 : 23;
                    c.wavelet = (lw_wavelet)w;
                    c.mode = (lw_mode)mode;
                    c.layout = (lw_layout)lay;
                    c.direction = (lw_direction)dir;
                    c.levels = 3;
                    c.backend = LW_BACKEND_CPU;
                    snprintf(label, sizeof label, "%s %s %s %s", lw_wavelet_name(c.wavelet), lw_mode_name(c.mode),
                             lw_layout_name(c.layout), dir ? "inverse" : "forward");
                    run_case(&c, 90 * 1024, label);
                    if (lw_wavelet_properties(c.wavelet) & LW_WAVELET_INTEGER) {
                        c.dtype = LW_INT32;
                        c.integer = 1;
                        run_case(&c, 90 * 1024, label);
                    }
                }
    /* too small: a clear error, nothing else */
    lw_config c;
    lw_config_init(&c);
    c.rank = 2;
    c.shape[0] = 400;
    c.shape[1] = 400;
    c.wavelet = LW_DD137;
    int fi = temp_fd("in.bin"), fo = temp_fd("out.bin");
    lw_stream_job job;
    memset(&job, 0, sizeof job);
    job.cfg = c;
    lw_sview_dense(&job.in, fi, 0, LW_IO_F32, 2, c.shape);
    lw_sview_dense(&job.out, fo, 0, LW_IO_F32, 2, c.shape);
    job.scratch_dir = scratch;
    job.memory_limit = 16 * 1024;
    CHECK(lw_stream_run(&job) != 0 && strstr(job.err, "too small") && strstr(job.err, "halo"), "small limit: %s",
          job.err);
    close(fi);
    close(fo);
}

static void test_y4m(void)
{
    char err[512];
    lw_y4m y;
    unsigned char frame[64 * 3];
    const char good[] = "YUV4MPEG2 W8 H4 F30000:1001 It A1:1 C420mpeg2 XYSCSS=420MPEG2\n";
    FILE *f = fmemopen((void *)good, sizeof good - 1, "rb");
    CHECK(lw_y4m_open(&y, f, err, sizeof err) == 0, "open: %s", err);
    CHECK(y.width == 8 && y.height == 4 && y.fps_num == 30000 && y.fps_den == 1001 && y.interlace == 't' &&
              y.nplanes == 3 && y.plane_w[1] == 4 && y.plane_h[1] == 2 && y.frame_bytes == 48,
          "header fields");
    int eof = 0;
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) == 0 && eof, "no frames: clean end");
    fclose(f);
    /* two frames, one with parameters, in 422 */
    char s[512];
    int n = snprintf(s, sizeof s, "YUV4MPEG2 W4 H2 C422\n");
    for (int k = 0; k < 2; k++) {
        n += snprintf(s + n, sizeof s - (size_t)n, k ? "FRAME Ip XA\n" : "FRAME\n");
        for (int i = 0; i < 16; i++) s[n++] = (char)('a' + i + k);
    }
    f = fmemopen(s, (size_t)n, "rb");
    CHECK(lw_y4m_open(&y, f, err, sizeof err) == 0 && y.frame_bytes == 16, "422 header");
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) == 0 && !eof && frame[0] == 'a', "frame 1");
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) == 0 && !eof && frame[15] == 'a' + 16, "frame 2");
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) == 0 && eof && y.frames == 2, "end");
    fclose(f);
    /* truncated, then bad headers */
    f = fmemopen(s, (size_t)n - 3, "rb");
    lw_y4m_open(&y, f, err, sizeof err);
    lw_y4m_read_frame(&y, frame, &eof, err, sizeof err);
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) != 0 && strstr(err, "truncated"), "truncated: %s",
          err);
    fclose(f);
    const char *bad[] = {"YUV4MPEG2 W4\n", "YUV4MPEG2 W4 H2 C420p10\n", "YUV4MPEG W4 H2\n", "YUV4MPEG2 W-4 H2\n",
                         "YUV4MPEG2 W4 H2 Z1\n", "YUV4MPEG2 W4 H2 F30\n", "YUV4MPEG2 W4 H2", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = fmemopen((void *)bad[i], strlen(bad[i]) ? strlen(bad[i]) : 1, "rb");
        if (!strlen(bad[i])) {
            fclose(f);
            f = fopen("/dev/null", "rb");
        }
        CHECK(lw_y4m_open(&y, f, err, sizeof err) != 0 && err[0], "bad header %zu accepted", i);
        fclose(f);
    }
    const char change[] = "YUV4MPEG2 W2 H2 Cmono\nFRAME\nabcdYUV4MPEG2 W4 H4 Cmono\n";
    f = fmemopen((void *)change, sizeof change - 1, "rb");
    lw_y4m_open(&y, f, err, sizeof err);
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) == 0, "first frame");
    CHECK(lw_y4m_read_frame(&y, frame, &eof, err, sizeof err) != 0 && strstr(err, "frame 2") &&
              strstr(err, "stream header"),
          "size change: %s", err);
    fclose(f);
}

int main(int argc, char **argv)
{
    scratch_make(argc > 1 ? argv[1] : NULL);
    lw_test_seed(17);
    test_sizes();
    test_halos();
    test_views();
    test_run();
    test_y4m();
    const char *names[] = {"view.bin", "ov.bin", "in.bin", "out.bin"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(spath(names[i]));
    /* the scratch files of lw_stream_run were unlinked as soon as made */
    CHECK(dir_entries(scratch) == 0, "files left behind in the scratch directory: %d", dir_entries(scratch));
    scratch_clean();
    return lw_test_finish("test_stream");
}
