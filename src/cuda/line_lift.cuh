/* One line's lifting in shared memory, held in Mallat order (its even,
 * lowpass samples in slots [0, nlo), the odd ones after them): the step
 * targets and taps of the line kernels (k_lines.cu) and the plane kernels
 * (k_plane.cu), and the 16-byte vectors they move. */
#ifndef LW_LINE_LIFT_CUH
#define LW_LINE_LIFT_CUH

#include "tile_lift.cuh"

/* ---- compile-time step facts ---------------------------------------------- */

template <int W, int s> __host__ __device__ constexpr int ln_reach_lo()
{
    int r = 0;
    for (int i = 0; i < sh_ntaps(W, s); i++) r = sh_off(W, s, i) < r ? sh_off(W, s, i) : r;
    return r;
}
template <int W, int s> __host__ __device__ constexpr int ln_reach_hi()
{
    int r = 0;
    for (int i = 0; i < sh_ntaps(W, s); i++) r = sh_off(W, s, i) > r ? sh_off(W, s, i) : r;
    return r;
}

/* Slot of sample position t (interleaved order) on a line whose lowpass half
 * has nlo = (n + 1) / 2 slots: lwd_mallat in 32-bit arithmetic (the lines
 * fit shared memory). */
__device__ __forceinline__ int ln_slot(int t, int nlo) { return (t & 1) ? nlo + (t >> 1) : (t >> 1); }

/* lwd_bidx in 32-bit arithmetic for positions at most one reflection past
 * an end (-(n - 1) <= t <= 2n - 2): a window's reach on a line longer than
 * it, without the 64-bit remainder lwd_bidx takes in general. */
__device__ __forceinline__ int ln_bidx1(int t, int n, int mode)
{
    if (mode == LW_PERIODIC) return t < 0 ? t + n : t >= n ? t - n : t;
    return t < 0 ? -t : t >= n ? 2 * (n - 1) - t : t;
}

/* Step s on one line held at b[slot * st]: this thread's targets i0, i0 + di,
 * ...  A target's taps are the other half's slots (sample t + o of the other
 * parity); near the ends they go through the mode (which keeps the parity:
 * symmetric always, periodic on even lengths, the only ones taken). */
template <class T, int W, int s, int DIR>
__device__ __forceinline__ void ln_lift(const lwk_wave &w, T *b, int st, int n, int nlo, int mode, int i0, int di)
{
    constexpr int par = sh_par(W, s), nt = sh_ntaps(W, s);
    constexpr int rlo = ln_reach_lo<W, s>(), rhi = ln_reach_hi<W, s>();
    const int ntg = par ? n - nlo : nlo;
    T *tg = b + (par ? nlo : 0) * st;
    for (int i = i0; i < ntg; i += di) {
        const int t = 2 * i + par;
        T taps[LW_MAX_TAPS];
        if (t + rlo >= 0 && t + rhi < n) {
#pragma unroll
            for (int k = 0; k < nt; k++) {
                const int o = sh_off(W, s, k);
                taps[k] = b[(par ? i + (o + 1) / 2 : nlo + i + (o - 1) / 2) * st];
            }
        } else {
#pragma unroll
            for (int k = 0; k < nt; k++) {
                const int o = t + sh_off(W, s, k);
                const int q = o >= 1 - n && o <= 2 * n - 2 ? ln_bidx1(o, n, mode) : (int)lwd_bidx(o, n, mode);
                taps[k] = b[ln_slot(q, nlo) * st];
            }
        }
        tg[i * st] = tstep_i<T, nt, DIR>::run(w, s, tg[i * st], taps);
    }
}

/* A line's global index j (sample position, or slot in Mallat order) to its slot. */
__device__ __forceinline__ int ln_gslot(int j, int nlo, bool mallat_order) { return mallat_order ? j : ln_slot(j, nlo); }

/* 16 bytes of storage elements S, as loaded / stored in one access */
template <class S> struct ln_vec {
    enum { V = 16 / sizeof(S) };
    uint4 u;
    __device__ __forceinline__ const S *e() const { return reinterpret_cast<const S *>(&u); }
    __device__ __forceinline__ S *e() { return reinterpret_cast<S *>(&u); }
};

#endif
