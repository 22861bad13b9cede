/* The long-line engine (cuda engine "line1d", k_line1d.cu): one transformed
 * axis along contiguous lines.  Each level reads its input once and writes
 * its output once:
 *   - directly where it reads no buffer it writes (level 1 out of place,
 *     the coarsest level of an inverse out of place);
 *   - held in the resident blocks' shared memory where it writes what it
 *     reads (in place, a forward pyramid's levels 2.. on out's lowpass, an
 *     inverse's finer levels on out's reconstructed lowpass) and the device
 *     holds its samples;
 *   - out of place, a level the device cannot hold reads its input (forward:
 *     the lowpass of the level before) or its lowpass (inverse: the coarser
 *     level's output) from the scratch, where the level before put it
 *     compact (staged: two buffers in turn, at most three quarters of the
 *     array), and so runs directly;
 *   - in place, a level the device cannot hold in rounds of one cooperative
 *     launch (lwk_line1d_rounds): whole lines, as many a round as it holds,
 *     or consecutive pieces of each line, every round saving the few raw
 *     samples its successor's windows reach back to.  The Mallat layout's
 *     pieces there (Ikuzawa et al.'s chunks) are pairs of 2h samples, each
 *     left as its lowpass half then its highpass half; those halves, rows
 *     of h samples, then reach the Mallat order along the cycles of their
 *     permutation (k_rowcycle.h), the reverse before an inverse's rounds.
 *     Where no h divides ceil(n / 2) (h a multiple of 16 samples, 256 to
 *     32 KiB of them), a Mallat level goes
 *   - by the generic path in place (its walk, inplace_exec.c).
 * Consecutive levels that run directly or held go in one launch, a grid
 * barrier between them.  The small engine takes the levels it holds whole,
 * in one launch (s->small_from): after the others forward, before them
 * inverse. */
#include "cuda_exec.h"
#include "k_rowcycle.h"
#include "core/cycles.h"

#include <stdlib.h>
#include <string.h>

#define CK(call, what) LW_TRY(lw_cuda_check((call), (what)))

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

/* Level k's pass: input from lo / hi, output to dst (lines of the plan's
 * geometry at level k) */
static void level_pass(const lw_plan *p, const lw_cuda_sched *s, int k, const void *lo, const void *hi, void *dst,
                       lwk_line1d *l)
{
    const int inv = p->cfg.direction == LW_INVERSE, mallat = p->cfg.layout == LW_MALLAT;
    memset(l, 0, sizeof *l);
    l->w = s->w;
    l->mode = (int)p->cfg.mode;
    l->inverse = inv;
    lw_lines_for(p, k, 0, &l->L);
    l->nlo = (l->L.n + 1) / 2;
    l->lo = lo, l->hi = hi, l->dst = dst, l->dst_hi = dst;
    l->in_split = mallat && inv;
    l->out_split = mallat && !inv;
    l->hold = p->tune.line1d_hold;
}

/* samples of every line at the input of level k */
static int64_t region(const lw_plan *p, int k)
{
    lw_lines L;
    lw_lines_for(p, k, 0, &L);
    return L.n * L.nlines;
}

/* The rows x cols region of half-pairs of level k's lines as the row
 * reorder takes it: one plane a line (up to two batch dimensions) */
static int rc_planes(const lw_lines *L, int64_t blen[2], int64_t bs[2])
{
    blen[0] = 1, bs[0] = 0, blen[1] = 1, bs[1] = 0;
    if (L->nd > 2) return 0;
    if (L->nd == 1) blen[1] = L->dlen[0], bs[1] = L->dstr[0];
    if (L->nd == 2) blen[0] = L->dlen[1], bs[0] = L->dstr[1], blen[1] = L->dlen[0], bs[1] = L->dstr[0];
    return 1;
}

/* Level k in rounds (in place, not held): whole lines where one fits, else
 * pieces of a line; the Mallat layout's pieces in pairs of 2h samples, h the
 * largest multiple of 16 up to 32 KiB of samples (at least 256) that divides
 * ceil(n / 2), with the half-pairs' row cycles cut for the resident blocks
 * (counted into nseg, their flags into flags; written to segs when not NULL).
 * 0: the level goes by the generic path. */
static int rounds_of(const lw_plan *p, lw_cuda_sched *s, int k, int32_t *segs, int64_t *nseg, int64_t *flags)
{
    const int inv = p->cfg.direction == LW_INVERSE;
    lwk_line1d l;
    level_pass(p, s, k, NULL, NULL, NULL, &l);
    s->l1_pair[k] = 0;
    lwk_line1d one = l;
    one.L.nlines = 1;
    const int whole = lwk_line1d_held_fits(s->dtype, &one) && (!l.hold || l.L.n <= l.hold);
    (void)cudaGetLastError();
    if (whole || p->cfg.layout != LW_MALLAT) {
        const int fit = lwk_line1d_rounds_fit(s->dtype, &l);
        (void)cudaGetLastError();
        return fit;
    }
    const int64_t n = l.L.n, m = (n + 1) / 2;
    int64_t blen[2], bs[2], h = 0;
    if (l.L.lstride != 1 || !rc_planes(&l.L, blen, bs)) return 0;
    int64_t top = (int64_t)(32 << 10) / (int64_t)s->esize, cap = lwk_rowcycle_max_cols(s->dtype);
    if (cap < top) top = cap;
    for (int64_t c = top / 16 * 16; c >= 256 && !h; c -= 16)
        if (m % c == 0) h = c;
    l.pair = 2 * h;
    if (!h || !lwk_line1d_rounds_fit(s->dtype, &l)) return (void)cudaGetLastError(), 0;
    const int64_t rows = n / h; /* odd n: the last pair's short highpass half stays where it is */
    int64_t res = 0;
    if (lwk_rowcycle_resident(s->dtype, h, &res) != cudaSuccess) res = 0, (void)cudaGetLastError();
    const int64_t planes = blen[0] * blen[1], walkers = planes <= res ? res / planes : 0;
    const int64_t cycles = lw_mallat_cycle_segments(rows, inv, 0, NULL, 0);
    const int64_t ns = lw_mallat_cycle_segments(rows, inv, walkers, segs, segs ? s->l1_rc_n[k] : 0);
    if (cycles < 0 || ns < 0 || planes > 65535) return 0;
    s->l1_pair[k] = 2 * h;
    s->l1_rc_cut[k] = ns > cycles;
    if (!segs) s->l1_rc_n[k] = ns, s->l1_rc_off[k] = *nseg, *nseg += ns;
    if (ns > cycles && ns * planes > *flags) *flags = ns * planes;
    return 1;
}

void lw_line1d_release(lw_cuda_sched *s)
{
    if (s->l1_rc) cudaFree(s->l1_rc);
    s->l1_rc = NULL, s->l1_rc_bytes = 0;
}

lw_status lw_line1d_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const int ks = lw_cuda_small_from(p, s), L = p->geo.levels, inv = p->cfg.direction == LW_INVERSE;
    s->small_from = ks;
    s->l1_all_held = 1;
    lw_line1d_release(s);
    int64_t nseg = 0, flags = 0;
    int any = 0;
    for (int k = 0; k < ks; k++) {
        lwk_line1d l;
        level_pass(p, s, k, NULL, NULL, NULL, &l);
        s->l1_held[k] = lwk_line1d_held_fits(s->dtype, &l) && (!l.hold || l.L.n * l.L.nlines <= l.hold);
        (void)cudaGetLastError(); /* an occupancy query the device refused: not held */
        /* tuning inplace lean (1) and copy (2): the generic path */
        s->l1_rounds[k] = !s->l1_held[k] && p->tune.inplace != 1 && p->tune.inplace != 2 &&
                          rounds_of(p, s, k, NULL, &nseg, &flags);
        any |= s->l1_rounds[k];
        s->l1_all_held &= s->l1_held[k] || s->l1_rounds[k];
    }
    if (any) { /* the rounds' saved samples, then the row cycles' flags; the cycles in device memory */
        const size_t side = align256(lwk_line1d_side_bytes(s->dtype, &s->w));
        s->l1_flag_off = side;
        s->l1_rnd_scratch = side + align256((size_t)flags * sizeof(int));
    }
    if (nseg) {
        int32_t *h = malloc((size_t)(3 * nseg) * sizeof *h);
        if (!h) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate %lld row-cycle segments", (long long)nseg);
        for (int k = 0; k < ks; k++)
            if (s->l1_rounds[k] && s->l1_pair[k]) rounds_of(p, s, k, h + 3 * s->l1_rc_off[k], &nseg, &flags);
        s->l1_rc_bytes = (size_t)(3 * nseg) * sizeof *h;
        lw_status st = lw_cuda_check(cudaMalloc((void **)&s->l1_rc, s->l1_rc_bytes), "cudaMalloc (row cycles)");
        if (st == LW_OK)
            st = lw_cuda_check(cudaMemcpy(s->l1_rc, h, s->l1_rc_bytes, cudaMemcpyHostToDevice), "cudaMemcpy (row cycles)");
        free(h);
        LW_TRY(st);
    }
    /* out of place: the levels that read their input (forward) or lowpass
     * (inverse) from a scratch buffer (k % 2); an inverse whose small tail
     * would have to write there stages none */
    memset(s->l1_staged, 0, sizeof s->l1_staged);
    size_t x[2] = {0, 0};
    if (s->engine != LWE_LINE1D) return LW_OK;
    for (int k = inv ? 0 : 1; k < ks; k++)
        if (!s->l1_held[k] && !(inv && k == L - 1)) {
            if (inv && k == ks - 1 && ks < L) {
                memset(s->l1_staged, 0, sizeof s->l1_staged);
                return LW_OK;
            }
            s->l1_staged[k] = 1;
            const size_t b = (size_t)region(p, inv ? k + 1 : k) * s->esize;
            if (b > x[k % 2]) x[k % 2] = b;
        }
    s->l1_x_off[0] = 0, s->l1_x_off[1] = align256(x[0]);
    s->l1_stage_bytes = x[1] ? s->l1_x_off[1] + align256(x[1]) : align256(x[0]);
    return LW_OK;
}

void lw_line1d_workspace(const lw_plan *p, lw_cuda_sched *s)
{
    (void)p;
    s->scratch = s->inplace_scratch > s->l1_stage_bytes ? s->inplace_scratch : s->l1_stage_bytes;
}

static lw_status small_tail(const lw_plan *p, const lw_cuda_sched *s, const void *src, void *dst, cudaStream_t st)
{
    lwk_small sm;
    lw_cuda_small_setup(p, s, s->small_from, &sm);
    CK(lwk_small_launch(s->dtype, &sm, src, dst, st), "cuda small kernel launch");
    return LW_OK;
}

/* The levels of a launch (consecutive ones, a direct one first or none) */
typedef struct l1_batch {
    lwk_line1d lev[LWK_LINE1D_MAXLEV];
    int held[LWK_LINE1D_MAXLEV];
    int n;
} l1_batch;

static lw_status flush(const lw_cuda_sched *s, l1_batch *b, cudaStream_t st)
{
    if (b->n) CK(lwk_line1d_launch(s->dtype, b->lev, b->held, b->n, st), "cuda line1d kernel launch");
    b->n = 0;
    return LW_OK;
}

/* Level k's half-pairs moved along their row cycles (inverse: back) */
static lw_status pair_rows(const lw_cuda_sched *s, int k, int inverse, const lwk_line1d *l, void *scratch,
                           cudaStream_t st)
{
    int64_t blen[2], bs[2];
    const int64_t h = s->l1_pair[k] / 2;
    rc_planes(&l->L, blen, bs);
    int *flags = s->l1_rc_cut[k] ? (int *)((char *)scratch + s->l1_flag_off) : NULL;
    CK(lwk_rowcycle_keep_cols(s->dtype, inverse, l->L.n / h, h, h, blen, bs, s->l1_rc + 3 * s->l1_rc_off[k], 0,
                              s->l1_rc_n[k], flags, l->dst, st),
       "cuda row-cycle kernel launch");
    return LW_OK;
}

/* Level k in place in rounds: the Mallat layout's pairs moved to (forward)
 * or from (inverse) the Mallat order by their row cycles */
static lw_status rounds_level(const lw_cuda_sched *s, int k, const lwk_line1d *l, void *scratch, cudaStream_t st)
{
    lwk_line1d r = *l;
    r.pair = s->l1_pair[k];
    if (r.pair && r.inverse) LW_TRY(pair_rows(s, k, 1, &r, scratch, st));
    CK(lwk_line1d_rounds(s->dtype, &r, scratch, st), "cuda line1d rounds launch");
    if (r.pair && !r.inverse) LW_TRY(pair_rows(s, k, 0, &r, scratch, st));
    return LW_OK;
}

/* Level k's pass l next: directly where it reads no buffer it writes (a
 * launch of its own first), held (into the launch), in rounds, or by the
 * generic path in place on out */
static lw_status run_level(const lw_plan *p, const lw_cuda_sched *s, int k, const lwk_line1d *l, const void *in,
                           void *out, void *scratch, cudaStream_t st, l1_batch *b)
{
    const int direct = l->lo != l->dst && l->lo != l->dst_hi && l->hi != l->dst && l->hi != l->dst_hi;
    if (direct || !s->l1_held[k] || b->n == LWK_LINE1D_MAXLEV) LW_TRY(flush(s, b, st));
    if (!direct && !s->l1_held[k] && s->l1_rounds[k] && l->lo == l->dst && l->hi == l->dst && !l->lo_cl && !l->dst_cl)
        return rounds_level(s, k, l, scratch, st);
    if (!direct && !s->l1_held[k]) return lw_cuda_generic_level(p, s, k, in, out, scratch, st);
    b->lev[b->n] = *l;
    b->held[b->n++] = !direct;
    return LW_OK;
}

lw_status lw_line1d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st)
{
    const int L = p->geo.levels, ks = s->small_from, oop = in != out;
    char *X[2] = {(char *)scratch + s->l1_x_off[0], (char *)scratch + s->l1_x_off[1]};
#define STAGED(k) (oop && (k) >= 0 && (k) < ks && s->l1_staged[k])
    l1_batch b;
    b.n = 0;
    lwk_line1d l;
    if (p->cfg.direction == LW_FORWARD) {
        for (int k = 0; k < ks; k++) {
            const void *src = !k ? in : STAGED(k) ? X[k % 2] : out;
            level_pass(p, s, k, src, src, out, &l);
            if (STAGED(k)) l.lo_cl = p->geo.len[k][0];
            if (STAGED(k + 1)) l.dst = X[(k + 1) % 2], l.dst_cl = p->geo.len[k + 1][0];
            LW_TRY(run_level(p, s, k, &l, in, out, scratch, st, &b));
        }
        LW_TRY(flush(s, &b, st));
        if (ks < L) LW_TRY(small_tail(p, s, ks ? out : in, out, st));
        return LW_OK;
    }
    /* inverse: a level's lowpass half is the coarser level's output (in out,
     * or staged), its highpass half still in the input; where a level runs by
     * the generic path, which reads both in out, the input is copied first */
    const void *hi = in;
    int generic = 0;
    for (int k = 0; k < ks; k++) generic |= !(oop && k == L - 1) && !s->l1_held[k] && !STAGED(k);
    if (oop && generic) {
        CK(cudaMemcpyAsync(out, in, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync");
        hi = out;
    }
    int have_lo = hi == out; /* the lowpass of the next level to run is in out */
    if (ks < L) {
        LW_TRY(small_tail(p, s, have_lo ? out : in, out, st));
        have_lo = 1;
    }
    for (int k = ks - 1; k >= 0; k--) {
        const void *lo = STAGED(k) && hi == in ? X[k % 2] : have_lo ? out : in;
        level_pass(p, s, k, lo, hi, out, &l);
        if (lo != in && lo != out) l.lo_cl = p->geo.len[k + 1][0];
        if (STAGED(k - 1) && hi == in) l.dst = l.dst_hi = X[(k - 1) % 2], l.dst_cl = p->geo.len[k][0];
        LW_TRY(run_level(p, s, k, &l, in, out, scratch, st, &b));
        have_lo = 1;
    }
#undef STAGED
    return flush(s, &b, st);
}
