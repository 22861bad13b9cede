/* The fused multi-level 2-D engine (k_stream2d.cu) inside the tile2d plans:
 * which levels of a pyramid it runs, a launch at a time up to
 * LWK_STREAM2D_LMAX levels, and that launch.  The tile2d level loops
 * (cuda_exec.c, bands_exec.c) hand it a group where st_len says so. */
#include "cuda_exec.h"

#include <string.h>

/* Batches of at least this many planes take it by default: a block runs one
 * plane, so fewer planes leave SMs idle (tuning stream2d=on takes it for any). */
#define LW_STREAM2D_AUTO_PLANES 96

void lw_stream2d_plan(const lw_plan *p, lw_cuda_sched *s)
{
    memset(s->st_len, 0, sizeof s->st_len);
    const lw_geometry *g = &p->geo;
    const int mode = p->tune.stream2d;
    const lw_direction d = p->cfg.direction;
    if (mode == LW_STREAM2D_OFF || s->engine != LWE_TILE2D || g->naxes != 2 || p->cfg.mode != LW_PERIODIC ||
        p->cfg.integer || (d != LW_FORWARD && d != LW_INVERSE))
        return;
    if (mode == LW_STREAM2D_AUTO && s->nbatch < LW_STREAM2D_AUTO_PLANES) return;
    const int L = g->levels, ks = s->small_from;
    for (int k = 0; k < ks;) {
        int f = ks - k < LWK_STREAM2D_LMAX ? ks - k : LWK_STREAM2D_LMAX;
        while (f > 0 && !lwk_stream2d_supported(s->dtype, &s->w, LW_PERIODIC, g->len[k][0], g->len[k][1], f)) f--;
        /* a group between two workspace bands reads and writes the same one
         * (level m's lowpass lives at scr_off[m % 2]) unless it runs an odd
         * number of levels */
        if (f % 2 == 0 && f > 0 && k >= 1 && k + f < L) f--;
        if (mode == LW_STREAM2D_AUTO && f < 2) f = 0;
        if (!f) {
            k++;
            continue;
        }
        s->st_len[k] = (signed char)f;
        k += f;
    }
    if (s->st_len[0] && (s->fwd_bands || s->inv_bands)) {
        /* level 1 runs in the group, not in row bands (which kept the lowpass
         * workspace inside in / out): the workspace is the scratch again */
        s->fwd_bands = s->inv_bands = 0;
        s->scratch = lw_cuda_tile2d_ll_bytes(p, s);
    }
    if (s->st_len[0] == L) s->scratch = 0; /* one launch: no lowpass band leaves the chip */
}

int lw_stream2d_levels(const lw_cuda_sched *s)
{
    int n = 0;
    for (int k = 0; k < LW_MAX_LEVELS; k++) n += s->st_len[k];
    return n;
}

int lw_stream2d_group_at(const lw_cuda_sched *s, int k)
{
    for (int k0 = k; k0 >= 0 && k0 > k - LWK_STREAM2D_LMAX; k0--)
        if (s->st_len[k0]) return k0 + s->st_len[k0] - 1 == k ? k0 : -1;
    return -1;
}

lw_status lw_stream2d_launch(const lw_plan *p, const lw_cuda_sched *s, int k, lwk_plane img, lwk_plane low,
                             const lwk_plane *det, cudaStream_t st)
{
    lwk_tile2d tt;
    lw_cuda_tile_setup(p, s, k, &tt);
    lwk_stream2d t;
    memset(&t, 0, sizeof t);
    t.w = s->w;
    t.rows = tt.rows, t.cols = tt.cols;
    t.blen[0] = tt.blen[0], t.blen[1] = tt.blen[1];
    t.levels = s->st_len[k];
    t.img = img, t.low = low;
    for (int j = 0; j < t.levels; j++) t.det[j] = det[j];
    CK(lwk_stream2d_run(s->dtype, p->cfg.direction == LW_INVERSE, &t, st), "cuda stream2d kernel launch");
    return LW_OK;
}
