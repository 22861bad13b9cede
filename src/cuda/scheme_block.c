/* Family table of the block schemes of Barina, Kula and Zemcik (paper 003;
 * lw_scheme.h).  One kernel body runs every scheme's program
 * (k_block_prog.cuh, k_block_kernel.cuh); each scheme is registered twice:
 * NAME with double buffering (one barrier per spatial step: the paper's
 * Table 2 counts) and NAME:single with single buffering (a second barrier
 * before each rewrite of the one shared buffer; Table 3's smaller footprint).
 * `convolution` has one spatial step, so no buffering variant.
 *
 * Every scheme takes cdf53, cdf97 and dd137 in float32 (both bufferings) and
 * float64 (double buffering), both modes, any size, forward and inverse.
 * Integer (cdf53, dd137) only for sweldens: the other schemes merge steps
 * whose rounding the reference applies one at a time, so they would not be
 * exact.  Counts (cost): lwk_block_cost from the kernels' programs, next to
 * the paper's Table 2 (k_block_cost.cu; its barriers are those of double
 * buffering, so a :single entry shows none). */
#include "k_block_api.cuh"
#include "lw_scheme.h"

#include <string.h>

#define SINGLE 0x100 /* variant flag: single buffering */

static int block_supported(const lwk_scheme *sc, int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols)
{
    int id = sc->variant & 0xff, single = (sc->variant & SINGLE) != 0;
    const lw_wavelet_def *d = lw_wavelet_get((lw_wavelet)w->id);
    /* the programs lift pair by pair with symmetric taps (k_block_kernel.cuh) */
    if (!d || !lw_wavelet_step_pairs(d) || !lw_wavelet_symmetric_taps(d)) return 0;
    if (rows < 2 || cols < 2) return 0;
    if (mode == LW_PERIODIC && ((rows & 1) || (cols & 1))) return 0;
    if (mode != LW_PERIODIC && mode != LW_SYMMETRIC) return 0;
    switch (dtype) {
    case LWK_F32: return !w->integer;
    case LWK_F64: return !w->integer && !single;
    case LWK_I32: return w->integer && id == LWK_BLOCK_SWELDENS && d->has_integer;
    }
    return 0;
}

#define LAUNCHER(ID, fn) fn,
static const lwk_block_fn launchers[LWK_BLOCK_NSCHEMES] = {LWK_BLOCK_SCHEME_LIST(LAUNCHER)};
#undef LAUNCHER

static cudaError_t block_forward(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dll,
                                 lwk_plane ddet, void *scratch, cudaStream_t s)
{
    (void)scratch;
    return launchers[sc->variant & 0xff](dtype, 0, (sc->variant & SINGLE) != 0, t, src, dll, ddet, s);
}

static cudaError_t block_inverse(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane sll, lwk_plane sdet,
                                 lwk_plane dst, void *scratch, cudaStream_t s)
{
    (void)scratch;
    return launchers[sc->variant & 0xff](dtype, 1, (sc->variant & SINGLE) != 0, t, sll, sdet, dst, s);
}

static int block_cost(const lwk_scheme *sc, int wavelet, lwk_cost *c)
{
    int id = sc->variant & 0xff, single = (sc->variant & SINGLE) != 0, ops = 0;
    if (!lwk_block_cost(id, wavelet, single, &ops, &c->barriers, NULL)) return 0;
    c->ops = ops;
    if (!lwk_block_table2(id, wavelet, &c->paper_ops, &c->paper_barriers)) c->paper_ops = c->paper_barriers = -1;
    if (single) c->paper_barriers = -1;
    return 1;
}

#define ENTRY(name, id, single, about)                                                                            \
    {name, "003", about, 1, (id) | ((single) ? SINGLE : 0), block_supported, NULL, block_forward, block_inverse, \
     block_cost}
#define PAIR(name, ID, about)                                    \
    ENTRY(name, LWK_BLOCK_##ID, 0, about ", double buffering"), \
        ENTRY(name ":single", LWK_BLOCK_##ID, 1, about ", single buffering")

static const lwk_scheme table[] = {
    PAIR("sweldens", SWELDENS, "separable lifting in the block: T^H_P | T^V_P | S^H_U | S^V_U per lifting pair"),
    PAIR("iwahashi", IWAHASHI, "Iwahashi's non-separable 3-step lifting: T^I | R^I | S^I (2-D predict, 1-D pair, 2-D update)"),
    PAIR("explosive", EXPLOSIVE, "explosive 3-step lifting: T^E | R^E | S^E (LL spreads, then HH spreads)"),
    PAIR("monolithic", MONOLITHIC, "monolithic 2-step lifting: spatial predict T_P | spatial update S_U"),
    PAIR("polyphase", POLYPHASE, "one spatial step per lifting pair: the 4x4 polyphase matrix N_P,U"),
    ENTRY("convolution", LWK_BLOCK_CONVOLUTION, 0,
          "four 2-D FIR filters from the input (the whole polyphase matrix, scaling included), one step"),
    PAIR("iwahashi*", IWAHASHI_S, "Iwahashi with P = P0 + P1, U = U0 + U1: scalar taps as local separable steps"),
    PAIR("explosive*", EXPLOSIVE_S, "explosive with P = P0 + P1, U = U0 + U1: scalar taps as local separable steps"),
    PAIR("monolithic*", MONOLITHIC_S, "monolithic with P = P0 + P1, U = U0 + U1: T_P1 T^V_P0 T^H_P0 | S_U1 S^V_U0 S^H_U0"),
    PAIR("polyphase*", POLYPHASE_S, "polyphase with P = P0 + P1, U = U0 + U1: T_P0 local | N_P1,U1 then S_U0 local"),
};
#define NTABLE ((int)(sizeof table / sizeof table[0]))

const lwk_scheme *lwk_block_find(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < NTABLE; i++)
        if (strcmp(table[i].name, name) == 0) return &table[i];
    return NULL;
}

int lwk_block_count(void) { return NTABLE; }

const lwk_scheme *lwk_block_at(int i) { return i >= 0 && i < NTABLE ? &table[i] : NULL; }
