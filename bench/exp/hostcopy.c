// What the host can do for pageable <-> device moves (issue 16's pageable cells): the
// PCIe bound (pinned, both ways at once), memcpy between pageable and pinned memory by
// thread count and store kind, with and without DMA running beside it, cudaHostRegister's
// cost, and a chunk pipeline in which each worker thread owns whole chunks (copy into its
// pinned buffer, DMA on its own stream) for 1 GiB up and 1 GiB down at once.
// Build: gcc -O3 -mavx2 -pthread -I$CUDA/include bench/exp/hostcopy.c -o hostcopy -L$CUDA/lib64 -lcudart
#include <cuda_runtime.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (x);                                                              \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static const size_t N = (size_t)1 << 30;

/* non-temporal copy: 32-byte loads, streaming stores; dst and src 32-byte aligned, n % 128 == 0 */
static void copy_nt(char *dst, const char *src, size_t n)
{
    for (size_t i = 0; i < n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(src + i + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(src + i + 96));
        _mm256_stream_si256((__m256i *)(dst + i), a);
        _mm256_stream_si256((__m256i *)(dst + i + 32), b);
        _mm256_stream_si256((__m256i *)(dst + i + 64), c);
        _mm256_stream_si256((__m256i *)(dst + i + 96), d);
    }
    _mm_sfence();
}

typedef struct {
    char *dst;
    const char *src;
    size_t n;
    int nt;
} cjob;

static void *cthread(void *a)
{
    cjob *j = (cjob *)a;
    if (j->nt) copy_nt(j->dst, j->src, j->n);
    else memcpy(j->dst, j->src, j->n);
    return NULL;
}

/* T threads copy n bytes, each a contiguous slice; returns GB/s */
static double par_copy(char *dst, const char *src, size_t n, int T, int nt)
{
    pthread_t th[64];
    cjob j[64];
    double t0 = now();
    for (int i = 0; i < T; i++) {
        size_t a = n / T * i & ~(size_t)127, b = i == T - 1 ? n : n / T * (i + 1) & ~(size_t)127;
        j[i] = (cjob){dst + a, src + a, b - a, nt};
        pthread_create(&th[i], NULL, cthread, &j[i]);
    }
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    return n / (now() - t0) / 1e9;
}

/* background DMA both ways until *stop */
typedef struct {
    char *hu, *hd, *du, *dd;
    size_t n;
    atomic_int stop;
    double bytes;
} dma_bg;

static void *dma_thread(void *a)
{
    dma_bg *g = (dma_bg *)a;
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    while (!atomic_load(&g->stop)) {
        CK(cudaMemcpyAsync(g->du, g->hu, g->n, cudaMemcpyHostToDevice, s1));
        CK(cudaMemcpyAsync(g->hd, g->dd, g->n, cudaMemcpyDeviceToHost, s2));
        CK(cudaStreamSynchronize(s1));
        CK(cudaStreamSynchronize(s2));
        g->bytes += 2.0 * g->n;
    }
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    return NULL;
}

/* ---- the chunk pipeline: workers own whole chunks ---- */
typedef struct {
    char *host_in, *host_out, *dev_in, *dev_out;
    size_t n, chunk;
    atomic_long next_up, next_down;
    int nt;
} pipe_t;

#define NB 2
typedef struct {
    char *buf[2][NB];
    cudaEvent_t ev[2][NB];
    cudaStream_t st[2];
} wres;
static wres R[16];

static void make_res(size_t chunk)
{
    for (int w = 0; w < 16; w++)
        for (int d = 0; d < 2; d++) {
            CK(cudaStreamCreateWithFlags(&R[w].st[d], cudaStreamNonBlocking));
            for (int b = 0; b < NB; b++) {
                CK(cudaMallocHost((void **)&R[w].buf[d][b], chunk));
                memset(R[w].buf[d][b], 0, chunk);
                CK(cudaEventCreateWithFlags(&R[w].ev[d][b], cudaEventDisableTiming));
            }
        }
}

typedef struct {
    pipe_t *p;
    int up; /* 1: uploads, 0: downloads, 2: both, alternating */
    int w;
} pw_arg;

static void *pipe_worker(void *a)
{
    pw_arg *wa = (pw_arg *)a;
    pipe_t *p = wa->p;
    wres *r = &R[wa->w];
    int used[NB] = {0};
    long nch = (long)((p->n + p->chunk - 1) / p->chunk);
    int k[2] = {0, 0};
    long pend[NB];
    for (int b = 0; b < NB; b++) pend[b] = -1;
    int more_up = wa->up != 0, more_down = wa->up != 1;
    while (more_up || more_down) {
        if (more_up) {
            long i = atomic_fetch_add(&p->next_up, 1);
            if (i >= nch) more_up = 0;
            else {
                int b = k[0]++ % NB;
                if (used[b]) CK(cudaEventSynchronize(r->ev[0][b]));
                size_t off = (size_t)i * p->chunk, len = p->n - off < p->chunk ? p->n - off : p->chunk;
                if (p->nt) copy_nt(r->buf[0][b], p->host_in + off, len);
                else memcpy(r->buf[0][b], p->host_in + off, len);
                CK(cudaMemcpyAsync(p->dev_in + off, r->buf[0][b], len, cudaMemcpyHostToDevice, r->st[0]));
                CK(cudaEventRecord(r->ev[0][b], r->st[0]));
                used[b] = 1;
            }
        }
        if (more_down) {
            long i = atomic_fetch_add(&p->next_down, 1);
            int b = k[1]++ % NB;
            if (pend[b] >= 0) {
                CK(cudaEventSynchronize(r->ev[1][b]));
                size_t off = (size_t)pend[b] * p->chunk, len = p->n - off < p->chunk ? p->n - off : p->chunk;
                if (p->nt) copy_nt(p->host_out + off, r->buf[1][b], len);
                else memcpy(p->host_out + off, r->buf[1][b], len);
                pend[b] = -1;
            }
            if (i >= nch) more_down = 0;
            else {
                size_t off = (size_t)i * p->chunk, len = p->n - off < p->chunk ? p->n - off : p->chunk;
                CK(cudaMemcpyAsync(r->buf[1][b], p->dev_out + off, len, cudaMemcpyDeviceToHost, r->st[1]));
                CK(cudaEventRecord(r->ev[1][b], r->st[1]));
                pend[b] = i;
            }
        }
    }
    for (int b = 0; b < NB; b++)
        if (pend[b] >= 0) {
            CK(cudaEventSynchronize(r->ev[1][b]));
            size_t off = (size_t)pend[b] * p->chunk, len = p->n - off < p->chunk ? p->n - off : p->chunk;
            memcpy(p->host_out + off, r->buf[1][b], len);
        }
    CK(cudaStreamSynchronize(r->st[0]));
    return NULL;
}

static double run_pipe(pipe_t *p, int T, int split)
{
    pthread_t th[64];
    pw_arg a[64];
    atomic_store(&p->next_up, 0);
    atomic_store(&p->next_down, 0);
    CK(cudaDeviceSynchronize());
    double t0 = now();
    for (int i = 0; i < T; i++) {
        a[i].p = p;
        a[i].up = split ? (i % 2) : 2;
        a[i].w = i;
        pthread_create(&th[i], NULL, pipe_worker, &a[i]);
    }
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    return now() - t0;
}

int main(void)
{
    char *pg_a = (char *)aligned_alloc(4096, N), *pg_b = (char *)aligned_alloc(4096, N);
    memset(pg_a, 1, N), memset(pg_b, 2, N);
    char *pin_a, *pin_b, *pin_c, *d_a, *d_b;
    CK(cudaMallocHost((void **)&pin_a, N));
    CK(cudaMallocHost((void **)&pin_b, N));
    CK(cudaMallocHost((void **)&pin_c, N));
    memset(pin_a, 3, N), memset(pin_b, 4, N), memset(pin_c, 5, N);
    CK(cudaMalloc((void **)&d_a, N));
    CK(cudaMalloc((void **)&d_b, N));
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

    /* 1. PCIe: pinned, one way and both ways at once */
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        CK(cudaMemcpyAsync(d_a, pin_a, N, cudaMemcpyHostToDevice, s1));
        CK(cudaStreamSynchronize(s1));
        double t1 = now();
        CK(cudaMemcpyAsync(pin_b, d_b, N, cudaMemcpyDeviceToHost, s2));
        CK(cudaStreamSynchronize(s2));
        double t2 = now();
        CK(cudaMemcpyAsync(d_a, pin_a, N, cudaMemcpyHostToDevice, s1));
        CK(cudaMemcpyAsync(pin_b, d_b, N, cudaMemcpyDeviceToHost, s2));
        CK(cudaStreamSynchronize(s1));
        CK(cudaStreamSynchronize(s2));
        double t3 = now();
        printf("pcie pinned: up %.1f GB/s, down %.1f GB/s, both at once %.1f GB/s total (%.2f ms)\n", N / (t1 - t0) / 1e9,
               N / (t2 - t1) / 1e9, 2.0 * N / (t3 - t2) / 1e9, (t3 - t2) * 1e3);
    }
    /* 1b. pageable through the driver (its own staging) */
    {
        double t0 = now();
        CK(cudaMemcpy(d_a, pg_a, N, cudaMemcpyHostToDevice));
        double t1 = now();
        CK(cudaMemcpy(pg_b, d_b, N, cudaMemcpyDeviceToHost));
        double t2 = now();
        printf("pcie pageable cudaMemcpy: up %.1f GB/s, down %.1f GB/s\n", N / (t1 - t0) / 1e9, N / (t2 - t1) / 1e9);
    }
    /* 2. host copies by threads and store kind, alone */
    int Ts[] = {1, 2, 4, 6, 8, 12, 16};
    for (int nt = 0; nt < 2; nt++)
        for (unsigned ti = 0; ti < sizeof Ts / sizeof *Ts; ti++) {
            int T = Ts[ti];
            double up = 0, dn = 0;
            for (int r = 0; r < 3; r++) {
                double u = par_copy(pin_a, pg_a, N, T, nt), d = par_copy(pg_b, pin_b, N, T, nt);
                if (u > up) up = u;
                if (d > dn) dn = d;
            }
            printf("memcpy %s T=%2d: pageable->pinned %.1f GB/s, pinned->pageable %.1f GB/s\n", nt ? "nt  " : "libc", T, up, dn);
        }
    /* 3. the same beside DMA both ways (other pinned buffers) */
    for (int nt = 0; nt < 2; nt++)
        for (unsigned ti = 2; ti < sizeof Ts / sizeof *Ts; ti++) {
            int T = Ts[ti];
            dma_bg g = {pin_c, pin_c + N / 2, d_a, d_b, N / 2, 0, 0};
            pthread_t th;
            pthread_create(&th, NULL, dma_thread, &g);
            double t0 = now(), c = 0;
            int reps = 0;
            while (now() - t0 < 0.4) {
                c += par_copy(pin_a, pg_a, N / 2, T / 2 > 0 ? T / 2 : 1, nt);
                reps++;
            }
            atomic_store(&g.stop, 1);
            pthread_join(th, NULL);
            double el = now() - t0;
            printf("beside DMA: memcpy %s T=%2d pageable->pinned %.1f GB/s avg; DMA meanwhile %.1f GB/s total\n",
                   nt ? "nt  " : "libc", T / 2 > 0 ? T / 2 : 1, c / reps, g.bytes / el / 1e9);
        }
    /* 4. cudaHostRegister */
    for (int r = 0; r < 2; r++) {
        double t0 = now();
        CK(cudaHostRegister(pg_a, N, cudaHostRegisterDefault));
        double t1 = now();
        CK(cudaHostUnregister(pg_a));
        double t2 = now();
        printf("cudaHostRegister 1 GiB: %.1f ms, unregister %.1f ms\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    }
    /* 5. the chunk pipeline: 1 GiB up and 1 GiB down at once */
    size_t chunks[] = {(size_t)1 << 20, (size_t)4 << 20, (size_t)16 << 20};
    make_res((size_t)16 << 20);
    int Tp[] = {4, 8, 12, 16};
    for (int nt = 0; nt < 2; nt++)
        for (int split = 0; split < 2; split++)
            for (unsigned ci = 0; ci < 3; ci++)
                for (unsigned ti = 0; ti < 4; ti++) {
                    pipe_t p;
                    p.host_in = pg_a, p.host_out = pg_b, p.dev_in = d_a, p.dev_out = d_b, p.n = N, p.chunk = chunks[ci], p.nt = nt;
                    double best = 1e9;
                    for (int r = 0; r < 3; r++) {
                        double t = run_pipe(&p, Tp[ti], split);
                        if (t < best) best = t;
                    }
                    printf("pipeline %s %s chunk %2zu MiB T=%2d: %.2f ms, %.1f GB/s total\n", nt ? "nt  " : "libc",
                           split ? "split" : "mixed", chunks[ci] >> 20, Tp[ti], best * 1e3, 2.0 * N / best / 1e9);
                }
    /* check the last pipeline moved the data */
    CK(cudaMemcpy(d_b, d_a, N, cudaMemcpyDeviceToDevice));
    {
        pipe_t p = {pg_a, pg_b, d_a, d_b, N, (size_t)4 << 20, 0, 0, 0};
        run_pipe(&p, 8, 0);
        printf("round trip %s\n", memcmp(pg_a, pg_b, N) ? "DIFFERS" : "equal");
    }
    return 0;
}
