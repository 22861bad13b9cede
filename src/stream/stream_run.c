/* The levels of an out-of-core transform: which run as passes of slabs,
 * which in memory, and the files between them.
 *
 * Forward: level 1 streams from the input to the output; each further
 * level works on its region of the output (Mallat: the lowpass corner;
 * interleaved: every 2^(k-1)-th sample along the transformed axes): in
 * memory with all the remaining levels as soon as the region fits the
 * limit, else as a pass into a scratch file whose content is then copied
 * back into the region (a pass cannot write the region it reads: Mallat
 * puts highpass rows where input rows still wait).
 *
 * Inverse: the innermost levels whose region fits run in memory, from the
 * input file into a scratch file; then each outer level is a pass whose
 * source is its region of the input with the finer result laid over it
 * (lw_sview_overlay_rows), into the next scratch file, the last one into
 * the output.  Scratch files are unlinked as soon as they are made, so
 * nothing is left behind, whatever happens. */
#define _POSIX_C_SOURCE 200809L
#include "lw_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct run_state {
    lw_stream_job *job;
    const lw_config *full; /* the resolved whole transform */
    size_t es;
    lw_sio io;
    int scratch[2];
    int64_t done, total;
} run_state;

static int fail(run_state *st, const char *fmt, const char *arg)
{
    snprintf(st->job->err, sizeof st->job->err, fmt, arg);
    return -1;
}

static int is_axis(const lw_config *c, int a)
{
    for (int i = 0; i < c->naxes; i++)
        if (c->axes[i] == a) return 1;
    return 0;
}

/* The region of level k (1-based) within the view of a whole array. */
static void level_region(const lw_config *c, const lw_sview *whole, int k, lw_sview *r)
{
    *r = *whole;
    for (int a = 0; a < c->rank; a++) {
        if (!is_axis(c, a)) continue;
        if (c->layout == LW_MALLAT) {
            r->count[a] = lw_lowpass_length(whole->count[a], k - 1);
        } else {
            int64_t g = (int64_t)1 << (k - 1);
            r->count[a] = (whole->count[a] + g - 1) / g;
            r->step[a] = whole->step[a] * g;
        }
    }
}

/* The configuration of `levels` levels on a region's shape. */
static void region_config(const lw_config *full, const lw_sview *r, int levels, lw_config *c)
{
    *c = *full;
    for (int a = 0; a < full->rank; a++) c->shape[a] = r->count[a];
    c->levels = levels;
}

/* The slowest transformed axis with more than one row (-1: none). */
static int slab_axis(const lw_config *c, const lw_sview *r)
{
    for (int i = 0; i < c->naxes; i++)
        if (r->count[c->axes[i]] > 1) return c->axes[i];
    return -1;
}

static int region_fits(const run_state *st, const lw_sview *r, int levels)
{
    int d = 0;
    for (int i = 0; i < st->full->naxes; i++) d += r->count[st->full->axes[i]] > 1;
    uint64_t lim = st->job->memory_limit;
    return lim > st->io.cap && lw_stream_fits((uint64_t)lw_sview_elems(r) * st->es, d, levels, lim - st->io.cap);
}

static void report(run_state *st)
{
    if (st->job->progress) st->job->progress(st->job->progress_ctx, st->done, st->total);
}

/* In memory: `levels` levels of src into dst (0 levels: a copy). */
static int in_memory(run_state *st, const lw_sview *src, const lw_sview *dst, int levels)
{
    lw_config c;
    region_config(st->full, src, levels, &c);
    int64_t n = lw_sview_elems(src);
    void *buf = malloc((size_t)n * st->es), *res = levels > 0 ? malloc((size_t)n * st->es) : buf;
    if (!buf || !res) {
        free(buf);
        if (res != buf) free(res);
        return fail(st, "out of memory (%s)", "in-memory level");
    }
    int rc = lw_sview_read_rows(src, 0, 0, src->count[0], buf, c.dtype, src->count[0], 0, &st->io);
    if (rc == 0 && levels > 0) {
        lw_plan *p = NULL;
        if (lw_plan_create(&p, &c) != LW_OK || lw_execute(p, buf, res) != LW_OK)
            rc = lw_io_fail(st->io.err, sizeof st->io.err, "%s", lw_last_error());
        lw_destroy(p);
    }
    if (rc == 0) rc = lw_sview_write_rows(dst, 0, 0, dst->count[0], res, c.dtype, dst->count[0], 0, &st->io);
    if (res != buf) free(res);
    free(buf);
    st->done += n;
    report(st);
    return rc;
}

/* Slab rows for a region, or an error when the limit cannot hold the
 * smallest slab (two rows and the halos). */
static int slab_rows_for(run_state *st, const lw_sview *r, int s, int64_t halo, int overlay, int64_t *rows)
{
    int64_t outer = lw_sview_outer(r, s), inner = lw_sview_inner(r, s);
    uint64_t lim = st->job->memory_limit, fixed = st->io.cap;
    if (overlay) fixed += (uint64_t)(outer * inner) * st->es;
    *rows = lim > fixed ? lw_stream_max_slab_rows(outer, inner, st->es, halo, lim - fixed) : 0;
    if (*rows >= 2) return 0;
    char need[32], have[32], msg[256];
    uint64_t min = fixed + lw_stream_min_bytes(outer, inner, st->es, halo);
    lw_stream_size_text(min, need, sizeof need);
    lw_stream_size_text(lim, have, sizeof have);
    snprintf(msg, sizeof msg,
             "memory limit %s is too small to stream this array: a slab of 2 rows and %lld rows of halo on each side "
             "along axis %d needs about %s",
             have, (long long)halo, s, need);
    return fail(st, "%s", msg);
}

static int new_scratch(run_state *st, int which)
{
    if (st->scratch[which] >= 0) return st->scratch[which];
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/.liftwave-scratch.XXXXXX", st->job->scratch_dir ? st->job->scratch_dir : ".");
    if (n < 0 || (size_t)n >= sizeof path) return fail(st, "%s", "scratch directory path too long");
    int fd = mkstemp(path);
    if (fd < 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot create a scratch file in '%.300s': %s", st->job->scratch_dir, strerror(errno));
        return fail(st, "%s", msg);
    }
    unlink(path);
    st->scratch[which] = fd;
    return fd;
}

static int one_pass(run_state *st, const lw_sview *src, const lw_sview *dst, const lw_sview *ov, const int64_t *ostep,
                    int first)
{
    lw_config c1;
    region_config(st->full, src, 1, &c1);
    int s = slab_axis(st->full, src);
    if (s < 0) return in_memory(st, src, dst, 1);
    int64_t halo, rows;
    if (lw_stream_halo(c1.wavelet, c1.direction, &halo, st->job->err, sizeof st->job->err) != 0) return -1;
    if (slab_rows_for(st, src, s, halo, ov != NULL, &rows) != 0) return -1;
    if (first) {
        st->job->halo = halo;
        st->job->slab_rows = rows;
    }
    lw_spass p = {&c1, s, halo, rows, src, dst, ov, ostep, &st->io, st->job->progress, st->job->progress_ctx,
                  &st->done, st->total};
    st->job->levels_streamed++;
    return lw_stream_pass(&p);
}

/* Copy a region into another of the same counts, in slabs of rows along
 * axis 0 (a scratch file into the output, or the input's coarsest lowpass
 * into a scratch file). */
static int copy_region(run_state *st, const lw_sview *src, const lw_sview *dst)
{
    int64_t inner = lw_sview_inner(src, 0);
    uint64_t room = st->job->memory_limit > st->io.cap ? st->job->memory_limit - st->io.cap : 0;
    int64_t rows = (int64_t)(room / ((uint64_t)inner * st->es));
    if (rows < 1) rows = 1;
    if (rows > src->count[0]) rows = src->count[0];
    void *buf = malloc((size_t)(rows * inner) * st->es);
    if (!buf) return fail(st, "out of memory (%s)", "copy");
    int rc = 0;
    for (int64_t r = 0; r < src->count[0] && rc == 0; r += rows) {
        int64_t k = src->count[0] - r < rows ? src->count[0] - r : rows;
        rc = lw_sview_read_rows(src, 0, r, k, buf, st->full->dtype, k, 0, &st->io);
        if (rc == 0) rc = lw_sview_write_rows(dst, 0, r, k, buf, st->full->dtype, k, 0, &st->io);
    }
    free(buf);
    return rc;
}

static void dense_like(const lw_sview *r, int fd, lw_io_type t, lw_sview *d)
{
    lw_sview_dense(d, fd, 0, t, r->rank, r->count);
}

static int run_forward(run_state *st)
{
    const lw_config *c = st->full;
    lw_stream_job *job = st->job;
    lw_io_type wt = lw_sview_work_type(c->dtype);
    for (int k = 1; k <= c->levels; k++) {
        lw_sview src, dst;
        level_region(c, k == 1 ? &job->in : &job->out, k, &src);
        level_region(c, &job->out, k, &dst);
        if (region_fits(st, &src, c->levels - k + 1)) return in_memory(st, &src, &dst, c->levels - k + 1);
        if (k == 1) {
            if (one_pass(st, &src, &dst, NULL, NULL, 1) != 0) return -1;
            continue;
        }
        int fd = new_scratch(st, 0);
        if (fd < 0) return -1;
        lw_sview tmp;
        dense_like(&dst, fd, wt, &tmp);
        if (one_pass(st, &src, &tmp, NULL, NULL, 0) != 0 || copy_region(st, &tmp, &dst) != 0) return -1;
    }
    return 0;
}

static int run_inverse(run_state *st)
{
    const lw_config *c = st->full;
    lw_stream_job *job = st->job;
    lw_io_type wt = lw_sview_work_type(c->dtype);
    int L = c->levels, m = 1;
    lw_sview r;
    for (m = 1; m <= L; m++) {
        level_region(c, &job->in, m, &r);
        if (region_fits(st, &r, L - m + 1)) break;
    }
    /* levels m..L in memory (none when m = L + 1: the coarsest lowpass is copied) */
    level_region(c, &job->in, m, &r);
    if (m == 1) return in_memory(st, &r, &job->out, L);
    int cur = 0;
    lw_sview fine;
    int fd = new_scratch(st, cur);
    if (fd < 0) return -1;
    dense_like(&r, fd, wt, &fine);
    if (m > L ? copy_region(st, &r, &fine) : in_memory(st, &r, &fine, L - m + 1)) return -1;
    int64_t ostep[LW_IO_MAX_RANK];
    for (int a = 0; a < c->rank; a++) ostep[a] = (c->layout == LW_INTERLEAVED && is_axis(c, a)) ? 2 : 1;
    for (int k = m - 1; k >= 1; k--) {
        lw_sview src, dst;
        level_region(c, &job->in, k, &src);
        if (k == 1) {
            dst = job->out;
        } else {
            if ((fd = new_scratch(st, 1 - cur)) < 0) return -1;
            dense_like(&src, fd, wt, &dst);
        }
        if (one_pass(st, &src, &dst, &fine, ostep, k == 1) != 0) return -1;
        fine = dst;
        cur = 1 - cur;
    }
    return 0;
}

int lw_stream_run(lw_stream_job *job)
{
    job->err[0] = 0;
    job->levels_streamed = 0;
    job->halo = job->slab_rows = 0;
    if (!lw_io_host_le()) return lw_io_fail(job->err, sizeof job->err, "streaming needs a little-endian host");
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &job->cfg) != LW_OK) return lw_io_fail(job->err, sizeof job->err, "%s", lw_last_error());
    if (job->out.type != lw_sview_work_type(job->cfg.dtype)) {
        lw_destroy(p);
        return lw_io_fail(job->err, sizeof job->err, "internal: the output must hold the transform's dtype");
    }
    lw_config full = *lw_plan_config(p);
    lw_destroy(p);
    full.scheme = job->cfg.scheme; /* the plan's copies went with it */
    full.tuning = job->cfg.tuning;
    job->levels = full.levels;
    run_state st;
    memset(&st, 0, sizeof st);
    st.job = job;
    st.full = &full;
    st.es = lw_dtype_size(full.dtype);
    st.scratch[0] = st.scratch[1] = -1;
    uint64_t cap = job->memory_limit / 32;
    if (cap > (4u << 20)) cap = 4u << 20;
    if (cap < (4u << 10)) cap = 4u << 10;
    if (lw_sio_init(&st.io, (size_t)cap) != 0) return lw_io_fail(job->err, sizeof job->err, "%s", st.io.err);
    /* progress: every element of every level's region, once */
    for (int k = 1; k <= (full.levels > 0 ? full.levels : 1); k++) {
        lw_sview r;
        level_region(&full, &job->in, k, &r);
        st.total += lw_sview_elems(&r);
    }
    int rc;
    if (full.levels == 0) /* the identity: a copy, in slabs */
        rc = copy_region(&st, &job->in, &job->out);
    else
        rc = full.direction == LW_FORWARD ? run_forward(&st) : run_inverse(&st);
    if (rc != 0 && !job->err[0]) snprintf(job->err, sizeof job->err, "%s", st.io.err);
    st.done = st.total;
    if (rc == 0) report(&st);
    for (int i = 0; i < 2; i++)
        if (st.scratch[i] >= 0) close(st.scratch[i]);
    lw_sio_free(&st.io);
    return rc;
}
