/* The CUDA backend's mover for the out-of-core streaming (ooc_cuda.h). */
#include "ooc_cuda.h"

#include <stdio.h>
#include <string.h>

static lw_status make_sub(void *ctx, lw_config *cfg, lw_plan **sub, size_t *scr)
{
    (void)ctx;
    cfg->backend = LW_BACKEND_CUDA;
    cfg->flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_EXTERNAL_SCRATCH;
    LW_TRY(lw_plan_create(sub, cfg));
    *scr = lw_cuda_sub_scratch(*sub);
    return LW_OK;
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

static lw_status copy(void *ctx, int kind, void *dst, const void *src, const lw_ooc_box *b, int q)
{
    lw_ooc_cuda *c = ctx;
    if (kind == LW_OOC_D2D) {
        CK(lw_copy_box(dst, b->dpitch, b->dplane, src, b->spitch, b->splane, b->row, b->ny, b->nz,
                       cudaMemcpyDeviceToDevice, c->st[q]),
           "cudaMemcpyAsync (device to device, out of core)");
        return LW_OK;
    }
    lw_box x;
    x.row = b->row, x.ny = b->ny, x.nz = b->nz;
    if (kind == LW_OOC_UP) {
        x.hpitch = b->spitch, x.hplane = b->splane, x.dpitch = b->dpitch, x.dplane = b->dplane;
        return lw_stage_up(c->stg, &x, src, dst, direct(c, src), c->st[q]);
    }
    x.hpitch = b->dpitch, x.hplane = b->dplane, x.dpitch = b->spitch, x.dplane = b->splane;
    return lw_stage_down(c->stg, &x, dst, src, direct(c, dst), c->st[q]);
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
    LW_TRY(lw_stage_drain(c->stg));
    for (int q = 0; q < LW_OOC_QUEUES; q++) CK(cudaStreamSynchronize(c->st[q]), "out-of-core transform or copy");
    return LW_OK;
}

void lw_ooc_cuda_mover(lw_ooc_cuda *c, size_t budget, lw_ooc_mover *m)
{
    memset(m, 0, sizeof *m);
    m->ctx = c, m->budget = budget;
    m->make_sub = make_sub, m->alloc = alloc, m->release = release, m->copy = copy, m->run = run;
    m->record = record, m->wait = wait, m->finish = finish;
}
