/* The stager (staging_ring.h): pageable host memory through a ring of pinned
 * buffers.
 *
 * Two rings of cfg.nbuf buffers: one for uploads, one for downloads, so that
 * an upload never waits for a download that waits for a kernel.
 * Upload of a chunk: take the next buffer of the upload ring (waiting for
 * the copy it last fed), memcpy the chunk into it with the copy threads,
 * enqueue its host-to-device copy, record the buffer's event.  Download of
 * a chunk: take the next buffer of the download ring (copying out the chunk
 * it last received, once its copy finished), enqueue the device-to-host copy
 * into it, record the event and leave it pending; it is copied out when the
 * ring comes round to it again, when lw_stage_drain runs, or earlier when
 * its copy is seen finished.  So the copy threads fill and empty buffers
 * while both copy engines move others, and each buffer is reused only after
 * its copy finished. */
#include "staging_ring.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* below this many bytes per thread a chunk's memcpy is not handed off */
#define MIN_PER_THREAD ((size_t)256 << 10)

enum { SLOT_IDLE = 0, SLOT_UP, SLOT_DOWN };

typedef struct slot {
    void *buf;
    cudaEvent_t ev;
    int state;
    /* a pending download: where its chunk goes */
    lw_box box;
    lw_chunk c;
    char *host;
} slot;

/* one memcpy between a chunk of a host box and a compact ring buffer */
typedef struct copy_job {
    const lw_box *box;
    lw_chunk c;
    char *host;
    char *buf;
    int to_buf; /* 1: host -> buffer (upload), 0: buffer -> host */
    int parts;
} copy_job;

struct lw_stager {
    lw_stage_cfg cfg;
    slot *slots; /* 2 * cfg.nbuf: the upload ring, then the download ring */
    int next[2];
    /* copy threads: workers 1 .. cfg.threads-1, the caller is part 0 */
    pthread_t *th;
    int nth;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long gen;
    int left, quit;
    copy_job job;
};

typedef struct worker_arg {
    lw_stager *s;
    int k;
} worker_arg;

static void copy_part(const copy_job *j, int k)
{
    lw_chunk_part p;
    lw_chunk_part_at(&j->c, k, j->parts, &p);
    const lw_box *b = j->box;
    const lw_chunk *c = &j->c;
    for (int64_t r = p.r0; r < p.r0 + p.rows && p.nx; r++) {
        char *h = j->host + lw_chunk_row_host(b, c, r) + p.x0;
        char *s = j->buf + (size_t)r * c->nx + p.x0;
        if (j->to_buf) memcpy(s, h, p.nx);
        else memcpy(h, s, p.nx);
    }
}

static void *worker(void *arg)
{
    worker_arg *wa = arg;
    lw_stager *s = wa->s;
    const int k = wa->k;
    free(wa);
    unsigned long seen = 0;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->gen == seen && !s->quit) pthread_cond_wait(&s->go, &s->mu);
        if (s->quit) break;
        seen = s->gen;
        copy_job j = s->job;
        pthread_mutex_unlock(&s->mu);
        if (k < j.parts) copy_part(&j, k);
        pthread_mutex_lock(&s->mu);
        if (--s->left == 0) pthread_cond_signal(&s->done);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* the memcpy of one chunk, shared by the copy threads */
static void run_copy(lw_stager *s, copy_job *j)
{
    j->parts = lw_copy_threads_for(lw_chunk_bytes(&j->c), s->nth + 1, MIN_PER_THREAD);
    if (j->parts == 1) {
        copy_part(j, 0);
        return;
    }
    pthread_mutex_lock(&s->mu);
    s->job = *j;
    s->left = s->nth;
    s->gen++;
    pthread_cond_broadcast(&s->go);
    pthread_mutex_unlock(&s->mu);
    copy_part(j, 0);
    pthread_mutex_lock(&s->mu);
    while (s->left > 0) pthread_cond_wait(&s->done, &s->mu);
    pthread_mutex_unlock(&s->mu);
}

const lw_stage_cfg *lw_stager_cfg(const lw_stager *s) { return &s->cfg; }

void lw_stager_free(lw_stager *s)
{
    if (!s) return;
    if (s->th) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->go);
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < s->nth; i++) pthread_join(s->th[i], NULL);
        free(s->th);
    }
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->go);
    pthread_cond_destroy(&s->done);
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
    free(s);
}

lw_status lw_stager_new(const lw_stage_cfg *cfg, lw_stager **out)
{
    *out = NULL;
    lw_stager *s = calloc(1, sizeof *s);
    if (!s) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a stager");
    s->cfg = *cfg;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->go, NULL);
    pthread_cond_init(&s->done, NULL);
    s->slots = calloc(2 * (size_t)cfg->nbuf, sizeof *s->slots);
    lw_status st = s->slots ? LW_OK : lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the staging ring");
    for (int i = 0; i < 2 * cfg->nbuf && st == LW_OK; i++) {
        st = lw_cuda_check(cudaMallocHost(&s->slots[i].buf, cfg->chunk), "cudaMallocHost (staging ring)");
        if (st == LW_OK)
            st = lw_cuda_check(cudaEventCreateWithFlags(&s->slots[i].ev, cudaEventDisableTiming), "cudaEventCreate");
    }
    if (st == LW_OK && cfg->threads > 1) {
        s->th = calloc((size_t)cfg->threads - 1, sizeof *s->th);
        if (!s->th) st = lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the copy threads");
        for (int i = 0; st == LW_OK && i < cfg->threads - 1; i++) {
            worker_arg *wa = malloc(sizeof *wa);
            if (!wa) {
                st = lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate the copy threads");
                break;
            }
            wa->s = s, wa->k = i + 1;
            if (pthread_create(&s->th[i], NULL, worker, wa) != 0) {
                free(wa);
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

/* device place of a chunk, and its copy to or from a compact ring buffer */
static cudaError_t chunk_dma(const lw_box *b, const lw_chunk *c, void *buf, const void *dev, int up, cudaStream_t st)
{
    size_t bp = c->nx, bpl = c->nx * (size_t)c->ny;
    char *d = (char *)dev + lw_chunk_row_dev(b, c, 0);
    if (up) return lw_copy_box(d, b->dpitch, b->dplane, buf, bp, bpl, c->nx, c->ny, c->nz, cudaMemcpyHostToDevice, st);
    return lw_copy_box(buf, bp, bpl, d, b->dpitch, b->dplane, c->nx, c->ny, c->nz, cudaMemcpyDeviceToHost, st);
}

/* finish what a slot holds: wait for its copy; a download is copied out */
static lw_status settle(lw_stager *s, slot *x)
{
    if (x->state == SLOT_IDLE) return LW_OK;
    CK(cudaEventSynchronize(x->ev), "transform or staged copy");
    if (x->state == SLOT_DOWN) {
        copy_job j = {&x->box, x->c, x->host, x->buf, 0, 1};
        run_copy(s, &j);
    }
    x->state = SLOT_IDLE;
    return LW_OK;
}

/* copy out the downloads whose copies have finished, oldest first, without waiting */
static lw_status settle_ready(lw_stager *s)
{
    slot *ring = s->slots + s->cfg.nbuf;
    for (int i = 0; i < s->cfg.nbuf; i++) {
        slot *x = &ring[(s->next[1] + i) % s->cfg.nbuf];
        if (x->state != SLOT_DOWN) continue;
        cudaError_t e = cudaEventQuery(x->ev);
        if (e == cudaErrorNotReady) {
            cudaGetLastError();
            break;
        }
        LW_TRY(settle(s, x));
    }
    return LW_OK;
}

/* the next buffer of ring r (0 upload, 1 download), free */
static lw_status take(lw_stager *s, int r, slot **out)
{
    LW_TRY(settle_ready(s));
    slot *x = &s->slots[r * s->cfg.nbuf + s->next[r]];
    s->next[r] = (s->next[r] + 1) % s->cfg.nbuf;
    LW_TRY(settle(s, x));
    *out = x;
    return LW_OK;
}

/* direct == LW_STAGE_DEVICE: both sides on the device; nothing to do when they are the same place */
static int same_place(const lw_box *b, const void *to, size_t tp, size_t tpl, const void *from, size_t fp, size_t fpl)
{
    return to == from && tp == fp && (b->nz <= 1 || tpl == fpl);
}

lw_status lw_stage_up(lw_stager *s, const lw_box *b, const void *host, void *dev, int direct, cudaStream_t st)
{
    if (direct) {
        if (direct == LW_STAGE_DEVICE && same_place(b, dev, b->dpitch, b->dplane, host, b->hpitch, b->hplane))
            return LW_OK;
        CK(lw_copy_box(dev, b->dpitch, b->dplane, host, b->hpitch, b->hplane, b->row, b->ny, b->nz,
                       direct == LW_STAGE_DEVICE ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice, st),
           "cudaMemcpyAsync (host to device)");
        return LW_OK;
    }
    int64_t n = lw_chunk_count(b, s->cfg.chunk);
    for (int64_t i = 0; i < n; i++) {
        slot *x;
        LW_TRY(take(s, 0, &x));
        copy_job j = {b, {0, 0, 0, 0, 0, 0}, (char *)host, x->buf, 1, 1};
        lw_chunk_at(b, s->cfg.chunk, i, &j.c);
        run_copy(s, &j);
        CK(chunk_dma(b, &j.c, x->buf, dev, 1, st), "cudaMemcpyAsync (staged, host to device)");
        CK(cudaEventRecord(x->ev, st), "cudaEventRecord");
        x->state = SLOT_UP;
    }
    return LW_OK;
}

lw_status lw_stage_down(lw_stager *s, const lw_box *b, void *host, const void *dev, int direct, cudaStream_t st)
{
    if (direct) {
        if (direct == LW_STAGE_DEVICE && same_place(b, host, b->hpitch, b->hplane, dev, b->dpitch, b->dplane))
            return LW_OK;
        CK(lw_copy_box(host, b->hpitch, b->hplane, dev, b->dpitch, b->dplane, b->row, b->ny, b->nz,
                       direct == LW_STAGE_DEVICE ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost, st),
           "cudaMemcpyAsync (device to host)");
        return LW_OK;
    }
    int64_t n = lw_chunk_count(b, s->cfg.chunk);
    for (int64_t i = 0; i < n; i++) {
        slot *x;
        LW_TRY(take(s, 1, &x));
        lw_chunk_at(b, s->cfg.chunk, i, &x->c);
        CK(chunk_dma(b, &x->c, x->buf, dev, 0, st), "cudaMemcpyAsync (staged, device to host)");
        CK(cudaEventRecord(x->ev, st), "cudaEventRecord");
        x->box = *b, x->host = host, x->state = SLOT_DOWN;
    }
    return LW_OK;
}

lw_status lw_stage_drain(lw_stager *s)
{
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < s->cfg.nbuf; i++)
            LW_TRY(settle(s, &s->slots[r * s->cfg.nbuf + (s->next[r] + i) % s->cfg.nbuf]));
    return LW_OK;
}

void lw_stage_abort(lw_stager *s)
{
    for (int i = 0; i < 2 * s->cfg.nbuf; i++) {
        slot *x = &s->slots[i];
        if (x->state != SLOT_IDLE) cudaEventSynchronize(x->ev);
        x->state = SLOT_IDLE;
    }
    cudaGetLastError();
}
