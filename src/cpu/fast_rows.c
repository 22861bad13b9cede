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
 * in the interleaved order, in segments; then (lw_fast_move_line) each chunk
 * of B samples goes to Mallat order within itself through a buffer, the
 * chunks' halves move as rows along the cycles of 2m rows (m whole chunks:
 * L0 H0 L1 H1 .. -> L0 L1 .. H0 H1 ..), and the short chunk's lowpass half
 * TL (after the H block) rotates in front of the H block.  An inverse level
 * undoes the three first.  Two reads and two writes of the line and one of
 * its highpass half (the rotation), all in long runs; a chunk's buffer a
 * thread. */
#include "fast_internal.h"

#include <stdlib.h>
#include <string.h>

/* bytes of a row a work item moves (the thread's buffer) */
#define ROWS_PIECE_BYTES 16384
/* bytes of a line's chunk (its halves are the rows that move) */
#define LINE_CHUNK_BYTES 16384

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

/* The chunks of B samples of every line, each to (or from) Mallat order
 * within itself, through a chunk-sized buffer a thread (bufs) */
static void line_chunks(const lw_fast_level *lv, char *data, int64_t B, int to_mallat, int threads, char *bufs)
{
    const int64_t n = lv->rowlen, G = lv->G, rs = lv->srs, nch = (n + B - 1) / B;
    const size_t es = lv->fp->es;
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    const int64_t total = nitems * nch;
    (void)threads;
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && total > 1) schedule(static)
#endif
    for (int64_t x = 0; x < total; x++) {
        const int64_t c = x % nch, item = x / nch, cnt = (c + 1) * B < n ? B : n - c * B, ne = (cnt + 1) / 2;
        int64_t so, dof, lof;
        lw_fast_item_offsets(lv, item, &so, &dof, &lof);
        char *base = data + (size_t)(so + c * B * rs) * es, *buf = bufs + (size_t)(lw_fast_thread_num() * B * G) * es;
        char *bo = buf + (size_t)(ne * G) * es, *odd = base + (size_t)rs * es;
        if (rs == 1 && G == 1) { /* the vector kernels; their factors of 1 leave the values as they are */
            const size_t np = (size_t)(cnt / 2), last = (size_t)(cnt - 1) * es;
            if (to_mallat) {
                lv->fp->k->split(base, buf, bo, np, 1.0, 1.0);
                if (cnt & 1) memcpy(buf + (size_t)(ne - 1) * es, base + last, es);
                memcpy(base, buf, (size_t)cnt * es);
            } else {
                memcpy(buf, base, (size_t)cnt * es);
                lv->fp->k->merge(base, buf, bo, np, 1.0, 1.0);
                if (cnt & 1) memcpy(base + last, buf + (size_t)(ne - 1) * es, es);
            }
        } else if (to_mallat) {
            lw_fast_copy_samples(buf, G, base, 2 * rs, ne, G, es);
            lw_fast_copy_samples(bo, G, odd, 2 * rs, cnt - ne, G, es);
            lw_fast_copy_samples(base, rs, buf, G, cnt, G, es);
        } else {
            lw_fast_copy_samples(buf, G, base, rs, cnt, G, es);
            lw_fast_copy_samples(base, 2 * rs, buf, G, ne, G, es);
            lw_fast_copy_samples(odd, 2 * rs, bo, G, cnt - ne, G, es);
        }
    }
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

static lw_status move_line(const lw_fast_level *lv, char *data, int to_mallat, int threads)
{
    const int64_t n = lv->rowlen, G = lv->G, rs = lv->srs;
    const size_t es = lv->fp->es;
    int64_t B = 2 * (int64_t)(LINE_CHUNK_BYTES / (2 * (size_t)G * es));
    if (B < 2) B = 2;
    const int64_t m = n / B, h = m * (B / 2), d = (n - m * B + 1) / 2; /* d: the short chunk's lowpass half */
    if (threads < 1) threads = 1;
    char *bufs = malloc((size_t)(threads * B * G) * es);
    if (!bufs) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the line moves' buffers");
    /* the chunks' halves as rows: 2m rows of B / 2 samples */
    lw_fast_level hv = *lv;
    hv.nv = 1, hv.n[0] = 2 * m, hv.ss[0] = hv.ds[0] = (B / 2) * rs, hv.rowlen = B / 2, hv.drs = rs;
    int64_t nitems = 1;
    for (int b = 0; b < lv->nb && b < LW_MAX_RANK; b++) nitems *= lv->bn[b];
    lw_status st = LW_OK;
    if (to_mallat) {
        line_chunks(lv, data, B, 1, threads, bufs);
        if (m > 1) st = lw_fast_move_rows(&hv, data, 1, threads);
    }
    if (st == LW_OK && d > 0 && m > 0) {
#ifdef LW_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) if (threads > 1 && nitems > 1) schedule(static)
#endif
        for (int64_t item = 0; item < nitems; item++) {
            int64_t so, dof, lof;
            lw_fast_item_offsets(lv, item, &so, &dof, &lof);
            char *hb = data + (size_t)(so + h * rs) * es, *buf = bufs + (size_t)(lw_fast_thread_num() * B * G) * es;
            char *tl = hb + (size_t)((to_mallat ? h : 0) * rs) * es, *to = hb + (size_t)((to_mallat ? 0 : h) * rs) * es;
            lw_fast_copy_samples(buf, G, tl, rs, d, G, es);
            if (to_mallat)
                line_shift(hb, rs, G, es, h, d);
            else
                line_shift(hb + (size_t)(d * rs) * es, rs, G, es, h, -d);
            lw_fast_copy_samples(to, rs, buf, G, d, G, es);
        }
    }
    if (!to_mallat) {
        if (m > 1) st = lw_fast_move_rows(&hv, data, 0, threads);
        if (st == LW_OK) line_chunks(lv, data, B, 0, threads, bufs);
    }
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
