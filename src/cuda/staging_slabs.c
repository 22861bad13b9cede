/* 3-D volumes from host memory, level 1 in slabs of planes along axis 0
 * (staging.h: lw_slabs), so that the upload, the transform and the download
 * overlap.  Slab k runs on stream k % 3; it transforms input planes
 * [e0, e1) as a volume of its own (a plan of that shape) and keeps the
 * output planes of its core [z0, z1), which the artificial edges at e0 and
 * e1 do not reach.
 *
 * Forward: the input goes up plane by plane into d_in, in order; slab k's
 * plan reads d_in from plane e0 and writes its slab-local Mallat output into
 * d_sout; the core's lowpass planes (global z0/2 .. (z1+1)/2) and highpass
 * planes (global hd + z0/2 .. hd + z1/2) come down from there.
 * Inverse: the lowpass and highpass planes a slab needs go up into d_in at
 * their places; the slab's input (its lowpass planes, then its highpass
 * ones) is gathered into d_sin on the device, its plan writes d_sout, and
 * the core planes [z0, z1) come down.
 * Pyramids: level 1 so, with the lowpass octant (hd x hr x hc) of each
 * slab's core gathered compact into d_ll instead of coming down; levels
 * 2..L run on it (the tail plan) once every slab has, and the octant comes
 * down last (1/8 of the data moving alone).  The inverse sends the octant
 * up first, runs levels L..2 on it, and each slab's gather takes its
 * lowpass octant part from there. 
 * A slab's first planes were uploaded by the slab before it (other stream):
 * each slab waits for the previous slab's upload event before its plan. */
#include "staging_exec.h"

#include <string.h>

int lw_host_slab_configs(const lw_plan *p, int64_t want, lw_slabs *sl, lw_config cfg[3], lw_config *tail)
{
    const lw_geometry *g = &p->geo;
    const char *sch = p->cfg.scheme;
    if ((p->cfg.flags & LW_FLAG_DEVICE_POINTERS) || g->rank != 3 || g->naxes != 3 || g->levels < 1) return 0;
    if (p->cfg.layout != LW_MALLAT || p->cfg.mode == LW_PERIODIC || !p->wav->separable) return 0;
    if (lw_dir_adjoint(p->cfg.direction)) return 0; /* the slab layout is that of the forward and inverse */
    if (sch && *sch && strcmp(sch, "auto")) return 0; /* an engine asked for: it runs the whole volume */
    if (want == 1 || want == 2) return 0;             /* tuning host_slabs: off */
    if (lw_slabs_plan(g->shape[0], p->wav->halo, want > 0 ? want : 16, sl) != 0) return 0;
    for (int k = 0; k < 3; k++) {
        lw_config *c = &cfg[k];
        lw_host_sub_config(p, c);
        int64_t z0, z1, e0, e1;
        lw_slab_at(sl, k == 0 ? 0 : k == 1 ? 1 : sl->n - 1, &z0, &z1, &e0, &e1);
        c->rank = 3;
        c->shape[0] = e1 - e0, c->shape[1] = g->shape[1], c->shape[2] = g->shape[2];
        c->layout = LW_MALLAT, c->levels = 1;
        /* forward plans read d_in in place (the next slab needs those planes); inverse ones read d_sin */
        c->flags = LW_FLAG_DEVICE_POINTERS | (p->cfg.direction == LW_INVERSE ? LW_FLAG_DESTROY_INPUT : 0);
    }
    lw_config_init(tail);
    if (g->levels >= 2) { /* levels 2..L on the compact lowpass octant (ours: it may be destroyed) */
        *tail = cfg[0];
        for (int a = 0; a < 3; a++) tail->shape[a] = g->len[1][a];
        tail->levels = g->levels - 1;
        tail->flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_DESTROY_INPUT;
    }
    return 1;
}

/* planes [a, b) of `plane` bytes each, host and device at the same offsets */
static lw_status up_planes(lw_host_call *h, lw_host_ups *u, const void *in, void *d, int64_t a, int64_t b,
                           size_t plane, cudaStream_t st)
{
    if (b <= a) return LW_OK;
    lw_box x = lw_box_linear((size_t)(b - a) * plane);
    return lw_host_up_begin(h, u, &x, (const char *)in + (size_t)a * plane, (char *)d + (size_t)a * plane, st);
}

/* device planes [a, b) of d to host planes from `to` */
static lw_status down_planes(lw_host_call *h, void *out, int64_t to, const void *d, int64_t a, int64_t b,
                             size_t plane, cudaStream_t st)
{
    if (b <= a) return LW_OK;
    lw_box x = lw_box_linear((size_t)(b - a) * plane);
    return lw_stage_down(h->stg, &x, (char *)out + (size_t)to * plane, (const char *)d + (size_t)a * plane, h->dout,
                         st);
}

/* the lowpass planes [a, b) of a level-1 output (d, planes from da) whose
 * octant part (rows < hr, columns < hc) stays on the device: rows [hr, R)
 * whole, and rows [0, hr) from column hc on */
static lw_status down_lowpass_rest(lw_host_call *h, void *out, int64_t a, const void *d, int64_t da, int64_t n,
                                   cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[1], C = g->shape[2], hr = g->len[1][1], hc = g->len[1][2];
    const size_t es = h->s->esize, pitch = (size_t)C * es, plane = (size_t)R * pitch;
    if (n <= 0) return LW_OK;
    char *ho = (char *)out + (size_t)a * plane;
    const char *dv = (const char *)d + (size_t)da * plane;
    lw_box lo = {(size_t)(R - hr) * pitch, 1, n, plane, plane, plane, plane};
    LW_TRY(lw_stage_down(h->stg, &lo, ho + (size_t)hr * pitch, dv + (size_t)hr * pitch, h->dout, st));
    lw_box hi = {(size_t)(C - hc) * es, hr, n, pitch, plane, pitch, plane};
    return lw_stage_down(h->stg, &hi, ho + (size_t)hc * es, dv + (size_t)hc * es, h->dout, st);
}

static lw_status up_lowpass_rest(lw_host_call *h, lw_host_ups *u, const void *in, void *d, int64_t a, int64_t b,
                                 cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[1], C = g->shape[2], hr = g->len[1][1], hc = g->len[1][2];
    const size_t es = h->s->esize, pitch = (size_t)C * es, plane = (size_t)R * pitch;
    if (b <= a) return LW_OK;
    const char *hi_ = (const char *)in + (size_t)a * plane;
    char *dv = (char *)d + (size_t)a * plane;
    lw_box lo = {(size_t)(R - hr) * pitch, 1, b - a, plane, plane, plane, plane};
    LW_TRY(lw_host_up_begin(h, u, &lo, hi_ + (size_t)hr * pitch, dv + (size_t)hr * pitch, st));
    lw_box hb = {(size_t)(C - hc) * es, hr, b - a, pitch, plane, pitch, plane};
    return lw_host_up_begin(h, u, &hb, hi_ + (size_t)hc * es, dv + (size_t)hc * es, st);
}

/* the octant part of n lowpass planes: between a level-1 layout (pitch C,
 * plane R*C) and the compact octant (pitch hc, plane hr*hc) on the device */
static cudaError_t octant_copy(const lw_host_call *h, void *oct, int64_t oz, const void *full, int64_t fz, int64_t n,
                               int to_octant, cudaStream_t st)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[1], C = g->shape[2], hr = g->len[1][1], hc = g->len[1][2];
    const size_t es = h->s->esize, fp = (size_t)C * es, fpl = (size_t)R * fp, op = (size_t)hc * es,
                 opl = (size_t)hr * op;
    char *o = (char *)oct + (size_t)oz * opl, *f = (char *)full + (size_t)fz * fpl;
    if (to_octant) return lw_copy_box(o, op, opl, f, fp, fpl, op, hr, n, cudaMemcpyDeviceToDevice, st);
    return lw_copy_box(f, fp, fpl, o, op, opl, op, hr, n, cudaMemcpyDeviceToDevice, st);
}

static lw_box octant_box(const lw_host_call *h)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t R = g->shape[1], C = g->shape[2];
    const size_t es = h->s->esize, hc = (size_t)g->len[1][2] * es;
    lw_box b = {hc, g->len[1][1], g->len[1][0], (size_t)C * es, (size_t)(R * C) * es, hc, hc * (size_t)g->len[1][1]};
    return b;
}

/* What slab k reads that no slab before it uploaded, begun on its stream;
 * done[]: planes uploaded so far (forward: input planes; inverse: lowpass,
 * highpass planes) */
static lw_status slab_up(lw_host_call *h, const void *in, int64_t k, int64_t done[2], lw_host_ups *u)
{
    const lw_geometry *g = &h->p->geo;
    const int64_t hd = (g->shape[0] + 1) / 2;
    const size_t plane = (size_t)(g->shape[1] * g->shape[2]) * h->s->esize;
    cudaStream_t st = h->st[k % 3];
    int64_t z0, z1, e0, e1;
    lw_slab_at(h->sl, k, &z0, &z1, &e0, &e1);
    if (h->p->cfg.direction != LW_INVERSE) {
        LW_TRY(up_planes(h, u, in, h->d_in, done[0], e1, plane, st));
        done[0] = e1;
        return LW_OK;
    }
    const int64_t l1 = (e1 + 1) / 2, h1 = e1 / 2;
    if (h->tail) LW_TRY(up_lowpass_rest(h, u, in, h->d_in, done[0], l1, st));
    else LW_TRY(up_planes(h, u, in, h->d_in, done[0], l1, plane, st));
    const void *in_h = (const char *)in + (size_t)hd * plane;
    LW_TRY(up_planes(h, u, in_h, (char *)h->d_in + (size_t)hd * plane, done[1], h1, plane, st));
    done[0] = l1, done[1] = h1;
    return LW_OK;
}

lw_status lw_host_run_slabs(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const lw_slabs *sl = h->sl;
    const int64_t D = g->shape[0], hd = (D + 1) / 2;
    const size_t plane = (size_t)(g->shape[1] * g->shape[2]) * h->s->esize;
    const int inv = h->p->cfg.direction == LW_INVERSE, pyr = h->tail != NULL;
    int64_t done[2] = {0, 0};
    lw_host_ups u[2] = {{{0}, 0}, {{0}, 0}};
    if (pyr && inv) { /* the octant first, and levels L..2 on it */
        lw_box ob = octant_box(h);
        LW_TRY(lw_stage_up(h->stg, &ob, in, h->d_ll, h->din, h->st[0]));
        LW_TRY(slab_up(h, in, 0, done, &u[0]));
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, h->d_ll, h->d_ll2, h->d_scr, h->st[0]));
    } else {
        LW_TRY(slab_up(h, in, 0, done, &u[0]));
    }
    for (int64_t k = 0; k < sl->n; k++) {
        const int q = (int)(k % 3), kind = lw_slab_kind(sl, k);
        cudaStream_t st = h->st[q];
        int64_t z0, z1, e0, e1;
        lw_slab_at(sl, k, &z0, &z1, &e0, &e1);
        const int64_t m = e1 - e0, ml = (m + 1) / 2; /* slab planes, its lowpass planes */
        if (k + 1 < sl->n) LW_TRY(slab_up(h, in, k + 1, done, &u[(k + 1) % 2]));
        LW_TRY(lw_host_ups_end(h, &u[k % 2]));
        if (k > 0) CK(cudaStreamWaitEvent(st, h->ev[(k - 1) % 3], 0), "cudaStreamWaitEvent");
        CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
        void *so = h->d_sout[q];
        if (!inv) {
            LW_TRY(lw_cuda_run(h->slab[kind], h->slab_s[kind], (const char *)h->d_in + (size_t)e0 * plane, so,
                               h->d_sscr[q], st));
            /* the core's lowpass planes (pyramid: their octant part to d_ll), then its highpass planes */
            const int64_t a = z0 / 2, n = (z1 + 1) / 2 - z0 / 2, la = a - e0 / 2;
            if (pyr) {
                CK(octant_copy(h, h->d_ll, a, so, la, n, 1, st), "cudaMemcpy3DAsync (lowpass octant)");
                LW_TRY(down_lowpass_rest(h, out, a, so, la, n, st));
            } else {
                LW_TRY(down_planes(h, out, a, so, la, la + n, plane, st));
            }
            LW_TRY(down_planes(h, out, hd + z0 / 2, so, ml + z0 / 2 - e0 / 2, ml + z1 / 2 - e0 / 2, plane, st));
        } else {
            char *si = h->d_sin[q];
            CK(cudaMemcpyAsync(si, (const char *)h->d_in + (size_t)(e0 / 2) * plane, (size_t)ml * plane,
                               cudaMemcpyDeviceToDevice, st),
               "cudaMemcpyAsync (slab lowpass)");
            CK(cudaMemcpyAsync(si + (size_t)ml * plane, (const char *)h->d_in + (size_t)(hd + e0 / 2) * plane,
                               (size_t)(m - ml) * plane, cudaMemcpyDeviceToDevice, st),
               "cudaMemcpyAsync (slab highpass)");
            if (pyr) /* the slab's lowpass octant part, from levels L..2 (the first slab waits for it on stream 0) */
                CK(octant_copy(h, h->d_ll2, e0 / 2, si, 0, ml, 0, st), "cudaMemcpy3DAsync (lowpass octant)");
            LW_TRY(lw_cuda_run(h->slab[kind], h->slab_s[kind], si, so, h->d_sscr[q], st));
            LW_TRY(down_planes(h, out, z0, so, z0 - e0, z1 - e0, plane, st));
        }
    }
    if (pyr && !inv) { /* levels 2..L on the octant once every slab has written its part, then the octant down */
        LW_TRY(lw_host_join(h, 0));
        LW_TRY(lw_cuda_run(h->tail, h->tail_s, h->d_ll, h->d_ll2, h->d_scr, h->st[0]));
        lw_box ob = octant_box(h);
        LW_TRY(lw_stage_down(h->stg, &ob, out, h->d_ll2, h->dout, h->st[0]));
    }
    return lw_host_finish(h);
}
