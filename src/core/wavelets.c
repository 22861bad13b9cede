/* The lifting step tables of every wavelet, generated from wavelet_list.h
 * (docs/CONVENTIONS.md section 1 states them in words). */
#include "lw_internal.h"
#include "wavelet_list.h"

#include <stddef.h>
#include <string.h>

#define MK_STEP(odd, nt, o0, o1, o2, o3, w0, w1, w2, w3, c0, c1, c2, c3, sg, ad, sh) \
    {odd, nt, {o0, o1, o2, o3}, {w0, w1, w2, w3}, {c0, c1, c2, c3}, sg, ad, sh},
#define COUNT_STEP(...) +1
#define REACH_STEP(odd, nt, o0, o1, o2, o3, ...) +LW_MAX4(LW_ABS(o0), LW_ABS(o1), LW_ABS(o2), LW_ABS(o3))
#define LW_ABS(v) ((v) < 0 ? -(v) : (v))
#define LW_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define LW_MAX4(a, b, c, d) LW_MAX2(LW_MAX2(a, b), LW_MAX2(c, d))

#define MK_DEF(ID, name, zl, zh, has_int, has_flt, sep, ortho)                                  \
    {LW_##ID, name, (0 LW_STEPS_##ID(COUNT_STEP)), {LW_STEPS_##ID(MK_STEP)}, zl, zh, has_int, has_flt, sep, \
     (0 LW_STEPS_##ID(REACH_STEP)), ortho},

static const lw_wavelet_def defs[] = {LW_WAVELET_LIST(MK_DEF)};

/* The transposed rows (lw_wavelet_transpose, at compile time): the other
 * parity, the taps reversed and negated, 1/zeta, no integer rule. */
#define T_AT(nt, a4, a2, a1) ((nt) == 4 ? (a4) : (nt) == 2 ? (a2) : (a1))
#define MK_TSTEP(odd, nt, o0, o1, o2, o3, w0, w1, w2, w3, ...)                                              \
    {!(odd), nt, {-T_AT(nt, o3, o1, o0), -T_AT(nt, o2, o0, 0), -T_AT(nt, o1, 0, 0), -T_AT(nt, o0, 0, 0)},   \
     {-T_AT(nt, w3, w1, w0), -T_AT(nt, w2, w0, 0), -T_AT(nt, w1, 0, 0), -T_AT(nt, w0, 0, 0)}, {0, 0, 0, 0}, 0, 0, 0},
#define MK_TDEF(ID, name, zl, zh, has_int, has_flt, sep, ortho)                                                    \
    {(lw_wavelet)(LW_##ID + LW_TRANSPOSED_ID), name, (0 LW_STEPS_##ID(COUNT_STEP)), {LW_STEPS_##ID(MK_TSTEP)},      \
     1.0 / (zl), 1.0 / (zh), 0, has_flt, sep, (0 LW_STEPS_##ID(REACH_STEP)), 0},

static const lw_wavelet_def tdefs[] = {LW_WAVELET_LIST(MK_TDEF)};

/* the rows are in enum order and none is missing */
#define ROW_INDEX(ID, ...) ROW_##ID,
enum { LW_WAVELET_LIST(ROW_INDEX) ROW_COUNT };
#define CHECK_ORDER(ID, ...) _Static_assert(ROW_##ID == (int)LW_##ID, "wavelet_list.h row out of enum order");
LW_WAVELET_LIST(CHECK_ORDER)
_Static_assert(ROW_COUNT == LW_WAVELET_COUNT, "wavelet_list.h and LW_WAVELET_COUNT disagree");
#define CHECK_STEPS(ID, ...) _Static_assert((0 LW_STEPS_##ID(COUNT_STEP)) <= LW_MAX_STEPS, "too many steps");
LW_WAVELET_LIST(CHECK_STEPS)

void lw_wavelet_transpose(const lw_wavelet_def *w, lw_wavelet_def *t)
{
    *t = *w;
    t->id = (lw_wavelet)(w->id + LW_TRANSPOSED_ID);
    t->has_integer = 0;
    t->orthonormal = 0;
    for (int q = 0; q < w->nsteps; q++) {
        const lw_step *s = &w->steps[q];
        lw_step *d = &t->steps[q];
        memset(d, 0, sizeof *d);
        d->target_odd = !s->target_odd;
        d->ntaps = s->ntaps;
        for (int i = 0; i < s->ntaps; i++) { /* tap i of s, negated, lands at position ntaps-1-i (ascending) */
            d->offset[s->ntaps - 1 - i] = -s->offset[i];
            d->weight[s->ntaps - 1 - i] = -s->weight[i];
        }
    }
    t->zeta_low = 1.0 / w->zeta_low;
    t->zeta_high = 1.0 / w->zeta_high;
}

const lw_wavelet_def *lw_wavelet_get(lw_wavelet w)
{
    return ((int)w >= 0 && (int)w < LW_WAVELET_COUNT) ? &defs[w] : NULL;
}

const lw_wavelet_def *lw_wavelet_get_any(int id)
{
    if (id >= LW_TRANSPOSED_ID && id < LW_TRANSPOSED_ID + LW_WAVELET_COUNT) return &tdefs[id - LW_TRANSPOSED_ID];
    return lw_wavelet_get((lw_wavelet)id);
}

unsigned lw_wavelet_properties(lw_wavelet w)
{
    const lw_wavelet_def *d = lw_wavelet_get(w);
    if (!d) return 0;
    return (d->has_integer ? LW_WAVELET_INTEGER : 0u) | (d->has_float ? LW_WAVELET_FLOAT : 0u) |
           (d->orthonormal ? LW_WAVELET_ORTHONORMAL : 0u) | (d->separable ? LW_WAVELET_SEPARABLE : 0u);
}

int lw_wavelet_symmetric_taps(const lw_wavelet_def *w)
{
    for (int s = 0; s < w->nsteps; s++) {
        const lw_step *st = &w->steps[s];
        for (int i = 0; i < st->ntaps; i++) {
            int mirrored = 0;
            for (int j = 0; j < st->ntaps; j++)
                if (st->offset[j] == -st->offset[i] && st->weight[j] == st->weight[i] &&
                    st->icoef[j] == st->icoef[i])
                    mirrored = 1;
            if (!mirrored) return 0;
        }
    }
    return 1;
}

int lw_wavelet_inside_pairs(const lw_wavelet_def *w)
{
    for (int s = 0; s < w->nsteps; s++) {
        const lw_step *st = &w->steps[s];
        for (int i = 0; i < st->ntaps; i++)
            if (st->offset[i] != (st->target_odd ? -1 : 1)) return 0;
    }
    return 1;
}

int lw_wavelet_step_pairs(const lw_wavelet_def *w)
{
    if (w->nsteps % 2) return 0;
    for (int s = 0; s < w->nsteps; s++)
        if (w->steps[s].target_odd != (s % 2 == 0)) return 0;
    return 1;
}
