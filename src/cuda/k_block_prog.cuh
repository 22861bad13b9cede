/* The block-based 2-D schemes of Barina, Kula and Zemcik (paper 003) as
 * compile-time programs that one kernel body (k_block_kernel.cuh) runs.
 *
 * Notation (the paper's).  One thread owns quadruples of coefficients: LL
 * (even row, even column), HL (even row, odd column), LH (odd row, even
 * column) and HH, indexed by the quad position (i, j).  A 1-D lifting operator
 * is a polynomial in the quad offset d: the predict P of pair k reads LL at
 * j + d (d = (off + 1) / 2 for a sample offset off of the odd target), the
 * update U reads HL at j + d (d = (off - 1) / 2).  A 2-D term applies fv
 * vertically and fh horizontally:  dst(i, j) += sum fv[a] fh[b] src(i + a, j + b).
 *
 * A program is a list of steps:
 *   BK_G      a spatial lifting step: a barrier, then terms that read their
 *             sources from shared memory (all values as they were before the
 *             step) and add into the thread's registers.  Written either as
 *             explicit terms (no destination is a source: the inverse negates
 *             every term) or as the Kronecker product Mv (x) Mh of two 1-D
 *             2x2 polyphase matrices (monolithic T_P = MP (x) MP, S_U,
 *             polyphase N = M (x) M, convolution; the inverse is the product
 *             of the adjugates, since every det is 1).
 *   BK_L      a local step (a scalar filter: P0, U0 of the improved schemes):
 *             dst += c * src on the thread's own registers, no barrier.
 *   BK_SCALE  multiply the four components by their zeta products.
 * The inverse program is derived: steps reversed, each step inverted.  The
 * improved schemes split P = P0 + P1, U = U0 + U1 with P0, U0 the scalar
 * (offset 0) taps; CDF 9/7 runs two connected schemes (pairs k = 0, 1).
 *
 * Counting, as the kernel runs it: every tap of every term is one FMA (the
 * paper's Table 2 counts the same way: a tap pair with equal weights is one
 * add plus one multiply-add); scaling is not counted (the paper omits it).
 * Barriers per level: one per BK_G step with double buffering; with single
 * buffering a second one before each rewrite of the shared buffer. */
#ifndef LW_K_BLOCK_PROG_CUH
#define LW_K_BLOCK_PROG_CUH

#include "k_block_api.cuh"
#include "tile_lift.cuh"

#include <stdint.h>

/* scheme ids: the list of k_block_api.cuh */
#define BK_SCHEME_ID(ID, fn) BK_##ID = LWK_BLOCK_##ID,
enum { LWK_BLOCK_SCHEME_LIST(BK_SCHEME_ID) BK_NSCHEMES = LWK_BLOCK_NSCHEMES };
#undef BK_SCHEME_ID

/* components */
enum { LL = 0, HL = 1, LH = 2, HH = 3 };

/* ---- 1-D filters ---------------------------------------------------------
 * A filter reference packs an id, the lifting pair k and a negation flag. */
enum { BF_ID = 0, BF_P, BF_U, BF_P0, BF_P1, BF_U0, BF_U1, BF_V, BF_V1, BF_MA, BF_MB, BF_MC, BF_MD };
#define BF_NONE (-1)
__host__ __device__ constexpr int bf(int id, int k) { return id | k << 4; }
__host__ __device__ constexpr int bf_id(int f) { return f & 15; }
__host__ __device__ constexpr int bf_k(int f) { return (f >> 4) & 3; }
__host__ __device__ constexpr int bf_neg(int f) { return (f >> 6) & 1; }
__host__ __device__ constexpr int bf_negate(int f) { return f == BF_NONE ? BF_NONE : f ^ 64; }

__host__ __device__ constexpr int bk_npairs(int W) { return sh_nsteps(W) / 2; }
/* The wavelets the schemes run: predict/update pairs with symmetric taps. */
__host__ __device__ constexpr bool bk_runs(int W) { return lwc_step_pairs(W) && lwc_symmetric_taps(W); }

/* support masks: bit d + 16 for quad offset d in [-16, 15] */
__host__ __device__ constexpr uint32_t bm(int d) { return 1u << (d + 16); }
__host__ __device__ constexpr uint32_t msum(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (a >> i & 1)
            for (int j = 0; j < 32; j++)
                if (b >> j & 1) {
                    const int s = i + j - 16;
                    if (s >= 0 && s < 32) r |= 1u << s;
                }
    return r;
}
/* quad offset of tap t of lifting step s */
__host__ __device__ constexpr int bk_tap_d(int W, int s, int t)
{
    return sh_par(W, s) ? (sh_off(W, s, t) + 1) / 2 : (sh_off(W, s, t) - 1) / 2;
}
__host__ __device__ constexpr uint32_t step_mask(int W, int s)
{
    uint32_t m = 0;
    for (int t = 0; t < sh_ntaps(W, s); t++) m |= bm(bk_tap_d(W, s, t));
    return m;
}

struct bk_m22 { /* 2x2 matrix: a = L<-L, b = L<-H, c = H<-L, d = H<-H */
    uint32_t a, b, c, d;
};
__host__ __device__ constexpr bk_m22 mmul(bk_m22 x, bk_m22 y)
{
    return bk_m22{msum(x.a, y.a) | msum(x.b, y.c), msum(x.a, y.b) | msum(x.b, y.d), msum(x.c, y.a) | msum(x.d, y.c),
                  msum(x.c, y.b) | msum(x.d, y.d)};
}
/* support of the whole 1-D polyphase matrix (all pairs; the convolution) */
__host__ __device__ constexpr bk_m22 full_mask(int W)
{
    bk_m22 m{bm(0), 0, 0, bm(0)};
    for (int k = 0; k < bk_npairs(W); k++) {
        m = mmul(bk_m22{bm(0), 0, step_mask(W, 2 * k), bm(0)}, m);
        m = mmul(bk_m22{bm(0), step_mask(W, 2 * k + 1), 0, bm(0)}, m);
    }
    return m;
}

__host__ __device__ constexpr uint32_t fmask(int W, int f)
{
    const int k = bf_k(f);
    const uint32_t P = step_mask(W, 2 * k), U = step_mask(W, 2 * k + 1);
    switch (bf_id(f)) {
    case BF_ID: return bm(0);
    case BF_P: return P;
    case BF_U: return U;
    case BF_P0:
    case BF_U0: return bm(0);
    case BF_P1: return P & ~bm(0);
    case BF_U1: return U & ~bm(0);
    case BF_V: return bm(0) | msum(P, U);
    case BF_V1: return bm(0) | msum(P & ~bm(0), U & ~bm(0));
    case BF_MA: return full_mask(W).a;
    case BF_MB: return full_mask(W).b;
    case BF_MC: return full_mask(W).c;
    case BF_MD: return full_mask(W).d;
    }
    return 0;
}

struct bk_taps { /* the offsets of a mask, ascending */
    int n, lo, hi;
    int d[32];
};
__host__ __device__ constexpr bk_taps taps_of(uint32_t m)
{
    bk_taps t{0, 0, 0, {}};
    for (int i = 0; i < 32; i++)
        if (m >> i & 1) {
            if (t.n == 0) t.lo = i - 16;
            t.hi = i - 16;
            t.d[t.n++] = i - 16;
        }
    return t;
}
__host__ __device__ constexpr int popc(uint32_t m) { return taps_of(m).n; }

/* ---- programs ------------------------------------------------------------- */
enum { BK_L = 1, BK_G = 2, BK_SCALE = 3 };
#define BK_MAXT 16
#define BK_MAXS 32

struct bk_term {
    int dst, src, fv, fh, sgn, mi; /* mi: minus the identity (a Kronecker term with dst == src) */
};
struct bk_f22 { /* 2x2 matrix of filter references */
    int a, b, c, d;
};
struct bk_step {
    int kind, n;
    int kron; /* BK_G: 1 if the terms are the product kv (x) kh */
    bk_f22 kv, kh;
    int inv; /* BK_SCALE: 1 for the inverse scaling */
    bk_term t[BK_MAXT];
};
struct bk_prog {
    int W, n;
    bk_step s[BK_MAXS];
};

__host__ __device__ constexpr void bk_add_L(bk_prog &p, int dst, int src, int fv, int fh)
{
    bk_step &s = p.s[p.n++];
    s.kind = BK_L, s.n = 1;
    s.t[0] = bk_term{dst, src, fv, fh, 1, 0};
}
__host__ __device__ constexpr void bk_begin_G(bk_prog &p)
{
    bk_step &s = p.s[p.n++];
    s.kind = BK_G, s.n = 0, s.kron = 0;
}
__host__ __device__ constexpr void bk_term_add(bk_prog &p, int dst, int src, int fv, int fh, int sgn)
{
    bk_step &s = p.s[p.n - 1];
    s.t[s.n++] = bk_term{dst, src, fv, fh, sgn, 0};
}
/* expand kv (x) kh into the terms of one step */
__host__ __device__ constexpr void bk_kron_terms(bk_step &s)
{
    s.n = 0;
    for (int yv = 0; yv < 2; yv++)
        for (int yh = 0; yh < 2; yh++)
            for (int xv = 0; xv < 2; xv++)
                for (int xh = 0; xh < 2; xh++) {
                    const int fv = yv ? (xv ? s.kv.d : s.kv.c) : (xv ? s.kv.b : s.kv.a);
                    const int fh = yh ? (xh ? s.kh.d : s.kh.c) : (xh ? s.kh.b : s.kh.a);
                    if (fv == BF_NONE || fh == BF_NONE) continue;
                    const int dst = 2 * yv + yh, src = 2 * xv + xh;
                    if (dst == src && fv == BF_ID && fh == BF_ID) continue; /* the identity itself */
                    s.t[s.n++] = bk_term{dst, src, fv, fh, 1, dst == src};
                }
}
__host__ __device__ constexpr void bk_add_kron(bk_prog &p, bk_f22 kv, bk_f22 kh)
{
    bk_step &s = p.s[p.n++];
    s.kind = BK_G, s.kron = 1, s.kv = kv, s.kh = kh;
    bk_kron_terms(s);
}
__host__ __device__ constexpr void bk_add_scale(bk_prog &p)
{
    bk_step &s = p.s[p.n++];
    s.kind = BK_SCALE, s.n = 0, s.inv = 0;
}

/* ---- the schemes (forward) --------------------------------------------------
 * Matrices of the paper: T^H_P, T^V_P, S^H_U, S^V_U (Sweldens, eq. 14-18),
 * T^I, R^I, S^I (Iwahashi, 21-23), T^E, R^E, S^E (Explosive, 25-27; S^E also
 * adds UU* HH into LL, without which the product is not N_P,U), T_P, S_U
 * (Monolithic, 29-30), N_P,U (Polyphase, 19). */
__host__ __device__ constexpr void bk_local_predict(bk_prog &p, int k) /* T^V_P0 T^H_P0 */
{
    const int P0 = bf(BF_P0, k);
    bk_add_L(p, HL, LL, BF_ID, P0), bk_add_L(p, HH, LH, BF_ID, P0);
    bk_add_L(p, LH, LL, P0, BF_ID), bk_add_L(p, HH, HL, P0, BF_ID);
}
__host__ __device__ constexpr void bk_local_update(bk_prog &p, int k) /* S^V_U0 S^H_U0 */
{
    const int U0 = bf(BF_U0, k);
    bk_add_L(p, LL, HL, BF_ID, U0), bk_add_L(p, LH, HH, BF_ID, U0);
    bk_add_L(p, LL, LH, U0, BF_ID), bk_add_L(p, HL, HH, U0, BF_ID);
}
__host__ __device__ constexpr void bk_sep_step(bk_prog &p, int vert, int upd, int k)
{
    const int F = bf(upd ? BF_U : BF_P, k);
    const int fv = vert ? F : BF_ID, fh = vert ? BF_ID : F;
    bk_begin_G(p);
    if (!upd && !vert) bk_term_add(p, HL, LL, fv, fh, 1), bk_term_add(p, HH, LH, fv, fh, 1); /* T^H_P */
    if (!upd && vert) bk_term_add(p, LH, LL, fv, fh, 1), bk_term_add(p, HH, HL, fv, fh, 1);  /* T^V_P */
    if (upd && !vert) bk_term_add(p, LL, HL, fv, fh, 1), bk_term_add(p, LH, HH, fv, fh, 1);  /* S^H_U */
    if (upd && vert) bk_term_add(p, LL, LH, fv, fh, 1), bk_term_add(p, HL, HH, fv, fh, 1);   /* S^V_U */
}
__host__ __device__ constexpr void bk_iwahashi(bk_prog &p, int P, int U)
{
    bk_begin_G(p); /* T^I */
    bk_term_add(p, HH, LL, P, P, 1), bk_term_add(p, HH, HL, P, BF_ID, 1), bk_term_add(p, HH, LH, BF_ID, P, 1);
    bk_begin_G(p); /* R^I */
    bk_term_add(p, HL, LL, BF_ID, P, 1), bk_term_add(p, HL, HH, U, BF_ID, 1);
    bk_term_add(p, LH, LL, P, BF_ID, 1), bk_term_add(p, LH, HH, BF_ID, U, 1);
    bk_begin_G(p); /* S^I */
    bk_term_add(p, LL, HL, BF_ID, U, 1), bk_term_add(p, LL, LH, U, BF_ID, 1), bk_term_add(p, LL, HH, U, U, -1);
}
__host__ __device__ constexpr void bk_explosive(bk_prog &p, int P, int U)
{
    bk_begin_G(p); /* T^E */
    bk_term_add(p, HL, LL, BF_ID, P, 1), bk_term_add(p, LH, LL, P, BF_ID, 1), bk_term_add(p, HH, LL, P, P, -1);
    bk_begin_G(p); /* R^E */
    bk_term_add(p, LL, HL, BF_ID, U, 1), bk_term_add(p, LL, LH, U, BF_ID, 1);
    bk_term_add(p, HH, HL, P, BF_ID, 1), bk_term_add(p, HH, LH, BF_ID, P, 1);
    bk_begin_G(p); /* S^E */
    bk_term_add(p, LL, HH, U, U, 1), bk_term_add(p, HL, HH, U, BF_ID, 1), bk_term_add(p, LH, HH, BF_ID, U, 1);
}

/* Forward program.  INT: the integer transform (Sweldens only), whose
 * rounding fixes the order: vertical steps of every pair, then horizontal,
 * as the reference. */
__host__ __device__ constexpr bk_prog bk_forward(int S, int W, int INT)
{
    bk_prog p{W, 0, {}};
    const int K = bk_npairs(W);
    if (S == BK_CONVOLUTION) {
        const bk_f22 M{BF_MA, BF_MB, BF_MC, BF_MD};
        bk_add_kron(p, M, M);
        return p; /* the scaling is inside M */
    }
    if (S == BK_SWELDENS && INT) {
        for (int v = 1; v >= 0; v--)
            for (int k = 0; k < K; k++) bk_sep_step(p, v, 0, k), bk_sep_step(p, v, 1, k);
        return p; /* integer transforms are not scaled */
    }
    for (int k = 0; k < K; k++) {
        const int P = bf(BF_P, k), U = bf(BF_U, k), P1 = bf(BF_P1, k), U1 = bf(BF_U1, k);
        switch (S) {
        case BK_SWELDENS:
            bk_sep_step(p, 0, 0, k), bk_sep_step(p, 1, 0, k), bk_sep_step(p, 0, 1, k), bk_sep_step(p, 1, 1, k);
            break;
        case BK_IWAHASHI: bk_iwahashi(p, P, U); break;
        case BK_EXPLOSIVE: bk_explosive(p, P, U); break;
        case BK_MONOLITHIC:
            bk_add_kron(p, bk_f22{BF_ID, BF_NONE, P, BF_ID}, bk_f22{BF_ID, BF_NONE, P, BF_ID});
            bk_add_kron(p, bk_f22{BF_ID, U, BF_NONE, BF_ID}, bk_f22{BF_ID, U, BF_NONE, BF_ID});
            break;
        case BK_POLYPHASE: {
            const bk_f22 M{bf(BF_V, k), U, P, BF_ID};
            bk_add_kron(p, M, M);
            break;
        }
        case BK_IWAHASHI_S:
            bk_local_predict(p, k), bk_iwahashi(p, P1, U1), bk_local_update(p, k);
            break;
        case BK_EXPLOSIVE_S:
            bk_local_predict(p, k), bk_explosive(p, P1, U1), bk_local_update(p, k);
            break;
        case BK_MONOLITHIC_S: /* S^V_U0 S^H_U0 S_U1 | T^V_P0 T^H_P0 T_P1 */
            bk_add_kron(p, bk_f22{BF_ID, BF_NONE, P1, BF_ID}, bk_f22{BF_ID, BF_NONE, P1, BF_ID});
            bk_local_predict(p, k);
            bk_add_kron(p, bk_f22{BF_ID, U1, BF_NONE, BF_ID}, bk_f22{BF_ID, U1, BF_NONE, BF_ID});
            bk_local_update(p, k);
            break;
        case BK_POLYPHASE_S: { /* S^V_U0 S^H_U0 N_P1,U1 | T^V_P0 T^H_P0 */
            const bk_f22 M{bf(BF_V1, k), U1, P1, BF_ID};
            bk_local_predict(p, k), bk_add_kron(p, M, M), bk_local_update(p, k);
            break;
        }
        }
    }
    bk_add_scale(p);
    return p;
}

__host__ __device__ constexpr bk_f22 bk_adj(bk_f22 m) { return bk_f22{m.d, bf_negate(m.b), bf_negate(m.c), m.a}; }

/* The inverse: reversed steps, each inverted. */
__host__ __device__ constexpr bk_prog bk_invert(const bk_prog &f)
{
    bk_prog r{f.W, f.n, {}};
    for (int i = 0; i < f.n; i++) {
        bk_step s = f.s[f.n - 1 - i];
        if (s.kind == BK_SCALE) s.inv = !s.inv;
        else if (s.kind == BK_G && s.kron) s.kv = bk_adj(s.kv), s.kh = bk_adj(s.kh), bk_kron_terms(s);
        else
            for (int j = 0; j < s.n; j++) s.t[j].sgn = -s.t[j].sgn;
        r.s[i] = s;
    }
    return r;
}

__host__ __device__ constexpr bk_prog bk_make(int S, int W, int INV, int INT)
{
    return INV ? bk_invert(bk_forward(S, W, INT)) : bk_forward(S, W, INT);
}

/* ---- derived numbers ---------------------------------------------------------- */
__host__ __device__ constexpr int bk_term_taps(int W, const bk_term &t) { return popc(fmask(W, t.fv)) * popc(fmask(W, t.fh)); }
__host__ __device__ constexpr int bk_step_coefs(int W, const bk_step &s)
{
    if (s.kind == BK_SCALE) return 4;
    int n = 0;
    for (int j = 0; j < s.n; j++) n += bk_term_taps(W, s.t[j]);
    return n;
}
/* index of the first coefficient of step i (term j) in the parameter array */
__host__ __device__ constexpr int bk_coef_base(const bk_prog &p, int i, int j = 0)
{
    int n = 0;
    for (int a = 0; a < i; a++) n += bk_step_coefs(p.W, p.s[a]);
    for (int b = 0; b < j; b++) n += bk_term_taps(p.W, p.s[i].t[b]);
    return n;
}
__host__ __device__ constexpr int bk_ncoef(const bk_prog &p) { return bk_coef_base(p, p.n); }
/* number of spatial (barrier-preceded) steps before step i */
__host__ __device__ constexpr int bk_gindex(const bk_prog &p, int i)
{
    int g = 0;
    for (int a = 0; a < i; a++) g += p.s[a].kind == BK_G;
    return g;
}
__host__ __device__ constexpr int bk_ops(const bk_prog &p)
{
    int n = 0;
    for (int a = 0; a < p.n; a++)
        if (p.s[a].kind != BK_SCALE) n += bk_step_coefs(p.W, p.s[a]);
    return n;
}
__host__ __device__ constexpr int bk_barriers(const bk_prog &p, int single)
{
    const int g = bk_gindex(p, p.n);
    return single ? 2 * g - 1 : g;
}
/* components a spatial step reads from shared memory (bit c) */
__host__ __device__ constexpr unsigned bk_srcmask(const bk_step &s)
{
    unsigned m = 0;
    for (int j = 0; j < s.n; j++) m |= 1u << s.t[j].src;
    return m;
}
/* 1 if no destination of an explicit spatial step is also one of its sources
 * (then negating its terms inverts it) */
__host__ __device__ constexpr int bk_triangular(const bk_prog &p)
{
    for (int a = 0; a < p.n; a++) {
        const bk_step &s = p.s[a];
        if (s.kind != BK_G || s.kron) continue;
        for (int j = 0; j < s.n; j++)
            if (bk_srcmask(s) >> s.t[j].dst & 1) return 0;
    }
    return 1;
}

/* Valid region of the tile after each step (overlapping tiles): a step that
 * reads offsets [lo, hi] leaves its outputs valid lo_r more rows in from the
 * top and hi_r in from the bottom (columns alike).  lo[i], sh[i]: after i
 * steps, the first valid index and how many are invalid at the far end. */
struct bk_region {
    int lo_r[BK_MAXS + 1], sh_r[BK_MAXS + 1], lo_c[BK_MAXS + 1], sh_c[BK_MAXS + 1];
};
__host__ __device__ constexpr bk_region bk_regions(const bk_prog &p)
{
    bk_region g{};
    for (int i = 0; i < p.n; i++) {
        int rlo = 0, rhi = 0, clo = 0, chi = 0;
        const bk_step &s = p.s[i];
        if (s.kind == BK_G)
            for (int j = 0; j < s.n; j++) {
                const bk_taps tv = taps_of(fmask(p.W, s.t[j].fv)), th = taps_of(fmask(p.W, s.t[j].fh));
                rlo = tv.lo < rlo ? tv.lo : rlo, rhi = tv.hi > rhi ? tv.hi : rhi;
                clo = th.lo < clo ? th.lo : clo, chi = th.hi > chi ? th.hi : chi;
            }
        g.lo_r[i + 1] = g.lo_r[i] - rlo, g.sh_r[i + 1] = g.sh_r[i] + rhi;
        g.lo_c[i + 1] = g.lo_c[i] - clo, g.sh_c[i + 1] = g.sh_c[i] + chi;
    }
    return g;
}

/* Everything the kernel needs about one (scheme, wavelet, direction, integer). */
template <int S, int W, int INV, int INT> struct bk_prog_of {
    static constexpr bk_prog v = bk_make(S, W, INV, INT);
    static constexpr int NC = bk_ncoef(v);
    static constexpr bk_region rg = bk_regions(v);
    static_assert(v.n <= BK_MAXS, "program too long");
    static_assert(bk_triangular(v), "an explicit spatial step reads one of its own destinations");
};

#endif
