/* Faber-Schauder transform (docs/CONVENTIONS.md) with every level at once.
 *
 * Forward: the even samples of a level are never modified, so every
 * coefficient is x minus the average (the floor of it for int32) of original
 * samples: a sample whose coordinates have t trailing zero bits at least (and
 * exactly t on some axis) is predicted at level t from its neighbours at
 * distance 2^t on the axes where its level-t grid index is odd.  One launch:
 * a thread takes one cell of the level-0 grid (an all-even sample and its
 * 2^na - 1 odd companions), reads the cell's even corners once and writes
 * every value straight to its final place (interleaved: the same position;
 * Mallat: the band position of its level).
 *
 * Inverse: coarse to fine; level k needs the samples rebuilt by the coarser
 * levels.  One launch per level over the cells of the level-k grid, reading
 * the coefficients where the layout keeps them and the even samples from the
 * level above, and writing the whole level-k grid densely (a compact region
 * buffer for k >= 1, the array for k = 0: full lines, no partial writes); the
 * small coarse levels in one launch (a block per batch item, a barrier
 * between levels).
 *
 * The cell bodies are __host__ __device__ where LWK_FS_HD says so, so that
 * they can be checked on a machine without a GPU. */
#include "lw_cuda_dev.cuh"

#ifndef LWK_FS_HD
#define LWK_FS_HD __device__ __forceinline__
#endif

#define FS_THREADS 256
#define FS_SEG 4 /* 2-D: cell rows per thread */
/* blocks an SM the 2-D and 3-D grid kernels are compiled for where they
 * index in 32 bits (fs_index32): 4 = 64 registers a thread, no spill; the
 * 64-bit instances take 2 (128 registers) */
#ifndef FS_MINB2
#define FS_MINB2 4
#endif
#ifndef FS_MINB3
#define FS_MINB3 4
#endif
#define FS_TAIL_THREADS 512
#define FS_TAIL_BYTES 32768 /* shared memory of the tail launch: the largest level grid it takes */

template <class T> struct fs_acc { typedef T type; };
template <> struct fs_acc<int32_t> { typedef long long type; };

LWK_FS_HD float fs_avg(float s, int k) { return s * (1.0f / (float)(1 << k)); }
LWK_FS_HD double fs_avg(double s, int k) { return s * (1.0 / (double)(1 << k)); }
LWK_FS_HD long long fs_avg(long long s, int k) { return s >> k; } /* arithmetic shift: floor */

template <class T> LWK_FS_HD T fs_out(typename fs_acc<T>::type v) { return (T)v; }
template <> LWK_FS_HD int32_t fs_out<int32_t>(long long v) { return (int32_t)(uint32_t)(unsigned long long)v; }

/* read-only load (the forward source is never written by the launch) */
template <class T> LWK_FS_HD T fs_ldg(const T *p)
{
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

template <class I> LWK_FS_HD int fs_ctz(I v) /* v > 0 */
{
#ifdef __CUDA_ARCH__
    return sizeof(I) == 8 ? __ffsll((long long)v) - 1 : __ffs((int)v) - 1;
#else
    return __builtin_ctzll((unsigned long long)v);
#endif
}

/* length of an axis of length n on the level-k grid: ceil(n / 2^k) */
template <class I> __host__ __device__ __forceinline__ I fs_len(I n, int k) { return ((n - 1) >> k) + 1; }
/* right neighbour of odd grid index j < m through the boundary mode (the left
 * one, j - 1, always exists); periodic plans have even lengths */
template <class I> LWK_FS_HD I fs_next(I j, I m, int mode)
{
    return j + 1 < m ? j + 1 : (mode == LW_PERIODIC ? 0 : m - 2);
}
/* Mallat position of grid index j on a level of length m */
template <class I> LWK_FS_HD I fs_mpos(I j, I m) { return (j & 1) ? ((m + 1) >> 1) + (j >> 1) : (j >> 1); }

template <class I> LWK_FS_HD I fs_batch_base(const lwk_fs &p, I b)
{
    I off = 0;
    for (int d = 0; d < p.nb; d++) {
        I q = b / (I)p.blen[d];
        off += (b - q * (I)p.blen[d]) * (I)p.bst[d];
        b = q;
    }
    return off;
}

/* ---- forward ------------------------------------------------------------------ */

/* The all-even sample at e0[]: predicted at level t (its fewest trailing
 * zero bits over the axes) from original samples, or lowpass.  Two halves so
 * that a caller issues these loads with its others, before any store:
 * fs_even_load sums the neighbours (none for a lowpass sample: s = 0,
 * nodd = 0) and finds the destination, fs_even_store writes x - average. */
template <class T, class I> struct fs_even {
    typename fs_acc<T>::type s;
    int nodd;
    I dof;
};

template <class T, int NA, bool MALLAT, class I>
LWK_FS_HD fs_even<T, I> fs_even_load(const lwk_fs &p, const T *src, I base, const I *e0)
{
    typedef typename fs_acc<T>::type A;
    fs_even<T, I> r;
    r.s = 0, r.nodd = 0, r.dof = base;
    int t = p.levels;
#pragma unroll
    for (int a = 0; a < NA; a++)
        if (e0[a]) {
            int z = fs_ctz(e0[a]);
            t = z < t ? z : t;
        }
    if (t >= p.levels) { /* lowpass: the final corner */
#pragma unroll
        for (int a = 0; a < NA; a++) r.dof += (MALLAT ? e0[a] >> p.levels : e0[a]) * (I)p.st[a];
        return r;
    }
    I lo[NA], hi[NA];
    unsigned mask = 0;
#pragma unroll
    for (int a = 0; a < NA; a++) {
        I j = e0[a] >> t, m = fs_len((I)p.n[a], t);
        lo[a] = hi[a] = e0[a];
        if (j & 1) {
            lo[a] = (j - 1) << t;
            hi[a] = fs_next(j, m, p.mode) << t;
            mask |= 1u << a;
            r.nodd++;
        }
        r.dof += (MALLAT ? fs_mpos(j, m) : e0[a]) * (I)p.st[a];
    }
#pragma unroll
    for (int d = 0; d < (1 << NA); d++) {
        if (d & ~mask) continue;
        I off = base;
#pragma unroll
        for (int a = 0; a < NA; a++) off += (((d >> a) & 1) ? hi[a] : lo[a]) * (I)p.st[a];
        r.s += (A)fs_ldg(src + off);
    }
    return r;
}

template <class T, class I>
LWK_FS_HD void fs_even_store(T *dst, const fs_even<T, I> &r, typename fs_acc<T>::type x)
{
    dst[r.dof] = fs_out<T>(r.nodd ? x - fs_avg(r.s, r.nodd) : x);
}

/* One level-0 cell: grid indices 2c + o.  Every load (the even corners,
 * the odd companions, the even sample's neighbours) is issued before the
 * first store, so that they are in flight together. */
template <class T, int NA, bool MALLAT, class I>
LWK_FS_HD void fs_fwd_cell(const lwk_fs &p, const T *src, T *dst, I base, const I *c)
{
    typedef typename fs_acc<T>::type A;
    I e0[NA], e1[NA];
    bool has[NA];
#pragma unroll
    for (int a = 0; a < NA; a++) {
        e0[a] = 2 * c[a];
        has[a] = e0[a] + 1 < (I)p.n[a];
        e1[a] = has[a] ? fs_next(e0[a] + 1, (I)p.n[a], p.mode) : e0[a];
    }
    A e[1 << NA]; /* the even corners 2c + 2d (through the boundary) */
    T u[1 << NA]; /* the odd companions 2c + o, o >= 1 */
#pragma unroll
    for (int d = 0; d < (1 << NA); d++) {
        bool need = true;
        I off = base, so = base;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            bool h = (d >> a) & 1;
            need = need && (!h || has[a]);
            off += (h ? e1[a] : e0[a]) * (I)p.st[a];
            so += (e0[a] + h) * (I)p.st[a];
        }
        e[d] = need ? (A)fs_ldg(src + off) : (A)0;
        u[d] = d && need ? fs_ldg(src + so) : (T)0;
    }
    const fs_even<T, I> ev = fs_even_load<T, NA, MALLAT>(p, src, base, e0);
#pragma unroll
    for (int o = 1; o < (1 << NA); o++) {
        bool ok = true;
        int nodd = 0;
        I dof = base;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            bool odd = (o >> a) & 1;
            ok = ok && (!odd || has[a]);
            nodd += odd;
            dof += (MALLAT ? (odd ? (((I)p.n[a] + 1) >> 1) + c[a] : c[a]) : e0[a] + odd) * (I)p.st[a];
        }
        if (!ok) continue;
        A s = 0;
#pragma unroll
        for (int d = 0; d < (1 << NA); d++)
            if ((d & ~o) == 0) s += e[d];
        dst[dof] = fs_out<T>((A)u[o] - fs_avg(s, nodd));
    }
    fs_even_store<T>(dst, ev, e[0]);
}

/* Forward, 2-D: a thread takes one column pair (2cx, 2cx+1) over the cell
 * rows [cy0, cy1) (at most FS_SEG): it loads every sample it needs first
 * (each once: the bottom corners of one cell are the top corners of the
 * next), so that all the loads are in flight together, then computes and
 * stores. */
template <class T, bool MALLAT, class I>
LWK_FS_HD void fs_fwd_rows2d(const lwk_fs &p, const T *src, T *dst, I base, I cx, I cy0,
                             I cy1)
{
    typedef typename fs_acc<T>::type A;
    const I n0 = (I)p.n[0], n1 = (I)p.n[1], s0 = (I)p.st[0], s1 = (I)p.st[1], x0 = 2 * cx;
    const bool hx = x0 + 1 < n1;
    const I o0 = x0 * s1, o1 = o0 + s1, o2 = (hx ? fs_next(x0 + 1, n1, p.mode) : x0) * s1;
    const I dlo = MALLAT ? cx * s1 : o0, dhi = MALLAT ? (((n1 + 1) >> 1) + cx) * s1 : o1;
    const int nc = (int)(cy1 - cy0);
    const bool bottom = 2 * cy1 - 1 < n0; /* the last cell has an odd row */
    T ev[FS_SEG + 1], xv[FS_SEG + 1], rv[FS_SEG + 1], u0[FS_SEG], u1[FS_SEG];
#pragma unroll
    for (int i = 0; i <= FS_SEG; i++) { /* even rows 2(cy0+i), then the bottom row of the last cell */
        ev[i] = xv[i] = rv[i] = (T)0;
        if (i > nc || (i == nc && !bottom)) continue;
        const I r = i < nc ? 2 * (cy0 + i) : fs_next(2 * cy1 - 1, n0, p.mode);
        const T *row = src + base + r * s0;
        ev[i] = fs_ldg(row + o0);
        if (hx) xv[i] = fs_ldg(row + o1), rv[i] = fs_ldg(row + o2);
    }
#pragma unroll
    for (int i = 0; i < FS_SEG; i++) { /* odd rows */
        u0[i] = u1[i] = (T)0;
        if (i >= nc || 2 * (cy0 + i) + 1 >= n0) continue;
        const T *row = src + base + (2 * (cy0 + i) + 1) * s0;
        u0[i] = fs_ldg(row + o0);
        if (hx) u1[i] = fs_ldg(row + o1);
    }
    fs_even<T, I> evn[FS_SEG]; /* the even samples' neighbours (coarser levels) */
#pragma unroll
    for (int i = 0; i < FS_SEG; i++) {
        if (i >= nc) continue;
        const I e0[2] = {2 * (cy0 + i), x0};
        evn[i] = fs_even_load<T, 2, MALLAT>(p, src, base, e0);
    }
    const I hy = (n0 + 1) >> 1;
#pragma unroll
    for (int i = 0; i < FS_SEG; i++) {
        if (i >= nc) continue;
        const I cy = cy0 + i, r = 2 * cy;
        const A e00 = (A)ev[i], e01 = (A)rv[i], e10 = (A)ev[i + 1], e11 = (A)rv[i + 1];
        T *d0 = dst + base + (MALLAT ? cy : r) * s0, *d1 = dst + base + (MALLAT ? hy + cy : r + 1) * s0;
        if (hx) d0[dhi] = fs_out<T>((A)xv[i] - fs_avg(e00 + e01, 1));
        if (r + 1 < n0) {
            d1[dlo] = fs_out<T>((A)u0[i] - fs_avg(e00 + e10, 1));
            if (hx) d1[dhi] = fs_out<T>((A)u1[i] - fs_avg(e00 + e01 + e10 + e11, 2));
        }
        fs_even_store<T>(dst, evn[i], e00);
    }
}

/* ---- inverse ------------------------------------------------------------------
 * Level k rebuilds its whole grid (length m = ceil(n/2^k) per axis) densely:
 * into the region buffer R[k & 1] (compact, C order, item after item) for
 * k >= 1, into dst (the array) for k = 0.  Its even samples come from the
 * region of level k+1 or, at the coarsest level, from the lowpass in src; its
 * odd ones are coefficient + prediction.  Every written line is full. */
template <class T, class I> struct fs_lv {
    const T *E;        /* even samples of level k: index (level-k grid index / 2) */
    I est[3], eitem; /* strides; elements per item (-1: the array's batch strides) */
    T *D;              /* destination: index (level-k grid index) */
    I dst_[3], ditem;
    I cst[3];    /* coefficient strides (Mallat: array strides; interleaved: << k) */
    bool skip_even;    /* the even samples already sit where they belong */
};

template <class T, int NA, bool MALLAT, class I>
LWK_FS_HD fs_lv<T, I> fs_level_view(const lwk_fs &p, int k, const T *src, T *dst, T *r0, T *r1)
{
    fs_lv<T, I> v;
    const bool last = k == p.levels - 1;
    I se = 1, sd = 1, cap0 = 1, cap1 = 1; /* elements per item of R[0] (level 2) and R[1] (level 1) */
#pragma unroll
    for (int a = NA - 1; a >= 0; a--) {
        cap0 *= fs_len((I)p.n[a], 2), cap1 *= fs_len((I)p.n[a], 1);
        v.cst[a] = MALLAT ? (I)p.st[a] : (I)p.st[a] << k;
        if (last) {
            v.est[a] = MALLAT ? (I)p.st[a] : (I)p.st[a] << (k + 1);
        } else {
            v.est[a] = se;
            se *= fs_len((I)p.n[a], k + 1);
        }
        if (k == 0) {
            v.dst_[a] = (I)p.st[a];
        } else {
            v.dst_[a] = sd;
            sd *= fs_len((I)p.n[a], k);
        }
    }
    /* an item's slice of a region buffer has the buffer's size, whatever the
     * level: blocks of the tail launch run different items at different levels */
    v.E = last ? src : ((k + 1) & 1 ? r1 : r0);
    v.eitem = last ? -1 : ((k + 1) & 1 ? cap1 : cap0);
    v.D = k == 0 ? dst : (k & 1 ? r1 : r0);
    v.ditem = k == 0 ? -1 : (k & 1 ? cap1 : cap0);
    v.skip_even = last && k == 0 && !MALLAT && (const T *)dst == src;
    return v;
}

/* One cell of the level-k grid (grid indices 2c + o); b: batch item, abase:
 * its offset in the arrays. */
template <class T, int NA, bool MALLAT, class I>
LWK_FS_HD void fs_inv_cell(const lwk_fs &p, int k, const fs_lv<T, I> &v, const T *src, I b, I abase,
                           const I *c)
{
    typedef typename fs_acc<T>::type A;
    I m[NA], j1[NA];
    bool has[NA];
#pragma unroll
    for (int a = 0; a < NA; a++) {
        m[a] = fs_len((I)p.n[a], k);
        has[a] = 2 * c[a] + 1 < m[a];
        j1[a] = has[a] ? fs_next(2 * c[a] + 1, m[a], p.mode) : 2 * c[a];
    }
    const I eb = v.eitem < 0 ? abase : b * v.eitem, db = v.ditem < 0 ? abase : b * v.ditem;
    A e[1 << NA]; /* the even samples 2c + 2d of level k (from level k+1) */
    T q[1 << NA]; /* the coefficients of the odd companions 2c + o, o >= 1 */
#pragma unroll
    for (int d = 0; d < (1 << NA); d++) {
        bool need = true;
        I off = eb, so = abase;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            bool h = (d >> a) & 1;
            need = need && (!h || has[a]);
            off += (h ? j1[a] >> 1 : c[a]) * v.est[a];
            so += (MALLAT ? (h ? ((m[a] + 1) >> 1) + c[a] : c[a]) : 2 * c[a] + h) * v.cst[a];
        }
        e[d] = need ? (A)v.E[off] : (A)0;
        q[d] = d && need ? src[so] : (T)0;
    }
    if (!v.skip_even) {
        I off = db;
#pragma unroll
        for (int a = 0; a < NA; a++) off += 2 * c[a] * v.dst_[a];
        v.D[off] = fs_out<T>(e[0]);
    }
#pragma unroll
    for (int o = 1; o < (1 << NA); o++) {
        bool ok = true;
        int nodd = 0;
        I dof = db;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            bool odd = (o >> a) & 1;
            ok = ok && (!odd || has[a]);
            nodd += odd;
            dof += (2 * c[a] + odd) * v.dst_[a];
        }
        if (!ok) continue;
        A s = 0;
#pragma unroll
        for (int d = 0; d < (1 << NA); d++)
            if ((d & ~o) == 0) s += e[d];
        v.D[dof] = fs_out<T>((A)q[o] + fs_avg(s, nodd));
    }
}

/* Inverse, 2-D: one column pair of level k over the cell rows [cy0, cy1);
 * loads first (even samples of the FS_SEG + 1 rows, the coefficients), then
 * computes and stores. */
template <class T, bool MALLAT, class I>
LWK_FS_HD void fs_inv_rows2d(const lwk_fs &p, int k, const fs_lv<T, I> &v, const T *src, I b, I abase,
                             I cx, I cy0, I cy1)
{
    typedef typename fs_acc<T>::type A;
    const I m0 = fs_len((I)p.n[0], k), m1 = fs_len((I)p.n[1], k), x0 = 2 * cx;
    const bool hx = x0 + 1 < m1;
    const T *E = v.E + (v.eitem < 0 ? abase : b * v.eitem);
    T *D = v.D + (v.ditem < 0 ? abase : b * v.ditem);
    const I ec0 = cx * v.est[1], ec2 = ((hx ? fs_next(x0 + 1, m1, p.mode) : x0) >> 1) * v.est[1];
    const I clo = (MALLAT ? cx : x0) * v.cst[1], chi = (MALLAT ? ((m1 + 1) >> 1) + cx : x0 + 1) * v.cst[1];
    const I dc0 = x0 * v.dst_[1], dc1 = dc0 + v.dst_[1], h0 = (m0 + 1) >> 1;
    const int nc = (int)(cy1 - cy0);
    const bool bottom = 2 * cy1 - 1 < m0;
    T ev[FS_SEG + 1], rv[FS_SEG + 1], q01[FS_SEG], q10[FS_SEG], q11[FS_SEG];
#pragma unroll
    for (int i = 0; i <= FS_SEG; i++) {
        ev[i] = rv[i] = (T)0;
        if (i > nc || (i == nc && !bottom)) continue;
        const T *er = E + (i < nc ? cy0 + i : fs_next(2 * cy1 - 1, m0, p.mode) >> 1) * v.est[0];
        ev[i] = er[ec0];
        if (hx) rv[i] = er[ec2];
    }
#pragma unroll
    for (int i = 0; i < FS_SEG; i++) {
        q01[i] = q10[i] = q11[i] = (T)0;
        if (i >= nc) continue;
        const I cy = cy0 + i, r = 2 * cy;
        const T *c0 = src + abase + (MALLAT ? cy : r) * v.cst[0], *c1 = src + abase + (MALLAT ? h0 + cy : r + 1) * v.cst[0];
        if (hx) q01[i] = c0[chi];
        if (r + 1 < m0) {
            q10[i] = c1[clo];
            if (hx) q11[i] = c1[chi];
        }
    }
#pragma unroll
    for (int i = 0; i < FS_SEG; i++) {
        if (i >= nc) continue;
        const I r = 2 * (cy0 + i);
        const A e00 = (A)ev[i], e01 = (A)rv[i], e10 = (A)ev[i + 1], e11 = (A)rv[i + 1];
        T *d0 = D + r * v.dst_[0], *d1 = d0 + v.dst_[0];
        if (!v.skip_even) d0[dc0] = ev[i];
        if (hx) d0[dc1] = fs_out<T>((A)q01[i] + fs_avg(e00 + e01, 1));
        if (r + 1 < m0) {
            d1[dc0] = fs_out<T>((A)q10[i] + fs_avg(e00 + e10, 1));
            if (hx) d1[dc1] = fs_out<T>((A)q11[i] + fs_avg(e00 + e01 + e10 + e11, 2));
        }
    }
}

/* ---- thread mapping --------------------------------------------------------------
 * Cells of the level-k grid: x along the last axis, y along the axis before
 * it (2-D: FS_SEG cell rows per thread; 1-D: the batch), z over the first
 * axis (3-D) and the batch. */
typedef struct fs_idx {
    unsigned bx, by, bz, tx, ty, gy, gz, bdx, bdy;
} fs_idx;

template <class T, int NA, bool MALLAT, bool INV, class I>
LWK_FS_HD void fs_grid_body(const lwk_fs &p, int k, const T *src, T *dst, T *r0, T *r1, const fs_idx &t)
{
    I C[NA];
#pragma unroll
    for (int a = 0; a < NA; a++) C[a] = (fs_len((I)p.n[a], k) + 1) >> 1;
    const I cx = (I)t.bx * t.bdx + t.tx;
    if (cx >= C[NA - 1]) return;
    const fs_lv<T, I> v = INV ? fs_level_view<T, NA, MALLAT, I>(p, k, src, dst, r0, r1) : fs_lv<T, I>();
    const I CY = NA >= 2 ? C[NA >= 2 ? NA - 2 : 0] : (I)p.nbatch;
    const I NY = NA == 2 ? (CY + FS_SEG - 1) / FS_SEG : CY;
    const I CZ0 = NA == 3 ? C[0] : 1;
    const I CZ = NA == 1 ? 1 : CZ0 * (I)p.nbatch;
    for (I z = t.bz; z < CZ; z += t.gz) {
        I b = z, c0 = 0;
        if (NA == 3) {
            b = z / CZ0;
            c0 = z - b * CZ0;
        }
        I base = NA == 1 ? 0 : fs_batch_base(p, b);
        for (I y = (I)t.by * t.bdy + t.ty; y < NY; y += (I)t.gy * t.bdy) {
            if (NA == 2) {
                const I y0 = y * FS_SEG, y1 = y0 + FS_SEG < CY ? y0 + FS_SEG : CY;
                if (INV) fs_inv_rows2d<T, MALLAT>(p, k, v, src, b, base, cx, y0, y1);
                else fs_fwd_rows2d<T, MALLAT>(p, src, dst, base, cx, y0, y1);
                continue;
            }
            I c[NA];
            c[NA - 1] = cx;
            if (NA == 1) b = y, base = fs_batch_base(p, y);
            if (NA == 3) c[0] = c0, c[1] = y;
            if (INV) fs_inv_cell<T, NA, MALLAT>(p, k, v, src, b, base, c);
            else fs_fwd_cell<T, NA, MALLAT>(p, src, dst, base, c);
        }
    }
}

/* ---- the tail: levels levels-1 .. k0 of one batch item in shared memory ----
 * W holds the item's level-k0 grid (C order, lengths ceil(n/2^k0)).  load:
 * every grid sample's coefficient from where the layout keeps it (Mallat: the
 * band position of its level); step k: the interleaved inverse of level k in
 * W (grid step 2^(k-k0)); store: W to the region of level k0 (k0 >= 1) or to
 * the array (k0 = 0).  The caller puts a block barrier after each phase. */
template <class T, int NA, bool MALLAT>
LWK_FS_HD void fs_tail_load(const lwk_fs &p, int k0, const T *src, T *W, int64_t base, unsigned tid, unsigned nthr)
{
    unsigned M[NA], total = 1;
#pragma unroll
    for (int a = 0; a < NA; a++) M[a] = (unsigned)fs_len(p.n[a], k0), total *= M[a];
    for (unsigned i = tid; i < total; i += nthr) {
        int64_t j[NA];
        unsigned r = i;
        int t = p.levels - k0; /* the sample's level, relative to k0 */
#pragma unroll
        for (int a = NA - 1; a >= 0; a--) {
            j[a] = r % M[a], r /= M[a];
            if (j[a]) {
                int z = fs_ctz(j[a]);
                t = z < t ? z : t;
            }
        }
        int64_t off = base;
        const int kk = k0 + t;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            int64_t pos = j[a] << k0;
            if (MALLAT) pos = kk >= p.levels ? j[a] >> (p.levels - k0) : fs_mpos(j[a] >> t, fs_len(p.n[a], kk));
            off += pos * p.st[a];
        }
        W[i] = src[off];
    }
}

template <class T, int NA>
LWK_FS_HD void fs_tail_step(const lwk_fs &p, int k0, int k, T *W, unsigned tid, unsigned nthr)
{
    typedef typename fs_acc<T>::type A;
    const int g = k - k0;
    unsigned M[NA], m[NA], wst[NA], total = 1;
#pragma unroll
    for (int a = NA - 1; a >= 0; a--) {
        M[a] = (unsigned)fs_len(p.n[a], k0), m[a] = (unsigned)fs_len(p.n[a], k), total *= m[a];
        wst[a] = a == NA - 1 ? 1u : wst[a + 1] * M[a + 1];
    }
    for (unsigned i = tid; i < total; i += nthr) {
        unsigned j[NA], r = i, mask = 0;
        int nodd = 0;
#pragma unroll
        for (int a = NA - 1; a >= 0; a--) {
            j[a] = r % m[a], r /= m[a];
            if (j[a] & 1) mask |= 1u << a, nodd++;
        }
        if (!mask) continue;
        unsigned lo[NA], hi[NA], me = 0;
#pragma unroll
        for (int a = 0; a < NA; a++) {
            const bool odd = (mask >> a) & 1;
            lo[a] = odd ? j[a] - 1 : j[a];
            hi[a] = odd ? (unsigned)fs_next(j[a], m[a], p.mode) : j[a];
            me += (j[a] << g) * wst[a];
        }
        A s = 0;
#pragma unroll
        for (int d = 0; d < (1 << NA); d++) {
            if (d & ~mask) continue;
            unsigned off = 0;
#pragma unroll
            for (int a = 0; a < NA; a++) off += ((((d >> a) & 1) ? hi[a] : lo[a]) << g) * wst[a];
            s += (A)W[off];
        }
        W[me] = fs_out<T>((A)W[me] + fs_avg(s, nodd));
    }
}

template <class T, int NA>
LWK_FS_HD void fs_tail_store(const lwk_fs &p, int k0, const T *W, T *dst, T *r0, T *r1, int64_t b, int64_t base,
                             unsigned tid, unsigned nthr)
{
    unsigned M[NA], total = 1;
    int64_t dstr[NA], cap = 1;
#pragma unroll
    for (int a = NA - 1; a >= 0; a--) {
        M[a] = (unsigned)fs_len(p.n[a], k0);
        dstr[a] = k0 == 0 ? p.st[a] : (int64_t)total;
        total *= M[a];
        cap *= fs_len(p.n[a], (k0 & 1) ? 1 : 2);
    }
    T *D = k0 == 0 ? dst + base : ((k0 & 1) ? r1 : r0) + b * cap; /* as fs_level_view's region slices */
    for (unsigned i = tid; i < total; i += nthr) {
        unsigned r = i;
        int64_t off = 0;
#pragma unroll
        for (int a = NA - 1; a >= 0; a--) off += (int64_t)(r % M[a]) * dstr[a], r /= M[a];
        D[off] = W[i];
    }
}

/* 1 when every offset the grid launches form fits an int with room to
 * spare (the span of the array, batch included, under 2^30 elements): the
 * kernels then index in 32 bits, which halves their address registers (64
 * registers a thread in 3-D instead of 128: twice the resident blocks). */
static int fs_index32(const lwk_fs *p)
{
    int64_t span = 1;
    for (int a = 0; a < p->na; a++) span += (p->n[a] - 1) * p->st[a];
    for (int d = 0; d < p->nb; d++) span += (p->blen[d] - 1) * p->bst[d];
    return span < ((int64_t)1 << 30);
}

/* Launch shape of the grid body for level k; 0 if it does not fit. */
static int fs_dims(const lwk_fs *p, int k, dim3 *grid, dim3 *block)
{
    int na = p->na;
    int64_t C[3] = {1, 1, 1};
    for (int a = 0; a < na; a++) C[a] = (fs_len(p->n[a], k) + 1) >> 1;
    int64_t cx = C[na - 1], cy = na >= 2 ? C[na - 2] : p->nbatch, cz = na == 1 ? 1 : (na == 3 ? C[0] : 1) * p->nbatch;
    if (na == 2) cy = (cy + FS_SEG - 1) / FS_SEG;
    unsigned bdx = 1;
    while (bdx < 32 && (int64_t)bdx < cx) bdx *= 2; /* narrow rows: more of them per block */
    if (na == 1 && cx > 32) bdx = FS_THREADS;
    unsigned bdy = FS_THREADS / bdx;
    int64_t gx = (cx + bdx - 1) / bdx, gy = (cy + bdy - 1) / bdy;
    if (gx > 0x7fffffff) return 0;
    *block = dim3(bdx, bdy, 1);
    *grid = dim3((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(cz < 65535 ? cz : 65535));
    return 1;
}

#ifdef __CUDACC__
#ifndef LWK_FS_NO_KERNELS

template <class T, int NA, bool MALLAT, bool INV, class I>
__global__ void __launch_bounds__(FS_THREADS, NA == 1 ? 1 : sizeof(I) == 8 ? 2 : NA == 2 ? FS_MINB2 : FS_MINB3)
    fs_grid_kernel(lwk_fs p, int k, const T *src, T *dst, T *r0, T *r1)
{
    fs_idx t = {blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, gridDim.y, gridDim.z, blockDim.x,
                blockDim.y};
    fs_grid_body<T, NA, MALLAT, INV, I>(p, k, src, dst, r0, r1, t);
}

template <class T, int NA, bool MALLAT>
__global__ void __launch_bounds__(FS_TAIL_THREADS) fs_tail_kernel(lwk_fs p, int k0, const T *src, T *dst, T *r0,
                                                                  T *r1)
{
    __shared__ T W[FS_TAIL_BYTES / sizeof(T)];
    for (int64_t b = blockIdx.x; b < p.nbatch; b += gridDim.x) {
        const int64_t base = fs_batch_base(p, b);
        fs_tail_load<T, NA, MALLAT>(p, k0, src, W, base, threadIdx.x, blockDim.x);
        __syncthreads();
        for (int k = p.levels - 1; k >= k0; k--) {
            fs_tail_step<T, NA>(p, k0, k, W, threadIdx.x, blockDim.x);
            __syncthreads();
        }
        fs_tail_store<T, NA>(p, k0, W, dst, r0, r1, b, base, threadIdx.x, blockDim.x);
        __syncthreads();
    }
}

template <class T, int NA, bool MALLAT>
static cudaError_t fs_go(const lwk_fs *p, int k, int tail, const void *src, void *dst, void *r0, void *r1,
                         cudaStream_t s)
{
    if (tail) {
        int64_t nb = p->nbatch < 65535 ? p->nbatch : 65535;
        fs_tail_kernel<T, NA, MALLAT>
            <<<(unsigned)nb, FS_TAIL_THREADS, 0, s>>>(*p, k, (const T *)src, (T *)dst, (T *)r0, (T *)r1);
        return cudaGetLastError();
    }
    dim3 g, b;
    if (!fs_dims(p, k < 0 ? 0 : k, &g, &b)) return cudaErrorInvalidConfiguration;
    const T *x = (const T *)src;
    if (fs_index32(p)) {
        if (k < 0) fs_grid_kernel<T, NA, MALLAT, false, int><<<g, b, 0, s>>>(*p, 0, x, (T *)dst, NULL, NULL);
        else fs_grid_kernel<T, NA, MALLAT, true, int><<<g, b, 0, s>>>(*p, k, x, (T *)dst, (T *)r0, (T *)r1);
    } else {
        if (k < 0) fs_grid_kernel<T, NA, MALLAT, false, int64_t><<<g, b, 0, s>>>(*p, 0, x, (T *)dst, NULL, NULL);
        else fs_grid_kernel<T, NA, MALLAT, true, int64_t><<<g, b, 0, s>>>(*p, k, x, (T *)dst, (T *)r0, (T *)r1);
    }
    return cudaGetLastError();
}

template <class T>
static cudaError_t fs_dispatch(const lwk_fs *p, int k, int tail, const void *src, void *dst, void *r0, void *r1,
                               cudaStream_t s)
{
    switch (p->na * 2 + (p->mallat ? 1 : 0)) {
    case 2: return fs_go<T, 1, false>(p, k, tail, src, dst, r0, r1, s);
    case 3: return fs_go<T, 1, true>(p, k, tail, src, dst, r0, r1, s);
    case 4: return fs_go<T, 2, false>(p, k, tail, src, dst, r0, r1, s);
    case 5: return fs_go<T, 2, true>(p, k, tail, src, dst, r0, r1, s);
    case 6: return fs_go<T, 3, false>(p, k, tail, src, dst, r0, r1, s);
    case 7: return fs_go<T, 3, true>(p, k, tail, src, dst, r0, r1, s);
    default: return cudaErrorInvalidValue;
    }
}

static cudaError_t fs_launch(int dtype, const lwk_fs *p, int k, int tail, const void *src, void *dst, void *r0,
                             void *r1, cudaStream_t s)
{
    if (p->nbatch < 1) return cudaSuccess;
    switch (dtype) {
    case LWK_F32: return fs_dispatch<float>(p, k, tail, src, dst, r0, r1, s);
    case LWK_F64: return fs_dispatch<double>(p, k, tail, src, dst, r0, r1, s);
    default: return fs_dispatch<int32_t>(p, k, tail, src, dst, r0, r1, s);
    }
}

extern "C" cudaError_t lwk_fs_forward(int dtype, const lwk_fs *p, const void *src, void *dst, cudaStream_t s)
{
    return fs_launch(dtype, p, -1, 0, src, dst, NULL, NULL, s);
}

extern "C" cudaError_t lwk_fs_inverse_level(int dtype, const lwk_fs *p, int k, const void *src, void *dst,
                                            void *const *regions, cudaStream_t s)
{
    return fs_launch(dtype, p, k, 0, src, dst, regions[0], regions[1], s);
}

extern "C" cudaError_t lwk_fs_inverse_tail(int dtype, const lwk_fs *p, int k0, const void *src, void *dst,
                                           void *const *regions, cudaStream_t s)
{
    return fs_launch(dtype, p, k0, 1, src, dst, regions[0], regions[1], s);
}

/* (host functions, beside the kernels: a host test that includes this file
 * for the cell bodies takes them from the library) */
extern "C" int64_t lwk_fs_region(const lwk_fs *p, int k)
{
    int64_t c = p->nbatch;
    for (int a = 0; a < p->na; a++) c *= fs_len(p->n[a], k);
    return c;
}

extern "C" int lwk_fs_tail_level(const lwk_fs *p, int dtype)
{
    const int64_t cap = FS_TAIL_BYTES / (dtype == LWK_F64 ? 8 : 4);
    int k0 = p->levels;
    while (k0 > 0) {
        int64_t pts = 1;
        for (int a = 0; a < p->na; a++) pts *= fs_len(p->n[a], k0 - 1);
        if (pts > cap) break;
        k0--;
    }
    return k0;
}

#endif
#endif
