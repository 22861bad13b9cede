/* Host side of the Faber-Schauder engine (LWE_FS): scratch needs and the
 * launch sequence (kernels in k_fs.cu).
 *   forward: one launch, every level, src -> out.
 *   inverse: the small coarse levels in one launch, then one launch per level
 *            down to level 0, each reading the coefficients where the layout
 *            keeps them.
 * In place, the kernels need the input elsewhere (the forward reads original
 * samples that other threads overwrite; the Mallat inverse reads bands that
 * the rebuilt samples overwrite): it is first copied to the scratch.  The
 * interleaved inverse runs in place as it is. */
#include "cuda_exec.h"

#include <string.h>

#define CK(call, what) LW_TRY(lw_cuda_check((call), (what)))

static int fs_needs_copy(const lw_plan *p)
{
    return !(p->cfg.direction == LW_INVERSE && p->cfg.layout == LW_INTERLEAVED);
}

void lw_cuda_fs_sched(const lw_plan *p, lw_cuda_sched *s)
{
    s->scratch = 0; /* out of place: none */
    s->inplace_scratch = fs_needs_copy(p) ? s->bytes : 0;
    s->tmp_full = s->inplace_scratch > 0; /* lw_cuda_run then hands the scratch to an in-place run */
}

static lw_status fs_setup(const lw_plan *p, lwk_fs *f)
{
    const lw_geometry *g = &p->geo;
    memset(f, 0, sizeof *f);
    f->na = g->naxes;
    for (int a = 0; a < g->naxes; a++) f->n[a] = g->shape[g->axes[a]], f->st[a] = g->strides[g->axes[a]];
    f->nbatch = 1;
    for (int i = g->rank - 1; i >= 0; i--) { /* fastest batch dim first */
        int t = 0;
        for (int a = 0; a < g->naxes; a++) t |= g->axes[a] == i;
        if (t || g->shape[i] == 1) continue;
        if (f->nb == 3) return lw_fail(LW_ERR_INTERNAL, "cuda fs: more than 3 batch dimensions");
        f->blen[f->nb] = g->shape[i], f->bst[f->nb] = g->strides[i], f->nbatch *= g->shape[i], f->nb++;
    }
    f->levels = g->levels;
    f->mode = (int)p->cfg.mode;
    f->mallat = p->cfg.layout == LW_MALLAT;
    return LW_OK;
}

lw_status lw_cuda_run_fs(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                         cudaStream_t st)
{
    lwk_fs f;
    LW_TRY(fs_setup(p, &f));
    const void *src = in;
    if (in == out && fs_needs_copy(p)) {
        if (!scratch) return lw_fail(LW_ERR_INTERNAL, "cuda fs: an in-place run needs the scratch buffer");
        CK(cudaMemcpyAsync(scratch, in, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync (fs input)");
        src = scratch;
    }
    if (p->cfg.direction == LW_FORWARD) {
        CK(lwk_fs_forward(s->dtype, &f, src, out, st), "cuda fs forward launch");
        return LW_OK;
    }
    int k0 = lwk_fs_tail_level(&f);
    if (k0 < f.levels) CK(lwk_fs_inverse_tail(s->dtype, &f, k0, src, out, st), "cuda fs inverse launch");
    for (int k = k0 - 1; k >= 0; k--) CK(lwk_fs_inverse_level(s->dtype, &f, k, src, out, st), "cuda fs inverse launch");
    return LW_OK;
}
