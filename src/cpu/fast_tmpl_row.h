/* Whole rows through a line buffer (fast_row.c, fast_vol.c): the per-row
 * kernels of the 3-D engine.  Included by fast_tmpl_type.h inside its fused
 * section (vector types, LD/ST, OP, SHL1/SHR1, FIN, OSTORE, OSCALE defined).
 *
 * 3-D rows are short (256 samples: 16 blocks of a half on AVX2), so the
 * generic lift2s, which decides for every block whether it is stored out,
 * kept or dropped, spends more instructions on that than on the lifting.
 * For four float steps (cdf97) the row kernels below run the same
 * arithmetic in loops split by block range (prologue, branch-free body,
 * epilogue), using the ranges lw_row_init computed once per level. */

/* dst[i] = src[i] for n elements (distinct buffers). */
__attribute__((always_inline)) LW_TGT static inline void FN(copyn)(LW_T *restrict d, const LW_T *restrict x, size_t n)
{
    size_t i = 0;
    for (; i + LW_TN <= n; i += LW_TN) ST(d + i, LD(x + i));
    for (; i < n; i++) d[i] = x[i];
}

/* Zero [0, e) of a buffer half, writing nothing at or past e. */
__attribute__((always_inline)) LW_TGT static inline void FN(zero_to)(LW_T *d, int64_t e)
{
    V z = {0};
    int64_t j = 0;
    for (; j + LW_TN <= e; j += LW_TN) ST(d + j, z);
    for (; j < e; j++) d[j] = 0;
}

/* Zero [a, b) of a buffer half with whole vectors (past b: padding). */
__attribute__((always_inline)) LW_TGT static inline void FN(zero_from)(LW_T *d, int64_t a, int64_t b)
{
    V z = {0};
    for (int64_t j = a; j < b; j += LW_TN) ST(d + j, z);
}

/* Zero the buffer outside core and margins (the margins are rewritten
 * after, so [0, core) is cleared whole). */
__attribute__((always_inline)) LW_TGT static inline void FN(clear)(const lw_row_prog *r, LW_T *buf, LW_T *H)
{
    int64_t e = (int64_t)r->g.nblk * LW_TN;
    FN(zero_to)(buf, r->zl_end);
    FN(zero_to)(H, r->zh_end);
    FN(zero_from)(buf, r->rl_at, e);
    FN(zero_from)(H, r->rh_at, e);
}

__attribute__((always_inline)) LW_TGT static inline void FN(margins)(const lw_row_prog *r, LW_T *buf)
{
    for (int k = 0; k < r->nm; k++) buf[r->md[k]] = buf[r->ms[k]];
}

/* Forward load: a unit-stride input row split into the compact ring row,
 * then its periodic halo copied inside the row. */
LW_TGT static void FN(row_load)(const lw_row_prog *r, const void *src_, void *row_)
{
    const LW_T *restrict x = (const LW_T *)src_;
    LW_T *row = (LW_T *)row_;
    LW_T *restrict lo = row + r->ld_l, *restrict hi = row + r->ld_h;
    size_t np = (size_t)r->ld_np, i = 0;
    for (; i + LW_TN <= np; i += LW_TN) {
        V p = LD(x + 2 * i), q = LD(x + 2 * i + LW_TN);
        ST(lo + i, (V)__builtin_shufflevector(p, q, SH_EVEN));
        ST(hi + i, (V)__builtin_shufflevector(p, q, SH_ODD));
    }
    for (; i < np; i++) {
        lo[i] = x[2 * i];
        hi[i] = x[2 * i + 1];
    }
    if (r->ld_t >= 0) row[r->ld_t] = x[2 * np];
    for (int k = 0; k < r->nh; k++) row[r->hd[k]] = row[r->hs[k]];
}

#if !LW_TINT
#define W4_ST_(p, v, NT)                      \
    do {                                      \
        if (NT) LW_NTST_OR_ST((p), (v));      \
        else ST((p), (v));                    \
    } while (0)
#if defined(LW_NTST)
#define LW_NTST_OR_ST(p, v) LW_NTST((p), (v))
#else
#define LW_NTST_OR_ST(p, v) ST((p), (v))
#endif

/* Iterations b .. E-1 of a four-step kernel, each reading its blocks through
 * L and H: from the buffer (Lb, Hb) outside [rb0, rb1), from the ring row
 * (Lr, Hr) inside (lw_row_prog.edge; rb0 = rb1 = 0: all from the buffer). */
#define SPLIT3(E, ITER)                                                                   \
    do {                                                                                  \
        size_t e_ = (E), m0_ = e_ < rb0 ? e_ : rb0, m1_ = e_ < rb1 ? e_ : rb1;            \
        {                                                                                 \
            const LW_T *L = Lb, *H = Hb;                                                  \
            for (; b < m0_; b++) ITER;                                                    \
        }                                                                                 \
        {                                                                                 \
            const LW_T *L = Lr, *H = Hr;                                                  \
            for (; b < m1_; b++) ITER;                                                    \
        }                                                                                 \
        {                                                                                 \
            const LW_T *L = Lb, *H = Hb;                                                  \
            for (; b < e_; b++) ITER;                                                     \
        }                                                                                 \
    } while (0)

/* Forward, four steps, every output in blocks [b0, b1) of both halves:
 * block b-1 is final after iteration b.  Blocks before b0 are computed (the
 * margins feed block b0) and dropped; nothing is stored back. */
#define FWD4_HEAD                                                                         \
    size_t j = b * N;                                                                     \
    V lb = LD(L + j);                                                                     \
    V h1 = LD(H + j) + w0 * (lb + LD(L + j + 1));                                         \
    V l1 = lb + w1 * (SHL1(h1p, h1) + h1)
#define FWD4_PRO                                                                          \
    do {                                                                                  \
        FWD4_HEAD;                                                                        \
        if (b > 0) h2p = h1p + w2 * (l1p + SHR1(l1p, l1));                               \
        h1p = h1;                                                                         \
        l1p = l1;                                                                         \
    } while (0)
#define FWD4_ITER                                                                         \
    do {                                                                                  \
        FWD4_HEAD;                                                                        \
        V h2 = h1p + w2 * (l1p + SHR1(l1p, l1));                                          \
        V l2 = l1p + w3 * (SHL1(h2p, h2) + h2);                                           \
        W4_ST_(dh + (j - N), h2 * fh, nt);                                                \
        W4_ST_(dl + (j - N), l2 * fl, nt);                                                \
        h2p = h2;                                                                         \
        h1p = h1;                                                                         \
        l1p = l1;                                                                         \
    } while (0)
__attribute__((always_inline)) LW_TGT static inline void FN(fwd4)(const LW_T *Lb, const LW_T *Hb, const LW_T *Lr,
                                                                  const LW_T *Hr, size_t rb0, size_t rb1, size_t b0,
                                                                  size_t b1, const LW_T *w, LW_T *dl, LW_T *dh, V fl,
                                                                  V fh, const int nt)
{
    const size_t N = LW_TN;
    const V w0 = (V){0} + w[0], w1 = (V){0} + w[1], w2 = (V){0} + w[2], w3 = (V){0} + w[3];
    V z = {0}, h1p = z, l1p = z, h2p = z;
    size_t b = 0;
    {
        const LW_T *L = Lb, *H = Hb;
        for (; b <= b0; b++) FWD4_PRO;
    }
    SPLIT3(b1 + 1, FWD4_ITER);
}
#undef FWD4_HEAD
#undef FWD4_PRO
#undef FWD4_ITER

/* Inverse, four steps, over blocks [0, nblk): iteration b finishes L block
 * b-1 and H block b-2; L blocks [bl0, bl1) and H blocks [bh0, bh1) go to
 * dl + j, dh + j (j the buffer index), the others back to the buffer.
 * Iterations [s0, s1) store out both without tests.  INV4_ITER(STEADY, LIN, HIN, LOUT,
 * HOUT): one iteration; LIN / HIN say whether the finished L / H block goes out, LOUT /
 * HOUT what happens to it otherwise. */
/* The three steps of an iteration that finish L block b-1 (l2), and the
 * carry to the next iteration (shared with INVM_ITER below). */
#define INV4_HEAD(STEADY)                                                                 \
    size_t j = b * N;                                                                     \
    V hb = LD(H + j);                                                                     \
    V l1 = LD(L + j) + w0 * (SHL1(hp, hb) + hb);                                          \
    V h1 = z, l2 = z;                                                                     \
    if (STEADY || b > 0) {                                                                \
        h1 = hp + w1 * (l1p + SHR1(l1p, l1));                                             \
        l2 = l1p + w2 * (SHL1(h1p, h1) + h1);                                             \
    }
#define INV4_TAIL                                                                         \
    hp = hb;                                                                              \
    l1p = l1;                                                                             \
    h1p = h1;                                                                             \
    l2p = l2
#define INV4_ITER(STEADY, LIN, HIN, LOUT, HOUT)                                           \
    do {                                                                                  \
        INV4_HEAD(STEADY)                                                                 \
        if (STEADY || b > 0) {                                                            \
            if (STEADY || (LIN)) ST(dl + (j - N), l2);                                    \
            else LOUT;                                                                    \
        }                                                                                 \
        if (STEADY || b > 1) {                                                            \
            V h2 = h1p + w3 * (l2p + SHR1(l2p, l2));                                      \
            if (STEADY || (HIN)) ST(dh + (j - 2 * N), h2);                                \
            else HOUT;                                                                    \
        }                                                                                 \
        INV4_TAIL;                                                                        \
    } while (0)

#define IN_L (b - 1 >= bl0 && b - 1 < bl1)
#define IN_H (b - 2 >= bh0 && b - 2 < bh1)
#define KEEP_L if (b <= nblk) ST(L + (j - N), l2)
#define KEEP_H ST(H + (j - 2 * N), h2)
LW_TGT static void FN(inv4)(LW_T *L, LW_T *H, size_t nblk, const LW_T *w, LW_T *dl, LW_T *dh, size_t bl0, size_t bl1,
                            size_t bh0, size_t bh1)
{
    const size_t N = LW_TN;
    const V w0 = (V){0} + w[0], w1 = (V){0} + w[1], w2 = (V){0} + w[2], w3 = (V){0} + w[3];
    V z = {0}, hp = z, l1p = z, h1p = z, l2p = z;
    size_t s0 = bl0 + 1 > bh0 + 2 ? bl0 + 1 : bh0 + 2, s1 = bl1 + 1 < bh1 + 2 ? bl1 + 1 : bh1 + 2;
    if (s0 < 2) s0 = 2;
    if (s1 > nblk + 1) s1 = nblk + 1;
    if (s1 < s0) s1 = s0;
    size_t b = 0;
    for (; b < s0; b++) INV4_ITER(0, IN_L, IN_H, KEEP_L, KEEP_H);
    for (; b < s1; b++) INV4_ITER(1, IN_L, IN_H, KEEP_L, KEEP_H);
    for (; b <= nblk + 1; b++) INV4_ITER(0, IN_L, IN_H, KEEP_L, KEEP_H);
}
#undef IN_L
#undef IN_H
#undef KEEP_L
#undef KEEP_H

/* The same in phase with the ring row (r->whole): L blocks [k0, kl1) and H
 * blocks [k0, kh1) all go to dl + j, dh + j, the others are dropped. */
#define W_L (b - 1 >= k0 && b - 1 < kl1)
#define W_H (b - 2 >= k0 && b - 2 < kh1)
LW_TGT static void FN(inv4w)(const LW_T *L, const LW_T *H, const LW_T *w, LW_T *dl, LW_T *dh, size_t k0, size_t kl1,
                             size_t kh1)
{
    const size_t N = LW_TN;
    const V w0 = (V){0} + w[0], w1 = (V){0} + w[1], w2 = (V){0} + w[2], w3 = (V){0} + w[3];
    V z = {0}, hp = z, l1p = z, h1p = z, l2p = z;
    size_t s0 = k0 + 2, s1 = kl1 + 1 < kh1 + 2 ? kl1 + 1 : kh1 + 2, e = kl1 + 1 > kh1 + 2 ? kl1 + 1 : kh1 + 2;
    if (s1 < s0) s1 = s0;
    size_t b = 0;
    for (; b < s0; b++) INV4_ITER(0, W_L, W_H, (void)0, (void)0);
    for (; b < s1; b++) INV4_ITER(1, W_L, W_H, (void)0, (void)0);
    for (; b < e; b++) INV4_ITER(0, W_L, W_H, (void)0, (void)0);
}
#undef W_L
#undef W_H
#undef INV4_ITER

/* The four weights in execution order (inverse: reversed, negated). */
__attribute__((always_inline)) LW_TGT static inline void FN(w4)(const lw_fstep *st, int inverse, LW_T *w)
{
    for (int q = 0; q < 4; q++) {
        const lw_fstep *s = &st[inverse ? 3 - q : q];
        double wd = sizeof(LW_T) == 4 ? (double)s->wf[0] : s->wd[0];
        w[q] = (LW_T)(inverse ? -wd : wd);
    }
}
#endif

/* A ring row into the (aligned) line buffer: samples (only those near the
 * edges where r->edge: the four-step kernels read the others from the ring
 * row), periodic halo, margins. */
__attribute__((always_inline)) LW_TGT static inline void FN(fill)(const lw_row_prog *r, const LW_T *row, LW_T *buf)
{
    if (r->edge) {
        LW_T *H = buf + r->g.hoff;
        const LW_T *rh = row + r->rg.hoff;
        int64_t hs = r->ch_at - (int64_t)r->g.hoff;
        FN(copyn)(buf + r->cl_at, row, (size_t)r->eh_l);
        FN(copyn)(buf + r->et_l, row + (r->et_l - r->cl_at), (size_t)r->en_l);
        FN(copyn)(H + hs, rh, (size_t)r->eh_h);
        FN(copyn)(H + r->et_h, rh + (r->et_h - hs), (size_t)r->en_h);
    } else {
        FN(copyn)(buf + r->cl_at, row, (size_t)r->cl_n);
        FN(copyn)(buf + r->ch_at, row + r->rg.hoff, (size_t)r->ch_n);
    }
    if (!r->discard) FN(clear)(r, buf, buf + r->g.hoff); /* the kernel stored junk blocks back */
    for (int q = 0; q < r->nw; q++) buf[r->wd[q]] = buf[r->ws[q]]; /* periodic halo */
    FN(margins)(r, buf);
}

LW_TGT static void FN(row_fwd)(const lw_row_prog *r, const void *row_, void *buf_, void *dst, void *lo, double f,
                               int nt, int *guard)
{
    const LW_T *row = (const LW_T *)row_;
    LW_T *buf = (LW_T *)buf_, *H = buf + r->g.hoff;
    FN(fill)(r, row, buf);
#if !LW_TINT
    if (r->fp->nsteps == 4 && r->fb1 > r->fb0) {
        LW_T w[4];
        FN(w4)(r->fp->steps, 0, w);
        LW_T *dl = (LW_T *)(lo ? lo : dst) + r->offl, *dh = (LW_T *)dst + r->offh;
        V fl = (V){0} + (LW_T)(f * r->zl), fh = (V){0} + (LW_T)(f * r->zh);
        size_t b0 = (size_t)r->fb0, b1 = (size_t)r->fb1, N = LW_TN;
        int al = (((uintptr_t)(dl + b0 * N) | (uintptr_t)(dh + b0 * N)) & (LW_VB - 1)) == 0;
        /* the ring row as the kernel's L and H (blocks [rb0, rb1) only) */
        const LW_T *Lr = row - r->cl_at, *Hr = row + r->rg.hoff - (r->ch_at - (int64_t)r->g.hoff);
        size_t rb0 = (size_t)r->rb0, rb1 = (size_t)r->rb1;
        if (nt && al)
            FN(fwd4)(buf, H, Lr, Hr, rb0, rb1, b0, b1, w, dl, dh, fl, fh, 1);
        else
            FN(fwd4)(buf, H, Lr, Hr, rb0, rb1, b0, b1, w, dl, dh, fl, fh, 0);
        return;
    }
#endif
    lw_lift_out out;
    out.dl = lo ? lo : dst;
    out.dh = dst;
    out.offl = (ptrdiff_t)r->offl;
    out.offh = (ptrdiff_t)r->offh;
    out.jl0 = (size_t)r->jl0;
    out.jl1 = (size_t)r->jl1;
    out.jh0 = (size_t)r->jh0;
    out.jh1 = (size_t)r->jh1;
    out.fl = f * r->zl;
    out.fh = f * r->zh;
    out.nt = nt;
    out.discard = r->discard;
    out.noscale = 0;
    FN(lift2s)(buf, H, r->g.nblk, r->fp->steps, r->fp->nsteps, 0, guard, &out);
    if (r->discard) return;
    LW_T fl = (LW_T)out.fl, fh = (LW_T)out.fh;
    (void)fl;
    (void)fh;
    for (int k = 0; k < 4; k += 2) {
        LW_T *dl = (LW_T *)out.dl + (r->lol[k] + r->offl), *dh = (LW_T *)dst + (r->loh[k] + r->offh);
        for (int64_t j = 0; j < r->lol[k + 1]; j++) dl[j] = OSCALE(buf[r->lol[k] + j], fl);
        for (int64_t j = 0; j < r->loh[k + 1]; j++) dh[j] = OSCALE(H[r->loh[k] + j], fh);
    }
}

LW_TGT static void FN(row_inv)(const lw_row_prog *r, const void *src_, const void *lo_, void *buf_, void *row_,
                               double f, int *guard)
{
    const LW_T *src = (const LW_T *)src_, *lo = (const LW_T *)lo_;
    LW_T *buf = (LW_T *)buf_, *H = buf + r->g.hoff, *row = (LW_T *)row_;
    int64_t n = r->g.n, h = (n + 1) / 2;
    LW_T il = (LW_T)(f / r->zl), ih = (LW_T)(f / r->zh);
    (void)il;
    (void)ih;
    const LW_T *ls = lo ? lo : src;
    {
        LW_T *d = buf + r->ie_at;
        const LW_T *x = ls + (r->ie >> 1);
        size_t i = 0, m = (size_t)r->ne;
        for (; i + LW_TN <= m; i += LW_TN) ST(d + i, OSCALE(LD(x + i), il));
        for (; i < m; i++) d[i] = OSCALE(x[i], il);
        d = buf + r->io_at;
        x = src + h + (r->io >> 1);
        m = (size_t)r->no;
        for (i = 0; i + LW_TN <= m; i += LW_TN) ST(d + i, OSCALE(LD(x + i), ih));
        for (; i < m; i++) d[i] = OSCALE(x[i], ih);
    }
    /* the periodic halo: copies of core samples, already scaled */
    for (int q = 0; q < r->nw; q++) buf[r->wd[q]] = buf[r->ws[q]];
    LW_T *dl = row - r->cl_at, *dh = row + r->rg.hoff - (r->ch_at - (int64_t)r->g.hoff);
#if !LW_TINT
    if (r->fp->nsteps == 4 && r->whole) { /* nothing stored back: no clearing, no leftovers */
        FN(margins)(r, buf);
        LW_T w[4];
        FN(w4)(r->fp->steps, 1, w);
        FN(inv4w)(buf, H, w, dl, dh, (size_t)r->k0, (size_t)r->kl1, (size_t)r->kh1);
        return;
    }
#endif
    FN(clear)(r, buf, H);
    FN(margins)(r, buf);
    /* finished blocks go straight to the ring row, the rest is copied */
#if !LW_TINT
    if (r->fp->nsteps == 4) {
        LW_T w[4];
        FN(w4)(r->fp->steps, 1, w);
        FN(inv4)(buf, H, r->g.nblk, w, dl, dh, (size_t)r->bl0, (size_t)r->bl1, (size_t)r->bh0, (size_t)r->bh1);
    } else
#endif
    {
        lw_lift_out out;
        out.dl = row;
        out.dh = row + r->rg.hoff;
        out.offl = -(ptrdiff_t)r->cl_at;
        out.offh = -(ptrdiff_t)(r->ch_at - (int64_t)r->g.hoff);
        out.jl0 = (size_t)r->cl_at;
        out.jl1 = (size_t)(r->cl_at + r->cl_n);
        out.jh0 = (size_t)(r->ch_at - (int64_t)r->g.hoff);
        out.jh1 = out.jh0 + (size_t)r->ch_n;
        out.fl = out.fh = 1.0;
        out.nt = 0;
        out.discard = 0;
        out.noscale = 1;
        FN(lift2s)(buf, H, r->g.nblk, r->fp->steps, r->fp->nsteps, 1, guard, &out);
    }
    for (int k = 0; k < 4; k += 2) {
        FN(copyn)(dl + r->ril[k], buf + r->ril[k], (size_t)r->ril[k + 1]);
        FN(copyn)(dh + r->rih[k], H + r->rih[k], (size_t)r->rih[k + 1]);
    }
}

#if !LW_TINT
/* Inverse, rows last (fast_vol.c, vol_sweep): a ring row of coefficients
 * (already divided by their zetas, and lifted back along the other axes) is
 * filled into the buffer like a forward row (lw_row_init's forward geometry:
 * x0 a multiple of 2 x lanes), lifted back by the four steps and stored in
 * natural order: merged output block k = (L block k, H block k) holds
 * samples [x0 + 2kN, x0 + 2kN + 2N), and blocks [fb0, fb1) are exactly
 * [0, n).  Iteration b finishes L block b-1 and H block b-2, so the L block
 * waits one iteration (l2p) for its H partner. */
#define INVM_ITER(STEADY, OUT)                                                            \
    do {                                                                                  \
        INV4_HEAD(STEADY)                                                                 \
        if (OUT) {                                                                        \
            V h2 = h1p + w3 * (l2p + SHR1(l2p, l2));                                      \
            LW_T *o = x + 2 * (j - 2 * N);                                                \
            W4_ST_(o, (V)__builtin_shufflevector(l2p, h2, SH_LO), nt);                    \
            W4_ST_(o + N, (V)__builtin_shufflevector(l2p, h2, SH_HI), nt);                \
        }                                                                                 \
        INV4_TAIL;                                                                        \
    } while (0)

__attribute__((always_inline)) LW_TGT static inline void FN(invm4)(const LW_T *Lb, const LW_T *Hb, const LW_T *Lr,
                                                                   const LW_T *Hr, size_t rb0, size_t rb1, size_t b0,
                                                                   size_t b1, const LW_T *w, LW_T *x, const int nt)
{
    const size_t N = LW_TN;
    const V w0 = (V){0} + w[0], w1 = (V){0} + w[1], w2 = (V){0} + w[2], w3 = (V){0} + w[3];
    V z = {0}, hp = z, l1p = z, h1p = z, l2p = z;
    size_t b = 0;
    {
        const LW_T *L = Lb, *H = Hb;
        for (; b < 2; b++) INVM_ITER(0, 0);
        for (; b < b0 + 2; b++) INVM_ITER(1, 0);
    }
    SPLIT3(b1 + 2, INVM_ITER(1, 1));
}
#undef INVM_ITER
#undef INV4_HEAD
#undef INV4_TAIL

LW_TGT static void FN(row_invm)(const lw_row_prog *r, const void *row_, void *buf_, void *dst_, int nt)
{
    LW_T *buf = (LW_T *)buf_;
    const LW_T *row = (const LW_T *)row_;
    FN(fill)(r, row, buf);
    LW_T w[4];
    FN(w4)(r->fp->steps, 1, w);
    LW_T *x = (LW_T *)dst_ + r->g.x0; /* merged block k at x + 2kN */
    size_t b0 = (size_t)r->fb0, b1 = (size_t)r->fb1;
    const LW_T *Lr = row - r->cl_at, *Hr = row + r->rg.hoff - (r->ch_at - (int64_t)r->g.hoff);
    size_t rb0 = (size_t)r->rb0, rb1 = (size_t)r->rb1;
    if (nt && (((uintptr_t)(x + 2 * b0 * LW_TN)) & (LW_VB - 1)) == 0)
        FN(invm4)(buf, buf + r->g.hoff, Lr, Hr, rb0, rb1, b0, b1, w, x, 1);
    else
        FN(invm4)(buf, buf + r->g.hoff, Lr, Hr, rb0, rb1, b0, b1, w, x, 0);
}
#endif

#undef SPLIT3
#undef W4_ST_
#undef LW_NTST_OR_ST
