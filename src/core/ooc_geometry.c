/* The slab geometry of the out-of-core streaming (ooc.h): slabs, halos, the
 * bands along axis 0, and the permutation of rows between interleaved and
 * Mallat order. */
#include "ooc.h"

#include <stdlib.h>
#include <string.h>

static int64_t ceil_shift(int64_t x, int j) { return (x + ((int64_t)1 << j) - 1) >> j; }

void lw_ooc_slab_at(const lw_ooc_slabs *s, int64_t k, int64_t *z0, int64_t *z1, int64_t *e0, int64_t *e1)
{
    *z0 = k * s->Z;
    *z1 = *z0 + s->Z < s->N ? *z0 + s->Z : s->N;
    *e0 = *z0 - s->E;
    *e1 = *z1 + s->E;
    if (s->periodic) return;
    /* at the ends the extent keeps its length, reaching further inside (one
     * slab shape, two at most: the last starts at a multiple of 2^L1) */
    const int64_t m = s->Z + 2 * s->E, a = (int64_t)1 << s->L1;
    if (m >= s->N) {
        *e0 = 0, *e1 = s->N;
    } else if (*e0 <= 0) {
        *e0 = 0, *e1 = m;
    } else if (*e0 + m > s->N) {
        *e0 = (s->N - m) / a * a, *e1 = s->N;
    } else {
        *e1 = *e0 + m;
    }
}

/* Level j of a slab's transform, run with the slab's edges as the array's
 * ends, gets wrong values within `halo` samples of each edge of its input,
 * 2^(j-1) rows apart, and those spread by the same reach through the levels
 * after it: E = halo (2^L1 - 1), rounded up to a multiple of 2^L1 (which
 * also covers the parity rounding of the lowpass indices between levels),
 * keeps every core row exact.  The adjoints in symmetric mode fold what the
 * forward read past an edge back inside it, a sample deeper than the
 * forward's mirrored reads: `slack` more a level covers them. */
int64_t lw_ooc_halo(int halo, int slack, int L1)
{
    if (L1 <= 0) return 0;
    int64_t e = (int64_t)(halo + slack) * (((int64_t)1 << L1) - 1);
    const int64_t a = (int64_t)1 << L1;
    return (e + a - 1) / a * a;
}

int lw_ooc_halo_slack(const lw_config *cfg) { return lw_dir_adjoint(cfg->direction) && cfg->mode != LW_PERIODIC ? 2 : 0; }

int lw_ooc_band_level(int b, int L) { return b == 0 ? L : b; }

int64_t lw_ooc_band_count(int b, int L, int64_t x)
{
    if (b == 0) return ceil_shift(x, L);
    return ceil_shift(x, b - 1) - ceil_shift(x, b);
}

int64_t lw_ooc_band_base(int b, int L, int64_t n)
{
    (void)L; /* the lowpass starts the order whatever its level */
    return b == 0 ? 0 : ceil_shift(n, b);
}

int64_t lw_ooc_band_row(int b, int L, int64_t g) { return b == 0 ? g << L : (2 * g + 1) << (b - 1); }

int64_t lw_ooc_mallat_row(int L, int64_t N, int64_t p)
{
    if ((p & (((int64_t)1 << L) - 1)) == 0) return p >> L;
    int j = 1;
    while (!((p >> (j - 1)) & 1)) j++;
    return lw_ooc_band_base(j, L, N) + (p >> j);
}

/* the opposite: Mallat row q -> interleaved row */
static int64_t interleaved_row(int L, int64_t N, int64_t q)
{
    if (q < ceil_shift(N, L)) return q << L;
    int j = L;
    while (q >= ceil_shift(N, j - 1)) j--;
    return lw_ooc_band_row(j, L, q - ceil_shift(N, j));
}

/* bytes [x0, x0 + nx) of every row (rows `pitch` bytes apart), one cycle at
 * a time, with two row buffers */
static int permute_part(char *base, int64_t N, size_t pitch, size_t x0, size_t nx, int L, int to_mallat)
{
    unsigned char *seen = calloc((size_t)(N + 7) / 8, 1);
    char *a = malloc(nx), *b = malloc(nx);
    if (!seen || !a || !b) {
        free(seen), free(a), free(b);
        return -1;
    }
    for (int64_t s = 0; s < N; s++) {
        if (seen[s >> 3] & (1u << (s & 7))) continue;
        seen[s >> 3] |= (unsigned char)(1u << (s & 7));
        int64_t cur = s, nxt = to_mallat ? lw_ooc_mallat_row(L, N, s) : interleaved_row(L, N, s);
        if (nxt == s) continue;
        memcpy(a, base + (size_t)s * pitch + x0, nx); /* the row in hand, on its way to nxt */
        while (nxt != s) {
            char *at = base + (size_t)nxt * pitch + x0;
            memcpy(b, at, nx);
            memcpy(at, a, nx);
            char *t = a;
            a = b, b = t;
            seen[nxt >> 3] |= (unsigned char)(1u << (nxt & 7));
            cur = nxt;
            nxt = to_mallat ? lw_ooc_mallat_row(L, N, cur) : interleaved_row(L, N, cur);
        }
        memcpy(base + (size_t)s * pitch + x0, a, nx);
    }
    free(seen), free(a), free(b);
    return 0;
}

lw_status lw_ooc_permute_rows(void *base, int64_t N, size_t pitch, size_t row, int L, int to_mallat, int threads)
{
    if (L <= 0 || N <= 1 || !row) return LW_OK;
    /* parts of at least 4 KiB, 64-byte aligned: each thread walks every cycle over its own bytes (a
     * step of the walk costs far less than moving a few KiB, so a row is split over every thread
     * down to pieces of a page: one thread moves rows at a fraction of the host's bandwidth) */
    int64_t parts = (int64_t)(row / ((size_t)4 << 10));
    if (parts > threads) parts = threads;
    if (parts < 1) parts = 1;
    size_t per = (row / (size_t)parts + 63) & ~(size_t)63;
    int bad = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) reduction(| : bad) if (parts > 1)
#endif
    for (int64_t i = 0; i < parts; i++) {
        size_t x0 = (size_t)i * per;
        if (x0 >= row) continue;
        size_t nx = row - x0 < per ? row - x0 : per;
        bad |= permute_part(base, N, pitch, x0, nx, L, to_mallat) != 0;
    }
    if (bad) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the row buffers of the in-place reorder");
    return LW_OK;
}
