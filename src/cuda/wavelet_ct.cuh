/* Compile-time view of the wavelet list (src/core/wavelet_list.h) for the
 * kernels: the step structure of each wavelet as constexpr tables, the
 * properties the engines decide support from, and one dispatch from a
 * run-time wavelet id to a template argument.  The weights are not here:
 * kernels read them from lwk_wave (kernel parameters). */
#ifndef LW_WAVELET_CT_CUH
#define LW_WAVELET_CT_CUH

#include "../core/wavelet_list.h"
#include "lw_cuda.h"

#include <type_traits>

struct lwc_step {
    int par;    /* 1: odd samples are the target */
    int nt;     /* taps */
    int off[4]; /* tap offsets */
    bool sym;   /* taps in +-offset pairs of equal weight */
};
struct lwc_wave {
    int nsteps;
    lwc_step s[LW_MAX_STEPS];
    bool has_int, has_float, separable;
};

#define LWC_SYM(o0, o1, o2, o3, w0, w1, w2, w3, nt)                                                    \
    ((nt) == 2 ? ((o0) == -(o1) && (w0) == (w1)) : (nt) == 4 ? ((o0) == -(o3) && (o1) == -(o2) && (w0) == (w3) && (w1) == (w2)) \
                                                               : false)
#define LWC_STEP(odd, nt, o0, o1, o2, o3, w0, w1, w2, w3, ...) \
    lwc_step{odd, nt, {o0, o1, o2, o3}, LWC_SYM(o0, o1, o2, o3, w0, w1, w2, w3, nt)},
#define LWC_COUNT(...) +1
#define LWC_ROW(ID, name, zl, zh, has_int, has_flt, sep, ortho) \
    W == LW_##ID ? lwc_wave{(0 LW_STEPS_##ID(LWC_COUNT)), {LW_STEPS_##ID(LWC_STEP)}, has_int != 0, has_flt != 0, sep != 0} :

__host__ __device__ constexpr lwc_wave lwc_wave_of(int W) { return LW_WAVELET_LIST(LWC_ROW) lwc_wave{}; }

/* ---- step structure ------------------------------------------------------ */
__host__ __device__ constexpr int sh_nsteps(int W) { return lwc_wave_of(W).nsteps; }
__host__ __device__ constexpr int sh_par(int W, int s) { return lwc_wave_of(W).s[s].par; }
__host__ __device__ constexpr int sh_ntaps(int W, int s) { return lwc_wave_of(W).s[s].nt; }
__host__ __device__ constexpr int sh_off(int W, int s, int i) { return lwc_wave_of(W).s[s].off[i]; }
/* reach of one level per side, rounded up to even (register windows start on
 * an even sample) */
__host__ __device__ constexpr int sh_halo(int W)
{
    int h = 0;
    for (int s = 0; s < sh_nsteps(W); s++) {
        int r = 0;
        for (int i = 0; i < sh_ntaps(W, s); i++) {
            const int a = sh_off(W, s, i) < 0 ? -sh_off(W, s, i) : sh_off(W, s, i);
            r = a > r ? a : r;
        }
        h += r;
    }
    return (h + 1) & ~1;
}

/* ---- properties (the same rules as lw_wavelet_* in lw_internal.h) -------- */
__host__ __device__ constexpr bool lwc_has_integer(int W) { return lwc_wave_of(W).has_int; }
__host__ __device__ constexpr bool lwc_separable(int W) { return lwc_wave_of(W).separable; }
__host__ __device__ constexpr bool lwc_symmetric_taps(int W)
{
    for (int s = 0; s < sh_nsteps(W); s++)
        if (!lwc_wave_of(W).s[s].sym) return false;
    return true;
}
__host__ __device__ constexpr bool lwc_step_pairs(int W)
{
    if (sh_nsteps(W) % 2) return false;
    for (int s = 0; s < sh_nsteps(W); s++)
        if (sh_par(W, s) != (s % 2 == 0 ? 1 : 0)) return false;
    return true;
}

/* ---- dispatch -------------------------------------------------------------
 * f(std::integral_constant<int, W>{}) for the wavelet id; callers filter the
 * wavelets an engine runs with `if constexpr` on the properties above, so
 * that only those are instantiated. */
template <class F> static inline cudaError_t lwc_dispatch(int id, F &&f)
{
#define LWC_CASE(ID, ...) \
    case LW_##ID: return f(std::integral_constant<int, LW_##ID>{});
    switch (id) { LW_WAVELET_LIST(LWC_CASE) }
#undef LWC_CASE
    return cudaErrorInvalidValue;
}

#endif
