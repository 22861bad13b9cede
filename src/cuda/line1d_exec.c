/* The long-line engine (cuda engine "line1d", k_line1d.cu): one transformed
 * axis along contiguous lines.  Each level reads its input once and writes
 * its output once:
 *   - directly where it reads no buffer it writes (level 1 out of place,
 *     the coarsest level of an inverse out of place);
 *   - held in the resident blocks' shared memory where it writes what it
 *     reads (in place, a forward pyramid's levels 2.. on out's lowpass, an
 *     inverse's finer levels on out's reconstructed lowpass) and the device
 *     holds its samples;
 *   - else by the generic path in place (its walk, inplace_exec.c).
 * The small engine takes the levels it holds whole, in one launch
 * (s->small_from): after the others forward, before them inverse. */
#include "cuda_exec.h"

#include <string.h>

#define CK(call, what) LW_TRY(lw_cuda_check((call), (what)))

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
    l->lo = lo, l->hi = hi, l->dst = dst;
    l->in_split = mallat && inv;
    l->out_split = mallat && !inv;
}

void lw_line1d_prepare(const lw_plan *p, lw_cuda_sched *s)
{
    const int ks = lw_cuda_small_from(p, s);
    s->small_from = ks;
    s->l1_all_held = 1;
    for (int k = 0; k < ks; k++) {
        lwk_line1d l;
        level_pass(p, s, k, NULL, NULL, NULL, &l);
        s->l1_held[k] = (unsigned char)lwk_line1d_held_fits(s->dtype, &l);
        (void)cudaGetLastError(); /* an occupancy query the device refused: not held */
        s->l1_all_held &= s->l1_held[k];
    }
}

static lw_status small_tail(const lw_plan *p, const lw_cuda_sched *s, const void *src, void *dst, cudaStream_t st)
{
    lwk_small sm;
    lw_cuda_small_setup(p, s, s->small_from, &sm);
    CK(lwk_small_launch(s->dtype, &sm, src, dst, st), "cuda small kernel launch");
    return LW_OK;
}

static lw_status run_level(const lw_plan *p, const lw_cuda_sched *s, int k, const void *lo, const void *hi,
                           const void *in, void *out, void *scratch, cudaStream_t st)
{
    lwk_line1d l;
    level_pass(p, s, k, lo, hi, out, &l);
    if (lo != out && hi != out) CK(lwk_line1d_launch(s->dtype, &l, 0, st), "cuda line1d kernel launch");
    else if (s->l1_held[k]) CK(lwk_line1d_launch(s->dtype, &l, 1, st), "cuda line1d kernel launch (held)");
    else LW_TRY(lw_cuda_generic_level(p, s, k, in, out, scratch, st));
    return LW_OK;
}

lw_status lw_line1d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st)
{
    const int L = p->geo.levels, ks = s->small_from;
    if (p->cfg.direction == LW_FORWARD) {
        for (int k = 0; k < ks; k++) LW_TRY(run_level(p, s, k, k ? out : in, k ? out : in, in, out, scratch, st));
        if (ks < L) LW_TRY(small_tail(p, s, ks ? out : in, out, st));
        return LW_OK;
    }
    /* inverse: a level's lowpass half is the coarser level's output (in out),
     * its highpass half still in the input; where a level runs by the
     * generic path, which reads both in out, the input is copied first */
    const void *hi = in;
    int generic = 0;
    for (int k = 0; k < ks; k++) generic |= !(in != out && k == L - 1) && !s->l1_held[k]; /* not direct, not held */
    if (in != out && generic) {
        CK(cudaMemcpyAsync(out, in, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync");
        hi = out;
    }
    int have_lo = hi == out; /* the lowpass of the next level to run is in out */
    if (ks < L) {
        LW_TRY(small_tail(p, s, have_lo ? out : in, out, st));
        have_lo = 1;
    }
    for (int k = ks - 1; k >= 0; k--) {
        LW_TRY(run_level(p, s, k, have_lo ? out : in, hi, in, out, scratch, st));
        have_lo = 1;
    }
    return LW_OK;
}
