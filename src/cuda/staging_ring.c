/* The stager (staging_ring.h): pageable host memory through rings of pinned
 * buffers, copied by a pool of threads that each take whole chunks.
 *
 * Two rings: one for uploads, one for downloads, so that an upload never
 * waits for a download that waits for a kernel.
 * Upload of a box (lw_stage_up_begin): its chunks are published as one
 * batch; each copy thread takes the next chunk of the oldest batch and a
 * free upload buffer (the one whose copy was enqueued longest ago, waited
 * for), memcpys the chunk into it, enqueues its host-to-device copy on the
 * caller's stream and records the buffer's event.  lw_stage_up_end returns
 * once every chunk's copy is enqueued (the caller copies chunks too while
 * it waits), so the caller's next kernel on that stream follows them; the
 * next box, begun before, is being copied meanwhile.
 * Download of a box (lw_stage_down): in chunks of a whole buffer, the caller
 * takes the download ring's buffers in turn (waiting for, or copying out,
 * a buffer still pending), enqueues
 * the device-to-host copies and records the events; the copy threads copy
 * each buffer out to the user's memory as soon as its copy has finished
 * (oldest first; one thread at a time waits for the oldest event, the others
 * take buffers already finished), so that downloads drain while the next
 * uploads are copied in.  lw_stage_drain waits for all of it.
 *
 * Why whole chunks per thread: a chunk split among all threads and joined
 * after each leaves the threads waiting for the slowest part and the copy
 * engines waiting for the join; threads that own whole chunks, copying
 * uploads in and downloads out at the same time, keep both busy
 * (measurements: bench/NOTES-matrix.md, bench/exp/hostcopy.c). */
#include "staging_ring.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    SLOT_FREE = 0, /* upload: not being filled; download: nothing pending */
    SLOT_FILL,     /* upload: a thread copies a chunk into it */
    SLOT_SETUP,    /* download: the caller is enqueueing its copy */
    SLOT_PEND,     /* download: copy enqueued, to be copied out */
    SLOT_OUT,      /* download: a thread waits for it or copies it out */
};

typedef struct slot {
    void *buf;
    cudaEvent_t ev;
    int state;
    int used; /* ev recorded at least once */
    /* a pending download: where its chunk goes */
    lw_box box;
    lw_chunk c;
    char *host;
} slot;

/* an upload in flight: chunks [next, n) of box not yet taken */
typedef struct up_batch {
    lw_box box;
    const char *host;
    char *dev;
    cudaStream_t st;
    size_t limit;
    int64_t n, next, done;
    lw_stage_ticket id; /* 0: the entry is free */
} up_batch;
#define UP_BATCHES 8 /* uploads begun and not yet ended, at most */

struct lw_stager {
    lw_stage_cfg cfg;
    int device;
    slot *slots; /* 2 * cfg.nbuf: the upload ring, then the download ring */
    int *upfree; /* upload buffers free to fill, oldest recorded first */
    int up_head, up_count;
    int next_down; /* the download buffer the caller takes next (the oldest) */
    up_batch up[UP_BATCHES];
    lw_stage_ticket last_id;
    int waiter;  /* a thread waits for the oldest pending download's event */
    int cancel;  /* lw_stage_abort: pending downloads are dropped */
    cudaError_t err;
    const char *err_what;
    pthread_t *th;
    int nth, quit;
    pthread_mutex_t mu;
    pthread_cond_t work;  /* copy threads wait for work */
    pthread_cond_t state; /* callers wait for a batch, a buffer, the drain */
};

static void wake(lw_stager *s)
{
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->state);
}

static void note_err(lw_stager *s, cudaError_t e, const char *what)
{
    if (e != cudaSuccess && s->err == cudaSuccess) s->err = e, s->err_what = what;
}

/* device place of a chunk, and its copy to or from a compact ring buffer */
static cudaError_t chunk_dma(const lw_box *b, const lw_chunk *c, void *buf, const void *dev, int up, cudaStream_t st)
{
    size_t bp = c->nx, bpl = c->nx * (size_t)c->ny;
    char *d = (char *)dev + lw_chunk_row_dev(b, c, 0);
    if (up) return lw_copy_box(d, b->dpitch, b->dplane, buf, bp, bpl, c->nx, c->ny, c->nz, cudaMemcpyHostToDevice, st);
    return lw_copy_box(buf, bp, bpl, d, b->dpitch, b->dplane, c->nx, c->ny, c->nz, cudaMemcpyDeviceToHost, st);
}

/* the oldest upload with chunks not yet taken, or NULL (lock held) */
static up_batch *oldest_up(lw_stager *s)
{
    up_batch *o = NULL;
    for (int k = 0; k < UP_BATCHES; k++) {
        up_batch *b = &s->up[k];
        if (b->id && b->next < b->n && (!o || b->id < o->id)) o = b;
    }
    return o;
}

/* Upload the next chunk of batch b (lock held on entry and on return). */
static void do_up(lw_stager *s, up_batch *b)
{
    int k = s->upfree[s->up_head];
    s->up_head = (s->up_head + 1) % s->cfg.nbuf, s->up_count--;
    slot *x = &s->slots[k];
    x->state = SLOT_FILL;
    const up_batch u = *b;
    const int64_t i = b->next++;
    const int used = x->used;
    pthread_mutex_unlock(&s->mu);
    cudaError_t e = used ? cudaEventSynchronize(x->ev) : cudaSuccess;
    const char *what = "staged upload (a ring buffer's previous copy)";
    lw_chunk c;
    lw_chunk_at(&u.box, u.limit, i, &c);
    if (e == cudaSuccess) {
        lw_chunk_copy(&u.box, &c, (char *)u.host, x->buf, 1);
        e = chunk_dma(&u.box, &c, x->buf, u.dev, 1, u.st), what = "cudaMemcpyAsync (staged, host to device)";
    }
    if (e == cudaSuccess) e = cudaEventRecord(x->ev, u.st), what = "cudaEventRecord (staged upload)";
    pthread_mutex_lock(&s->mu);
    note_err(s, e, what);
    x->used = 1, x->state = SLOT_FREE;
    s->upfree[(s->up_head + s->up_count) % s->cfg.nbuf] = k, s->up_count++;
    b->done++;
    wake(s);
}

/* Copy out a pending download: its copy finished with status e, or (wait)
 * wait for it as the one waiter (lock held on entry and on return). */
static void do_out(lw_stager *s, slot *x, int wait, cudaError_t e)
{
    x->state = SLOT_OUT;
    if (wait) s->waiter = 1;
    const int cancel = s->cancel;
    pthread_mutex_unlock(&s->mu);
    if (wait) e = cudaEventSynchronize(x->ev);
    if (wait) { /* the ones behind it have likely finished too: let the others look */
        pthread_mutex_lock(&s->mu);
        s->waiter = 0;
        pthread_cond_broadcast(&s->work);
        pthread_mutex_unlock(&s->mu);
    }
    if (e == cudaSuccess && !cancel) lw_chunk_copy(&x->box, &x->c, x->host, x->buf, 0);
    pthread_mutex_lock(&s->mu);
    note_err(s, e, "transform or staged download");
    x->state = SLOT_FREE;
    wake(s);
}

/* One piece of work, if there is one (lock held): the next chunk of the
 * oldest upload first (the caller waits for them), then a download whose
 * copy has finished, then (wait_event) waiting for the oldest pending
 * download.  ups_only: the caller waiting for an upload.  1 if work was
 * done. */
static int step(lw_stager *s, int wait_event, int ups_only)
{
    up_batch *b = s->up_count > 0 ? oldest_up(s) : NULL;
    if (b) {
        do_up(s, b);
        return 1;
    }
    if (ups_only) return 0;
    slot *ring = s->slots + s->cfg.nbuf, *oldest = NULL;
    for (int i = 0; i < s->cfg.nbuf; i++) {
        slot *x = &ring[(s->next_down + i) % s->cfg.nbuf];
        if (x->state != SLOT_PEND) continue;
        cudaError_t e = cudaEventQuery(x->ev);
        if (e == cudaErrorNotReady) {
            cudaGetLastError();
            if (!oldest) oldest = x;
            break; /* copies on a stream finish in order: later ones rarely did */
        }
        do_out(s, x, 0, e); /* finished, or failed */
        return 1;
    }
    if (oldest && wait_event && !s->waiter) {
        do_out(s, oldest, 1, cudaSuccess);
        return 1;
    }
    return 0;
}

static void *worker(void *arg)
{
    lw_stager *s = arg;
    cudaSetDevice(s->device);
    pthread_mutex_lock(&s->mu);
    while (!s->quit)
        if (!step(s, 1, 0)) pthread_cond_wait(&s->work, &s->mu);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* the first failure since the last drain or abort, as a status (lock held) */
static lw_status err_status(lw_stager *s)
{
    return s->err == cudaSuccess ? LW_OK : lw_cuda_check(s->err, s->err_what);
}

const lw_stage_cfg *lw_stager_cfg(const lw_stager *s) { return &s->cfg; }

void lw_stager_free(lw_stager *s)
{
    if (!s) return;
    if (s->th) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->work);
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < s->nth; i++) pthread_join(s->th[i], NULL);
        free(s->th);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->work);
    pthread_cond_destroy(&s->state);
    if (s->slots)
        for (int i = 0; i < 2 * s->cfg.nbuf; i++) {
            if (s->slots[i].ev) {
                cudaEventSynchronize(s->slots[i].ev);
                cudaEventDestroy(s->slots[i].ev);
            }
            if (s->slots[i].buf) cudaFreeHost(s->slots[i].buf);
        }
    cudaGetLastError();
    free(s->slots);
    free(s->upfree);
    free(s);
}

lw_status lw_stager_new(const lw_stage_cfg *cfg, lw_stager **out)
{
    *out = NULL;
    lw_stager *s = calloc(1, sizeof *s);
    if (!s) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a stager");
    s->cfg = *cfg;
    if (s->cfg.threads < 1) s->cfg.threads = 1;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->work, NULL);
    pthread_cond_init(&s->state, NULL);
    lw_status st = lw_cuda_check(cudaGetDevice(&s->device), "cudaGetDevice");
    s->slots = calloc(2 * (size_t)cfg->nbuf, sizeof *s->slots);
    s->upfree = calloc((size_t)cfg->nbuf, sizeof *s->upfree);
    if (st == LW_OK && (!s->slots || !s->upfree)) st = lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the staging ring");
    for (int i = 0; i < 2 * cfg->nbuf && st == LW_OK; i++) {
        st = lw_cuda_check(cudaMallocHost(&s->slots[i].buf, cfg->chunk), "cudaMallocHost (staging ring)");
        if (st == LW_OK)
            st = lw_cuda_check(cudaEventCreateWithFlags(&s->slots[i].ev, cudaEventDisableTiming), "cudaEventCreate");
    }
    for (int i = 0; st == LW_OK && i < cfg->nbuf; i++) s->upfree[i] = i;
    s->up_count = st == LW_OK ? cfg->nbuf : 0;
    if (st == LW_OK && s->cfg.threads > 1) {
        s->th = calloc((size_t)s->cfg.threads - 1, sizeof *s->th);
        if (!s->th) st = lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the copy threads");
        for (int i = 0; st == LW_OK && i < s->cfg.threads - 1; i++) {
            if (pthread_create(&s->th[i], NULL, worker, s) != 0) {
                st = lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot start a staging copy thread");
                break;
            }
            s->nth++;
        }
    }
    if (st != LW_OK) {
        lw_stager_free(s);
        return st;
    }
    *out = s;
    return LW_OK;
}

/* ---- copies ------------------------------------------------------------------ */

cudaError_t lw_copy_box(void *dst, size_t dpitch, size_t dplane, const void *src, size_t spitch, size_t splane,
                        size_t row, int64_t ny, int64_t nz, enum cudaMemcpyKind kind, cudaStream_t st)
{
    if (!row || ny <= 0 || nz <= 0) return cudaSuccess;
    if (nz > 1 && dplane == dpitch * (size_t)ny && splane == spitch * (size_t)ny) ny *= nz, nz = 1; /* planes are rows */
    if (nz == 1) {
        if (ny == 1 || (dpitch == row && spitch == row)) return cudaMemcpyAsync(dst, src, row * (size_t)ny, kind, st);
        return cudaMemcpy2DAsync(dst, dpitch, src, spitch, row, (size_t)ny, kind, st);
    }
    if (dplane % dpitch == 0 && splane % spitch == 0) {
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr.ptr = (void *)src, p.srcPtr.pitch = spitch, p.srcPtr.xsize = row, p.srcPtr.ysize = splane / spitch;
        p.dstPtr.ptr = dst, p.dstPtr.pitch = dpitch, p.dstPtr.xsize = row, p.dstPtr.ysize = dplane / dpitch;
        p.extent.width = row, p.extent.height = (size_t)ny, p.extent.depth = (size_t)nz;
        p.kind = kind;
        return cudaMemcpy3DAsync(&p, st);
    }
    for (int64_t z = 0; z < nz; z++) {
        cudaError_t e = cudaMemcpy2DAsync((char *)dst + (size_t)z * dplane, dpitch, (const char *)src + (size_t)z * splane,
                                          spitch, row, (size_t)ny, kind, st);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* direct == LW_STAGE_DEVICE: both sides on the device; nothing to do when they are the same place */
static int same_place(const lw_box *b, const void *to, size_t tp, size_t tpl, const void *from, size_t fp, size_t fpl)
{
    return to == from && tp == fp && (b->nz <= 1 || tpl == fpl);
}

/* A direct move (the host side pinned, or on the device: one copy, none when
 * both sides are the same place) of box b, to (pitches tp, tpl) from (fp,
 * fpl); up: host to device, else device to host. */
static lw_status move_direct(const lw_box *b, void *to, size_t tp, size_t tpl, const void *from, size_t fp, size_t fpl,
                             int direct, int up, cudaStream_t st)
{
    if (direct == LW_STAGE_DEVICE && same_place(b, to, tp, tpl, from, fp, fpl)) return LW_OK;
    const enum cudaMemcpyKind kind = direct == LW_STAGE_DEVICE ? cudaMemcpyDeviceToDevice
                                     : up                      ? cudaMemcpyHostToDevice
                                                               : cudaMemcpyDeviceToHost;
    CK(lw_copy_box(to, tp, tpl, from, fp, fpl, b->row, b->ny, b->nz, kind, st),
       up ? "cudaMemcpyAsync (host to device)" : "cudaMemcpyAsync (device to host)");
    return LW_OK;
}

lw_status lw_stage_up_begin(lw_stager *s, const lw_box *b, const void *host, void *dev, int direct, cudaStream_t st,
                           lw_stage_ticket *t)
{
    *t = 0;
    if (direct) return move_direct(b, dev, b->dpitch, b->dplane, host, b->hpitch, b->hplane, direct, 1, st);
    const size_t limit = lw_stage_chunk_for(&s->cfg, lw_box_bytes(b));
    const int64_t n = lw_chunk_count(b, limit);
    if (n == 0) return LW_OK;
    pthread_mutex_lock(&s->mu);
    up_batch *u = NULL;
    for (int k = 0; k < UP_BATCHES && !u; k++)
        if (!s->up[k].id) u = &s->up[k];
    if (!u) {
        pthread_mutex_unlock(&s->mu);
        return lw_fail(LW_ERR_INTERNAL, "staging: more than %d uploads begun and not ended", UP_BATCHES);
    }
    u->box = *b, u->host = host, u->dev = dev, u->st = st, u->limit = limit;
    u->n = n, u->next = 0, u->done = 0, u->id = *t = ++s->last_id;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->mu);
    return LW_OK;
}

lw_status lw_stage_up_end(lw_stager *s, lw_stage_ticket t)
{
    if (!t) return LW_OK;
    pthread_mutex_lock(&s->mu);
    up_batch *u = NULL;
    for (int k = 0; k < UP_BATCHES && !u; k++)
        if (s->up[k].id == t) u = &s->up[k];
    while (u && u->done < u->n) /* the caller copies chunks too */
        if (!step(s, 0, 1)) pthread_cond_wait(&s->state, &s->mu);
    if (u) u->id = 0;
    lw_status r = u ? err_status(s) : lw_fail(LW_ERR_INTERNAL, "staging: no upload %llu in flight", (unsigned long long)t);
    pthread_mutex_unlock(&s->mu);
    return r;
}

lw_status lw_stage_up(lw_stager *s, const lw_box *b, const void *host, void *dev, int direct, cudaStream_t st)
{
    lw_stage_ticket t;
    LW_TRY(lw_stage_up_begin(s, b, host, dev, direct, st, &t));
    return lw_stage_up_end(s, t);
}

lw_status lw_stage_down(lw_stager *s, const lw_box *b, void *host, const void *dev, int direct, cudaStream_t st)
{
    if (direct) return move_direct(b, host, b->hpitch, b->hplane, dev, b->dpitch, b->dplane, direct, 0, st);
    /* whole buffers: the caller waits for nothing but a free buffer, so the
     * ring should hold several boxes' chunks while they are copied out */
    const size_t limit = s->cfg.chunk;
    const int64_t n = lw_chunk_count(b, limit);
    slot *ring = s->slots + s->cfg.nbuf;
    lw_status r = LW_OK;
    pthread_mutex_lock(&s->mu);
    for (int64_t i = 0; i < n && r == LW_OK; i++) {
        slot *x = &ring[s->next_down];
        while (x->state != SLOT_FREE) /* still being copied out: help */
            if (!step(s, 1, 0)) pthread_cond_wait(&s->state, &s->mu);
        r = err_status(s);
        if (r != LW_OK) break;
        s->next_down = (s->next_down + 1) % s->cfg.nbuf;
        x->state = SLOT_SETUP;
        x->box = *b, x->host = host;
        lw_chunk_at(b, limit, i, &x->c);
        pthread_mutex_unlock(&s->mu);
        cudaError_t e = chunk_dma(b, &x->c, x->buf, dev, 0, st);
        const char *what = "cudaMemcpyAsync (staged, device to host)";
        if (e == cudaSuccess) e = cudaEventRecord(x->ev, st), what = "cudaEventRecord (staged download)";
        pthread_mutex_lock(&s->mu);
        if (e == cudaSuccess) {
            x->used = 1, x->state = SLOT_PEND;
            pthread_cond_signal(&s->work);
        } else {
            x->state = SLOT_FREE;
            r = lw_cuda_check(e, what);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return r;
}

static int downloads_busy(const lw_stager *s)
{
    for (int i = 0; i < s->cfg.nbuf; i++)
        if (s->slots[s->cfg.nbuf + i].state != SLOT_FREE) return 1;
    return 0;
}

lw_status lw_stage_drain(lw_stager *s)
{
    pthread_mutex_lock(&s->mu);
    while (downloads_busy(s))
        if (!step(s, 1, 0)) pthread_cond_wait(&s->state, &s->mu);
    lw_status r = err_status(s);
    s->err = cudaSuccess;
    pthread_mutex_unlock(&s->mu);
    return r;
}

static int uploads_busy(const lw_stager *s)
{
    for (int k = 0; k < UP_BATCHES; k++)
        if (s->up[k].id && s->up[k].done < s->up[k].n) return 1;
    return 0;
}

void lw_stage_abort(lw_stager *s)
{
    pthread_mutex_lock(&s->mu);
    s->cancel = 1; /* pending downloads are waited for, not copied out */
    while (downloads_busy(s) || uploads_busy(s))
        if (!step(s, 1, 0)) pthread_cond_wait(&s->state, &s->mu);
    for (int k = 0; k < UP_BATCHES; k++) s->up[k].id = 0; /* begun and never ended (a failed call) */
    s->cancel = 0;
    s->err = cudaSuccess;
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->cfg.nbuf; i++)
        if (s->slots[i].used) cudaEventSynchronize(s->slots[i].ev);
    cudaGetLastError();
}
