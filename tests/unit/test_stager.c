/* The CUDA backend's stager (src/cuda/staging_ring.c: pageable host memory
 * through rings of pinned buffers, a pool of copy threads) on the CPU,
 * against an emulated device: each stream is a thread that runs its copies,
 * "kernels" and event records in order after a random delay, so the copy
 * threads, the rings and the events meet in many interleavings.  Built in the
 * builds without CUDA (fake_cuda/cuda_runtime_api.h stands in for the
 * runtime); with CUDA the same code runs on the device in test_host_memory.
 *
 * Each case moves a host array up in row bands (the next band's upload begun
 * before the current one is ended, as the 2-D executor does), "transforms"
 * each band on its stream (every byte XOR a constant, device in -> device
 * out), downloads it, drains, and checks every byte of the result and that
 * no byte outside the bands' boxes was written; for random ring sizes, chunk
 * sizes, thread counts, pitched boxes (column ranges) and band heights.  Then
 * failures: a copy that fails on the device side makes the upload or the
 * drain return the error, lw_stage_abort returns (no hang) and the stager
 * serves a clean case afterwards. */
#include "core/lw_internal.h"
#include "cuda/staging_ring.h"
#include "lw_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

/* ---- the emulated device ------------------------------------------------------- */

enum { OP_COPY, OP_RECORD, OP_KERNEL, OP_QUIT };

typedef struct op {
    int kind;
    /* copy: nz planes of ny rows of w bytes */
    char *dst;
    const char *src;
    size_t w, dpitch, spitch, dplane, splane, ny, nz;
    /* record */
    struct fake_event *ev;
    unsigned long seq;
    /* kernel */
    void (*fn)(void *);
    void *arg;
    struct op *next;
} op;

struct fake_stream {
    pthread_t th;
    op *head, *tail;
    unsigned seed;
};

struct fake_event {
    unsigned long recorded, done;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static atomic_long g_copy_calls, g_fail_at = -1; /* the copy call that fails (-1: none) */
static atomic_int g_device_fault;                 /* events report a failed kernel */

static void nap(unsigned *seed)
{
    int us = (int)(rand_r(seed) % 40);
    if (us < 25) return; /* most ops run at once */
    struct timespec t = {0, (long)us * 1000};
    nanosleep(&t, NULL);
}

static void *stream_main(void *arg)
{
    struct fake_stream *s = arg;
    for (;;) {
        pthread_mutex_lock(&g_mu);
        while (!s->head) pthread_cond_wait(&g_cv, &g_mu);
        op *o = s->head;
        pthread_mutex_unlock(&g_mu);
        nap(&s->seed);
        if (o->kind == OP_QUIT) {
            free(o);
            return NULL;
        }
        if (o->kind == OP_COPY)
            for (size_t z = 0; z < o->nz; z++)
                for (size_t y = 0; y < o->ny; y++)
                    memcpy(o->dst + z * o->dplane + y * o->dpitch, o->src + z * o->splane + y * o->spitch, o->w);
        if (o->kind == OP_KERNEL) o->fn(o->arg);
        pthread_mutex_lock(&g_mu);
        if (o->kind == OP_RECORD && o->ev->done < o->seq) o->ev->done = o->seq;
        s->head = o->next;
        if (!s->head) s->tail = NULL;
        pthread_cond_broadcast(&g_cv);
        pthread_mutex_unlock(&g_mu);
        free(o);
    }
}

static void push(struct fake_stream *s, op *o)
{
    pthread_mutex_lock(&g_mu);
    o->next = NULL;
    if (o->kind == OP_RECORD) o->seq = ++o->ev->recorded;
    if (s->tail) s->tail->next = o;
    else s->head = o;
    s->tail = o;
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
}

static struct fake_stream *stream_new(unsigned seed)
{
    struct fake_stream *s = calloc(1, sizeof *s);
    s->seed = seed;
    pthread_create(&s->th, NULL, stream_main, s);
    return s;
}

static void stream_free(struct fake_stream *s)
{
    op *o = calloc(1, sizeof *o);
    o->kind = OP_QUIT;
    push(s, o);
    pthread_join(s->th, NULL);
    free(s);
}

static cudaError_t copy3(char *dst, size_t dpitch, size_t dplane, const char *src, size_t spitch, size_t splane,
                         size_t w, size_t ny, size_t nz, cudaStream_t st)
{
    if (atomic_fetch_add(&g_copy_calls, 1) == atomic_load(&g_fail_at)) return cudaErrorInvalidValue;
    op *o = calloc(1, sizeof *o);
    o->kind = OP_COPY, o->dst = dst, o->src = src, o->w = w, o->dpitch = dpitch, o->spitch = spitch;
    o->dplane = dplane, o->splane = splane, o->ny = ny, o->nz = nz;
    push(st, o);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t st)
{
    (void)kind;
    return copy3(dst, n, n, src, n, n, n, 1, 1, st);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              enum cudaMemcpyKind kind, cudaStream_t st)
{
    (void)kind;
    return copy3(dst, dpitch, dpitch * height, src, spitch, spitch * height, width, height, 1, st);
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t st)
{
    return copy3(p->dstPtr.ptr, p->dstPtr.pitch, p->dstPtr.pitch * p->dstPtr.ysize, p->srcPtr.ptr, p->srcPtr.pitch,
                 p->srcPtr.pitch * p->srcPtr.ysize, p->extent.width, p->extent.height, p->extent.depth, st);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags)
{
    (void)flags;
    *ev = calloc(1, sizeof **ev);
    return *ev ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaEventCreate(cudaEvent_t *ev) { return cudaEventCreateWithFlags(ev, 0); }

cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    free(ev);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t st)
{
    op *o = calloc(1, sizeof *o);
    o->kind = OP_RECORD, o->ev = ev;
    push(st, o);
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    pthread_mutex_lock(&g_mu);
    int done = ev->done >= ev->recorded;
    pthread_mutex_unlock(&g_mu);
    if (!done) return cudaErrorNotReady;
    return atomic_load(&g_device_fault) ? cudaErrorLaunchFailure : cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev)
{
    pthread_mutex_lock(&g_mu);
    const unsigned long want = ev->recorded;
    while (ev->done < want) pthread_cond_wait(&g_cv, &g_mu);
    pthread_mutex_unlock(&g_mu);
    return atomic_load(&g_device_fault) ? cudaErrorLaunchFailure : cudaSuccess;
}

cudaError_t cudaMallocHost(void **p, size_t n)
{
    *p = malloc(n);
    return *p ? cudaSuccess : cudaErrorInvalidValue;
}

cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *d)
{
    *d = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int d)
{
    (void)d;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void) { return cudaSuccess; }

const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "emulated failure"; }

/* what src/cuda/cuda_exec.c gives the library */
lw_status lw_cuda_check_at(const char *file, int line, cudaError_t e, const char *what)
{
    (void)file, (void)line;
    if (e == cudaSuccess) return LW_OK;
    return lw_fail(LW_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

/* ---- the cases ----------------------------------------------------------------- */

#define KEY 0x5a

typedef struct band_kernel {
    char *dout;
    const char *din;
    size_t pitch, c0, c1;
    int64_t r0, r1;
} band_kernel;

static void xor_band(void *arg)
{
    band_kernel *k = arg;
    for (int64_t r = k->r0; r < k->r1; r++)
        for (size_t x = k->c0; x < k->c1; x++) k->dout[(size_t)r * k->pitch + x] = (char)(k->din[(size_t)r * k->pitch + x] ^ KEY);
    free(k);
}

/* rows [r0, r1) clipped to [0, R), bytes [c0, c1) of rows of `pitch` bytes: a box at the same offsets on both sides */
static lw_box rows_box(int64_t r0, int64_t r1, size_t pitch, size_t c0, size_t c1)
{
    lw_box b = {c1 - c0, r1 - r0, 1, pitch, pitch * (size_t)(r1 - r0), pitch, pitch * (size_t)(r1 - r0)};
    return b;
}

typedef struct scenario {
    int64_t R, band; /* bands do not overlap: overlapping uploads on two streams would race in the emulated memory */
    size_t pitch, c0, c1;
} scenario;

/* One run of the band pipeline; returns the first failure (not checked against the data). */
static lw_status run_bands(lw_stager *s, struct fake_stream **st, const scenario *sc, const char *in, char *din,
                           char *dout, char *out)
{
    const int64_t nb = (sc->R + sc->band - 1) / sc->band;
    lw_stage_ticket t[2] = {0, 0};
    for (int64_t i = 0; i <= nb; i++) {
        if (i < nb) { /* begin band i's upload */
            int64_t a = i * sc->band, b = (i + 1) * sc->band < sc->R ? (i + 1) * sc->band : sc->R;
            lw_box bx = rows_box(a, b, sc->pitch, sc->c0, sc->c1);
            size_t off = (size_t)a * sc->pitch + sc->c0;
            LW_TRY(lw_stage_up_begin(s, &bx, in + off, din + off, 0, st[i % 3], &t[i % 2]));
        }
        if (i == 0) continue;
        const int64_t j = i - 1, r0 = j * sc->band, r1 = r0 + sc->band < sc->R ? r0 + sc->band : sc->R;
        LW_TRY(lw_stage_up_end(s, t[j % 2]));
        band_kernel *k = malloc(sizeof *k);
        *k = (band_kernel){dout, din, sc->pitch, sc->c0, sc->c1, r0, r1};
        op *o = calloc(1, sizeof *o);
        o->kind = OP_KERNEL, o->fn = xor_band, o->arg = k;
        push(st[j % 3], o);
        lw_box bx = rows_box(r0, r1, sc->pitch, sc->c0, sc->c1);
        size_t off = (size_t)r0 * sc->pitch + sc->c0;
        LW_TRY(lw_stage_down(s, &bx, out + off, dout + off, 0, st[j % 3]));
    }
    return lw_stage_drain(s);
}

static void wait_streams(struct fake_stream **st)
{
    pthread_mutex_lock(&g_mu);
    while (st[0]->head || st[1]->head || st[2]->head) pthread_cond_wait(&g_cv, &g_mu);
    pthread_mutex_unlock(&g_mu);
}

static scenario random_scenario(void)
{
    scenario sc;
    sc.R = lw_rng_range(1, 300);
    sc.band = lw_rng_range(1, 80);
    sc.pitch = (size_t)lw_rng_range(1, 3000);
    sc.c0 = lw_rng_range(0, 2) ? 0 : (size_t)lw_rng_range(0, (int64_t)sc.pitch);
    sc.c1 = lw_rng_range(0, 2) ? sc.pitch : sc.c0 + (size_t)lw_rng_range(1, (int64_t)(sc.pitch - sc.c0) + 1);
    if (sc.c1 > sc.pitch) sc.c1 = sc.pitch;
    if (sc.c1 <= sc.c0) sc.c1 = sc.c0 + 1 <= sc.pitch ? sc.c0 + 1 : sc.pitch, sc.c0 = sc.c1 - 1;
    return sc;
}

/* a case: run, then check every byte of out (inside the boxes: in ^ KEY; outside: untouched) */
static int one_case(lw_stager *s, struct fake_stream **st, const scenario *sc, int expect_ok)
{
    const size_t n = (size_t)sc->R * sc->pitch;
    char *in = malloc(n), *din = calloc(n, 1), *dout = calloc(n, 1), *out = malloc(n);
    for (size_t i = 0; i < n; i++) in[i] = (char)lw_rng_u64(), out[i] = 0x11;
    lw_status r = run_bands(s, st, sc, in, din, dout, out);
    int ok = 1;
    if (r != LW_OK) {
        lw_stage_abort(s);
        ok = 0;
    }
    wait_streams(st); /* nothing of this case left running before its buffers go */
    if (expect_ok) {
        CHECK(r == LW_OK, "R=%lld band %lld pitch %zu [%zu, %zu): %s", (long long)sc->R, (long long)sc->band,
              sc->pitch, sc->c0, sc->c1, lw_last_error());
        int same = 1;
        for (size_t i = 0; i < n && r == LW_OK; i++) {
            size_t x = i % sc->pitch;
            char want = x >= sc->c0 && x < sc->c1 ? (char)(in[i] ^ KEY) : 0x11;
            same &= out[i] == want;
        }
        CHECK(r != LW_OK || same, "R=%lld band %lld pitch %zu [%zu, %zu): result differs", (long long)sc->R,
              (long long)sc->band, sc->pitch, sc->c0, sc->c1);
    }
    free(in), free(din), free(dout), free(out);
    return ok;
}

int main(void)
{
    lw_test_seed(17);
    struct fake_stream *st[3];
    for (int k = 0; k < 3; k++) st[k] = stream_new(1234u + (unsigned)k);
    /* rings: few and small buffers (wrapping often), one to eight threads */
    for (int t = 0; t < 120; t++) {
        lw_stage_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.threads = (int)lw_rng_range(1, 9);
        cfg.nbuf = (int)lw_rng_range(2, 9);
        cfg.chunk = (size_t)lw_rng_range(1, 64) << 10;
        cfg.pageable = LW_PAGEABLE_STAGE;
        lw_stager *s = NULL;
        CHECK(lw_stager_new(&cfg, &s) == LW_OK, "stager: %s", lw_last_error());
        if (!s) continue;
        for (int c = 0; c < 3; c++) {
            scenario sc = random_scenario();
            one_case(s, st, &sc, 1);
        }
        lw_stager_free(s);
    }
    /* failures: an upload copy or a download copy refused, or the device faulting */
    int failed = 0, recovered = 0;
    for (int t = 0; t < 40; t++) {
        lw_stage_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.threads = (int)lw_rng_range(1, 6), cfg.nbuf = (int)lw_rng_range(2, 6);
        cfg.chunk = (size_t)lw_rng_range(1, 16) << 10, cfg.pageable = LW_PAGEABLE_STAGE;
        lw_stager *s = NULL;
        if (lw_stager_new(&cfg, &s) != LW_OK) continue;
        scenario sc = random_scenario();
        sc.R = lw_rng_range(40, 300), sc.pitch = (size_t)lw_rng_range(2000, 9000), sc.c0 = 0, sc.c1 = sc.pitch;
        const int fault = t % 4 == 3;
        if (fault) atomic_store(&g_device_fault, 1);
        else atomic_store(&g_fail_at, atomic_load(&g_copy_calls) + lw_rng_range(0, 40));
        int ok = one_case(s, st, &sc, 0);
        atomic_store(&g_fail_at, -1);
        atomic_store(&g_device_fault, 0);
        failed += !ok;
        /* the same stager serves a clean case afterwards */
        scenario clean = random_scenario();
        recovered += one_case(s, st, &clean, 1);
        lw_stager_free(s);
    }
    CHECK(failed > 20, "injected failures reported: %d of 40", failed);
    /* misuse: more uploads begun than the stager holds, an unknown ticket; then it still works */
    {
        lw_stage_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.threads = 2, cfg.nbuf = 4, cfg.chunk = (size_t)4 << 10, cfg.pageable = LW_PAGEABLE_STAGE;
        lw_stager *s = NULL;
        CHECK(lw_stager_new(&cfg, &s) == LW_OK, "stager: %s", lw_last_error());
        static char h[64 << 10], d[64 << 10];
        lw_stage_ticket t[9];
        int begun = 0;
        lw_status r = LW_OK;
        size_t off = 0; /* each upload its own bytes: 1 + 2 + ... + 9 KiB */
        for (int i = 0; i < 9 && r == LW_OK; i++) {
            lw_box b = lw_box_linear((size_t)(i + 1) << 10);
            r = lw_stage_up_begin(s, &b, h + off, d + off, 0, st[i % 3], &t[i]);
            begun += r == LW_OK, off += (size_t)(i + 1) << 10;
        }
        CHECK(begun == 8 && r == LW_ERR_INTERNAL, "a ninth upload begun: %d begun, %s", begun, lw_last_error());
        for (int i = 0; i < begun; i++) CHECK(lw_stage_up_end(s, t[i]) == LW_OK, "upload %d ended", i);
        CHECK(lw_stage_up_end(s, 12345) == LW_ERR_INTERNAL, "an unknown ticket is refused");
        CHECK(lw_stage_up_end(s, 0) == LW_OK, "ticket 0: nothing to wait for");
        wait_streams(st);
        scenario clean = random_scenario();
        CHECK(one_case(s, st, &clean, 1), "a case after the misuse");
        lw_stager_free(s);
    }
    CHECK(recovered == 40, "clean cases after a failure: %d of 40", recovered);
    for (int k = 0; k < 3; k++) stream_free(st[k]);
    return lw_test_finish("stager");
}
