/* Fused 3-D engine, the kernel body: a block owns a TY x TX tile of (y, x)
 * outputs and streams its window (tile + halo) along z, two planes (one
 * output pair) per step.
 *
 *   ring:  S shared-memory slots of [2][WY][WX]; plane pair m + D is copied
 *          (cp.async, 4-byte, boundary-mapped addresses precomputed once)
 *          while pair m is lifted;
 *   z:     every thread owns fixed window points (y, x) and keeps each point's
 *          z line in a short register window (a ring: t3_zphys); each new
 *          pair advances every lifting step by one position (t3_zsched), so
 *          each input is read and lifted along z exactly once; the finished
 *          output pair replaces the raw pair in the slot;
 *   y:     one thread per (plane, window column) lifts the column in registers
 *          and writes the TY outputs back;
 *   x:     one task per (plane, row, K outputs), at most one a thread, its
 *          addresses worked out once, lifts from 16-byte shared loads and
 *          writes the bands (forward: K / 4 16-byte stores into the Mallat
 *          octants; inverse: K / 4 16-byte stores of interleaved samples).
 *   stages: the inverse lifts pair a along z, pair a - 1 along y and pair
 *          a - 2 along x in a step, with one barrier after the three; the
 *          forward lifts one pair along z, y and x, barriers between
 *          (t3_staged).
 * A block handles a run of output pairs [kb, ke); it starts WU pairs early
 * (the lifting's reach) and runs DP pairs past the end (the pipeline's delay).
 * Boundaries: the window and the z stream are read through the mode once (the
 * extended signal is lifted as is), exact for periodic mode and for the
 * symmetric-tap wavelets; the others (d4) in symmetric mode refresh the
 * mirror images before every step where a window reaches past an end: y and
 * x by t3_lift (fixed move sets, the tiles placed for them), z by t3_zmirror.  The inverse
 * runs the same axis order (z, y, x): for float data that changes only
 * rounding.
 *
 * The body is written once for every storage type E (float, double and the
 * half types, which compute in float: the ring then holds float and the raw
 * pairs come through registers, widened, instead of cp.async) and takes the block
 * and thread indices as arguments (the kernel in k_tile3d.cu passes the
 * built-in ones). */
#ifndef LW_K_TILE3D_STREAM_CUH
#define LW_K_TILE3D_STREAM_CUH

#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"
#include "tma.cuh"
#include "zpipe.cuh"

/* ---- tile configurations ------------------------------------------------- */
/* NT threads, TY x TX outputs, D pairs prefetched, MINB blocks per SM the
 * register budget aims at.  The order is the tuning key tile3d's (its value
 * less one). */
template <class T, int V> struct t3s_cfg;
template <> struct t3s_cfg<float, 0> { enum { NT = 256, TY = 16, TX = 64, D = 2, MINB = 2 }; };
template <> struct t3s_cfg<float, 1> { enum { NT = 256, TY = 16, TX = 64, D = 1, MINB = 3 }; };
template <> struct t3s_cfg<float, 2> { enum { NT = 256, TY = 16, TX = 64, D = 3, MINB = 2 }; };
template <> struct t3s_cfg<float, 3> { enum { NT = 512, TY = 32, TX = 64, D = 2, MINB = 1 }; };
template <> struct t3s_cfg<double, 0> { enum { NT = 256, TY = 16, TX = 32, D = 2, MINB = 2 }; };
#define LWK_T3_NVARIANTS 4


/* ---- small helpers ------------------------------------------------------- */

/* The y or x lift of a window whose index 0 is at position p0 of a line of n
 * samples.  d4 (not tile_once_mirror_exact) in symmetric mode refreshes the
 * mirror of a window that reaches past an end.  LONG: the tiles are placed
 * (t3s_body moves the last tile to end at the line's end) as
 * reg_lift_placed needs.  Otherwise (small volumes) the window is lifted in
 * a local copy read through the mode (reg_lift_local). */
template <int W, int DIR, bool LONG, int N, class T>
__device__ __forceinline__ void t3_lift(T (&v)[N], const lwk_wave &w, int64_t p0, int64_t n, int mode)
{
    if constexpr (tile_once_mirror_exact(W) || LONG) {
        reg_lift_placed<W, DIR, false>(v, w, p0, n, mode);
    } else if (mode == LW_PERIODIC || (p0 >= 0 && p0 + N <= n)) {
        reg_lift<W, DIR>(v, w);
    } else {
        reg_lift_local<W, DIR>(v, w, p0, n, mode);
    }
}

/* Position i of an axis of length n through the mode; inverse: then to its
 * place in the Mallat input (low half, high half from h). */
__device__ __forceinline__ int64_t t3_map(int64_t i, int64_t n, int64_t h, int mode, int inv)
{
    int64_t m = (i >= 0 && i < n) ? i : lwd_bidx(i, n, mode);
    if (inv) m = (m & 1) ? h + (m >> 1) : (m >> 1);
    return m;
}

/* N consecutive shared-memory values with the widest aligned vector loads
 * (the caller keeps p aligned to 16 bytes, or 8 when N * sizeof(T) is not a
 * multiple of 16). */
template <class T, int N> __device__ __forceinline__ void t3_ldrow(T (&u)[N], const T *p)
{
    if ((N * sizeof(T)) % 16 == 0 && sizeof(T) == 4) {
#pragma unroll
        for (int i = 0; i < N / 4; i++) {
            const float4 f = ((const float4 *)p)[i];
            u[4 * i] = (T)f.x, u[4 * i + 1] = (T)f.y, u[4 * i + 2] = (T)f.z, u[4 * i + 3] = (T)f.w;
        }
    } else if (sizeof(T) == 4) {
#pragma unroll
        for (int i = 0; i < N / 2; i++) {
            const float2 f = ((const float2 *)p)[i];
            u[2 * i] = (T)f.x, u[2 * i + 1] = (T)f.y;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N / 2; i++) {
            const double2 d = ((const double2 *)p)[i];
            u[2 * i] = (T)d.x, u[2 * i + 1] = (T)d.y;
        }
    }
}

/* Shared-memory layout of one window plane (WY x WX samples, window index 0
 * even on both axes).  Forward: rows of WX, as in the volume.  Inverse: as in
 * the Mallat input, so that a warp's copies read one band row: rows ordered
 * even rows first, then odd rows (RY = WY / 2 each), and each row split into
 * its even and odd columns (HP = WX / 2 rounded up to 4 each).  A plane has
 * NPS slots; "points" are slot indices, some of them padding (inverse). */
template <int INV, int WY, int WX> struct t3_layout {
    enum { RY = WY / 2, HX = WX / 2, HP = INV ? (WX / 2 + 3) / 4 * 4 : 1, ROW = INV ? 2 * HP : WX, NPS = WY * ROW };
    /* slot offset of window row py */
    __host__ __device__ static constexpr int row(int py) { return INV ? ((py & 1) * RY + (py >> 1)) * ROW : py * ROW; }
    /* slot offset of window column px within a row */
    __host__ __device__ static constexpr int col(int px) { return INV ? (px & 1) * HP + (px >> 1) : px; }
    /* window position of slot pt; false for padding */
    __host__ __device__ static bool point(int pt, int &py, int &px)
    {
        const int r = pt / ROW, c = pt - r * ROW;
        if (!INV) {
            py = r, px = c;
            return true;
        }
        const int qx = c / HP, rx = c - qx * HP;
        py = 2 * (r % RY) + r / RY, px = 2 * rx + qx;
        return rx < HX;
    }
    /* window column of the column slot c of a row; false for padding */
    __host__ __device__ static bool column(int c, int &px)
    {
        if (!INV) {
            px = c;
            return true;
        }
        const int qx = c / HP, rx = c - qx * HP;
        px = 2 * rx + qx;
        return rx < HX;
    }
};

/* The TMA path's raw planes, as its boxes land (samples as stored, A of them
 * in 16 bytes): a box's first column must sit at a multiple of 16 bytes in the
 * volume, so a box starts up to A - 1 samples before the window and is A wider
 * than the window's row rounded up to A (a box row is whole 16-byte units; the
 * window then XO = 0..A-1 samples into each box row, per block).  Forward: a box of WY rows a plane.  Inverse: a box a
 * quadrant of the plane (even or odd rows x even or odd columns of the window,
 * as the Mallat input holds them), RY rows of BW, QS slots apart (128-byte
 * aligned).  RPS slots a plane. */
template <int INV, int WY, int WX, int A = 4> struct t3_raw {
    enum {
        RY = WY / 2, BW = ((INV ? WX / 2 : WX) + A - 1) / A * A + A, QA = 8 * A, QS = (RY * BW + QA - 1) / QA * QA,
        RPS = INV ? 4 * QS : (WY * BW + QA - 1) / QA * QA, BH = INV ? RY : WY
    };
    /* slot of window position (wy, wx) */
    __host__ __device__ static constexpr int slot(int wy, int wx, int xo)
    {
        return INV ? ((wy & 1) * 2 + (wx & 1)) * QS + (wy >> 1) * BW + (wx >> 1) + xo : wy * BW + wx + xo;
    }
};

/* Whether a step runs its three stages on three pairs with one barrier by
 * default (the inverses, where that measured faster; the forwards were as
 * fast or slower with the threads' copies: bench/NOTES-tile3d.md; tuning
 * tile3d_stages=staged stages the float32 forwards too), and the ring slots
 * that takes: the D pairs in flight, then one a stage (z and y, or z, y and x:
 * a step refills the slot the last stage read one step before). */
__host__ __device__ constexpr bool t3_staged(int inv) { return inv != 0; }
template <bool STG, class C> __host__ __device__ constexpr int t3s_slots() { return C::D + (STG ? 3 : 2); }

/* TMA: the raw pairs have a ring of their own (D + 1 slots: a slot is
 * refilled one step after its pair was lifted along z, behind that step's
 * barrier), the z outputs theirs (two slots, three staged; slot strides
 * rounded to 128 bytes), and each raw slot an mbarrier. */
template <bool STG> __host__ __device__ constexpr int t3s_out_slots() { return STG ? 3 : 2; }

/* Shared memory of one block (bytes); T the compute type, ES the bytes of a
 * stored sample (TMA's raw planes hold them as stored). */
template <class T, int W, int INV, class C, bool TMA = false, bool STG = t3_staged(INV), int ES = sizeof(T)>
__host__ __device__ constexpr size_t t3s_smem()
{
    constexpr int WY = C::TY + 2 * sh_halo(W), WX = C::TX + 2 * sh_halo(W);
    typedef t3_layout<INV, WY, WX> L;
    if (TMA)
        return (size_t)t3s_out_slots<STG>() * ((2 * L::NPS + 31) / 32 * 32) * sizeof(T) +
               (size_t)(C::D + 1) * 2 * t3_raw<INV, WY, WX, 16 / ES>::RPS * ES + (C::D + 1) * sizeof(uint64_t);
    return (size_t)t3s_slots<STG, C>() * 2 * L::NPS * sizeof(T);
}

/* The TMA path's tensor maps: the volume read, and (inverse pyramids) the
 * lowpass octant apart. */
struct lwk_t3_maps {
    CUtensorMap src, oct;
};

/* ---- the body ------------------------------------------------------------- */
/* SYNC::sync() is the block barrier; (bx, by) pick the tile, bz of gz the run
 * of output pairs; BATCH: src, dst and lo (elements from t.ll) the item's
 * volume in the batch b, item its index.  LONG (d4): the y and x lines are
 * long enough for t3_lift's fixed move sets (t3_long).  TMA: the raw pairs
 * come by the tensor memory accelerator through maps (symmetric mode,
 * t3_tma_fits; the item the maps' fourth dimension): a box a plane (forward)
 * or a quadrant (inverse), window and all, issued by thread 0;
 * the window points outside the volume are then read from the slots of their
 * mirror images, which lie in the window wherever an output needs them. */
template <class E, int W, int INV, class C, class SYNC, bool LONG, bool BATCH, bool TMA = false,
          bool STG = t3_staged(INV)>
__device__ __forceinline__ void t3s_body(const lwk_tile3d &t, const lwk_tile3d_batch &b, const E *__restrict__ src,
                                         E *__restrict__ dst, int64_t lo, unsigned char *smem, int tid, int64_t bx,
                                         int64_t by, int bz, int gz, const lwk_t3_maps *maps = nullptr, int item = 0)
{
    typedef lwd_c<E> T; /* E in global memory, T in registers and the ring */
    /* K: the outputs of a row an x task lifts, from a window of K + 2 H
     * (longer tasks lift less halo but leave fewer threads with work, each a
     * longer chain before the step's barrier: slower, bench/NOTES-tile3d.md) */
    constexpr int H = sh_halo(W), TY = C::TY, TX = C::TX, NT = C::NT, K = 8;
    constexpr int WY = TY + 2 * H, WX = TX + 2 * H;
    typedef t3_layout<INV, WY, WX> L;
    typedef t3_raw<INV, WY, WX, 16 / (int)sizeof(E)> R;
    /* RT: a raw sample in shared memory (TMA: as stored, widened at the z stage) */
    typedef std::conditional_t<TMA, E, T> RT;
    constexpr int A = 16 / (int)sizeof(E);
    constexpr int NPS = L::NPS, ROW = L::ROW, P = (NPS + NT - 1) / NT;
    constexpr int DIR = INV ? -1 : 1, S = t3s_slots<STG, C>(), D = C::D;
    /* OS: the slots of the ring the stages lift in (TMA: the z outputs' ring,
     * the raw pairs' SR slots after it) */
    constexpr int OS = TMA ? t3s_out_slots<STG>() : S, SR = D + 1;
    constexpr int SS = TMA ? (2 * NPS + 31) / 32 * 32 : 2 * NPS; /* the stages' slot stride */
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    constexpr int NW = Z.nw, JO = Z.jo, WU = (H + 1) / 2;
    constexpr int SEGS = TX / K, NU = K + 2 * H;
    static_assert(P <= 32, "point mask");
    static_assert((ROW * sizeof(T)) % 16 == 0 && (NU * sizeof(T)) % 16 == 0, "16-byte shared rows");
    T *ring = (T *)smem;
    RT *const raw = (RT *)(ring + OS * SS);
    uint64_t *const bars = (uint64_t *)(raw + SR * 2 * R::RPS);
    const lwk_wave &w = t.w;
    const int mode = t.mode;
    const int64_t nz = t.n[0], ny = t.n[1], nx = t.n[2];
    const int64_t hz = (nz + 1) / 2, hy = (ny + 1) / 2, hx = (nx + 1) / 2;
    const int64_t sz = t.st[0], sy = t.st[1], dz = t.dt[0], dy = t.dt[1];
    E *const llp = BATCH && t.ll ? (E *)t.ll + lo : (E *)t.ll; /* the lowpass octant apart (pyramids), or NULL */
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
    /* 16-byte stores: rows of dst (and of the octant apart) start 16-byte aligned,
     * in every item of a batch */
    bool vec = (dy % 4) == 0 && (dz % 4) == 0 && (INV || (hx % 4) == 0) &&
               (INV || !llp || ((ly % 4) == 0 && (lz % 4) == 0));
    if constexpr (BATCH) vec = vec && (b.db % 4) == 0 && (INV || !llp || (b.lb % 4) == 0);

    /* the owned points (slots tid + i * NT): their addresses in plane 0, through
     * the mode once (TMA: the slots they read) */
    constexpr int PG = TMA ? 1 : P; /* TMA: no global addresses a point */
    /* TMA: the boxes' first column (a multiple of 16 bytes in the volume, or
     * in the inverse's band), and how far into a box row the window starts */
    const int64_t bx0 = INV ? ((x0 - H) >> 1) & ~(int64_t)(A - 1) : (x0 - H) & ~(int64_t)(A - 1);
    const int xo = (int)((INV ? (x0 - H) >> 1 : x0 - H) - bx0);
    const E *gp[PG], *gl[PG]; /* gl: (inverse) where a point of the octant apart sits in its plane 0 */
    int rs[TMA ? P : 1];       /* TMA: the raw slot a point reads (its mirror image's, outside the volume) */
    unsigned own = 0, oct = 0; /* oct: (inverse) the points whose even (lowpass) z planes are apart */
    /* the points every thread owns: no test.  The inverse's padding slots are
     * owned too, as copies of their half row's last column (the same lines, so
     * cache hits; no stage reads them back): a test and a branch a point and
     * step cost more than the copies */
    constexpr int PALL = NPS / NT;
    auto owned = [&](int i) { return i < PALL || (own & (1u << i)); };
#pragma unroll
    for (int i = 0; i < P; i++) {
        const int pt = tid + i * NT;
        int py = 0, px = 0;
        if constexpr (TMA) rs[i] = 0;
        else gp[i] = gl[i] = src;
        if (pt >= NPS) continue;
        if (!L::point(pt, py, px)) px = 2 * (L::HX - 1) + (px & 1);
        own |= 1u << i;
        if constexpr (TMA) {
            int64_t wy = y0 - H + py, wx = x0 - H + px;
            wy = (wy >= 0 && wy < ny ? wy : lwd_bidx(wy, ny, mode)) - (y0 - H);
            wx = (wx >= 0 && wx < nx ? wx : lwd_bidx(wx, nx, mode)) - (x0 - H);
            /* an image outside the window: no output reaches this point */
            rs[i] = R::slot(wy >= 0 && wy < WY ? (int)wy : py, wx >= 0 && wx < WX ? (int)wx : px, xo);
        } else {
            const int64_t my = t3_map(y0 - H + py, ny, hy, mode, INV), mx = t3_map(x0 - H + px, nx, hx, mode, INV);
            gp[i] = src + my * sy + mx;
            if (INV && llp && my < hy && mx < hx) {
                oct |= 1u << i;
                gl[i] = llp + my * ly + mx;
            }
        }
    }
    /* the half types: the raw pair issued last waits in registers (pend) and
     * is widened into its slot at the next issue (or flush), so that its loads
     * overlap a step's work as cp.async's do for the other types */
    constexpr bool WIDEN = sizeof(E) != sizeof(T);
    /* the widest windows (reach over 4: dd137) have no registers to spare for
     * pend (ptxas -v spills): their raw pairs are widened straight into the ring.
     * TMA: the raw planes land as stored, widened as the z stage reads them */
    constexpr bool DEFER = WIDEN && H <= 4 && !TMA;
    E pend[DEFER ? 2 * P : 1];
    int pa = -1; /* the pair pend holds, -1: none */
    auto flush = [&]() {
        if constexpr (DEFER) {
            if (pa < 0) return;
            T *sl = ring + (pa % S) * (2 * NPS) + tid;
#pragma unroll
            for (int i = 0; i < P; i++)
                if (owned(i)) sl[i * NT] = lwd_ld(&pend[2 * i]), sl[NPS + i * NT] = lwd_ld(&pend[2 * i + 1]);
            pa = -1;
        }
    };
    auto issue = [&](int a) {
        const int64_t m = m0 + a;
        const int64_t ze = t3_map(2 * m, nz, hz, mode, INV), zo = t3_map(2 * m + 1, nz, hz, mode, INV);
        const int64_t z0 = ze * sz, z1 = zo * sz;
        if constexpr (TMA) {
            if (tid == 0) {
                uint64_t *bar = bars + a % SR;
                RT *rp = raw + (a % SR) * (2 * R::RPS);
                if constexpr (!INV) {
                    lwd_mbar_expect(bar, 2 * R::BH * R::BW * sizeof(RT));
                    lwd_tma_load4(rp, &maps->src, (int)bx0, (int)(y0 - H), (int)ze, item, bar);
                    lwd_tma_load4(rp + R::RPS, &maps->src, (int)bx0, (int)(y0 - H), (int)zo, item, bar);
                } else { /* the quadrants of both planes; the octant's from the buffer apart */
                    lwd_mbar_expect(bar, 8 * R::BH * R::BW * sizeof(RT));
                    const int yl = (int)((y0 - H) >> 1);
#pragma unroll
                    for (int q = 0; q < 8; q++) {
                        const int pl = q >> 2, qy = (q >> 1) & 1, qx = q & 1;
                        RT *d = rp + pl * R::RPS + (q & 3) * R::QS;
                        const int x = (int)bx0 + (qx ? (int)hx : 0), y = yl + (qy ? (int)hy : 0), z = (int)(pl ? zo : ze);
                        if (llp && q == 0) lwd_tma_load4(d, &maps->oct, x, y, z, item, bar); /* even plane, LL */
                        else lwd_tma_load4(d, &maps->src, x, y, z, item, bar);
                    }
                }
            }
        } else if constexpr (WIDEN && !DEFER) {
            T *sl = ring + (a % S) * (2 * NPS) + tid;
#pragma unroll
            for (int i = 0; i < P; i++) {
                if (owned(i)) {
                    sl[i * NT] = lwd_ldg(INV && (oct & (1u << i)) ? gl[i] + ze * lz : gp[i] + z0);
                    sl[NPS + i * NT] = lwd_ldg(gp[i] + z1);
                }
            }
        } else if constexpr (DEFER) {
            flush();
#pragma unroll
            for (int i = 0; i < P; i++) {
                if (owned(i)) {
                    /* an even (lowpass) z plane of the octant: the buffer apart */
                    pend[2 * i] = __ldg(INV && (oct & (1u << i)) ? gl[i] + ze * lz : gp[i] + z0);
                    pend[2 * i + 1] = __ldg(gp[i] + z1);
                }
            }
            pa = a;
        } else {
            T *sl = ring + (a % S) * (2 * NPS) + tid;
#pragma unroll
            for (int i = 0; i < P; i++) {
                if (owned(i)) {
                    /* an even (lowpass) z plane of the octant: the buffer apart.  The
                     * address is selected, so that a point issues one copy a plane */
                    const E *g0 = INV && (oct & (1u << i)) ? gl[i] + ze * lz : gp[i] + z0;
                    lwd_cp_async(sl + i * NT, g0);
                    lwd_cp_async(sl + NPS + i * NT, gp[i] + z1);
                }
            }
        }
    };

    T v[P][NW];
#pragma unroll
    for (int i = 0; i < P; i++)
#pragma unroll
        for (int j = 0; j < NW; j++) v[i][j] = 0;

    if constexpr (TMA) {
        if (tid == 0) {
            for (int j = 0; j < SR; j++) lwd_mbar_init(bars + j);
            lwd_mbar_init_fence();
        }
        SYNC::sync();
    }
#pragma unroll
    for (int a = 0; a < D; a++) {
        if (a < na) issue(a);
        lwd_cp_commit();
    }
    /* the z windows as register rings, one rotation a step (t3_zphys), except
     * where the NW/2 instances of the z work spill (ptxas -v): the widest
     * windows' float32 inverse (52 bytes, 1.3-1.4x the time of moving the
     * window), and the half types and float64 beyond windows of 6 */
    constexpr bool RING = sizeof(E) == 4 ? !(INV && H > 4) : NW <= 6;
    constexpr int NR = RING ? NW / 2 : 1;
    int rot = 0;
    /* y: one (plane, window column) per task, TY outputs written back.  With
     * the stages in one step the tasks go to the last threads first: they own
     * one point fewer (P).  A fixed count of rounds, the same for every
     * thread, with the task's validity as a predicate (a loop bounded by the
     * task index and left early on the inverse layout's padding columns
     * measured slower: bench/NOTES-tile3d.md) */
    auto ylift = [&](T *sl) {
        constexpr int YT = 2 * ROW, YR = (YT + NT - 1) / NT;
#pragma unroll
        for (int r = 0; r < YR; r++) {
            const int c = (STG ? NT - 1 - tid : tid) + r * NT;
            const int pl = c / ROW, cs = c - pl * ROW;
            int px;
            if (c < YT && L::column(cs, px)) {
                T *col = sl + pl * NPS + cs;
                T u[WY];
#pragma unroll
                for (int j = 0; j < WY; j++) u[j] = col[L::row(j)];
                t3_lift<W, DIR, LONG>(u, w, y0 - H, ny, mode);
#pragma unroll
                for (int j = 0; j < TY; j++) col[L::row(H + j)] = u[H + j];
            }
        }
    };
    /* x: one (plane, row, K outputs) a task, band stores of output pair k.  A
     * thread has at most one task, the same every step, so its place (XP) and
     * its band addresses but for the pair's offset (XB) can be worked out once
     * and kept in registers over the steps.  Where registers are short that
     * costs more than it saves: the widest windows (dd137) work out both each
     * step (keeping the place spilled the forward: 1.13x its time), d4's
     * forward the addresses (its mirror refresh takes registers too; ptxas -v,
     * bench/NOTES-tile3d.md). */
    static_assert(2 * TY * SEGS <= NT && K % 8 == 0 && TX % K == 0, "one x task a thread, whole store vectors");
    constexpr bool XP = H <= 4, XB = XP && (INV || tile_once_mirror_exact(W));
    struct xtask {
        int rp, pl; /* the task's row in a slot; its plane of the pair */
        bool on, full;
        int64_t yg, xb;
    };
    auto xplace = [&]() {
        xtask x;
        const int seg = tid % SEGS, r = tid / SEGS, yy = r % TY;
        x.pl = r / TY, x.yg = y0 + yy, x.xb = x0 + seg * K;
        x.on = tid < 2 * TY * SEGS && x.yg < ny && x.xb < nx, x.full = x.xb + K <= nx;
        x.rp = x.pl * NPS + L::row(H + yy) + seg * (INV ? K / 2 : K);
        return x;
    };
    /* output pair k: inverse lo0 + 2 k dz; forward lo0 + k lstep (the octant apart, or the plane's band
     * row) and hi0 + k dz */
    auto xbases = [&](const xtask &x, E *&lo0, E *&hi0, int64_t &lstep) {
        lstep = dz, hi0 = dst;
        if (INV) {
            lo0 = dst + x.pl * dz + x.yg * dy + x.xb;
        } else {
            const int64_t my = (x.yg & 1) ? hy + (x.yg >> 1) : (x.yg >> 1);
            lo0 = dst + (x.pl ? hz : 0) * dz + my * dy + (x.xb >> 1);
            hi0 = lo0 + hx;
            if (llp && !x.pl && !(x.yg & 1)) /* the octant apart */
                lo0 = llp + (x.yg >> 1) * ly + (x.xb >> 1), lstep = lz;
        }
    };
    xtask xt0 = {};
    E *xlo0 = dst, *xhi0 = dst;
    int64_t xls = dz;
    if constexpr (XP) xt0 = xplace();
    if constexpr (XB) xbases(xt0, xlo0, xhi0, xls);
    auto xlift = [&](const T *sl, int64_t k) {
        xtask x = xt0;
        if constexpr (!XP) x = xplace();
        if (!x.on || (x.pl && 2 * k + 1 >= nz)) return;
        E *lo0 = xlo0, *hi0 = xhi0;
        int64_t lstep = xls;
        if constexpr (!XB) xbases(x, lo0, hi0, lstep);
        const T *rp = sl + x.rp;
        T u[NU];
        if (INV) { /* even columns, then odd columns */
            T e[NU / 2], o[NU / 2];
            t3_ldrow<T, NU / 2>(e, rp);
            t3_ldrow<T, NU / 2>(o, rp + L::HP);
#pragma unroll
            for (int i = 0; i < NU / 2; i++) u[2 * i] = e[i], u[2 * i + 1] = o[i];
        } else {
            t3_ldrow<T, NU>(u, rp);
        }
        t3_lift<W, DIR, LONG>(u, w, x.xb - H, nx, mode);
        /* the full rows' vector stores on a path of their own: the scalar
         * alternative (rows not 16-byte aligned, the task past the line's end)
         * is a loop apart, not stores issued predicated off beside them */
        if (INV) {
            E *op = lo0 + 2 * k * dz;
            if (x.full && vec && store4_aligned(op)) {
#pragma unroll
                for (int g = 0; g < K; g += 4) store4_vec<E>(op + g, u[H + g], u[H + g + 1], u[H + g + 2], u[H + g + 3]);
            } else {
                const int64_t m = x.full ? K : nx - x.xb;
#pragma unroll
                for (int i = 0; i < K; i++)
                    if (i < m) lwd_st(op + i, u[H + i]);
            }
        } else {
            E *lo = lo0 + k * lstep, *hi = hi0 + k * dz;
            if (x.full && vec && store4_aligned(lo) && store4_aligned(hi)) {
#pragma unroll
                for (int g = 0; g < K; g += 8) {
                    store4_vec<E>(lo + g / 2, u[H + g], u[H + g + 2], u[H + g + 4], u[H + g + 6]);
                    store4_vec<E>(hi + g / 2, u[H + g + 1], u[H + g + 3], u[H + g + 5], u[H + g + 7]);
                }
            } else {
                const int64_t m = x.full ? K : nx - x.xb;
#pragma unroll
                for (int i = 0; i < K; i++)
                    if (i < m) lwd_st((i & 1) ? hi + (i >> 1) : lo + (i >> 1), u[H + i]);
            }
        }
    };
    /* STG: step a runs three stages between one pair of barriers: z of pair a,
     * y of pair a - 1 and x of pair a - 2, each in its own ring slot, so a
     * thread without a y column goes on to x.  The barrier after step a orders
     * z(a) before y(a), y(a - 1) before x(a - 1), and x(a - 2)'s reads before
     * step a + 1 refills slot a + 1 + D = a - 2 (mod S, S = D + 3).
     * Otherwise step a lifts pair a along z, y and x with a barrier before y
     * and before x; the slot refilled at step a + 1 was last read at step
     * a - 1 (S = D + 2).  The raw pairs are read only by the thread that
     * copied them, so the warm-up steps (no output yet) need no barrier. */
    const int64_t k0 = m0 - Z.dp; /* output pair of step 0 */
    for (int a = 0; a < na + (STG ? 2 : 0); a++) {
        const int64_t k = k0 + a;
        if (a < na) {
            if constexpr (TMA) lwd_mbar_wait(bars + a % SR, (unsigned)(a / SR) & 1u); /* pair a, every point's */
            else lwd_cp_wait<D - 1>(); /* this thread's copies of pair a (it alone reads them raw) */
            if (a + D < na) issue(a + D);
            else flush(); /* pair a + D - 1, the last, into its slot */
            lwd_cp_commit();
            T *sl = ring + (a % OS) * SS;
            const RT *rw = TMA ? raw + (a % SR) * (2 * R::RPS) : (const RT *)sl; /* the raw pair */
            const bool out = k >= kb;
            /* the z window's index 0 at position base: within reach of an end,
             * symmetric mode refreshes the mirror images per step (t3_zmirror) */
            const int64_t base = 2 * (m0 + a) - (NW - 2);
            int el = 0, et = 0;
            const bool refresh = !tile_once_mirror_exact(W) && mode != LW_PERIODIC && t3_zends(base, nz, NW, el, et);
            /* z: advance every owned point; the finished pair replaces the raw one */
            t3_zrot<NR>(rot, [&](auto rc) {
                constexpr int ROT = decltype(rc)::value, J0 = t3_zphys<NW>(JO, ROT), J1 = t3_zphys<NW>(JO + 1, ROT);
#pragma unroll
                for (int i = 0; i < P; i++) {
                    const int pt = tid + i * NT, rp = TMA ? rs[TMA ? i : 0] : pt;
                    if (owned(i)) {
                        t3_zadvance<T, W, INV, ROT, !RING>(v[i], lwd_ld(rw + rp), lwd_ld(rw + (TMA ? R::RPS : NPS) + rp), w, refresh, el,
                                                           et);
                        if (out) {
                            sl[pt] = INV ? v[i][J0] : lwd_scale_w<W, T>(w, v[i][J0], 0, 1);
                            sl[NPS + pt] = INV ? v[i][J1] : lwd_scale_w<W, T>(w, v[i][J1], 1, 1);
                        }
                    }
                }
            });
            rot = rot + 1 == NR ? 0 : rot + 1;
        }
        if constexpr (STG) {
            if (a >= 1 && a <= na && k - 1 >= kb) ylift(ring + ((a - 1) % OS) * SS);
            if (a >= 2 && k - 2 >= kb) xlift(ring + ((a - 2) % OS) * SS, k - 2);
            /* uniform over the block; TMA: the warm-up steps too (thread 0
             * refills the slot every thread read) */
            if ((k >= kb || TMA) && a <= na) SYNC::sync();
        } else if (k >= kb) { /* uniform over the block */
            T *sl = ring + (a % OS) * SS;
            SYNC::sync();
            ylift(sl);
            SYNC::sync();
            xlift(sl, k);
        } else if constexpr (TMA) {
            SYNC::sync();
        }
    }
    lwd_cp_wait<0>(); /* no copy outlives the block */
}

#endif
