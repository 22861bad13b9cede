/* File input and output for the liftwave CLI: NumPy .npy, PNM (.pgm/.ppm/.pnm),
 * PNG (libpng, when built with it) and .raw.  Internal to the tools; not part of
 * the library's public API.
 *
 * Every function returns 0 on success and -1 on failure with a one-line
 * message in err (no trailing newline).  Nothing here prints or exits. */
#ifndef LW_IO_H
#define LW_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LW_IO_MAX_RANK 4

typedef enum lw_io_type {
    LW_IO_U8 = 0,
    LW_IO_U16 = 1,
    LW_IO_I16 = 2,
    LW_IO_I32 = 3,
    LW_IO_F32 = 4,
    LW_IO_F64 = 5
} lw_io_type;

/* A dense C-order array.  Images are (height, width) for gray and
 * (height, width, channels) for colour / alpha (channels last). */
typedef struct lw_array {
    int rank;
    int64_t shape[LW_IO_MAX_RANK];
    lw_io_type type;
    void *data; /* owned; malloc'd; free with lw_array_free */
} lw_array;

typedef enum lw_io_format {
    LW_FMT_UNKNOWN = 0,
    LW_FMT_NPY,
    LW_FMT_PNM, /* .pgm .ppm .pnm */
    LW_FMT_PNG,
    LW_FMT_RAW
} lw_io_format;

/* Format from the file name's extension (case-insensitive). */
lw_io_format lw_io_format_of(const char *path);

/* For .raw: the shape and element type the caller states. */
typedef struct lw_raw_spec {
    int rank; /* 0 = not given */
    int64_t shape[LW_IO_MAX_RANK];
    lw_io_type type;
    int have_type;
} lw_raw_spec;

size_t lw_io_type_size(lw_io_type t);
const char *lw_io_type_name(lw_io_type t);          /* "uint8", "float32", ... */
int lw_io_type_parse(const char *name, lw_io_type *t); /* 0 ok, -1 unknown */
/* "512x512", "512,512" or "4x512x512" -> rank and shape; 0 ok, -1 bad. */
int lw_io_shape_parse(const char *text, lw_raw_spec *spec);

/* Element count and byte count with overflow checks (0 ok, -1 overflow). */
int lw_array_count(const lw_array *a, int64_t *count, size_t *bytes);
/* Allocate a->data for a->rank/shape/type (0 ok, -1 with err). */
int lw_array_alloc(lw_array *a, char *err, size_t errlen);
void lw_array_free(lw_array *a);

/* Read any supported file (format from the extension; raw needs spec).
 * Checks every header field and the data length against the file size. */
int lw_io_read(const char *path, const lw_raw_spec *spec, lw_array *out, char *err, size_t errlen);

/* Check that path names a readable, non-empty regular file (opened and
 * closed again), so a caller can report a missing input before anything
 * else.  The message starts with the path, like lw_io_read's. */
int lw_io_check_readable(const char *path, char *err, size_t errlen);

/* A path as messages show it: unchanged when it has fewer than len
 * characters, else its first and last characters around "...", so that it
 * takes len - 1 characters and the reason after it is never cut off.
 * Writes into buf (len >= 16 to shorten) and returns buf.  lw_io_read and
 * lw_io_write name files this way with len = LW_IO_PATH_BRIEF. */
#define LW_IO_PATH_BRIEF 256
const char *lw_io_path_brief(const char *path, char *buf, size_t len);

/* Write an array.  The file appears atomically: data goes to a temporary file
 * in the same directory, which is renamed over path only when complete, so a
 * failure never leaves a partial output.  PNM/PNG accept LW_IO_U8 and
 * LW_IO_U16 arrays of rank 2 (gray) or rank 3 with 1..4 channels (PNM: 1 or 3). */
int lw_io_write(const char *path, const lw_array *a, char *err, size_t errlen);

/* Format-specific readers from memory (used by the fuzz targets). */
int lw_npy_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen);
int lw_pnm_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen);
int lw_png_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen);
int lw_raw_read_mem(const unsigned char *buf, size_t len, const lw_raw_spec *spec, lw_array *out,
                    char *err, size_t errlen);

/* 1 if PNG support was compiled in. */
int lw_io_have_png(void);

/* ---- Lower-level pieces shared by the src/io sources (and the tests) ------
 * Messages written by these carry no file name; lw_io_read / lw_io_write
 * prefix the path. */

/* Write "fmt ..." into err (err may be NULL or errlen 0); always returns -1. */
int lw_io_fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "512x512" text of a shape (truncated to fit len). */
void lw_io_shape_text(int rank, const int64_t *shape, char *buf, size_t len);
/* A usable array: rank 1..4, every axis >= 1, a known type, byte count that
 * fits size_t, data not NULL.  count/bytes may be NULL. */
int lw_array_check(const lw_array *a, int64_t *count, size_t *bytes, char *err, size_t errlen);
/* Can this format hold this array?  Checked before any file is created. */
int lw_io_check_writable(lw_io_format fmt, const lw_array *a, char *err, size_t errlen);
/* 1 on a little-endian host. */
int lw_io_host_le(void);
/* Copy n elements of size elsize (1, 2, 4 or 8) from src to dst reversing the
 * bytes of each; dst may equal src. */
void lw_io_swap_copy(void *dst, const void *src, size_t n, size_t elsize);

/* Whole-file read: regular files only, size checked; *buf is malloc'd (free it). */
int lw_io_read_file(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen);

/* ---- Pieces for reading and writing a file in parts (src/stream) -------- */

/* The header of a .npy file: buf[0..len) holds at least the header (the
 * first LW_NPY_PROBE_BYTES of the file, or all of a shorter file) and
 * file_size is the whole file's size.  Fills info's rank, shape and type
 * (data NULL) and *data_off; the same checks as lw_io_read, the data size
 * included. */
#define LW_NPY_PROBE_BYTES 65536
int lw_npy_parse_head(const unsigned char *buf, size_t len, uint64_t file_size, lw_array *info, size_t *data_off,
                      char *err, size_t errlen);
/* The version 1.0 header lw_io_write writes for this rank, shape and type
 * (LW_NPY_HEADER_MAX bytes always suffice); *len = its length, a multiple
 * of 64. */
#define LW_NPY_HEADER_MAX 512
int lw_npy_header(int rank, const int64_t *shape, lw_io_type type, unsigned char *head, size_t cap, size_t *len,
                  char *err, size_t errlen);

/* ---- YUV4MPEG2 video (io_y4m.c) ------------------------------------------ */
typedef struct lw_y4m {
    FILE *f;
    int64_t width, height;
    int fps_num, fps_den, par_num, par_den;
    char interlace;           /* p t b m ? */
    char colorspace[16];      /* the C tag, "420jpeg" when absent */
    int nplanes;              /* 1 (mono), 3, 4 (444alpha) */
    int64_t plane_w[4], plane_h[4], plane_off[4]; /* bytes, within a frame */
    int64_t frame_bytes;
    int64_t frames;           /* read so far */
} lw_y4m;
/* Read and check the stream header from f. */
int lw_y4m_open(lw_y4m *y, FILE *f, char *err, size_t errlen);
/* The next frame's planes into frame (frame_bytes), or *eof = 1 at a clean
 * end of the stream.  A truncated frame, a bad FRAME header or a new stream
 * header (the size changing mid-stream) is an error naming the frame. */
int lw_y4m_read_frame(lw_y4m *y, unsigned char *frame, int *eof, char *err, size_t errlen);

/* Stream writers (the stream is a temporary file opened by lw_io_write). */
int lw_npy_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen);
int lw_pnm_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen);
int lw_png_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen);
int lw_raw_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen);
/* Per-format writability checks used by lw_io_check_writable. */
int lw_pnm_check_writable(const lw_array *a, char *err, size_t errlen);
int lw_png_check_writable(const lw_array *a, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* LW_IO_H */
