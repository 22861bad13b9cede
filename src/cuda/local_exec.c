/* The local engine (cuda engine "local"): wavelets whose steps stay inside
 * their pairs (haar), along adjacent axes of an array (the trailing ones, or
 * followed by one dim: channels last) whose transformed lengths are
 * multiples of 2^levels.  The levels run in launches of up to
 * lwk_local_fmax(D) levels each (k_local.cu); a launch's lowpass is the next
 * one's input:
 *   interleaved  on out's grid of the level (no workspace; in place too,
 *                since a thread's coefficients land on its own samples, and
 *                they move as whole blocks: contiguous rows, not strided
 *                bands);
 *   Mallat       in two compact buffers of the workspace, alternately (the
 *                first and second launches' lowpass; later ones reuse them).
 * The last launch (forward) or the first (inverse) meets the array's own
 * lowpass band.  The coefficients may also be bands of their own
 * (lw_execute_bands): each band's view is then the caller's. */
#include "local_exec.h"

#include <string.h>

static int launches(const lw_plan *p)
{
    const int fm = lwk_local_fmax(p->geo.naxes);
    return fm ? (p->geo.levels + fm - 1) / fm : 0;
}

/* levels done before launch g (forward order), and the launch's own */
static int levels_before(const lw_plan *p, int g) { return g * lwk_local_fmax(p->geo.naxes); }
static int levels_of(const lw_plan *p, int g)
{
    const int rest = p->geo.levels - levels_before(p, g), fm = lwk_local_fmax(p->geo.naxes);
    return rest < fm ? rest : fm;
}

int lw_local_applies(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    const int D = g->naxes, L = g->levels;
    if (lw_dir_adjoint(p->cfg.direction) || !p->wav->separable || !lw_wavelet_inside_pairs(p->wav)) return 0;
    if (D < 1 || D > LW_MAX_AXES || L < 1 || L > 40 || !lwk_local_supported(s->dtype, &s->w)) return 0;
    for (int a = 0; a < D; a++) {
        const int64_t n = g->shape[g->axes[a]];
        if (g->axes[a] != g->axes[0] + a || n < 2 || n % ((int64_t)1 << L)) return 0;
    }
    return g->axes[D - 1] >= g->rank - 2; /* at most one dim (channels) after them */
}

/* the array's dims after the transformed ones (channels last: 0 or 1) */
static int inner_dims(const lw_plan *p) { return p->geo.rank - 1 - p->geo.axes[p->geo.naxes - 1]; }

/* the block map of a launch of F levels whose rows (last transformed axis) have n samples:
 * 0 narrow, 1 wide, 2 warp-strided.  Auto takes the warp-strided map for samples of 4 or more
 * bytes (the wide block's two 16-byte vectors a thread 32 bytes apart half-fill the sectors of
 * a warp's store), wide for 2-byte samples (a thread's 32 bytes are one block; strided trails) */
static int block_map(const lw_plan *p, const lw_cuda_sched *s, int F, int64_t n)
{
    const int D = p->geo.naxes, xl = lwk_local_xlog(s->dtype, D, F, 1), t = p->tune.local_block;
    /* channels last: rows are strided (scalar accesses), and a warp's lanes take the channels of
     * adjacent blocks, which narrow blocks keep contiguous */
    if (inner_dims(p) > 0) return 0;
    if (t == LW_LOCAL_BLOCK_NARROW || n % ((int64_t)1 << xl) != 0) return 0;
    const int want = t == LW_LOCAL_BLOCK_STRIDED || (t == LW_LOCAL_BLOCK_AUTO && s->esize >= 4);
    return want && lwk_local_strided_ok(s->dtype, D, F) && (n >> xl) % 32 == 0 ? 2 : 1;
}

/* Auto for the 64-sample blocks (lwk_local_bounded): level 1 slab by slab or the whole block
 * (into the bands; the interleaved layout moves whole blocks), and the thread blocks an SM the
 * kernel is compiled for (1: no bound), per sample size, dimension, direction and whether the
 * coefficients move whole.  Measured on an H200 over bench/exp/local_set.sh (bench/NOTES-torch.md,
 * "Level 1 slab by slab"); float64 3-D was not measured and takes float64 2-D's rows. */
static const struct {
    int esize, D, inverse, whole;
    int slabs, min_blocks;
} local_auto[] = {
    {2, 2, 0, 0, 1, 6}, {2, 2, 1, 0, 1, 6}, {2, 3, 0, 0, 1, 1}, {2, 3, 1, 0, 1, 5}, /* bfloat16, float16 */
    {2, 2, 0, 1, 0, 6}, {2, 2, 1, 1, 0, 6},                                         /* ... interleaved */
    {4, 2, 0, 0, 0, 1}, {4, 2, 1, 0, 1, 6}, {4, 3, 0, 0, 0, 4}, {4, 3, 1, 0, 0, 4}, /* float32, int32 */
    {4, 2, 0, 1, 0, 5}, {4, 2, 1, 1, 0, 1},                                         /* ... interleaved */
    {8, 2, 0, 0, 1, 1}, {8, 2, 1, 0, 1, 6},                                         /* float64 */
};

/* slabs and thread blocks an SM from the row of local_auto for launch k (none: whole blocks, no bound) */
static void auto_row(const lw_cuda_sched *s, const lwk_local *k, int *slabs, int *mb)
{
    const int D = s->esize == 8 ? 2 : k->D; /* float64 3-D: its 2-D rows */
    for (size_t i = 0; i < sizeof local_auto / sizeof local_auto[0]; i++) {
        if ((size_t)local_auto[i].esize == s->esize && local_auto[i].D == D && local_auto[i].inverse == k->inverse &&
            local_auto[i].whole == k->whole) {
            *slabs = local_auto[i].slabs, *mb = local_auto[i].min_blocks;
            return;
        }
    }
    *slabs = 0, *mb = 1;
}

/* k->slabs and k->min_blocks of launch k: the plan's local_slabs and local_bound, or auto
 * (local_auto); level 1 slab by slab only where the block allows it and the coefficients go to
 * the bands */
static void local_variant(const lw_plan *p, const lw_cuda_sched *s, lwk_local *k)
{
    static const int bound[] = {0, 1, 4, 5, 6}; /* tuning local_bound: auto none 4 5 6 */
    int sl = 0, mb = 1;
    k->slabs = 0, k->min_blocks = 1;
    if (!lwk_local_bounded(k->D, k->F)) return;
    auto_row(s, k, &sl, &mb);
    if (p->tune.local_slabs > 0) sl = p->tune.local_slabs == 1;
    if (p->tune.local_bound > 0) mb = bound[p->tune.local_bound];
    k->slabs = sl && !k->whole && lwk_local_slabs_ok(s->dtype, k->D, k->F, k->wide);
    k->min_blocks = mb;
}

int lw_local_auto(const lw_plan *p, const lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    if (!lw_local_applies(p, s)) return 0;
    if (inner_dims(p) > 0) return 1; /* channels last: no other engine runs them fused */
    /* one level of 2-D over 4-/8-byte samples: tile2d ties the wide block and trails the
     * warp-strided map (interleaved rows above all), so local only where that map applies */
    if (g->naxes == 2 && g->levels == 1 && s->esize >= 4 && block_map(p, s, 1, g->shape[g->axes[1]]) != 2) return 0;
    return !(g->naxes == 2 && p->cfg.layout == LW_MALLAT && !(p->cfg.flags & LW_FLAG_DEVICE_POINTERS));
}

/* elements of the level-K lowpass region over the whole batch */
static size_t region_elems(const lw_plan *p, int K)
{
    const lw_geometry *g = &p->geo;
    size_t n = 1;
    for (int d = 0; d < g->rank; d++) n *= (size_t)(lw_geo_is_axis(g, d) ? g->shape[d] >> K : g->shape[d]);
    return n;
}

static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

/* the compact buffer of launch g's lowpass (Mallat, g < launches - 1) */
static size_t buffer_offset(const lw_plan *p, const lw_cuda_sched *s, int g)
{
    return (g & 1) ? align256(region_elems(p, levels_before(p, 1)) * s->esize) : 0;
}

void lw_local_workspace(const lw_plan *p, lw_cuda_sched *s)
{
    const int G = launches(p);
    s->scratch = 0;
    if (p->cfg.layout != LW_MALLAT || G < 2) return;
    s->scratch = buffer_offset(p, s, 1) + (G > 2 ? region_elems(p, levels_before(p, 2)) * s->esize : 0);
}

/* ---- views ---------------------------------------------------------------- */

/* a view's strides from the array's order of the dims to the kernel's: the
 * dims before the transformed ones, those after them, the transformed ones */
static void kernel_order(const lw_plan *p, lwk_view *v)
{
    const lw_geometry *g = &p->geo;
    const int a0 = g->axes[0], a1 = g->axes[g->naxes - 1];
    int64_t st[LW_MAX_RANK];
    int j = 0;
    for (int d = 0; d < a0; d++) st[j++] = v->st[d];
    for (int d = a1 + 1; d < g->rank; d++) st[j++] = v->st[d];
    for (int d = a0; d <= a1; d++) st[j++] = v->st[d];
    memcpy(v->st, st, sizeof(int64_t) * (size_t)g->rank);
}

/* the largest power of two up to 16 dividing the address and every non-last
 * stride in bytes, when the last stride is 1; else 0 (lwk_view.al) */
static int view_align(const lwk_view *v, int rank, size_t es)
{
    if (v->st[rank - 1] != 1) return 0;
    int al = 16;
    while (al > 1) {
        int ok = ((uintptr_t)v->p % (uintptr_t)al) == 0;
        for (int d = 0; d < rank - 1 && ok; d++) ok = ((uint64_t)v->st[d] * es) % (uint64_t)al == 0;
        if (ok) break;
        al >>= 1;
    }
    return al;
}

/* base with the array's strides, the transformed dims' taken every 2^K-th
 * (the grid of level K) */
static lwk_view grid_view(const lw_plan *p, const void *base, int K)
{
    const lw_geometry *g = &p->geo;
    lwk_view v;
    memset(&v, 0, sizeof v);
    v.p = (void *)base;
    for (int d = 0; d < g->rank; d++) v.st[d] = g->strides[d] << (lw_geo_is_axis(g, d) ? K : 0);
    return v;
}

/* a compact buffer holding the level-K lowpass region */
static lwk_view compact_view(const lw_plan *p, void *base, int K)
{
    const lw_geometry *g = &p->geo;
    lwk_view v;
    memset(&v, 0, sizeof v);
    v.p = base;
    int64_t st = 1;
    for (int d = g->rank - 1; d >= 0; d--) {
        v.st[d] = st;
        st *= lw_geo_is_axis(g, d) ? g->shape[d] >> K : g->shape[d];
    }
    return v;
}

/* band m of absolute level k in the array at base */
static lwk_view band_view(const lw_plan *p, const void *base, int k, int m, size_t es)
{
    const lw_geometry *g = &p->geo;
    const int D = g->naxes, mallat = p->cfg.layout == LW_MALLAT;
    lwk_view v = grid_view(p, base, mallat ? 0 : k);
    int64_t off = 0;
    for (int a = 0; a < D; a++)
        if ((m >> (D - 1 - a)) & 1) off += (mallat ? g->shape[g->axes[a]] >> k : (int64_t)1 << (k - 1)) * g->strides[g->axes[a]];
    v.p = (char *)v.p + off * (int64_t)es;
    return v;
}

/* where the coefficients are: an array (Mallat or interleaved), or bands of
 * their own (lw_execute_bands, Mallat) */
typedef struct coefs {
    const void *arr;
    const lw_band *bands;
} coefs;

static lwk_view band_of(const lwk_view *v0, const lw_band *b, int rank)
{
    lwk_view v = *v0;
    v.p = b->data;
    for (int d = 0; d < rank; d++) v.st[d] = b->strides[d];
    return v;
}

/* band m of absolute level k */
static lwk_view coef_band(const lw_plan *p, const coefs *c, int k, int m, size_t es)
{
    const lw_geometry *g = &p->geo;
    lwk_view v = band_view(p, c->arr, k, m, es);
    if (c->bands) v = band_of(&v, &c->bands[1 + (g->levels - k) * ((1 << g->naxes) - 1) + (m - 1)], g->rank);
    return v;
}

/* the transform's own lowpass (level L) */
static lwk_view coef_low(const lw_plan *p, const coefs *c)
{
    lwk_view v = grid_view(p, c->arr, p->cfg.layout == LW_MALLAT ? 0 : p->geo.levels);
    if (c->bands) v = band_of(&v, &c->bands[0], p->geo.rank);
    return v;
}

/* the level-K lowpass between launches g and g + 1 (forward order) */
static lwk_view between(const lw_plan *p, const lw_cuda_sched *s, void *out, void *scratch, int K, int g)
{
    if (p->cfg.layout == LW_MALLAT) return compact_view(p, (char *)scratch + buffer_offset(p, s, g), K);
    return grid_view(p, out, K);
}

int lw_local_launches(const lw_plan *p) { return launches(p); }

void lw_local_launch_at(const lw_plan *p, const lw_cuda_sched *s, int i, const void *in, void *out,
                        const lw_band *bands, void *scratch, lwk_local *k)
{
    const lw_geometry *g = &p->geo;
    const int G = launches(p), inv = p->cfg.direction == LW_INVERSE, D = g->naxes;
    const int gi = inv ? G - 1 - i : i, K0 = levels_before(p, gi), F = levels_of(p, gi), K1 = K0 + F;
    memset(k, 0, sizeof *k);
    k->w = s->w;
    k->D = D, k->F = F, k->inverse = inv, k->nbd = g->rank - D, k->ninner = inner_dims(p);
    for (int d = 0; d < g->axes[0]; d++) k->bshape[d] = g->shape[d];
    if (k->ninner) k->bshape[k->nbd - 1] = g->shape[g->rank - 1];
    for (int a = 0; a < D; a++) k->n[a] = g->shape[g->axes[a]] >> K0;
    const int map = block_map(p, s, F, k->n[D - 1]);
    k->wide = map >= 1, k->strided = map == 2;
    /* the coefficients: out (forward) or in (inverse), or the bands */
    const coefs c = {inv ? in : out, bands};
    for (int j = 0; j < F; j++)
        for (int m = 1; m < (1 << D); m++) k->band[j][m - 1] = coef_band(p, &c, K0 + j + 1, m, s->esize);
    /* the level-K0 samples: the array's own, or the previous launch's lowpass; the level-K1 lowpass:
     * the transform's own, or the next launch's input */
    const lwk_view lo0 = gi == 0 ? grid_view(p, inv ? out : in, 0) : between(p, s, out, scratch, K0, gi - 1);
    const lwk_view lo1 = gi == G - 1 ? coef_low(p, &c) : between(p, s, out, scratch, K1, gi);
    k->src = inv ? lo1 : lo0;
    k->dst = inv ? lo0 : lo1;
    /* interleaved: a block's coefficients are the coefficient array's grid of level K0 over the block */
    k->whole = p->cfg.layout == LW_INTERLEAVED && !bands;
    k->low_apart = k->whole && inv && gi != G - 1 && in != out;
    k->coef = grid_view(p, c.arr, K0);
    local_variant(p, s, k);
    kernel_order(p, &k->src), kernel_order(p, &k->dst), kernel_order(p, &k->coef);
    for (int j = 0; j < F; j++)
        for (int m = 1; m < (1 << D); m++) kernel_order(p, &k->band[j][m - 1]);
    k->src.al = view_align(&k->src, g->rank, s->esize);
    k->dst.al = view_align(&k->dst, g->rank, s->esize);
    k->coef.al = view_align(&k->coef, g->rank, s->esize);
    for (int j = 0; j < F; j++)
        for (int m = 1; m < (1 << D); m++) k->band[j][m - 1].al = view_align(&k->band[j][m - 1], g->rank, s->esize);
}

lw_status lw_local_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, const lw_band *bands,
                       void *scratch, cudaStream_t st)
{
    for (int i = 0; i < launches(p); i++) {
        lwk_local k;
        lw_local_launch_at(p, s, i, in, out, bands, scratch, &k);
        CK(lwk_local_launch(s->dtype, &k, st), "cuda local kernel launch");
    }
    return LW_OK;
}
