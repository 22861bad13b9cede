/* The out-of-core streaming of host arrays through a device budget (ooc.h):
 * how a pass is sized, what each slab moves, and the order of the moves. */
#include "ooc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* events: a slot's input complete, a slab's copy from the slot before it
 * done, a queue's last work, the corner's levels done */
enum { EV_UP = 0, EV_OVL = LW_OOC_QUEUES, EV_END = 2 * LW_OOC_QUEUES, EV_TAIL = 3 * LW_OOC_QUEUES };

#define MAX_SUBS 8
#define SLAB_TARGET ((int64_t)64 << 20) /* bytes of core a slab aims at: a few per GiB keep the copies overlapped */

typedef struct sub_entry {
    int64_t m;
    lw_plan *plan;
    size_t scr;
} sub_entry;

/* One pass: the array it works on (axis 0 cut in slabs) and what it holds. */
typedef struct ooc_pass {
    const lw_plan *p;
    const lw_ooc_mover *mv;
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes, axes[LW_MAX_AXES];
    int t0;                 /* axis 0 is transformed (else a slab is a group of items) */
    size_t es, row;         /* bytes of an element, of an index of axis 0 (compact, on the device) */
    int64_t hs[LW_MAX_RANK]; /* the host array's byte strides (a corner or grid of a larger array: wider) */
    lw_ooc_slabs sl;
    int L;                  /* levels of the transform */
    int coef_in, mallat, inplace;
    int in_bands, out_bands; /* the slot's input / output in Mallat bands along axis 0 */
    int host_bands;         /* the host's coefficients in Mallat bands along axis 0 (else rows) */
    /* the parts of a row by the levels axis 0 went through (Mallat, see make_regions) */
    int nreg;
    struct region {
        int k;    /* levels along axis 0 */
        int nbox; /* boxes of row positions, [lo, hi) per dim (dim 0 unused) */
        int64_t lo[LW_MAX_AXES][LW_MAX_RANK], hi[LW_MAX_AXES][LW_MAX_RANK];
    } reg[LW_MAX_LEVELS];
    sub_entry sub[MAX_SUBS];
    int nsub;
    size_t scr_max;
    lw_plan *tail;          /* levels L1+1..L on the compact corner on the device, NULL: none */
    int host_cont;          /* levels L1+1..L by a pass of their own over the host's corner */
    size_t tail_scr;
    int64_t cshape[LW_MAX_RANK];
    size_t crow;            /* bytes of a corner row (an index of its axis 0) */
    int64_t N0;             /* lowpass indices along axis 0 after L1 levels */
    void *slot_in[LW_OOC_QUEUES], *slot_out[LW_OOC_QUEUES], *scr[LW_OOC_QUEUES];
    void *head, *ll, *ll2, *tscr;
    size_t slot_bytes;
} ooc_pass;

static int transformed(const ooc_pass *P, int d)
{
    for (int a = 0; a < P->naxes; a++)
        if (P->axes[a] == d) return 1;
    return 0;
}

static size_t elems_after(const int64_t *shape, int rank, int d)
{
    size_t n = 1;
    for (int i = d + 1; i < rank; i++) n *= (size_t)shape[i];
    return n;
}

/* ---- sub-plans ---------------------------------------------------------------- */

static void sub_config(const ooc_pass *P, lw_config *c, const int64_t *shape, int levels)
{
    const lw_config *pc = &P->p->cfg;
    lw_config_init(c);
    c->rank = P->rank;
    memcpy(c->shape, shape, sizeof c->shape);
    c->naxes = P->naxes;
    memcpy(c->axes, P->axes, sizeof c->axes);
    c->dtype = pc->dtype, c->wavelet = pc->wavelet, c->mode = pc->mode, c->layout = pc->layout;
    c->levels = levels, c->direction = pc->direction, c->integer = pc->integer, c->threads = pc->threads;
    c->gain[0] = pc->gain[0], c->gain[1] = pc->gain[1];
    c->scheme = strcmp(P->p->scheme, "auto") ? P->p->scheme : NULL;
}

static lw_status sub_for(ooc_pass *P, int64_t m, const sub_entry **out)
{
    for (int i = 0; i < P->nsub; i++)
        if (P->sub[i].m == m) {
            *out = &P->sub[i];
            return LW_OK;
        }
    if (P->nsub == MAX_SUBS) return lw_fail(LW_ERR_INTERNAL, "out of core: too many slab shapes");
    lw_config c;
    int64_t shape[LW_MAX_RANK];
    memcpy(shape, P->shape, sizeof shape);
    shape[0] = m;
    sub_config(P, &c, shape, P->t0 ? P->sl.L1 : P->L);
    sub_entry *e = &P->sub[P->nsub];
    e->m = m, e->plan = NULL, e->scr = 0;
    LW_TRY(P->mv->make_sub(P->mv->ctx, &c, &e->plan, &e->scr));
    P->nsub++;
    if (e->scr > P->scr_max) P->scr_max = e->scr;
    *out = e;
    return LW_OK;
}

static void drop_plans(ooc_pass *P)
{
    for (int i = 0; i < P->nsub; i++) P->mv->drop_sub(P->mv->ctx, P->sub[i].plan);
    P->nsub = 0, P->scr_max = 0;
    if (P->tail) P->mv->drop_sub(P->mv->ctx, P->tail);
    P->tail = NULL, P->tail_scr = 0;
}

/* every slab's plan; the device bytes of the pass */
static lw_status make_subs(ooc_pass *P, size_t *bytes)
{
    int64_t mmax = 0;
    for (int64_t k = 0; k < P->sl.n; k++) {
        int64_t z0, z1, e0, e1;
        lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
        const sub_entry *e;
        LW_TRY(sub_for(P, e1 - e0, &e));
        if (e1 - e0 > mmax) mmax = e1 - e0;
    }
    P->slot_bytes = (size_t)mmax * P->row;
    const size_t nq = P->sl.n < LW_OOC_QUEUES ? (size_t)P->sl.n : LW_OOC_QUEUES; /* slots in use */
    size_t b = nq * (2 * P->slot_bytes + P->scr_max);
    if (P->tail) b += 2 * (size_t)P->N0 * P->crow + P->tail_scr;
    if (P->inplace && P->sl.periodic) b += (size_t)P->sl.E * P->row;
    *bytes = b;
    return LW_OK;
}

/* ---- sizing ------------------------------------------------------------------- */

static int64_t round_down(int64_t x, int64_t a) { return x / a * a; }

/* the corner after L1 levels and (on_device) its plan of levels L1+1..L */
static lw_status make_tail(ooc_pass *P, int L1, int on_device)
{
    memcpy(P->cshape, P->shape, sizeof P->cshape);
    for (int d = 0; d < P->rank; d++)
        if (transformed(P, d)) P->cshape[d] = lw_lowpass_length(P->shape[d], L1);
    P->N0 = P->cshape[0];
    P->crow = elems_after(P->cshape, P->rank, 0) * P->es;
    if (L1 >= P->L || !on_device) return LW_OK;
    lw_config c;
    sub_config(P, &c, P->cshape, P->L - L1);
    return P->mv->make_sub(P->mv->ctx, &c, &P->tail, &P->tail_scr);
}

/* Slabs of cores of Z rows (a multiple of 2^L1): the largest Z up to the
 * target whose buffers fit the budget, halving from there; 0 when none. */
static lw_status fit_slabs(ooc_pass *P, int L1, int64_t E, int64_t cap, int *ok)
{
    const int64_t a = (int64_t)1 << L1, N = P->shape[0];
    const size_t B = P->mv->budget;
    *ok = 0;
    int64_t Z = cap;
    while (Z >= a) {
        P->sl.Z = Z, P->sl.E = E, P->sl.L1 = L1, P->sl.n = (N + Z - 1) / Z;
        for (int i = 0; i < P->nsub; i++) P->mv->drop_sub(P->mv->ctx, P->sub[i].plan);
        P->nsub = 0, P->scr_max = 0;
        size_t need = 0;
        lw_status st = make_subs(P, &need);
        if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) need = (size_t)-1, lw_clear_error();
        else if (st != LW_OK) return st;
        if (need <= B) {
            *ok = 1;
            return LW_OK;
        }
        Z = round_down(Z / 2, a);
    }
    return LW_OK;
}

/* The parts of a row by the levels axis 0 went through, in the Mallat layout:
 * level j transforms only the corner the levels before it left on every
 * transformed axis, so with other transformed axes the positions outside the
 * level-k corner (inside the level-(k-1) one) saw k levels along axis 0 and
 * hold k levels of bands there.  Region k < L1: that difference of two
 * corners, as one box per transformed axis of the row; region L1: the
 * level-(L1-1) corner.  One region of L1 levels when axis 0 is the only
 * transformed axis. */
static void make_regions(ooc_pass *P)
{
    const int L1 = P->sl.L1;
    int td[LW_MAX_AXES], nt = 0;
    for (int d = 1; d < P->rank; d++)
        if (transformed(P, d)) td[nt++] = d;
    P->nreg = 0;
    for (int k = nt ? 1 : L1; k <= L1; k++) {
        struct region *rg = &P->reg[P->nreg++];
        rg->k = k, rg->nbox = 0;
        const int boxes = k == L1 ? 1 : nt;
        for (int i = 0; i < boxes; i++) {
            int empty = 0;
            for (int d = 1; d < P->rank; d++) {
                int64_t lo = 0, hi = P->shape[d];
                int j = 0;
                while (j < nt && td[j] != d) j++;
                if (j < nt) {
                    const int64_t prev = lw_lowpass_length(P->shape[d], k - 1), cur = lw_lowpass_length(P->shape[d], k);
                    if (k == L1) hi = prev;
                    else if (j < i) hi = cur;
                    else if (j == i) lo = cur, hi = prev;
                    else hi = prev;
                }
                rg->lo[rg->nbox][d] = lo, rg->hi[rg->nbox][d] = hi;
                empty |= hi <= lo;
            }
            if (!empty) rg->nbox++;
        }
    }
}

/* The levels of one pass, the corner's place, the slabs.  Levels past the
 * pass run on the compact corner on the device where it fits beside the
 * slabs, else by a pass of their own over the host's corner.  Preferred: the
 * most levels per pass, with the slabs' compute within 16x their core. */
static lw_status plan_slabs(ooc_pass *P)
{
    const int64_t N = P->shape[0];
    const size_t R = P->row;
    int lcap = 0; /* levels that split axis 0 (ceil(N / 2^(j-1)) >= 2 for j <= L1) */
    while (lcap < P->L && N > ((int64_t)1 << lcap)) lcap++;
    for (int relax = 0; relax < 2; relax++)
        for (int L1 = lcap; L1 >= 1; L1--)
            for (int host_cont = 0; host_cont < 2; host_cont++) {
                const int64_t a = (int64_t)1 << L1, E = lw_ooc_halo(P->p->wav->halo, L1);
                if ((P->sl.periodic && E >= N) || (host_cont && L1 == P->L)) continue;
                drop_plans(P);
                P->host_cont = host_cont;
                lw_status st = make_tail(P, L1, !host_cont);
                if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) {
                    lw_clear_error();
                    continue;
                }
                LW_TRY(st);
                int64_t cap = SLAB_TARGET / (int64_t)R, eighth = (N + 7) / 8;
                if (cap > eighth) cap = eighth;
                cap = round_down(cap + a - 1, a);
                if (cap < a) cap = a;
                if (!relax && cap * 8 < E) cap = round_down(E / 8 + a - 1, a) + a;
                int ok = 0;
                LW_TRY(fit_slabs(P, L1, E, cap, &ok));
                if (ok && (relax || P->sl.Z * 8 >= E)) {
                    make_regions(P);
                    return LW_OK;
                }
            }
    drop_plans(P);
    return lw_fail(LW_ERR_DEVICE_OUT_OF_MEMORY,
                   "out of core: a device budget of %zu bytes is too small for slabs of rows of %zu bytes with "
                   "their halos (raise device_memory_limit)", P->mv->budget, R);
}

/* ---- copies ------------------------------------------------------------------- */

/* An n-D strided copy (counts, byte strides of each side, outer first) as
 * boxes: dims of one element dropped, dims that follow each other merged,
 * a contiguous innermost dim made the box's row, two more its rows and
 * planes, the rest looped. */
static lw_status copy_nd(const ooc_pass *P, int kind, char *dst, const char *src, int nd, const int64_t *cnt0,
                         const int64_t *ds0, const int64_t *ss0, int q)
{
    int64_t cnt[LW_MAX_RANK + 1], ds[LW_MAX_RANK + 1], ss[LW_MAX_RANK + 1];
    int n = 0;
    for (int d = 0; d < nd; d++) {
        if (cnt0[d] <= 0) return LW_OK;
        if (cnt0[d] == 1) continue;
        cnt[n] = cnt0[d], ds[n] = ds0[d], ss[n] = ss0[d], n++;
    }
    for (int i = n - 1; i >= 1; i--)
        if (ds[i - 1] == cnt[i] * ds[i] && ss[i - 1] == cnt[i] * ss[i]) {
            cnt[i - 1] *= cnt[i], ds[i - 1] = ds[i], ss[i - 1] = ss[i];
            for (int j = i; j < n - 1; j++) cnt[j] = cnt[j + 1], ds[j] = ds[j + 1], ss[j] = ss[j + 1];
            n--;
        }
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
        LW_TRY(P->mv->copy(P->mv->ctx, kind, dst + od, src + os, &b, q));
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == cnt[d]) idx[d--] = 0;
        if (d < 0) break;
    }
    return LW_OK;
}

/* the byte strides of the compact layout of shape */
static void compact_strides(const ooc_pass *P, const int64_t *shape, int64_t *st)
{
    for (int d = 0; d < P->rank; d++) st[d] = (int64_t)(elems_after(shape, P->rank, d) * P->es);
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
static lw_status move_rows(const ooc_pass *P, int kind, char *host, int64_t h0, int64_t hs, char *dev, int64_t d0,
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
static lw_status corner_rows(const ooc_pass *P, int kind, char *full, int64_t fstride, int on_host, char *comp,
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
        if (!P->mallat && transformed(P, d)) fs[d] *= a;
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

/* Fill a band of slot k's input (the part of its rows in box `box` of region
 * rg; NULL: whole rows): what slot k-1 holds from there, the rest from the
 * host (the rows past the end wrap: from the head in place). */
static lw_status fill_band(const ooc_pass *P, const struct region *rg, int box, const band_map *x,
                           const band_map *prev, char *slot, const char *pslot, const char *host, int q)
{
    int64_t g = x->vb, end = x->vb + x->cnt;
    if (prev) {
        int64_t c = prev->vb + prev->cnt < end ? prev->vb + prev->cnt : end;
        if (c > g) {
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
        else to = end, w = g - x->Nb, from_head = P->inplace;
        const side dst = dev_side(slot, x->sbase + g - x->vb);
        if (from_head) { /* the head holds host rows [0, E), compact */
            side h = {P->head, 0, x->hbase + w * x->hs, x->hs};
            LW_TRY(move_box(P, LW_OOC_D2D, rg, box, dst, h, to - g, q));
        } else {
            LW_TRY(move_box(P, LW_OOC_UP, rg, box, dst, host_side((char *)host, x->hbase + w * x->hs, x->hs), to - g,
                            q));
        }
        g = to;
    }
    return LW_OK;
}

/* the level-L1 lowpass rows of a slot: local index i at slot row i * lstride */
static int64_t low_stride(const ooc_pass *P) { return P->mallat ? 1 : (int64_t)1 << P->sl.L1; }

/* the corner's levels L..L1+1 (done, in ll2) over the slot's lowpass rows */
static lw_status overlay_corner(const ooc_pass *P, char *slot, int64_t e0, int64_t m, int q)
{
    const int64_t a = (int64_t)1 << P->sl.L1, ls = low_stride(P), R = (int64_t)P->row;
    int64_t g = e0 / a, end = g + lw_ooc_band_count(0, P->sl.L1, m), i = 0;
    while (g < end) {
        int64_t to = g < 0 ? (end < 0 ? end : 0) : g < P->N0 ? (end < P->N0 ? end : P->N0) : end;
        int64_t w = g < 0 ? g + P->N0 : g < P->N0 ? g : g - P->N0;
        LW_TRY(corner_rows(P, LW_OOC_D2D, slot + i * ls * R, ls * R, 0, (char *)P->ll2 + w * (int64_t)P->crow, to - g,
                           0, q));
        i += to - g, g = to;
    }
    return LW_OK;
}

static lw_status run_slab(ooc_pass *P, int64_t k, const char *in, char *out)
{
    const lw_ooc_mover *mv = P->mv;
    const int q = (int)(k % LW_OOC_QUEUES), pq = (int)((k + LW_OOC_QUEUES - 1) % LW_OOC_QUEUES);
    const int64_t R = (int64_t)P->row, L1 = P->sl.L1;
    int64_t z0, z1, e0, e1, pz0, pz1, pe0 = 0, pe1 = 1;
    lw_ooc_slab_at(&P->sl, k, &z0, &z1, &e0, &e1);
    if (k > 0) lw_ooc_slab_at(&P->sl, k - 1, &pz0, &pz1, &pe0, &pe1);
    const int64_t m = e1 - e0;
    const sub_entry *sub = NULL;
    LW_TRY(sub_for(P, m, &sub));
    char *si = P->slot_in[q], *so = P->slot_out[q];
    /* slot q last served slab k-3, which slab k-2 copied its shared rows from */
    if (k >= LW_OOC_QUEUES) LW_TRY(mv->wait(mv->ctx, EV_OVL + (int)((k - 2) % LW_OOC_QUEUES), q));
    if (k > 0) LW_TRY(mv->wait(mv->ctx, EV_UP + pq, q));
    if (!P->in_bands) {
        band_map x = band_of(P, 0, 0, 0, e0, m), px = band_of(P, 0, 0, 0, pe0, pe1 - pe0);
        LW_TRY(fill_band(P, NULL, 0, &x, k > 0 ? &px : NULL, si, P->slot_in[pq], in, q));
    }
    for (int r = 0; P->in_bands && r < P->nreg; r++) /* each part of the rows by its bands */
        for (int bx = 0; bx < P->reg[r].nbox; bx++)
            for (int b = 0; b <= P->reg[r].k; b++) {
                band_map x = band_of(P, b, 1, P->reg[r].k, e0, m), px = band_of(P, b, 1, P->reg[r].k, pe0, pe1 - pe0);
                LW_TRY(fill_band(P, &P->reg[r], bx, &x, k > 0 ? &px : NULL, si, P->slot_in[pq], in, q));
            }
    LW_TRY(mv->record(mv->ctx, EV_OVL + q, q));
    if (P->tail && P->coef_in) LW_TRY(overlay_corner(P, si, e0, m, q));
    LW_TRY(mv->record(mv->ctx, EV_UP + q, q));
    LW_TRY(mv->run(mv->ctx, sub->plan, si, so, P->scr[q], q));
    /* the core down: its rows, or each part of them band by band */
    if (!P->out_bands) LW_TRY(move_rows(P, LW_OOC_DOWN, out, z0, 1, so, z0 - e0, z1 - z0, q));
    for (int r = 0; P->out_bands && r < P->nreg; r++)
        for (int bx = 0; bx < P->reg[r].nbox; bx++)
            for (int b = 0; b <= P->reg[r].k; b++) {
                const int L = P->reg[r].k;
                band_map x = band_of(P, b, 1, L, e0, m);
                const int64_t g0 = lw_ooc_band_count(b, L, z0), g1 = lw_ooc_band_count(b, L, z1);
                LW_TRY(move_box(P, LW_OOC_DOWN, &P->reg[r], bx, host_side(out, x.hbase + g0 * x.hs, x.hs),
                                dev_side(so, x.sbase + g0 - x.vb), g1 - g0, q));
            }
    if (P->tail && !P->coef_in) { /* the core's lowpass corner part to ll */
        const int64_t a = (int64_t)1 << L1, ls = low_stride(P);
        int64_t g0 = lw_ooc_band_count(0, (int)L1, z0), g1 = lw_ooc_band_count(0, (int)L1, z1);
        LW_TRY(corner_rows(P, LW_OOC_D2D, so + (g0 - e0 / a) * ls * R, ls * R, 0, (char *)P->ll + g0 * (int64_t)P->crow,
                           g1 - g0, 1, q));
    }
    return LW_OK;
}

/* ---- one pass ---------------------------------------------------------------- */

static lw_status alloc_pass(ooc_pass *P)
{
    const lw_ooc_mover *mv = P->mv;
    for (int q = 0; q < LW_OOC_QUEUES && q < P->sl.n; q++) {
        LW_TRY(mv->alloc(mv->ctx, &P->slot_in[q], P->slot_bytes, "a slab's input"));
        LW_TRY(mv->alloc(mv->ctx, &P->slot_out[q], P->slot_bytes, "a slab's output"));
        LW_TRY(mv->alloc(mv->ctx, &P->scr[q], P->scr_max, "a slab's scratch"));
    }
    if (P->tail) {
        LW_TRY(mv->alloc(mv->ctx, &P->ll, (size_t)P->N0 * P->crow, "the lowpass corner"));
        LW_TRY(mv->alloc(mv->ctx, &P->ll2, (size_t)P->N0 * P->crow, "the lowpass corner"));
        LW_TRY(mv->alloc(mv->ctx, &P->tscr, P->tail_scr, "the corner's scratch"));
    }
    if (P->inplace && P->sl.periodic) LW_TRY(mv->alloc(mv->ctx, &P->head, (size_t)P->sl.E * P->row, "the first rows"));
    return LW_OK;
}

static void free_buffers(ooc_pass *P)
{
    const lw_ooc_mover *mv = P->mv;
    for (int q = 0; q < LW_OOC_QUEUES; q++) {
        mv->release(mv->ctx, P->slot_in[q]), mv->release(mv->ctx, P->slot_out[q]), mv->release(mv->ctx, P->scr[q]);
        P->slot_in[q] = P->slot_out[q] = P->scr[q] = NULL;
    }
    mv->release(mv->ctx, P->ll), mv->release(mv->ctx, P->ll2), mv->release(mv->ctx, P->tscr);
    mv->release(mv->ctx, P->head);
    P->ll = P->ll2 = P->tscr = P->head = NULL;
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
static lw_status permute_host(const ooc_pass *P, char *base, int to_mallat)
{
    for (int r = 0; r < P->nreg; r++)
        for (int bx = 0; bx < P->reg[r].nbox; bx++) {
            const struct region *rg = &P->reg[r];
            int64_t cnt[LW_MAX_RANK], st[LW_MAX_RANK], off0 = 0;
            int n = 0;
            for (int d = 1; d < P->rank; d++) {
                off0 += rg->lo[bx][d] * P->hs[d];
                if (rg->hi[bx][d] - rg->lo[bx][d] > 1) cnt[n] = rg->hi[bx][d] - rg->lo[bx][d], st[n] = P->hs[d], n++;
            }
            for (int i = n - 1; i >= 1; i--)
                if (st[i - 1] == cnt[i] * st[i]) {
                    cnt[i - 1] *= cnt[i], st[i - 1] = st[i];
                    for (int j = i; j < n - 1; j++) cnt[j] = cnt[j + 1], st[j] = st[j + 1];
                    n--;
                }
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

/* The slabs, with the levels on the device's corner (first for coefficients
 * in, last for coefficients out) and the permutation of rows in place. */
static lw_status run_slabs(ooc_pass *P, const char *in, char *out)
{
    const lw_ooc_mover *mv = P->mv;
    const int reorder = P->inplace && P->mallat && P->t0;
    const int64_t ls = low_stride(P);
    if (P->tail && P->coef_in) { /* the corner up before the rows move, its levels while they do */
        LW_TRY(corner_rows(P, LW_OOC_UP, (char *)in, ls * P->hs[0], 1, P->ll, P->N0, 1, 0));
        LW_TRY(mv->run(mv->ctx, P->tail, P->ll, P->ll2, P->tscr, 0));
        if (reorder) LW_TRY(mv->finish(mv->ctx));
    }
    if (reorder && P->coef_in) LW_TRY(permute_host(P, out, 0));
    if (P->head) LW_TRY(move_rows(P, LW_OOC_UP, (char *)in, 0, 1, P->head, 0, P->sl.E, 0));
    if (P->head || (P->tail && P->coef_in)) {
        LW_TRY(mv->record(mv->ctx, EV_TAIL, 0));
        for (int q = 1; q < LW_OOC_QUEUES; q++) LW_TRY(mv->wait(mv->ctx, EV_TAIL, q));
    }
    for (int64_t k = 0; k < P->sl.n; k++) LW_TRY(run_slab(P, k, in, out));
    if (P->tail && !P->coef_in) { /* the corner's levels once every slab has written its part */
        for (int q = 1; q < LW_OOC_QUEUES; q++) {
            LW_TRY(mv->record(mv->ctx, EV_END + q, q));
            LW_TRY(mv->wait(mv->ctx, EV_END + q, 0));
        }
        LW_TRY(mv->run(mv->ctx, P->tail, P->ll, P->ll2, P->tscr, 0));
    }
    LW_TRY(mv->finish(mv->ctx));
    if (reorder && !P->coef_in) LW_TRY(permute_host(P, out, 1));
    if (P->tail && !P->coef_in) {
        LW_TRY(corner_rows(P, LW_OOC_DOWN, out, ls * P->hs[0], 1, P->ll2, P->N0, 0, 0));
        LW_TRY(mv->finish(mv->ctx));
    }
    return LW_OK;
}

static lw_status run_pass(ooc_pass *P, const char *in, char *out)
{
    lw_status st = alloc_pass(P);
    if (st == LW_OK) st = run_slabs(P, in, out);
    if (st != LW_OK) P->mv->finish(P->mv->ctx); /* nothing left in flight on the buffers */
    free_buffers(P);
    return st;
}

/* ---- arrays ------------------------------------------------------------------- */

/* An array on the host: shape, transformed axes, levels, byte strides. */
typedef struct ooc_array {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes, axes[LW_MAX_AXES];
    int L;
    int64_t hs[LW_MAX_RANK];
} ooc_array;

static void pass_init(ooc_pass *P, const lw_plan *p, const lw_ooc_mover *mv, const ooc_array *A, int inplace)
{
    memset(P, 0, sizeof *P);
    P->p = p, P->mv = mv;
    P->es = lw_dtype_size(p->cfg.dtype);
    P->L = A->L;
    P->coef_in = lw_dir_coarse_first(p->cfg.direction);
    P->mallat = p->cfg.layout == LW_MALLAT;
    P->inplace = inplace;
    P->rank = A->rank;
    memcpy(P->shape, A->shape, sizeof P->shape);
    memcpy(P->hs, A->hs, sizeof P->hs);
    P->naxes = A->naxes;
    memcpy(P->axes, A->axes, sizeof P->axes);
    P->t0 = transformed(P, 0);
    P->row = elems_after(P->shape, P->rank, 0) * P->es;
    P->sl.N = P->shape[0];
    P->sl.periodic = P->t0 && p->cfg.mode == LW_PERIODIC;
    P->in_bands = P->t0 && P->mallat && P->coef_in;
    P->out_bands = P->t0 && P->mallat && !P->coef_in;
    P->host_bands = P->t0 && P->mallat && !inplace;
}

static void copy_host(char *dst, const char *src, size_t n)
{
    const size_t piece = (size_t)16 << 20;
    const int64_t parts = (int64_t)((n + piece - 1) / piece);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int64_t i = 0; i < parts; i++) {
        size_t o = (size_t)i * piece;
        memcpy(dst + o, src + o, n - o < piece ? n - o : piece);
    }
}

/* An array whose axis 0 is transformed: a pass of slabs, and a pass over
 * the corner for the levels the first one leaves to the host. */
static lw_status run_array(const lw_plan *p, const lw_ooc_mover *mv, const ooc_array *A, const char *in, char *out)
{
    ooc_pass P;
    { /* an array that fits the budget whole (a last corner, a short axis 0) is one slab without halo:
       * the transform itself, in any mode */
        pass_init(&P, p, mv, A, in == out);
        P.t0 = P.in_bands = P.out_bands = P.host_bands = P.sl.periodic = 0;
        P.sl.Z = A->shape[0], P.sl.E = 0, P.sl.L1 = 0, P.sl.n = 1;
        size_t need = 0;
        lw_status sg = make_subs(&P, &need);
        if (sg == LW_ERR_DEVICE_OUT_OF_MEMORY) sg = LW_OK, need = (size_t)-1, lw_clear_error();
        if (sg == LW_OK && need <= mv->budget) {
            sg = run_pass(&P, in, out);
            drop_plans(&P);
            return sg;
        }
        drop_plans(&P);
        LW_TRY(sg);
    }
    pass_init(&P, p, mv, A, in == out);
    lw_status st = plan_slabs(&P);
    if (st == LW_OK && P.host_cont && P.coef_in && in != out) {
        /* the corner's levels must come first, in place: on a copy of the input */
        size_t bytes = (size_t)A->shape[0] * (size_t)A->hs[0];
        drop_plans(&P);
        copy_host(out, in, bytes);
        in = out;
        pass_init(&P, p, mv, A, 1);
        st = plan_slabs(&P);
    }
    ooc_array C;
    if (st == LW_OK && P.host_cont) {
        C = *A;
        memcpy(C.shape, P.cshape, sizeof C.shape);
        C.L = A->L - P.sl.L1;
        for (int d = 0; d < A->rank; d++)
            if (!P.mallat && transformed(&P, d)) C.hs[d] *= (int64_t)1 << P.sl.L1;
    }
    if (st == LW_OK && P.host_cont && P.coef_in) st = run_array(p, mv, &C, out, out);
    if (st == LW_OK) st = run_pass(&P, in, out);
    if (st == LW_OK && P.host_cont && !P.coef_in) st = run_array(p, mv, &C, out, out);
    drop_plans(&P);
    return st;
}

/* The array of the plan, from axis `from` on (the axes before flattened into
 * axis 0 when `flatten`). */
static void array_of(const lw_plan *p, int from, int flatten, ooc_array *A)
{
    const lw_geometry *g = &p->geo;
    memset(A, 0, sizeof *A);
    int r = 0;
    if (flatten) {
        int64_t outer = 1;
        for (int d = 0; d < from; d++) outer *= g->shape[d];
        A->shape[r++] = outer;
    }
    for (int d = from; d < g->rank; d++) A->shape[r++] = g->shape[d];
    A->rank = r;
    const int shift = flatten ? 1 - from : -from;
    A->naxes = g->naxes;
    for (int a = 0; a < g->naxes; a++) A->axes[a] = g->axes[a] + shift;
    A->L = g->levels;
    const size_t es = lw_dtype_size(p->cfg.dtype);
    for (int d = 0; d < r; d++) A->hs[d] = (int64_t)(elems_after(A->shape, r, d) * es);
}

/* groups of whole items when axis 0 is a batch axis and one fits (planned
 * in P, *groups 1), else each item's array in A (*items of them) */
static lw_status plan_top(ooc_pass *P, const lw_plan *p, const lw_ooc_mover *mv, int inplace, ooc_array *A,
                          int64_t *items, int *groups)
{
    const int from = p->geo.axes[0];
    *items = 1, *groups = 0;
    if (from > 0) {
        array_of(p, from, 1, A);
        pass_init(P, p, mv, A, inplace);
        const int64_t N = P->shape[0];
        int64_t cap = SLAB_TARGET / (int64_t)P->row, eighth = (N + 7) / 8;
        if (cap > eighth) cap = eighth;
        if (cap < 1) cap = 1;
        int ok = 0;
        LW_TRY(fit_slabs(P, 0, 0, cap, &ok));
        if (ok) {
            *groups = 1;
            return LW_OK;
        }
        drop_plans(P);
        for (int d = 0; d < from; d++) *items *= p->geo.shape[d];
    }
    array_of(p, from, 0, A);
    return LW_OK;
}

lw_status lw_ooc_execute(const lw_plan *p, const lw_ooc_mover *m, const void *in, void *out)
{
    if (p->geo.levels == 0 || p->geo.naxes == 0) return lw_fail(LW_ERR_INTERNAL, "out of core: nothing to transform");
    ooc_pass P;
    ooc_array A;
    int64_t items = 1;
    int groups = 0;
    LW_TRY(plan_top(&P, p, m, in == out, &A, &items, &groups));
    if (groups) {
        lw_status st = run_pass(&P, in, out);
        drop_plans(&P);
        return st;
    }
    const size_t item = (size_t)A.shape[0] * (size_t)A.hs[0];
    for (int64_t i = 0; i < items; i++)
        LW_TRY(run_array(p, m, &A, (const char *)in + (size_t)i * item, (char *)out + (size_t)i * item));
    return LW_OK;
}

lw_status lw_ooc_describe(const lw_plan *p, const lw_ooc_mover *m, char *buf, size_t len)
{
    ooc_pass P;
    ooc_array A;
    int64_t items = 1;
    int groups = 0;
    LW_TRY(plan_top(&P, p, m, 0, &A, &items, &groups));
    if (!groups) {
        pass_init(&P, p, m, &A, 0);
        LW_TRY(plan_slabs(&P));
    }
    size_t used = strlen(buf), need = 0;
    lw_status st = make_subs(&P, &need);
    if (st == LW_OK && used < len) {
        if (!groups)
            snprintf(buf + used, len - used,
                     "out of core: %lld item(s), each %lld slabs of %lld rows (halo %lld, %d level(s) per pass%s), "
                     "%zu device bytes\n",
                     (long long)items, (long long)P.sl.n, (long long)P.sl.Z, (long long)P.sl.E, P.sl.L1,
                     P.tail ? ", the rest on the lowpass corner on the device"
                            : P.host_cont ? ", the rest by passes over the lowpass corner" : "",
                     need);
        else
            snprintf(buf + used, len - used, "out of core: %lld groups of %lld items, %zu device bytes\n",
                     (long long)P.sl.n, (long long)P.sl.Z, need);
    }
    drop_plans(&P);
    return st;
}
