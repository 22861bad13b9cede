/* What one slab of the out-of-core streaming moves (ooc_pass.h): the strided
 * copies as boxes, the bands of a slab's rows, the slab's order of moves, and
 * the permutation of the host's rows in place. */
#include "ooc_pass.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- copies ------------------------------------------------------------------- */

/* Dims of counts cnt (outer first) with byte strides a and b (b may be
 * NULL) in place: those of one element dropped, each that follows the next
 * on both sides merged with it.  Returns how many are left; 0 when a count
 * is 0 (nothing to do) or all were single. */
static int merge_dims(int nd, int64_t *cnt, int64_t *a, int64_t *b)
{
    int n = 0;
    for (int d = 0; d < nd; d++) {
        if (cnt[d] <= 0) return 0;
        if (cnt[d] == 1) continue;
        cnt[n] = cnt[d], a[n] = a[d], n++;
        if (b) b[n - 1] = b[d];
    }
    for (int i = n - 1; i >= 1; i--)
        if (a[i - 1] == cnt[i] * a[i] && (!b || b[i - 1] == cnt[i] * b[i])) {
            cnt[i - 1] *= cnt[i], a[i - 1] = a[i];
            if (b) b[i - 1] = b[i];
            for (int j = i; j < n - 1; j++) {
                cnt[j] = cnt[j + 1], a[j] = a[j + 1];
                if (b) b[j] = b[j + 1];
            }
            n--;
        }
    return n;
}

/* An n-D strided copy (counts, byte strides of each side, outer first) as
 * boxes: the dims merged (merge_dims), a contiguous innermost dim made the
 * box's row, two more its rows and planes, the rest looped. */
static lw_status copy_nd(const ooc_pass *P, int kind, char *dst, const char *src, int nd, const int64_t *cnt0,
                         const int64_t *ds0, const int64_t *ss0, int q)
{
    int64_t cnt[LW_MAX_RANK + 1], ds[LW_MAX_RANK + 1], ss[LW_MAX_RANK + 1];
    for (int d = 0; d < nd; d++) {
        if (cnt0[d] <= 0) return LW_OK;
        cnt[d] = cnt0[d], ds[d] = ds0[d], ss[d] = ss0[d];
    }
    int n = merge_dims(nd, cnt, ds, ss);
    const int64_t es = (int64_t)P->es;
    size_t width = (size_t)es;
    if (n > 0 && ds[n - 1] == es && ss[n - 1] == es) width = (size_t)(cnt[n - 1] * es), n--;
    lw_ooc_box b;
    b.row = width;
    b.ny = n >= 1 ? cnt[n - 1] : 1, b.dpitch = n >= 1 ? (size_t)ds[n - 1] : width, b.spitch = n >= 1 ? (size_t)ss[n - 1] : width;
    b.nz = n >= 2 ? cnt[n - 2] : 1;
    b.dplane = n >= 2 ? (size_t)ds[n - 2] : b.dpitch * (size_t)b.ny;
    b.splane = n >= 2 ? (size_t)ss[n - 2] : b.spitch * (size_t)b.ny;
    const int outer = n > 2 ? n - 2 : 0;
    int64_t idx[LW_MAX_RANK + 1] = {0};
    for (;;) {
        int64_t od = 0, os = 0;
        for (int d = 0; d < outer; d++) od += idx[d] * ds[d], os += idx[d] * ss[d];
        if (kind == LW_OOC_UP && P->begin_up) LW_TRY(P->mv->up_begin(P->mv->ctx, dst + od, src + os, &b, q));
        else LW_TRY(P->mv->copy(P->mv->ctx, kind, dst + od, src + os, &b, q));
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == cnt[d]) idx[d--] = 0;
        if (d < 0) break;
    }
    return LW_OK;
}

/* the byte strides of the compact layout of shape */
static void compact_strides(const ooc_pass *P, const int64_t *shape, int64_t *st)
{
    for (int d = 0; d < P->rank; d++) st[d] = (int64_t)(lw_ooc_elems_after(shape, P->rank, d) * P->es);
}

/* One side of a copy of rows: base, on the host (strides P->hs) or compact on
 * the device, row i at r0 + i * rs. */
typedef struct side {
    char *base;
    int host;
    int64_t r0, rs;
} side;

static side host_side(char *b, int64_t r0, int64_t rs) { side x = {b, 1, r0, rs}; return x; }
static side dev_side(char *b, int64_t r0) { side x = {b, 0, r0, 1}; return x; }

/* cnt rows, each restricted to box `bx` of row positions (NULL: whole rows) */
static lw_status move_box(const ooc_pass *P, int kind, const struct region *rg, int box, side dst, side src,
                          int64_t cnt, int q)
{
    if (cnt <= 0) return LW_OK;
    int64_t c[LW_MAX_RANK], cs[LW_MAX_RANK], ds[LW_MAX_RANK], ss[LW_MAX_RANK];
    compact_strides(P, P->shape, cs);
    int64_t od = dst.r0 * (dst.host ? P->hs[0] : cs[0]), os = src.r0 * (src.host ? P->hs[0] : cs[0]);
    c[0] = cnt, ds[0] = dst.rs * (dst.host ? P->hs[0] : cs[0]), ss[0] = src.rs * (src.host ? P->hs[0] : cs[0]);
    for (int d = 1; d < P->rank; d++) {
        const int64_t lo = rg ? rg->lo[box][d] : 0, hi = rg ? rg->hi[box][d] : P->shape[d];
        c[d] = hi - lo;
        ds[d] = dst.host ? P->hs[d] : cs[d], ss[d] = src.host ? P->hs[d] : cs[d];
        od += lo * ds[d], os += lo * ss[d];
    }
    return copy_nd(P, kind, dst.base + od, src.base + os, P->rank, c, ds, ss, q);
}

/* cnt whole rows: host rows h0, h0 + hs, ... <-> device rows d0.. (compact) */
lw_status lw_ooc_move_rows(const ooc_pass *P, int kind, char *host, int64_t h0, int64_t hs, char *dev, int64_t d0,
                           int64_t cnt, int q)
{
    if (kind == LW_OOC_UP) return move_box(P, kind, NULL, 0, dev_side(dev, d0), host_side(host, h0, hs), cnt, q);
    return move_box(P, kind, NULL, 0, host_side(host, h0, hs), dev_side(dev, d0), cnt, q);
}

/* The corner part of cnt lowpass rows: in the full layout from `full` (on
 * the host, or compact on the device) with fstride bytes from one to the
 * next (the part: the first lowpass samples of each transformed axis,
 * Mallat; every 2^L1-th, interleaved), in the compact corner from `comp`;
 * to_comp says which way. */
lw_status lw_ooc_corner_rows(const ooc_pass *P, int kind, char *full, int64_t fstride, int on_host, char *comp,
                             int64_t cnt, int to_comp, int q)
{
    int64_t c[LW_MAX_RANK], fs[LW_MAX_RANK], cs[LW_MAX_RANK];
    const int64_t a = (int64_t)1 << P->sl.L1;
    compact_strides(P, P->shape, fs);
    if (on_host) memcpy(fs, P->hs, sizeof fs);
    compact_strides(P, P->cshape, cs);
    memcpy(c, P->cshape, sizeof c);
    c[0] = cnt, fs[0] = fstride;
    for (int d = 1; d < P->rank; d++)
        if (!P->mallat && lw_ooc_transformed(P, d)) fs[d] *= a;
    if (to_comp) return copy_nd(P, kind, comp, full, P->rank, c, cs, fs, q);
    return copy_nd(P, kind, full, comp, P->rank, c, fs, cs, q);
}

/* ---- one slab ------------------------------------------------------------------- */

/* Where the indices of one band along axis 0 are: in the whole array (Nb of
 * them, index g on host row hbase + g * hs) and in a slot (virtual indices
 * [vb, vb + cnt) from slot row sbase). */
typedef struct band_map {
    int64_t Nb, hbase, hs, vb, cnt, sbase;
} band_map;

static band_map band_of(const ooc_pass *P, int b, int bands_slot, int L, int64_t e0, int64_t m)
{
    band_map x;
    if (!bands_slot) { /* whole rows */
        x.Nb = P->shape[0], x.hbase = 0, x.hs = 1, x.vb = e0, x.cnt = m, x.sbase = 0;
        return x;
    }
    const int lev = lw_ooc_band_level(b, L);
    x.Nb = lw_ooc_band_count(b, L, P->shape[0]);
    if (P->host_bands) x.hbase = lw_ooc_band_base(b, L, P->shape[0]), x.hs = 1;
    else x.hbase = lw_ooc_band_row(b, L, 0), x.hs = (int64_t)1 << lev;
    x.vb = e0 / ((int64_t)1 << lev); /* e0 is a multiple of 2^L1: exact, also below 0 */
    x.cnt = lw_ooc_band_count(b, L, m);
    x.sbase = lw_ooc_band_base(b, L, m);
    return x;
}

/* what fill_band moves: the rows from the host, the rows already on the device */
enum { FILL_HOST = 1, FILL_DEV = 2 };

/* Fill a band of slot k's input (the part of its rows in box `box` of region
 * rg; NULL: whole rows): what slot k-1 holds from there, the rest from the
 * host (the rows past the end wrap: from the head in place); `what` says
 * which of the two. */
static lw_status fill_band(const ooc_pass *P, const struct region *rg, int box, const band_map *x,
                           const band_map *prev, char *slot, const char *pslot, const char *host, int q, int what)
{
    int64_t g = x->vb, end = x->vb + x->cnt;
    if (prev) {
        int64_t c = prev->vb + prev->cnt < end ? prev->vb + prev->cnt : end;
        if (c > g) {
            if (what & FILL_DEV)
                LW_TRY(move_box(P, LW_OOC_D2D, rg, box, dev_side(slot, x->sbase + g - x->vb),
                                dev_side((char *)pslot, prev->sbase + g - prev->vb), c - g, q));
            g = c;
        }
    }
    while (g < end) {
        int64_t to, w;
        int from_head = 0;
        if (g < 0) to = end < 0 ? end : 0, w = g + x->Nb;
        else if (g < x->Nb) to = end < x->Nb ? end : x->Nb, w = g;
        else to = end, w = g - x->Nb, from_head = P->inplace || (P->stash && host == P->stash);
        const side dst = dev_side(slot, x->sbase + g - x->vb);
        if (from_head && (what & FILL_DEV)) { /* the head holds host (or stash) rows [0, E), compact */
            side h = {P->head, 0, x->hbase + w * x->hs, x->hs};
            LW_TRY(move_box(P, LW_OOC_D2D, rg, box, dst, h, to - g, q));
        } else if (!from_head && (what & FILL_HOST)) {
            LW_TRY(move_box(P, LW_OOC_UP, rg, box, dst, host_side((char *)host, x->hbase + w * x->hs, x->hs), to - g,
                            q));
        }
        g = to;
    }
    return LW_OK;
}

/* the corner's levels L..L1+1 (done, in ll2) over the slot's lowpass rows */
static lw_status overlay_corner(const ooc_pass *P, char *slot, int64_t e0, int64_t m, int q)
{
    const int64_t a = (int64_t)1 << P->sl.L1, ls = lw_ooc_low_stride(P), R = (int64_t)P->row;
    int64_t g = e0 / a, end = g + lw_ooc_band_count(0, P->sl.L1, m), i = 0;
    while (g < end) {
        int64_t to = g < 0 ? (end < 0 ? end : 0) : g < P->N0 ? (end < P->N0 ? end : P->N0) : end;
        int64_t w = g < 0 ? g + P->N0 : g < P->N0 ? g : g - P->N0;
        LW_TRY(lw_ooc_corner_rows(P, LW_OOC_D2D, slot + i * ls * R, ls * R, 0, (char *)P->ll2 + w * (int64_t)P->crow, to - g,
                           0, q));
        i += to - g, g = to;
    }
    return LW_OK;
}

/* slab k's input: its extent, and the parts `what` of each band (fill_band) */
static lw_status fill_slot(ooc_pass *P, int64_t k, const char *in, int what)
{
    const int q = (int)(k % LW_OOC_QUEUES), pq = (int)((k + LW_OOC_QUEUES - 1) % LW_OOC_QUEUES);
    int64_t z0, z1, e0, e1, pz0, pz1, pe0 = 0, pe1 = 1;
    lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
    if (k > 0) lw_ooc_slab_at(&P->sl, k - 1, &pz0, &pz1, &pe0, &pe1);
    const int64_t m = e1 - e0;
    char *si = P->slot_in[q];
    if (!P->in_bands) {
        band_map x = band_of(P, 0, 0, 0, e0, m), px = band_of(P, 0, 0, 0, pe0, pe1 - pe0);
        LW_TRY(fill_band(P, NULL, 0, &x, k > 0 ? &px : NULL, si, P->slot_in[pq], in, q, what));
    }
    for (int r = 0; P->in_bands && r < P->nreg; r++) /* each part of the rows by its bands */
        for (int bx = 0; bx < P->reg[r].nbox; bx++)
            for (int b = 0; b <= P->reg[r].k; b++) {
                band_map x = band_of(P, b, 1, P->reg[r].k, e0, m), px = band_of(P, b, 1, P->reg[r].k, pe0, pe1 - pe0);
                const band_map *pp = k > 0 ? &px : NULL;
                if (b == 0 && P->stash && P->reg[r].k == P->sl.L1) { /* the lowpass corner from the stash */
                    for (int cb = 0; cb < P->st_ring.nbox; cb++)
                        LW_TRY(fill_band(P, &P->st_ring, cb, &x, pp, si, P->slot_in[pq], in, q, what));
                    LW_TRY(fill_band(P, &P->st_corner, 0, &x, pp, si, P->slot_in[pq], P->stash, q, what));
                    continue;
                }
                LW_TRY(fill_band(P, &P->reg[r], bx, &x, pp, si, P->slot_in[pq], in, q, what));
            }
    return LW_OK;
}

int lw_ooc_stash_applies(const ooc_pass *P)
{
    if (!P->host_cont || !P->stash_ok) return 0;
    const int64_t row0 = lw_ooc_stash_row(P);
    int64_t written = 0; /* output rows [0, written) the slabs before have written back */
    band_map px;
    memset(&px, 0, sizeof px);
    for (int64_t k = 0; k < P->sl.n; k++) {
        int64_t z0, z1, e0, e1;
        lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
        const band_map x = band_of(P, 0, 1, P->sl.L1, e0, e1 - e0);
        int64_t g = x.vb;
        const int64_t end = x.vb + x.cnt;
        if (k > 0 && px.vb + px.cnt > g) g = px.vb + px.cnt < end ? px.vb + px.cnt : end; /* from the slot before */
        /* read from the host: [g, 0) wrapped to the stash's end, [0, Nb) as they are (past Nb: the head) */
        if (g < end && g < 0 && row0 + g + x.Nb < written) return 0;
        if (g < end && end > 0 && g < x.Nb && row0 + (g > 0 ? g : 0) < written) return 0;
        if (z1 > written) written = z1;
        px = x;
    }
    return 1;
}

lw_status lw_ooc_stash_head(const ooc_pass *P, int q)
{
    const int64_t cnt = P->sl.E < P->N0 ? P->sl.E : P->N0;
    return move_box(P, LW_OOC_UP, &P->st_corner, 0, dev_side(P->head, 0), host_side((char *)P->stash, 0, 1), cnt, q);
}

/* slot q last served slab k-3, which slab k-2 copied its shared rows from */
static lw_status wait_slot(const ooc_pass *P, int64_t k)
{
    const int q = (int)(k % LW_OOC_QUEUES);
    if (k < LW_OOC_QUEUES) return LW_OK;
    return P->mv->wait(P->mv->ctx, EV_OVL + (int)((k - 2) % LW_OOC_QUEUES), q);
}

lw_status lw_ooc_prefill(ooc_pass *P, int64_t k, const char *in)
{
    LW_TRY(wait_slot(P, k));
    P->begin_up = 1;
    const lw_status st = fill_slot(P, k, in, FILL_HOST);
    P->begin_up = 0;
    return st;
}

lw_status lw_ooc_run_slab(ooc_pass *P, int64_t k, const char *in, char *out)
{
    const lw_ooc_mover *mv = P->mv;
    const int q = (int)(k % LW_OOC_QUEUES), pq = (int)((k + LW_OOC_QUEUES - 1) % LW_OOC_QUEUES);
    const int64_t R = (int64_t)P->row, L1 = P->sl.L1;
    int64_t z0, z1, e0, e1;
    lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
    const int64_t m = e1 - e0;
    const sub_entry *sub = NULL;
    LW_TRY(lw_ooc_sub_for(P, m, &sub));
    char *si = P->slot_in[q], *so = P->slot_out[q];
    if (!P->ahead) LW_TRY(wait_slot(P, k));
    if (k > 0) LW_TRY(mv->wait(mv->ctx, EV_UP + pq, q));
    LW_TRY(fill_slot(P, k, in, P->ahead ? FILL_DEV : FILL_HOST | FILL_DEV));
    if (P->ahead) LW_TRY(mv->ups_end(mv->ctx, q)); /* before the overlay lays rows over them, and the transform */
    LW_TRY(mv->record(mv->ctx, EV_OVL + q, q));
    if (P->tail && P->coef_in) LW_TRY(overlay_corner(P, si, e0, m, q));
    LW_TRY(mv->record(mv->ctx, EV_UP + q, q));
    LW_TRY(mv->run(mv->ctx, sub->plan, si, so, P->scr[q], q));
    /* the core down: its rows, or each part of them band by band (held rows: when their places are read) */
    if (!P->out_bands) LW_TRY(lw_ooc_hold_down(P, k, out, z0, so, z0 - e0, z1 - z0, q));
    for (int r = 0; P->out_bands && r < P->nreg; r++)
        for (int bx = 0; bx < P->reg[r].nbox; bx++)
            for (int b = 0; b <= P->reg[r].k; b++) {
                const int L = P->reg[r].k;
                band_map x = band_of(P, b, 1, L, e0, m);
                const int64_t g0 = lw_ooc_band_count(b, L, z0), g1 = lw_ooc_band_count(b, L, z1);
                if (P->hold) { /* one region of whole rows, Mallat places on the host */
                    LW_TRY(lw_ooc_hold_down(P, k, out, x.hbase + g0, so, x.sbase + g0 - x.vb, g1 - g0, q));
                    continue;
                }
                LW_TRY(move_box(P, LW_OOC_DOWN, &P->reg[r], bx, host_side(out, x.hbase + g0 * x.hs, x.hs),
                                dev_side(so, x.sbase + g0 - x.vb), g1 - g0, q));
            }
    if (P->tail && !P->coef_in) { /* the core's lowpass corner part to ll */
        const int64_t a = (int64_t)1 << L1, ls = lw_ooc_low_stride(P);
        int64_t g0 = lw_ooc_band_count(0, (int)L1, z0), g1 = lw_ooc_band_count(0, (int)L1, z1);
        LW_TRY(lw_ooc_corner_rows(P, LW_OOC_D2D, so + (g0 - e0 / a) * ls * R, ls * R, 0, (char *)P->ll + g0 * (int64_t)P->crow,
                           g1 - g0, 1, q));
    }
    /* held rows whose host rows are read now (after the slab's own moves, not before its transform) */
    return lw_ooc_hold_release(P, k, out, q);
}

static int perm_threads(const ooc_pass *P)
{
    if (P->p->cfg.threads > 0) return P->p->cfg.threads;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* the rows of the host array between interleaved and Mallat order along
 * axis 0, each part of them by its levels: each contiguous run of a part
 * moves with its rows */
lw_status lw_ooc_permute_host(const ooc_pass *P, char *base, int to_mallat)
{
    for (int r = 0; r < P->nreg; r++)
        for (int bx = 0; bx < P->reg[r].nbox; bx++) {
            const struct region *rg = &P->reg[r];
            int64_t cnt[LW_MAX_RANK], st[LW_MAX_RANK], off0 = 0;
            for (int d = 1; d < P->rank; d++) {
                off0 += rg->lo[bx][d] * P->hs[d];
                cnt[d - 1] = rg->hi[bx][d] - rg->lo[bx][d], st[d - 1] = P->hs[d];
            }
            int n = merge_dims(P->rank - 1, cnt, st, NULL);
            size_t run = P->es;
            if (n > 0 && st[n - 1] == (int64_t)P->es) run = (size_t)cnt[--n] * P->es;
            int64_t runs = 1;
            for (int d = 0; d < n; d++) runs *= cnt[d];
            /* long runs: the threads split each; many short ones: the threads take whole runs */
            const int threads = perm_threads(P), split = runs < threads || run >= ((size_t)256 << 10);
            int bad = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad) if (!split && threads > 1) num_threads(threads)
#endif
            for (int64_t i = 0; i < runs; i++) {
                int64_t off = off0, rest = i;
                for (int d = n - 1; d >= 0; d--) off += (rest % cnt[d]) * st[d], rest /= cnt[d];
                bad |= lw_ooc_permute_rows(base + off, P->shape[0], (size_t)P->hs[0], run, rg->k, to_mallat,
                                           split ? threads : 1) != LW_OK;
            }
            if (bad) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the row buffers of the in-place reorder");
        }
    return LW_OK;
}
