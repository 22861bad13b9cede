/* PNG reader and writer through libpng (when built with LW_HAVE_PNG).
 *
 * Reading: gray -> (H, W); gray+alpha, RGB, RGBA -> (H, W, C).  Palette
 * images expand to RGB (RGBA when they carry transparency); gray below 8 bits
 * expands to 8 bits (libpng scales 1/2/4-bit values to 0..255).  8-bit images
 * give LW_IO_U8, 16-bit ones LW_IO_U16.  Interlaced images are supported.
 * Writing: uint8/uint16, (H, W) or (H, W, C) with C = 1..4. */
#include "lw_io.h"

#include <stdlib.h>
#include <string.h>

#ifndef LW_HAVE_PNG

#define NO_PNG "PNG support not built (install libpng-dev)"

int lw_io_have_png(void) { return 0; }

int lw_png_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    if (out)
        memset(out, 0, sizeof *out);
    return lw_io_fail(err, errlen, NO_PNG);
}

int lw_png_check_writable(const lw_array *a, char *err, size_t errlen) { return lw_io_fail(err, errlen, NO_PNG); }

int lw_png_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen)
{
    return lw_io_fail(err, errlen, NO_PNG);
}

#else

#include <png.h>

int lw_io_have_png(void) { return 1; }

typedef struct png_ctx {
    const unsigned char *buf;
    size_t len, pos;
    char msg[160];
} png_ctx;

static void on_error(png_structp png, png_const_charp msg)
{
    png_ctx *c = png_get_error_ptr(png);
    if (c && c->msg[0] == 0)
        snprintf(c->msg, sizeof c->msg, "%s", msg ? msg : "unknown libpng error");
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void on_read(png_structp png, png_bytep dst, size_t n)
{
    png_ctx *c = png_get_io_ptr(png);
    if (n > c->len - c->pos) {
        snprintf(c->msg, sizeof c->msg, "truncated PNG data");
        png_error(png, "truncated");
    }
    memcpy(dst, c->buf + c->pos, n);
    c->pos += n;
}

/* Deflate cannot expand data by more than about 1032:1. */
#define MAX_INFLATE_RATIO 1040u

int lw_png_read_mem(const unsigned char *buf, size_t len, lw_array *out, char *err, size_t errlen)
{
    if (!out)
        return lw_io_fail(err, errlen, "no output array");
    memset(out, 0, sizeof *out);
    if (!buf || len == 0)
        return lw_io_fail(err, errlen, "empty file");
    if (len < 8 || png_sig_cmp(buf, 0, 8) != 0)
        return lw_io_fail(err, errlen, "not a PNG file (bad signature)");

    png_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.buf = buf;
    ctx.len = len;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_error, on_warning);
    if (!png)
        return lw_io_fail(err, errlen, "out of memory (libpng)");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return lw_io_fail(err, errlen, "out of memory (libpng)");
    }
    png_bytep *volatile rows = NULL;
    void *volatile data = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(data);
        png_destroy_read_struct(&png, &info, NULL);
        memset(out, 0, sizeof *out);
        return lw_io_fail(err, errlen, "bad PNG: %s", ctx.msg[0] ? ctx.msg : "decode failed");
    }
    png_set_read_fn(png, &ctx, on_read);
    png_set_user_limits(png, 0x7fffffffu, 0x7fffffffu);
    png_read_info(png, info);

    png_uint_32 w = 0, h = 0;
    int depth = 0, ctype = 0, interlace = 0;
    png_get_IHDR(png, info, &w, &h, &depth, &ctype, &interlace, NULL, NULL);
    int spp = ctype == PNG_COLOR_TYPE_GRAY ? 1
              : ctype == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
              : ctype == PNG_COLOR_TYPE_RGB ? 3
              : ctype == PNG_COLOR_TYPE_RGB_ALPHA ? 4
                                                   : 1;
    /* Refuse before allocating anything when the compressed data cannot
     * possibly hold the image the header describes. */
    uint64_t rowbits = (uint64_t)w * (uint64_t)spp * (uint64_t)depth;
    uint64_t row_min = rowbits / 8 ? rowbits / 8 : 1;
    uint64_t limit = (uint64_t)len * MAX_INFLATE_RATIO + 4096;
    if (w == 0 || h == 0 || row_min > limit / h) {
        snprintf(ctx.msg, sizeof ctx.msg, "a %lux%lu image cannot fit in %llu bytes", (unsigned long)w,
                 (unsigned long)h, (unsigned long long)len);
        png_error(png, "too large");
    }

    if (ctype == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
        if (png_get_valid(png, info, PNG_INFO_tRNS))
            png_set_tRNS_to_alpha(png);
    }
    if ((ctype == PNG_COLOR_TYPE_GRAY || ctype == PNG_COLOR_TYPE_GRAY_ALPHA) && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int chans = png_get_channels(png, info);
    int odepth = png_get_bit_depth(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if ((odepth != 8 && odepth != 16) || chans < 1 || chans > 4) {
        snprintf(ctx.msg, sizeof ctx.msg, "unexpected decoded layout (%d channels of %d bits)", chans, odepth);
        png_error(png, "layout");
    }
    out->type = odepth == 16 ? LW_IO_U16 : LW_IO_U8;
    out->rank = chans == 1 ? 2 : 3;
    out->shape[0] = h;
    out->shape[1] = w;
    out->shape[2] = chans;
    size_t bytes;
    if (lw_array_count(out, NULL, &bytes) != 0 || rowbytes != (size_t)w * (size_t)chans * (size_t)(odepth / 8)) {
        snprintf(ctx.msg, sizeof ctx.msg, "image %lux%lu is too large", (unsigned long)w, (unsigned long)h);
        png_error(png, "size");
    }
    rows = malloc(sizeof(png_bytep) * h);
    data = calloc(1, bytes); /* zeroed: rows libpng might leave short stay defined */
    if (!rows || !data) {
        snprintf(ctx.msg, sizeof ctx.msg, "out of memory: %llu bytes", (unsigned long long)bytes);
        png_error(png, "oom");
    }
    for (png_uint_32 y = 0; y < h; y++)
        rows[y] = (png_bytep)data + (size_t)y * rowbytes;
    png_read_image(png, rows);

    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    if (odepth == 16 && lw_io_host_le())
        lw_io_swap_copy(data, data, bytes / 2, 2); /* PNG stores 16-bit samples big-endian */
    out->data = data;
    return 0;
}

int lw_png_check_writable(const lw_array *a, char *err, size_t errlen)
{
    if (a->type != LW_IO_U8 && a->type != LW_IO_U16)
        return lw_io_fail(err, errlen, "PNG holds uint8 or uint16 images, not %s (write .npy instead)",
                          lw_io_type_name(a->type));
    char st[96];
    lw_io_shape_text(a->rank, a->shape, st, sizeof st);
    if (a->rank != 2 && !(a->rank == 3 && a->shape[2] >= 1 && a->shape[2] <= 4))
        return lw_io_fail(err, errlen, "PNG holds (height, width) or (height, width, 1..4) images, not shape %s", st);
    if (a->shape[0] > 0x7fffffff || a->shape[1] > 0x7fffffff)
        return lw_io_fail(err, errlen, "image %s is too large for PNG (at most 2^31-1 per side)", st);
    return 0;
}

typedef struct png_wctx {
    FILE *f;
    char msg[160];
} png_wctx;

static void on_write_error(png_structp png, png_const_charp msg)
{
    png_wctx *c = png_get_error_ptr(png);
    if (c && c->msg[0] == 0)
        snprintf(c->msg, sizeof c->msg, "%s", msg ? msg : "unknown libpng error");
    png_longjmp(png, 1);
}

int lw_png_write_stream(FILE *f, const lw_array *a, char *err, size_t errlen)
{
    if (lw_array_check(a, NULL, NULL, err, errlen) != 0 || lw_png_check_writable(a, err, errlen) != 0)
        return -1;
    png_uint_32 h = (png_uint_32)a->shape[0], w = (png_uint_32)a->shape[1];
    int chans = a->rank == 3 ? (int)a->shape[2] : 1;
    int wide = a->type == LW_IO_U16;
    static const int ctypes[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                  PNG_COLOR_TYPE_RGB_ALPHA};
    size_t rowbytes = (size_t)w * (size_t)chans * (wide ? 2u : 1u);

    png_wctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.f = f;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_write_error, on_warning);
    if (!png)
        return lw_io_fail(err, errlen, "out of memory (libpng)");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return lw_io_fail(err, errlen, "out of memory (libpng)");
    }
    unsigned char *volatile tmp = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(tmp);
        png_destroy_write_struct(&png, &info);
        return lw_io_fail(err, errlen, "PNG write failed: %s", ctx.msg[0] ? ctx.msg : "unknown error");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, wide ? 16 : 8, ctypes[chans], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (wide) {
        tmp = malloc(rowbytes);
        if (!tmp) {
            snprintf(ctx.msg, sizeof ctx.msg, "out of memory");
            png_error(png, "oom");
        }
    }
    const unsigned char *src = a->data;
    for (png_uint_32 y = 0; y < h; y++) {
        const unsigned char *row = src + (size_t)y * rowbytes;
        if (wide) {
            const uint16_t *r16 = (const uint16_t *)(const void *)row;
            for (size_t i = 0; i < rowbytes / 2; i++) {
                tmp[2 * i] = (unsigned char)(r16[i] >> 8);
                tmp[2 * i + 1] = (unsigned char)(r16[i] & 0xff);
            }
            row = tmp;
        }
        png_write_row(png, (png_const_bytep)row);
    }
    png_write_end(png, NULL);
    free(tmp);
    png_destroy_write_struct(&png, &info);
    return 0;
}

#endif
