/* Row-band plans of the fused 2-D engine's first level (band_plan.c): host
 * arithmetic, no CUDA, so that it is tested on any machine. */
#ifndef LW_BAND_PLAN_H
#define LW_BAND_PLAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Row bands of the first level of a multi-level fused 2-D transform whose
 * workspace lies inside in/out (launched by src/cuda/tile2d_bands.c).  Planes are dense and
 * contiguous (the two transformed axes are the last two); plane 0 goes in row
 * bands, the other planes in groups of whole planes.
 * Forward (LW_FLAG_DESTROY_INPUT, or host pointers: the device copy of the
 * input is the library's): the lowpass band LL1 is written compactly into
 * `in` over input rows that are already consumed; band 0's LL rows go to
 * out's LL corner (free during level 1) and are copied over afterwards.
 * Inverse: the levels above the first reconstruct into `out` (free until the
 * first level writes it), LL1 compactly at out's start; the first level then
 * writes out bottom-up in row bands that never overwrite LL1 rows still to be
 * read; its top rows [0, x) go to a stash (scratch, or with
 * LW_FLAG_DESTROY_INPUT rows of `in` nothing reads any more) copied last.
 * Where the lowpass of the first planes fits a small copy (lead_max), the
 * inverse copies it out and runs those planes in one launch instead of
 * plane 0's row bands, whose small launches are latency. */
#define LW_BANDS_MAX 64
typedef struct lw_band_geo {
    int64_t R, C, hr, hc; /* level-1 plane rows, columns, lowpass rows, lowpass columns */
    int64_t nb;           /* planes */
    int H;                /* reach of one level (rows) */
    int mode;
    int64_t stash_cheap;  /* inverse, stash inside `in`: rows it may take to save small bands */
    int64_t lead_max;     /* inverse: LL1 samples a copy in scratch may hold (0: none) */
} lw_band_geo;

typedef struct lw_bands {
    int n;                          /* row bands of plane 0 */
    int64_t b[LW_BANDS_MAX + 1];    /* forward: 0 = b[0] < .. < b[n] = R; inverse: R = b[0] > .. > b[n] = x */
    int ng;                         /* groups of whole planes */
    int64_t g[LW_BANDS_MAX + 1];    /* forward: 1 = g[0] < .. = nb; inverse: nb = g[0] > .. > g[ng] = 1 */
    int64_t x;                      /* inverse: top rows written to the stash */
    int stash;                      /* inverse: 0 scratch, 1 `in` plane 0 at stash_row (after band 1), 2 `in` plane 1
                                       (lead: plane `lead`) */
    int64_t stash_row;
    int64_t lead; /* inverse: planes [0, lead) in one launch from a copy of their LL1 (n = 0, x = 0); 0: none */
} lw_bands;

/* 0 and *b filled when a plan exists (forward always finds one for valid
 * geometry; the inverse may not for short planes).  allow_in_stash: `in` may
 * be overwritten. */
int lw_bands_plan_fwd(const lw_band_geo *g, lw_bands *b);
int lw_bands_plan_inv(const lw_band_geo *g, int allow_in_stash, lw_bands *b);

#ifdef __cplusplus
}
#endif

#endif
