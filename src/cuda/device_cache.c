/* What the CUDA backend keeps per device: kernel attributes it has set and
 * values it has asked the runtime for (limits, occupancies).
 *
 * cudaFuncSetAttribute applies to the function in the current device's
 * context, so a process that runs plans on two devices must set a kernel's
 * attributes (the opt-in to more than 48 KiB of dynamic shared memory, the
 * non-portable cluster size) on each; and a limit or an occupancy asked on
 * one device says nothing of another.  One table, keyed by (function or other
 * key, device, attribute or tag), under one lock. */
#include "lw_cuda.h"

#include <pthread.h>
#include <stdint.h>

#define DC_SLOTS 4096 /* open addressing; instantiations x devices stay far below */
#define DC_MEMO (-1)  /* the kind of remembered values (tags >= 0 are theirs) */
#define DC_RESIDENT (-2) /* resident blocks of a function (tag: threads a block, aux: dynamic shared bytes) */

typedef struct dc_entry {
    const void *key; /* NULL: empty */
    int dev, kind, tag;
    long long value, aux;
    cudaError_t err;
} dc_entry;

static dc_entry dc_table[DC_SLOTS];
static pthread_mutex_t dc_mu = PTHREAD_MUTEX_INITIALIZER;

/* the entry of (key, dev, kind, tag), or the empty slot it would take (NULL:
 * the table is full); under dc_mu */
static dc_entry *dc_find(const void *key, int dev, int kind, int tag)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull ^ (uint64_t)(unsigned)dev * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(unsigned)kind * 0x165667B19E3779F9ull ^ (uint64_t)(unsigned)tag;
    for (unsigned i = (unsigned)(h >> 40) % DC_SLOTS, n = 0; n < DC_SLOTS; i = (i + 1) % DC_SLOTS, n++) {
        dc_entry *x = &dc_table[i];
        if (!x->key || (x->key == key && x->dev == dev && x->kind == kind && x->tag == tag)) return x;
    }
    return NULL;
}

cudaError_t lw_cuda_func_attr(const void *f, int attr, int value)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return (void)cudaGetLastError(), e;
    const int grows = attr == (int)cudaFuncAttributeMaxDynamicSharedMemorySize;
    pthread_mutex_lock(&dc_mu);
    dc_entry *x = dc_find(f, dev, attr, 0);
    /* a size already opted in to covers any smaller one */
    if (x && x->key && (x->value == value || (grows && x->err == cudaSuccess && value <= x->value))) {
        e = x->err;
        pthread_mutex_unlock(&dc_mu);
        return e;
    }
    e = cudaFuncSetAttribute(f, (enum cudaFuncAttribute)attr, value);
    if (e != cudaSuccess) cudaGetLastError(); /* returned, not left pending for the next launch's check */
    if (x) x->key = f, x->dev = dev, x->kind = attr, x->tag = 0, x->value = value, x->err = e;
    pthread_mutex_unlock(&dc_mu);
    return e;
}

int lw_cuda_memo_get(const void *key, int tag, long long *value)
{
    int dev = 0, hit = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError(), 0;
    pthread_mutex_lock(&dc_mu);
    const dc_entry *x = dc_find(key, dev, DC_MEMO, tag);
    if (x && x->key) *value = x->value, hit = 1;
    pthread_mutex_unlock(&dc_mu);
    return hit;
}

void lw_cuda_memo_put(const void *key, int tag, long long value)
{
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess) return (void)cudaGetLastError();
    pthread_mutex_lock(&dc_mu);
    dc_entry *x = dc_find(key, dev, DC_MEMO, tag);
    if (x) x->key = key, x->dev = dev, x->kind = DC_MEMO, x->tag = tag, x->value = value, x->err = cudaSuccess;
    pthread_mutex_unlock(&dc_mu);
}

cudaError_t lw_cuda_resident(const void *f, int threads, size_t smem, int64_t *blocks)
{
    int dev = 0, per = 0, sms = 0;
    *blocks = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return (void)cudaGetLastError(), e;
    pthread_mutex_lock(&dc_mu);
    const dc_entry *x = dc_find(f, dev, DC_RESIDENT, threads);
    const int hit = x && x->key && x->aux == (long long)smem;
    if (hit) *blocks = x->value;
    pthread_mutex_unlock(&dc_mu);
    if (hit) return cudaSuccess;
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, f, threads, smem);
    if (e != cudaSuccess) return (void)cudaGetLastError(), e;
    *blocks = (int64_t)per * sms;
    pthread_mutex_lock(&dc_mu);
    dc_entry *y = dc_find(f, dev, DC_RESIDENT, threads);
    if (y) y->key = f, y->dev = dev, y->kind = DC_RESIDENT, y->tag = threads, y->value = *blocks, y->aux = (long long)smem,
           y->err = cudaSuccess;
    pthread_mutex_unlock(&dc_mu);
    return cudaSuccess;
}
