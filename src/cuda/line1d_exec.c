/* The long-line engine (cuda engine "line1d", k_line1d.cu): one transformed
 * axis along contiguous lines.  Each level reads its input once and writes
 * its output once:
 *   - directly where it reads no buffer it writes (level 1 out of place,
 *     the coarsest level of an inverse out of place);
 *   - held in the resident blocks' shared memory where it writes what it
 *     reads (in place, a forward pyramid's levels 2.. on out's lowpass, an
 *     inverse's finer levels on out's reconstructed lowpass) and the device
 *     holds its samples;
 *   - out of place, in the Mallat layout, a level the device cannot hold
 *     reads its lowpass from the scratch, where the level before put it
 *     compact (staged: two buffers in turn, at most three quarters of the
 *     array), and so runs directly;
 *   - else (in place, or the interleaved layout) by the generic path in place
 *     (its walk, inplace_exec.c).
 * Consecutive levels that run directly or held go in one launch, a grid
 * barrier between them.  The small engine takes the levels it holds whole,
 * in one launch (s->small_from): after the others forward, before them
 * inverse. */
#include "cuda_exec.h"

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
}

/* samples of every line at the input of level k */
static int64_t region(const lw_plan *p, int k)
{
    lw_lines L;
    lw_lines_for(p, k, 0, &L);
    return L.n * L.nlines;
}

void lw_line1d_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const int ks = lw_cuda_small_from(p, s), L = p->geo.levels, inv = p->cfg.direction == LW_INVERSE;
    s->small_from = ks;
    s->l1_all_held = 1;
    for (int k = 0; k < ks; k++) {
        lwk_line1d l;
        level_pass(p, s, k, NULL, NULL, NULL, &l);
        s->l1_held[k] = (unsigned char)lwk_line1d_held_fits(s->dtype, &l);
        (void)cudaGetLastError(); /* an occupancy query the device refused: not held */
        s->l1_all_held &= s->l1_held[k];
    }
    /* out of place, Mallat: the levels that read their lowpass from a
     * scratch buffer (k % 2); an inverse whose small tail would have to write
     * there stages none */
    memset(s->l1_staged, 0, sizeof s->l1_staged);
    size_t x[2] = {0, 0};
    if (p->cfg.layout != LW_MALLAT || s->engine != LWE_LINE1D) return;
    for (int k = inv ? 0 : 1; k < ks; k++)
        if (!s->l1_held[k] && !(inv && k == L - 1)) {
            if (inv && k == ks - 1 && ks < L) {
                memset(s->l1_staged, 0, sizeof s->l1_staged);
                return;
            }
            s->l1_staged[k] = 1;
            const size_t b = (size_t)region(p, inv ? k + 1 : k) * s->esize;
            if (b > x[k % 2]) x[k % 2] = b;
        }
    s->l1_x_off[0] = 0, s->l1_x_off[1] = align256(x[0]);
    s->l1_stage_bytes = x[1] ? s->l1_x_off[1] + align256(x[1]) : align256(x[0]);
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

/* Level k's pass l next: directly where it reads no buffer it writes (a
 * launch of its own first), held (into the launch), or by the generic path
 * in place on out */
static lw_status run_level(const lw_plan *p, const lw_cuda_sched *s, int k, const lwk_line1d *l, const void *in,
                           void *out, void *scratch, cudaStream_t st, l1_batch *b)
{
    const int direct = l->lo != l->dst && l->lo != l->dst_hi && l->hi != l->dst && l->hi != l->dst_hi;
    if (direct || !s->l1_held[k] || b->n == LWK_LINE1D_MAXLEV) LW_TRY(flush(s, b, st));
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
