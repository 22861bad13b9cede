/* Kernels of the separable-pass schemes of Kucis et al. (paper 000), shared
 * by the family table (scheme_sep.c, C) and the kernel files k_sep_horiz.cu
 * and k_sep_vert.cu.
 *
 * A pass lifts a set of lines (one level, one axis).  Every line is read and
 * written through two parity views: sample t of a line lives in view `e` if t
 * is even, in view `o` if odd, at index t/2 of that view.  So the same kernel
 * reads an interleaved line (e = base, o = base + stride, both with a doubled
 * position stride) or the two halves of a Mallat line (e = low band, o = high
 * band), and writes either.  Lines with index >= split take view e2 instead of
 * e (the forward row pass sends the lowpass of the upper half of the rows to
 * the LL band and that of the lower half to the LH band). */
#ifndef LW_K_SEP_H
#define LW_K_SEP_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One parity view: element k of line l of batch item (b0, b1) is at
 * p + b0*bs[0] + b1*bs[1] + l*ls + k*ps (elements). */
typedef struct lwk_sep_ref {
    const void *p;
    int64_t ls, ps, bs[2];
} lwk_sep_ref;

typedef struct lwk_sep_side {
    lwk_sep_ref e, e2, o;
    int64_t split; /* lines >= split use e2 for the even samples */
} lwk_sep_side;

/* Convolution filters (galiano): out[t] = sum_m f[t&1][m + LWK_SEP_FC] * in[t + m]. */
#define LWK_SEP_FC 8
#define LWK_SEP_NF (2 * LWK_SEP_FC + 1)

typedef struct lwk_sep_lines {
    lwk_wave w;
    int64_t n;       /* line length */
    int64_t nlines;  /* lines per batch item */
    int64_t blen[2]; /* batch dims (1 if unused) */
    int mode;
    lwk_sep_side in, out;
    double fd[2][LWK_SEP_NF]; /* galiano only: forward or inverse filters */
    float ff[2][LWK_SEP_NF];
} lwk_sep_lines;

/* Horizontal-pass algorithms (lines contiguous or strided, one block a line). */
enum { LWK_SEPH_GALIANO = 0, LWK_SEPH_LAAN, LWK_SEPH_BZ1, LWK_SEPH_BZ4, LWK_SEPH_COUNT };
/* Vertical-pass algorithms (neighbouring lines contiguous: ls == 1). */
enum { LWK_SEPV_LAAN = 0, LWK_SEPV_BLAZEWICZ, LWK_SEPV_KUCIS, LWK_SEPV_COUNT };

cudaError_t lwk_sep_hpass(int kind, int dtype, int inverse, const lwk_sep_lines *L, cudaStream_t s);
/* kind LWK_SEPV_LAAN or LWK_SEPV_KUCIS (blazewicz is transpose + hpass). */
cudaError_t lwk_sep_vpass(int kind, int dtype, int inverse, const lwk_sep_lines *L, cudaStream_t s);

/* dst[b][c][r] = src[b][r][c] for rows x cols planes (strides in elements). */
typedef struct lwk_sep_tr {
    const void *src;
    void *dst;
    int64_t rows, cols, srs, drs, sbs[2], dbs[2], blen[2];
} lwk_sep_tr;
cudaError_t lwk_sep_transpose(int dtype, const lwk_sep_tr *t, cudaStream_t s);

/* Operations per 2x2 quad (one per tap executed, scaling omitted) and
 * barriers per window position of one forward level of sep:H+V for wavelet
 * (an lw_wavelet), counted from the step tables the kernels lift with; 0 if
 * the pair does not take the wavelet.  Host code (k_sep_cost.cu). */
int lwk_sep_cost(int h, int v, int wavelet, double *ops, int *barriers);

#ifdef __cplusplus
}
#endif

#endif
