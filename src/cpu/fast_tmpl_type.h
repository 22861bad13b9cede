/* Kernel bodies for one element type on one instruction set.  Included by
 * fast_tmpl_isa.h with:
 *   LW_ISA  name suffix (scalar, sse2, avx2, avx512)
 *   LW_TGT  function attributes (target ISA)
 *   LW_VB   vector bytes (0: plain scalar loops)
 *   LW_T    element type, LW_TS its suffix, LW_TINT 1 for int32
 *   LW_TN   lanes per vector (LW_VB / sizeof(LW_T)), a literal 2/4/8/16
 * Written with GCC/Clang vector extensions, so that one body compiles to SSE2,
 * AVX2 or AVX-512 according to the function's target attribute. */

#define LW_CAT3_(a, b, c) a##_##b##_##c
#define LW_CAT3(a, b, c) LW_CAT3_(a, b, c)
#define FN(name) LW_CAT3(name, LW_ISA, LW_TS)

#if LW_VB > 0
/* Keep a vector in a register (an empty asm the compiler cannot see through). */
#if defined(__GNUC__)
#define LW_PIN(x) __asm__("" : "+x"(x))
#else
#define LW_PIN(x) ((void)0)
#endif
typedef LW_T FN(v) __attribute__((vector_size(LW_VB)));
typedef LW_T FN(vu) __attribute__((vector_size(LW_VB), aligned(sizeof(LW_T)), may_alias));
#define V FN(v)
#define VU FN(vu)
#define LD(p) (*(const VU *)(const void *)(p))
#define ST(p, x) (*(VU *)(void *)(p) = (x))
#if LW_TINT
typedef uint32_t FN(vuint) __attribute__((vector_size(LW_VB)));
#define VUI FN(vuint)
#endif

#if LW_TN == 2
#define SH_EVEN 0, 2
#define SH_ODD 1, 3
#define SH_LO 0, 2
#define SH_HI 1, 3
#define SH_PREV1 1, 2
#define SH_NEXT1 1, 2
#elif LW_TN == 4
#define SH_EVEN 0, 2, 4, 6
#define SH_ODD 1, 3, 5, 7
#define SH_LO 0, 4, 1, 5
#define SH_HI 2, 6, 3, 7
#define SH_PREV1 3, 4, 5, 6
#define SH_NEXT1 1, 2, 3, 4
#elif LW_TN == 8
#define SH_EVEN 0, 2, 4, 6, 8, 10, 12, 14
#define SH_ODD 1, 3, 5, 7, 9, 11, 13, 15
#define SH_LO 0, 8, 1, 9, 2, 10, 3, 11
#define SH_HI 4, 12, 5, 13, 6, 14, 7, 15
#define SH_PREV1 7, 8, 9, 10, 11, 12, 13, 14
#define SH_NEXT1 1, 2, 3, 4, 5, 6, 7, 8
#elif LW_TN == 16
#define SH_EVEN 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30
#define SH_ODD 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31
#define SH_LO 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define SH_HI 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#define SH_PREV1 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30
#define SH_NEXT1 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
#else
#error "unsupported lane count"
#endif
#endif /* LW_VB > 0 */

/* ---- one lifting step over n elements -------------------------------------- */

#if !LW_TINT
LW_TGT static void FN(step)(void *dst_, const void *const *nb, size_t n, const lw_fstep *s, int inverse,
                            int *guard)
{
    LW_T *restrict d = (LW_T *)dst_;
    const LW_T *restrict a = (const LW_T *)nb[0];
    const LW_T *restrict b = (const LW_T *)(s->ntaps > 1 ? nb[1] : nb[0]);
    const LW_T *restrict c = (const LW_T *)(s->ntaps > 2 ? nb[2] : nb[0]);
    const LW_T *restrict e = (const LW_T *)(s->ntaps > 3 ? nb[3] : nb[0]);
    LW_T sg = inverse ? (LW_T)-1 : (LW_T)1;
#define W_(i) ((LW_T)(sizeof(LW_T) == 4 ? (double)s->wf[i] : s->wd[i]) * sg)
    LW_T w0 = W_(0), w1 = s->ntaps > 1 ? W_(1) : 0;
#undef W_
    size_t i = 0;
    (void)guard;
    switch (s->kind) {
    case LW_FK_1:
#if LW_VB > 0
        for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(d + i) + w0 * LD(a + i));
#endif
        for (; i < n; i++) d[i] = d[i] + w0 * a[i];
        break;
    case LW_FK_2S:
#if LW_VB > 0
        for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(d + i) + w0 * (LD(a + i) + LD(b + i)));
#endif
        for (; i < n; i++) d[i] = d[i] + w0 * (a[i] + b[i]);
        break;
    case LW_FK_2:
#if LW_VB > 0
        for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(d + i) + (w0 * LD(a + i) + w1 * LD(b + i)));
#endif
        for (; i < n; i++) d[i] = d[i] + (w0 * a[i] + w1 * b[i]);
        break;
    default: /* LW_FK_4S: taps -3, -1, +1, +3 with weights wf, wn, wn, wf */
#if LW_VB > 0
        for (; i + LW_TN <= n; i += LW_TN)
            ST(d + i, LD(d + i) + (w1 * (LD(b + i) + LD(c + i)) + w0 * (LD(a + i) + LD(e + i))));
#endif
        for (; i < n; i++) d[i] = d[i] + (w1 * (b[i] + c[i]) + w0 * (a[i] + e[i]));
        break;
    }
}
#else  /* integer */
LW_TGT static void FN(step)(void *dst_, const void *const *nb, size_t n, const lw_fstep *s, int inverse,
                            int *guard)
{
    int32_t *restrict d = (int32_t *)dst_;
    const int32_t *restrict a = (const int32_t *)nb[0];
    const int32_t *restrict b = (const int32_t *)(s->ntaps > 1 ? nb[1] : nb[0]);
    const int32_t *restrict c = (const int32_t *)(s->ntaps > 2 ? nb[2] : nb[0]);
    const int32_t *restrict e = (const int32_t *)(s->ntaps > 3 ? nb[3] : nb[0]);
    const uint32_t c0 = (uint32_t)s->ic[0], c1 = (uint32_t)(s->ntaps > 1 ? s->ic[1] : 0);
    const uint32_t add = (uint32_t)s->iadd, gb = s->gbias, gl = s->glim;
    const int sh = s->ishift;
    /* neg: the delta enters with a minus sign (sign -1 forward, +1 inverse) */
    const int neg = (s->isign < 0) != (inverse != 0);
    const int kind = s->kind;
    int bad = 0;
    size_t i = 0;
#if LW_VB > 0
    {
        V gacc = {0};
        for (; i + LW_TN <= n; i += LW_TN) {
            VUI ua = (VUI)LD(a + i), ub = (VUI)LD(b + i), acc;
            VUI uo = (VUI)LD(d + i);
            if (kind == LW_FK_1) {
                acc = ua * c0 + add;
            } else if (kind == LW_FK_2S) {
                acc = (ua + ub) * c0 + add;
            } else if (kind == LW_FK_2) {
                acc = ua * c0 + ub * c1 + add;
            } else {
                VUI uc = (VUI)LD(c + i), ue = (VUI)LD(e + i);
                acc = (ub + uc) * c1 + (ua + ue) * c0 + add;
                gacc |= (V)((uc + gb) > gl) | (V)((ue + gb) > gl);
            }
            VUI delta = (VUI)((V)acc >> sh);
            VUI un = neg ? uo - delta : uo + delta;
            gacc |= (V)((ua + gb) > gl) | (V)((ub + gb) > gl) | (V)((uo + gb) > gl) | (V)((un + gb) > gl);
            ST(d + i, (V)un);
        }
        for (int l = 0; l < LW_TN; l++) bad |= gacc[l] != 0;
    }
#endif
    for (; i < n; i++) {
        uint32_t ua = (uint32_t)a[i], ub = (uint32_t)b[i], uo = (uint32_t)d[i], acc;
        if (kind == LW_FK_1) {
            acc = ua * c0 + add;
        } else if (kind == LW_FK_2S) {
            acc = (ua + ub) * c0 + add;
        } else if (kind == LW_FK_2) {
            acc = ua * c0 + ub * c1 + add;
        } else {
            uint32_t uc = (uint32_t)c[i], ue = (uint32_t)e[i];
            acc = (ub + uc) * c1 + (ua + ue) * c0 + add;
            bad |= (uc + gb) > gl || (ue + gb) > gl;
        }
        /* arithmetic shift of the two's complement value = floor division */
        int32_t sv = (int32_t)acc;
        uint32_t delta = (uint32_t)(sv >> sh);
        uint32_t un = neg ? uo - delta : uo + delta;
        bad |= (ua + gb) > gl || (ub + gb) > gl || (uo + gb) > gl || (un + gb) > gl;
        d[i] = (int32_t)un;
    }
    if (bad) *guard = 1;
}
#endif


/* ---- fused lifting of a split line: 1, 2 or 4 alternating two-tap steps ----
 * Steps (forward order) P, U, P, U with taps at -1, +1 and one weight each:
 * P: H[j] += w (L[j] + L[j+1]);  U: L[j] += w (H[j-1] + H[j]).  All steps run
 * in one pass over the blocks of LW_TN elements, the values flowing between
 * steps in registers (shifted by one lane across blocks), later steps lagging
 * one block where they need the next block's first element.  Results replace
 * L and H.  The caller pads both halves: the first element of each is
 * don't-care (its left neighbour is taken as 0) and the arrays are readable
 * for 2 * LW_TN + 1 elements past nblk blocks. */
#if LW_VB > 0 && defined(LW_HAVE_SHUFFLEVECTOR)
#if LW_VB == 64 && LW_TN == 16
/* one-element shifts across two vectors as a single valignd (the generic
 * shuffle compiles to a two-source permute with an index register) */
#define SHL1(p, c) ((V)_mm512_alignr_epi32((__m512i)(c), (__m512i)(p), 15))
#define SHR1(c, nx) ((V)_mm512_alignr_epi32((__m512i)(nx), (__m512i)(c), 1))
#elif LW_VB == 64 && LW_TN == 8
#define SHL1(p, c) ((V)_mm512_alignr_epi64((__m512i)(c), (__m512i)(p), 7))
#define SHR1(c, nx) ((V)_mm512_alignr_epi64((__m512i)(nx), (__m512i)(c), 1))
#else
#define SHL1(p, c) ((V)__builtin_shufflevector((p), (c), SH_PREV1))
#define SHR1(c, nx) ((V)__builtin_shufflevector((c), (nx), SH_NEXT1))
#endif
#if !LW_TINT
#define OP(q, t, a, b) ((t) + w[q] * ((a) + (b)))
#else
#define OP(q, t, a, b) FN(opi)((t), (a), (b), c[q], ad[q], sh[q], ng[q], gb, gl, &gacc)
__attribute__((always_inline)) LW_TGT static inline V FN(opi)(V t, V a, V b, uint32_t c, uint32_t ad, int sh, int ng,
                                                             uint32_t gb, uint32_t gl, V *gacc)
{
    VUI acc = ((VUI)a + (VUI)b) * c + ad;
    VUI dl = (VUI)((V)acc >> sh);
    VUI r = ng ? (VUI)t - dl : (VUI)t + dl;
    *gacc |= (V)(((VUI)a + gb) > gl) | (V)(((VUI)b + gb) > gl) | (V)(((VUI)t + gb) > gl) | (V)((r + gb) > gl);
    return (V)r;
}
#endif

#if LW_TINT
#define OSCALE(v, f) (v)
#else
#define OSCALE(v, f) ((v) * (f))
#endif
#if defined(LW_NTST)
#define OSTORE(p, v, nt)                                                      \
    do {                                                                      \
        if ((nt) && ((uintptr_t)(p) & (LW_VB - 1)) == 0) LW_NTST((p), (v));   \
        else ST((p), (v));                                                    \
    } while (0)
#else
#define OSTORE(p, v, nt) ST((p), (v))
#endif
/* final block of L (or H) at index jb: to its output when wholly inside
 * (the output's fields are copied to locals first: stores through L, H and
 * the outputs could alias *out as far as the compiler knows) */
#define FIN(A, jb, v, D, OFF, J0, J1, F)                                                \
    do {                                                                                \
        if (hasout && (jb) >= J0 && (jb) + N <= J1)                                     \
            OSTORE(D + ((ptrdiff_t)(jb) + OFF), onoscale ? (v) : OSCALE((v), F), ont);  \
        else if (!odiscard)                                                             \
            ST((A) + (jb), (v));                                                        \
    } while (0)
#define FIN_L(jb, v) FIN(L, jb, v, odl, ooffl, ojl0, ojl1, ofl)
#define FIN_H(jb, v) FIN(H, jb, v, odh, ooffh, ojh0, ojh1, ofh)

LW_TGT static void FN(lift2s)(void *L_, void *H_, size_t nblk, const lw_fstep *st, int S, int inverse, int *guard,
                              const lw_lift_out *out)
{
    LW_T *restrict L = (LW_T *)L_;
    LW_T *restrict H = (LW_T *)H_;
    const size_t N = LW_TN;
    const int hasout = out != NULL, ont = out ? out->nt : 0, odiscard = out ? out->discard : 0,
              onoscale = out ? out->noscale : 0;
    const size_t ojl0 = out ? out->jl0 : 0, ojl1 = out ? out->jl1 : 0, ojh0 = out ? out->jh0 : 0,
                 ojh1 = out ? out->jh1 : 0;
    const ptrdiff_t ooffl = out ? out->offl : 0, ooffh = out ? out->offh : 0;
    LW_T *const odl = out ? (LW_T *)out->dl : NULL, *const odh = out ? (LW_T *)out->dh : NULL;
    V ofl = (V){0} + (LW_T)(out ? out->fl : 1), ofh = (V){0} + (LW_T)(out ? out->fh : 1);
    (void)ofl;
    (void)ofh;
    (void)ont;
    /* per-step constants, in execution order (inverse: reversed, subtracting) */
#if !LW_TINT
    LW_T w[4] = {0, 0, 0, 0};
    for (int q = 0; q < S; q++) {
        const lw_fstep *s = &st[inverse ? S - 1 - q : q];
        double wd = sizeof(LW_T) == 4 ? (double)s->wf[0] : s->wd[0];
        w[q] = (LW_T)(inverse ? -wd : wd);
    }
    (void)guard;
#else
    uint32_t c[4] = {0, 0, 0, 0}, ad[4] = {0, 0, 0, 0}, gb = st[0].gbias, gl = st[0].glim;
    int sh[4] = {0, 0, 0, 0}, ng[4] = {0, 0, 0, 0};
    for (int q = 0; q < S; q++) {
        const lw_fstep *s = &st[inverse ? S - 1 - q : q];
        c[q] = (uint32_t)s->ic[0];
        ad[q] = (uint32_t)s->iadd;
        sh[q] = s->ishift;
        ng[q] = (s->isign < 0) != (inverse != 0);
    }
    V gacc = {0};
#endif
    V z = {0};
    if (!inverse && S == 1) {
        for (size_t b = 0; b < nblk; b++) {
            size_t j = b * N;
            V h1 = OP(0, LD(H + j), LD(L + j), LD(L + j + 1));
            FIN_H(j, h1);
        }
    } else if (!inverse && S == 2) {
        V h1p = z;
        for (size_t b = 0; b < nblk; b++) {
            size_t j = b * N;
            V lb = LD(L + j);
            V h1 = OP(0, LD(H + j), lb, LD(L + j + 1));
            V l1 = OP(1, lb, SHL1(h1p, h1), h1);
            FIN_H(j, h1);
            FIN_L(j, l1);
            h1p = h1;
        }
    } else if (!inverse) { /* S == 4 */
        V h1p = z, l1p = z, h2p = z;
        for (size_t b = 0; b <= nblk; b++) {
            size_t j = b * N;
            V lb = LD(L + j);
            V h1 = OP(0, LD(H + j), lb, LD(L + j + 1));
            V l1 = OP(1, lb, SHL1(h1p, h1), h1);
            if (b > 0) { /* block b-1: steps 3 and 4 */
                V h2 = OP(2, h1p, l1p, SHR1(l1p, l1));
                V l2 = OP(3, l1p, SHL1(h2p, h2), h2);
                FIN_H(j - N, h2);
                FIN_L(j - N, l2);
                h2p = h2;
            }
            h1p = h1;
            l1p = l1;
        }
    } else if (S == 1) {
        for (size_t b = 0; b < nblk; b++) {
            size_t j = b * N;
            FIN_H(j, OP(0, LD(H + j), LD(L + j), LD(L + j + 1)));
        }
    } else if (S == 2) {
        V hp = z, l1p = z;
        for (size_t b = 0; b <= nblk; b++) {
            size_t j = b * N;
            V hb = LD(H + j);
            V l1 = OP(0, LD(L + j), SHL1(hp, hb), hb);
            if (b > 0) FIN_H(j - N, OP(1, hp, l1p, SHR1(l1p, l1)));
            if (b < nblk) FIN_L(j, l1);
            hp = hb;
            l1p = l1;
        }
    } else { /* inverse, S == 4 */
        V hp = z, l1p = z, h1p = z, l2p = z;
        for (size_t b = 0; b <= nblk + 1; b++) {
            size_t j = b * N;
            V hb = LD(H + j);
            V l1 = OP(0, LD(L + j), SHL1(hp, hb), hb); /* block b */
            V h1 = z, l2 = z;
            if (b > 0) { /* block b-1 */
                h1 = OP(1, hp, l1p, SHR1(l1p, l1));
                l2 = OP(2, l1p, SHL1(h1p, h1), h1);
                if (b <= nblk) FIN_L(j - N, l2);
            }
            if (b > 1) /* block b-2 */
                FIN_H(j - 2 * N, OP(3, h1p, l2p, SHR1(l2p, l2)));
            hp = hb;
            l1p = l1;
            h1p = h1;
            l2p = l2;
        }
    }
#if LW_TINT
    int bad = 0;
    for (int l = 0; l < LW_TN; l++) bad |= gacc[l] != 0;
    if (bad) *guard = 1;
#endif
}
#include "fast_tmpl_row.h"

#undef OP
#undef SHL1
#undef SHR1
#undef FIN
#undef FIN_L
#undef FIN_H
#undef OSTORE
#undef OSCALE
#endif


#if LW_TINT
static inline int32_t FN(sop_i)(int32_t t, int32_t a, int32_t b, uint32_t c, uint32_t ad, int sh, int ng, uint32_t gb,
                            uint32_t gl, int *bad)
{
    uint32_t acc = ((uint32_t)a + (uint32_t)b) * c + ad;
    uint32_t dl = (uint32_t)((int32_t)acc >> sh);
    uint32_t r = ng ? (uint32_t)t - dl : (uint32_t)t + dl;
    *bad |= ((uint32_t)a + gb) > gl || ((uint32_t)b + gb) > gl || ((uint32_t)t + gb) > gl || (r + gb) > gl;
    return (int32_t)r;
}
#endif

/* ---- fused vertical steps: a chain of 1, 2 or 4 two-tap steps -------------
 * rows[0] is the newest row i, rows[q] is row i - q (q = 1..S+1); processed
 * step q (forward step q, or inverse step S+1-q) updates row i - q from rows
 * i - q - 1 and i - q + 1, the latter already updated by step q - 1.  Every
 * row is loaded once and every target stored once per element. */
LW_TGT static void FN(vchain)(void *const *rows, size_t n, const lw_fstep *st, int S, int inverse, int *guard)
{
    LW_T *r[6];
    for (int q = 0; q < S + 2; q++) r[q] = (LW_T *)rows[q];
#if !LW_TINT
    LW_T w[4] = {0, 0, 0, 0};
    for (int q = 0; q < S; q++) {
        const lw_fstep *s = &st[inverse ? S - 1 - q : q];
        double wd = sizeof(LW_T) == 4 ? (double)s->wf[0] : s->wd[0];
        w[q] = (LW_T)(inverse ? -wd : wd);
    }
    (void)guard;
#define SOP(q, t, a, b) ((t) + w[q] * ((a) + (b)))
#else
    uint32_t c[4] = {0, 0, 0, 0}, ad[4] = {0, 0, 0, 0}, gb = st[0].gbias, gl = st[0].glim;
    int sh[4] = {0, 0, 0, 0}, ng[4] = {0, 0, 0, 0};
    for (int q = 0; q < S; q++) {
        const lw_fstep *s = &st[inverse ? S - 1 - q : q];
        c[q] = (uint32_t)s->ic[0];
        ad[q] = (uint32_t)s->iadd;
        sh[q] = s->ishift;
        ng[q] = (s->isign < 0) != (inverse != 0);
    }
    int bad = 0;
#define SOP(q, t, a, b) FN(sop_i)((t), (a), (b), c[q], ad[q], sh[q], ng[q], gb, gl, &bad)
#endif
    size_t i = 0;
#if LW_VB > 0 && defined(LW_HAVE_SHUFFLEVECTOR)
#if LW_TINT
#define VOP(q, t, a, b) FN(opi)((t), (a), (b), c[q], ad[q], sh[q], ng[q], gb, gl, &gacc)
    V gacc = {0};
#else
#define VOP(q, t, a, b) ((t) + w[q] * ((a) + (b)))
#endif
    if (S == 4) {
        for (; i + LW_TN <= n; i += LW_TN) {
            V v0 = LD(r[0] + i), v1 = LD(r[1] + i), v2 = LD(r[2] + i), v3 = LD(r[3] + i), v4 = LD(r[4] + i),
              v5 = LD(r[5] + i);
            LW_PIN(v2); /* each row loaded once (else the compiler re-reads the rows used twice) */
            LW_PIN(v3);
            LW_PIN(v4);
            v1 = VOP(0, v1, v0, v2);
            v2 = VOP(1, v2, v1, v3);
            v3 = VOP(2, v3, v2, v4);
            v4 = VOP(3, v4, v3, v5);
            ST(r[1] + i, v1);
            ST(r[2] + i, v2);
            ST(r[3] + i, v3);
            ST(r[4] + i, v4);
        }
    } else if (S == 2) {
        for (; i + LW_TN <= n; i += LW_TN) {
            V v0 = LD(r[0] + i), v1 = LD(r[1] + i), v2 = LD(r[2] + i), v3 = LD(r[3] + i);
            LW_PIN(v2);
            v1 = VOP(0, v1, v0, v2);
            v2 = VOP(1, v2, v1, v3);
            ST(r[1] + i, v1);
            ST(r[2] + i, v2);
        }
    } else {
        for (; i + LW_TN <= n; i += LW_TN) ST(r[1] + i, VOP(0, LD(r[1] + i), LD(r[0] + i), LD(r[2] + i)));
    }
#undef VOP
#if LW_TINT
    for (int l = 0; l < LW_TN; l++) bad |= gacc[l] != 0;
#endif
#endif
    for (; i < n; i++)
        for (int q = 1; q <= S; q++) r[q][i] = SOP(q - 1, r[q][i], r[q - 1][i], r[q + 1][i]);
#undef SOP
#if LW_TINT
    if (bad) *guard = 1;
#endif
}

#if !LW_TINT
/* ---- four float steps down a whole column: the iterations [i0, i0 + 2k) of
 * vchain over rows held at fixed distances (fast_nd.c, lw_fast_vsweep),
 * column block by column block with the rows in flight kept in registers:
 * per iteration two rows loaded and two final rows stored (vchain: six and
 * four), the same operations in the same order per element.  p: row i0
 * (the newest of the first iteration); row i0 - q at p - q * stride. */
LW_TGT static void FN(vwalk)(void *p_, size_t stride, size_t iters, size_t n, const lw_fstep *st, int inverse)
{
    LW_T *p = (LW_T *)p_;
    LW_T w[4];
    for (int q = 0; q < 4; q++) {
        const lw_fstep *s = &st[inverse ? 3 - q : q];
        double wd = sizeof(LW_T) == 4 ? (double)s->wf[0] : s->wd[0];
        w[q] = (LW_T)(inverse ? -wd : wd);
    }
    const ptrdiff_t s1 = (ptrdiff_t)stride;
    size_t j = 0;
#if LW_VB > 0
    const V w0 = (V){0} + w[0], w1 = (V){0} + w[1], w2 = (V){0} + w[2], w3 = (V){0} + w[3];
    for (; j + LW_TN <= n; j += LW_TN) {
        LW_T *c = p + j;
        V a2 = LD(c - 2 * s1), a3 = LD(c - 3 * s1), a4 = LD(c - 4 * s1), a5 = LD(c - 5 * s1);
        /* WALK(a2, a3, a4, a5 -> b2, b3, b4, b5): one iteration, the carried
         * rows renamed instead of moved (two iterations per loop turn) */
#define WALK(A2, A3, A4, A5)                        \
    do {                                            \
        V v0 = LD(c), v1 = LD(c - s1);              \
        v1 = v1 + w0 * (v0 + A2);                   \
        V v2 = A2 + w1 * (v1 + A3);                 \
        V v3 = A3 + w2 * (v2 + A4);                 \
        V v4 = A4 + w3 * (v3 + A5);                 \
        ST(c - 3 * s1, v3);                         \
        ST(c - 4 * s1, v4);                         \
        A5 = v3;                                    \
        A4 = v2;                                    \
        A3 = v1;                                    \
        A2 = v0;                                    \
        c += 2 * s1;                                \
    } while (0)
        size_t k = 0;
        for (; k + 2 <= iters; k += 2) {
            WALK(a2, a3, a4, a5);
            WALK(a2, a3, a4, a5);
        }
        if (k < iters) WALK(a2, a3, a4, a5);
#undef WALK
        /* rows in flight: the last iteration's rows i-1 and i-2 */
        ST(c - 3 * s1, a3);
        ST(c - 4 * s1, a4);
    }
#endif
    for (; j < n; j++) {
        LW_T *c = p + j;
        LW_T a2 = c[-2 * s1], a3 = c[-3 * s1], a4 = c[-4 * s1], a5 = c[-5 * s1];
        for (size_t k = 0; k < iters; k++, c += 2 * s1) {
            LW_T v0 = c[0], v1 = c[-s1] + w[0] * (c[0] + a2);
            LW_T v2 = a2 + w[1] * (v1 + a3);
            LW_T v3 = a3 + w[2] * (v2 + a4);
            LW_T v4 = a4 + w[3] * (v3 + a5);
            c[-3 * s1] = v3;
            c[-4 * s1] = v4;
            a5 = v3;
            a4 = v2;
            a3 = v1;
            a2 = v0;
        }
        c[-3 * s1] = a3;
        c[-4 * s1] = a4;
    }
}
#endif

/* ---- scale-copy, split, merge ------------------------------------------------ */

LW_TGT static void FN(scale)(void *dst_, const void *src_, size_t n, double f)
{
    LW_T *restrict d = (LW_T *)dst_;
    const LW_T *restrict x = (const LW_T *)src_;
    size_t i = 0;
#if LW_TINT
    (void)f;
#if LW_VB > 0
    for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(x + i));
#endif
    for (; i < n; i++) d[i] = x[i];
#else
    LW_T ff = (LW_T)f;
#if LW_VB > 0
    for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(x + i) * ff);
#endif
    for (; i < n; i++) d[i] = x[i] * ff;
#endif
}

#if LW_TINT
#define MULF(x, f) (x)
#else
#define MULF(x, f) ((x) * (f))
#endif

LW_TGT static void FN(split)(const void *src_, void *lo_, void *hi_, size_t np, double fl, double fh)
{
    const LW_T *restrict x = (const LW_T *)src_;
    LW_T *restrict lo = (LW_T *)lo_;
    LW_T *restrict hi = (LW_T *)hi_;
    LW_T l = (LW_T)fl, h = (LW_T)fh;
    (void)l;
    (void)h;
    size_t i = 0;
#if LW_VB > 0 && defined(LW_HAVE_SHUFFLEVECTOR)
    for (; i + LW_TN <= np; i += LW_TN) {
        V p = LD(x + 2 * i), q = LD(x + 2 * i + LW_TN);
        V ev = __builtin_shufflevector(p, q, SH_EVEN);
        V od = __builtin_shufflevector(p, q, SH_ODD);
        ST(lo + i, MULF(ev, l));
        ST(hi + i, MULF(od, h));
    }
#endif
    for (; i < np; i++) {
        lo[i] = MULF(x[2 * i], l);
        hi[i] = MULF(x[2 * i + 1], h);
    }
}

LW_TGT static void FN(merge)(void *dst_, const void *lo_, const void *hi_, size_t np, double fl, double fh)
{
    LW_T *restrict x = (LW_T *)dst_;
    const LW_T *restrict lo = (const LW_T *)lo_;
    const LW_T *restrict hi = (const LW_T *)hi_;
    LW_T l = (LW_T)fl, h = (LW_T)fh;
    (void)l;
    (void)h;
    size_t i = 0;
#if LW_VB > 0 && defined(LW_HAVE_SHUFFLEVECTOR)
    for (; i + LW_TN <= np; i += LW_TN) {
        V p = MULF(LD(lo + i), l), q = MULF(LD(hi + i), h);
        ST(x + 2 * i, (V)__builtin_shufflevector(p, q, SH_LO));
        ST(x + 2 * i + LW_TN, (V)__builtin_shufflevector(p, q, SH_HI));
    }
#endif
    for (; i < np; i++) {
        x[2 * i] = MULF(lo[i], l);
        x[2 * i + 1] = MULF(hi[i], h);
    }
}

/* Streaming-store variants for large final outputs (no read for ownership,
 * no cache pollution).  Not fenced here (a fence per row would wait for every
 * row's stores to drain): each thread fences once after its work
 * (lw_fast_store_fence), before the threads synchronize. */
#if LW_VB > 0 && defined(LW_NTST)
LW_TGT static void FN(scale_nt)(void *dst_, const void *src_, size_t n, double f)
{
    LW_T *restrict d = (LW_T *)dst_;
    const LW_T *restrict x = (const LW_T *)src_;
    LW_T ff = (LW_T)f;
    (void)ff;
    size_t i = 0;
    if (n < 4 * LW_TN) {
        FN(scale)(dst_, src_, n, f);
        return;
    }
    for (; ((uintptr_t)(d + i) & (LW_VB - 1)) != 0; i++) d[i] = MULF(x[i], ff);
    for (; i + LW_TN <= n; i += LW_TN) LW_NTST(d + i, MULF(LD(x + i), ff));
    for (; i < n; i++) d[i] = MULF(x[i], ff);
}

LW_TGT static void FN(merge_nt)(void *dst_, const void *lo_, const void *hi_, size_t np, double fl, double fh)
{
    LW_T *restrict x = (LW_T *)dst_;
    const LW_T *restrict lo = (const LW_T *)lo_;
    const LW_T *restrict hi = (const LW_T *)hi_;
    LW_T l = (LW_T)fl, h = (LW_T)fh;
    (void)l;
    (void)h;
    size_t i = 0;
    if (np < 4 * LW_TN || ((uintptr_t)x & (2 * sizeof(LW_T) - 1)) != 0) {
        FN(merge)(dst_, lo_, hi_, np, fl, fh);
        return;
    }
    for (; ((uintptr_t)(x + 2 * i) & (LW_VB - 1)) != 0; i++) {
        x[2 * i] = MULF(lo[i], l);
        x[2 * i + 1] = MULF(hi[i], h);
    }
#if defined(LW_HAVE_SHUFFLEVECTOR)
    for (; i + LW_TN <= np; i += LW_TN) {
        V p = MULF(LD(lo + i), l), q = MULF(LD(hi + i), h);
        LW_NTST(x + 2 * i, (V)__builtin_shufflevector(p, q, SH_LO));
        LW_NTST(x + 2 * i + LW_TN, (V)__builtin_shufflevector(p, q, SH_HI));
    }
#endif
    for (; i < np; i++) {
        x[2 * i] = MULF(lo[i], l);
        x[2 * i + 1] = MULF(hi[i], h);
    }
}
#else
LW_TGT static void FN(scale_nt)(void *dst_, const void *src_, size_t n, double f) { FN(scale)(dst_, src_, n, f); }
LW_TGT static void FN(merge_nt)(void *dst_, const void *lo_, const void *hi_, size_t np, double fl, double fh)
{
    FN(merge)(dst_, lo_, hi_, np, fl, fh);
}
#endif

#undef MULF
#undef FN
#undef LW_CAT3
#undef LW_CAT3_
#if LW_VB > 0
#undef V
#undef VU
#undef LD
#undef ST
#undef SH_EVEN
#undef SH_ODD
#undef SH_LO
#undef SH_HI
#undef SH_PREV1
#undef SH_NEXT1
#undef LW_PIN
#if LW_TINT
#undef VUI
#endif
#endif
