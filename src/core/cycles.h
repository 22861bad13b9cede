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

/* The leaders (smallest positions) of the reorder's cycles longer than one,
 * ascending, into out (up to cap of them; out may be NULL to count).
 * Returns the number of such cycles, or -1 when n is out of range (1 ..
 * INT32_MAX) or memory runs out. */
int64_t lw_mallat_cycle_leaders(int64_t n, int32_t *out, int64_t cap);

#ifdef __cplusplus
}
#endif

#endif
