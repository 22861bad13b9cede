/* The CUDA backend's mover for the out-of-core streaming (ooc_cuda.h). */
#include "ooc_cuda.h"

#include <stdio.h>
#include <string.h>

void lw_ooc_subs_init(lw_ooc_subs *k)
{
    memset(k, 0, sizeof *k);
    pthread_mutex_init(&k->mu, NULL);
}

void lw_ooc_subs_free(lw_ooc_subs *k)
{
    for (int i = 0; i < k->n; i++) lw_destroy(k->e[i].plan);
    k->n = 0;
    pthread_mutex_destroy(&k->mu);
}

/* the fields that make a sub-plan, pointers left out (the scheme is compared by name) */
static lw_config key_of(const lw_config *c)
{
    lw_config k;
    memset(&k, 0, sizeof k);
    k.rank = c->rank, k.naxes = c->naxes;
    for (int d = 0; d < c->rank; d++) k.shape[d] = c->shape[d];
    for (int a = 0; a < c->naxes; a++) k.axes[a] = c->axes[a];
    k.dtype = c->dtype, k.wavelet = c->wavelet, k.mode = c->mode, k.layout = c->layout, k.levels = c->levels;
    k.direction = c->direction, k.integer = c->integer, k.backend = c->backend, k.flags = c->flags;
    k.threads = c->threads, k.gain[0] = c->gain[0], k.gain[1] = c->gain[1];
    return k;
}

static lw_status make_sub(void *ctx, lw_config *cfg, lw_plan **sub, size_t *scr)
{
    lw_ooc_cuda *c = ctx;
    cfg->backend = LW_BACKEND_CUDA;
    cfg->flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_EXTERNAL_SCRATCH;
    if (!c || !c->subs) {
        LW_TRY(lw_plan_create(sub, cfg));
        *scr = lw_cuda_sub_scratch(*sub);
        return LW_OK;
    }
    lw_ooc_subs *k = c->subs;
    const lw_config key = key_of(cfg);
    const char *scheme = cfg->scheme ? cfg->scheme : "";
    lw_status st = LW_OK;
    pthread_mutex_lock(&k->mu);
    int i = 0;
    while (i < k->n && (memcmp(&k->e[i].key, &key, sizeof key) || strcmp(k->e[i].scheme, scheme))) i++;
    if (i < k->n) {
        *sub = k->e[i].plan, *scr = k->e[i].scr;
    } else {
        st = lw_plan_create(sub, cfg);
        if (st == LW_OK) *scr = lw_cuda_sub_scratch(*sub);
        if (st == LW_OK && k->n < LW_OOC_KEEP && strlen(scheme) < sizeof k->e[0].scheme) {
            k->e[k->n].key = key, k->e[k->n].plan = *sub, k->e[k->n].scr = *scr;
            strcpy(k->e[k->n].scheme, scheme);
            k->n++;
        }
    }
    pthread_mutex_unlock(&k->mu);
    return st;
}

static void drop_sub(void *ctx, lw_plan *sub)
{
    lw_ooc_cuda *c = ctx;
    int kept = 0;
    if (c && c->subs) {
        pthread_mutex_lock(&c->subs->mu);
        for (int i = 0; i < c->subs->n && !kept; i++) kept = c->subs->e[i].plan == sub;
        pthread_mutex_unlock(&c->subs->mu);
    }
    if (!kept) lw_destroy(sub);
}

static lw_status alloc(void *ctx, void **p, size_t bytes, const char *what)
{
    (void)ctx;
    lw_status st = lw_cuda_alloc(p, bytes, what);
    if (st == LW_ERR_DEVICE_OUT_OF_MEMORY) { /* the budget was larger than what is free now */
        char msg[400];
        snprintf(msg, sizeof msg, "%s", lw_last_error());
        return lw_fail(st, "out of core: %s; lower device_memory_limit", msg);
    }
    return st;
}

static void release(void *ctx, void *p)
{
    (void)ctx;
    if (p) cudaFree(p);
}

/* a host pointer of the call goes straight through the copy engines when its array does */
static int direct(const lw_ooc_cuda *c, const void *h)
{
    const char *x = h;
    if (x >= c->in && x < c->in + c->bytes) return c->din;
    if (x >= c->out && x < c->out + c->bytes) return c->dout;
    return 0;
}

/* the stager's box of an upload (host source, device destination) or a download */
static lw_box stage_box(const lw_ooc_box *b, int up)
{
    lw_box x;
    x.row = b->row, x.ny = b->ny, x.nz = b->nz;
    if (up) x.hpitch = b->spitch, x.hplane = b->splane, x.dpitch = b->dpitch, x.dplane = b->dplane;
    else x.hpitch = b->dpitch, x.hplane = b->dplane, x.dpitch = b->spitch, x.dplane = b->splane;
    return x;
}

static lw_status copy(void *ctx, int kind, void *dst, const void *src, const lw_ooc_box *b, int q)
{
    lw_ooc_cuda *c = ctx;
    if (kind == LW_OOC_D2D) {
        CK(lw_copy_box(dst, b->dpitch, b->dplane, src, b->spitch, b->splane, b->row, b->ny, b->nz,
                       cudaMemcpyDeviceToDevice, c->st[q]),
           "cudaMemcpyAsync (device to device, out of core)");
        return LW_OK;
    }
    const lw_box x = stage_box(b, kind == LW_OOC_UP);
    if (kind == LW_OOC_UP) return lw_stage_up(c->stg, &x, src, dst, direct(c, src), c->st[q]);
    return lw_stage_down(c->stg, &x, dst, src, direct(c, dst), c->st[q]);
}

/* end the begun upload i (the list keeps its order) */
static lw_status end_up(lw_ooc_cuda *c, int i)
{
    const lw_stage_ticket t = c->ups[i];
    for (int j = i + 1; j < c->nups; j++) c->ups[j - 1] = c->ups[j], c->upq[j - 1] = c->upq[j];
    c->nups--;
    return lw_stage_up_end(c->stg, t);
}

static lw_status up_begin(void *ctx, void *dst, const void *src, const lw_ooc_box *b, int q)
{
    lw_ooc_cuda *c = ctx;
    const int cap = (int)(sizeof c->ups / sizeof c->ups[0]);
    if (c->nups == cap) LW_TRY(end_up(c, 0)); /* the oldest first: the stager's limit */
    const lw_box x = stage_box(b, 1);
    lw_stage_ticket t = 0;
    LW_TRY(lw_stage_up_begin(c->stg, &x, src, dst, direct(c, src), c->st[q], &t));
    if (t) c->ups[c->nups] = t, c->upq[c->nups++] = q;
    return LW_OK;
}

static lw_status ups_end(void *ctx, int q)
{
    lw_ooc_cuda *c = ctx;
    lw_status r = LW_OK;
    for (int i = 0; i < c->nups;) {
        if (q >= 0 && c->upq[i] != q) {
            i++;
            continue;
        }
        const lw_status e = end_up(c, i);
        if (r == LW_OK) r = e;
    }
    return r;
}

static lw_status run(void *ctx, const lw_plan *sub, const void *in, void *out, void *scr, int q)
{
    lw_ooc_cuda *c = ctx;
    return lw_cuda_run_sub(sub, in, out, scr, c->st[q]);
}

static lw_status record(void *ctx, int ev, int q)
{
    lw_ooc_cuda *c = ctx;
    CK(cudaEventRecord(c->ev[ev], c->st[q]), "cudaEventRecord");
    return LW_OK;
}

static lw_status wait(void *ctx, int ev, int q)
{
    lw_ooc_cuda *c = ctx;
    CK(cudaStreamWaitEvent(c->st[q], c->ev[ev], 0), "cudaStreamWaitEvent");
    return LW_OK;
}

static lw_status finish(void *ctx)
{
    lw_ooc_cuda *c = ctx;
    LW_TRY(ups_end(c, -1)); /* every upload still begun */
    LW_TRY(lw_stage_drain(c->stg));
    for (int q = 0; q < LW_OOC_QUEUES; q++) CK(cudaStreamSynchronize(c->st[q]), "out-of-core transform or copy");
    return LW_OK;
}

void lw_ooc_cuda_mover(lw_ooc_cuda *c, size_t budget, lw_ooc_mover *m)
{
    memset(m, 0, sizeof *m);
    m->ctx = c, m->budget = budget;
    m->make_sub = make_sub, m->drop_sub = drop_sub, m->alloc = alloc, m->release = release, m->copy = copy, m->run = run;
    m->record = record, m->wait = wait, m->finish = finish, m->up_begin = up_begin, m->ups_end = ups_end;
}
