/* Transforms of arrays that live in files and need not fit in memory: the
 * CLI's out-of-core path (`liftwave forward|inverse --memory-limit`, and
 * video).  Internal to the tools, on the public API of liftwave.h only.
 *
 * The array is cut into slabs along its slowest transformed axis.  One
 * level of the transform runs on each slab extended by a halo (the reach
 * of the wavelet's lifting steps), through an ordinary lw_plan of the
 * slab's shape; the rows far enough from the slab's cut edges are exactly
 * the rows of the whole array's transform and are written to their place
 * in the output file.  Further levels work on the level's region (Mallat:
 * the lowpass corner; interleaved: the samples on the level's grid): in
 * memory once it fits the limit, otherwise by another pass of slabs.
 * See docs/OUT_OF_CORE.md.
 *
 * Every function returns 0 or -1 with a one-line message (no trailing
 * newline, no file name unless said) in the job's or io's err. */
#ifndef LW_STREAM_H
#define LW_STREAM_H

#include "liftwave.h"
#include "lw_io.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- views of arrays in files (stream_view.c) ---------------------------- */

/* The elements of a C-order array of shape fshape stored at byte offset
 * `offset` of file fd (host byte order), taken count[a] along each axis a
 * at every step[a]-th index from 0 (a dense view: count = fshape, step 1).
 * pitch0: bytes from one index of axis 0 to the next when the file has
 * something between them (a video file's frame headers); 0: dense. */
typedef struct lw_sview {
    int fd;
    uint64_t offset;
    uint64_t pitch0;
    lw_io_type type;
    int rank;
    int64_t fshape[LW_IO_MAX_RANK];
    int64_t count[LW_IO_MAX_RANK];
    int64_t step[LW_IO_MAX_RANK];
} lw_sview;

/* A dense view of the whole array. */
void lw_sview_dense(lw_sview *v, int fd, uint64_t offset, lw_io_type type, int rank, const int64_t *shape);

/* Elements of a view, and elements per row along axis s (the product of
 * the counts after s) and per outer index (before s). */
int64_t lw_sview_elems(const lw_sview *v);
int64_t lw_sview_inner(const lw_sview *v, int s);
int64_t lw_sview_outer(const lw_sview *v, int s);

/* The I/O state of a pass: a bounce buffer for conversions and strided
 * runs, and the message of the first failure. */
typedef struct lw_sio {
    unsigned char *bounce;
    size_t cap;
    int64_t bytes_read, bytes_written;
    char err[512];
} lw_sio;

/* cap bytes of bounce buffer (at least one row of the widest file); 0/-1. */
int lw_sio_init(lw_sio *io, size_t cap);
void lw_sio_free(lw_sio *io);

/* The io type holding a work dtype (float32 -> LW_IO_F32, ...). */
lw_io_type lw_sview_work_type(lw_dtype t);

/* Move rows [row0, row0 + nrows) along axis s of view v to or from rows
 * [brow0, brow0 + nrows) of buf, an array of shape (outer, brows, inner)
 * of dtype wt (outer and inner: v's counts before and after s).  Reading
 * converts any file type to wt; writing needs the file type to be wt's. */
int lw_sview_read_rows(const lw_sview *v, int s, int64_t row0, int64_t nrows, void *buf, lw_dtype wt, int64_t brows,
                       int64_t brow0, lw_sio *io);
int lw_sview_write_rows(const lw_sview *v, int s, int64_t row0, int64_t nrows, const void *buf, lw_dtype wt,
                        int64_t brows, int64_t brow0, lw_sio *io);

/* After lw_sview_read_rows of region rows [row0, row0 + nrows): replace the
 * elements the overlay ov covers.  Element j of ov (per axis) sits at index
 * j * ostep[a] of the region.  tmp holds one row of ov (outer * ov inner
 * elements of wt). */
int lw_sview_overlay_rows(const lw_sview *ov, const int64_t *ostep, const lw_sview *region, int s, int64_t row0,
                          int64_t nrows, void *buf, lw_dtype wt, int64_t brows, int64_t brow0, void *tmp,
                          lw_sio *io);

/* ---- the reach of one level (stream_halo.c) ------------------------------ */

/* Rows of halo one level of this wavelet needs on each side of a slab, in
 * the given direction: the distance over which a sample influences the
 * result, measured with the library on an impulse, with a margin, rounded
 * up to even.  0/-1 (err). */
int lw_stream_halo(lw_wavelet w, lw_direction dir, int64_t *halo, char *err, size_t errlen);

/* ---- memory limits (stream_budget.c) ------------------------------------- */

/* "512M", "2G", "1048576", "64K" (powers of 1024; a trailing "B" or "iB"
 * allowed) -> bytes; 0/-1. */
int lw_stream_parse_size(const char *text, uint64_t *bytes);
/* The default limit: half the machine's physical memory (at least 64 MiB). */
uint64_t lw_stream_default_limit(void);
/* "256 MiB" */
void lw_stream_size_text(uint64_t bytes, char *buf, size_t len);

/* ---- the job (stream_run.c, stream_pass.c) ------------------------------- */

typedef void (*lw_stream_progress_fn)(void *ctx, int64_t done, int64_t total);

typedef struct lw_stream_job {
    lw_config cfg;          /* the whole transform; shape = the array's, dtype the work type */
    lw_sview in;            /* dense view of the input (any io type) */
    lw_sview out;           /* dense view of the output (the work type) */
    const char *scratch_dir; /* directory for scratch files (unlinked at once) */
    uint64_t memory_limit;  /* bytes for the buffers of the transform */
    lw_stream_progress_fn progress;
    void *progress_ctx;
    /* filled by lw_stream_run */
    int levels;             /* resolved */
    int levels_streamed;    /* levels done by passes of slabs */
    int64_t halo;           /* rows, of the first pass */
    int64_t slab_rows;      /* output rows per slab of the first pass */
    char err[512];
} lw_stream_job;

/* Run the job.  The output view receives the transform of the input, equal
 * to lw_execute on the whole array.  Nothing but the output region and
 * unlinked scratch files is written. */
int lw_stream_run(lw_stream_job *job);

/* Does an array of this many bytes (in the work type) fit the limit when
 * transformed in memory with `levels` levels along d axes? */
int lw_stream_fits(uint64_t work_bytes, int d, int levels, uint64_t memory_limit);

/* Internal to stream_run.c / stream_pass.c: one level of the transform as
 * a pass of slabs from region src (with an optional overlay, inverse only)
 * to region dst of the same counts.  cfg1 is the one-level configuration
 * of the region's shape. */
typedef struct lw_spass {
    const lw_config *cfg1;
    int s;                  /* the slowest transformed axis */
    int64_t halo;
    int64_t slab_rows;      /* output rows per slab, even */
    const lw_sview *src, *dst;
    const lw_sview *overlay; /* NULL, or the coarser level's samples (inverse) */
    const int64_t *ostep;
    lw_sio *io;
    lw_stream_progress_fn progress;
    void *progress_ctx;
    int64_t *done;
    int64_t total;
} lw_spass;
int lw_stream_pass(const lw_spass *p);

/* The largest slab_rows whose buffers fit `bytes`, and the least bytes a
 * pass needs (two rows and the halos). */
int64_t lw_stream_max_slab_rows(int64_t outer, int64_t inner, size_t es, int64_t halo, uint64_t bytes);
uint64_t lw_stream_min_bytes(int64_t outer, int64_t inner, size_t es, int64_t halo);

#ifdef __cplusplus
}
#endif

#endif
