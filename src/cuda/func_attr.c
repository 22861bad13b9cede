/* Kernel function attributes, set once per function and device.
 *
 * cudaFuncSetAttribute applies to the function in the current device's
 * context, so a process that runs plans on two devices must set a kernel's
 * attributes (the opt-in to more than 48 KiB of dynamic shared memory, the
 * non-portable cluster size) on each.  The launchers call lw_cuda_func_attr
 * before every launch; it asks the runtime only the first time a function,
 * attribute and device meet (or when a larger shared-memory size is asked
 * for), and remembers the answer, failures included. */
#include "lw_cuda.h"

#include <pthread.h>
#include <stdint.h>

#define FA_SLOTS 4096 /* open addressing; instantiations x devices stay far below */

typedef struct fa_entry {
    const void *f; /* NULL: empty */
    int dev, attr, value;
    cudaError_t err;
} fa_entry;

static fa_entry fa_table[FA_SLOTS];
static pthread_mutex_t fa_mu = PTHREAD_MUTEX_INITIALIZER;

static unsigned fa_hash(const void *f, int dev, int attr)
{
    uint64_t h = (uint64_t)(uintptr_t)f * 0x9E3779B97F4A7C15ull ^ (uint64_t)(unsigned)dev * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(unsigned)attr;
    return (unsigned)(h >> 40) % FA_SLOTS;
}

cudaError_t lw_cuda_func_attr(const void *f, int attr, int value)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return (void)cudaGetLastError(), e;
    const int grows = attr == (int)cudaFuncAttributeMaxDynamicSharedMemorySize;
    pthread_mutex_lock(&fa_mu);
    fa_entry *slot = NULL;
    for (unsigned i = fa_hash(f, dev, attr), n = 0; n < FA_SLOTS; i = (i + 1) % FA_SLOTS, n++) {
        fa_entry *x = &fa_table[i];
        if (!x->f) {
            slot = x;
            break;
        }
        if (x->f == f && x->dev == dev && x->attr == attr) {
            /* a size already opted in to covers any smaller one */
            if (x->value == value || (grows && x->err == cudaSuccess && value <= x->value)) {
                e = x->err;
                pthread_mutex_unlock(&fa_mu);
                return e;
            }
            slot = x;
            break;
        }
    }
    e = cudaFuncSetAttribute(f, (enum cudaFuncAttribute)attr, value);
    if (e != cudaSuccess) cudaGetLastError(); /* returned, not left pending for the next launch's check */
    if (slot) slot->f = f, slot->dev = dev, slot->attr = attr, slot->value = value, slot->err = e;
    pthread_mutex_unlock(&fa_mu);
    return e;
}
