/* Public view of the GPU scheme registry (lw_scheme_count / _name / _about
 * in liftwave.h; lw_scheme_cost_of in liftwave.h): the papers' schemes
 * this build knows, whether or not a device is present.  The 2-D tile
 * schemes of the registry (lw_scheme.h), then "fs", the Faber-Schauder
 * engine of paper 004 (fs_exec.c, k_fs.cu), which runs for the fs wavelet
 * only. */
#include "lw_scheme.h"

#include <pthread.h>
#include <stdio.h>

#define ABOUT_MAX 96 /* more entries than the families register */
#define ABOUT_LEN 320

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static char g_about[ABOUT_MAX][ABOUT_LEN];

/* ---- fs, after the registry ------------------------------------------------- */

#define FS_ABOUT                                                                                                  \
    "Faber-Schauder, wavelet fs only (int32 and float): every level in one launch from the original pixels, " \
    "both layouts; inverse coarse to fine"

/* Forward fs, one level of a quad: each odd companion of the all-even sample
 * subtracts the average of its 2^(odd axes) even neighbours, read from the
 * original pixels (k_fs.cu): HL 2 + LH 2 + HH 4 = 3^2 - 1 taps.  All levels
 * run in one launch without a barrier. */
static int fs_cost(int wavelet, lw_scheme_cost *c)
{
    if (wavelet != LW_FS) return 0;
    c->ops = 3 * 3 - 1;
    c->barriers = 0;
    c->paper_ops = c->paper_barriers = -1; /* paper 004 gives none */
    return 1;
}

static int fs_index(void) { return lwk_scheme_count(); }

/* ---- the public list ---------------------------------------------------------- */

int lw_scheme_count(void)
{
    int n = lwk_scheme_count() + 1;
    return n > ABOUT_MAX ? ABOUT_MAX : n;
}

int lw_scheme_cost_of(int i, lw_wavelet w, lw_scheme_cost *c)
{
    if (i < 0 || i >= lw_scheme_count() || !c) return 0;
    if (i == fs_index()) return fs_cost((int)w, c);
    const lwk_scheme *sc = lwk_scheme_at(i);
    lwk_cost k;
    if (!sc || !sc->cost || !sc->cost(sc, (int)w, &k)) return 0;
    c->ops = k.ops, c->barriers = k.barriers, c->paper_ops = k.paper_ops, c->paper_barriers = k.paper_barriers;
    return 1;
}

/* "paper 000 | inverse yes | 44 ops/quad | 4 barriers | description": the
 * counts for CDF 9/7 (fs: for the fs wavelet) */
static void build(void)
{
    int n = lw_scheme_count();
    for (int i = 0; i < n; i++) {
        const lwk_scheme *sc = i == fs_index() ? NULL : lwk_scheme_at(i);
        if (!sc && i != fs_index()) continue;
        lw_scheme_cost c;
        char ops[24] = "?", bar[24] = "?";
        if (lw_scheme_cost_of(i, sc ? LW_CDF97 : LW_FS, &c))
            snprintf(ops, sizeof ops, "%g", c.ops), snprintf(bar, sizeof bar, "%d", c.barriers);
        snprintf(g_about[i], ABOUT_LEN, "paper %s | inverse %s | %s ops/quad | %s barriers | %s",
                 sc ? sc->paper : "004", !sc || sc->has_inverse ? "yes" : "no", ops, bar, sc ? sc->about : FS_ABOUT);
    }
}

const char *lw_scheme_name(int i)
{
    if (i < 0 || i >= lw_scheme_count()) return NULL;
    if (i == fs_index()) return "fs";
    const lwk_scheme *sc = lwk_scheme_at(i);
    return sc ? sc->name : NULL;
}

const char *lw_scheme_about(int i)
{
    if (i < 0 || i >= lw_scheme_count()) return NULL;
    pthread_once(&g_once, build);
    return g_about[i];
}
