/* Cycles of the Mallat reorder of a line (pos -> lwd_mallat(pos, n): even
 * positions to the front, odd ones behind them), for reordering in place. */
#ifndef LW_CYCLES_H
#define LW_CYCLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mallat place of sample position pos on a line of length n. */
static inline int64_t lw_mallat_pos(int64_t pos, int64_t n) { return (pos & 1) ? (n + 1) / 2 + pos / 2 : pos / 2; }

/* The position whose Mallat place is q (the inverse of lw_mallat_pos). */
static inline int64_t lw_mallat_src(int64_t q, int64_t n)
{
    const int64_t h = (n + 1) / 2;
    return q < h ? 2 * q : 2 * (q - h) + 1;
}

/* The leaders (smallest positions) of the reorder's cycles longer than one,
 * ascending, into out (up to cap of them; out may be NULL to count).
 * Returns the number of such cycles, or -1 when n is out of range (1 ..
 * INT32_MAX) or memory runs out. */
int64_t lw_mallat_cycle_leaders(int64_t n, int32_t *out, int64_t cap);

/* The reorder's cycles, fixed positions included, as segments for walkers
 * that run side by side (the CUDA row reorder: a block a segment).  A walk
 * moves each position's content along next(p) = lw_mallat_src(p, n) (the
 * forward: position p takes the content of the position whose Mallat place
 * it is), or lw_mallat_pos(p, n) where inverse (the way back).  A segment is
 * three int32: its first position f, its length len and the index of the
 * segment before it in its cycle; its walker saves f's content, moves
 * next^i(f) <- next^(i+1)(f) for i < len - 1, and then stores the saved
 * content at the position before f (next^-1(f), the last of the segment
 * before, whose walker must have read it by then).  A cycle is one segment
 * (before itself) where the cycles are at least `walkers` or where walkers
 * < 1; else each is cut in pieces of at most ceil(n / (walkers - cycles))
 * positions, so that there are at most `walkers` segments in all.  The
 * segments of a cycle are consecutive.  Writes up to cap segments (3 * cap
 * int32) to out (NULL: count only); returns the number of segments, or -1
 * when n is out of range or memory runs out. */
int64_t lw_mallat_cycle_segments(int64_t n, int inverse, int64_t walkers, int32_t *out, int64_t cap);

/* The length of the reorder's longest cycle on a line of length n, or -1 when
 * n is out of range or memory runs out. */
int64_t lw_mallat_cycle_longest(int64_t n);

/* The reorder's cycles longer than one, each cut in pieces of at most `piece`
 * positions (as even as they go; piece < 1: whole cycles), for walkers that
 * need no word from one another (the CUDA line reorder, k_permute.cu): a
 * piece is four int32, its first position f, its last l = src^(len-1)(f)
 * along src(p) = lw_mallat_src(p, n), and the indices of the pieces before
 * and after it in its cycle (itself for a whole cycle).  The forward moves
 * each position's content to its Mallat place, so position p takes src(p)'s:
 * a piece's walker moves p <- src(p) from f up to the piece before l, and l
 * takes the content the next piece's f held, saved before any walker
 * starts; the inverse moves p <- lw_mallat_pos(p): src(p) <- p from l back,
 * f taking what the previous piece's l held.  The pieces of a cycle are
 * consecutive.  Writes up to cap pieces (4 * cap int32) to out (NULL: count
 * only); returns the number of pieces, or -1 when n is out of range or memory
 * runs out. */
int64_t lw_mallat_cycle_pieces(int64_t n, int64_t piece, int32_t *out, int64_t cap);

#ifdef __cplusplus
}
#endif

#endif
