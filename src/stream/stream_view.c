/* Rows of arrays stored in files: positioned reads and writes (pread,
 * pwrite; nothing mapped, so the page cache is not counted in the process'
 * memory), conversion of the stored type to the transform's dtype, strided
 * views, and the overlay of a coarser level's samples. */
#define _POSIX_C_SOURCE 200809L
#include "lw_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lw_sview_dense(lw_sview *v, int fd, uint64_t offset, lw_io_type type, int rank, const int64_t *shape)
{
    memset(v, 0, sizeof *v);
    v->fd = fd;
    v->offset = offset;
    v->type = type;
    v->rank = rank;
    for (int a = 0; a < rank; a++) {
        v->fshape[a] = v->count[a] = shape[a];
        v->step[a] = 1;
    }
}

int64_t lw_sview_elems(const lw_sview *v)
{
    int64_t n = 1;
    for (int a = 0; a < v->rank; a++) n *= v->count[a];
    return n;
}

int64_t lw_sview_inner(const lw_sview *v, int s)
{
    int64_t n = 1;
    for (int a = s + 1; a < v->rank; a++) n *= v->count[a];
    return n;
}

int64_t lw_sview_outer(const lw_sview *v, int s)
{
    int64_t n = 1;
    for (int a = 0; a < s; a++) n *= v->count[a];
    return n;
}

int lw_sio_init(lw_sio *io, size_t cap)
{
    memset(io, 0, sizeof *io);
    io->bounce = malloc(cap);
    if (!io->bounce) return lw_io_fail(io->err, sizeof io->err, "out of memory (%zu bytes of I/O buffer)", cap);
    io->cap = cap;
    return 0;
}

void lw_sio_free(lw_sio *io)
{
    free(io->bounce);
    io->bounce = NULL;
    io->cap = 0;
}

lw_io_type lw_sview_work_type(lw_dtype t)
{
    return t == LW_FLOAT64 ? LW_IO_F64 : t == LW_INT32 ? LW_IO_I32 : LW_IO_F32;
}

/* ---- whole reads and writes at an offset ---------------------------------- */

static int pread_all(int fd, void *buf, size_t n, uint64_t off, lw_sio *io)
{
    unsigned char *p = buf;
    while (n > 0) {
        size_t chunk = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
        ssize_t r = pread(fd, p, chunk, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return lw_io_fail(io->err, sizeof io->err, "read failed: %s", strerror(errno));
        if (r == 0) return lw_io_fail(io->err, sizeof io->err, "read failed: the file is shorter than its header says");
        p += r;
        off += (uint64_t)r;
        n -= (size_t)r;
        io->bytes_read += r;
    }
    return 0;
}

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t off, lw_sio *io)
{
    const unsigned char *p = buf;
    while (n > 0) {
        size_t chunk = n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n;
        ssize_t r = pwrite(fd, p, chunk, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return lw_io_fail(io->err, sizeof io->err, "write failed: %s", strerror(r < 0 ? errno : ENOSPC));
        p += r;
        off += (uint64_t)r;
        n -= (size_t)r;
        io->bytes_written += r;
    }
    return 0;
}

/* ---- conversion of n elements taken every `pick`-th from src -------------- */

#define CONVERT_LOOP(TS, TD)                                                   \
    do {                                                                       \
        const TS *s_ = (const TS *)src;                                        \
        TD *d_ = (TD *)dst;                                                    \
        for (size_t i_ = 0; i_ < n; i_++) d_[i_] = (TD)s_[i_ * pick];          \
    } while (0)

#define CONVERT_FROM(TD)                                                       \
    switch (st) {                                                              \
    case LW_IO_U8: CONVERT_LOOP(uint8_t, TD); break;                           \
    case LW_IO_U16: CONVERT_LOOP(uint16_t, TD); break;                         \
    case LW_IO_I16: CONVERT_LOOP(int16_t, TD); break;                          \
    case LW_IO_I32: CONVERT_LOOP(int32_t, TD); break;                          \
    case LW_IO_F32: CONVERT_LOOP(float, TD); break;                            \
    case LW_IO_F64: CONVERT_LOOP(double, TD); break;                           \
    }

static void convert(const void *src, lw_io_type st, size_t pick, void *dst, lw_dtype wt, size_t n)
{
    switch (wt) {
    case LW_FLOAT32: CONVERT_FROM(float); break;
    case LW_FLOAT64: CONVERT_FROM(double); break;
    case LW_INT32: CONVERT_FROM(int32_t); break;
    case LW_FLOAT16:
    case LW_BFLOAT16: break; /* never a stream's work type (lw_cli_work_dtype) */
    }
}

/* Elements of one index of axis 0 (a frame). */
static uint64_t plane_elems(const lw_sview *v)
{
    uint64_t p = 1;
    for (int a = 1; a < v->rank; a++) p *= (uint64_t)v->fshape[a];
    return p;
}

/* Byte offset of file element e. */
static uint64_t byte_at(const lw_sview *v, uint64_t e)
{
    size_t fes = lw_io_type_size(v->type);
    if (!v->pitch0) return v->offset + e * fes;
    uint64_t P = plane_elems(v);
    return v->offset + (e / P) * v->pitch0 + (e % P) * fes;
}

/* Of n elements from e, every pick-th, how many lie in e's frame (all of
 * them in a dense file) */
static int64_t in_frame(const lw_sview *v, uint64_t e, int64_t pick, int64_t n)
{
    if (!v->pitch0) return n;
    uint64_t P = plane_elems(v), left = P - e % P;
    int64_t k = (int64_t)((left - 1) / (uint64_t)pick) + 1;
    return k < n ? k : n;
}

/* Move n elements of a run (file elements at `first`, every `pick`-th) to
 * or from dst (dense, dtype wt). */
static int run_io(const lw_sview *v, uint64_t first, int64_t n, int64_t pick, void *mem, lw_dtype wt, int write,
                  lw_sio *io)
{
    size_t fes = lw_io_type_size(v->type), wes = lw_dtype_size(wt);
    unsigned char *m = mem;
    if (write && v->type != lw_sview_work_type(wt))
        return lw_io_fail(io->err, sizeof io->err, "internal: a write must be in the work type");
    int same = v->type == lw_sview_work_type(wt);
    if (same && pick == 1) {
        for (int64_t done = 0; done < n;) { /* one piece per frame the run crosses */
            int64_t k = in_frame(v, first + (uint64_t)done, 1, n - done);
            uint64_t off = byte_at(v, first + (uint64_t)done);
            unsigned char *p = m + (size_t)done * fes;
            if ((write ? pwrite_all(v->fd, p, (size_t)k * fes, off, io) : pread_all(v->fd, p, (size_t)k * fes, off, io)) != 0)
                return -1;
            done += k;
        }
        return 0;
    }
    /* through the bounce buffer, as many elements as fit at a time (within a frame) */
    int64_t per = (int64_t)(io->cap / (fes * (size_t)pick));
    if (per < 1) per = 1; /* far apart: one element at a time */
    for (int64_t done = 0; done < n;) {
        int64_t k = n - done < per ? n - done : per;
        k = in_frame(v, first + (uint64_t)(done * pick), pick, k);
        uint64_t off = byte_at(v, first + (uint64_t)(done * pick));
        size_t span = (size_t)((k - 1) * pick + 1) * fes;
        if (pread_all(v->fd, io->bounce, span, off, io) != 0) return -1;
        if (!write) {
            convert(io->bounce, v->type, (size_t)pick, m + (size_t)done * wes, wt, (size_t)k);
        } else {
            for (int64_t i = 0; i < k; i++)
                memcpy(io->bounce + (size_t)(i * pick) * fes, m + (size_t)(done + i) * wes, wes);
            if (pwrite_all(v->fd, io->bounce, span, off, io) != 0) return -1;
        }
        done += k;
    }
    return 0;
}

/* File element index of the view element with index idx (per axis). */
static uint64_t file_index(const lw_sview *v, const int64_t *idx)
{
    uint64_t e = 0;
    for (int a = 0; a < v->rank; a++) e = e * (uint64_t)v->fshape[a] + (uint64_t)(idx[a] * v->step[a]);
    return e;
}

/* Is rows x inner of one outer index one contiguous range of the file? */
static int rows_contiguous(const lw_sview *v, int s)
{
    if (v->step[s] != 1) return 0;
    for (int a = s + 1; a < v->rank; a++)
        if (v->count[a] != v->fshape[a] || v->step[a] != 1) return 0;
    return 1;
}

/* Advance the multi-index idx over axes [lo, hi) (last fastest); 0 at the end. */
static int next_index(int64_t *idx, const int64_t *count, int lo, int hi)
{
    for (int a = hi - 1; a >= lo; a--) {
        if (++idx[a] < count[a]) return 1;
        idx[a] = 0;
    }
    return 0;
}

static int rows_io(const lw_sview *v, int s, int64_t row0, int64_t nrows, void *buf, lw_dtype wt, int64_t brows,
                   int64_t brow0, int write, lw_sio *io)
{
    if (nrows <= 0) return 0;
    int r = v->rank;
    size_t wes = lw_dtype_size(wt);
    int64_t inner = lw_sview_inner(v, s), outer = lw_sview_outer(v, s);
    int contig = rows_contiguous(v, s);
    int64_t idx[LW_IO_MAX_RANK] = {0};
    for (int64_t o = 0; o < outer; o++) {
        unsigned char *base = (unsigned char *)buf + (size_t)((o * brows + brow0) * inner) * wes;
        idx[s] = row0;
        for (int a = s + 1; a < r; a++) idx[a] = 0;
        if (contig) {
            if (run_io(v, file_index(v, idx), nrows * inner, 1, base, wt, write, io) != 0) return -1;
        } else if (s == r - 1) {
            if (run_io(v, file_index(v, idx), nrows, v->step[s], base, wt, write, io) != 0) return -1;
        } else {
            int64_t nlast = v->count[r - 1];
            for (int64_t i = 0; i < nrows; i++) {
                idx[s] = row0 + i;
                for (int a = s + 1; a < r; a++) idx[a] = 0;
                unsigned char *row = base + (size_t)(i * inner) * wes;
                int64_t k = 0;
                do {
                    if (run_io(v, file_index(v, idx), nlast, v->step[r - 1], row + (size_t)(k * nlast) * wes, wt,
                               write, io) != 0)
                        return -1;
                    k++;
                } while (next_index(idx, v->count, s + 1, r - 1));
            }
        }
        next_index(idx, v->count, 0, s);
    }
    return 0;
}

int lw_sview_read_rows(const lw_sview *v, int s, int64_t row0, int64_t nrows, void *buf, lw_dtype wt, int64_t brows,
                       int64_t brow0, lw_sio *io)
{
    return rows_io(v, s, row0, nrows, buf, wt, brows, brow0, 0, io);
}

int lw_sview_write_rows(const lw_sview *v, int s, int64_t row0, int64_t nrows, const void *buf, lw_dtype wt,
                        int64_t brows, int64_t brow0, lw_sio *io)
{
    return rows_io(v, s, row0, nrows, (void *)buf, wt, brows, brow0, 1, io);
}

int lw_sview_overlay_rows(const lw_sview *ov, const int64_t *ostep, const lw_sview *region, int s, int64_t row0,
                          int64_t nrows, void *buf, lw_dtype wt, int64_t brows, int64_t brow0, void *tmp,
                          lw_sio *io)
{
    int r = region->rank;
    size_t wes = lw_dtype_size(wt);
    int64_t inner = lw_sview_inner(region, s), outer = lw_sview_outer(region, s);
    int64_t oinner = lw_sview_inner(ov, s);
    /* strides of the region's inner axes in the buffer */
    int64_t bst[LW_IO_MAX_RANK] = {0};
    int64_t st = 1;
    for (int a = r - 1; a > s; a--) {
        bst[a] = st;
        st *= region->count[a];
    }
    for (int64_t i = row0; i < row0 + nrows; i++) {
        if (i % ostep[s] != 0 || i / ostep[s] >= ov->count[s]) continue;
        if (lw_sview_read_rows(ov, s, i / ostep[s], 1, tmp, wt, 1, 0, io) != 0) return -1;
        for (int64_t o = 0; o < outer; o++) {
            unsigned char *row = (unsigned char *)buf + (size_t)((o * brows + brow0 + i - row0) * inner) * wes;
            const unsigned char *src = (const unsigned char *)tmp + (size_t)(o * oinner) * wes;
            int64_t idx[LW_IO_MAX_RANK] = {0};
            /* runs along the last axis: whole when the overlay is dense there */
            int last = r - 1 > s ? r - 1 : s;
            int64_t run = (last > s && ostep[last] == 1) ? ov->count[last] : 1;
            int hi = run > 1 ? r - 1 : r;
            int64_t k = 0;
            do {
                int64_t at = 0;
                for (int a = s + 1; a < r; a++) at += idx[a] * ostep[a] * bst[a];
                memcpy(row + (size_t)at * wes, src + (size_t)k * wes, (size_t)run * wes);
                k += run;
            } while (next_index(idx, ov->count, s + 1, hi));
        }
    }
    return 0;
}
