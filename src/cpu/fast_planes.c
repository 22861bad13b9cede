/* The "planes" engine of the cpu backend: a level of a batch of small 2-D
 * items (NCHW images, patches, tiles) run as channels last.
 *
 * On small planes the nd engine's work is mostly per row (a 16x16 plane is
 * 16 rows of 16 samples, each through the ring's loads, steps and stores),
 * not per sample.  Here the items of a batch go through in chunks of up to
 * PLANES_CHUNK: a chunk's planes are interleaved into one (H, W, C) array in
 * per-thread scratch (item j the j-th of the C contiguous elements of every
 * sample), that array is lifted by the nd engine as lines of C-element groups
 * (fast_line.c: every step one vector loop over count x C elements), and the
 * result is spread back into the items' places.  The samples see the same
 * operations in the same order as on the nd engine (the groups only put
 * items side by side), so the results are the same, bit for bit.
 *
 * Forward: the all-lowpass quadrant of a level goes to ll (the next level's
 * input) when the level has one, the rest to dst at its Mallat or interleaved
 * place; inverse: the quadrant comes from ll.  With ll the layout must be
 * Mallat (the quadrant is then a block of whole row pieces). */
#include "fast_internal.h"

#include <stdlib.h>
#include <string.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define LW_PLANES_SHUFFLE 1
#endif
#endif

#define PLANES_CHUNK 16          /* the most items interleaved at a time: a vector of float32 */
#define PLANES_MAX_SAMPLES 16384 /* a plane up to 128 x 128 (measured: larger ones run faster on nd) */
#define PLANES_MIN_ITEMS 8       /* fewer items than this gain nothing from side by side */

static int64_t item_count(const lw_fast_level *lv)
{
    int64_t n = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) n *= lv->bn[b];
    return n;
}

/* The levels this engine runs: 2-D items with unit-stride rows of plain samples */
static int planes_fit(const lw_fast_level *lv)
{
    return !lv->fsmode && !lv->adjoint && lv->nv == 1 && lv->hlift && lv->G == 1 && lv->srs == 1 &&
           lv->drs == 1 && (!lv->has_ll || (lv->lrs == 1 && lv->mallat)) && lv->nb >= 1;
}

/* Items a chunk takes: up to 16, a multiple of 4, as many as keep its two buffers (input and
 * output) within the thread's cache budget; below 4 the engine does not apply */
static int64_t chunk_items(const lw_fast_level *lv)
{
    const size_t plane = (size_t)(lv->n[0] * lv->rowlen) * lv->fp->es;
    int64_t g = (int64_t)(lw_fast_cache_budget(&lv->fp->tune) / (2 * (plane ? plane : 1)));
    g = g > PLANES_CHUNK ? PLANES_CHUNK : g & ~(int64_t)3;
    return g;
}

int lw_fast_planes_applies(const lw_fast_level *lv)
{
    return planes_fit(lv) && lv->n[0] * lv->rowlen <= PLANES_MAX_SAMPLES && item_count(lv) >= PLANES_MIN_ITEMS &&
           chunk_items(lv) >= 4;
}

/* In place: a chunk reads its items whole into scratch before it writes any, and items do not
 * share samples; where run() hands the level to the nd engine, that engine's rule holds */
int lw_fast_planes_in_place(const lw_fast_level *lv)
{
    return planes_fit(lv) && chunk_items(lv) >= 4 ? 1 : lw_fast_nd_in_place(lv);
}

size_t lw_fast_planes_in_place_bytes(const lw_fast_level *lv, int threads)
{
    return planes_fit(lv) && chunk_items(lv) >= 4 ? 0 : lw_fast_nd_in_place_bytes(lv, threads);
}

/* The level of a chunk of g items: one (H, W, g) array lifted as lines of g-element groups */
static void chunk_level(const lw_fast_level *lv, int64_t g, lw_fast_level *c)
{
    *c = *lv;
    c->ss[0] = c->ds[0] = lv->rowlen * g;
    c->ls[0] = 0;
    c->G = g;
    c->srs = c->drs = c->lrs = g;
    c->has_ll = 0;
    c->nb = 0;
    c->nt = 0;
}

/* Bytes of one of a chunk's buffers */
static size_t planes_chunk_bytes(const lw_fast_level *lv, int64_t g)
{
    return LW_ALIGN64((size_t)(lv->n[0] * lv->rowlen * g) * lv->fp->es);
}

size_t lw_fast_planes_scratch(const lw_fast_level *lv)
{
    if (!planes_fit(lv)) return lw_fast_nd_scratch(lv);
    const int64_t g = chunk_items(lv) >= 4 ? chunk_items(lv) : 4;
    lw_fast_level c;
    chunk_level(lv, g, &c);
    return 2 * planes_chunk_bytes(lv, g) + LW_ALIGN64(lw_fast_nd_scratch(&c));
}

/* ---- between the items and a chunk ------------------------------------------ */

/* Columns [0, n) of g rows (rows[j]: item j's row, unit stride) into the
 * interleaved row w (sample c of item j at w[c * g + j]), or back (to_items).
 * es: 4 or 8 bytes; whole 4 x 4 blocks of 4-byte samples go as vectors. */
typedef uint32_t lw_v4u __attribute__((vector_size(16)));
static inline lw_v4u ld4u(const uint32_t *p)
{
    lw_v4u v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st4u(uint32_t *p, lw_v4u v) { memcpy(p, &v, sizeof v); }

#if defined(LW_PLANES_SHUFFLE)
/* t[k] = lane k of a, b, d, e: the 4 x 4 transpose */
static inline void transpose4(lw_v4u a, lw_v4u b, lw_v4u d, lw_v4u e, lw_v4u t[4])
{
    const lw_v4u ab0 = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab1 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
    const lw_v4u de0 = __builtin_shufflevector(d, e, 0, 4, 1, 5), de1 = __builtin_shufflevector(d, e, 2, 6, 3, 7);
    t[0] = __builtin_shufflevector(ab0, de0, 0, 1, 4, 5);
    t[1] = __builtin_shufflevector(ab0, de0, 2, 3, 6, 7);
    t[2] = __builtin_shufflevector(ab1, de1, 0, 1, 4, 5);
    t[3] = __builtin_shufflevector(ab1, de1, 2, 3, 6, 7);
}
#endif

static inline __attribute__((always_inline)) void interleave4(uint32_t *w, uint32_t *const *rows, int64_t g, int64_t n,
                                                               int to_items)
{
    int64_t c = 0;
#if defined(LW_PLANES_SHUFFLE)
    if ((g & 3) == 0) {
        /* four items at a time along the whole row: the items lie a plane apart (a power of two
         * often), so more rows at once would compete for the same cache sets */
        const int64_t nc = n & ~(int64_t)3;
        for (int64_t j = 0; j < g; j += 4)
            for (c = 0; c < nc; c += 4) {
                uint32_t *o = w + c * g + j;
                lw_v4u t[4];
                if (!to_items) {
                    transpose4(ld4u(rows[j] + c), ld4u(rows[j + 1] + c), ld4u(rows[j + 2] + c), ld4u(rows[j + 3] + c),
                               t);
                    for (int k = 0; k < 4; k++) st4u(o + k * g, t[k]);
                } else {
                    transpose4(ld4u(o), ld4u(o + g), ld4u(o + 2 * g), ld4u(o + 3 * g), t);
                    for (int k = 0; k < 4; k++) st4u(rows[j + k] + c, t[k]);
                }
            }
    }
#endif
    for (; c < n; c++)
        for (int64_t j = 0; j < g; j++) {
            if (to_items)
                rows[j][c] = w[c * g + j];
            else
                w[c * g + j] = rows[j][c];
        }
}

static void interleave8(uint64_t *w, uint64_t *const *rows, int64_t g, int64_t n, int to_items)
{
    for (int64_t c = 0; c < n; c++)
        for (int64_t j = 0; j < g; j++) {
            if (to_items)
                rows[j][c] = w[c * g + j];
            else
                w[c * g + j] = rows[j][c];
        }
}

/* Columns [c0, c1) of row r of the chunk (g items of rows of W samples) and the
 * items' rows at base[j] + off (bytes), in the direction to_items */
static void row_piece(const lw_fast_level *lv, char *chunk, int64_t g, int64_t r, int64_t c0, int64_t c1,
                      char *const *base, size_t off, int to_items)
{
    size_t es = lv->fp->es;
    char *rows[PLANES_CHUNK];
    if (c1 <= c0) return;
    for (int64_t j = 0; j < g; j++) rows[j] = base[j] + off;
    char *w = chunk + (size_t)((r * lv->rowlen + c0) * g) * es;
    if (es == 4) { /* the chunk sizes as constants: the stride and the loop over items fold in */
        uint32_t *w4 = (uint32_t *)w, *const *r4 = (uint32_t *const *)rows;
        if (g == 16)
            interleave4(w4, r4, 16, c1 - c0, to_items);
        else if (g == 12)
            interleave4(w4, r4, 12, c1 - c0, to_items);
        else if (g == 8)
            interleave4(w4, r4, 8, c1 - c0, to_items);
        else
            interleave4(w4, r4, g, c1 - c0, to_items);
    } else
        interleave8((uint64_t *)w, (uint64_t *const *)rows, g, c1 - c0, to_items);
}

/* The chunk's coefficient array (Mallat or interleaved, H x W) and the items':
 * the all-lowpass quadrant of a Mallat level at ll (when the level has one),
 * everything else at co (row stride cs) */
static void coefficients(const lw_fast_level *lv, char *chunk, int64_t g, char *const *co, int64_t cs,
                         char *const *ll, int to_items)
{
    size_t es = lv->fp->es;
    int64_t H = lv->n[0], W = lv->rowlen, hr = (H + 1) / 2, hc = (W + 1) / 2;
    for (int64_t r = 0; r < H; r++) {
        if (ll && r < hr) {
            row_piece(lv, chunk, g, r, 0, hc, ll, (size_t)(r * lv->ls[0]) * es, to_items);
            row_piece(lv, chunk, g, r, hc, W, co, (size_t)(r * cs + hc) * es, to_items);
        } else {
            row_piece(lv, chunk, g, r, 0, W, co, (size_t)(r * cs) * es, to_items);
        }
    }
}

static void samples(const lw_fast_level *lv, char *chunk, int64_t g, char *const *sp, int64_t ss, int to_items)
{
    for (int64_t r = 0; r < lv->n[0]; r++)
        row_piece(lv, chunk, g, r, 0, lv->rowlen, sp, (size_t)(r * ss) * lv->fp->es, to_items);
}

lw_status lw_fast_planes_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                            char *scratch, size_t per_thread)
{
    if (!planes_fit(lv) || chunk_items(lv) < 4) /* forced onto a level it cannot take */
        return lw_fast_nd_run(lv, src, dst, ll, threads, guard, scratch, per_thread);
    const size_t es = lv->fp->es;
    const size_t need = lw_fast_planes_scratch(lv);
    /* chunks as large as the cache allows, smaller (down to 8 items) where they would leave threads idle */
    const int64_t nitems = item_count(lv), most = chunk_items(lv);
    int64_t per = most;
    while (per > 8 && (nitems + per - 1) / per < 2 * (int64_t)threads) per -= 4;
    const int64_t nchunks = (nitems + per - 1) / per;
    const size_t cb = planes_chunk_bytes(lv, most);
    lw_fast_level full;
    chunk_level(lv, most, &full);
    const size_t nds = lw_fast_nd_scratch(&full);
    if (!scratch || per_thread < need) per_thread = 0; /* the caller's is too small: own */
    if (threads > nchunks) threads = (int)nchunks;
    int fail = 0, bad = 0;
    lw_status err = LW_OK;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1) reduction(| : fail, bad)
#endif
    {
        const int tid = lw_fast_thread_num();
        char *mem = per_thread ? scratch + (size_t)tid * per_thread : aligned_alloc(64, need);
        if (!mem) fail = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t q = 0; q < nchunks; q++) {
            if (fail) continue;
            const int64_t j0 = q * per, g = nitems - j0 < per ? nitems - j0 : per;
            char *in = mem, *out = mem + cb, *ring = mem + 2 * cb;
            char *sp[PLANES_CHUNK], *dp[PLANES_CHUNK], *lp[PLANES_CHUNK];
            for (int64_t j = 0; j < g; j++) {
                int64_t so, dof, lof;
                lw_fast_item_offsets(lv, j0 + j, &so, &dof, &lof);
                sp[j] = (char *)src + (size_t)so * es;
                dp[j] = dst + (size_t)dof * es;
                lp[j] = ll ? ll + (size_t)lof * es : NULL;
            }
            lw_fast_level c;
            chunk_level(lv, g, &c);
            int gd = 0;
            if (lv->inverse)
                coefficients(lv, in, g, sp, lv->ss[0], lv->has_ll ? lp : NULL, 0);
            else
                samples(lv, in, g, sp, lv->ss[0], 0);
            lw_status st = lw_fast_nd_run(&c, in, out, NULL, 1, &gd, ring, nds);
            if (st != LW_OK) {
                fail = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp critical(lw_planes_err)
#endif
                err = st;
                continue;
            }
            bad |= gd;
            if (lv->inverse)
                samples(lv, out, g, dp, lv->ds[0], 1);
            else
                coefficients(lv, out, g, dp, lv->ds[0], lv->has_ll ? lp : NULL, 1);
        }
        if (mem && !per_thread) free(mem);
    }
    if (bad) *guard = 1;
    if (fail) return err != LW_OK ? err : lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the planes engine's scratch");
    return LW_OK;
}
