/* Which host ranges may go straight through the copy engines: the user's
 * pinned memory, or ranges the library registered (cudaHostRegister) for the
 * calls that use them.  One process-wide list under a lock, so that a call
 * never takes for pinned a range that another call is about to unregister:
 * registrations are counted and the last holder unregisters. */
#include "staging_ring.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct host_reg {
    struct host_reg *next;
    const char *p;
    size_t n;
    int holds;
} host_reg;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static host_reg *g_regs;

/* what the CUDA runtime knows of p: pinned host memory, device memory (not
 * readable by the host), or nothing (pageable; managed memory is readable) */
static int user_kind(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return LW_HOST_PAGEABLE;
    }
    return a.type == cudaMemoryTypeHost ? LW_HOST_PINNED : a.type == cudaMemoryTypeDevice ? LW_HOST_NOT_HOST
                                                                                           : LW_HOST_PAGEABLE;
}

void lw_host_hold_begin(const void *p, size_t bytes, int want_register, lw_host_hold *h)
{
    h->how = LW_HOST_PAGEABLE, h->reg = NULL;
    if (!p || !bytes) return;
    const char *a = p, *b = a + bytes;
    pthread_mutex_lock(&g_mu);
    for (host_reg *r = g_regs; r; r = r->next) {
        if (a >= r->p && b <= r->p + r->n) { /* inside one of ours: share it */
            r->holds++;
            h->how = LW_HOST_REGISTERED, h->reg = r;
            pthread_mutex_unlock(&g_mu);
            return;
        }
        if (a < r->p + r->n && b > r->p) { /* partly ours: staged, never direct */
            pthread_mutex_unlock(&g_mu);
            return;
        }
    }
    const int kind = user_kind(p);
    if (kind != LW_HOST_PAGEABLE) {
        h->how = kind;
    } else if (want_register) {
        host_reg *r = malloc(sizeof *r);
        if (r && cudaHostRegister((void *)p, bytes, cudaHostRegisterDefault) == cudaSuccess) {
            r->p = a, r->n = bytes, r->holds = 1, r->next = g_regs;
            g_regs = r;
            h->how = LW_HOST_REGISTERED, h->reg = r;
        } else {
            cudaGetLastError(); /* e.g. pages shared with another registration: stage instead */
            free(r);
        }
    }
    pthread_mutex_unlock(&g_mu);
}

void lw_host_hold_end(lw_host_hold *h)
{
    host_reg *r = h->reg;
    h->reg = NULL;
    if (!r) return;
    pthread_mutex_lock(&g_mu);
    if (--r->holds == 0) {
        for (host_reg **pp = &g_regs; *pp; pp = &(*pp)->next)
            if (*pp == r) {
                *pp = r->next;
                break;
            }
        cudaHostUnregister((void *)r->p);
        cudaGetLastError();
        free(r);
    }
    pthread_mutex_unlock(&g_mu);
}
