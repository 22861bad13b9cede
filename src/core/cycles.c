/* Cycle leaders, segments and pieces of the Mallat reorder (cycles.h): one
 * sweep over the positions with a bitmap of those already seen; a position
 * not yet seen is the smallest of a new cycle, which is then walked and
 * marked (mark_cycle).  A cycle is the same set walked either way. */
#include "cycles.h"

#include <stdlib.h>
#include <string.h>

static int seen_at(const uint8_t *seen, int64_t p) { return (seen[p >> 3] >> (p & 7)) & 1; }

/* Marks the cycle of p, not yet seen, and returns its length. */
static int64_t mark_cycle(uint8_t *seen, int64_t p, int64_t n)
{
    int64_t q = p, len = 0;
    do {
        seen[q >> 3] |= (uint8_t)(1u << (q & 7));
        q = lw_mallat_src(q, n);
        len++;
    } while (q != p);
    return len;
}

/* The bitmap of a line of n positions, or NULL where n is out of range or
 * memory runs out. */
static uint8_t *new_bitmap(int64_t n) { return n < 1 || n > INT32_MAX ? NULL : calloc((size_t)(n + 7) / 8, 1); }

int64_t lw_mallat_cycle_leaders(int64_t n, int32_t *out, int64_t cap)
{
    uint8_t *seen = new_bitmap(n);
    if (!seen) return -1;
    int64_t count = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen_at(seen, p) || mark_cycle(seen, p, n) == 1) continue;
        if (out && count < cap) out[count] = (int32_t)p;
        count++;
    }
    free(seen);
    return count;
}

int64_t lw_mallat_cycle_longest(int64_t n)
{
    uint8_t *seen = new_bitmap(n);
    if (!seen) return -1;
    int64_t longest = 0;
    for (int64_t p = 0; p < n; p++) {
        const int64_t len = seen_at(seen, p) ? 0 : mark_cycle(seen, p, n);
        if (len > longest) longest = len;
    }
    free(seen);
    return longest;
}

static int64_t seg_next(int64_t p, int64_t n, int inverse)
{
    return inverse ? lw_mallat_pos(p, n) : lw_mallat_src(p, n);
}

int64_t lw_mallat_cycle_segments(int64_t n, int inverse, int64_t walkers, int32_t *out, int64_t cap)
{
    uint8_t *seen = new_bitmap(n);
    if (!seen) return -1;
    int64_t cycles = 0;
    for (int64_t p = 0; p < n; p++)
        if (!seen_at(seen, p)) mark_cycle(seen, p, n), cycles++;
    /* pieces of at most `piece` positions: sum of ceil(len / piece) over the
     * cycles <= n / piece + cycles <= walkers */
    const int64_t piece = walkers > cycles ? (n + walkers - cycles - 1) / (walkers - cycles) : n;
    memset(seen, 0, (size_t)(n + 7) / 8);
    int64_t count = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen_at(seen, p)) continue;
        const int64_t len = mark_cycle(seen, p, n);
        int64_t q = p;
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

int64_t lw_mallat_cycle_pieces(int64_t n, int64_t piece, int32_t *out, int64_t cap)
{
    uint8_t *seen = new_bitmap(n);
    if (!seen) return -1;
    int64_t count = 0;
    for (int64_t p = 0; p < n; p++) {
        if (seen_at(seen, p)) continue;
        const int64_t len = mark_cycle(seen, p, n);
        if (len == 1) continue;
        int64_t q = p;
        const int64_t m = piece < 1 ? 1 : (len + piece - 1) / piece, first = count;
        for (int64_t j = 0; j < m; j++, count++) {
            const int64_t l = len * (j + 1) / m - len * j / m;
            int64_t last = q;
            for (int64_t i = 1; i < l; i++) last = lw_mallat_src(last, n);
            if (out && count < cap) {
                out[4 * count] = (int32_t)q;
                out[4 * count + 1] = (int32_t)last;
                out[4 * count + 2] = (int32_t)(j == 0 ? first + m - 1 : count - 1);
                out[4 * count + 3] = (int32_t)(j == m - 1 ? first : count + 1);
            }
            q = lw_mallat_src(last, n);
        }
    }
    free(seen);
    return count;
}
