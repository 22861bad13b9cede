/* Batches from host memory (the NCHW case: the transformed axes are the
 * trailing ones, the leading dimensions count independent items) in groups
 * of items: group k goes up, is transformed by a plan of its own item count
 * (device pointers) and comes down on stream k % 3, so that the copy
 * engines move group k+1 up while group k-1 comes down; group k+1's upload
 * is begun before group k's is waited for.  Items share no neighbours: no
 * margins, no ordering between streams. */
#include "staging_exec.h"

#include <string.h>

int lw_host_item_configs(const lw_plan *p, int64_t want, int64_t *per, int64_t *groups, lw_config cfg[2])
{
    const lw_geometry *g = &p->geo;
    const char *sch = p->cfg.scheme;
    const int na = g->naxes, lead = g->rank - na;
    if ((p->cfg.flags & LW_FLAG_DEVICE_POINTERS) || lead < 1 || na < 1 || g->levels < 1) return 0;
    if (sch && *sch && strcmp(sch, "auto")) return 0;
    if (want == 1 || want == 2) return 0;
    for (int i = 0; i < na; i++)
        if (g->axes[i] != lead + i) return 0; /* only trailing axes make whole items contiguous */
    int64_t n = 1;
    for (int i = 0; i < lead; i++) n *= g->shape[i];
    if (want <= 0) want = 16;
    const int64_t each = (n + want - 1) / want, ng = (n + each - 1) / each;
    if (ng < 3) return 0; /* *per and *groups stay untouched: the caller reads *groups as "groups apply" */
    *per = each, *groups = ng;
    for (int k = 0; k < 2; k++) {
        lw_config *c = &cfg[k];
        lw_host_sub_config(p, c);
        c->rank = na + 1;
        c->shape[0] = k == 0 ? *per : n - (*groups - 1) * *per;
        c->naxes = na;
        for (int i = 0; i < na; i++) c->shape[1 + i] = g->shape[lead + i], c->axes[i] = 1 + i;
        c->layout = p->cfg.layout, c->levels = g->levels;
        c->flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_DESTROY_INPUT; /* each group's input is read once */
    }
    return 1;
}

/* group k: items [a, b) on stream k % 3 */
static lw_box group_box(const lw_host_call *h, int64_t k, size_t item, int64_t n, size_t *off)
{
    int64_t a = k * h->per, b = k == h->groups - 1 ? n : a + h->per;
    *off = (size_t)a * item;
    return lw_box_linear((size_t)(b - a) * item);
}

lw_status lw_host_run_items(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    size_t item = h->s->esize, off;
    for (int i = g->rank - g->naxes; i < g->rank; i++) item *= (size_t)g->shape[i];
    int64_t n = 1;
    for (int i = 0; i < g->rank - g->naxes; i++) n *= g->shape[i];
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    lw_box x = group_box(h, 0, item, n, &off);
    LW_TRY(lw_host_up_begin(h, &u[0], &x, (const char *)in + off, (char *)h->d_in + off, h->st[0]));
    for (int64_t k = 0; k < h->groups; k++) {
        const int q = (int)(k % 3), last = k == h->groups - 1;
        cudaStream_t st = h->st[q];
        if (!last) { /* the next group's upload is copied in while this one is waited for */
            x = group_box(h, k + 1, item, n, &off);
            LW_TRY(lw_host_up_begin(h, &u[(k + 1) % 2], &x, (const char *)in + off, (char *)h->d_in + off,
                                    h->st[(k + 1) % 3]));
        }
        LW_TRY(lw_host_ups_end(h, &u[k % 2]));
        x = group_box(h, k, item, n, &off);
        LW_TRY(lw_cuda_run(h->slab[last], h->slab_s[last], (char *)h->d_in + off, (char *)h->d_out + off, h->d_sscr[q],
                           st));
        LW_TRY(lw_stage_down(h->stg, &x, (char *)out + off, (const char *)h->d_out + off, h->dout, st));
    }
    return lw_host_finish(h);
}
