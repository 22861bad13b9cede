/* The fused multi-level 2-D engine's block body (k_stream2d.cu launches it;
 * tests/unit/test_stream2d.cu runs it on the host): one thread block
 * transforms one whole plane, up to LWK_STREAM2D_LMAX levels, periodic mode.
 *
 * Forward.  The block walks the plane's rows a pair at a time.  A step
 * ("push") of level j:
 *   vertical:   every column of the pair enters that column's lifting stream
 *               (zpipe.cuh: a register window per column; a new pair
 *               advances every lifting step by one position), which gives
 *               back a finished row pair (lowpass row, highpass row);
 *   horizontal: each finished row is lifted along itself, a segment of KP
 *               output pairs a thread (the same stream over the segment's
 *               window, read from shared memory), and its halves stored:
 *               the lowpass row's lowpass half is the LL row, which goes to
 *               level j + 1's input rows in shared memory (or, at the last
 *               level, to the LL band); the three others are detail rows.
 * Level j + 1 pushes once level j has given it two LL rows.
 *
 * Periodic wrap without recomputation.  Level 0 starts LB pairs before row
 * 0 (the plane's last rows, read again).  A coarser level starts at the
 * first LL row the level below gives it, keeps its first `nsave` input rows
 * in shared memory and reads them again after the last ones: every band row
 * is computed once and written once, the coarser levels' in a rotated order.
 *
 * Inverse: the mirror image.  The coarsest level reads its four bands (from
 * LB pairs before row 0); a push lifts each column's coefficient pair
 * (vertical), then each of the two finished rows along itself (horizontal):
 * those are two LL rows of the next finer level, which reads one a push;
 * level 0's rows are the output.  Both axes' inverses are run vertical
 * first (the float inverse changes only rounding with the order).
 *
 * Ticks.  The loop runs ticks; a tick has a vertical phase (every level
 * pushing at that tick) and a horizontal phase, each after a barrier.  Level
 * j pushes every 2^j ticks from tick c[j]; a level reads what another wrote
 * one tick or more before, so every buffer between levels holds two rotating
 * rows (plus the saved ones).  Global loads are prefetched D ticks ahead
 * (cp.async, a ring of D + 1 slots a level).  A column's register window
 * is a ring too (zpipe.cuh's rotations: level j's push i at rotation
 * i mod NW/2), so that a push moves no register. */
#ifndef LW_STREAM2D_BODY_CUH
#define LW_STREAM2D_BODY_CUH

#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"
#include "zpipe.cuh"

enum { ST_NT = 256, ST_LMAX = LWK_STREAM2D_LMAX, ST_CMAX = LWK_STREAM2D_CMAX, ST_KP = 8 };
/* ticks of global loads in flight: a block walks one plane, and an SM holds one or two of
 * them, so the loads of several ticks must be in flight to cover the memory latency
 * (about 16 KiB a block) */
template <class S> __host__ __device__ constexpr int st_depth() { return sizeof(S) == 2 ? 8 : 4; }

/* A block's schedule (the same in every thread).  Level j: n pushes, the
 * first at tick c; push i takes input pair k0 + i (forward: rows 2(k0 + i),
 * +1 of its input; inverse: coefficient row k0 + i), periodic; pushes from e
 * on emit output pair o + (i - e); nsave input rows kept for the wrap. */
struct st_geo {
    int J, R, C, ticks;
    int n[ST_LMAX], c[ST_LMAX], k0[ST_LMAX], e[ST_LMAX], o[ST_LMAX], nsave[ST_LMAX];
};

__host__ __device__ __forceinline__ int st_mod(int i, int n) { return i < 0 ? i + n : i >= n ? i - n : i; }
__host__ __device__ __forceinline__ int st_mod_any(int i, int n)
{
    const int r = i % n;
    return r < 0 ? r + n : r;
}

/* Shared-memory index of row position p, skewed by one word every 2^SK so
 * that lanes SK-strided apart fall in different banks */
template <int SK> __host__ __device__ __forceinline__ int st_sk(int p) { return p + (p >> SK); }

/* A buffer slot for input row u of a level that saves its first ns rows and
 * has nr rows before the wrap */
__host__ __device__ __forceinline__ int st_slot(int u, int ns, int nr)
{
    return u < ns ? u : u < nr ? ns + (u & 1) : u - nr;
}

template <class S, int W, int INV> struct st2 {
    typedef lwd_c<S> T;
    static constexpr t3_zsched Z = t3_make_zsched(W, INV);
    enum { NW = Z.nw, JO = Z.jo, DP = Z.dp, LB = sh_halo(W) / 2 };
    enum { NT = ST_NT, CMAX = ST_CMAX, LMAX = ST_LMAX, D = st_depth<S>(), KP = ST_KP, NSL = D + 1 };
    /* skews: the forward's horizontal phase reads mid rows 2*KP apart a lane and
     * writes link rows KP apart; the inverse's reads KP apart, writes 2*KP */
    enum { SKM = INV ? 3 : 4, SKL = INV ? 4 : 3 };
    /* saved rows a level keeps at most (forward: 2 (LB + 1 + DP), the +1 for parity) */
    enum { NSAVE = INV ? ((LB + DP + 1) & ~1) : 2 * (LB + 1 + DP) };
    static_assert(2 * CMAX / KP <= NT, "one horizontal segment a thread a tick");

    static constexpr int ncol(int j) { return ((CMAX >> j) + NT - 1) / NT; }
    static constexpr int coff(int j) { return j == 0 ? 0 : coff(j - 1) + ncol(j - 1); }
    enum { NCOLT = coff(LMAX) };
    static constexpr int mrow(int j) { return (CMAX >> j) + ((CMAX >> j) >> SKM) + 1; }
    static constexpr int lrow(int j) { return (CMAX >> (j + 1)) + ((CMAX >> (j + 1)) >> SKL) + 1; }
    static constexpr size_t a16(size_t x) { return (x + 15) & ~(size_t)15; }
    static constexpr size_t ring_bytes(int j) { return INV || j == 0 ? a16((size_t)NSL * 2 * (CMAX >> j) * sizeof(S)) : 0; }
    static constexpr size_t mid_bytes(int j) { return a16((size_t)2 * mrow(j) * sizeof(T)); }
    static constexpr size_t link_bytes(int j) { return j < LMAX - 1 ? a16((size_t)(NSAVE + 2) * lrow(j) * sizeof(T)) : 0; }
    static constexpr size_t ring_off(int j) { return j == 0 ? 0 : ring_off(j - 1) + ring_bytes(j - 1); }
    static constexpr size_t mid_off(int j) { return j == 0 ? ring_off(LMAX) : mid_off(j - 1) + mid_bytes(j - 1); }
    static constexpr size_t link_off(int j) { return j == 0 ? mid_off(LMAX) : link_off(j - 1) + link_bytes(j - 1); }
    static constexpr size_t smem() { return link_off(LMAX); }

    /* ring slot sl, row r (0, 1) of level J: the global rows of a push; level J's
     * two finished rows; slot `slot` of the rows between levels J and J + 1 */
    template <int J> static __host__ __device__ __forceinline__ S *ring(unsigned char *sm, int sl, int r)
    {
        constexpr size_t off = ring_off(J);
        return (S *)(sm + off) + (size_t)(2 * sl + r) * (CMAX >> J);
    }
    template <int J> static __host__ __device__ __forceinline__ T *mid(unsigned char *sm, int r)
    {
        constexpr size_t off = mid_off(J);
        return (T *)(sm + off) + r * mrow(J);
    }
    template <int J> static __host__ __device__ __forceinline__ T *link(unsigned char *sm, int slot)
    {
        static_assert(J >= 0 && J < LMAX - 1, "a link between two levels");
        constexpr size_t off = link_off(J);
        return (T *)(sm + off) + slot * lrow(J);
    }

    /* ---- the schedule ---- */
    static __host__ __device__ __forceinline__ void geo(int J, int R, int C, st_geo &g)
    {
        g.J = J, g.R = R, g.C = C;
        int s = 1;
        if (!INV) {
            int k0 = -LB, c = 0;
#pragma unroll
            for (int j = 0; j < LMAX; j++) {
                if (j >= J) break;
                const int rh = (R >> j) / 2;
                int lbe = LB;
                if (j < J - 1 && ((k0 + lbe) & 1)) lbe++; /* the next level's pairs start even */
                g.k0[j] = k0, g.e[j] = lbe + DP, g.n[j] = rh + lbe + DP, g.o[j] = k0 + lbe, g.c[j] = c;
                g.nsave[j] = j ? 2 * (lbe + DP) : 0;
                /* level j + 1's push i follows level j's push e + 2i + 1 (which emits
                 * its pair's second row) by one tick */
                c += s * (g.e[j] + 1) + 1;
                s *= 2;
                k0 = g.o[j] / 2;
            }
        } else {
            int k0 = -LB;
#pragma unroll
            for (int jj = 0; jj < LMAX; jj++) {
                const int j = LMAX - 1 - jj;
                if (j >= J) continue;
                const int rh = (R >> j) / 2;
                g.k0[j] = k0, g.e[j] = LB + DP, g.n[j] = rh + LB + DP, g.o[j] = k0 + LB;
                g.nsave[j] = j < J - 1 ? NSAVE : 0;
                k0 = 2 * g.o[j];
            }
            /* level j's emission u precedes level j - 1's push 2u by one tick */
            int c = 0, lo = 0;
            g.c[0] = 0;
#pragma unroll
            for (int j = 1; j < LMAX; j++) {
                if (j >= J) break;
                c -= 2 * s * g.e[j] + 1;
                s *= 2;
                g.c[j] = c;
                lo = c < lo ? c : lo;
            }
#pragma unroll
            for (int j = 0; j < LMAX; j++)
                if (j < J) g.c[j] -= lo;
        }
        g.ticks = 0;
#pragma unroll
        for (int j = 0; j < LMAX; j++) {
            if (j >= J) break;
            const int last = g.c[j] + (g.n[j] - 1) * (1 << j) + 1;
            g.ticks = last > g.ticks ? last : g.ticks;
        }
    }

    /* whether level j pushes at tick t, and which push */
    static __host__ __device__ __forceinline__ bool pushes(const st_geo &g, int j, int t, int &i)
    {
        const int d = t - g.c[j];
        if (d < 0 || (d & ((1 << j) - 1))) return false;
        i = d >> j;
        return i < g.n[j];
    }

    /* ---- global rows ---- */
    struct planes {
        const lwk_stream2d *p;
        int64_t b0, b1;
        __host__ __device__ S *at(const lwk_plane &q, int64_t off) const
        {
            return (S *)q.p + b0 * q.bs[0] + b1 * q.bs[1] + off;
        }
        __host__ __device__ S *img(int64_t r) const { return at(p->img, r * p->img.rs); }
        __host__ __device__ S *low(int64_t r) const { return at(p->low, r * p->low.rs); }
        /* row r of band m (0: LH at the top right, 1: HL, 2: HH) of level j */
        __host__ __device__ S *det(int j, int m, int64_t r) const
        {
            int64_t o[3];
            det_offsets(p->det[j], (p->rows >> j) / 2, (p->cols >> j) / 2, o);
            return at(p->det[j], o[m] + r * p->det[j].rs);
        }
    };

    /* n samples of a global row into shared memory: 16-byte cp.async where
     * both ends allow it, else 4-byte, else plain copies */
    static __host__ __device__ __forceinline__ void copy_row(S *dst, const S *src, int n, int tid)
    {
#ifdef __CUDA_ARCH__
        const uintptr_t a = (uintptr_t)dst | (uintptr_t)src;
        const int bytes = n * (int)sizeof(S);
        if ((a & 15) == 0 && (bytes & 15) == 0) {
            for (int q = tid; q < bytes / 16; q += NT) {
                const unsigned sa = (unsigned)__cvta_generic_to_shared((char *)dst + 16 * q);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"((const char *)src + 16 * q)
                             : "memory");
            }
        } else if ((a & 3) == 0 && (bytes & 3) == 0) {
            for (int q = tid; q < bytes / 4; q += NT) {
                const unsigned sa = (unsigned)__cvta_generic_to_shared((char *)dst + 4 * q);
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(sa), "l"((const char *)src + 4 * q)
                             : "memory");
            }
        } else {
            for (int q = tid; q < n; q += NT) dst[q] = src[q];
        }
#else
        for (int q = tid; q < n; q += NT) dst[q] = src[q];
#endif
    }

    /* the global rows of level J's push at tick t (if any) into its ring slot */
    template <int J>
    static __host__ __device__ __forceinline__ void fetch_level(const st_geo &g, const planes &pl, unsigned char *sm,
                                                                int t, int tid)
    {
        int i;
        if (J >= g.J || (!INV && J > 0) || !pushes(g, J, t, i)) return; /* the coarser forward levels read shared memory */
        const int sl = i % NSL, C = g.C >> J, ch = C / 2;
        if constexpr (!INV) {
            const int r = st_mod_any(2 * (g.k0[0] + i), g.R);
            copy_row(ring<0>(sm, sl, 0), pl.img(r), C, tid);
            copy_row(ring<0>(sm, sl, 1), pl.img(r + 1), C, tid);
        } else {
            const int k = st_mod_any(g.k0[J] + i, (g.R >> J) / 2);
            if (J == g.J - 1) copy_row(ring<J>(sm, sl, 0), pl.low(k), ch, tid);
            copy_row(ring<J>(sm, sl, 0) + ch, pl.det(J, 0, k), ch, tid);
            copy_row(ring<J>(sm, sl, 1), pl.det(J, 1, k), ch, tid);
            copy_row(ring<J>(sm, sl, 1) + ch, pl.det(J, 2, k), ch, tid);
        }
    }
    /* the global rows of the pushes at tick t into their ring slots */
    static __host__ __device__ __forceinline__ void fetch(const st_geo &g, const planes &pl, unsigned char *sm, int t, int tid)
    {
        fetch_level<0>(g, pl, sm, t, tid);
        fetch_level<1>(g, pl, sm, t, tid);
        fetch_level<2>(g, pl, sm, t, tid);
    }

    static __host__ __device__ __forceinline__ T ld(const S *p)
    {
#ifdef __CUDA_ARCH__
        return lwd_ld(p);
#else
        return (T)*p;
#endif
    }

    /* ---- vertical phase: each column's pair into its stream ---- */
    /* level J's push at tick t, if it has one (J a template argument: the register
     * window's place and its rotation are compile-time constants) */
    template <int J>
    static __host__ __device__ __forceinline__ void vertical_level(const lwk_wave &w, const st_geo &g, unsigned char *sm,
                                                                   T (&rg)[NCOLT][NW], int t, int tid)
    {
        int i;
        if (J >= g.J || !pushes(g, J, t, i)) return;
        const int C = g.C >> J, ch = C / 2, sl = i % NSL;
        const bool emit = i >= g.e[J];
        T *m0 = mid<J>(sm, 0), *m1 = mid<J>(sm, 1);
        const S *r0 = nullptr, *r1 = nullptr;
        if (INV || J == 0) r0 = ring<J>(sm, sl, 0), r1 = ring<J>(sm, sl, 1);
        const T *l0 = nullptr, *l1 = nullptr;
        if constexpr (!INV && J > 0) { /* input rows 2i, 2i + 1 from level J - 1 */
            const int nr = 2 * ((g.R >> J) / 2);
            l0 = link<J - 1>(sm, st_slot(2 * i, g.nsave[J], nr));
            l1 = link<J - 1>(sm, st_slot(2 * i + 1, g.nsave[J], nr));
        } else if constexpr (INV && J < LMAX - 1) { /* the LL row from level J + 1 (unless J is the top) */
            if (J < g.J - 1) l0 = link<J>(sm, st_slot(i, g.nsave[J], (g.R >> J) / 2));
        }
        const int rot = i % (NW / 2);
        t3_zrot<NW / 2>(rot, [&](auto rc) {
            constexpr int ROT = decltype(rc)::value;
#pragma unroll
            for (int u = 0; u < ncol(J); u++) {
                const int c = tid + u * NT;
                if (c >= C) continue;
                T e, o;
                if constexpr (!INV && J == 0) {
                    e = ld(r0 + c), o = ld(r1 + c);
                } else if constexpr (!INV) {
                    e = l0[st_sk<SKL>(c)], o = l1[st_sk<SKL>(c)];
                } else {
                    e = c < ch && l0 ? l0[st_sk<SKL>(c)] : ld(r0 + c);
                    o = ld(r1 + c);
                }
                T(&v)[NW] = rg[coff(J) + u];
                t3_zadvance<T, W, INV, ROT>(v, e, o, w);
                if (emit) {
                    T a = v[t3_zphys<NW>(JO, ROT)], b = v[t3_zphys<NW>(JO + 1, ROT)];
                    if (!INV) a = lwd_scale_w<W, T>(w, a, 0, 1), b = lwd_scale_w<W, T>(w, b, 1, 1);
                    m0[st_sk<SKM>(c)] = a, m1[st_sk<SKM>(c)] = b;
                }
            }
        });
    }
    static __host__ __device__ __forceinline__ void vertical(const lwk_wave &w, const st_geo &g, unsigned char *sm,
                                                             T (&rg)[NCOLT][NW], int t, int tid)
    {
        static_assert(LMAX == 3, "one call a level");
        vertical_level<0>(w, g, sm, rg, t, tid);
        vertical_level<1>(w, g, sm, rg, t, tid);
        vertical_level<2>(w, g, sm, rg, t, tid);
    }

    /* KP (forward) or 2 KP (inverse) consecutive outputs to global memory */
    template <int N> static __host__ __device__ __forceinline__ void store_run(S *p, const T (&v)[N])
    {
#ifdef __CUDA_ARCH__
        if constexpr (sizeof(S) == 2) {
            if (((uintptr_t)p & 15) == 0) {
#pragma unroll
                for (int q = 0; q < N; q += 8) store8_vec<S>(p + q, v + q);
                return;
            }
        } else if constexpr (sizeof(S) == 4) {
            if (((uintptr_t)p & 15) == 0) {
#pragma unroll
                for (int q = 0; q < N; q += 4) store4_vec<S>(p + q, v[q], v[q + 1], v[q + 2], v[q + 3]);
                return;
            }
        }
#pragma unroll
        for (int q = 0; q < N; q++) lwd_st(p + q, v[q]);
#else
        for (int q = 0; q < N; q++) p[q] = (S)v[q];
#endif
    }

    /* ---- horizontal phase: each finished row along itself ---- */
    /* level J's rows emitted at tick t, if any: this thread's segment among them
     * (gi counts down the segments of the levels before) */
    template <int J>
    static __host__ __device__ __forceinline__ void horizontal_level(const lwk_wave &w, const st_geo &g, const planes &pl,
                                                                     unsigned char *sm, int t, int &gi)
    {
        int i;
        if (J >= g.J || !pushes(g, J, t, i) || i < g.e[J]) return;
        const int C = g.C >> J, ch = C / 2, per = ch / KP, nseg = 2 * per;
        if (gi < 0 || gi >= nseg) {
            gi -= nseg;
            return;
        }
        const int r = gi / per, m0 = (gi - r * per) * KP, u = i - g.e[J];
        gi = -1;
        const T *row = mid<J>(sm, r);
        T hv[NW];
#pragma unroll
        for (int q = 0; q < NW; q++) hv[q] = 0;
        if constexpr (!INV) {
            T lo[KP], hi[KP];
#pragma unroll
            for (int x = 0; x < KP + LB + DP; x++) {
                const int pp = 2 * st_mod(m0 - LB + x, ch);
                t3_zadvance<T, W, 0, 0, true>(hv, row[st_sk<SKM>(pp)], row[st_sk<SKM>(pp + 1)], w);
                if (x >= LB + DP) {
                    lo[x - LB - DP] = lwd_scale_w<W, T>(w, hv[JO], 0, 1);
                    hi[x - LB - DP] = lwd_scale_w<W, T>(w, hv[JO + 1], 1, 1);
                }
            }
            const int P = st_mod(g.o[J] + u, (g.R >> J) / 2); /* the output row */
            bool linked = false;
            if constexpr (J < LMAX - 1) {
                if (r == 0 && J < g.J - 1) {
                    T *l = link<J>(sm, st_slot(u, g.nsave[J + 1], 2 * ((g.R >> (J + 1)) / 2)));
#pragma unroll
                    for (int q = 0; q < KP; q++) l[st_sk<SKL>(m0 + q)] = lo[q];
                    linked = true;
                }
            }
            if (!linked) store_run(r == 0 ? pl.low(P) + m0 : pl.det(J, 1, P) + m0, lo);
            store_run(pl.det(J, r == 0 ? 0 : 2, P) + m0, hi);
        } else {
            T out[2 * KP];
#pragma unroll
            for (int x = 0; x < KP + LB + DP; x++) {
                const int pp = st_mod(m0 - LB + x, ch);
                t3_zadvance<T, W, 1, 0, true>(hv, row[st_sk<SKM>(pp)], row[st_sk<SKM>(ch + pp)], w);
                if (x >= LB + DP) out[2 * (x - LB - DP)] = hv[JO], out[2 * (x - LB - DP) + 1] = hv[JO + 1];
            }
            const int M = g.o[J] + u; /* output rows 2M + r */
            if constexpr (J == 0) {
                store_run(pl.img(st_mod_any(2 * M + r, g.R)) + 2 * m0, out);
            } else {
                T *l = link<J - 1>(sm, st_slot(2 * u + r, g.nsave[J - 1], (g.R >> (J - 1)) / 2));
#pragma unroll
                for (int q = 0; q < 2 * KP; q++) l[st_sk<SKL>(2 * m0 + q)] = out[q];
            }
        }
    }
    static __host__ __device__ __forceinline__ void horizontal(const lwk_wave &w, const st_geo &g, const planes &pl,
                                                               unsigned char *sm, int t, int tid)
    {
        int gi = tid;
        horizontal_level<0>(w, g, pl, sm, t, gi);
        horizontal_level<1>(w, g, pl, sm, t, gi);
        horizontal_level<2>(w, g, pl, sm, t, gi);
    }
};

#endif
