/* Host side of the Faber-Schauder engine (LWE_FS): scratch needs and the
 * launch sequence (kernels in k_fs.cu).
 *   forward: one launch, every level, src -> out.
 *   inverse: the small coarse levels in one launch, then one launch per level
 *            down to level 0; levels >= 1 rebuild their grid into two compact
 *            region buffers used in turn (odd levels: the level-1 size, even
 *            levels: the level-2 size), level 0 into out.
 * In place, the forward (it reads original samples that other threads
 * overwrite) and the Mallat inverse (it reads bands that rebuilt samples
 * overwrite) first copy the input behind the regions in the scratch; the
 * interleaved inverse reads, at level 0, only the samples each thread then
 * overwrites itself, and runs in place as it is. */
#include "cuda_exec.h"

#include <string.h>


void lw_cuda_fs_setup(const lw_plan *p, lwk_fs *f)
{
    const lw_geometry *g = &p->geo;
    memset(f, 0, sizeof *f);
    f->na = g->naxes;
    for (int a = 0; a < g->naxes; a++) f->n[a] = g->shape[g->axes[a]], f->st[a] = g->strides[g->axes[a]];
    f->nbatch = 1;
    for (int i = g->rank - 1; i >= 0; i--) { /* batch dims, fastest first (rank <= 4, naxes >= 1: at most 3) */
        int t = 0;
        for (int a = 0; a < g->naxes; a++) t |= g->axes[a] == i;
        if (t || g->shape[i] == 1) continue;
        f->blen[f->nb] = g->shape[i], f->bst[f->nb] = g->strides[i], f->nbatch *= g->shape[i], f->nb++;
    }
    f->levels = g->levels;
    f->mode = (int)p->cfg.mode;
    f->mallat = p->cfg.layout == LW_MALLAT;
}

static int fs_needs_copy(const lw_plan *p)
{
    return !(p->cfg.direction == LW_INVERSE && p->cfg.layout == LW_INTERLEAVED);
}

/* bytes of the two region buffers (inverse): [level-1 size | level-2 size] */
static void fs_regions(const lw_plan *p, const lw_cuda_sched *s, size_t off[2], size_t *total)
{
    lwk_fs f;
    lw_cuda_fs_setup(p, &f);
    size_t r1 = 0, r2 = 0;
    if (p->cfg.direction == LW_INVERSE && f.levels >= 2) r1 = (size_t)lwk_fs_region(&f, 1) * s->esize;
    if (p->cfg.direction == LW_INVERSE && f.levels >= 3) r2 = (size_t)lwk_fs_region(&f, 2) * s->esize;
    off[1] = 0, off[0] = r1; /* regions[k & 1] */
    *total = r1 + r2;
}

void lw_cuda_fs_sched(const lw_plan *p, lw_cuda_sched *s)
{
    size_t off[2], reg;
    fs_regions(p, s, off, &reg);
    s->scratch = reg; /* out of place: the regions only */
    s->inplace_scratch = reg + (fs_needs_copy(p) ? s->bytes : 0);
    s->tmp_full = s->inplace_scratch > 0; /* lw_cuda_run then hands the scratch over */
}

lw_status lw_cuda_run_fs(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                         cudaStream_t st)
{
    lwk_fs f;
    lw_cuda_fs_setup(p, &f);
    size_t off[2], reg;
    fs_regions(p, s, off, &reg);
    const void *src = in;
    int copy = in == out && fs_needs_copy(p);
    if ((reg || copy) && !scratch) return lw_fail(LW_ERR_INTERNAL, "cuda fs: the run needs its scratch buffer");
    if (copy) {
        void *c = (char *)scratch + reg;
        CK(cudaMemcpyAsync(c, in, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync (fs input)");
        src = c;
    }
    if (p->cfg.direction == LW_FORWARD) {
        CK(lwk_fs_forward(s->dtype, &f, src, out, st), "cuda fs forward launch");
        return LW_OK;
    }
    void *regions[2] = {reg ? (char *)scratch + off[0] : NULL, reg ? (char *)scratch + off[1] : NULL};
    int k0 = lwk_fs_tail_level(&f, s->dtype);
    if (k0 < f.levels) CK(lwk_fs_inverse_tail(s->dtype, &f, k0, src, out, regions, st), "cuda fs inverse launch");
    for (int k = k0 - 1; k >= 0; k--)
        CK(lwk_fs_inverse_level(s->dtype, &f, k, src, out, regions, st), "cuda fs inverse launch");
    return LW_OK;
}
