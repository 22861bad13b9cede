/* The transpose of one lifting step in gather form, shared by the fast
 * backends (cpu: fast_adjoint.c, cuda: k_pass.cu).  The reference's scatter
 * form (ref_lift1d.c) is the definition; docs/ADJOINT.md derives both.
 *
 * A step with target parity p and taps (o_i, w_i) adds w_i * x[ext(t + o_i)]
 * to every target t (ext: the boundary mode).  Its transpose adds to every
 * source s (the other parity)
 *     sum_i w_i * sum of x[t] over the targets t in [0, n) with ext(t + o_i) = s.
 * Inside the line (R < s < n - 1 - R, R the step's reach) that is the lifting
 * step sum_i w_i * x[s - o_i]; near the ends the extension folds: several
 * (t, i) land on one s (symmetric: x[1] takes x[0] and x[2] through tap -1
 * and +1 of t = 0 and t = 2 ...), and every one of them counts. */
#ifndef LW_ADJOINT_STEP_H
#define LW_ADJOINT_STEP_H

#include "lw_internal.h"

/* Largest |offset| of a step's taps. */
static inline LW_HOST_DEVICE int lw_adj_reach(int ntaps, const int *off)
{
    int r = 0;
    for (int i = 0; i < ntaps; i++) r = off[i] > r ? off[i] : (-off[i] > r ? -off[i] : r);
    return r;
}

/* 1 when source s of a line of length n takes no folded term. */
static inline LW_HOST_DEVICE int lw_adj_interior(int64_t s, int64_t n, int reach)
{
    return s > reach && s < n - 1 - reach;
}

/* NAME(row, w0, wl, s, n, mode, ntaps, off, wt): the transposed step's sum
 * for source s in [0, n), folding included.  AT(row, t, w0, wl) is the
 * expression for x[t]: LW_ADJ_WINDOW reads row[t - w0] clamped into [0, wl)
 * to the nearest sample of t's parity (a window of the line, as the CUDA
 * pass holds; a clamped read lands only in the window's halo, whose results
 * are dropped, and never on a target of the step, which another thread may
 * be writing: the sources have the other parity); LW_ADJ_SPLIT reads a
 * line held split, even samples from row[0], odd ones from row[wl];
 * LW_ADJ_STRIDED reads sample t at row[t * wl] (lines side by side).  One
 * body per element type T (weights of type WT); QUAL adds the qualifiers
 * (static inline, __device__). */
#define LW_ADJ_WINDOW(row, t, w0, wl)                                                                     \
    (row)[(t) - (w0) < 0 ? (((t) - (w0)) & 1)                                                               \
                         : ((t) - (w0) >= (wl) ? (wl) - 1 - (((wl) - 1 - ((t) - (w0))) & 1) : (t) - (w0))]
#define LW_ADJ_SPLIT(row, t, w0, wl) (row)[((t) & 1) ? (wl) + ((t) >> 1) : ((t) >> 1)]
#define LW_ADJ_STRIDED(row, t, w0, wl) (row)[(t) * (wl)]
#define LW_DEFINE_ADJ_GATHER(NAME, T, WT, QUAL, AT)                                                      \
    QUAL T NAME(const T *row, int64_t w0, int64_t wl, int64_t s, int64_t n, int mode, int ntaps,         \
                const int *off, const WT *wt)                                                            \
    {                                                                                                    \
        T acc = 0;                                                                                       \
        for (int i = 0; i < ntaps; i++) {                                                                \
            const int o = off[i];                                                                        \
            T part = 0;                                                                                  \
            int64_t t = s - o; /* u = t + o = s: the unfolded term */                                    \
            if (t >= 0 && t < n) part += AT(row, t, w0, wl);                                             \
            /* u = t + o outside [0, n) (t in [0, n)) whose extension is s */                           \
            const int64_t ulo = o < 0 ? o : n, uhi = o < 0 ? -1 : n - 1 + o;                              \
            for (int64_t u = ulo; u <= uhi; u++) {                                                       \
                t = u - o;                                                                               \
                if (t >= 0 && t < n && lw_boundary_index(u, n, (lw_mode)mode) == s)                      \
                    part += AT(row, t, w0, wl);                                                          \
            }                                                                                            \
            acc += wt[i] * part;                                                                         \
        }                                                                                                \
        return acc;                                                                                      \
    }

#endif
