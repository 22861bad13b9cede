/* The out-of-core path of `liftwave forward|inverse` (cli_stream.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_stream.h"

#include "cli_meta_apply.h"
#include "cli_output.h"
#include "cli_progress.h"
#include "cli_tmpfile.h"
#include "cli_transform.h"
#include "lw_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t lw_cli_memory_limit(const lw_cli_opts *o)
{
    return o->memory_limit ? o->memory_limit : lw_stream_default_limit();
}

static int is_array_file(const char *path)
{
    lw_io_format f = lw_io_format_of(path);
    return f == LW_FMT_NPY || f == LW_FMT_RAW;
}

/* Open IN and read its header: shape, type, offset of the data. */
static int open_source(const char *in, const lw_cli_opts *o, lw_cli_stream_src *src)
{
    memset(src, 0, sizeof *src);
    src->name = in;
    int fd = open(in, O_RDONLY);
    if (fd < 0) return lw_cli_fail(LW_EXIT_DATA, "%s: cannot open: %s", lw_cli_path(in), strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close(fd);
        return lw_cli_fail(LW_EXIT_DATA, "%s: cannot stat: %s", lw_cli_path(in), strerror(errno));
    }
    char err[512] = "";
    int bad = 0;
    lw_array info;
    memset(&info, 0, sizeof info);
    if (lw_io_format_of(in) == LW_FMT_NPY) {
        unsigned char head[LW_NPY_PROBE_BYTES];
        ssize_t n = pread(fd, head, sizeof head, 0);
        size_t off = 0;
        if (n < 0)
            bad = lw_io_fail(err, sizeof err, "read failed: %s", strerror(errno));
        else
            bad = lw_npy_parse_head(head, (size_t)n, (uint64_t)st.st_size, &info, &off, err, sizeof err);
        src->offset = off;
    } else {
        info.rank = o->raw.rank;
        info.type = o->raw.type;
        memcpy(info.shape, o->raw.shape, sizeof info.shape);
        size_t bytes = 0;
        if (lw_array_count(&info, NULL, &bytes) != 0)
            bad = lw_io_fail(err, sizeof err, "raw shape is too large (byte count overflows)");
        else if ((uint64_t)st.st_size != bytes) {
            char s[96];
            lw_io_shape_text(info.rank, info.shape, s, sizeof s);
            bad = lw_io_fail(err, sizeof err, "wrong size: shape %s of %s needs %llu bytes, file has %llu", s,
                             lw_io_type_name(info.type), (unsigned long long)bytes, (unsigned long long)st.st_size);
        }
    }
    if (bad) {
        close(fd);
        return lw_cli_fail(LW_EXIT_DATA, "%s: %s", lw_cli_path(in), err);
    }
    src->fd = fd;
    src->type = info.type;
    src->rank = info.rank;
    memcpy(src->shape, info.shape, sizeof src->shape);
    return LW_EXIT_OK;
}

static uint64_t elems_of(int rank, const int64_t *shape)
{
    uint64_t n = 1;
    for (int i = 0; i < rank; i++) n *= (uint64_t)shape[i];
    return n;
}

/* Checksum of n bytes of a file from offset off, read in parts. */
/* Add n bytes of fd from off to the checksum s. */
static int file_checksum(int fd, uint64_t off, uint64_t n, lw_cli_checksum_state *s)
{
    size_t cap = 8u << 20;
    unsigned char *b = malloc(cap);
    if (!b) return -1;
    while (n > 0) {
        size_t k = n < cap ? (size_t)n : cap;
        ssize_t r = pread(fd, b, k, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            free(b);
            return -1;
        }
        lw_cli_checksum_add(s, b, (size_t)r);
        off += (uint64_t)r;
        n -= (uint64_t)r;
    }
    free(b);
    return 0;
}

static uint64_t source_sum(void *ctx)
{
    const lw_cli_stream_src *src = ctx;
    uint64_t sum = 0, bytes = elems_of(src->rank, src->shape) * lw_io_type_size(src->type);
    lw_cli_checksum_state s;
    lw_cli_checksum_init(&s);
    /* the data's bytes in order: one run, or one per index of axis 0 past the bytes between them */
    uint64_t runs = src->pitch0 ? (uint64_t)src->shape[0] : 1, each = bytes / runs;
    for (uint64_t r = 0; r < runs; r++)
        if (file_checksum(src->fd, src->offset + r * src->pitch0, each, &s) != 0)
            return ~0ull; /* unreadable: reported as a changed content */
    sum = lw_cli_checksum_end(&s);
    return sum;
}

int lw_cli_stream_to_file(const lw_cli_stream_src *src, const char *out, const lw_cli_opts *o, lw_config *cfg,
                          lw_cli_meta *meta)
{
    double t0 = lw_cli_now();
    lw_io_type wt = lw_cli_io_type(cfg->dtype);
    uint64_t data = elems_of(src->rank, src->shape) * lw_io_type_size(wt);
    unsigned char head[LW_NPY_HEADER_MAX];
    size_t hlen = 0;
    char err[512] = "";
    if (lw_io_format_of(out) == LW_FMT_NPY &&
        lw_npy_header(src->rank, src->shape, wt, head, sizeof head, &hlen, err, sizeof err) != 0)
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': %s", lw_cli_path(out), err);
    char *meta_tmp = NULL;
    lw_cli_tmpfile t;
    int rc = lw_cli_tmpfile_open(&t, out, hlen + data);
    if (rc != LW_EXIT_OK) return rc;
    if (hlen && pwrite(t.fd, head, hlen, 0) != (ssize_t)hlen) {
        int e = errno;
        lw_cli_tmpfile_abort(&t);
        return lw_cli_fail(LW_EXIT_DATA, "cannot write '%s': %s", lw_cli_path(out), strerror(e));
    }
    lw_stream_job job;
    memset(&job, 0, sizeof job);
    job.cfg = *cfg;
    lw_sview_dense(&job.in, src->fd, src->offset, src->type, src->rank, src->shape);
    job.in.pitch0 = src->pitch0;
    lw_sview_dense(&job.out, t.fd, hlen, wt, src->rank, src->shape);
    job.scratch_dir = t.dir;
    job.memory_limit = lw_cli_memory_limit(o);
    lw_cli_progress bar;
    lw_cli_progress_init(&bar, cfg->direction == LW_FORWARD ? "forward" : "inverse", o->quiet,
                          o->progress_after);
    job.progress = lw_cli_progress_update;
    job.progress_ctx = &bar;
    int st = lw_stream_run(&job);
    lw_cli_progress_end(&bar);
    if (st != 0) {
        lw_cli_tmpfile_abort(&t);
        return lw_cli_fail(LW_EXIT_DATA, "%s -> %s: %s", lw_cli_path(src->name), lw_cli_path(out), job.err);
    }
    double t1 = lw_cli_now();
    if (meta) {
        snprintf(meta->library_version, sizeof meta->library_version, "%s", lw_version());
        meta->wavelet = cfg->wavelet;
        meta->levels = job.levels;
        meta->mode = cfg->mode;
        meta->layout = cfg->layout;
        lw_plan *p = NULL;
        lw_config c = *cfg;
        if (lw_plan_create(&p, &c) == LW_OK) {
            meta->naxes = lw_plan_config(p)->naxes;
            memcpy(meta->axes, lw_plan_config(p)->axes, sizeof meta->axes);
        }
        lw_destroy(p);
        meta->integer = cfg->integer;
        meta->dtype = wt;
        meta->rank = src->rank;
        memcpy(meta->shape, src->shape, sizeof meta->shape);
        lw_cli_checksum_state cs;
        lw_cli_checksum_init(&cs);
        int bad = file_checksum(t.fd, hlen, data, &cs) != 0;
        meta->checksum = lw_cli_checksum_end(&cs);
        if (bad) {
            int e = errno;
            lw_cli_tmpfile_abort(&t);
            return lw_cli_fail(LW_EXIT_DATA, "cannot read back '%s': %s", lw_cli_path(out), strerror(e));
        }
        if ((rc = lw_cli_meta_stage(t.path, meta, &meta_tmp)) != LW_EXIT_OK) {
            lw_cli_tmpfile_abort(&t);
            return rc;
        }
    }
    if ((rc = lw_cli_tmpfile_commit(&t)) != LW_EXIT_OK) {
        lw_cli_meta_discard(meta_tmp);
        return rc;
    }
    if (!meta)
        lw_cli_meta_remove(t.path);
    else if ((rc = lw_cli_meta_commit(t.path, meta_tmp)) != LW_EXIT_OK) {
        unlink(t.path);
        return rc;
    }
    if (o->verbose) {
        char lim[32];
        lw_stream_size_text(job.memory_limit, lim, sizeof lim);
        printf("%s %s -> %s out of core: %s, %d level%s (%d streamed), slabs of %lld rows with a halo of %lld, "
               "memory limit %s; transform %.3f s, total %.3f s\n",
               cfg->direction == LW_FORWARD ? "forward" : "inverse", src->name, out, lw_wavelet_name(cfg->wavelet),
               job.levels, job.levels == 1 ? "" : "s", job.levels_streamed, (long long)job.slab_rows,
               (long long)job.halo, lim, t1 - t0, lw_cli_now() - t0);
        fflush(stdout);
    }
    return LW_EXIT_OK;
}

int lw_cli_stream_maybe(const char *in, const char *out, lw_cli_opts *o, lw_direction dir, int *streamed)
{
    *streamed = 0;
    if (!is_array_file(in) || !is_array_file(out)) return LW_EXIT_OK;
    lw_cli_stream_src src;
    int rc = open_source(in, o, &src);
    if (rc != LW_EXIT_OK) return rc;
    lw_dtype dt;
    uint64_t n = elems_of(src.rank, src.shape);
    uint64_t limit = lw_cli_memory_limit(o);
    /* the in-memory path holds the file's bytes and the array in the work
     * type, and executes in place (a copy of the array); counted as three
     * arrays of the larger type */
    size_t es = lw_io_type_size(src.type), wes = (!o->integer && (src.type == LW_IO_F64 || src.type == LW_IO_I32)) ? 8 : 4;
    if (wes > es) es = wes;
    if (lw_stream_fits(n * es * 3 / 2, 3, 1, limit)) {
        close(src.fd);
        return LW_EXIT_OK;
    }
    *streamed = 1;
    lw_cli_meta meta;
    memset(&meta, 0, sizeof meta);
    int have_meta = 0;
    if (dir == LW_INVERSE) {
        char real[16384];
        if ((rc = lw_cli_resolve(in, real, sizeof real)) != LW_EXIT_OK ||
            (rc = lw_cli_meta_load_described(real, src.rank, src.shape, src.type, source_sum, &src, o, &meta,
                                             &have_meta)) != LW_EXIT_OK ||
            (have_meta && (rc = lw_cli_meta_apply(o, &meta, in)) != LW_EXIT_OK) ||
            (rc = lw_cli_check_combination(o, 1)) != LW_EXIT_OK)
            goto done;
    }
    if ((rc = lw_cli_work_dtype(src.type, o->integer, &dt)) != LW_EXIT_OK) goto done;
    if (src.rank < 1 || src.rank > LW_MAX_RANK) {
        rc = lw_cli_fail(LW_EXIT_DATA, "'%s' holds a rank-%d array; liftwave takes rank 1..%d", lw_cli_path(in),
                         src.rank, LW_MAX_RANK);
        goto done;
    }
    lw_config cfg;
    lw_config_init(&cfg);
    if ((rc = lw_cli_fill_config(o, src.rank, src.shape, dt, dir, 0, &cfg)) != LW_EXIT_OK) goto done;
    lw_plan *p = NULL;
    lw_status st = lw_plan_create(&p, &cfg);
    if (st != LW_OK) {
        rc = lw_cli_fail_lib(st);
        goto done;
    }
    int levels = lw_plan_config(p)->levels;
    lw_destroy(p);
    if (have_meta && (rc = lw_cli_meta_check_levels(o, &meta, in, levels)) != LW_EXIT_OK) goto done;
    lw_cli_meta rec;
    memset(&rec, 0, sizeof rec);
    rec.source_dtype = src.type;
    rec.source_rank = src.rank;
    memcpy(rec.source_shape, src.shape, sizeof rec.source_shape);
    rc = lw_cli_stream_to_file(&src, out, o, &cfg, dir == LW_FORWARD ? &rec : NULL);
done:
    close(src.fd);
    return rc;
}
