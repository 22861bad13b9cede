/* Runs one of the papers' 2-D schemes (lw_scheme.h) at every level of a
 * Mallat pyramid.  Levels after the first read the LL band of the previous
 * level from a compact scratch buffer (two alternate, as in the fused
 * engine); the scheme's own scratch follows them.  In place (in == out), the
 * input is first copied to scratch. */
#include "cuda_exec.h"
#include "lw_scheme.h"

#include <string.h>


static size_t align256(size_t n) { return (n + 255) & ~(size_t)255; }

static int64_t level_count(const lw_plan *p, int k) { return p->geo.len[k][0] * p->geo.len[k][1]; }

lw_status lw_cuda_choose_scheme(const lw_plan *p, lw_cuda_sched *s)
{
    const lw_geometry *g = &p->geo;
    const lwk_scheme *sc = lwk_scheme_find(p->scheme);
    if (!sc)
        return lw_fail(LW_ERR_UNSUPPORTED,
                       "unknown cuda scheme '%s' (auto, an engine or a paper's scheme: 'liftwave bench --scheme list')",
                       p->scheme);
    if (g->naxes != 2 || g->axes[1] != g->rank - 1 || g->rank - 2 > 2)
        return lw_fail(LW_ERR_UNSUPPORTED,
                       "scheme %s: 2-D transforms of the last two axes only (at most two batch dimensions)", sc->name);
    if (p->cfg.layout != LW_MALLAT) return lw_fail(LW_ERR_UNSUPPORTED, "scheme %s: mallat layout only", sc->name);
    if (p->cfg.gain[0] != 1.0 || p->cfg.gain[1] != 1.0)
        return lw_fail(LW_ERR_UNSUPPORTED, "scheme %s: the papers' schemes keep the wavelet's own scaling (gains 1)",
                       sc->name);
    if (p->cfg.direction == LW_INVERSE && !sc->has_inverse)
        return lw_fail(LW_ERR_UNSUPPORTED, "scheme %s has no inverse (the paper defines the forward transform only)",
                       sc->name);
    s->scheme = sc;
    size_t own = 0;
    for (int k = 0; k < g->levels; k++) {
        int64_t r = g->len[k][0], c = g->len[k][1];
        if (r < 2 || c < 2 || !sc->supported(sc, s->dtype, &s->w, (int)p->cfg.mode, r, c))
            return lw_fail(LW_ERR_UNSUPPORTED, "scheme %s does not support %s%s %s mode %s on %lldx%lld (level %d)",
                           sc->name, p->cfg.integer ? "integer " : "", lw_wavelet_name(p->cfg.wavelet),
                           lw_mode_name(p->cfg.mode), lw_dtype_name(p->cfg.dtype), (long long)r, (long long)c, k + 1);
        lwk_tile2d t;
        lw_cuda_tile_setup(p, s, k, &t);
        size_t b = sc->scratch_bytes ? sc->scratch_bytes(sc, s->dtype, &t) : 0;
        if (b > own) own = b;
    }
    size_t ll = 0;
    if (g->levels >= 2) {
        s->scr_off[1] = 0;
        s->scr_off[0] = align256((size_t)(s->nbatch * level_count(p, 1)) * s->esize);
        ll = s->scr_off[0] + (g->levels >= 3 ? (size_t)(s->nbatch * level_count(p, 2)) * s->esize : 0);
    }
    s->scheme_off = align256(ll);
    s->scratch = s->scheme_off + own;
    s->inplace_scratch = align256(s->scratch) + s->bytes;
    s->tmp_full = 0;
    return LW_OK;
}

lw_status lw_cuda_run_scheme(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                             cudaStream_t st)
{
    const lwk_scheme *sc = s->scheme;
    int L = p->geo.levels;
    void *own = (char *)scratch + s->scheme_off;
    if (in == out) {
        void *copy = (char *)scratch + align256(s->scratch);
        CK(cudaMemcpyAsync(copy, in, s->bytes, cudaMemcpyDeviceToDevice, st), "cudaMemcpyAsync");
        in = copy;
    }
    void *B[LW_MAX_LEVELS + 1];
    B[0] = out;
    for (int k = 1; k <= L; k++) B[k] = (char *)scratch + s->scr_off[k % 2];
    if (p->cfg.direction == LW_FORWARD) {
        lwk_plane src = lw_cuda_plane_of(p, in, 0, 0);
        for (int k = 0; k < L; k++) {
            lwk_tile2d t;
            lw_cuda_tile_setup(p, s, k, &t);
            lwk_plane det = lw_cuda_plane_of(p, out, k, 0);
            lwk_plane ll = k == L - 1 ? det : lw_cuda_plane_of(p, B[k + 1], k + 1, 1);
            CK(sc->forward(sc, s->dtype, &t, src, ll, det, own, st), sc->name);
            src = ll;
        }
        return LW_OK;
    }
    for (int k = L - 1; k >= 0; k--) {
        lwk_tile2d t;
        lw_cuda_tile_setup(p, s, k, &t);
        lwk_plane det = lw_cuda_plane_of(p, in, k, 0);
        lwk_plane ll = k == L - 1 ? det : lw_cuda_plane_of(p, B[k + 1], k + 1, 1);
        lwk_plane dst = k == 0 ? lw_cuda_plane_of(p, out, 0, 0) : lw_cuda_plane_of(p, B[k], k, 1);
        CK(sc->inverse(sc, s->dtype, &t, ll, det, dst, own, st), sc->name);
    }
    return LW_OK;
}
