/* Long-line passes (k_line1d.cu), as the host code launches them. */
#ifndef LW_K_LINE1D_H
#define LW_K_LINE1D_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Long-line passes (k_line1d.cu): one level along contiguous lines too long
 * for a block, forward or inverse (not the adjoints).  The input's even
 * positions come from lo, its odd ones from hi (one buffer, or the inverse's
 * lowpass reconstructed in out and its highpass still in the input), in
 * Mallat halves (in_split: odd position 2i + 1 at nlo + i) or in order; the
 * output to dst likewise (out_split).  A launch runs nlev levels in order
 * (at most LWK_LINE1D_MAXLEV, lines of one geometry): held[i] = 0, the
 * level reads no buffer it writes (the first level only); held[i] = 1, it
 * may (in place), and every block loads its chunk before any stores (a
 * cooperative launch), which lwk_line1d_held_fits says the device holds.
 * lwk_line1d_supported: the type, wavelet and a line length the kernels
 * take. */
typedef struct lwk_line1d {
    lwk_wave w;
    int mode, inverse;
    lwk_lines L;  /* the level's lines (n, lstride, their bases) */
    int64_t nlo;  /* ceil(n / 2) */
    const void *lo, *hi;
    void *dst;
    int in_split, out_split;
    /* lines compact in a buffer of their own (line i at i * cl, unit stride),
     * not at the array's places; 0: the array's.  lo_cl: every input sample in
     * order at lo (lo == hi), or the input's lowpass, position 2i at i; dst_cl:
     * every output sample in order at dst (dst == dst_hi), or the output's
     * lowpass, 2i at i (its Mallat half, out_split), the highpass to dst_hi at
     * the array's places */
    int64_t lo_cl, dst_cl;
    void *dst_hi; /* the highpass's buffer where it is not dst's (NULL: dst) */
    /* in_split / out_split per pair of this many samples (0: the line's
     * halves): pair j's even positions at j * pair + i, its odd ones at
     * j * pair + pair / 2 + i (the rounds of a level in place; Ikuzawa's
     * chunks, which a row reorder then moves to the Mallat order) */
    int64_t pair;
    int64_t hold; /* rounds: most samples a round takes (0: what the resident blocks hold) */
} lwk_line1d;
int lwk_line1d_supported(int dtype, const lwk_wave *w, int64_t n);
int lwk_line1d_held_fits(int dtype, const lwk_line1d *p);
#define LWK_LINE1D_MAXLEV 16
cudaError_t lwk_line1d_launch(int dtype, const lwk_line1d *lev, const int *held, int nlev, cudaStream_t s);
/* One level in place (lo == hi == dst) that the device cannot hold at once,
 * in rounds of one cooperative launch: whole lines, as many a round as the
 * resident blocks hold, or each line in rounds of consecutive segments (a
 * multiple of pair samples), a round's blocks loading before any stores and
 * saving the raw samples the next round's windows reach back to (side:
 * lwk_line1d_side_bytes of device memory).  pair: a multiple of 32, at most
 * one sample more than the last pair holds. */
size_t lwk_line1d_side_bytes(int dtype, const lwk_wave *w);
int lwk_line1d_rounds_fit(int dtype, const lwk_line1d *p);
cudaError_t lwk_line1d_rounds(int dtype, const lwk_line1d *p, void *side, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
