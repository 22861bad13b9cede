/* Whole rows lifted by the fused kernel (cdf53, cdf97, fs) between the
 * compact split form of fast_vol.c's ring and a line buffer with the kernel's
 * margins.  Every index is computed here once per level (lw_row_init), so
 * that a row costs two vector copies, a few margin elements and the kernel
 * (k->row_load, k->row_fwd, k->row_inv in fast_tmpl_row.h): 3-D rows are short, and the
 * generic per-row bookkeeping of fast_line.c cost as much as the lifting.
 *
 * For four float steps the kernels read the ring row itself where every
 * sample a block needs is held there (edge_blocks), and only the edge
 * samples are copied.
 *
 * Forward: the finished ring row is copied into the buffer (an aligned
 * geometry, lw_line_geom_aligned, so whole blocks land aligned in Mallat
 * rows), its margins get the reflection of the row (the symmetric boundary;
 * periodic rows hold their wrapped halo already), and k->lift2s stores whole
 * blocks straight to their places with the zetas folded in.  Where every
 * output lies in whole blocks the kernel drops the margin blocks instead of
 * storing them back, so the buffer outside core and margins stays zero.
 * Inverse: the row's coefficients are loaded into the buffer divided by their
 * zetas, lifted back, and the samples copied into the ring row. */
#include "fast_internal.h"

#include <string.h>

/* Element index of held sample t in geometry g. */
static int64_t idx(const lw_line_geom *g, int64_t t)
{
    return (t & 1) ? (int64_t)g->hoff + ((t - g->x0 - 1) >> 1) : (t - g->x0) >> 1;
}

/* Indices [j0, j1) of a half not covered by whole blocks: (start, count) x2. */
static void leftover(int64_t j0, int64_t j1, int64_t N, int all, int64_t *r)
{
    int64_t c0 = (j0 + N - 1) / N * N, c1 = j1 / N * N;
    if (all || c0 >= c1) c0 = c1 = j1;
    r[0] = j0;
    r[1] = c0 > j0 ? c0 - j0 : 0;
    r[2] = c1;
    r[3] = j1 > c1 ? j1 - c1 : 0;
}

static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Whether buffer index t of a half lies in [a, a + n). */
static int within(int64_t t, int64_t a, int64_t n) { return t >= a && t < a + n; }

/* The four-step kernels (forward and merging inverse) read, at block b,
 * L [bN, bN + N + 1) and H [bN, bN + N): the blocks whose reads lie inside
 * the samples the ring row holds are read from it, and only the samples the
 * other blocks, the margins and the periodic halo need are copied into the
 * buffer (rounded to whole vectors; the extra samples are the same values).
 * A row then costs a few vector copies instead of two whole halves. */
static void edge_blocks(lw_row_prog *r, int64_t N)
{
    int64_t hoff = (int64_t)r->g.hoff, ls = r->cl_at, le = ls + r->cl_n, hs = r->ch_at - hoff, he = hs + r->ch_n;
    int64_t b0 = ceil_div(ls, N) > ceil_div(hs, N) ? ceil_div(ls, N) : ceil_div(hs, N);
    if (b0 < r->fb0 + 2) b0 = r->fb0 + 2; /* the kernels' first iterations read the buffer */
    int64_t bl = floor_div(le - N - 1, N) + 1, bh = floor_div(he - N, N) + 1, b1 = bl < bh ? bl : bh;
    r->edge = 0;
    /* only the four-step float kernels (fwd4, invm4) read the ring row */
    if (r->fp->nsteps != 4 || r->fp->isint) return;
    if (b1 <= b0 || r->cl_n <= 0 || r->ch_n <= 0) return;
    /* what the buffer must hold: the reads of the blocks outside [b0, b1)
     * (heads up to b0's first read, tails from b1's), and every halo and
     * margin source (copied in that order: halo, then margins) that is not
     * written by an earlier copy */
    int64_t hl = b0 * N + 1, hh = b0 * N, tl = b1 * N, th = b1 * N;
    for (int k = 0; k < r->nw + r->nm; k++) {
        int64_t src = k < r->nw ? r->ws[k] : r->ms[k - r->nw], dst = k < r->nw ? r->wd[k] : r->md[k - r->nw];
        int dhi = dst >= hoff, earlier = 0;
        int64_t u = dhi ? dst - hoff : dst;
        /* no destination inside the blocks read from the ring */
        if (within(u, b0 * N, (b1 - b0) * N + !dhi)) return;
        for (int q = 0; q < k && !earlier; q++) earlier = src == (q < r->nw ? r->wd[q] : r->md[q - r->nw]);
        if (earlier) continue;
        if (src >= hoff) {
            int64_t t = src - hoff;
            if (t < hs || t >= he) return; /* not a sample of the ring row */
            if (2 * t < hs + he) hh = t + 1 > hh ? t + 1 : hh;
            else th = t < th ? t : th;
        } else {
            if (src < ls || src >= le) return;
            if (2 * src < ls + le) hl = src + 1 > hl ? src + 1 : hl;
            else tl = src < tl ? src : tl;
        }
    }
    /* heads [ls, hl), [hs, hh) and tails [tl, le), [th, he), rounded out to
     * whole vectors inside the row */
    int64_t nl = hl - ls, nh = hh - hs;
    nl = nl <= 0 ? 0 : (nl + N - 1) / N * N;
    nh = nh <= 0 ? 0 : (nh + N - 1) / N * N;
    r->eh_l = nl < r->cl_n ? nl : r->cl_n;
    r->eh_h = nh < r->ch_n ? nh : r->ch_n;
    tl = tl > ls ? tl : ls;
    th = th > hs ? th : hs;
    int64_t cl = (le - tl + N - 1) / N * N, ch = (he - th + N - 1) / N * N;
    r->en_l = cl < r->cl_n ? cl : r->cl_n;
    r->en_h = ch < r->ch_n ? ch : r->ch_n;
    r->et_l = le - r->en_l;
    r->et_h = he - r->en_h;
    r->rb0 = b0;
    r->rb1 = b1;
    r->edge = 1;
}

int lw_row_init(lw_row_prog *r, const lw_fast_plan *fp, lw_mode mode, int64_t n, int inverse, int narrow)
{
    memset(r, 0, sizeof *r);
    if (!fp->fused || !fp->k->row_fwd || 2 * fp->E > LW_ROW_MARGIN) return 0;
    r->fp = fp;
    r->zl = fp->zl;
    r->zh = fp->zh;
    /* narrow: the ring row holds [0, n) only, also when periodic (the
     * wrapped halo columns lift vertically exactly like the columns they
     * copy, so they are copied into the buffer after, not lifted) */
    lw_line_geom_compact(fp, narrow ? LW_SYMMETRIC : mode, n, 0, n, &r->rg);
    if (inverse)
        lw_line_geom_phase(fp, mode, n, 0, n, r->rg.x0, &r->g);
    else
        lw_line_geom_aligned(fp, mode, n, 0, n, &r->g);
    const lw_line_geom *g = &r->g, *rg = &r->rg;
    /* ring row <-> buffer: the samples both hold, [rg.x0, rg.x1) */
    r->cl_n = (int64_t)rg->cl;
    r->ch_n = (int64_t)rg->ch;
    r->cl_at = idx(g, rg->x0);
    r->ch_at = idx(g, rg->x0 + 1);
    /* margins: E samples each side reflected; junk further out zeroed */
    int64_t m0 = g->w0 - fp->E, m1 = g->w1 + fp->E;
    if (m0 < g->x0) m0 = g->x0;
    if (m1 > g->x1) m1 = g->x1;
    for (int64_t t = m0; t < m1; t++) {
        if (t == g->w0) t = g->w1;
        if (t >= m1) break;
        int64_t u = t < g->w0 ? 2 * g->w0 - t : 2 * (g->w1 - 1) - t;
        if (u < g->w0 || u >= g->w1) u = lw_fast_reflect(t, g->w0, g->w1);
        r->md[r->nm] = idx(g, t);
        r->ms[r->nm++] = idx(g, u);
    }
    {   /* zeroed before the first held sample (ring row or periodic halo) */
        int64_t lo = rg->x0 < g->w0 ? rg->x0 : g->w0;
        r->zl_end = (lo - g->x0 + 1) >> 1;
        r->zh_end = (lo - g->x0) >> 1;
    }
    r->rl_at = (m1 - g->x0 + 1) / 2;
    r->rh_at = (m1 - g->x0) / 2;
    /* forward: whole blocks to dst[j + off] (Mallat, unit strides) */
    int64_t h = (n + 1) / 2, x0 = g->x0, N = fp->k->lanes;
    r->offl = x0 / 2;
    r->offh = h + x0 / 2;
    r->jl0 = (0 - x0 + 1) / 2;
    r->jl1 = (n - x0 + 1) / 2;
    r->jh0 = (0 - x0) / 2;
    r->jh1 = (n - x0) / 2;
    leftover(r->jl0, r->jl1, N, fp->nsteps == 1, r->lol);
    leftover(r->jh0, r->jh1, N, 0, r->loh);
    r->discard = !r->lol[1] && !r->lol[3] && !r->loh[1] && !r->loh[3];
    /* inverse: the ring row's samples from whole blocks of the kernel, the
     * rest copied (fs: the even samples are not touched by its one step) */
    leftover(r->cl_at, r->cl_at + r->cl_n, N, fp->nsteps == 1, r->ril);
    leftover(r->ch_at - (int64_t)g->hoff, r->ch_at - (int64_t)g->hoff + r->ch_n, N, 0, r->rih);
    /* inverse: the core samples inside [0, n) in two contiguous runs
     * (Mallat); periodic halo samples one by one */
    int64_t a = g->w0 < 0 ? 0 : g->w0, b = g->w1 > n ? n : g->w1;
    r->ie = (a & 1) ? a + 1 : a;
    r->io = (a & 1) ? a : a + 1;
    r->ne = b > r->ie ? (b - r->ie + 1) / 2 : 0;
    r->no = b > r->io ? (b - r->io + 1) / 2 : 0;
    r->ie_at = idx(g, r->ie);
    r->io_at = idx(g, r->io);
    for (int64_t t = g->w0; t < g->w1; t++) {
        if (t == a) t = b;
        if (t >= g->w1) break;
        if (r->nw == LW_ROW_MARGIN) return 0;
        r->wd[r->nw] = idx(g, t);
        r->wu[r->nw] = lw_wrap(t, n);
        r->ws[r->nw] = idx(g, r->wu[r->nw]);
        r->nw++;
    }
    if (inverse && r->cl_at % N == 0 && r->ch_at - (int64_t)g->hoff == r->cl_at) {
        r->k0 = r->cl_at / N;
        r->kl1 = (r->cl_at + r->cl_n + N - 1) / N;
        r->kh1 = (r->cl_at + r->ch_n + N - 1) / N;
        /* the spill of the last blocks fits the ring row's halves */
        r->whole = r->kl1 * N - r->cl_at <= (int64_t)rg->hoff &&
                   r->kh1 * N - r->cl_at <= (int64_t)(rg->fmt - rg->hoff) && r->kl1 <= (int64_t)g->nblk &&
                   r->kh1 <= (int64_t)g->nblk && r->cl_n > 0;
    }
    r->bl0 = (r->ril[0] + r->ril[1]) / N;
    r->bl1 = r->ril[2] / N;
    r->bh0 = (r->rih[0] + r->rih[1]) / N;
    r->bh1 = r->rih[2] / N;
    /* forward: the branch-free path when both halves' outputs are the same
     * whole blocks */
    if (r->discard && r->jl0 == r->jh0 && r->jl1 == r->jh1 && r->jl0 % N == 0 && r->jl1 % N == 0 &&
        r->jl1 / N <= (int64_t)g->nblk) {
        r->fb0 = r->jl0 / N;
        r->fb1 = r->jl1 / N;
    }
    /* periodic, four float steps: the outputs [0, n) read only the window
     * (core and wrapped halo); the margins beyond feed the dropped blocks
     * alone, so they keep the buffer's zeros instead of being refilled */
    if (r->fb1 > r->fb0 && !inverse && mode == LW_PERIODIC && fp->nsteps == 4 && !fp->isint) r->nm = 0;
    if (r->fb1 > r->fb0 && !inverse) edge_blocks(r, N);
    /* load: pairs of [0, n) split into the ring row, the halo copied there */
    r->ld_l = idx(rg, 0);
    r->ld_h = idx(rg, 1);
    r->ld_np = n / 2;
    r->ld_t = (n & 1) ? idx(rg, n - 1) : -1;
    for (int64_t t = rg->w0; t < rg->w1; t++) {
        if (t == 0) t = n;
        if (t >= rg->w1) break;
        if (r->nh == LW_ROW_MARGIN) return 0;
        r->hd[r->nh] = idx(rg, t);
        r->hs[r->nh++] = idx(rg, lw_wrap(t, n));
    }
    return 1;
}

int lw_row_merge_ok(const lw_row_prog *r)
{
    const lw_fast_plan *fp = r->fp;
    if (!fp || !fp->k->row_invm || fp->nsteps != 4 || fp->isint || r->fb1 <= r->fb0) return 0;
    /* the kernel reads blocks up to fb1 + 1 of both halves */
    int64_t need = (r->fb1 + 2) * (int64_t)fp->k->lanes;
    return need <= (int64_t)r->g.hoff && (int64_t)r->g.hoff + need <= (int64_t)r->g.fmt && r->g.x0 % (2 * fp->k->lanes) == 0;
}

