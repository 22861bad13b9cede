/* Public view of the GPU scheme registry (lw_scheme_count / _name / _about
 * in liftwave.h): the papers' schemes this build knows, whether or not a
 * device is present. */
#include "lw_scheme.h"

#include <pthread.h>
#include <stdio.h>

#define ABOUT_MAX 96 /* more entries than the families register */
#define ABOUT_LEN 320

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static char g_about[ABOUT_MAX][ABOUT_LEN];

/* "paper 000 | inverse yes | 44 ops/quad | 4 barriers | description" */
static void build(void)
{
    int n = lwk_scheme_count();
    for (int i = 0; i < n && i < ABOUT_MAX; i++) {
        const lwk_scheme *sc = lwk_scheme_at(i);
        if (!sc) continue;
        char ops[24], bar[24];
        if (sc->ops_per_quad >= 0) snprintf(ops, sizeof ops, "%d", sc->ops_per_quad);
        else snprintf(ops, sizeof ops, "?");
        if (sc->barriers >= 0) snprintf(bar, sizeof bar, "%d", sc->barriers);
        else snprintf(bar, sizeof bar, "?");
        snprintf(g_about[i], ABOUT_LEN, "paper %s | inverse %s | %s ops/quad | %s barriers | %s",
                 sc->paper ? sc->paper : "?", sc->has_inverse ? "yes" : "no", ops, bar, sc->about ? sc->about : "");
    }
}

int lw_scheme_count(void)
{
    int n = lwk_scheme_count();
    return n > ABOUT_MAX ? ABOUT_MAX : n;
}

const char *lw_scheme_name(int i)
{
    if (i < 0 || i >= lw_scheme_count()) return NULL;
    const lwk_scheme *sc = lwk_scheme_at(i);
    return sc ? sc->name : NULL;
}

const char *lw_scheme_about(int i)
{
    if (i < 0 || i >= lw_scheme_count()) return NULL;
    pthread_once(&g_once, build);
    return g_about[i];
}
