/* One thread's work in the local engine (k_local.cu): its block of samples
 * in, F levels lifted in registers, the coefficients out to their bands (or
 * the reverse).  The wavelet's steps stay inside their pairs (haar), so a
 * block of 2^F samples along each transformed dimension holds everything its
 * F levels read.
 *
 * Host- and device-compilable: tests/unit/test_local_body.cu runs this body
 * over every block on the CPU and compares with the reference, so that the
 * arithmetic and the index maps are checked without a GPU. */
#ifndef LW_LOCAL_BODY_CUH
#define LW_LOCAL_BODY_CUH

#include "dtype_ct.cuh"
#include "lw_cuda.h"
#include "wavelet_ct.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <string.h>
#include <type_traits>

#define LC_HD __host__ __device__ __forceinline__

/* ---- storage and compute types -------------------------------------------
 * The half types compute in float; narrowing rounds to nearest even, as the
 * other kernels (lwd_store) and the cpu backend do. */
template <class S> struct lc_io {
    typedef S C;
    static LC_HD C up(S v) { return v; }
    static LC_HD S down(C v) { return v; }
};
template <> struct lc_io<__half> {
    typedef float C;
    static LC_HD float up(__half v) { return __half2float(v); }
    static LC_HD __half down(float v) { return __float2half_rn(v); }
};
template <> struct lc_io<__nv_bfloat16> {
    typedef float C;
    static LC_HD float up(__nv_bfloat16 v) { return __bfloat162float(v); }
    static LC_HD __nv_bfloat16 down(float v) { return __float2bfloat16_rn(v); }
};

template <int BYTES> struct lc_vec;
template <> struct lc_vec<2> { typedef unsigned short T; };
template <> struct lc_vec<4> { typedef unsigned int T; };
template <> struct lc_vec<8> { typedef uint2 T; };
template <> struct lc_vec<16> { typedef uint4 T; };

/* N elements sx apart from p: by vectors of up to 16 bytes where the view
 * allows (al: its alignment, lwk_view, nonzero only for sx = 1), else one by
 * one */
template <class S, int N> LC_HD void lc_load(const S *p, int64_t sx, typename lc_io<S>::C *v, int al)
{
    constexpr int BYTES = N * (int)sizeof(S), CH = BYTES >= 16 ? 16 : BYTES, PER = CH / (int)sizeof(S);
    if (al >= CH) {
        typedef typename lc_vec<CH>::T V;
#pragma unroll
        for (int c = 0; c < BYTES / CH; c++) {
            const V t = reinterpret_cast<const V *>(p)[c];
            S e[PER];
            memcpy(e, &t, CH);
#pragma unroll
            for (int i = 0; i < PER; i++) v[c * PER + i] = lc_io<S>::up(e[i]);
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; i++) v[i] = lc_io<S>::up(p[i * sx]);
    }
}

template <class S, int N> LC_HD void lc_store(S *p, int64_t sx, const typename lc_io<S>::C *v, int al)
{
    constexpr int BYTES = N * (int)sizeof(S), CH = BYTES >= 16 ? 16 : BYTES, PER = CH / (int)sizeof(S);
    if (al >= CH) {
        typedef typename lc_vec<CH>::T V;
#pragma unroll
        for (int c = 0; c < BYTES / CH; c++) {
            S e[PER];
#pragma unroll
            for (int i = 0; i < PER; i++) e[i] = lc_io<S>::down(v[c * PER + i]);
            V t;
            memcpy(&t, e, CH);
            reinterpret_cast<V *>(p)[c] = t;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; i++) p[i * sx] = lc_io<S>::down(v[i]);
    }
}

/* ---- the lifting of one pair ---------------------------------------------- */

template <class C> struct lc_wt;
template <> struct lc_wt<float> {
    static LC_HD float wt(const lwk_wave &w, int s, int i) { return w.wtf[s][i]; }
    static LC_HD float z(const lwk_wave &w, int odd, int dir)
    {
        return dir > 0 ? (odd ? w.zhf : w.zlf) : (odd ? w.izhf : w.izlf);
    }
};
template <> struct lc_wt<double> {
    static LC_HD double wt(const lwk_wave &w, int s, int i) { return w.wt[s][i]; }
    static LC_HD double z(const lwk_wave &w, int odd, int dir) { return dir > 0 ? (odd ? w.zh : w.zl) : (odd ? w.izh : w.izl); }
};

/* Step s on target x, every tap the pair's other sample t (the steps stay
 * inside their pairs); the scaling of the even (odd) sample. */
template <class C, int DIR> struct lc_lift {
    static LC_HD C step(const lwk_wave &w, int s, int nt, C x, C t)
    {
        C acc = 0;
#pragma unroll
        for (int i = 0; i < nt; i++) acc += lc_wt<C>::wt(w, s, i) * t;
        return DIR > 0 ? x + acc : x - acc;
    }
    static LC_HD C scale(const lwk_wave &w, C x, int odd) { return x * lc_wt<C>::z(w, odd, DIR); }
};
/* integer steps in 64 bits, the shift a floor; no scaling */
template <int DIR> struct lc_lift<int32_t, DIR> {
    static LC_HD int32_t step(const lwk_wave &w, int s, int nt, int32_t x, int32_t t)
    {
        long long a = w.iadd[s];
#pragma unroll
        for (int i = 0; i < nt; i++) a += (long long)w.icoef[s][i] * t;
        const long long d = (long long)w.isign[s] * (a >> w.ishift[s]);
        const long long r = DIR > 0 ? (long long)x + d : (long long)x - d;
        return (int32_t)(uint32_t)(unsigned long long)r;
    }
    static LC_HD int32_t scale(const lwk_wave &w, int32_t x, int odd) { return (void)w, (void)odd, x; }
};

/* forward (DIR > 0) or inverse lifting of the pair (e, o) */
template <class C, int W, int DIR> LC_HD void lc_pair(C &e, C &o, const lwk_wave &w)
{
    constexpr int NS = sh_nsteps(W);
    if (DIR < 0) e = lc_lift<C, -1>::scale(w, e, 0), o = lc_lift<C, -1>::scale(w, o, 1);
#pragma unroll
    for (int ss = 0; ss < NS; ss++) {
        const int s = DIR > 0 ? ss : NS - 1 - ss;
        if (sh_par(W, s)) o = lc_lift<C, DIR>::step(w, s, sh_ntaps(W, s), o, e);
        else e = lc_lift<C, DIR>::step(w, s, sh_ntaps(W, s), e, o);
    }
    if (DIR > 0) e = lc_lift<C, 1>::scale(w, e, 0), o = lc_lift<C, 1>::scale(w, o, 1);
}

/* ---- a thread's block ------------------------------------------------------ */

/* log2 of the block along the last dimension: F, or for wide rows of 32
 * bytes (vector accesses on the first levels) while the block stays within
 * 64 samples (registers) */
__host__ __device__ constexpr int lc_xlog(int D, int F, int es, bool wide)
{
    const int xl = es == 2 ? 4 : es == 4 ? 3 : 2;
    if (!wide || xl <= F) return F;
    return (1 << (F * (D - 1))) * (1 << xl) <= 64 ? xl : F;
}

/* compile-time loop: f(integral_constant<I>) for I in [A, B) */
template <int A, int B, class Fn> LC_HD void lc_for(Fn &&f)
{
    if constexpr (A < B) {
        f(std::integral_constant<int, A>{});
        lc_for<A + 1, B>(f);
    }
}

/* the warp-strided map applies to samples of es bytes: chunks of 16 bytes
 * hold whole blocks, and the wide block is at least two of them */
__host__ __device__ constexpr bool lc_strided_ok(int es, int D, int F)
{
    return 16 / es >= (1 << F) && lc_xlog(D, F, es, true) != F && (1 << lc_xlog(D, F, es, true)) > 16 / es;
}

/* The block: NZ x NY x NX samples (dims z, y, x; D < 3 leaves z, then y, at
 * one), transformed dimension a being block dim a + 3 - D. */
template <class S, int D, int F, int XM> struct lc_block {
    static constexpr int XL = lc_xlog(D, F, (int)sizeof(S), XM != 0);
    static constexpr int NX = 1 << XL, NY = D >= 2 ? 1 << F : 1, NZ = D >= 3 ? 1 << F : 1;
    static constexpr int N = NX * NY * NZ;
    /* along x the block is chunks of CH samples: adjacent (XM 0, 1), or CS
     * apart (XM 2, the warp-strided map: lane l of a group of 32 blocks owns
     * chunk c at 32 CH c + CH l, so that one warp instruction covers 32
     * adjacent chunks) */
    static constexpr int CH = XM == 2 ? 16 / (int)sizeof(S) : NX, CS = XM == 2 ? 32 * CH : CH;
    static_assert(XM != 2 || lc_strided_ok((int)sizeof(S), D, F), "warp-strided chunks hold whole blocks");
};

/* x of chunk 0 of x-block bx (in samples of the view's last dimension) */
template <class G, int XM> LC_HD int64_t lc_x0(int64_t bx)
{
    return XM == 2 ? (bx >> 5) * 32 * G::NX + (bx & 31) * G::CH : bx * G::NX;
}

/* element `idx` (per transformed dimension) of view vw for the batch item bc */
template <class S> LC_HD S *lc_at(const lwk_view &vw, const int64_t *bc, int nbd, int D, const int64_t *idx)
{
    int64_t off = 0;
#pragma unroll
    for (int i = 0; i < LW_MAX_RANK - 1; i++) /* constant indices: bc stays in registers */
        if (i < nbd) off += bc[i] * vw.st[i];
#pragma unroll
    for (int a = 0; a < LW_MAX_AXES; a++)
        if (a < D) off += idx[a] * vw.st[nbd + a];
    return (S *)vw.p + off;
}

/* Lift dim d of the level whose grid step is s (pairs s apart along d, on
 * the samples that are multiples of s along every dim). */
template <class C, int W, int DIR, int NZ, int NY, int NX, int d, int s> LC_HD void lc_dim(C *v, const lwk_wave &w)
{
#pragma unroll
    for (int z = 0; z < NZ; z += (d == 0 ? 2 * s : s))
#pragma unroll
        for (int y = 0; y < NY; y += (d == 1 ? 2 * s : s))
#pragma unroll
            for (int x = 0; x < NX; x += (d == 2 ? 2 * s : s)) {
                const int i = (z * NY + y) * NX + x, o = i + (d == 0 ? s * NY * NX : d == 1 ? s * NX : s);
                lc_pair<C, W, DIR>(v[i], v[o], w);
            }
}

/* Move the samples of one band of the level with grid step s between the
 * block and a view: along dim d those at offset hs[d] (0 or s) in each
 * period 2s; the band's index along a transformed dimension is the block's
 * index times the band's count in a block, plus the sample's rank.  to_view:
 * block -> view. */
template <class S, int D, class G, int s, bool TO_VIEW>
LC_HD void lc_band(typename lc_io<S>::C *v, const lwk_view &vw, const int64_t *bc, int nbd, const int64_t *blk,
                   int64_t x0, int oz, int oy, int ox)
{
    typedef typename lc_io<S>::C C;
    constexpr int NZ = G::NZ, NY = G::NY, NX = G::NX;
    constexpr int P = 2 * s, CZ = NZ >= P ? NZ / P : 1, CY = NY >= P ? NY / P : 1, CX = G::CH / P;
    const int cnt[3] = {CZ, CY, 0};
    const int64_t sx = vw.st[nbd + D - 1];
#pragma unroll
    for (int z = 0; z < CZ; z++)
#pragma unroll
        for (int y = 0; y < CY; y++) {
            const int at[3] = {z, y, 0};
            int64_t idx[3];
            for (int a = 0; a < D; a++) idx[a] = blk[a] * cnt[a + 3 - D] + at[a + 3 - D];
            idx[D - 1] = 0; /* along x: the chunks' runs below */
            S *p0 = lc_at<S>(vw, bc, nbd, D, idx);
            const int base = ((NZ > 1 ? z * P + oz : 0) * NY + (NY > 1 ? y * P + oy : 0)) * NX + ox;
#pragma unroll
            for (int c = 0; c < NX / G::CH; c++) {
                S *p = p0 + ((x0 + (int64_t)c * G::CS) / P) * sx;
                const int b = base + c * G::CH;
                C run[CX];
                if (TO_VIEW) {
#pragma unroll
                    for (int x = 0; x < CX; x++) run[x] = v[b + x * P];
                    lc_store<S, CX>(p, sx, run, vw.al);
                } else {
                    lc_load<S, CX>(p, sx, run, vw.al);
#pragma unroll
                    for (int x = 0; x < CX; x++) v[b + x * P] = run[x];
                }
            }
        }
}

/* the level-F lowpass of a block (the samples at multiples of 2^F) between
 * the registers and view lv */
template <class S, int D, int F, int XM, bool TO_VIEW>
LC_HD void lc_low(typename lc_io<S>::C *v, const lwk_view &lv, const int64_t *bc, int nbd, const int64_t *blk)
{
    typedef lc_block<S, D, F, XM> G;
    lc_band<S, D, G, (1 << (F - 1)), TO_VIEW>(v, lv, bc, nbd, blk, lc_x0<G, XM>(blk[D - 1]), 0, 0, 0);
}

/* The bands of levels 1..FL of a block of geometry G (its chunk 0 along x at
 * x0), which are the views' levels J0 + 1..J0 + FL (band[J0 + j - 1][m - 1]),
 * and its lowpass (low), between the registers and the views: lc_band for
 * each. */
template <class S, int D, class G, int FL, int J0, bool TO_VIEW>
LC_HD void lc_coefs_g(typename lc_io<S>::C *v, const lwk_local &k, const int64_t *bc, const int64_t *blk, int64_t x0)
{
    lc_for<1, FL + 1>([&](auto jc) {
        constexpr int j = decltype(jc)::value, s = 1 << (j - 1);
        lc_for<1, (1 << D)>([&](auto mc) {
            constexpr int m = decltype(mc)::value;
            /* bit D-1-a of m: highpass along transformed dim a = block dim a + 3 - D */
            constexpr int hz = D >= 3 && ((m >> 2) & 1) ? s : 0;
            constexpr int hy = D >= 2 && ((m >> 1) & 1) ? s : 0;
            constexpr int hx = (m & 1) ? s : 0;
            lc_band<S, D, G, s, TO_VIEW>(v, k.band[J0 + j - 1][m - 1], bc, k.nbd, blk, x0, hz, hy, hx);
        });
    });
    lc_band<S, D, G, (1 << (FL - 1)), TO_VIEW>(v, TO_VIEW ? k.dst : k.src, bc, k.nbd, blk, x0, 0, 0, 0);
}

template <class S, int D, int F, int XM, bool TO_VIEW>
LC_HD void lc_coefs(typename lc_io<S>::C *v, const lwk_local &k, const int64_t *bc, const int64_t *blk)
{
    typedef lc_block<S, D, F, XM> G;
    lc_coefs_g<S, D, G, F, 0, TO_VIEW>(v, k, bc, blk, lc_x0<G, XM>(blk[D - 1]));
}

/* The samples of a block of geometry G (its chunk 0 along x at x0) between
 * the registers and view sv (to_view: out). */
template <class S, int D, class G, bool TO_VIEW>
LC_HD void lc_samples_g(typename lc_io<S>::C *v, const lwk_view &sv, const int64_t *bc, int nbd, const int64_t *blk,
                        int64_t x0)
{
    const int64_t sx = sv.st[nbd + D - 1];
#pragma unroll
    for (int z = 0; z < G::NZ; z++)
#pragma unroll
        for (int y = 0; y < G::NY; y++) {
            const int at[3] = {z, y, 0}, ext[3] = {G::NZ, G::NY, 0};
            int64_t idx[3];
            for (int a = 0; a < D; a++) idx[a] = blk[a] * ext[a + 3 - D] + at[a + 3 - D];
            idx[D - 1] = 0; /* along x: the chunks below */
            S *p0 = lc_at<S>(sv, bc, nbd, D, idx);
#pragma unroll
            for (int c = 0; c < G::NX / G::CH; c++) {
                S *p = p0 + (x0 + (int64_t)c * G::CS) * sx;
                typename lc_io<S>::C *r = v + (z * G::NY + y) * G::NX + c * G::CH;
                if (TO_VIEW) lc_store<S, G::CH>(p, sx, r, sv.al);
                else lc_load<S, G::CH>(p, sx, r, sv.al);
            }
        }
}

template <class S, int D, int F, int XM, bool TO_VIEW>
LC_HD void lc_samples(typename lc_io<S>::C *v, const lwk_view &sv, const int64_t *bc, int nbd, const int64_t *blk)
{
    typedef lc_block<S, D, F, XM> G;
    lc_samples_g<S, D, G, TO_VIEW>(v, sv, bc, nbd, blk, lc_x0<G, XM>(blk[D - 1]));
}

/* Lift the levels [J0, J0 + FL) of a block of geometry G (grid steps 1, 2, ... on it), the dims
 * in order (forward) or reverse (inverse) */
template <class C, int W, int D, class G, int FL, bool INV> LC_HD void lc_levels(C *v, const lwk_wave &w)
{
    lc_for<0, FL>([&](auto jc) {
        constexpr int s = 1 << (INV ? FL - 1 - decltype(jc)::value : decltype(jc)::value);
        if (INV) lc_for<0, D>([&](auto dc) { lc_dim<C, W, -1, G::NZ, G::NY, G::NX, 2 - decltype(dc)::value, s>(v, w); });
        else lc_for<3 - D, 3>([&](auto dc) { lc_dim<C, W, 1, G::NZ, G::NY, G::NX, decltype(dc)::value, s>(v, w); });
    });
}

/* ---- level 1 slab by slab -------------------------------------------------
 * A block of 64 values (2-D three levels, 3-D two) lifted whole needs them
 * all live at once: 130-170 registers, few warps an SM to hide the loads.
 * Level 1 needs only a slab two samples deep along the block's outer
 * (first transformed) dim, so it runs slab by slab: the slab's samples in,
 * lifted, its level-1 high bands out, its lowpass kept in a block of half the
 * size per dim (lc_slab_of::half), on which levels 2..F run as a block of their own.
 * The arithmetic and its order per sample are the whole block's: the results
 * are bit for bit the same.  Narrow blocks (chunks = rows) and the bands'
 * views only (not the whole-block coefficients of the interleaved layout).
 * Fewer values live, but a slab's loads wait for the previous slab's stores
 * (they may alias), so which is faster depends on the sample size, the
 * dimension and the direction (lwk_local.slabs, chosen by the host). */
template <int Z, int Y, int X> struct lc_geo {
    static constexpr int NZ = Z, NY = Y, NX = X, N = Z * Y * X, CH = X, CS = X;
};
template <class G, int D> struct lc_slab_of {
    typedef lc_geo<D >= 3 ? 2 : 1, D >= 3 ? G::NY : 2, G::NX> slab;
    typedef lc_geo<D >= 3 ? G::NZ / 2 : 1, G::NY / 2, G::NX / 2> half;
    static constexpr int SLABS = (D >= 3 ? G::NZ : G::NY) / 2;
};
__host__ __device__ constexpr bool lc_slabbed(int D, int F, int N, int XM) { return D >= 2 && F >= 2 && N >= 64 && XM == 0; }
template <class S, int D, int F, int XM> constexpr bool lc_slabbed_t() { return lc_slabbed(D, F, lc_block<S, D, F, XM>::N, XM); }

/* the lowpass samples of slab q (its even z, y, x) <-> the half block; q
 * is a loop variable (the slabs' loop is not unrolled, so that one slab is
 * live at a time), the half block's index static (it stays in registers) */
template <class C, int D, class G, bool TO_HALF> LC_HD void lc_slab_low(C *u, C *lo, int q)
{
    typedef typename lc_slab_of<G, D>::slab GS;
    typedef typename lc_slab_of<G, D>::half GH;
#pragma unroll
    for (int qq = 0; qq < lc_slab_of<G, D>::SLABS; qq++)
#pragma unroll
        for (int y = 0; y < GS::NY; y += 2)
#pragma unroll
            for (int x = 0; x < GS::NX; x += 2) {
                const int h = D >= 3 ? (qq * GH::NY + y / 2) * GH::NX + x / 2 : qq * GH::NX + x / 2;
                if (TO_HALF) lo[h] = q == qq ? u[y * GS::NX + x] : lo[h];
                else if (q == qq) u[y * GS::NX + x] = lo[h];
            }
}

/* the level-1 high bands of slab q between its registers and the views */
template <class S, int D, class G, bool TO_VIEW>
LC_HD void lc_slab_bands(typename lc_io<S>::C *u, const lwk_local &k, const int64_t *bc, const int64_t *blk, int q,
                         int64_t x0)
{
    typedef typename lc_slab_of<G, D>::slab GS;
    int64_t bs[3] = {blk[0] * lc_slab_of<G, D>::SLABS + q, blk[1], blk[2]};
    lc_for<1, (1 << D)>([&](auto mc) {
        constexpr int m = decltype(mc)::value;
        constexpr int hz = D >= 3 && ((m >> 2) & 1) ? 1 : 0, hy = D >= 2 && ((m >> 1) & 1) ? 1 : 0, hx = m & 1;
        lc_band<S, D, GS, 1, TO_VIEW>(u, k.band[0][m - 1], bc, k.nbd, bs, x0, hz, hy, hx);
    });
}

/* A narrow block's item through the bands' views, level 1 slab by slab
 * (lc_slabbed): forward, each slab in, lifted, out to level 1's bands, its
 * lowpass to the half block, then levels 2..F on that; inverse the reverse. */
template <class S, int W, int D, int F, bool INV>
LC_HD void lc_item_slabs(const lwk_local &k, const int64_t *bc, const int64_t *blk, const lwk_view &sv)
{
    typedef typename lc_io<S>::C C;
    typedef lc_block<S, D, F, 0> G;
    typedef lc_slab_of<G, D> SL;
    typedef typename SL::slab GS;
    typedef typename SL::half GH;
    const int64_t x0 = blk[D - 1] * G::NX, xh = blk[D - 1] * GH::NX;
    C lo[GH::N] = {};
    if (INV) {
        lc_coefs_g<S, D, GH, F - 1, 1, false>(lo, k, bc, blk, xh);
        lc_levels<C, W, D, GH, F - 1, true>(lo, k.w);
    }
#pragma unroll 1
    for (int q = 0; q < SL::SLABS; q++) {
        const int64_t bs[3] = {blk[0] * SL::SLABS + q, blk[1], blk[2]};
        C u[GS::N];
        if (!INV) {
            lc_samples_g<S, D, GS, false>(u, sv, bc, k.nbd, bs, x0);
            lc_levels<C, W, D, GS, 1, false>(u, k.w);
            lc_slab_bands<S, D, G, true>(u, k, bc, blk, q, x0);
            lc_slab_low<C, D, G, true>(u, lo, q);
        } else {
            lc_slab_low<C, D, G, false>(u, lo, q);
            lc_slab_bands<S, D, G, false>(u, k, bc, blk, q, x0);
            lc_levels<C, W, D, GS, 1, true>(u, k.w);
            lc_samples_g<S, D, GS, true>(u, sv, bc, k.nbd, bs, x0);
        }
    }
    if (!INV) {
        lc_levels<C, W, D, GH, F - 1, false>(lo, k.w);
        lc_coefs_g<S, D, GH, F - 1, 1, true>(lo, k, bc, blk, xh);
    }
}

/* Block `item` of the launch: forward (INV false) or inverse; SL: level 1
 * slab by slab (lc_item_slabs: lc_slabbed blocks through the bands' views,
 * not whole) */
template <class S, int W, int D, int F, int XM, bool INV, bool SL = false>
LC_HD void lc_item(const lwk_local &k, int64_t item)
{
    typedef typename lc_io<S>::C C;
    typedef lc_block<S, D, F, XM> G;
    int64_t blk[3] = {0, 0, 0}, bc[LW_MAX_RANK] = {0, 0, 0, 0};
    /* item: the channels (the inner batch dim, the last) fastest, then the blocks, then the outer
     * batch dims */
    const int outer = k.nbd - k.ninner;
    if (k.ninner) {
        const int64_t nc = k.bshape[outer], ch = item % nc;
        item /= nc;
#pragma unroll
        for (int i = 0; i < LW_MAX_RANK - 1; i++)
            if (i == outer) bc[i] = ch;
    }
    for (int a = D - 1; a >= 0; a--) {
        const int64_t nb = k.n[a] >> (a == D - 1 ? G::XL : F);
        blk[a] = item % nb;
        item /= nb;
    }
#pragma unroll
    for (int i = LW_MAX_RANK - 2; i >= 0; i--)
        if (i < outer) {
            bc[i] = item % k.bshape[i];
            item /= k.bshape[i];
        }
    const lwk_view &sv = INV ? k.dst : k.src;
    static_assert(!SL || lc_slabbed(D, F, G::N, XM), "slab by slab: narrow blocks of 64 samples");
    if constexpr (SL) {
        /* the host sets slabs only where whole is not.  In 3-D the whole-block path stays behind
         * the runtime test all the same: ptxas schedules the slabs better with it there (bfloat16
         * 512^3 forward 220 against 394 us on an H200), and worse in 2-D (80 registers and spills
         * against 64-70 and none at six blocks an SM) */
        if (D == 2 || !k.whole) {
            lc_item_slabs<S, W, D, F, INV>(k, bc, blk, sv);
            return;
        }
    }
    C v[G::N];
    if (!INV) { /* the samples in */
        lc_samples<S, D, F, XM, false>(v, sv, bc, k.nbd, blk);
        lc_levels<C, W, D, G, F, false>(v, k.w);
        if (k.whole) lc_samples<S, D, F, XM, true>(v, k.coef, bc, k.nbd, blk);
        else lc_coefs<S, D, F, XM, true>(v, k, bc, blk);
    } else {
        if (!k.whole) lc_coefs<S, D, F, XM, false>(v, k, bc, blk);
        else {
            lc_samples<S, D, F, XM, false>(v, k.coef, bc, k.nbd, blk);
            if (k.low_apart) lc_low<S, D, F, XM, false>(v, k.src, bc, k.nbd, blk);
        }
        lc_levels<C, W, D, G, F, true>(v, k.w);
        lc_samples<S, D, F, XM, true>(v, sv, bc, k.nbd, blk);
    }
}

/* ---- which instantiation runs a launch ---------------------------------------- */

template <class S, int W, int D, int F, int XM, bool INV> struct lc_tag {
    typedef S type;
    static constexpr int w = W, d = D, f = F, xm = XM;
    static constexpr bool wide = XM != 0, inv = INV;
};

/* levels a launch may run for D transformed dimensions (registers: 64 samples a block) */
__host__ __device__ constexpr int lc_fmax(int D) { return D == 1 ? 4 : D == 2 ? 3 : 2; }
static_assert(lc_fmax(1) <= LWK_LOCAL_MAXF, "LWK_LOCAL_MAXF too small");

template <class S> constexpr bool lc_runs(int W)
{
    return W < LW_TRANSPOSED_ID && lwc_separable(W) && lwc_inside_pairs(W) &&
           (std::is_same<S, int32_t>::value ? lwc_has_integer(W) : lwc_flag(W, 1));
}

/* f(lc_tag<...>{}) for launch k of storage type S, the wide block only
 * where it differs from the narrow one, the warp-strided map only where it
 * applies (lc_strided_ok; else the wide block); cudaErrorInvalidValue where
 * no instantiation runs k */
template <class S, class Fn> static inline cudaError_t lc_select_t(const lwk_local *k, Fn &&f)
{
    return lwc_dispatch(k->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        cudaError_t e = cudaErrorInvalidValue;
        if constexpr (lc_runs<S>(W)) {
            lc_for<1, 4>([&](auto dc) {
                constexpr int D = decltype(dc)::value;
                lc_for<1, lc_fmax(D) + 1>([&](auto fc) {
                    constexpr int F = decltype(fc)::value;
                    constexpr bool wide_differs = lc_xlog(D, F, (int)sizeof(S), true) != F;
                    constexpr int XW = wide_differs ? 1 : 0, XS = lc_strided_ok((int)sizeof(S), D, F) ? 2 : XW;
                    if (k->D != D || k->F != F) return;
                    if (k->wide && k->strided && XS == 2)
                        e = k->inverse ? f(lc_tag<S, W, D, F, XS, true>{}) : f(lc_tag<S, W, D, F, XS, false>{});
                    else if (k->wide && wide_differs)
                        e = k->inverse ? f(lc_tag<S, W, D, F, XW, true>{}) : f(lc_tag<S, W, D, F, XW, false>{});
                    else
                        e = k->inverse ? f(lc_tag<S, W, D, F, 0, true>{}) : f(lc_tag<S, W, D, F, 0, false>{});
                });
            });
        }
        return e;
    });
}

template <class Fn> static inline cudaError_t lc_select(int dtype, const lwk_local *k, Fn &&f)
{
    return lwd_by_dtype(dtype, [&](auto t) { return lc_select_t<LWD_TYPE_OF(t)>(k, f); });
}

/* blocks of launch k (xl: log2 of the block along the last dimension) */
static inline int64_t lc_items(const lwk_local *k, int xl)
{
    int64_t n = 1;
    for (int i = 0; i < k->nbd; i++) n *= k->bshape[i];
    for (int a = 0; a < k->D; a++) n *= k->n[a] >> (a == k->D - 1 ? xl : k->F);
    return n;
}

#endif
