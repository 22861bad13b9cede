/* Host side of the block schemes: the weights of every tap of a program
 * (k_block_prog.cuh), in the order the kernel reads them, computed from the
 * wavelet's lifting table by polynomial arithmetic in double precision. */
#ifndef LW_K_BLOCK_COEF_CUH
#define LW_K_BLOCK_COEF_CUH

#include "k_block_prog.cuh"

#include <math.h>
#include <string.h>

struct bk_poly { /* coefficient of quad offset d at c[d + 16] */
    double c[32];
};

static inline bk_poly bkp_delta(double v)
{
    bk_poly p;
    memset(&p, 0, sizeof p);
    p.c[16] = v;
    return p;
}
static inline bk_poly bkp_add(const bk_poly &a, const bk_poly &b)
{
    bk_poly r;
    for (int i = 0; i < 32; i++) r.c[i] = a.c[i] + b.c[i];
    return r;
}
static inline bk_poly bkp_mul(const bk_poly &a, const bk_poly &b)
{
    bk_poly r = bkp_delta(0);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++) {
            const int s = i + j - 16;
            if (a.c[i] != 0 && b.c[j] != 0 && s >= 0 && s < 32) r.c[s] += a.c[i] * b.c[j];
        }
    return r;
}
static inline bk_poly bkp_scale(const bk_poly &a, double v)
{
    bk_poly r;
    for (int i = 0; i < 32; i++) r.c[i] = a.c[i] * v;
    return r;
}

/* lifting step s as a polynomial in the quad offset (0 if the table does not
 * have the expected predict/update alternation) */
static inline int bkp_step(const lwk_wave *w, int s, int odd, bk_poly *out)
{
    *out = bkp_delta(0);
    if (s >= w->nsteps || w->target_odd[s] != odd) return 0;
    for (int t = 0; t < w->ntaps[s]; t++) {
        const int off = w->off[s][t];
        const int d = odd ? (off + 1) / 2 : (off - 1) / 2;
        if ((off & 1) == 0 || d < -16 || d > 15) return 0;
        out->c[d + 16] += w->wt[s][t];
    }
    return 1;
}

struct bkp_m22 {
    bk_poly a, b, c, d;
};
static inline bkp_m22 bkp_mmul(const bkp_m22 &x, const bkp_m22 &y)
{
    bkp_m22 r;
    r.a = bkp_add(bkp_mul(x.a, y.a), bkp_mul(x.b, y.c));
    r.b = bkp_add(bkp_mul(x.a, y.b), bkp_mul(x.b, y.d));
    r.c = bkp_add(bkp_mul(x.c, y.a), bkp_mul(x.d, y.c));
    r.d = bkp_add(bkp_mul(x.c, y.b), bkp_mul(x.d, y.d));
    return r;
}

/* the polynomial of filter reference f; 0 on an unexpected lifting table */
static inline int bkp_filter(const lwk_wave *w, int f, bk_poly *out)
{
    const int k = bf_k(f);
    bk_poly P, U;
    if (!bkp_step(w, 2 * k, 1, &P) || !bkp_step(w, 2 * k + 1, 0, &U)) return 0;
    bk_poly P1 = P, U1 = U;
    P1.c[16] = 0, U1.c[16] = 0;
    switch (bf_id(f)) {
    case BF_ID: *out = bkp_delta(1); break;
    case BF_P: *out = P; break;
    case BF_U: *out = U; break;
    case BF_P0: *out = bkp_delta(P.c[16]); break;
    case BF_U0: *out = bkp_delta(U.c[16]); break;
    case BF_P1: *out = P1; break;
    case BF_U1: *out = U1; break;
    case BF_V: *out = bkp_add(bkp_delta(1), bkp_mul(P, U)); break;
    case BF_V1: *out = bkp_add(bkp_delta(1), bkp_mul(P1, U1)); break;
    default: { /* the whole 1-D polyphase matrix, scaling included */
        bkp_m22 m = {bkp_delta(1), bkp_delta(0), bkp_delta(0), bkp_delta(1)};
        for (int kk = 0; kk < w->nsteps / 2; kk++) {
            bk_poly Pk, Uk;
            if (!bkp_step(w, 2 * kk, 1, &Pk) || !bkp_step(w, 2 * kk + 1, 0, &Uk)) return 0;
            bkp_m22 mp = {bkp_delta(1), bkp_delta(0), Pk, bkp_delta(1)};
            bkp_m22 mu = {bkp_delta(1), Uk, bkp_delta(0), bkp_delta(1)};
            m = bkp_mmul(mu, bkp_mmul(mp, m));
        }
        const bk_poly e[4] = {bkp_scale(m.a, w->zl), bkp_scale(m.b, w->zl), bkp_scale(m.c, w->zh),
                              bkp_scale(m.d, w->zh)};
        const int id = bf_id(f);
        if (id < BF_MA || id > BF_MD) return 0;
        *out = e[id - BF_MA];
    }
    }
    if (bf_neg(f)) *out = bkp_scale(*out, -1);
    return 1;
}

/* Fill coef[] (bk_ncoef(p) entries) for wavelet w.  0 if a filter has a tap
 * outside the support the kernel was compiled for (a table this build does
 * not know). */
template <class T> static int bk_fill_coefs(const bk_prog &p, const lwk_wave *w, T *coef)
{
    int n = 0;
    for (int i = 0; i < p.n; i++) {
        const bk_step &s = p.s[i];
        if (s.kind == BK_SCALE) {
            const double g[4] = {w->zl * w->zl, w->zl * w->zh, w->zh * w->zl, w->zh * w->zh};
            for (int c = 0; c < 4; c++) coef[n++] = (T)(s.inv ? 1.0 / g[c] : g[c]);
            continue;
        }
        for (int j = 0; j < s.n; j++) {
            const bk_term &t = s.t[j];
            bk_poly pv, ph;
            if (!bkp_filter(w, t.fv, &pv) || !bkp_filter(w, t.fh, &ph)) return 0;
            const uint32_t mv = fmask(p.W, t.fv), mh = fmask(p.W, t.fh);
            for (int d = 0; d < 32; d++)
                if ((pv.c[d] != 0 && !(mv >> d & 1)) || (ph.c[d] != 0 && !(mh >> d & 1))) return 0;
            for (int a = 0; a < 32; a++) {
                if (!(mv >> a & 1)) continue;
                for (int b = 0; b < 32; b++) {
                    if (!(mh >> b & 1)) continue;
                    double c = t.sgn * pv.c[a] * ph.c[b];
                    if (t.mi && a == 16 && b == 16) c -= 1;
                    coef[n++] = (T)c;
                }
            }
        }
    }
    return 1;
}

#endif
