/* Fused 3-D engine, planes first (float32): the kernel body of the tile
 * variants "planes16x64" and "planes32x64".  As t3s_body (k_tile3d_stream.cuh),
 * a block owns a TY x TX tile of (y, x) outputs and streams its window
 * (tile + halo) along z, one pair of planes a step, reading the volume once
 * and writing the eight bands once.  The axes run in the other order:
 *
 *   copy:  the window's rows in 16-byte cp.async chunks (the forward loads
 *          HA = H rounded up to 4 columns each side, the inverse HB band
 *          columns of each band), D pairs ahead into a ring of S slots; a
 *          chunk at a line's end or off 16-byte alignment is copied a sample
 *          at a time through the boundary mode;
 *   y, x:  each of the pair's two planes is lifted along y (one thread per
 *          window column) and then along x (one task per row and 8 outputs),
 *          which writes the tile's TY x TX results to a plane buffer: the
 *          forward in band order (a row's lowpass columns, then its highpass
 *          ones), the inverse interleaved;
 *   z:     every thread owns four consecutive points of the tile and keeps
 *          each point's z line in a register window (t3_zadvance: the same
 *          pipeline, schedule and mirror refresh as t3s_body's); the
 *          finished pair goes from registers to global memory, one 16-byte
 *          store per plane.
 * So the z lifting runs on the tile's points only (t3s_body lifts the halo's
 * points along z too: 1.4-1.7x the points), the loads are a quarter of the
 * copy instructions, and no pointer per point is kept in registers.  The
 * price: every pair fed, the pipeline's warm-up and drain included, is lifted
 * in y and x (t3s_body lifts only the pairs that leave), and a third barrier
 * a step.  The three 1-D transforms act on different axes, so their order
 * changes only rounding.  Boundaries as in t3s_body: the window and the z
 * stream read through the mode once, d4 in symmetric mode refreshing the
 * mirror images (t3_lift's placed tiles, t3_zmirror). */
#ifndef LW_K_TILE3D_PLANES_CUH
#define LW_K_TILE3D_PLANES_CUH

#include "k_tile3d_stream.cuh"

/* NT threads, TY x TX outputs, D pairs prefetched, S = D + 2 ring slots,
 * MINB blocks an SM the register budget aims at (t3p_minb) */
template <int V> struct t3p_cfg;
template <> struct t3p_cfg<0> { enum { NT = 256, TY = 16, TX = 64, D = 2, S = 4, MINB = 3 }; };
template <> struct t3p_cfg<1> { enum { NT = 512, TY = 32, TX = 64, D = 2, S = 4, MINB = 1 }; };

/* Blocks an SM for the kernel's register bound: the configuration's, except
 * the 16 x 64 forwards other than cdf97's, which spill in 80 registers
 * (ptxas -v: 16 to 148 bytes) and take two */
template <int W, int INV, int V> __host__ __device__ constexpr int t3p_minb()
{
    if (V == 0 && !INV && W != LW_CDF97) return 2;
    return t3p_cfg<V>::MINB;
}

/* One window plane in shared memory.  Forward: rows of the volume's columns
 * x0 - HA .., window column j at C0 + j.  Inverse: each row holds the two
 * bands' segments (SL columns each, band columns x0/2 - HB ..), window
 * column j (interleaved position x0 - H + j) at C0 + j/2 in its band's
 * segment.  Rows in window order (position y0 - H + r), read through the
 * mode (the inverse: from their band's row). */
template <int W, int INV, class C> struct t3p_geo {
    enum {
        H = sh_halo(W),
        WY = C::TY + 2 * H,
        WX = C::TX + 2 * H,
        HA = (H + 3) & ~3,
        HB = (H / 2 + 3) & ~3,
        SL = C::TX / 2 + 2 * HB,
        ROW = INV ? 2 * SL : C::TX + 2 * HA,
        C0 = INV ? HB - H / 2 : HA - H,
        CPR = ROW / 4,                               /* 16-byte chunks a row */
        NPS = WY * ROW,                              /* samples a plane */
        NCH = (WY * CPR + C::NT - 1) / C::NT,        /* chunks a thread copies a plane */
        NG = C::TY * C::TX / 4 / C::NT               /* groups of four z points a thread */
    };
    __host__ __device__ static constexpr int col(int j) { return INV ? (j & 1) * SL + C0 + (j >> 1) : C0 + j; }
};

template <int W, int INV, class C> __host__ __device__ constexpr size_t t3p_smem()
{
    typedef t3p_geo<W, INV, C> G;
    return ((size_t)C::S * 2 * G::NPS + 2 * C::TY * C::TX) * sizeof(float) + G::ROW * sizeof(int);
}

__device__ __forceinline__ void t3p_cp16(float *s, const float *g)
{
#ifdef __CUDA_ARCH__
    const unsigned sa = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(g) : "memory");
#else
    s[0] = g[0], s[1] = g[1], s[2] = g[2], s[3] = g[3];
#endif
}

/* N consecutive shared-memory floats at p, p aligned to A floats (4, 2 or 1) */
template <int A, int N> __device__ __forceinline__ void t3p_ld(float (&u)[N], const float *p)
{
    if constexpr (A % 4 == 0 && N % 4 == 0) {
#pragma unroll
        for (int i = 0; i < N / 4; i++) {
            const float4 f = ((const float4 *)p)[i];
            u[4 * i] = f.x, u[4 * i + 1] = f.y, u[4 * i + 2] = f.z, u[4 * i + 3] = f.w;
        }
    } else if constexpr (A % 2 == 0 && N % 2 == 0) {
#pragma unroll
        for (int i = 0; i < N / 2; i++) {
            const float2 f = ((const float2 *)p)[i];
            u[2 * i] = f.x, u[2 * i + 1] = f.y;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; i++) u[i] = p[i];
    }
}

/* n (0 .. 4) of the values a .. d to p: one vector store where all four go
 * and vec allows it */
__device__ __forceinline__ void t3p_st4(float *p, int n, float a, float b, float c, float d, bool vec)
{
    if (n >= 4) {
        store4<float>(p, a, b, c, d, vec);
    } else {
        if (n > 0) p[0] = a;
        if (n > 1) p[1] = b;
        if (n > 2) p[2] = c;
    }
}

/* t3_map without a division where position i is within one line length
 * of the line (every window position on lines at least as long as the
 * reach): the copies at a line's ends map their samples every step */
__device__ __forceinline__ int64_t t3p_map(int64_t i, int64_t n, int64_t h, int mode, int inv)
{
    int64_t m = i;
    if (m < 0 || m >= n) {
        if (mode == LW_PERIODIC) m = m < 0 ? m + n : m - n;
        else m = m < 0 ? -m : 2 * (n - 1) - m;
        if (m < 0 || m >= n) m = lwd_bidx(i, n, mode);
    }
    if (inv) m = (m & 1) ? h + (m >> 1) : (m >> 1);
    return m;
}

template <int W, int INV, class C, class SYNC, bool LONG>
__device__ __forceinline__ void t3p_body(const lwk_tile3d &t, const float *__restrict__ src, float *__restrict__ dst,
                                         unsigned char *smem, int tid, int64_t bx, int64_t by, int bz, int gz)
{
    typedef float T;
    typedef t3p_geo<W, INV, C> G;
    constexpr int H = G::H, TY = C::TY, TX = C::TX, NT = C::NT, K = 8;
    constexpr int WY = G::WY, WX = G::WX, ROW = G::ROW, NPS = G::NPS, CPR = G::CPR, NCH = G::NCH, NG = G::NG;
    constexpr int DIR = INV ? -1 : 1, S = C::S, D = C::D, SEGS = TX / K, NU = K + 2 * H;
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    constexpr int NW = Z.nw, JO = Z.jo, WU = (H + 1) / 2;
    static_assert(S >= D + 2, "ring too short for three barriers a step");
    static_assert(NG >= 1 && NG * NT * 4 == TY * TX, "whole groups of four z points");
    static_assert(NCH <= 8 && ROW % 4 == 0 && TX % 16 == 0, "chunk bookkeeping");
    T *ring = (T *)smem;
    T *zb = ring + S * 2 * NPS; /* the pair's two planes, lifted in y and x: TY x TX each */
    int *xsrc = (int *)(zb + 2 * TY * TX); /* each window column's place in its source row (below) */
    const lwk_wave &w = t.w;
    const int mode = t.mode;
    const int64_t nz = t.n[0], ny = t.n[1], nx = t.n[2];
    const int64_t hz = (nz + 1) / 2, hy = (ny + 1) / 2, hx = (nx + 1) / 2;
    const int64_t sz = t.st[0], sy = t.st[1], dz = t.dt[0], dy = t.dt[1];
    float *const llp = (float *)t.ll; /* the lowpass octant apart (pyramids), or NULL */
    const int64_t lz = t.lt[0], ly = t.lt[1];
    int64_t y0 = by * TY, x0 = bx * TX;
    /* d4, LONG: the last tile ends at the line's end (t3_lift) */
    if (!tile_once_mirror_exact(W) && LONG && mode != LW_PERIODIC) {
        y0 = y0 < ((ny - TY + 1) & ~(int64_t)1) ? y0 : (ny - TY + 1) & ~(int64_t)1;
        x0 = x0 < ((nx - TX + 1) & ~(int64_t)1) ? x0 : (nx - TX + 1) & ~(int64_t)1;
    }
    const int64_t per = (hz + gz - 1) / gz, kb = (int64_t)bz * per;
    const int64_t ke = kb + per < hz ? kb + per : hz;
    if (kb >= ke) return; /* the whole block */
    const int64_t m0 = kb - WU;                /* first pair fed */
    const int na = (int)(ke - kb) + WU + Z.dp; /* steps */
    /* 16-byte copies: every chunk's source aligned (x0 a multiple of 8 puts the
     * inverse's band columns x0/2 - HB on a multiple of 4) */
    const bool al = ((uintptr_t)src % 16) == 0 && sy % 4 == 0 && sz % 4 == 0 && x0 % 8 == 0 &&
                    (!INV || hx % 4 == 0) &&
                    (!INV || !llp || (((uintptr_t)llp % 16) == 0 && ly % 4 == 0 && lz % 4 == 0));
    /* 16-byte stores: rows of dst (and of the octant apart) on multiples of 4 */
    const bool vec = dy % 4 == 0 && dz % 4 == 0 && (INV || hx % 4 == 0) && (INV || !llp || (ly % 4 == 0 && lz % 4 == 0));

    /* the chunks this thread copies (c = tid + i NT of a plane's WY x CPR):
     * their window row's place (through the mode, the inverse into its band)
     * and whether they go in one 16-byte copy */
    int myc[NCH];     /* the row's place */
    int64_t roc[NCH]; /* its offset in a plane of src */
    unsigned whole = 0;
#pragma unroll
    for (int i = 0; i < NCH; i++) {
        const int c = tid + i * NT, r = c / CPR, cc = c - r * CPR;
        myc[i] = 0, roc[i] = 0;
        if (c >= WY * CPR) continue;
        myc[i] = (int)t3_map(y0 - H + r, ny, hy, mode, INV);
        roc[i] = myc[i] * sy;
        bool in;
        if (INV) {
            const int sg = cc / (G::SL / 4);
            const int64_t b = x0 / 2 - G::HB + 4 * (cc - sg * (G::SL / 4));
            in = b >= 0 && 2 * (b + 3) + sg < nx;
        } else {
            const int64_t xa = x0 - G::HA + 4 * cc;
            in = xa >= 0 && xa + 4 <= nx;
        }
        if (al && in) whole |= 1u << i;
    }
    /* the place in a source row of every window column (through the mode; the
     * inverse: in its band), for the chunks copied a sample at a time */
    for (int c = tid; c < ROW; c += NT) {
        if (INV) {
            const int sg = c / G::SL;
            xsrc[c] = (int)t3p_map(2 * (x0 / 2 - G::HB + (c - sg * G::SL)) + sg, nx, hx, mode, 1);
        } else {
            xsrc[c] = (int)t3p_map(x0 - G::HA + c, nx, hx, mode, 0);
        }
    }
    SYNC::sync();
    auto issue = [&](int a) {
        const int64_t m = m0 + a;
        const int64_t ze = t3p_map(2 * m, nz, hz, mode, INV), zo = t3p_map(2 * m + 1, nz, hz, mode, INV);
        T *sl = ring + (a % S) * (2 * NPS);
        const float *s0 = src + ze * sz, *s1 = src + zo * sz;
        /* an even (lowpass) z plane's lowpass (y, x) block of the inverse: the octant apart */
        const float *l0 = INV && llp ? llp + ze * lz : nullptr;
#pragma unroll
        for (int i = 0; i < NCH; i++) {
            const int c = tid + i * NT, r = c / CPR, cc = c - r * CPR;
            if (NCH * NT > WY * CPR && c >= WY * CPR) continue;
            T *d0 = sl + r * ROW + 4 * cc;
            const bool apart = INV && l0 && myc[i] < hy;
            if (whole & (1u << i)) {
                const int mx = xsrc[4 * cc];
                t3p_cp16(d0, apart && mx < hx ? l0 + (int64_t)myc[i] * ly + mx : s0 + roc[i] + mx);
                t3p_cp16(d0 + NPS, s1 + roc[i] + mx);
            } else {
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    const int mx = xsrc[4 * cc + e];
                    t3_cp_async(d0 + e, apart && mx < hx ? l0 + (int64_t)myc[i] * ly + mx : s0 + roc[i] + mx);
                    t3_cp_async(d0 + NPS + e, s1 + roc[i] + mx);
                }
            }
        }
    };

    T v[4 * NG][NW];
#pragma unroll
    for (int i = 0; i < 4 * NG; i++)
#pragma unroll
        for (int j = 0; j < NW; j++) v[i][j] = 0;

#pragma unroll
    for (int a = 0; a < D; a++) {
        if (a < na) issue(a);
        t3_cp_commit();
    }
    constexpr bool RING = !(INV && H > 4);
    constexpr int NR = RING ? NW / 2 : 1;
    int rot = 0;
    for (int a = 0; a < na; a++) {
        t3_cp_wait<D - 1>(); /* this thread's copies of pair a */
        if (a + D < na) issue(a + D);
        t3_cp_commit();
        SYNC::sync(); /* every thread's */
        T *sl = ring + (a % S) * (2 * NPS);
        /* y: one (plane, window column) a task, the TY outputs written back */
        for (int c = tid; c < 2 * WX; c += NT) {
            const int pl = c / WX, j = c - pl * WX;
            T *col = sl + pl * NPS + G::col(j);
            T u[WY];
#pragma unroll
            for (int r = 0; r < WY; r++) u[r] = col[r * ROW];
            t3_lift<W, DIR, LONG>(u, w, y0 - H, ny, mode);
#pragma unroll
            for (int r = 0; r < TY; r++) col[(H + r) * ROW] = u[H + r];
        }
        SYNC::sync();
        /* x: one (plane, row, K outputs) a task, into the plane buffer */
        for (int task = tid; task < 2 * TY * SEGS; task += NT) {
            const int seg = task % SEGS, r = task / SEGS, yy = r % TY, pl = r / TY;
            const T *rp = sl + pl * NPS + (H + yy) * ROW;
            T u[NU];
            if (INV) { /* even window columns from the lowpass segment, odd ones from the highpass */
                T e[NU / 2], o[NU / 2];
                t3p_ld<G::C0 % 4 == 0 ? 4 : G::C0 % 2 == 0 ? 2 : 1>(e, rp + G::C0 + seg * (K / 2));
                t3p_ld<G::C0 % 4 == 0 ? 4 : G::C0 % 2 == 0 ? 2 : 1>(o, rp + G::SL + G::C0 + seg * (K / 2));
#pragma unroll
                for (int i = 0; i < NU / 2; i++) u[2 * i] = e[i], u[2 * i + 1] = o[i];
            } else {
                t3p_ld<G::C0 % 4 == 0 ? 4 : G::C0 % 2 == 0 ? 2 : 1>(u, rp + G::C0 + seg * K);
            }
            t3_lift<W, DIR, LONG>(u, w, x0 + seg * K - H, nx, mode);
            T *zr = zb + (pl * TY + yy) * TX;
            if (INV) {
                *(float4 *)(zr + seg * K) = make_float4(u[H], u[H + 1], u[H + 2], u[H + 3]);
                *(float4 *)(zr + seg * K + 4) = make_float4(u[H + 4], u[H + 5], u[H + 6], u[H + 7]);
            } else {
                *(float4 *)(zr + seg * (K / 2)) = make_float4(u[H], u[H + 2], u[H + 4], u[H + 6]);
                *(float4 *)(zr + TX / 2 + seg * (K / 2)) = make_float4(u[H + 1], u[H + 3], u[H + 5], u[H + 7]);
            }
        }
        SYNC::sync();
        /* z: this thread's points advance a pair; a finished pair goes out */
        const int64_t k = m0 + a - Z.dp;
        const bool out = k >= kb;
        const int64_t base = 2 * (m0 + a) - (NW - 2);
        int el = 0, et = 0;
        const bool refresh = !tile_once_mirror_exact(W) && mode != LW_PERIODIC && t3_zends(base, nz, NW, el, et);
        t3_zrot<NR>(rot, [&](auto rc) {
            constexpr int ROT = decltype(rc)::value, J0 = t3_zphys<NW>(JO, ROT), J1 = t3_zphys<NW>(JO + 1, ROT);
#pragma unroll
            for (int g = 0; g < NG; g++) {
                const int gi = tid + g * NT, yy = gi / (TX / 4), q = 4 * (gi - yy * (TX / 4));
                const float4 e4 = *(const float4 *)(zb + yy * TX + q);
                const float4 o4 = *(const float4 *)(zb + (TY + yy) * TX + q);
                const T ev[4] = {e4.x, e4.y, e4.z, e4.w}, ov[4] = {o4.x, o4.y, o4.z, o4.w};
                T lo[4], hi[4];
#pragma unroll
                for (int p = 0; p < 4; p++) {
                    t3_zadvance<T, W, INV, ROT, !RING>(v[4 * g + p], ev[p], ov[p], w, refresh, el, et);
                    lo[p] = INV ? v[4 * g + p][J0] : lwd_scale<T>(w, v[4 * g + p][J0], 0, 1);
                    hi[p] = INV ? v[4 * g + p][J1] : lwd_scale<T>(w, v[4 * g + p][J1], 1, 1);
                }
                const int64_t yg = y0 + yy;
                if (!out || yg >= ny) continue;
                const bool odd = 2 * k + 1 < nz; /* the pair's second plane exists */
                if (INV) {
                    const int64_t xg = x0 + q;
                    const int n4 = nx - xg >= 4 ? 4 : (int)(nx - xg);
                    float *o0 = dst + 2 * k * dz + yg * dy + xg;
                    t3p_st4(o0, n4, lo[0], lo[1], lo[2], lo[3], vec);
                    if (odd) t3p_st4(o0 + dz, n4, hi[0], hi[1], hi[2], hi[3], vec);
                } else {
                    /* q: the band-ordered column (lowpass x below TX/2) */
                    const int hxb = q >= TX / 2, qb = q - hxb * (TX / 2);
                    const int64_t xg = x0 + 2 * qb + hxb; /* position of the first of the four */
                    const int64_t left = nx - xg;         /* positions xg, xg + 2, .. inside the line */
                    const int n4 = left >= 7 ? 4 : left <= 0 ? 0 : (int)((left + 1) / 2);
                    const int64_t my = (yg & 1) ? hy + (yg >> 1) : (yg >> 1);
                    const int64_t mx = (hxb ? hx : 0) + x0 / 2 + qb;
                    float *o0 = llp && !hxb && !(yg & 1) ? llp + k * lz + (yg >> 1) * ly + x0 / 2 + qb
                                                          : dst + k * dz + my * dy + mx;
                    t3p_st4(o0, n4, lo[0], lo[1], lo[2], lo[3], vec);
                    if (odd) t3p_st4(dst + (hz + k) * dz + my * dy + mx, n4, hi[0], hi[1], hi[2], hi[3], vec);
                }
            }
        });
        rot = rot + 1 == NR ? 0 : rot + 1;
    }
    t3_cp_wait<0>(); /* no copy outlives the block */
}

#endif
