/* One kernel body for every block scheme of paper 003 (programs in
 * k_block_prog.cuh), instantiated per scheme, wavelet, direction, element type
 * and buffering by the k_block_<scheme>.cu files.
 *
 * A block owns an overlapping tile of RQ x CQ quads (the paper's block-based
 * method: neighbouring tiles overlap by the reach of the scheme, so no data
 * crosses blocks); every thread owns one column of QPT quads and keeps them in
 * registers.  Load: each quad's 2x2 samples (forward) or its four band
 * coefficients (inverse) through the boundary mode.  Then the program: a
 * spatial step publishes the components it reads to shared memory, waits at a
 * barrier and adds its terms into the registers of the quads that stay valid
 * (the valid region shrinks by each step's reach); local steps and the scaling
 * work on registers alone.  Double buffering alternates two shared buffers
 * (one barrier per spatial step); single buffering reuses one (a second
 * barrier before each rewrite).  Store: the tile's inner quads.
 *
 * Boundaries: loading the tile through the mode once equals reading through
 * the mode at every lifting step (the reference) for periodic mode and for
 * the symmetric-tap wavelets taken here (cdf53, cdf97, dd137), as in
 * k_tile2d.cu; the inverse loads the coefficients at the mirrored sample
 * positions, which keep their parity. */
#ifndef LW_K_BLOCK_KERNEL_CUH
#define LW_K_BLOCK_KERNEL_CUH

#include "k_block_api.cuh"
#include "k_block_coef.cuh"

#include <mutex>
#include <type_traits>
#include <utility>

#ifndef LWK_BLOCK_EMU
__device__ __forceinline__ unsigned char *bk_smem()
{
    extern __shared__ __align__(16) unsigned char bk_smem_raw[];
    return bk_smem_raw;
}
#define BK_SYNC() __syncthreads()
#define BK_GRID_CONST __grid_constant__
#define BK_LAUNCH(k, g, b, sm, st, arg) k<<<g, b, sm, st>>>(arg)
#define BK_SET_SMEM(k, sm) lw_cuda_func_attr((const void *)(k), LW_SMEM_ATTR, (int)(sm))
#define BK_LAST_ERROR() cudaGetLastError()
#endif

/* Tile: CQ quads across (one per thread, a warp reads a row of a component
 * from shared memory without conflicts), RQ quads down, QPT per thread. */
template <class T> struct bk_cfg {
    enum { CQ = sizeof(T) == 8 ? 32 : 64, RQ = 32, NY = 256 / CQ, QPT = RQ / NY, NT = CQ * NY };
};

template <class T> struct bk_vec2;
template <> struct bk_vec2<float> { typedef float2 t; };
template <> struct bk_vec2<double> { typedef double2 t; };
template <> struct bk_vec2<int32_t> { typedef int2 t; };

template <class T> struct bk_is_int { enum { value = std::is_integral<T>::value }; };

template <class T, int NC> struct bk_args {
    lwk_plane a, b, c; /* forward: src, LL band, detail bands; inverse: LL band, detail bands, dst */
    int64_t rows, cols, hr, hc;
    int64_t qlo, ntr;  /* first quad row, tiles down */
    int64_t row_lo, row_hi;
    int64_t blen1, nbatch;
    int mode;
    int icoef[LW_MAX_STEPS][LW_MAX_TAPS], iadd[LW_MAX_STEPS], isign[LW_MAX_STEPS], ishift[LW_MAX_STEPS];
    T coef[NC > 0 ? NC : 1];
};

__device__ __forceinline__ int64_t bk_map(int64_t i, int64_t n, int mode)
{
    return (i >= 0 && i < n) ? i : lwd_bidx(i, n, mode);
}

/* integer lifting step s (the reference's rounding) */
template <class A>
__device__ __forceinline__ int32_t bk_istep(const A &a, int s, int dir, int32_t x, const int32_t *taps, int n)
{
    long long acc = a.iadd[s];
    for (int i = 0; i < n; i++) acc += (long long)a.icoef[s][i] * taps[i];
    const long long d = (long long)a.isign[s] * (acc >> a.ishift[s]);
    return (int32_t)(uint32_t)(unsigned long long)(dir > 0 ? (long long)x + d : (long long)x - d);
}

/* term J of spatial step I on quad q (local row r) */
template <class T, class PR, int I, int J, class A>
__device__ __forceinline__ void bk_term_run(T (&v)[4][bk_cfg<T>::QPT], const T *buf, const A &a, int q, int r, int c)
{
    constexpr int CQ = bk_cfg<T>::CQ, RQ = bk_cfg<T>::RQ;
    constexpr bk_term t = PR::v.s[I].t[J];
    constexpr bk_taps tv = taps_of(fmask(PR::v.W, t.fv)), th = taps_of(fmask(PR::v.W, t.fh));
    constexpr int CB = bk_coef_base(PR::v, I, J);
    const T *s = buf + (t.src * RQ + r) * CQ + c;
    if constexpr (bk_is_int<T>::value) { /* int32: one integer lifting step */
        constexpr int f = t.fv != BF_ID ? t.fv : t.fh;
        static_assert(tv.n == 1 || th.n == 1, "integer terms are 1-D steps");
        constexpr int st = 2 * bf_k(f) + (bf_id(f) == BF_U);
        int32_t taps[tv.n * th.n];
#pragma unroll
        for (int iv = 0; iv < tv.n; iv++)
#pragma unroll
            for (int ih = 0; ih < th.n; ih++) taps[iv * th.n + ih] = s[tv.d[iv] * CQ + th.d[ih]];
        v[t.dst][q] = bk_istep(a, st, t.sgn, v[t.dst][q], taps, tv.n * th.n);
    } else {
        T acc = v[t.dst][q];
#pragma unroll
        for (int iv = 0; iv < tv.n; iv++)
#pragma unroll
            for (int ih = 0; ih < th.n; ih++) acc += a.coef[CB + iv * th.n + ih] * s[tv.d[iv] * CQ + th.d[ih]];
        v[t.dst][q] = acc;
    }
}

template <class T, class PR, int I, class A, size_t... J>
__device__ __forceinline__ void bk_terms(T (&v)[4][bk_cfg<T>::QPT], const T *buf, const A &a, int q, int r, int c,
                                         std::index_sequence<J...>)
{
    (bk_term_run<T, PR, I, (int)J>(v, buf, a, q, r, c), ...);
}

/* step I of the program */
template <class T, class PR, int DB, int I, class A>
__device__ __forceinline__ void bk_step_run(T (&v)[4][bk_cfg<T>::QPT], T *sm, const A &a, int tx, int ty)
{
    typedef bk_cfg<T> C;
    constexpr bk_step S = PR::v.s[I];
    constexpr int CB = bk_coef_base(PR::v, I);
    if constexpr (S.kind == BK_L) {
        constexpr bk_term t = S.t[0];
#pragma unroll
        for (int q = 0; q < C::QPT; q++) v[t.dst][q] += a.coef[CB] * v[t.src][q];
    } else if constexpr (S.kind == BK_SCALE) {
#pragma unroll
        for (int k = 0; k < 4; k++)
#pragma unroll
            for (int q = 0; q < C::QPT; q++) v[k][q] *= a.coef[CB + k];
    } else {
        constexpr int G = bk_gindex(PR::v, I);
        constexpr unsigned SRC = bk_srcmask(S);
        T *buf = sm + (DB ? (G & 1) : 0) * 4 * C::RQ * C::CQ;
        if (!DB && G > 0) BK_SYNC(); /* single buffering: every read of the last step is done */
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (SRC >> k & 1) {
#pragma unroll
                for (int q = 0; q < C::QPT; q++) buf[(k * C::RQ + ty + C::NY * q) * C::CQ + tx] = v[k][q];
            }
        BK_SYNC();
        constexpr int LR = PR::rg.lo_r[I + 1], HR = C::RQ - PR::rg.sh_r[I + 1];
        constexpr int LC = PR::rg.lo_c[I + 1], HC = C::CQ - PR::rg.sh_c[I + 1];
        static_assert(LR < HR && LC < HC, "tile too small for the scheme's reach");
        if (tx >= LC && tx < HC) {
#pragma unroll
            for (int q = 0; q < C::QPT; q++) {
                const int r = ty + C::NY * q;
                if (r >= LR && r < HR) bk_terms<T, PR, I>(v, buf, a, q, r, tx, std::make_index_sequence<S.n>{});
            }
        }
    }
}

template <class T, class PR, int DB, class A, size_t... I>
__device__ __forceinline__ void bk_prog_run(T (&v)[4][bk_cfg<T>::QPT], T *sm, const A &a, int tx, int ty,
                                            std::index_sequence<I...>)
{
    (bk_step_run<T, PR, DB, (int)I>(v, sm, a, tx, ty), ...);
}

template <class T, class PR, int INV, int DB>
__global__ void __launch_bounds__(256) bk_kernel(const BK_GRID_CONST bk_args<T, PR::NC> a)
{
    typedef bk_cfg<T> C;
    typedef typename bk_vec2<T>::t V2;
    constexpr int n = PR::v.n;
    constexpr int HLR = PR::rg.lo_r[n], HLC = PR::rg.lo_c[n];
    constexpr int OUTR = C::RQ - HLR - PR::rg.sh_r[n], OUTC = C::CQ - HLC - PR::rg.sh_c[n];
    T *sm = (T *)bk_smem();
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t rows = a.rows, cols = a.cols, hr = a.hr, hc = a.hc;
    const int64_t qhi = (a.row_hi + 1) >> 1;
    const int64_t gj = (int64_t)blockIdx.x * OUTC - HLC + tx; /* this thread's quad column */
    const int64_t cm0 = bk_map(2 * gj, cols, a.mode), cm1 = bk_map(2 * gj + 1, cols, a.mode);
    const bool cin = 2 * gj >= 0 && 2 * gj + 1 < cols;
    const bool cout = tx >= HLC && tx < HLC + OUTC && gj < hc;
    for (int64_t bb = blockIdx.z; bb < a.nbatch; bb += gridDim.z) {
        const int64_t b1 = bb % a.blen1, b0 = bb / a.blen1;
        const T *ap = (const T *)a.a.p + b0 * a.a.bs[0] + b1 * a.a.bs[1];
        const T *bp = (const T *)a.b.p + b0 * a.b.bs[0] + b1 * a.b.bs[1];
        T *cp = (T *)a.c.p + b0 * a.c.bs[0] + b1 * a.c.bs[1];
        for (int64_t tr = blockIdx.y; tr < a.ntr; tr += gridDim.y) {
            if (bb != blockIdx.z || tr != blockIdx.y) BK_SYNC(); /* the last tile's reads are done */
            const int64_t qr0 = a.qlo + tr * OUTR - HLR;
            T v[4][C::QPT];
            /* load every quad of the tile */
#pragma unroll
            for (int q = 0; q < C::QPT; q++) {
                const int64_t gi = qr0 + ty + C::NY * q;
                if (!INV) {
                    const int64_t r0 = bk_map(2 * gi, rows, a.mode), r1 = bk_map(2 * gi + 1, rows, a.mode);
                    const T *p0 = ap + r0 * a.a.rs, *p1 = ap + r1 * a.a.rs;
                    if (cin && ((uintptr_t)(p0 + 2 * gj) % sizeof(V2)) == 0 && ((uintptr_t)(p1 + 2 * gj) % sizeof(V2)) == 0) {
                        const V2 x0 = __ldg((const V2 *)(p0 + 2 * gj)), x1 = __ldg((const V2 *)(p1 + 2 * gj));
                        v[LL][q] = x0.x, v[HL][q] = x0.y, v[LH][q] = x1.x, v[HH][q] = x1.y;
                    } else {
                        v[LL][q] = __ldg(p0 + cm0), v[HL][q] = __ldg(p0 + cm1);
                        v[LH][q] = __ldg(p1 + cm0), v[HH][q] = __ldg(p1 + cm1);
                    }
                } else {
#pragma unroll
                    for (int k = 0; k < 4; k++) {
                        const int64_t rm = bk_map(2 * gi + (k >> 1), rows, a.mode), cm = (k & 1) ? cm1 : cm0;
                        const int64_t ri = (rm & 1) ? hr + (rm >> 1) : (rm >> 1);
                        const int64_t ci = (cm & 1) ? hc + (cm >> 1) : (cm >> 1);
                        v[k][q] = ((rm | cm) & 1) ? __ldg(bp + ri * a.b.rs + ci) : __ldg(ap + ri * a.a.rs + ci);
                    }
                }
            }
            bk_prog_run<T, PR, DB>(v, sm, a, tx, ty, std::make_index_sequence<n>{});
            /* store the inner quads */
            if (cout) {
#pragma unroll
                for (int q = 0; q < C::QPT; q++) {
                    const int r = ty + C::NY * q;
                    const int64_t gi = qr0 + r;
                    if (r < HLR || r >= HLR + OUTR || gi >= qhi) continue;
                    const bool hodd = 2 * gj + 1 < cols, vodd = 2 * gi + 1 < rows;
                    if (!INV) {
                        T *llp = (T *)bp;
                        llp[gi * a.b.rs + gj] = v[LL][q];
                        if (hodd) cp[gi * a.c.rs + hc + gj] = v[HL][q];
                        if (vodd) cp[(hr + gi) * a.c.rs + gj] = v[LH][q];
                        if (vodd && hodd) cp[(hr + gi) * a.c.rs + hc + gj] = v[HH][q];
                    } else {
#pragma unroll
                        for (int h = 0; h < 2; h++) {
                            const int64_t sr = 2 * gi + h;
                            if (sr < a.row_lo || sr >= a.row_hi || sr >= rows) continue;
                            T *op = cp + sr * a.c.rs + 2 * gj;
                            const T x0 = v[2 * h][q], x1 = v[2 * h + 1][q];
                            if (hodd && ((uintptr_t)op % sizeof(V2)) == 0) {
                                V2 y;
                                y.x = x0, y.y = x1;
                                *(V2 *)op = y;
                            } else {
                                op[0] = x0;
                                if (hodd) op[1] = x1;
                            }
                        }
                    }
                }
            }
        }
    }
}

/* Launch one level: forward a = src, b = LL band, c = detail bands; inverse
 * a = LL band, b = detail bands, c = dst. */
template <class T, int S, int W, int INV, int DB>
static cudaError_t bk_launch(const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c, cudaStream_t st)
{
    typedef bk_prog_of<S, W, INV, bk_is_int<T>::value> PR;
    typedef bk_cfg<T> C;
    constexpr int n = PR::v.n;
    constexpr int OUTR = C::RQ - PR::rg.lo_r[n] - PR::rg.sh_r[n], OUTC = C::CQ - PR::rg.lo_c[n] - PR::rg.sh_c[n];
    bk_args<T, PR::NC> A;
    memset(&A, 0, sizeof A);
    A.a = a, A.b = b, A.c = c;
    A.rows = t->rows, A.cols = t->cols, A.hr = (t->rows + 1) / 2, A.hc = (t->cols + 1) / 2;
    A.row_lo = t->row_lo, A.row_hi = t->row_hi;
    A.qlo = t->row_lo >> 1;
    A.ntr = (((t->row_hi + 1) >> 1) - A.qlo + OUTR - 1) / OUTR;
    A.blen1 = t->blen[1], A.nbatch = t->blen[0] * t->blen[1];
    A.mode = t->mode;
    if (bk_is_int<T>::value) {
        for (int s = 0; s < t->w.nsteps && s < LW_MAX_STEPS; s++) {
            for (int i = 0; i < LW_MAX_TAPS; i++) A.icoef[s][i] = t->w.icoef[s][i];
            A.iadd[s] = t->w.iadd[s], A.isign[s] = t->w.isign[s], A.ishift[s] = t->w.ishift[s];
        }
    } else {
        /* the weights depend on the wavelet alone (W): computed once, since
         * the polynomial products cost more than a small image's transform */
        static T coef[PR::NC > 0 ? PR::NC : 1];
        static int coef_ok;
        static std::once_flag once;
        std::call_once(once, [&] { coef_ok = bk_fill_coefs<T>(PR::v, &t->w, coef); });
        if (!coef_ok || t->w.id != W) return cudaErrorInvalidValue;
        memcpy(A.coef, coef, sizeof coef);
    }
    const int64_t gx = (A.hc + OUTC - 1) / OUTC, gy = A.ntr, gz = A.nbatch;
    if (gx < 1 || gy < 1 || gz < 1) return cudaSuccess;
    if (gx > 0x7fffffff || (t->row_lo & 1)) return cudaErrorInvalidValue;
    const size_t smem = (size_t)(DB ? 2 : 1) * 4 * C::RQ * C::CQ * sizeof(T);
    void (*k)(const bk_args<T, PR::NC>) = bk_kernel<T, PR, INV, DB>;
    const cudaError_t attr = BK_SET_SMEM(k, smem);
    if (attr != cudaSuccess) return attr;
    dim3 grid((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(gz < 65535 ? gz : 65535));
    dim3 block(C::CQ, C::NY);
    BK_LAUNCH(k, grid, block, smem, st, A);
    return BK_LAST_ERROR();
}

/* Dispatch over wavelet, element type, direction and buffering for scheme S.
 * float64 and int32 run double buffered only when `single` is 0 (float32
 * takes both); int32 exists for Sweldens (the others merge rounded steps). */
template <int S, int W>
static cudaError_t bk_dispatch_w(int dtype, int inverse, int single, const lwk_tile2d *t, lwk_plane a, lwk_plane b,
                                 lwk_plane c, cudaStream_t st)
{
    if (dtype == LWK_F32) {
        if (single) return inverse ? bk_launch<float, S, W, 1, 0>(t, a, b, c, st) : bk_launch<float, S, W, 0, 0>(t, a, b, c, st);
        return inverse ? bk_launch<float, S, W, 1, 1>(t, a, b, c, st) : bk_launch<float, S, W, 0, 1>(t, a, b, c, st);
    }
    if (dtype == LWK_F64 && !single)
        return inverse ? bk_launch<double, S, W, 1, 1>(t, a, b, c, st) : bk_launch<double, S, W, 0, 1>(t, a, b, c, st);
    if constexpr (S == BK_SWELDENS && lwc_has_integer(W)) {
        if (dtype == LWK_I32) {
            if (single) return inverse ? bk_launch<int32_t, S, W, 1, 0>(t, a, b, c, st) : bk_launch<int32_t, S, W, 0, 0>(t, a, b, c, st);
            return inverse ? bk_launch<int32_t, S, W, 1, 1>(t, a, b, c, st) : bk_launch<int32_t, S, W, 0, 1>(t, a, b, c, st);
        }
    }
    return cudaErrorInvalidValue;
}

template <int S>
static cudaError_t bk_dispatch(int dtype, int inverse, int single, const lwk_tile2d *t, lwk_plane a, lwk_plane b,
                               lwk_plane c, cudaStream_t st)
{
    return lwc_dispatch(t->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!bk_runs(W)) return cudaErrorInvalidValue;
        else return bk_dispatch_w<S, W>(dtype, inverse, single, t, a, b, c, st);
    });
}

/* the extern "C" entry of one scheme (k_block_api.cuh) */
#define BK_DEFINE_LAUNCHER(fn, S)                                                                                  \
    extern "C" cudaError_t fn(int dtype, int inverse, int single, const lwk_tile2d *t, lwk_plane a, lwk_plane b,  \
                              lwk_plane c, cudaStream_t s)                                                         \
    {                                                                                                              \
        return bk_dispatch<S>(dtype, inverse, single, t, a, b, c, s);                                              \
    }

#endif
