/* Compile-time view of the wavelet list (src/core/wavelet_list.h) for the
 * kernels: the step structure of each wavelet as constexpr tables, the
 * properties the engines decide support from, and one dispatch from a
 * run-time wavelet id to a template argument.  The weights are not here:
 * kernels read them from lwk_wave (kernel parameters). */
#ifndef LW_WAVELET_CT_CUH
#define LW_WAVELET_CT_CUH

#include "../core/wavelet_list.h"
#include "dtype_ct.cuh"
#include "lw_cuda.h"

#include <type_traits>

/* Every lookup is a chain of scalar tests (no aggregate is built), so that
 * with W and the step index known after unrolling the compiler folds it to
 * a constant and register windows stay in registers. */
#define LWC_PICK4(i, a, b, c, d) ((i) == 0 ? (a) : (i) == 1 ? (b) : (i) == 2 ? (c) : (d))
/* taps in +-offset pairs of equal weight (2 or 4 taps) */
#define LWC_SYM(nt, o0, o1, o2, o3, w0, w1, w2, w3)                                   \
    ((nt) == 2   ? ((o0) == -(o1) && (w0) == (w1))                                    \
     : (nt) == 4 ? ((o0) == -(o3) && (o1) == -(o2) && (w0) == (w3) && (w1) == (w2)) \
                 : false)
/* field f of step s: 0 parity, 1 taps, 2 offset of tap i, 3 symmetric taps;
 * -1 for a step past the last (so f = 0 counts the steps) */
#define LWC_FIELD(odd, nt, o0, o1, o2, o3, w0, w1, w2, w3, ...)                                         \
    if (k++ == s)                                                                                        \
        return f == 0 ? (odd) : f == 1 ? (nt) : f == 2 ? LWC_PICK4(i, o0, o1, o2, o3)                  \
                                              : (int)LWC_SYM(nt, o0, o1, o2, o3, w0, w1, w2, w3);
#define LWC_ROWS(ID, ...) \
    if (W == LW_##ID) { LW_STEPS_##ID(LWC_FIELD) }

__host__ __device__ constexpr int lwc_base_field(int W, int s, int f, int i)
{
    int k = 0;
    LW_WAVELET_LIST(LWC_ROWS)
    return -1;
}

/* Ids from LW_TRANSPOSED_ID on are the transposed rows (lw_wavelet_transpose:
 * the other parity, the taps reversed and negated; the periodic adjoints run
 * as their inverse / forward). */
__host__ __device__ constexpr int lwc_step_field(int W, int s, int f, int i)
{
    if (W < LW_TRANSPOSED_ID) return lwc_base_field(W, s, f, i);
    const int B = W - LW_TRANSPOSED_ID, nt = lwc_base_field(B, s, 1, 0);
    if (nt < 0) return -1;
    if (f == 0) return 1 - lwc_base_field(B, s, 0, 0);
    if (f == 2) return i < nt ? -lwc_base_field(B, s, 2, nt - 1 - i) : 0;
    return lwc_base_field(B, s, f, i);
}

__host__ __device__ constexpr int sh_nsteps(int W)
{
    int n = 0;
    while (lwc_step_field(W, n, 0, 0) >= 0) n++;
    return n;
}
__host__ __device__ constexpr int sh_par(int W, int s) { return lwc_step_field(W, s, 0, 0); }
__host__ __device__ constexpr int sh_ntaps(int W, int s) { return lwc_step_field(W, s, 1, 0); }
__host__ __device__ constexpr int sh_off(int W, int s, int i) { return lwc_step_field(W, s, 2, i); }
__host__ __device__ constexpr bool lwc_step_symmetric(int W, int s) { return lwc_step_field(W, s, 3, 0) == 1; }

#define LWC_FLAGS(ID, name, zl, zh, has_int, has_flt, sep, ortho) \
    if (W == LW_##ID) return f == 0 ? has_int != 0 : f == 1 ? has_flt != 0 : sep != 0;
__host__ __device__ constexpr bool lwc_flag(int W, int f)
{
    if (W >= LW_TRANSPOSED_ID) return f != 0 && lwc_flag(W - LW_TRANSPOSED_ID, f); /* no integer rule */
    LW_WAVELET_LIST(LWC_FLAGS)
    return false;
}

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

/* Whether both scale factors (zeta) are 1, so that scaling is the identity
 * and a kernel may leave it out (the transposed rows' factors are the
 * reciprocals: 1 exactly when the row's are). */
#define LWC_UNIT_ZETA(ID, name, zl, zh, ...) \
    if (W == LW_##ID) return (zl) == 1.0 && (zh) == 1.0;
__host__ __device__ constexpr bool lwc_unit_zeta(int W)
{
    if (W >= LW_TRANSPOSED_ID) W -= LW_TRANSPOSED_ID;
    LW_WAVELET_LIST(LWC_UNIT_ZETA)
    return false;
}

/* ---- properties (the same rules as lw_wavelet_* in lw_internal.h) -------- */
__host__ __device__ constexpr bool lwc_has_integer(int W) { return lwc_flag(W, 0); }
__host__ __device__ constexpr bool lwc_separable(int W) { return lwc_flag(W, 2); }
__host__ __device__ constexpr bool lwc_symmetric_taps(int W)
{
    for (int s = 0; s < sh_nsteps(W); s++)
        if (!lwc_step_symmetric(W, s)) return false;
    return true;
}
__host__ __device__ constexpr bool lwc_step_pairs(int W)
{
    if (sh_nsteps(W) % 2) return false;
    for (int s = 0; s < sh_nsteps(W); s++)
        if (sh_par(W, s) != (s % 2 == 0 ? 1 : 0)) return false;
    return true;
}

/* steps that read only inside their pairs (2k, 2k+1): odd targets at -1,
 * even targets at +1 (haar) */
__host__ __device__ constexpr bool lwc_inside_pairs(int W)
{
    for (int s = 0; s < sh_nsteps(W); s++)
        for (int i = 0; i < sh_ntaps(W, s); i++)
            if (sh_off(W, s, i) != (sh_par(W, s) ? -1 : 1)) return false;
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

/* The transposed rows a default engine runs: those of the separable float
 * wavelets that are not orthonormal (an orthonormal periodic adjoint is the
 * inverse itself). */
#define LWC_ORTHO(ID, name, zl, zh, has_int, has_flt, sep, ortho) \
    if (W == LW_##ID) return ortho != 0;
__host__ __device__ constexpr bool lwc_orthonormal(int W)
{
    LW_WAVELET_LIST(LWC_ORTHO)
    return false;
}
#undef LWC_ORTHO
__host__ __device__ constexpr bool lwc_transposed_runs(int B) { return lwc_flag(B, 2) && lwc_flag(B, 1) && !lwc_orthonormal(B); }

/* lwc_dispatch, and the transposed ids (the default engines' periodic adjoints) */
template <class F> static inline cudaError_t lwc_dispatch_all(int id, F &&f)
{
    if (id < LW_TRANSPOSED_ID) return lwc_dispatch(id, f);
#define LWC_TCASE(ID, ...)                                                                   \
    case LW_##ID + LW_TRANSPOSED_ID:                                                         \
        if constexpr (lwc_transposed_runs(LW_##ID))                                          \
            return f(std::integral_constant<int, LW_##ID + LW_TRANSPOSED_ID>{});             \
        else                                                                                 \
            return cudaErrorInvalidValue;
    switch (id) { LW_WAVELET_LIST(LWC_TCASE) }
#undef LWC_TCASE
    return cudaErrorInvalidValue;
}

/* f((S *)0, W, INV) for the storage type of dtype (dtype_ct.cuh), wavelet id
 * and direction, in the kernel family's instances: those RUNS<S>::ok(W)
 * allows (else cudaErrorInvalidValue, and none compiled) */
template <template <class> class RUNS, class F>
static inline cudaError_t lwc_dispatch_typed(int dtype, int id, bool inverse, F &&f)
{
    return lwd_by_dtype(dtype, [&](auto t) -> cudaError_t {
        typedef LWD_TYPE_OF(t) S;
        return lwc_dispatch(id, [&](auto wc) -> cudaError_t {
            constexpr int W = decltype(wc)::value;
            if constexpr (!RUNS<S>::ok(W)) return cudaErrorInvalidValue;
            else return inverse ? f((S *)0, wc, std::true_type()) : f((S *)0, wc, std::false_type());
        });
    });
}

#endif
