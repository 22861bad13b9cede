/* Cycle leaders and segments of the Mallat reorder (cycles.h): one sweep
 * over the positions with a bitmap of those already seen; a position not yet
 * seen starts a cycle, which is then walked and marked. */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

int64_t lw_mallat_cycle_leaders(int64_t n, int32_t *out, int64_t cap)
{
    if (n < 1 || n > INT32_MAX) return -1;
    uint8_t *seen = calloc((size_t)(n + 7) / 8, 1);
    if (!seen) return -1;
    int64_t count = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen[p >> 3] & (1u << (p & 7))) continue;
        int64_t q = p, len = 0;
        do {
            seen[q >> 3] |= (uint8_t)(1u << (q & 7));
            q = lw_mallat_pos(q, n);
            len++;
        } while (q != p);
        if (len > 1) {
            if (out && count < cap) out[count] = (int32_t)p;
            count++;
        }
    }
    free(seen);
    return count;
}

static int64_t seg_next(int64_t p, int64_t n, int inverse)
{
    return inverse ? lw_mallat_pos(p, n) : lw_mallat_src(p, n);
}

int64_t lw_mallat_cycle_segments(int64_t n, int inverse, int64_t walkers, int32_t *out, int64_t cap)
{
    if (n < 1 || n > INT32_MAX) return -1;
    const size_t bytes = (size_t)(n + 7) / 8;
    uint8_t *seen = calloc(bytes, 1);
    if (!seen) return -1;
    int64_t cycles = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen[p >> 3] & (1u << (p & 7))) continue;
        cycles++;
        int64_t q = p;
        do {
            seen[q >> 3] |= (uint8_t)(1u << (q & 7));
            q = seg_next(q, n, inverse);
        } while (q != p);
    }
    /* pieces of at most `piece` positions: sum of ceil(len / piece) over the
     * cycles <= n / piece + cycles <= walkers */
    const int64_t piece = walkers > cycles ? (n + walkers - cycles - 1) / (walkers - cycles) : n;
    memset(seen, 0, bytes);
    int64_t count = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen[p >> 3] & (1u << (p & 7))) continue;
        int64_t len = 0, q = p;
        do {
            seen[q >> 3] |= (uint8_t)(1u << (q & 7));
            q = seg_next(q, n, inverse);
            len++;
        } while (q != p);
        /* as even as they go: piece j holds len (j + 1) / m - len j / m */
        const int64_t m = (len + piece - 1) / piece, first = count;
        for (int64_t j = 0; j < m; j++, count++) {
            const int64_t l = len * (j + 1) / m - len * j / m;
            if (out && count < cap) {
                out[3 * count] = (int32_t)q;
                out[3 * count + 1] = (int32_t)l;
                out[3 * count + 2] = (int32_t)(j == 0 ? first + m - 1 : count - 1);
            }
            for (int64_t i = 0; i < l; i++) q = seg_next(q, n, inverse);
        }
    }
    free(seen);
    return count;
}
