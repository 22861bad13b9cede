/* The rows (planes, in 3-D) of a level between sample order and Mallat
 * order, in place: the cpu backend's in-place route for the Mallat layout.
 * The nd engine runs a level with the sub-blocks of its first vertical axis
 * in sample order, each already in Mallat order within itself
 * (lw_fast_level.vil), which it can do in place as it does the interleaved
 * layout; they then move to their Mallat places along the cycles of
 * t -> lw_mallat_pos(t, n) (Ikuzawa's rearrangement by cycles, the leaders
 * from lw_mallat_cycle_leaders), after a forward level or before an inverse
 * one.  One read and one write of every row that moves, and a buffer of one
 * piece of a row a thread.
 *
 * Work items: items x cycles x rows of a plane x pieces of a row, so that a
 * long cycle (n - 1 prime to 2 gives one cycle of n - 2 rows) still spreads
 * over the threads; each item walks its cycle backwards, so every step is
 * one copy.
 *
 * A line (no vertical axis) longer than the nd engine keeps whole is lifted
 * in segments of whole chunks (lw_fast_line_chunk samples), each chunk
 * stored in Mallat order within itself (vil); then (move_line) the chunks'
 * halves move as rows along the cycles of 2m rows (m whole chunks:
 * L0 H0 L1 H1 .. -> L0 L1 .. H0 H1 ..), and the short chunk's lowpass half
 * TL (after the H block) rotates in front of the H block.  An inverse level
 * undoes both first.  One read and one write of the line and one of its
 * highpass half (the rotation), in long runs; a chunk's buffer a thread. */
#include "fast_internal.h"

#include <stdlib.h>
#include <string.h>

/* bytes of a row a work item moves (the thread's buffer) */
#define ROWS_PIECE_BYTES 16384

/* the row whose content lands in row m: Mallat row m takes sample row
 * inv(m); sample row t takes Mallat row lw_mallat_pos(t) */
static inline int64_t from_row(int64_t m, int64_t n, int to_mallat)
{
    const int64_t h = (n + 1) / 2;
    if (!to_mallat) return lw_mallat_pos(m, n);
    return m < h ? 2 * m : 2 * (m - h) + 1;
}

void lw_fast_walk_cycle(char *base, int64_t n, int64_t st, int64_t rs, int64_t cnt, int64_t G, size_t es, int64_t p,
                        char *buf, int to_mallat)
{
#define ROW(r) (base + (size_t)((r) * st) * es)
    /* backwards along the cycle: row m takes the content of from_row(m) */
    lw_fast_copy_samples(buf, G, ROW(p), rs, cnt, G, es);
    int64_t m = p, f = from_row(p, n, to_mallat);
    while (f != p) {
        lw_fast_copy_samples(ROW(m), rs, ROW(f), rs, cnt, G, es);
        m = f;
        f = from_row(m, n, to_mallat);
    }
    lw_fast_copy_samples(ROW(m), rs, buf, G, cnt, G, es);
#undef ROW
}

/* samples [0, len) of a line (stride rs, G elements each) to [d, d + len) */
static void line_shift(char *base, int64_t rs, int64_t G, size_t es, int64_t len, int64_t d)
{
    if (rs == G) {
        memmove(base + (size_t)(d * G) * es, base, (size_t)(len * G) * es);
    } else if (d > 0) {
        for (int64_t j = len - 1; j >= 0; j--)
            memcpy(base + (size_t)((j + d) * rs) * es, base + (size_t)(j * rs) * es, (size_t)G * es);
    } else {
        for (int64_t j = 0; j < len; j++)
            memcpy(base + (size_t)((j + d) * rs) * es, base + (size_t)(j * rs) * es, (size_t)G * es);
    }
}

/* The H block of a line at hb (h samples) and the short chunk's lowpass half
 * TL (d <= h samples): TL from after the block to its front (to_mallat), or
 * back.  The block shifts by d in `parts` parts at once: each part first
 * keeps the d samples at its end the part beside it will overwrite (its head
 * shifting right, its tail left), then moves the rest within itself.  tmp:
 * (parts + 1) * d samples. */
static void rotate_tl(char *hb, int64_t h, int64_t d, int64_t rs, int64_t G, size_t es, int to_mallat, int parts,
                      char *tmp)
{
    char *tl = tmp + (size_t)(parts * d * G) * es, *x = to_mallat ? hb : hb + (size_t)(d * rs) * es;
    lw_fast_copy_samples(tl, G, to_mallat ? hb + (size_t)(h * rs) * es : hb, rs, d, G, es);
#define PART(p, s, e) const int64_t s = h * (p) / parts, e = h * ((p) + 1) / parts
#define AT(i) (x + (size_t)((i) * rs) * es)
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(parts) if (parts > 1)
#endif
    {
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int p = 0; p < parts; p++) {
            PART(p, s, e);
            lw_fast_copy_samples(tmp + (size_t)(p * d * G) * es, G, AT(to_mallat ? s : e - d), rs, d, G, es);
        }
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int p = 0; p < parts; p++) {
            PART(p, s, e);
            char *kept = tmp + (size_t)(p * d * G) * es;
            if (to_mallat) { /* [s, e) -> [s + d, e + d) */
                line_shift(AT(s + d), rs, G, es, e - s - d, d);
                lw_fast_copy_samples(AT(s + d), rs, kept, G, d, G, es);
            } else { /* [s, e) -> [s - d, e - d) */
                line_shift(AT(s), rs, G, es, e - s - d, -d);
                lw_fast_copy_samples(AT(e - 2 * d), rs, kept, G, d, G, es);
            }
        }
    }
#undef AT
#undef PART
    lw_fast_copy_samples(to_mallat ? hb : hb + (size_t)(h * rs) * es, rs, tl, G, d, G, es);
}

static lw_status move_line(const lw_fast_level *lv, char *data, int to_mallat, int threads)
{
    const int64_t n = lv->rowlen, G = lv->G, rs = lv->srs;
    const size_t es = lv->fp->es;
    /* d: the short chunk's lowpass half */
    const int64_t B = lw_fast_line_chunk(lv), m = n / B, h = m * (B / 2), d = (n - m * B + 1) / 2;
    if (threads < 1) threads = 1;
    char *bufs = malloc((size_t)(threads * B * G) * es);
    if (!bufs) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the line moves' buffers");
    /* the chunks' halves as rows: 2m rows of B / 2 samples */
    lw_fast_level hv = *lv;
    hv.nv = 1, hv.n[0] = 2 * m, hv.ss[0] = hv.ds[0] = (B / 2) * rs, hv.rowlen = B / 2, hv.drs = rs;
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    lw_status st = LW_OK;
    if (to_mallat && m > 1) st = lw_fast_move_rows(&hv, data, 1, threads);
    if (st == LW_OK && d > 0 && m > 0) {
        /* fewer lines than threads: each line's block in parts of at least max(d, 16384) samples */
        const int64_t most = h / (d > 16384 ? d : 16384);
        const int parts = nitems >= threads ? 1 : (int)(threads < most ? threads : most > 1 ? most : 1);
        int64_t so, dof, lof;
        if (parts > 1) { /* a line at a time, its parts on the threads (no nested team) */
            for (int64_t item = 0; item < nitems; item++) {
                lw_fast_item_offsets(lv, item, &so, &dof, &lof);
                rotate_tl(data + (size_t)(so + h * rs) * es, h, d, rs, G, es, to_mallat, parts, bufs);
            }
        } else {
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && nitems > 1) schedule(static) private(so, dof, lof)
#endif
            for (int64_t item = 0; item < nitems; item++) {
                lw_fast_item_offsets(lv, item, &so, &dof, &lof);
                rotate_tl(data + (size_t)(so + h * rs) * es, h, d, rs, G, es, to_mallat, 1,
                          bufs + (size_t)(lw_fast_thread_num() * B * G) * es);
            }
        }
    }
    if (!to_mallat && st == LW_OK && m > 1) st = lw_fast_move_rows(&hv, data, 0, threads);
    free(bufs);
    return st;
}

lw_status lw_fast_move_rows(const lw_fast_level *lv, char *data, int to_mallat, int threads)
{
    if (lv->nv == 0) return move_line(lv, data, to_mallat, threads);
    const int64_t n = lv->n[0], G = lv->G, W = lv->rowlen;
    const int64_t rs = to_mallat ? lv->drs : lv->srs, st = to_mallat ? lv->ds[0] : lv->ss[0];
    const size_t es = lv->fp->es;
    const int64_t ncyc = lw_mallat_cycle_leaders(n, NULL, 0);
    if (ncyc < 0) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot find the row cycles of %lld rows", (long long)n);
    if (ncyc == 0 || W < 1) return LW_OK;
    int32_t *lead = malloc((size_t)ncyc * sizeof *lead);
    if (!lead) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %lld row cycle leaders", (long long)ncyc);
    lw_mallat_cycle_leaders(n, lead, ncyc);
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    /* samples a piece: the buffer's bytes, at least one sample */
    int64_t per = (int64_t)(ROWS_PIECE_BYTES / ((size_t)G * es));
    if (per < 1) per = 1;
    /* a sub-block of dim 0: a row, or (nv 2) a plane of dim-1 rows */
    const int64_t nsub = lv->nv == 2 ? lv->n[1] : 1, st1 = lv->nv == 2 ? (to_mallat ? lv->ds[1] : lv->ss[1]) : 0;
    const int64_t npieces = (W + per - 1) / per, total = nitems * ncyc * nsub * npieces;
    int fail = 0;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel num_threads(threads) if (threads > 1 && total > 1) reduction(| : fail)
#endif
    {
        /* one piece of a row, dense (G elements a sample) */
        char *buf = malloc((size_t)(per * G) * es);
        if (!buf) fail = 1;
#ifdef LW_HAVE_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t x = 0; x < total; x++) {
            if (fail) continue;
            const int64_t piece = x % npieces, sub = (x / npieces) % nsub, cyc = (x / npieces / nsub) % ncyc;
            const int64_t item = x / npieces / nsub / ncyc;
            const int64_t j0 = piece * per, cnt = (j0 + per < W ? j0 + per : W) - j0;
            int64_t so, dof, lof;
            lw_fast_item_offsets(lv, item, &so, &dof, &lof);
            char *base = data + (size_t)((to_mallat ? dof : so) + sub * st1 + j0 * rs) * es;
            lw_fast_walk_cycle(base, n, st, rs, cnt, G, es, lead[cyc], buf, to_mallat);
        }
        free(buf);
    }
    free(lead);
    if (fail) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the row moves' buffers");
    return LW_OK;
}
