/* The registry of the papers' GPU schemes: every family's table in order
 * (none in a build configured with LW_CUDA_SCHEMES=OFF). */
#include "lw_scheme.h"

#include <string.h>

typedef struct family {
    const lwk_scheme *(*find)(const char *);
    int (*count)(void);
    const lwk_scheme *(*at)(int);
} family;

#ifdef LW_HAVE_CUDA_SCHEMES
static const family families[] = {
    {lwk_sep_find, lwk_sep_count, lwk_sep_at},
    {lwk_block_find, lwk_block_count, lwk_block_at},
};
#define NFAM ((int)(sizeof families / sizeof families[0]))
#else
static const family families[1];
#define NFAM 0
#endif

const lwk_scheme *lwk_scheme_find(const char *name)
{
    if (!name) return NULL;
    for (int f = 0; f < NFAM; f++) {
        const lwk_scheme *sc = families[f].find(name);
        if (sc) return sc;
    }
    return NULL;
}

int lwk_scheme_count(void)
{
    int n = 0;
    for (int f = 0; f < NFAM; f++) n += families[f].count();
    return n;
}

const lwk_scheme *lwk_scheme_at(int i)
{
    if (i < 0) return NULL;
    for (int f = 0; f < NFAM; f++) {
        int n = families[f].count();
        if (i < n) return families[f].at(i);
        i -= n;
    }
    return NULL;
}
