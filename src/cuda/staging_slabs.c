/* One-level 3-D volumes from host memory in slabs of planes along axis 0
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
 * A slab's first planes were uploaded by the slab before it (other stream):
 * each slab waits for the previous slab's upload event before its plan. */
#include "staging_exec.h"

#include <string.h>

int lw_host_slab_configs(const lw_plan *p, int64_t want, lw_slabs *sl, lw_config cfg[3])
{
    const lw_geometry *g = &p->geo;
    const char *sch = p->cfg.scheme;
    if ((p->cfg.flags & LW_FLAG_DEVICE_POINTERS) || g->rank != 3 || g->naxes != 3 || g->levels != 1) return 0;
    if (p->cfg.layout != LW_MALLAT || p->cfg.mode == LW_PERIODIC || !p->wav->separable) return 0;
    if (sch && *sch && strcmp(sch, "auto")) return 0; /* an engine asked for: it runs the whole volume */
    if (want == 1 || want == 2) return 0;             /* tuning host_slabs: off */
    if (lw_slabs_plan(g->shape[0], p->wav->halo, want > 0 ? want : 16, sl) != 0) return 0;
    for (int k = 0; k < 3; k++) {
        lw_config *c = &cfg[k];
        lw_config_init(c);
        int64_t z0, z1, e0, e1;
        lw_slab_at(sl, k == 0 ? 0 : k == 1 ? 1 : sl->n - 1, &z0, &z1, &e0, &e1);
        c->rank = 3;
        c->shape[0] = e1 - e0, c->shape[1] = g->shape[1], c->shape[2] = g->shape[2];
        c->dtype = p->cfg.dtype, c->wavelet = p->cfg.wavelet, c->mode = p->cfg.mode, c->layout = LW_MALLAT;
        c->levels = 1, c->direction = p->cfg.direction, c->integer = p->cfg.integer;
        c->backend = LW_BACKEND_CUDA;
        /* forward plans read d_in in place (the next slab needs those planes); inverse ones read d_sin */
        c->flags = LW_FLAG_DEVICE_POINTERS | (p->cfg.direction == LW_INVERSE ? LW_FLAG_DESTROY_INPUT : 0);
    }
    return 1;
}

/* planes [a, b) of `plane` bytes each, host and device at the same offsets */
static lw_status up_planes(lw_host_call *h, const void *in, void *d, int64_t a, int64_t b, size_t plane,
                           cudaStream_t st)
{
    if (b <= a) return LW_OK;
    lw_box x = lw_box_linear((size_t)(b - a) * plane);
    return lw_stage_up(h->stg, &x, (const char *)in + (size_t)a * plane, (char *)d + (size_t)a * plane, h->din, st);
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

lw_status lw_host_run_slabs(lw_host_call *h, const void *in, void *out)
{
    const lw_geometry *g = &h->p->geo;
    const lw_slabs *sl = h->sl;
    const int64_t D = g->shape[0], hd = (D + 1) / 2;
    const size_t plane = (size_t)(g->shape[1] * g->shape[2]) * h->s->esize;
    const int inv = h->p->cfg.direction == LW_INVERSE;
    int64_t up = 0, upl = 0, uph = 0; /* planes uploaded: forward; inverse lowpass, highpass */
    for (int64_t k = 0; k < sl->n; k++) {
        const int q = (int)(k % 3), kind = lw_slab_kind(sl, k);
        cudaStream_t st = h->st[q];
        int64_t z0, z1, e0, e1;
        lw_slab_at(sl, k, &z0, &z1, &e0, &e1);
        const int64_t m = e1 - e0, ml = (m + 1) / 2; /* slab planes, its lowpass planes */
        if (!inv) {
            LW_TRY(up_planes(h, in, h->d_in, up, e1, plane, st));
            up = e1;
        } else {
            int64_t l1 = (e1 + 1) / 2, h1 = e1 / 2;
            LW_TRY(up_planes(h, in, h->d_in, upl, l1, plane, st));
            const void *in_h = (const char *)in + (size_t)hd * plane;
            LW_TRY(up_planes(h, in_h, (char *)h->d_in + (size_t)hd * plane, uph, h1, plane, st));
            upl = l1, uph = h1;
        }
        if (k > 0) CK(cudaStreamWaitEvent(st, h->ev[(k - 1) % 3], 0), "cudaStreamWaitEvent");
        CK(cudaEventRecord(h->ev[q], st), "cudaEventRecord");
        void *so = h->d_sout[q];
        if (!inv) {
            LW_TRY(lw_cuda_run(h->slab[kind], h->slab_s[kind], (const char *)h->d_in + (size_t)e0 * plane, so,
                               h->d_sscr[q], st));
            /* the core's lowpass planes, then its highpass planes */
            LW_TRY(down_planes(h, out, z0 / 2, so, z0 / 2 - e0 / 2, (z1 + 1) / 2 - e0 / 2, plane, st));
            LW_TRY(down_planes(h, out, hd + z0 / 2, so, ml + z0 / 2 - e0 / 2, ml + z1 / 2 - e0 / 2, plane, st));
        } else {
            char *si = h->d_sin[q];
            CK(cudaMemcpyAsync(si, (const char *)h->d_in + (size_t)(e0 / 2) * plane, (size_t)ml * plane,
                               cudaMemcpyDeviceToDevice, st),
               "cudaMemcpyAsync (slab lowpass)");
            CK(cudaMemcpyAsync(si + (size_t)ml * plane, (const char *)h->d_in + (size_t)(hd + e0 / 2) * plane,
                               (size_t)(m - ml) * plane, cudaMemcpyDeviceToDevice, st),
               "cudaMemcpyAsync (slab highpass)");
            LW_TRY(lw_cuda_run(h->slab[kind], h->slab_s[kind], si, so, h->d_sscr[q], st));
            LW_TRY(down_planes(h, out, z0, so, z0 - e0, z1 - e0, plane, st));
        }
    }
    return lw_host_finish(h);
}
