/* The out-of-core streaming of host arrays through a device budget (ooc.h):
 * the sub-plans, how a pass is sized, the order of a pass's work, and the
 * arrays (items, corners) it is run on.  What one slab moves: ooc_slab.c. */
#include "ooc_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

lw_status lw_ooc_sub_for(ooc_pass *P, int64_t m, const sub_entry **out)
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

static void drop_subs(ooc_pass *P)
{
    for (int i = 0; i < P->nsub; i++) P->mv->drop_sub(P->mv->ctx, P->sub[i].plan);
    P->nsub = 0, P->scr_max = 0;
}

static void drop_plans(ooc_pass *P)
{
    drop_subs(P);
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
        LW_TRY(lw_ooc_sub_for(P, e1 - e0, &e));
        if (e1 - e0 > mmax) mmax = e1 - e0;
    }
    P->slot_bytes = (size_t)mmax * P->row;
    const size_t nq = P->sl.n < LW_OOC_QUEUES ? (size_t)P->sl.n : LW_OOC_QUEUES; /* slots in use */
    size_t b = nq * (2 * P->slot_bytes + P->scr_max);
    if (P->tail) b += 2 * (size_t)P->N0 * P->crow + P->tail_scr;
    if (P->sl.periodic && (P->inplace || (P->stash_ok && P->host_cont))) b += (size_t)P->sl.E * P->row; /* the head */
    LW_TRY(lw_ooc_hold_size(P));
    b += (size_t)(P->cells * P->cell_rows) * P->row;
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
        if (lw_ooc_transformed(P, d)) P->cshape[d] = lw_lowpass_length(P->shape[d], L1);
    P->N0 = P->cshape[0];
    P->crow = lw_ooc_elems_after(P->cshape, P->rank, 0) * P->es;
    if (L1 >= P->L || !on_device) return LW_OK;
    lw_config c;
    sub_config(P, &c, P->cshape, P->L - L1);
    return P->mv->make_sub(P->mv->ctx, &c, &P->tail, &P->tail_scr);
}

/* The core rows a slab aims at: SLAB_TARGET bytes, at most an eighth of
 * the rows (the copies of several slabs overlap), a multiple of a. */
static int64_t slab_cap(const ooc_pass *P, int64_t a)
{
    const int64_t target = P->p->tune.ooc_slab_mb ? P->p->tune.ooc_slab_mb << 20 : SLAB_TARGET;
    int64_t cap = target / (int64_t)P->row, eighth = (P->shape[0] + 7) / 8;
    if (cap > eighth) cap = eighth;
    cap = round_down(cap + a - 1, a);
    return cap < a ? a : cap;
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
        drop_subs(P);
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

/* Boxes of row positions (dims 1.. of a row; dim 0 unused) between the
 * corners the levels leave on the other transformed axes (Mallat: level j
 * transforms only the corner the levels before it left).  corner_box: the
 * level-k corner, one box (the whole row for k = 0); corner_ring: the
 * level-(k-1) corner less the level-k one, one box per transformed axis of
 * the row (none empty; no box when axis 0 is the only transformed axis). */
static int row_axes(const ooc_pass *P, int *td)
{
    int nt = 0;
    for (int d = 1; d < P->rank; d++)
        if (lw_ooc_transformed(P, d)) td[nt++] = d;
    return nt;
}

static void corner_box(const ooc_pass *P, int k, struct region *rg)
{
    rg->nbox = 1;
    for (int d = 1; d < P->rank; d++) {
        rg->lo[0][d] = 0;
        rg->hi[0][d] = lw_ooc_transformed(P, d) ? lw_lowpass_length(P->shape[d], k) : P->shape[d];
    }
}

static void corner_ring(const ooc_pass *P, int k, struct region *rg)
{
    int td[LW_MAX_AXES];
    const int nt = row_axes(P, td);
    rg->nbox = 0;
    for (int i = 0; i < nt; i++) {
        int empty = 0;
        for (int d = 1; d < P->rank; d++) {
            int64_t lo = 0, hi = P->shape[d];
            int j = 0;
            while (j < nt && td[j] != d) j++;
            if (j < nt) {
                const int64_t prev = lw_lowpass_length(P->shape[d], k - 1), cur = lw_lowpass_length(P->shape[d], k);
                if (j < i) hi = cur;
                else if (j == i) lo = cur, hi = prev;
                else hi = prev;
            }
            rg->lo[rg->nbox][d] = lo, rg->hi[rg->nbox][d] = hi;
            empty |= hi <= lo;
        }
        if (!empty) rg->nbox++;
    }
}

/* The parts of a row by the levels axis 0 went through, in the Mallat layout:
 * with other transformed axes the positions outside the level-k corner
 * (inside the level-(k-1) one) saw k levels along axis 0 and hold k levels of
 * bands there.  Region k < L1: that ring (corner_ring); region L1: the
 * level-(L1-1) corner.  One region of L1 levels when axis 0 is the only
 * transformed axis.  With a stash, also the level-L1 corner and its ring
 * inside region L1, which the slabs fill from the stash and the input. */
static void make_regions(ooc_pass *P)
{
    const int L1 = P->sl.L1;
    int td[LW_MAX_AXES];
    const int nt = row_axes(P, td);
    P->nreg = 0;
    for (int k = nt ? 1 : L1; k <= L1; k++) {
        struct region *rg = &P->reg[P->nreg++];
        rg->k = k;
        if (k == L1) corner_box(P, k - 1, rg);
        else corner_ring(P, k, rg);
    }
    corner_box(P, L1, &P->st_corner);
    corner_ring(P, L1, &P->st_ring);
    P->st_corner.k = P->st_ring.k = L1;
}

/* The fixed costs of the moves, in bytes of PCIe traffic, fitted to the
 * 16 GiB 2-D transforms of 1 to 5 levels on an H100 (bench/NOTES-outofcore.md):
 * a copy, a row segment of a strided copy (the narrow parts of rows that
 * the bands of deep levels come in), and a pass over the host's corner per
 * byte of the corner (its rows strided, its own slabs). */
#define COPY_BYTES (64.0 * 1024)
#define SEGMENT_BYTES (8.0 * 1024)
#define HOST_CORNER_FACTOR 6.0

/* What a planned pass costs, in bytes each way: the array once; each copy;
 * each row segment (a slab moves whole rows one way and, Mallat along axis
 * 0, each band of each part of its rows the other way); the corner's moves
 * that overlap nothing (on the device: up before the slabs or down after
 * them) or its passes over the host (out of place with the coefficients
 * first, also a copy of the input and an in-place pass on it). */
static double pass_cost(const ooc_pass *P)
{
    const double array = (double)P->shape[0] * (double)P->row, corner = (double)P->N0 * (double)P->crow;
    int nt = 0;
    for (int d = 1; d < P->rank; d++) nt += lw_ooc_transformed(P, d);
    const int L1 = P->sl.L1;
    double copies = 2, boxes = 1; /* per slab; boxes: parts of a row, each its own segment */
    if (P->mallat) {
        copies = 1 + L1 + 1; /* whole rows one way; the region of L1 levels, its bands, the other */
        for (int k = nt ? 1 : L1; k < L1; k++) copies += (double)nt * (k + 1), boxes += nt;
    }
    double c = array + (double)P->sl.n * copies * COPY_BYTES + (double)P->shape[0] * boxes * SEGMENT_BYTES;
    if (P->tail) c += corner;
    else if (P->host_cont)
        c += HOST_CORNER_FACTOR * corner + (P->coef_in && !P->inplace && !P->stash_ok ? 4 * array : 0);
    return c;
}

/* Candidate (L1, host_cont) of a pass: its corner's place and its slabs;
 * *ok when the slabs fit (with relax 0: their compute within 16x their
 * core). */
static lw_status try_pass(ooc_pass *P, int L1, int host_cont, int relax, int *ok)
{
    const int64_t a = (int64_t)1 << L1, E = lw_ooc_halo(P->p->wav->halo, lw_ooc_halo_slack(&P->p->cfg), L1);
    *ok = 0;
    if ((P->sl.periodic && E >= P->shape[0]) || (host_cont && L1 == P->L)) return LW_OK;
    drop_plans(P);
    P->host_cont = host_cont;
    lw_status st = make_tail(P, L1, !host_cont);
    if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) {
        lw_clear_error();
        return LW_OK;
    }
    LW_TRY(st);
    int64_t cap = slab_cap(P, a);
    if (!relax && cap * 8 < E) cap = round_down(E / 8 + a - 1, a) + a;
    int fit = 0;
    LW_TRY(fit_slabs(P, L1, E, cap, &fit));
    *ok = fit && (relax || P->sl.Z * 8 >= E);
    return LW_OK;
}

/* The levels of one pass, the corner's place, the slabs: of the candidates
 * that fit (levels along axis 0 per pass; the levels past them on the
 * compact corner on the device where it fits beside the slabs, else by a
 * pass of their own over the host's corner), the one of least pass_cost. */
static lw_status plan_slabs(ooc_pass *P)
{
    const int64_t N = P->shape[0];
    const size_t R = P->row;
    int lcap = 0; /* levels that split axis 0 (ceil(N / 2^(j-1)) >= 2 for j <= L1) */
    while (lcap < P->L && N > ((int64_t)1 << lcap)) lcap++;
    if (P->p->tune.ooc_pass_levels && lcap > P->p->tune.ooc_pass_levels) lcap = (int)P->p->tune.ooc_pass_levels;
    if (P->hold && lcap > 1) lcap = 1; /* held rows: one level along axis 0 per pass */
    for (int relax = 0; relax < 2; relax++) {
        int best_l = 0, best_h = 0, ok = 0;
        double best = 0;
        for (int L1 = lcap; L1 >= 1; L1--)
            for (int host_cont = 0; host_cont < 2; host_cont++) {
                LW_TRY(try_pass(P, L1, host_cont, relax, &ok));
                const double c = ok ? pass_cost(P) : 0;
                if (ok && (!best_l || c < best)) best = c, best_l = L1, best_h = host_cont;
            }
        if (best_l) {
            LW_TRY(try_pass(P, best_l, best_h, relax, &ok));
            if (!ok) return lw_fail(LW_ERR_INTERNAL, "out of core: the chosen pass no longer fits");
            make_regions(P);
            return LW_OK;
        }
    }
    drop_plans(P);
    return lw_fail(LW_ERR_DEVICE_OUT_OF_MEMORY,
                   "out of core: a device budget of %zu bytes is too small for slabs of rows of %zu bytes with "
                   "their halos (raise device_memory_limit)", P->mv->budget, R);
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
    if ((P->inplace || P->stash) && P->sl.periodic)
        LW_TRY(mv->alloc(mv->ctx, &P->head, (size_t)P->sl.E * P->row, "the first rows"));
    if (P->cells) {
        LW_TRY(mv->alloc(mv->ctx, &P->hbuf, (size_t)(P->cells * P->cell_rows) * P->row, "the held rows"));
        P->held = calloc((size_t)P->cells, sizeof *P->held);
        if (!P->held) return lw_fail(LW_ERR_OUT_OF_MEMORY, "out of core: cannot allocate the list of held rows");
    }
    lw_ooc_hold_reset(P);
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
    mv->release(mv->ctx, P->head), mv->release(mv->ctx, P->hbuf);
    free(P->held);
    P->ll = P->ll2 = P->tscr = P->head = P->hbuf = NULL;
    P->held = NULL;
}

/* The slabs, with the levels on the device's corner (first for coefficients
 * in, last for coefficients out) and the permutation of rows in place. */
static lw_status run_slabs(ooc_pass *P, const char *in, char *out)
{
    const lw_ooc_mover *mv = P->mv;
    const int reorder = P->inplace && P->mallat && P->t0 && !P->hold;
    const int64_t ls = lw_ooc_low_stride(P);
    if (P->tail && P->coef_in) { /* the corner up before the rows move, its levels while they do */
        LW_TRY(lw_ooc_corner_rows(P, LW_OOC_UP, (char *)in, ls * P->hs[0], 1, P->ll, P->N0, 1, 0));
        LW_TRY(mv->run(mv->ctx, P->tail, P->ll, P->ll2, P->tscr, 0));
        if (reorder) LW_TRY(mv->finish(mv->ctx));
    }
    if (reorder && P->coef_in) LW_TRY(lw_ooc_permute_host(P, out, 0));
    if (P->head && P->stash) LW_TRY(lw_ooc_stash_head(P, 0));
    else if (P->head) LW_TRY(lw_ooc_move_rows(P, LW_OOC_UP, (char *)in, 0, 1, P->head, 0, P->sl.E, 0));
    if (P->head || (P->tail && P->coef_in)) {
        LW_TRY(mv->record(mv->ctx, EV_TAIL, 0));
        for (int q = 1; q < LW_OOC_QUEUES; q++) LW_TRY(mv->wait(mv->ctx, EV_TAIL, q));
    }
    /* slab k+1's rows from the host begun before slab k runs (where the mover can) */
    P->ahead = mv->up_begin && mv->ups_end && P->p->tune.ooc_ahead;
    if (P->ahead && P->sl.n > 0) LW_TRY(lw_ooc_prefill(P, 0, in));
    for (int64_t k = 0; k < P->sl.n; k++) {
        if (P->ahead && k + 1 < P->sl.n) LW_TRY(lw_ooc_prefill(P, k + 1, in));
        LW_TRY(lw_ooc_run_slab(P, k, in, out));
    }
    LW_TRY(lw_ooc_hold_release(P, INT64_MAX, out, 0)); /* every host row read: the rest of the held rows */
    if (P->tail && !P->coef_in) { /* the corner's levels once every slab has written its part */
        for (int q = 1; q < LW_OOC_QUEUES; q++) {
            LW_TRY(mv->record(mv->ctx, EV_END + q, q));
            LW_TRY(mv->wait(mv->ctx, EV_END + q, 0));
        }
        LW_TRY(mv->run(mv->ctx, P->tail, P->ll, P->ll2, P->tscr, 0));
    }
    LW_TRY(mv->finish(mv->ctx));
    if (reorder && !P->coef_in) LW_TRY(lw_ooc_permute_host(P, out, 1));
    if (P->tail && !P->coef_in) {
        LW_TRY(lw_ooc_corner_rows(P, LW_OOC_DOWN, out, ls * P->hs[0], 1, P->ll2, P->N0, 0, 0));
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
    P->t0 = lw_ooc_transformed(P, 0);
    P->row = lw_ooc_elems_after(P->shape, P->rank, 0) * P->es;
    P->sl.N = P->shape[0];
    P->sl.periodic = P->t0 && p->cfg.mode == LW_PERIODIC;
    P->in_bands = P->t0 && P->mallat && P->coef_in;
    P->out_bands = P->t0 && P->mallat && !P->coef_in;
    P->host_bands = P->t0 && P->mallat && !inplace;
    P->stash_ok = P->t0 && P->mallat && P->coef_in && !inplace && p->tune.ooc_stash;
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

/* The pass of an array whose axis 0 is transformed: whole when it fits the
 * budget (a last corner, a short axis 0: one slab without halo, the
 * transform itself in any mode), else slabs. */
static lw_status plan_array(ooc_pass *P, const lw_plan *p, const lw_ooc_mover *mv, const ooc_array *A, int inplace)
{
    pass_init(P, p, mv, A, inplace);
    P->t0 = P->in_bands = P->out_bands = P->host_bands = P->sl.periodic = 0;
    P->sl.Z = A->shape[0], P->sl.E = 0, P->sl.L1 = 0, P->sl.n = 1;
    size_t need = 0;
    lw_status st = make_subs(P, &need);
    if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) st = LW_OK, need = (size_t)-1, lw_clear_error();
    if (st != LW_OK || need <= mv->budget) return st;
    drop_plans(P);
    pass_init(P, p, mv, A, inplace);
    if (lw_ooc_hold_applies(P)) { /* in place: held rows where they fit, else the permutation */
        P->hold = 1, P->host_bands = 1;
        st = plan_slabs(P);
        if (st != LW_ERR_DEVICE_OUT_OF_MEMORY) return st;
        lw_clear_error();
        pass_init(P, p, mv, A, inplace);
    }
    return plan_slabs(P);
}

/* An array whose axis 0 is transformed: its pass, and a pass over the
 * corner for the levels the first one leaves to the host. */
static lw_status run_array(const lw_plan *p, const lw_ooc_mover *mv, const ooc_array *A, const char *in, char *out)
{
    ooc_pass P;
    lw_status st = plan_array(&P, p, mv, A, in == out);
    if (st == LW_OK && P.host_cont && P.coef_in && in != out) {
        /* the corner's levels come first: into the stash, or in place on a copy of the input */
        if (lw_ooc_stash_applies(&P)) {
            P.stash = out + lw_ooc_stash_row(&P) * A->hs[0];
        } else {
            size_t bytes = (size_t)A->shape[0] * (size_t)A->hs[0];
            drop_plans(&P);
            copy_host(out, in, bytes);
            in = out;
            st = plan_array(&P, p, mv, A, 1);
        }
    }
    ooc_array C;
    if (st == LW_OK && P.host_cont) {
        C = *A;
        memcpy(C.shape, P.cshape, sizeof C.shape);
        C.L = A->L - P.sl.L1;
        for (int d = 0; d < A->rank; d++)
            if (!P.mallat && lw_ooc_transformed(&P, d)) C.hs[d] *= (int64_t)1 << P.sl.L1;
    }
    if (st == LW_OK && P.host_cont && P.coef_in) /* into the stash, or in place on the copy */
        st = run_array(p, mv, &C, P.stash ? in : out, P.stash ? (char *)P.stash : out);
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
    for (int d = 0; d < r; d++) A->hs[d] = (int64_t)(lw_ooc_elems_after(A->shape, r, d) * es);
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
        int ok = 0;
        LW_TRY(fit_slabs(P, 0, 0, slab_cap(P, 1), &ok));
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

lw_status lw_ooc_describe(const lw_plan *p, const lw_ooc_mover *m, int inplace, char *buf, size_t len)
{
    ooc_pass P;
    ooc_array A;
    int64_t items = 1;
    int groups = 0;
    LW_TRY(plan_top(&P, p, m, inplace, &A, &items, &groups));
    if (!groups) LW_TRY(plan_array(&P, p, m, &A, inplace));
    size_t used = strlen(buf), need = 0;
    lw_status st = make_subs(&P, &need);
    if (st == LW_OK && used < len) {
        if (!groups && !P.t0)
            snprintf(buf + used, len - used, "out of core: %lld item(s), each whole within the budget, %zu device "
                     "bytes\n", (long long)items, need);
        else if (!groups)
            snprintf(buf + used, len - used,
                     "out of core: %lld item(s), each %lld slabs of %lld rows (halo %lld, %d level(s) per pass%s%s), "
                     "%zu device bytes\n",
                     (long long)items, (long long)P.sl.n, (long long)P.sl.Z, (long long)P.sl.E, P.sl.L1,
                     P.tail ? ", the rest on the lowpass corner on the device"
                     : lw_ooc_stash_applies(&P)
                         ? ", the rest first by passes over the lowpass corner into the output's last rows"
                     : P.host_cont ? ", the rest by passes over the lowpass corner" : "",
                     P.hold ? ", in place: rows held on the device until their places are read"
                     : inplace && P.mallat ? ", in place: rows reordered on the host" : "",
                     need);
        else
            snprintf(buf + used, len - used, "out of core: %lld groups of %lld items, %zu device bytes\n",
                     (long long)P.sl.n, (long long)P.sl.Z, need);
    }
    drop_plans(&P);
    return st;
}
