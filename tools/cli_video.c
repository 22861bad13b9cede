/* `liftwave forward` of a video: the 3-D (T,H,W) transform of all the
 * frames of a YUV4MPEG2 stream (a .y4m file, or "-": stdin, what `ffmpeg
 * -f yuv4mpegpipe -` writes) or of raw 8-bit frames on stdin (--shape HxW).
 *
 * A .y4m file whose frames all begin with a bare "FRAME" line is a (T,H,W)
 * array per plane with a frame pitch: the out-of-core path (cli_stream.c)
 * reads its slabs of frames, with the halos the lifting needs, straight
 * from the file within --memory-limit, whatever T is (a ring of frames in
 * memory, no copy on disk).  From a pipe the frames arrive one at a time and
 * their number is known only at the end (a pipe cannot be read twice), and
 * frames may carry parameters: then each plane is first appended to an
 * unlinked scratch file next to the output (one frame in memory at a time),
 * and that file is transformed the same way.
 *
 * Planes: luma by default (OUT gets the (T,H,W) luma coefficients); with
 * --planes all, each plane p in Y U V (A) goes to OUT with ".y", ".u", ".v"
 * (".a") before the extension, each a (T,Hp,Wp) transform of its own. */
#define _POSIX_C_SOURCE 200809L
#include "cli_video.h"

#include "cli_env.h"
#include "cli_stream.h"
#include "cli_transform.h"
#include "lw_stream.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PLANES 4
static const char plane_names[MAX_PLANES] = {'y', 'u', 'v', 'a'};

int lw_cli_is_video_input(const char *in, const lw_cli_opts *o)
{
    (void)o;
    if (strcmp(in, "-") == 0) return 1;
    size_t n = strlen(in);
    return n > 4 && strcasecmp(in + n - 4, ".y4m") == 0;
}

/* The video as frames of planes, from y4m or raw frames. */
typedef struct video_src {
    FILE *f;
    int raw; /* raw 8-bit frames of one plane (--shape HxW) */
    lw_y4m y4m;
    int nplanes;
    int64_t w[MAX_PLANES], h[MAX_PLANES], off[MAX_PLANES], frame_bytes, frames;
} video_src;

static int next_frame(video_src *v, unsigned char *buf, int *eof, char *err, size_t errlen)
{
    if (!v->raw) {
        int rc = lw_y4m_read_frame(&v->y4m, buf, eof, err, errlen);
        v->frames = v->y4m.frames;
        return rc;
    }
    size_t got = fread(buf, 1, (size_t)v->frame_bytes, v->f);
    *eof = 0;
    if (got == 0 && feof(v->f)) {
        *eof = 1;
        return 0;
    }
    if (got != (size_t)v->frame_bytes) {
        if (ferror(v->f)) return lw_io_fail(err, errlen, "read failed: %s", strerror(errno));
        return lw_io_fail(err, errlen, "truncated: frame %lld has %zu of its %lld bytes (is --shape right?)",
                          (long long)v->frames + 1, got, (long long)v->frame_bytes);
    }
    v->frames++;
    return 0;
}

static int open_video(const char *in, const lw_cli_opts *o, video_src *v)
{
    memset(v, 0, sizeof *v);
    int is_stdin = strcmp(in, "-") == 0;
    if (o->have_shape && !is_stdin)
        return lw_cli_fail(LW_EXIT_USAGE, "--shape applies to raw frames on stdin ('-'), not '%s'", lw_cli_path(in));
    if (o->have_dtype && (!o->have_shape || o->raw.type != LW_IO_U8))
        return lw_cli_fail(LW_EXIT_USAGE, "video frames are 8-bit: --dtype uint8 with --shape HxW, or no --dtype");
    if (o->have_shape && o->raw.rank != 2)
        return lw_cli_fail(LW_EXIT_USAGE, "--shape of raw frames is the frame's HxW (rank 2), not rank %d",
                           o->raw.rank);
    v->f = is_stdin ? stdin : fopen(in, "rb");
    if (!v->f) return lw_cli_fail(LW_EXIT_DATA, "%s: cannot open: %s", lw_cli_path(in), strerror(errno));
    char err[512] = "";
    if (o->have_shape) {
        v->raw = 1;
        v->nplanes = 1;
        v->h[0] = o->raw.shape[0];
        v->w[0] = o->raw.shape[1];
        v->frame_bytes = v->w[0] * v->h[0];
        return LW_EXIT_OK;
    }
    if (lw_y4m_open(&v->y4m, v->f, err, sizeof err) != 0) {
        if (!is_stdin) fclose(v->f);
        v->f = NULL;
        return lw_cli_fail(LW_EXIT_DATA, "%s: %s", is_stdin ? "standard input" : lw_cli_path(in), err);
    }
    v->nplanes = v->y4m.nplanes;
    for (int p = 0; p < v->nplanes; p++) {
        v->w[p] = v->y4m.plane_w[p];
        v->h[p] = v->y4m.plane_h[p];
        v->off[p] = v->y4m.plane_off[p];
    }
    v->frame_bytes = v->y4m.frame_bytes;
    return LW_EXIT_OK;
}

/* A seekable .y4m whose frames all begin with a bare "FRAME\n" right after
 * the header: 1 with the frame count and the first frame's data offset (the
 * planes are then read in place), else 0: frame parameters, a size or an end
 * that does not divide into whole frames; the spooled path reads those and
 * reports what is wrong. */
static int direct_frames(video_src *v, int64_t *frames, uint64_t *data0)
{
    if (v->raw || v->f == stdin) return 0;
    int fd = fileno(v->f);
    off_t start = ftello(v->f);
    struct stat st;
    if (fd < 0 || start < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= start) return 0;
    const uint64_t pitch = 6 + (uint64_t)v->frame_bytes, body = (uint64_t)(st.st_size - start);
    if (body % pitch) return 0;
    for (uint64_t t = 0; t < body / pitch; t++) {
        char tag[6];
        if (pread(fd, tag, 6, (off_t)((uint64_t)start + t * pitch)) != 6 || memcmp(tag, "FRAME\n", 6) != 0) return 0;
    }
    *frames = (int64_t)(body / pitch);
    *data0 = (uint64_t)start + 6;
    return 1;
}

/* OUT with ".y" (etc.) before the extension. */
static void plane_path(const char *out, int p, char *buf, size_t len)
{
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (!dot || (slash && dot < slash)) dot = out + strlen(out);
    snprintf(buf, len, "%.*s.%c%s", (int)(dot - out), out, plane_names[p], dot);
}

static int scratch_file(const char *out, int *fd)
{
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash == out ? 1 : slash - out), out);
    char path[4200];
    snprintf(path, sizeof path, "%s/.liftwave-frames.XXXXXX", dir);
    *fd = mkstemp(path);
    if (*fd < 0)
        return lw_cli_fail(LW_EXIT_DATA, "cannot create a scratch file for the frames in '%s': %s", lw_cli_path(dir),
                           strerror(errno));
    unlink(path);
    return LW_EXIT_OK;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Append every frame's chosen planes to the scratch files. */
static int spool(const char *in, video_src *v, int first, int last, const int *fd)
{
    unsigned char *frame = malloc((size_t)v->frame_bytes);
    if (!frame) return lw_cli_fail(LW_EXIT_DATA, "out of memory (one frame of %lld bytes)", (long long)v->frame_bytes);
    char err[512] = "";
    int rc = LW_EXIT_OK;
    for (;;) {
        int eof = 0;
        if (next_frame(v, frame, &eof, err, sizeof err) != 0) {
            rc = lw_cli_fail(LW_EXIT_DATA, "%s: %s", strcmp(in, "-") ? lw_cli_path(in) : "standard input", err);
            break;
        }
        if (eof) break;
        for (int p = first; p <= last; p++)
            if (write_all(fd[p], frame + v->off[p], (size_t)(v->w[p] * v->h[p])) != 0) {
                rc = lw_cli_fail(LW_EXIT_DATA, "cannot write the frames' scratch file: %s",
                                 strerror(errno ? errno : ENOSPC));
                break;
            }
        if (rc != LW_EXIT_OK) break;
    }
    free(frame);
    if (rc == LW_EXIT_OK && v->frames == 0)
        rc = lw_cli_fail(LW_EXIT_DATA, "%s: no frames", strcmp(in, "-") ? lw_cli_path(in) : "standard input");
    return rc;
}

int lw_cli_video_forward(const char *in, const char *out, lw_cli_opts *o)
{
    int rc;
    if ((rc = lw_cli_check_output(out, 0)) != LW_EXIT_OK) return rc;
    lw_io_format fo = lw_io_format_of(out);
    if (fo != LW_FMT_NPY && fo != LW_FMT_RAW)
        return lw_cli_fail(LW_EXIT_USAGE, "the transform of a video goes to a .npy or .raw file, not '%s'",
                           lw_cli_path(out));
    if ((rc = lw_cli_check_combination(o, 1)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_env_tuning()) != LW_EXIT_OK) return rc;
    if (o->naxes && o->naxes != 3)
        return lw_cli_fail(LW_EXIT_USAGE, "a video is transformed along (T,H,W): --axes must name all three");
    video_src v;
    if ((rc = open_video(in, o, &v)) != LW_EXIT_OK) return rc;
    int first = 0, last = o->all_planes ? v.nplanes - 1 : 0;
    int fd[MAX_PLANES] = {-1, -1, -1, -1};
    char paths[MAX_PLANES][4200];
    int done = 0;
    uint64_t data0 = 0;
    const int direct = direct_frames(&v, &v.frames, &data0);
    for (int p = first; p <= last && rc == LW_EXIT_OK && !direct; p++) rc = scratch_file(out, &fd[p]);
    if (rc == LW_EXIT_OK && !direct) rc = spool(in, &v, first, last, fd);
    lw_dtype dt;
    if (rc == LW_EXIT_OK) rc = lw_cli_work_dtype(LW_IO_U8, o->integer, &dt);
    for (int p = first; p <= last && rc == LW_EXIT_OK; p++) {
        lw_cli_stream_src src;
        memset(&src, 0, sizeof src);
        src.name = strcmp(in, "-") ? in : "standard input";
        src.fd = direct ? fileno(v.f) : fd[p];
        if (direct) src.offset = data0 + (uint64_t)v.off[p], src.pitch0 = 6 + (uint64_t)v.frame_bytes;
        src.type = LW_IO_U8;
        src.rank = 3;
        src.shape[0] = v.frames;
        src.shape[1] = v.h[p];
        src.shape[2] = v.w[p];
        lw_config cfg;
        lw_config_init(&cfg);
        if ((rc = lw_cli_fill_config(o, 3, src.shape, dt, LW_FORWARD, 0, &cfg)) != LW_EXIT_OK) break;
        lw_plan *plan = NULL;
        lw_status st = lw_plan_create(&plan, &cfg);
        lw_destroy(plan);
        if (st != LW_OK) {
            rc = lw_cli_fail(LW_EXIT_DATA, "%s (%lld frames of %lldx%lld)", lw_last_error(), (long long)v.frames,
                             (long long)v.h[p], (long long)v.w[p]);
            break;
        }
        if (o->all_planes)
            plane_path(out, p, paths[p], sizeof paths[p]);
        else
            snprintf(paths[p], sizeof paths[p], "%s", out);
        lw_cli_meta rec;
        memset(&rec, 0, sizeof rec);
        rec.source_dtype = LW_IO_U8;
        rec.source_rank = 3;
        memcpy(rec.source_shape, src.shape, sizeof rec.source_shape);
        rc = lw_cli_stream_to_file(&src, paths[p], o, &cfg, &rec);
        if (rc == LW_EXIT_OK) done = p + 1;
    }
    if (rc != LW_EXIT_OK) /* all planes or none */
        for (int p = first; p < done; p++) {
            unlink(paths[p]);
            lw_cli_meta_remove(paths[p]);
        }
    for (int p = 0; p < MAX_PLANES; p++)
        if (fd[p] >= 0) close(fd[p]);
    if (v.f && v.f != stdin) fclose(v.f);
    if (rc == LW_EXIT_OK && o->verbose) {
        printf("video %s: %lld frames of %lldx%lld (%s), %d plane%s transformed (frames %s)\n",
               strcmp(in, "-") ? in : "stdin", (long long)v.frames, (long long)v.w[0], (long long)v.h[0],
               v.raw ? "raw" : v.y4m.colorspace, last - first + 1, last > first ? "s" : "",
               direct ? "read from the file in place" : "spooled to a scratch file");
        fflush(stdout);
    }
    return rc;
}
