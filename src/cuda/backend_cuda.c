/* The CUDA backend: plan / execute / destroy behind lw_backend_ops.
 *
 * Device pointers (LW_FLAG_DEVICE_POINTERS): execute enqueues the kernels on
 * the plan's stream and returns (asynchronous); the plan's scratch is shared
 * by calls on that stream, which run in order.
 * Host pointers: each call takes an execution context from the plan's pool
 * (device buffers, a stager, three streams) so that threads never share one;
 * the data moves through the copy engines, pinned memory directly and
 * pageable memory through the stager's ring (staging_ring.h) or registered
 * for the call, by the plan's tuning; scheduled against the kernels by
 * staging_exec.c (row bands for 2-D, one level or pyramids).  A host array
 * whose transform needs more device memory than the plan's budget streams
 * through it in slabs (ooc_cuda.c, src/core/ooc_run.c): its context holds
 * no device buffers, only the stager, the streams and the events. */
#include "bands_exec.h"
#include "cuda_exec.h"
#include "ooc_cuda.h"
#include "staging_exec.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_ndev;

static void probe(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        n = 0;
        cudaGetLastError();
    }
    g_ndev = n;
}

static int cuda_available(void)
{
    pthread_once(&g_once, probe);
    return g_ndev > 0;
}

typedef struct hctx {
    struct hctx *next;
    int busy;
    void *d_in, *d_out, *d_scr;
    void *d_ll, *d_ll2; /* 2-D pyramids: the level-1 lowpass band (staging_exec.h) */
    void *d_sin[3], *d_sout[3], *d_sscr[3]; /* 3-D slabs, per stream */
    lw_stager *stg;
    cudaStream_t st[3];
    cudaEvent_t ev[3];
    cudaEvent_t oev[LW_OOC_EVENTS]; /* out of core */
} hctx;

typedef struct cuda_impl {
    lw_cuda_sched s;
    int device;
    void *scratch;    /* device-pointer runs */
    void *ip_scratch; /* in-place device-pointer runs, allocated on first use */
    void *bd_scratch; /* lw_execute_bands' direct path where the plan's scratch is smaller, on first use */
    pthread_mutex_t mu;
    hctx *pool;
    lw_stage_cfg stage; /* host pointers: how pageable memory moves */
    lw_plan *tail;      /* host pointers, 2-D pyramids: levels 2..L on the lowpass band (band2: 3..L) */
    int band2;          /* host pointers, 2-D pyramids: level 2 in bands too (staging_exec.c) */
    size_t ll1_bytes;   /* band2: the level-1 lowpass band's bytes */
    lw_slabs sl;        /* host pointers, 3-D one level: slabs along axis 0 ... */
    lw_plan *slab[3];   /* ... and their plans by shape (none: slab[0] NULL) */
    int64_t per, groups; /* host pointers, batches: items per group, groups (slab[0], slab[1] their plans) */
    int inverse;
    lw_plan *tr; /* a periodic adjoint: the inverse / forward of the transposed steps (device pointers), which
                  * the fused engines run; NULL: the generic pass's transposed steps */
    int dev_in, dev_out; /* one side on the device (LW_FLAG_DEVICE_INPUT / _OUTPUT) */
    int ooc;           /* host pointers: the array streams through the device (out of core) ... */
    size_t ooc_budget; /* ... holding at most this many device bytes, */
    lw_ooc_subs ooc_subs; /* ... by sub-plans made once */
} cuda_impl;

lw_status lw_cuda_alloc(void **p, size_t bytes, const char *what)
{
    *p = NULL;
    if (!bytes) return LW_OK;
    cudaError_t e = cudaMalloc(p, bytes);
    if (e == cudaSuccess) return LW_OK;
    *p = NULL;
    cudaGetLastError();
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    return lw_fail(e == cudaErrorMemoryAllocation ? LW_ERR_DEVICE_OUT_OF_MEMORY : LW_ERR_CUDA,
                   "cannot allocate %zu bytes of device memory for %s (%zu of %zu bytes free): %s (%s)", bytes, what,
                   fr, tot, cudaGetErrorName(e), cudaGetErrorString(e));
}

static void ctx_free(hctx *c)
{
    if (!c) return;
    for (int i = 0; i < 3; i++) {
        if (c->st[i]) cudaStreamDestroy(c->st[i]);
        if (c->ev[i]) cudaEventDestroy(c->ev[i]);
    }
    for (int i = 0; i < LW_OOC_EVENTS; i++)
        if (c->oev[i]) cudaEventDestroy(c->oev[i]);
    lw_stager_free(c->stg);
    cudaFree(c->d_ll);
    cudaFree(c->d_ll2);
    for (int i = 0; i < 3; i++) cudaFree(c->d_sin[i]), cudaFree(c->d_sout[i]), cudaFree(c->d_sscr[i]);
    cudaFree(c->d_in);
    cudaFree(c->d_out);
    cudaFree(c->d_scr);
    free(c);
}

static lw_status ctx_new(const cuda_impl *im, hctx **out)
{
    hctx *c = calloc(1, sizeof *c);
    if (!c) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a cuda context");
    lw_status st = LW_OK;
    if (im->ooc) { /* streamed: the buffers come with each call, within the budget */
        for (int i = 0; i < LW_OOC_EVENTS && st == LW_OK; i++)
            st = lw_cuda_check(cudaEventCreateWithFlags(&c->oev[i], cudaEventDisableTiming), "cudaEventCreate");
        goto streams;
    }
    /* the output copy comes with the first call out of place (exec_host): in place needs none;
     * an input on the device is read where it is */
    if (!im->dev_in) st = lw_cuda_alloc(&c->d_in, im->s.bytes, "the input copy");
    size_t scr = im->s.scratch > im->s.inplace_scratch ? im->s.scratch : im->s.inplace_scratch, ll = 0;
    if (im->tr) { /* host calls run the transposed plan whole */
        const lw_cuda_sched *ts = &((const cuda_impl *)im->tr->impl)->s;
        if (ts->scratch > scr) scr = ts->scratch;
        if (ts->inplace_scratch > scr) scr = ts->inplace_scratch;
    }
    if (im->tail) { /* the tail plan's scratch shares d_scr; two compact lowpass bands (band2: the level-1 one
                     * and the level-2 one, each within the first's size) */
        const cuda_impl *ti = im->tail->impl;
        if (ti->s.scratch > scr) scr = ti->s.scratch;
        ll = im->band2 ? im->ll1_bytes : ti->s.bytes;
    }
    if (st == LW_OK) st = lw_cuda_alloc(&c->d_scr, scr, "the scratch buffer");
    if (st == LW_OK) st = lw_cuda_alloc(&c->d_ll, ll, "the lowpass band");
    if (st == LW_OK) st = lw_cuda_alloc(&c->d_ll2, ll, "the lowpass band");
    if (im->groups) { /* batches in groups: a scratch per stream */
        size_t ss = 0;
        for (int k = 0; k < 2; k++) {
            size_t x = ((const cuda_impl *)im->slab[k]->impl)->s.scratch;
            if (x > ss) ss = x;
        }
        for (int i = 0; i < 3 && st == LW_OK; i++) st = lw_cuda_alloc(&c->d_sscr[i], ss, "a group's scratch");
    } else if (im->slab[0]) { /* the longest slab is a middle one (Z + 2E planes) */
        size_t sb = ((const cuda_impl *)im->slab[1]->impl)->s.bytes, ss = 0;
        for (int k = 0; k < 3; k++) {
            size_t x = ((const cuda_impl *)im->slab[k]->impl)->s.scratch;
            if (x > ss) ss = x;
        }
        int inv = im->inverse;
        for (int i = 0; i < 3 && st == LW_OK; i++) {
            st = lw_cuda_alloc(&c->d_sout[i], sb, "a slab's output");
            if (st == LW_OK && inv) st = lw_cuda_alloc(&c->d_sin[i], sb, "a slab's input");
            if (st == LW_OK) st = lw_cuda_alloc(&c->d_sscr[i], ss, "a slab's scratch");
        }
    }
streams:
    for (int i = 0; i < 3 && st == LW_OK; i++) {
        st = lw_cuda_check(cudaStreamCreateWithFlags(&c->st[i], cudaStreamNonBlocking), "cudaStreamCreate");
        if (st == LW_OK)
            st = lw_cuda_check(cudaEventCreateWithFlags(&c->ev[i], cudaEventDisableTiming), "cudaEventCreate");
    }
    if (st == LW_OK) st = lw_stager_new(&im->stage, &c->stg);
    if (st != LW_OK) {
        ctx_free(c);
        return st;
    }
    *out = c;
    return LW_OK;
}

static lw_status ctx_acquire(cuda_impl *im, hctx **out)
{
    pthread_mutex_lock(&im->mu);
    for (hctx *c = im->pool; c; c = c->next)
        if (!c->busy) {
            c->busy = 1;
            pthread_mutex_unlock(&im->mu);
            *out = c;
            return LW_OK;
        }
    pthread_mutex_unlock(&im->mu);
    hctx *c = NULL;
    LW_TRY(ctx_new(im, &c));
    c->busy = 1;
    pthread_mutex_lock(&im->mu);
    c->next = im->pool;
    im->pool = c;
    pthread_mutex_unlock(&im->mu);
    *out = c;
    return LW_OK;
}

static void ctx_release(cuda_impl *im, hctx *c)
{
    pthread_mutex_lock(&im->mu);
    c->busy = 0;
    pthread_mutex_unlock(&im->mu);
}

/* ---- plan / destroy --------------------------------------------------------- */

static void cuda_destroy(lw_plan *plan)
{
    cuda_impl *im = plan->impl;
    if (!im) return;
    if (im->scratch || im->ip_scratch || im->bd_scratch || im->pool) cudaDeviceSynchronize();
    cudaFree(im->scratch);
    cudaFree(im->ip_scratch);
    cudaFree(im->bd_scratch);
    lw_cuda_sched_release(&im->s);
    lw_destroy(im->tr);
    lw_destroy(im->tail);
    if (im->ooc) lw_ooc_subs_free(&im->ooc_subs);
    for (int k = 0; k < 3; k++) lw_destroy(im->slab[k]);
    for (hctx *c = im->pool, *n; c; c = n) {
        n = c->next;
        ctx_free(c);
    }
    pthread_mutex_destroy(&im->mu);
    free(im);
    plan->impl = NULL;
}

/* A periodic adjoint of a separable float wavelet (the default engine choice)
 * is the inverse (forward's adjoint) or the forward (inverse's adjoint) of the
 * transposed steps (lw_wavelet_transpose): an internal device-pointer plan of
 * those takes the fused engines.  Without it (it fails only where the plan
 * itself would) the generic pass runs the transposed steps.  Not for the
 * orthonormal wavelets: their adjoints reach here only with band gains (else
 * they run as the inverse), and the kernels hold no transposed rows of theirs
 * (lwc_transposed_runs). */
static void transposed_plan(lw_plan *plan, cuda_impl *im)
{
    const lw_config *c = &plan->cfg;
    if (!lw_dir_adjoint(c->direction) || c->mode != LW_PERIODIC || !plan->wav->separable || c->integer ||
        plan->wav->orthonormal || strcmp(plan->scheme, "auto") != 0)
        return;
    lw_config t = *c;
    t.direction = c->direction == LW_FORWARD_ADJOINT ? LW_INVERSE : LW_FORWARD;
    t.flags = LW_FLAG_DEVICE_POINTERS | (c->flags & (LW_FLAG_IN_PLACE | LW_FLAG_EXTERNAL_SCRATCH));
    t.scheme = NULL;
    t.backend = LW_BACKEND_CUDA;
    lw_wavelet_def w;
    lw_wavelet_transpose(plan->wav, &w);
    if (lw_plan_create_with(&im->tr, &t, &w) != LW_OK) im->tr = NULL;
}

/* Host pointers: the device bytes a call holds in core (the array's copies,
 * out of place two; the workspace; a pyramid's lowpass bands), against the
 * budget: lw_config.device_memory_limit, or the free memory now less a
 * margin.  Over it, the calls stream (out of core). */
/* the out-of-core pass the plan's calls will make (in place with LW_FLAG_IN_PLACE), as
 * lw_ooc_describe's line; planning it makes the sub-plans the calls reuse */
static lw_status describe_ooc(const lw_plan *plan, const cuda_impl *im, char *line, size_t len)
{
    lw_ooc_cuda oc;
    memset(&oc, 0, sizeof oc);
    oc.subs = (lw_ooc_subs *)&im->ooc_subs;
    lw_ooc_mover m;
    lw_ooc_cuda_mover(&oc, im->ooc_budget, &m);
    return lw_ooc_describe(plan, &m, (plan->cfg.flags & LW_FLAG_IN_PLACE) != 0, line, len);
}

static lw_status choose_ooc(const lw_plan *plan, cuda_impl *im)
{
    const size_t n = im->s.bytes, scr = im->s.scratch > im->s.inplace_scratch ? im->s.scratch : im->s.inplace_scratch;
    const int only_in_place = (plan->cfg.flags & LW_FLAG_IN_PLACE) != 0;
    size_t need = (only_in_place ? n : 2 * n) + scr + (only_in_place ? 0 : n / 2);
    size_t budget = (size_t)plan->cfg.device_memory_limit;
    if (!budget) {
        size_t fr = 0, tot = 0;
        CK(cudaMemGetInfo(&fr, &tot), "cudaMemGetInfo");
        size_t margin = tot / 20 > ((size_t)256 << 20) ? tot / 20 : ((size_t)256 << 20);
        budget = fr > margin ? fr - margin : 0;
    }
    /* the interleaved pyramids' route (a workspace of half the array or more) gives way to the in-place
     * kernels on out (none or a little) before the array streams */
    const size_t fb = lw_il_oop_fallback_bytes(&im->s);
    if (need > budget && fb != SIZE_MAX && need - scr + (fb > im->s.inplace_scratch ? fb : im->s.inplace_scratch) <= budget &&
        lw_il_oop_drop(plan, &im->s))
        need = need - scr + (im->s.scratch > im->s.inplace_scratch ? im->s.scratch : im->s.inplace_scratch);
    im->ooc_budget = budget;
    im->ooc = need > budget && plan->geo.levels > 0 && plan->geo.naxes > 0;
    if (im->ooc) lw_ooc_subs_init(&im->ooc_subs);
    if (im->ooc && im->s.engine == LWE_SCHEME)
        return lw_fail(LW_ERR_UNSUPPORTED, "cuda: the papers' schemes (engine %s) run whole arrays only; this one needs "
                       "%zu device bytes, over the budget of %zu: use scheme auto to stream it", im->s.engine_name,
                       need, budget);
    if (im->ooc) { /* the slabs planned now: a budget too small for them fails here, not at the first call */
        char line[512] = "";
        LW_TRY(describe_ooc(plan, im, line, sizeof line));
    }
    return LW_OK;
}

static lw_status cuda_plan(lw_plan *plan)
{
    cuda_impl *im = calloc(1, sizeof *im);
    if (!im) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the cuda plan");
    pthread_mutex_init(&im->mu, NULL);
    plan->impl = im;
    lw_status st = lw_cuda_check(cudaGetDevice(&im->device), "cudaGetDevice");
    im->inverse = plan->cfg.direction == LW_INVERSE;
    if (st == LW_OK) st = lw_cuda_choose(plan, &im->s);
    if (st == LW_OK) st = lw_tile2d_streams_create(&im->s);
    if (st == LW_OK) transposed_plan(plan, im);
    const int only_in_place = (plan->cfg.flags & LW_FLAG_IN_PLACE) != 0;
    if (st == LW_OK && only_in_place) { /* the in-place workspace only, within its bound */
        const size_t held = im->s.inplace_scratch + im->s.leaders_bytes + im->s.ip2d_lead_bytes + im->s.l1_rc_bytes;
        const size_t bound = im->s.bytes >= ((size_t)100 << 20) ? im->s.bytes / 100 : ((size_t)1 << 20);
        /* the papers' schemes and the fs engine copy the input first */
        const int copies = im->s.engine == LWE_SCHEME || (im->s.engine == LWE_FS && im->s.inplace_scratch >= im->s.bytes);
        if (copies)
            st = lw_fail(LW_ERR_UNSUPPORTED, "cuda: engine %s does not run in place (it copies the input first): with "
                         "LW_FLAG_IN_PLACE use scheme auto on a separable wavelet, or run out of place", im->s.engine_name);
        else if (held > bound)
            st = lw_fail(LW_ERR_UNSUPPORTED, "cuda: this plan (engine %s) needs %zu bytes of device memory beyond the "
                         "array in place, more than %zu (1%% of the array, or 1 MiB below 100 MiB)", im->s.engine_name,
                         held, bound);
        im->s.scratch = im->s.inplace_scratch;
    }
    im->dev_in = (plan->cfg.flags & LW_FLAG_DEVICE_INPUT) != 0, im->dev_out = (plan->cfg.flags & LW_FLAG_DEVICE_OUTPUT) != 0;
    if (st == LW_OK && !(plan->cfg.flags & LW_FLAG_DEVICE_POINTERS) && !im->dev_in && !im->dev_out)
        st = choose_ooc(plan, im);
    if (st == LW_OK) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        const lw_tuning *tu = &plan->tune;
        lw_stage_cfg_resolve(&im->stage, tu->stage_kb, tu->stage_buffers, tu->copy_threads, tu->pageable,
                             tu->register_min_mb, cores > 0 ? (int)cores : 1, im->s.bytes);
        lw_config tc;
        /* without it (it fails only where the whole plan would) the pyramid runs whole;
         * in place the host pipelines (out of place only) are not made */
        lw_config sc[3];
        /* the host pipelines work on the device copy of the input as their own: a caller's device input
         * (LW_FLAG_DEVICE_INPUT) must be left as it was, so such plans run whole */
        if (only_in_place || im->ooc || im->dev_in) {
        } else if (lw_host_pyramid_tail_config(plan, &im->s, &tc, &im->band2)) {
            if (lw_plan_create(&im->tail, &tc) != LW_OK) im->tail = NULL, im->band2 = 0;
            im->ll1_bytes = (size_t)(plan->geo.len[1][0] * plan->geo.len[1][1]) * im->s.esize;
        } else if (lw_host_slab_configs(plan, tu->host_slabs, &im->sl, sc, &tc)) {
            int ok = 1;
            for (int k = 0; k < 3 && ok; k++) ok = lw_plan_create(&im->slab[k], &sc[k]) == LW_OK;
            if (ok && tc.rank) ok = lw_plan_create(&im->tail, &tc) == LW_OK;
            if (!ok) { /* as for the 2-D tail: the volume then runs whole */
                for (int k = 0; k < 3; k++) lw_destroy(im->slab[k]), im->slab[k] = NULL;
                lw_destroy(im->tail), im->tail = NULL;
            }
        } else if (lw_host_item_configs(plan, tu->host_slabs, &im->per, &im->groups, sc)) {
            int ok = 1;
            for (int k = 0; k < 2 && ok; k++) ok = lw_plan_create(&im->slab[k], &sc[k]) == LW_OK;
            if (!ok) {
                for (int k = 0; k < 2; k++) lw_destroy(im->slab[k]), im->slab[k] = NULL;
                im->groups = 0;
            }
        }
    }
    if (st == LW_OK) {
        if ((plan->cfg.flags & LW_FLAG_DEVICE_POINTERS) && !(plan->cfg.flags & LW_FLAG_EXTERNAL_SCRATCH)) {
            st = lw_cuda_alloc(&im->scratch, im->s.scratch, "the plan's scratch");
            /* a device without room for the interleaved pyramids' route: the in-place kernels on out */
            if (st == LW_ERR_DEVICE_OUT_OF_MEMORY && lw_il_oop_drop(plan, &im->s))
                st = lw_cuda_alloc(&im->scratch, im->s.scratch, "the plan's scratch");
        }
    }
    if (st != LW_OK) cuda_destroy(plan);
    return st;
}

static lw_status cuda_workspace(const lw_plan *plan, size_t *bytes)
{
    const cuda_impl *im = plan->impl;
    *bytes = im->s.scratch + im->s.leaders_bytes + im->s.l1_rc_bytes;
    if (im->tr) { /* the transposed plan holds its own */
        size_t tb = 0;
        lw_workspace_size(im->tr, &tb);
        *bytes = tb;
    }
    return LW_OK;
}

/* ---- execute ------------------------------------------------------------------ */

/* on stream st: the plan's, or for an internal plan (im->tr) its owner's */
static lw_status exec_device_on(const lw_plan *plan, cuda_impl *im, const void *in, void *out, cudaStream_t st)
{
    void *scr = im->scratch;
    if (in == out && im->s.inplace_scratch > im->s.scratch) {
        pthread_mutex_lock(&im->mu);
        lw_status s = LW_OK;
        if (!im->ip_scratch) s = lw_cuda_alloc(&im->ip_scratch, im->s.inplace_scratch, "in-place scratch");
        pthread_mutex_unlock(&im->mu);
        LW_TRY(s);
        scr = im->ip_scratch;
    }
    return lw_cuda_run(plan, &im->s, in, out, scr, st);
}

static lw_status exec_device(const lw_plan *plan, cuda_impl *im, const void *in, void *out)
{
    cudaStream_t st = (cudaStream_t)plan->stream;
    if (im->tr) return exec_device_on(im->tr, im->tr->impl, in, out, st);
    return exec_device_on(plan, im, in, out, st);
}

/* How the host sides of one call move (lw_host_hold): pinned, registered
 * or staged; a side on the device (LW_FLAG_DEVICE_INPUT / _OUTPUT) is not
 * held.  Device memory passed as a host pointer is refused (it would be read
 * as host memory), with nothing held. */
static lw_status holds_begin(const cuda_impl *im, const void *in, void *out, lw_host_hold *hin, lw_host_hold *hout)
{
    const size_t n = im->s.bytes;
    const int reg = lw_stage_use_register(&im->stage, n);
    hin->how = hout->how = LW_HOST_PINNED, hin->reg = hout->reg = NULL;
    if (!im->dev_in) lw_host_hold_begin(in, n, reg, hin);
    if (out == in) hout->how = hin->how;
    else if (!im->dev_out) lw_host_hold_begin(out, n, reg, hout);
    if (hin->how != LW_HOST_NOT_HOST && hout->how != LW_HOST_NOT_HOST) return LW_OK;
    lw_host_hold_end(hin);
    lw_host_hold_end(hout);
    return lw_fail(LW_ERR_INVALID_ARGUMENT, "cuda: the %s is device memory but the plan takes host pointers: plan "
                   "with LW_FLAG_DEVICE_POINTERS, or LW_FLAG_DEVICE_INPUT / LW_FLAG_DEVICE_OUTPUT for one side",
                   hin->how == LW_HOST_NOT_HOST ? "input" : "output");
}

/* after a failed call: the context idle and clean for the next one */
static void ctx_settle(hctx *c)
{
    for (int k = 0; k < 3; k++) cudaStreamSynchronize(c->st[k]);
    lw_stage_abort(c->stg);
    cudaGetLastError();
}

/* out of core: the call's host arrays stream through the budget */
static lw_status exec_ooc(const lw_plan *plan, cuda_impl *im, hctx *c, const void *in, void *out)
{
    lw_host_hold hin, hout;
    LW_TRY(holds_begin(im, in, out, &hin, &hout));
    lw_ooc_cuda oc;
    memset(&oc, 0, sizeof oc);
    oc.stg = c->stg, oc.in = in, oc.out = out, oc.bytes = im->s.bytes, oc.subs = &im->ooc_subs;
    oc.din = hin.how != LW_HOST_PAGEABLE, oc.dout = hout.how != LW_HOST_PAGEABLE;
    for (int k = 0; k < LW_OOC_QUEUES; k++) oc.st[k] = c->st[k];
    for (int k = 0; k < LW_OOC_EVENTS; k++) oc.ev[k] = c->oev[k];
    lw_ooc_mover m;
    lw_ooc_cuda_mover(&oc, im->ooc_budget, &m);
    lw_status st = lw_ooc_execute(plan, &m, in, out);
    if (st != LW_OK) ctx_settle(c);
    lw_host_hold_end(&hin);
    lw_host_hold_end(&hout);
    return st;
}

static lw_status exec_host(const lw_plan *plan, cuda_impl *im, const void *in, void *out)
{
    hctx *c = NULL;
    LW_TRY(ctx_acquire(im, &c));
    if (im->ooc) {
        lw_status so = exec_ooc(plan, im, c, in, out);
        ctx_release(im, c);
        return so;
    }
    const size_t n = im->s.bytes;
    if (out != in && !c->d_out && !im->dev_out) {
        lw_status sa = lw_cuda_alloc(&c->d_out, n, "the output copy");
        if (sa != LW_OK) {
            ctx_release(im, c);
            return sa;
        }
    }
    lw_host_hold hin, hout;
    lw_status bad = holds_begin(im, in, out, &hin, &hout);
    if (bad != LW_OK) {
        ctx_release(im, c);
        return bad;
    }
    lw_host_call h;
    memset(&h, 0, sizeof h);
    h.p = plan, h.s = &im->s, h.stg = c->stg;
    if (im->tr) /* whole: upload, the transposed plan, download */
        h.p = im->tr, h.s = &((const cuda_impl *)im->tr->impl)->s, h.whole = 1;
    for (int k = 0; k < 3; k++) h.st[k] = c->st[k], h.ev[k] = c->ev[k];
    h.d_in = c->d_in, h.d_out = c->d_out, h.d_scr = c->d_scr, h.d_ll = c->d_ll, h.d_ll2 = c->d_ll2;
    h.din = hin.how != LW_HOST_PAGEABLE, h.dout = hout.how != LW_HOST_PAGEABLE;
    if (im->dev_in) h.d_in = (void *)in, h.din = LW_STAGE_DEVICE; /* read where it is */
    if (im->dev_out) h.d_out = out, h.dout = LW_STAGE_DEVICE;     /* written where it is */
    if (im->tail) h.tail = im->tail, h.tail_s = &((const cuda_impl *)im->tail->impl)->s, h.band2 = im->band2;
    if (im->groups) {
        h.per = im->per, h.groups = im->groups;
        for (int k = 0; k < 2; k++) h.slab[k] = im->slab[k], h.slab_s[k] = &((const cuda_impl *)im->slab[k]->impl)->s;
        for (int k = 0; k < 3; k++) h.d_sscr[k] = c->d_sscr[k];
    } else if (im->slab[0]) {
        h.sl = &im->sl;
        for (int k = 0; k < 3; k++) {
            h.slab[k] = im->slab[k], h.slab_s[k] = &((const cuda_impl *)im->slab[k]->impl)->s;
            h.d_sin[k] = c->d_sin[k], h.d_sout[k] = c->d_sout[k], h.d_sscr[k] = c->d_sscr[k];
        }
    }
    lw_status st = lw_host_run(&h, in, out);
    if (st != LW_OK) ctx_settle(c);
    lw_host_hold_end(&hin);
    lw_host_hold_end(&hout);
    ctx_release(im, c);
    return st;
}

static lw_status cuda_execute(const lw_plan *plan, const void *in, void *out)
{
    cuda_impl *im = plan->impl;
    CK(cudaSetDevice(im->device), "cudaSetDevice");
    if (plan->cfg.flags & LW_FLAG_DEVICE_POINTERS) return exec_device(plan, im, in, out);
    return exec_host(plan, im, in, out);
}

static lw_status cuda_execute_bands(const lw_plan *plan, void *samples, const lw_band *bands)
{
    if (!(plan->cfg.flags & LW_FLAG_DEVICE_POINTERS)) return lw_bands_via_array(plan, samples, bands);
    const cuda_impl *im = plan->impl;
    CK(cudaSetDevice(im->device), "cudaSetDevice");
    cudaStream_t st = (cudaStream_t)plan->stream;
    const lw_plan *rp = im->tr ? im->tr : plan;
    cuda_impl *ri = rp->impl;
    if (!lw_cuda_bands_direct_for(rp, &ri->s, bands)) return lw_cuda_run_bands_via_array(plan, &im->s, samples, bands, st);
    void *scr = ri->scratch;
    const size_t need = lw_cuda_bands_direct_scratch(rp, &ri->s);
    if (need > ri->s.scratch) { /* e.g. an inverse whose lw_execute works inside out */
        pthread_mutex_lock(&ri->mu);
        lw_status s = ri->bd_scratch ? LW_OK : lw_cuda_alloc(&ri->bd_scratch, need, "the bands' scratch");
        pthread_mutex_unlock(&ri->mu);
        LW_TRY(s);
        scr = ri->bd_scratch;
    }
    return lw_cuda_run_bands_direct(rp, &ri->s, samples, bands, scr, st);
}

int lw_cuda_bands_direct(const lw_plan *p, const lw_band *bands)
{
    if (!p || p->ops != &lw_backend_cuda || !(p->cfg.flags & LW_FLAG_DEVICE_POINTERS)) return 0;
    const cuda_impl *im = p->impl;
    const lw_plan *rp = im->tr ? im->tr : p;
    return lw_cuda_bands_direct_for(rp, &((const cuda_impl *)rp->impl)->s, bands);
}

static void cuda_describe(const lw_plan *plan, char *buf, size_t len)
{
    const cuda_impl *im = plan->impl;
    const lw_cuda_sched *s = &im->s;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, im->device) == cudaSuccess)
        lw_appendf(buf, len, "device: %d %s (sm_%d%d)\n", im->device, prop.name, prop.major, prop.minor);
    else
        cudaGetLastError();
    if (im->tr) {
        const lw_cuda_sched *ts = &((const cuda_impl *)im->tr->impl)->s;
        lw_appendf(buf, len, "engine: %s\nadjoint: periodic, run as the %s of the transposed steps\n",
                   ts->engine_name ? ts->engine_name : "?", lw_direction_str(im->tr->cfg.direction));
    } else {
        lw_appendf(buf, len, "engine: %s%s\n", s->engine_name ? s->engine_name : "?",
                   s->engine == LWE_SCHEME ? " (paper scheme, every level)" : "");
    }
    if ((s->engine == LWE_TILE2D || s->engine == LWE_FUSED3D) && s->small_from < plan->geo.levels)
        lw_appendf(buf, len, "tail: small engine from level %d\n", s->small_from + 1);
    if (im->tail && !im->slab[0] && im->band2)
        lw_appendf(buf, len, "host_pipeline: level 1 in row bands overlapped with the copies, level 2 in row bands "
                   "%s them, levels 3..%d on the level-2 lowpass band (%lld x %lld)\n",
                   im->inverse ? "ahead of (pageable input: whole, before)" : "behind", plan->geo.levels,
                   (long long)plan->geo.len[2][0],
                   (long long)plan->geo.len[2][1]);
    else if (im->tail && !im->slab[0])
        lw_appendf(buf, len, "host_pipeline: level 1 in row bands overlapped with the copies, levels 2..%d on the "
                   "lowpass band (%lld x %lld)\n", plan->geo.levels, (long long)plan->geo.len[1][0],
                   (long long)plan->geo.len[1][1]);
    if (im->groups)
        lw_appendf(buf, len, "host_pipeline: %lld groups of %lld items, each overlapped with the copies\n",
                   (long long)im->groups, (long long)im->per);
    else if (im->slab[0])
        lw_appendf(buf, len, "host_pipeline: level 1 in %lld slabs of %lld planes along axis 0 (margins of %lld), each "
                   "overlapped with the copies%s\n", (long long)im->sl.n, (long long)im->sl.Z, (long long)im->sl.E,
                   im->tail ? "; levels 2.. on the lowpass octant" : "");
    if (s->t2_groups > 1)
        lw_appendf(buf, len, "tile2d: the batch in %d groups along its first dimension, each on a stream of its own\n",
                   s->t2_groups);
    if (s->engine == LWE_TILE2D_IL && s->ip2d_oop_fused == 1)
        lw_appendf(buf, len,
                   "out_of_place: calls with in != out run level 1 by the fused 2-D tiles (each sample read and "
                   "written once)%s%s\n",
                   plan->geo.levels > 1 ? ", the other levels in place on out by the " : "",
                   plan->geo.levels == 1 ? "" : s->ip2d_walk ? "strip walker" : "tile kernel");
    else if (s->engine == LWE_TILE2D_IL && s->il_sub && plan->cfg.direction == LW_FORWARD)
        lw_appendf(buf, len,
                   "out_of_place: calls with in != out run level 1 by the fused 2-D tiles with its even rows kept "
                   "compact, levels 2-%d on that lowpass by a Mallat plan of their own (engine %s), then the even "
                   "rows written whole (each sample of out written once)\n",
                   plan->geo.levels, lw_cuda_engine_id_name(lw_cuda_plan_engine(s->il_sub)));
    else if (s->engine == LWE_TILE2D_IL && s->il_sub)
        lw_appendf(buf, len,
                   "out_of_place: calls with in != out gather the lowpass grid's coefficients to the Mallat layout, "
                   "run levels %d-2 on it by a Mallat plan of their own (engine %s), then level 1 by the fused 2-D "
                   "tiles with that lowpass (each sample of out written once)\n",
                   plan->geo.levels, lw_cuda_engine_id_name(lw_cuda_plan_engine(s->il_sub)));
    else if (s->engine == LWE_TILE2D_IL && !s->ip2d_oop_fused && (s->ip2d_oop_tile || !s->ip2d_walk) && s->ip2d_tile_bytes)
        lw_appendf(buf, len, "out_of_place: calls with in != out run level 1 from in by the in-place tile kernel%s\n",
                   plan->geo.levels > 1 ? ", the other levels in place on out by it" : "");
    if (s->t2_side_on)
        lw_appendf(buf, len, "tile2d: the end row tiles (the mirror refreshed) on a stream of their own, beside the "
                   "others\n");
    if (s->inv_bands && s->bands.lead)
        lw_appendf(buf, len, "first level in %d plane groups, the first %lld planes from a copy of their lowpass in "
                   "the %s (LL workspace inside the output buffer)\n", s->bands.ng + 1, (long long)s->bands.lead,
                   s->bands.stash ? "input buffer" : "scratch");
    else if (s->fwd_bands || s->inv_bands)
        lw_appendf(buf, len, "first level in %d row bands (LL workspace inside the %s buffer)\n", s->bands.n,
                   s->fwd_bands ? "input" : "output");
    /* the generic passes' route: the generic engine, and in place the fused engines' */
    const int generic = s->engine == LWE_GENERIC || s->engine == LWE_TILE2D_IL ||
                        (lw_cuda_inplace_routed(plan, s->engine) && !s->small_inplace && !s->l1_route);
    char reorder[160] = "";
    if (s->ip2d && plan->cfg.layout == LW_MALLAT) {
        int cut = 0;
        for (int k = 0; k < plan->geo.levels; k++) cut += s->ip2d_lead_cut[k] != 0;
        snprintf(reorder, sizeof reorder,
                 "; rows moved along cycles to the Mallat order (whole cycles on %d level(s), cycles cut in segments "
                 "on %d)", plan->geo.levels - cut, cut);
    }
    if (s->engine == LWE_LINE1D || s->l1_route) {
        int held = 0, staged = 0, rounds = 0, pairs = 0;
        for (int k = 0; k < s->small_from; k++)
            held += s->l1_held[k], staged += s->l1_staged[k], rounds += s->l1_rounds[k], pairs += s->l1_pair[k] > 0;
        lw_appendf(buf, len,
                   "line1d%s: %d of %d level(s) held in the resident blocks' shared memory where a level writes what "
                   "it reads (in place, a pyramid's later levels); in place %d in rounds (%d of them in pairs moved to "
                   "the Mallat order as rows along cycles)%s; out of place %d staged (the lowpass from the scratch); "
                   "the small engine from level %d\n",
                   s->l1_route ? " (in place)" : "", held, s->small_from, rounds, pairs,
                   held + rounds < s->small_from ? ", the others by the generic path" : "", staged, s->small_from + 1);
    }
    if (s->small_inplace)
        lw_appendf(buf, len, "in_place: the small engine, every level in one launch (each item fits a block)\n");
    else if (s->ip2d && s->ip2d_walk)
        lw_appendf(buf, len,
                   "in_place: strip walker, every level (level 1: %lld %s a plane, %lld row segments, %lld plane "
                   "groups%s)\n",
                   (long long)s->ip2d_wl[0].strips, s->ip2d_wl[0].wide ? "strip of whole rows" : "strips of columns",
                   (long long)s->ip2d_wl[0].vsegs, (long long)s->ip2d_wl[0].groups, reorder);
    else if (s->ip2d)
        lw_appendf(buf, len, "in_place: tile kernel, every level (a ring of %lld halo slots%s)\n", (long long)s->ip2d_slots,
                   reorder);
    else if (generic && lw_cuda_passes_whole(plan, s))
        /* the passes themselves need no workspace; the plan still holds the
         * cycle leaders and stash of the passes the line rule would walk
         * (lw_cuda_walk_prepare sizes them before the one-axis plane passes
         * are chosen), counted in scratch_bytes and cycle_leader_bytes below */
        lw_appendf(buf, len, "in_place: passes of whole lines a block (or a cluster), every level and axis\n");
    int perm[LW_REORDER_KINDS] = {0};
    if (generic && !s->ip2d && !s->small_inplace) lw_cuda_reorder_counts(plan, s, perm);
    if (perm[LW_REORDER_TABLE] + perm[LW_REORDER_FOUND] + perm[LW_REORDER_CUT])
        lw_appendf(buf, len,
                   "walked lines: moved to the Mallat order along cycles (whole cycles from a leaders table on %d "
                   "pass(es), whole cycles with the leaders found by the kernel on %d, cycles cut in pieces on %d)\n",
                   perm[LW_REORDER_TABLE], perm[LW_REORDER_FOUND], perm[LW_REORDER_CUT]);
    int axis_planes = 0;
    const int planes = generic ? lw_cuda_plane_levels(plan, s, &axis_planes) : 0;
    if (planes)
        lw_appendf(buf, len, "generic passes: %d level(s) with two axes as one plane pass (planes held by a thread-block "
                             "cluster)\n",
                   planes);
    if (axis_planes)
        lw_appendf(buf, len, "generic passes: %d pass(es) of one axis as plane passes (that axis by the contiguous one)\n",
                   axis_planes);
    lw_appendf(buf, len, "scratch_bytes: %zu\ninplace_scratch_bytes: %zu\ncycle_leader_bytes: %zu\n", s->scratch,
               s->inplace_scratch, s->leaders_bytes + s->ip2d_lead_bytes + s->l1_rc_bytes);
    if (im->ooc) {
        char line[512] = "";
        lw_appendf(buf, len, "out_of_core: the transform needs more than the %zu bytes of device budget\n",
                   im->ooc_budget);
        if (describe_ooc(plan, im, line, sizeof line) == LW_OK) lw_appendf(buf, len, "%s", line);
        else lw_clear_error();
    } else if (!(plan->cfg.flags & LW_FLAG_DEVICE_POINTERS))
        lw_appendf(buf, len,
                   "host_staging: device copies of in and out (%zu bytes each); pageable memory %s: 2 rings of %d "
                   "pinned buffers of %zu bytes, %d copy threads\n",
                   s->bytes,
                   im->stage.pageable == LW_PAGEABLE_REGISTER ? "registered for each call"
                   : im->stage.pageable == LW_PAGEABLE_STAGE || !im->stage.register_min
                       ? "staged"
                       : "registered from register_min_mb, else staged",
                   im->stage.nbuf, im->stage.chunk, im->stage.threads);
}

static const char *cuda_engine_name(int i, const char **about) { return lw_cuda_engine_name(i, about); }

const lw_backend_ops lw_backend_cuda = {
    .name = "cuda", .id = LW_BACKEND_CUDA, .auto_rank = 1, .device_pointers = 1,
    .available = cuda_available, .plan = cuda_plan, .execute = cuda_execute, .destroy = cuda_destroy,
    .workspace = cuda_workspace, .describe = cuda_describe, .engine_count = lw_cuda_engine_count,
    .engine_name = cuda_engine_name, .execute_bands = cuda_execute_bands,
};

int lw_cuda_plan_engine(const lw_plan *p)
{
    if (!p || p->ops != &lw_backend_cuda || !p->impl) return -1;
    return ((const cuda_impl *)p->impl)->s.engine;
}

int lw_cuda_device_info(char *buf, size_t len)
{
    if (buf && len) buf[0] = '\0';
    if (!cuda_available()) return 0;
    size_t used = 0;
    for (int d = 0; d < g_ndev; d++) {
        struct cudaDeviceProp pr;
        if (cudaGetDeviceProperties(&pr, d) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        if (buf && used < len) {
            int n = snprintf(buf + used, len - used, "%d: %s, compute capability %d.%d, %d SMs, %.1f GiB, L2 %d MiB\n", d,
                             pr.name, pr.major, pr.minor, pr.multiProcessorCount,
                             (double)pr.totalGlobalMem / (1024.0 * 1024 * 1024), pr.l2CacheSize >> 20);
            if (n > 0) used += (size_t)n;
        }
    }
    return g_ndev;
}

size_t lw_cuda_sub_scratch(const lw_plan *sub)
{
    const cuda_impl *im = sub->impl;
    if (im->tr) return ((const cuda_impl *)im->tr->impl)->s.scratch;
    return im->s.scratch;
}

lw_status lw_cuda_run_sub(const lw_plan *sub, const void *in, void *out, void *scratch, cudaStream_t st)
{
    const cuda_impl *im = sub->impl;
    if (im->tr) return lw_cuda_run(im->tr, &((const cuda_impl *)im->tr->impl)->s, in, out, scratch, st);
    return lw_cuda_run(sub, &im->s, in, out, scratch, st);
}
