/* Cycle leaders of the Mallat reorder (cycles.h): one sweep over the
 * positions with a bitmap of those already seen; a position not yet seen
 * starts a cycle, which is then walked and marked. */
#include "cycles.h"

#include <stdlib.h>

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
