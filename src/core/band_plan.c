/* Planning the first level of a multi-level fused 2-D transform in row bands,
 * so that the workspace of the inner levels lies inside the caller's buffers
 * (lw_bands in band_plan.h; the launches are in src/cuda/tile2d_bands.c).
 * Host arithmetic only, no CUDA: every launch's
 * reads are bounded conservatively (rows through the boundary mode, the tile
 * height of k_tile2d.cu past its last row) and checked against everything
 * written before or during that launch, so no launch reads an overwritten
 * sample and no two blocks of one launch touch the same sample with a write. */
#include "band_plan.h"
#include "liftwave.h"

#include <stdlib.h>
#include <string.h>


/* Tallest tile of k_tile2d.cu (rows): a launch over rows [r0, r1) runs
 * ceil((r1 - r0) / TH) tiles from r0, each reading H rows beyond it. */
#define BAND_TH 32

typedef struct iv {
    int64_t a, b; /* [a, b) */
} iv;

static int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

static int overlap(iv x, iv y) { return x.a < y.b && y.a < x.b && x.a < x.b && y.a < y.b; }

/* Rows (of R, through the boundary mode) that a launch over rows [r0, r1)
 * reads: up to 3 intervals. */
static int window_rows(const lw_band_geo *g, int64_t r0, int64_t r1, iv *o)
{
    const int64_t R = g->R, lo = r0 - g->H, hi = r0 + round_up(r1 - r0, BAND_TH) + g->H;
    if (lo < -(R - 1) || hi > 2 * R - 1) { /* more than one reflection or period: anything */
        o[0].a = 0, o[0].b = R;
        return 1;
    }
    int n = 0;
    o[n].a = lo > 0 ? lo : 0, o[n].b = hi < R ? hi : R, n++;
    if (lo < 0) {
        if (g->mode == LW_PERIODIC) o[n].a = R + lo, o[n].b = R;
        else o[n].a = 1, o[n].b = 1 - lo; /* i -> -i */
        n++;
    }
    if (hi > R) {
        if (g->mode == LW_PERIODIC) o[n].a = 0, o[n].b = hi - R;
        else o[n].a = 2 * R - 1 - hi, o[n].b = R - 1; /* i -> 2R - 2 - i */
        n++;
    }
    return n;
}

/* Half-resolution rows holding the samples of full rows [a, b): even row r
 * at r/2 (lowpass), odd row r at r/2 of the highpass half. */
static iv half_rows(iv r) { return (iv){r.a / 2, r.b > r.a ? (r.b - 1) / 2 + 1 : r.a / 2}; }

/* ---- forward --------------------------------------------------------------- */

/* Input elements of plane 0 that band [r0, r1) reads must avoid the LL
 * elements written so far: [wlo, whi). */
static int fwd_band_ok(const lw_band_geo *g, int64_t r0, int64_t r1, int64_t wlo, int64_t whi)
{
    iv w[3];
    int n = window_rows(g, r0, r1, w);
    for (int i = 0; i < n; i++)
        if (overlap((iv){w[i].a * g->C, w[i].b * g->C}, (iv){wlo, whi})) return 0;
    return 1;
}

/* Boundaries are congruent to R (rounded down to even) modulo BAND_TH, so
 * that every band after the first is a whole number of tiles: the last one
 * then reads no row past R but the halo (periodic: rows [0, H) wrapped). */
static int64_t align_down(int64_t v, int64_t re) { return v - (((v - re) % BAND_TH) + BAND_TH) % BAND_TH; }
static int64_t align_up(int64_t v, int64_t re) { return v + (((re - v) % BAND_TH) + BAND_TH) % BAND_TH; }

static int fwd_try(const lw_band_geo *g, int64_t b1, lw_bands *b)
{
    const int64_t R = g->R, re = R & ~(int64_t)1, hc = g->hc;
    b->n = 1, b->b[0] = 0, b->b[1] = b1;
    const int64_t wlo = (b1 / 2) * hc; /* LL of band 0 goes to out first */
    int64_t r0 = b1;
    while (r0 < R) {
        if (b->n == LW_BANDS_MAX || r0 - g->H <= 0) return -1;
        /* the LL written ends before the first input row still to be read */
        int64_t lim = 2 * ((r0 - g->H) * g->C / hc);
        int64_t r1 = -1;
        if (lim >= R && fwd_band_ok(g, r0, R, wlo, ((R + 1) / 2) * hc)) r1 = R;
        for (int64_t v = align_down(lim < R - 1 ? lim : R - 1, re); r1 < 0 && v > r0; v -= BAND_TH)
            if (fwd_band_ok(g, r0, v, wlo, ((v + 1) / 2) * hc)) r1 = v;
        if (r1 < 0) return -1;
        b->b[++b->n] = r1;
        r0 = r1;
    }
    return 0;
}

int lw_bands_plan_fwd(const lw_band_geo *g, lw_bands *b)
{
    memset(b, 0, sizeof *b);
    const int64_t R = g->R, N = g->R * g->C, rc1 = g->hr * g->hc;
    if (R < 2 || g->C < 2 || rc1 * 2 > N) return -1;
    /* band 0: about R/32 rows (its LL is copied once more); larger if needed */
    int64_t t = R / 32 > 2 * BAND_TH ? R / 32 : 2 * BAND_TH;
    for (;; t *= 2) {
        int64_t b1 = align_up(t, R & ~(int64_t)1);
        if (b1 >= R) { /* one band: all of LL1 through out, always valid */
            b->n = 1, b->b[0] = 0, b->b[1] = R;
            break;
        }
        if (fwd_try(g, b1, b) == 0) break;
    }
    /* planes 1..: group [p0, p1) writes its LL to [p0, p1) * rc1, before input plane p0 */
    b->ng = 0, b->g[0] = 1;
    while (b->g[b->ng] < g->nb) {
        int64_t p0 = b->g[b->ng], p1 = p0 * N / rc1;
        if (p1 > g->nb) p1 = g->nb;
        if (p1 <= p0 || b->ng == LW_BANDS_MAX) return -1;
        b->g[++b->ng] = p1;
    }
    return 0;
}

/* ---- inverse --------------------------------------------------------------- */

/* LL1 elements (compact, plane 0) that an inverse launch over output rows
 * [r0, r1) reads must avoid the output elements written so far [wlo, whi). */
static int inv_ll_ok(const lw_band_geo *g, int64_t r0, int64_t r1, int64_t wlo, int64_t whi)
{
    iv w[3];
    int n = window_rows(g, r0, r1, w);
    for (int i = 0; i < n; i++) {
        iv q = half_rows(w[i]);
        if (overlap((iv){q.a * g->hc, q.b * g->hc}, (iv){wlo, whi})) return 0;
    }
    return 1;
}

/* Bottom-up bands from R to x; 0 on success. */
static int inv_try(const lw_band_geo *g, int64_t x, lw_bands *b)
{
    const int64_t R = g->R, C = g->C, N = R * C;
    b->n = 0, b->b[0] = R, b->x = x;
    int64_t r1 = R;
    while (r1 > x) {
        if (b->n == LW_BANDS_MAX) return -1;
        /* necessary: the last LL row of the window lies below the first row written */
        int64_t top = r1 + g->H < R ? r1 + g->H : R;
        int64_t lb = (((top - 1) / 2 + 1) * g->hc + C - 1) / C;
        int64_t r0 = lb > x ? (lb & ~(int64_t)1) : x;
        while (r0 < r1 && !inv_ll_ok(g, r0, r1, r0 * C, N)) r0 += 2;
        if (r0 >= r1) return -1;
        b->b[++b->n] = r0;
        r1 = r0;
    }
    return 0;
}

/* `in` rows (plane 0) an inverse launch over output rows [r0, r1) reads:
 * lowpass-half rows and highpass-half rows of the window (full rows). */
static int inv_in_rows(const lw_band_geo *g, int64_t r0, int64_t r1, iv *o)
{
    iv w[3];
    int n = window_rows(g, r0, r1, w), k = 0;
    for (int i = 0; i < n; i++) {
        iv q = half_rows(w[i]);
        o[k++] = q;
        o[k++] = (iv){g->hr + q.a, g->hr + q.b};
    }
    return k;
}

/* Stash of the top rows inside `in` plane 0, written after band 1: rows that
 * neither the top launch nor bands 2.. read.  The highest such rows. */
static int find_in_stash(const lw_band_geo *g, lw_bands *b)
{
    if (b->n < 1) return -1;
    /* the top launch must not read LL1 rows band 1 overwrote */
    if (!inv_ll_ok(g, 0, b->x, b->b[1] * g->C, g->R * g->C)) return -1;
    iv *rd = malloc(sizeof(iv) * (size_t)(6 * (b->n + 1)));
    if (!rd) return -1;
    int k = inv_in_rows(g, 0, b->x, rd);
    for (int j = 2; j <= b->n; j++) k += inv_in_rows(g, b->b[j], b->b[j - 1], rd + k);
    int64_t best = -1;
    for (int c = -1; c < k; c++) { /* candidates: just below each read interval, or at the end */
        int64_t s0 = (c < 0 ? g->R : rd[c].a) - b->x;
        if (s0 < 0 || s0 <= best) continue;
        int ok = 1;
        for (int i = 0; i < k && ok; i++) ok = !overlap((iv){s0, s0 + b->x}, rd[i]);
        if (ok) best = s0;
    }
    free(rd);
    if (best < 0) return -1;
    b->stash = 1, b->stash_row = best;
    return 0;
}

/* Groups of whole planes, last first, from nb down to at most `stop` planes:
 * group [p0, p1) reads LL1 [p0, p1) * rc1 and writes output from p0 * N,
 * so p0 * N >= p1 * rc1.  -1 where the chain cannot shrink. */
static int inv_groups(const lw_band_geo *g, int64_t stop, lw_bands *b)
{
    const int64_t N = g->R * g->C, rc1 = g->hr * g->hc;
    b->ng = 0, b->g[0] = g->nb;
    while (b->g[b->ng] > stop) {
        int64_t p1 = b->g[b->ng], p0 = (p1 * rc1 + N - 1) / N;
        if (p0 < 1) p0 = 1;
        if (p0 >= p1 || b->ng == LW_BANDS_MAX) return -1;
        b->g[++b->ng] = p0;
    }
    return 0;
}

int lw_bands_plan_inv(const lw_band_geo *g, int allow_in_stash, lw_bands *b)
{
    memset(b, 0, sizeof *b);
    const int64_t R = g->R, N = g->R * g->C, rc1 = g->hr * g->hc;
    if (R < 4 || g->C < 2 || rc1 * 2 > N) return -1;
    const int64_t lead_planes = g->lead_max / rc1;
    if (lead_planes >= 1 && inv_groups(g, lead_planes, b) == 0) {
        b->lead = b->g[b->ng];
        /* the copy inside `in` (allowed) at plane lead, consumed by the groups */
        if (allow_in_stash && b->lead < g->nb && b->lead * rc1 <= (g->nb - b->lead) * N) b->stash = 2;
        return 0;
    }
    memset(b, 0, sizeof *b);
    int64_t x = 2;
    for (; x < R; x += 2)
        if (inv_try(g, x, b) == 0) break;
    if (x >= R) return -1;
    /* planes nb-1 .. 1 first */
    if (inv_groups(g, 1, b)) return -1;
    b->stash = 0, b->stash_row = 0;
    if (!allow_in_stash) return 0;
    /* a stash inside `in` costs no memory: let it take the top rows of the
     * last small bands too (fewer launches; the copy grows) */
    int n0 = b->n;
    int64_t x0 = b->x;
    int j = 1;
    while (j < b->n && b->b[j] > g->stash_cheap) j++;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0 && j >= n0) continue;
        b->n = pass == 0 ? j : n0;
        b->x = pass == 0 ? b->b[j] : x0;
        if (g->nb >= 2) { /* input plane 1 is consumed before plane 0 runs */
            b->stash = 2;
            return 0;
        }
        if (find_in_stash(g, b) == 0) return 0;
    }
    b->n = n0, b->x = x0, b->stash = 0;
    return 0;
}

