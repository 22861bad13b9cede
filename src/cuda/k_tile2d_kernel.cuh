/* Fused 2-D engine: one level of a 2-D Mallat transform in ONE kernel that
 * reads the input once and writes the four bands once.
 *
 * A block owns a tile of TH rows x TW columns plus a halo of HALO samples on
 * each side (the reach of all lifting steps of one level).  Forward:
 *   1. every thread takes one window column, loads its TH+2*HALO samples
 *      (coalesced across the warp) and lifts them vertically in registers;
 *   2. the TH output rows go to shared memory;
 *   3. every thread takes 8 outputs of a row plus the halo, lifts them
 *      horizontally in registers and writes 4 lowpass + 4 highpass samples with
 *      16-byte stores into the Mallat bands (coalesced across the warp).
 * The float inverse runs the same phases from the four bands: a warp loads
 * one band's consecutive columns, a window row holds its even columns, then
 * its odd ones, and each row's outputs leave through the row's window as
 * 16-byte vectors that follow each other across the warp (store_row_group).
 * The integer inverse (tile_inv) lifts horizontally first, then vertically,
 * the reverse of the forward's order, on which its rounding depends.  The step
 * structure of each wavelet is a template parameter so the windows stay in
 * registers; weights come from the kernel parameters.
 *
 * Boundaries: the window is loaded through the mode once.  That equals reading
 * through the mode at every step (the reference's definition) for periodic
 * mode and for wavelets whose steps have symmetric taps (float and integer);
 * a wavelet whose steps read only inside their pairs (haar) needs no boundary
 * sample on even lengths; for the others (d4) the windows that reach past an
 * end of the image refresh their mirrored positions before every step
 * (reg_lift_line).
 *
 * IL (the interleaved layout, out of place): the same tiles between two
 * planes of interleaved coefficients; the forward's rows leave as the
 * inverse's do (each output where its sample was), the inverse's window is
 * loaded as the forward's (one plane, no bands).  Launched by k_tile2d.cu
 * (Mallat) and k_tile2d_il.cu (interleaved), each instantiating its own. */
#ifndef LW_K_TILE2D_KERNEL_CUH
#define LW_K_TILE2D_KERNEL_CUH

#include "lw_cuda_dev.cuh"

#include "tile_lift.cuh"

/* Tile shape: TW output columns (a block has TW + 2*HALO threads rounded to
 * warps), TH output rows, K outputs per thread in the horizontal pass.  SM:
 * the configuration for small images (more, shorter blocks: latency).  T is
 * the compute type (shared memory holds it): float for the half types. */
template <class T, int SM> struct tile_cfg {
    enum { TW = (sizeof(T) == 8 || SM) ? 128 : 256, TH = SM ? 16 : 32, K = 8 };
};

/* K of a direction and storage type: the half types' inverse lifts row segments of 16 (a
 * window of 16 + 2*HALO for 16 outputs, two 16-byte stores a lane), which took 0.84-0.91x the
 * time of 8 on an H200; their forward stays at 8, where 16 took 0.98-1.07x
 * (bench/NOTES-cuda.md, "tile2d: the half types' long row segments"). */
template <class S, int INV> constexpr int tile_k() { return INV && sizeof(S) == 2 ? 16 : 8; }

/* The shared-memory length of a window row of WC (even) columns: two halves of whole
 * 16-byte runs (the inverse keeps a row's even and odd columns apart) */
__host__ __device__ constexpr int tile_wcp(int WC) { return 2 * ((WC / 2 + 3) & ~3); }

__device__ __forceinline__ int64_t map_idx(int64_t i, int64_t n, int mode)
{
    return (i >= 0 && i < n) ? i : lwd_bidx(i, n, mode);
}

/* map_idx for the forward's edge rows: the halo of a line longer than it needs one
 * reflection, taken without lwd_bidx's 64-bit remainder (a call).  Not in the
 * inverse: its extra registers there cost the inverse kernels a block an SM. */
__device__ __forceinline__ int64_t map_idx_near(int64_t i, int64_t n, int mode)
{
    if (i >= 0 && i < n) return i;
    if (mode == LW_PERIODIC) {
        if (i < 0 && i >= -n) return i + n;
        if (i >= n && i < 2 * n) return i - n;
    } else if (n > 1) {
        if (i < 0 && i > -n) return -i;
        if (i >= n && i < 2 * n - 1) return 2 * (n - 1) - i;
    }
    return lwd_bidx(i, n, mode);
}

/* 16-byte (8 for the half types) vector stores of 4 band samples: rows,
 * bands and batches all start on 4-sample boundaries. */
template <class S> __device__ __forceinline__ bool vec_ok(const lwk_plane &ll, const lwk_plane &d, const int64_t o[3])
{
    const int64_t m = ll.rs | d.rs | o[0] | o[1] | o[2] | ll.bs[0] | ll.bs[1] | d.bs[0] | d.bs[1];
    const uintptr_t a = (uintptr_t)ll.p | (uintptr_t)d.p;
    return (m & 3) == 0 && (a & (4 * sizeof(S) - 1)) == 0;
}

/* Whether the rows of a plane (every batch's) start on 16-byte boundaries */
template <class S> __device__ __forceinline__ bool vec_rows16(const lwk_plane &c)
{
    return (((c.rs | c.bs[0] | c.bs[1]) * (int64_t)sizeof(S)) & 15) == 0 && ((uintptr_t)c.p & 15) == 0;
}

/* Whether tile_vh asks ptxas for three blocks an SM (__launch_bounds__(288, 3), tile_vh3).
 * Left to itself ptxas gives the long tiles of most wavelets more registers than three
 * 288-thread blocks allow, so two fit; capped, a few bytes spill, and the third block hides
 * more load latency.  That pays for the forwards of float compute types (the half types
 * compute in float) and for dd137's inverse; the other inverses spill more and lose, and d4
 * and the 8-byte and integer types keep the thread count as their only bound
 * (bench/NOTES-matrix.md, "Three blocks an SM"). */
template <class S, int W, int INV, int EDGE> constexpr bool tile_three_blocks();

/* How a kernel meets the image's ends, for the wavelets whose windows refresh their
 * mirror before every step (d4 in symmetric mode; the others take TE_ANY only, where
 * loading through the mode once is exact).  The refresh's move sets of the column
 * windows raise the kernels to 92-96 registers (two blocks an SM, and the forward
 * spilling in its loop); only the row tiles at the image's first and last rows need
 * them.  On tall images those tiles go to a kernel of their own and the rest lift
 * their columns plainly, at three blocks an SM.  Where the plan gives a stream beside
 * the caller's (lwk_tile2d.side) the end tiles' kernel runs there at the same time
 * as the others', so shorter images split too; run after the rest on the same stream,
 * the end tiles' kernel cost more than it saved on short images (batches of 512^2
 * planes: an eighth of the tiles), and one kernel takes every tile with the move sets
 * there (bench/NOTES-tile2d.md, "d4: the end row tiles apart").
 *   TE_ANY   any image: the windows at an end pick their images by selects;
 *   TE_INNER rows and columns at least as long as the windows: every tile whose
 *            column windows stay inside the rows (every tile in periodic mode) lifts
 *            them plainly, and its rows with the placed move sets (reg_lift_placed);
 *   TE_EDGE  the same images: the other tiles (at most four row tiles: grid y
 *            indexes the first two and the last two), placed move sets both ways;
 *   TE_ALL   the same images, every tile, placed move sets both ways. */
enum { TE_ANY = 0, TE_INNER = 1, TE_EDGE = 2, TE_ALL = 3 };

/* The fewest row tiles (a plane's) with which the end tiles take a kernel of their
 * own: run after the others, or beside them (lwk_tile2d.side) */
static constexpr int64_t edge_apart_min_tiles = 64, edge_apart_side_tiles = 8;

/* Three blocks for float compute types' forwards, dd137's inverse, and every
 * float-compute inner kernel of the mirror-refreshing wavelets (70-72 registers
 * without the column move sets, at most 24 bytes of spills) */
template <class S, int W, int INV, int EDGE> constexpr bool tile_three_blocks()
{
    constexpr int base = W % LW_TRANSPOSED_ID;
    if (!std::is_same<lwd_c<S>, float>::value) return false;
    if (tile_once_mirror_exact(W) || EDGE == TE_ANY) return base != LW_D4 && (!INV || base == LW_DD137);
    return EDGE == TE_INNER;
}

/* Vertical pass first (registers), then horizontal (registers, from one
 * shared-memory transpose).  Forward: a = input, b = LL band, c = detail
 * bands (Mallat positions).  INV (float types only: the axis order then
 * changes only rounding): a = LL band, b = detail bands, c = output.
 * IL: a = the input plane, c = the output plane (interleaved), b unused; or
 * (forward, b.split) the odd rows to c and the even rows compact to b: their
 * lowpass (even columns) at b.p, their details at b.p + b.off[0], with b.rs;
 * or (IL 2, inverse) the window's lowpass samples (even row and column) from
 * the compact plane b, the others from a.
 * EDGE (the wavelets that refresh their mirror, d4): TE_ANY, TE_INNER, TE_EDGE or
 * TE_ALL, above; in all but TE_ANY the image's rows and columns are at least as long
 * as the windows, whose per-step mirror is then fixed moves, few where the tiles
 * are placed for them (reg_lift_placed). */
template <class S, int W, int INV, int SM, int EDGE, int IL>
__device__ __forceinline__ void tile_vh_body(const lwk_tile2d &t, const lwk_plane &a, const lwk_plane &b,
                                             const lwk_plane &c)
{
    typedef lwd_c<S> T; /* S in global memory, T in registers and shared memory */
    constexpr int H = sh_halo(W), TW = tile_cfg<T, SM>::TW, TH = tile_cfg<T, SM>::TH, K = tile_k<S, INV>();
    constexpr int WC = TW + 2 * H, WCP = tile_wcp(WC), SEGS = TW / K, NU = K + 2 * H;
    constexpr int DIR = INV ? -1 : 1;
    /* INV: a window row holds its even columns, then its odd ones from PO: a warp of the
     * vertical phase loads one band's consecutive columns (whole lines), and a lane of the
     * horizontal phase reads its window as two runs that follow the lane before's */
    constexpr int PO = WCP / 2;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T(*sm)[WCP] = (T(*)[WCP])smem_raw;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x;
    const int64_t rows = t.rows, cols = t.cols, hr = (rows + 1) / 2, hc = (cols + 1) / 2;
    /* the windows that refresh their mirror (d4, symmetric mode) meet the
     * ends at the offsets reg_lift_placed takes fastest: the last tile of
     * the columns and of the rows moved to end at the end */
    constexpr bool LONG = EDGE != TE_ANY;
    const bool place = !tile_once_mirror_exact(W) && LONG && t.mode != LW_PERIODIC;
    int64_t c0 = (int64_t)blockIdx.x * TW;
    if (place && cols >= TW && c0 > ((cols - TW + 1) & ~(int64_t)1)) c0 = (cols - TW + 1) & ~(int64_t)1;
    const int64_t rlast = (t.row_hi - TH + 1) & ~(int64_t)1;
    const int64_t nbatch = t.blen[0] * t.blen[1];
    const int64_t ntr = (t.row_hi - t.row_lo + TH - 1) / TH;
    int64_t o[3];
    det_offsets(INV ? b : c, hr, hc, o);
    const bool vec = INV || IL ? (c.rs % 4) == 0 : vec_ok<S>(b, c, o);
    /* IL forward with b.split: the even rows' outputs go compact to b, the lowpass (even
     * columns) at b.p and the details (odd columns) at b.p + b.off[0], the odd rows whole to c */
    const bool il_split = IL && !INV && b.split;
    /* IL 2 (inverse only): the window's even rows at even columns from b (the compact lowpass
     * of the level, row stride b.rs), the rest from a */
    constexpr bool JOIN = IL == 2;
    static_assert(!JOIN || INV, "the joined window is the inverse's");
    const bool svec = il_split && ((b.rs | b.off[0] | b.bs[0] | b.bs[1]) & 3) == 0 &&
                      ((uintptr_t)b.p & (4 * sizeof(S) - 1)) == 0;

    for (int64_t bb = blockIdx.z; bb < nbatch; bb += gridDim.z) {
        const int64_t b1 = bb % t.blen[1], b0 = bb / t.blen[1];
        const S *ap = (const S *)a.p + b0 * a.bs[0] + b1 * a.bs[1];
        S *bp = (S *)b.p + b0 * b.bs[0] + b1 * b.bs[1];
        S *cp = (S *)c.p + b0 * c.bs[0] + b1 * c.bs[1];
        for (int64_t ty = blockIdx.y; ty < (EDGE == TE_EDGE ? 4 : ntr); ty += gridDim.y) {
            /* TE_EDGE: the first two and the last two row tiles, each once */
            const int64_t tr = EDGE != TE_EDGE ? ty : ty < 2 ? ty : ntr - 4 + ty;
            if (EDGE == TE_EDGE && (tr < 0 || tr >= ntr || (ty >= 2 && tr < 2))) continue;
            int64_t r0 = t.row_lo + tr * TH;
            if (place && r0 > rlast && rlast >= t.row_lo) r0 = rlast;
            /* the column windows inside the rows (a decision for the block) */
            const bool rin = r0 - H >= 0 && r0 + TH + H <= rows;
            if (place && (EDGE == TE_INNER ? !rin : EDGE == TE_EDGE && rin)) continue;
            /* 1. vertical lifting of one window column per thread */
            if (tid < WC) {
                /* the window column (Mallat INV: a warp loads one band's consecutive columns) */
                const int wc = INV && !IL ? (tid < WC / 2 ? 2 * tid : 2 * (tid - WC / 2) + 1) : tid;
                const int64_t cm = map_idx(c0 - H + wc, cols, t.mode);
                const int64_t cj = cm >> 1; /* INV: the column within its band */
                T v[TH + 2 * H];
                if (INV && !IL) { /* rows alternate between a low and a high band: two strided streams */
                    const S *pl = (cm & 1) ? (const S *)bp + o[0] + cj : ap + cj; /* LH or LL */
                    const int64_t sl = (cm & 1) ? b.rs : a.rs;
                    const S *ph = (const S *)bp + ((cm & 1) ? o[2] : o[1]) + cj; /* HH or HL */
                    if (rin) { /* r0 - H is even (tiles and halos are) */
                        const int64_t rl = (r0 - H) >> 1;
                        pl += rl * sl, ph += rl * b.rs;
#pragma unroll
                        for (int j = 0; j < TH + 2 * H; j++)
                            v[j] = (j & 1) ? lwd_ldg_run(ph + (j >> 1) * b.rs) : lwd_ldg_run(pl + (j >> 1) * sl);
                    } else {
                        /* the tile's own rows inside (edge tiles of a long image): only the
                         * halo rows go through the mode, the rest by stepped pointers */
                        auto mapped = [&](int j) {
                            const int64_t rm = map_idx(r0 - H + j, rows, t.mode);
                            return (rm & 1) ? lwd_ldg_run(ph + (rm >> 1) * b.rs) : lwd_ldg_run(pl + (rm >> 1) * sl);
                        };
                        if (r0 + TH <= rows) {
                            /* r0 and H are even: row r0 + j - H has j's parity */
                            const S *ql = pl + (r0 >> 1) * sl, *qh = ph + (r0 >> 1) * b.rs;
#pragma unroll
                            for (int j = 0; j < H; j++) v[j] = mapped(j);
#pragma unroll
                            for (int j = H; j < H + TH; j++)
                                v[j] = (j & 1) ? lwd_ldg_run(qh + ((j - H) >> 1) * b.rs)
                                               : lwd_ldg_run(ql + ((j - H) >> 1) * sl);
#pragma unroll
                            for (int j = H + TH; j < TH + 2 * H; j++) v[j] = mapped(j);
                        } else {
#pragma unroll
                            for (int j = 0; j < TH + 2 * H; j++) v[j] = mapped(j);
                        }
                    }
                } else if (JOIN) {
                    /* the even rows' even columns (the level's lowpass) from the compact plane b,
                     * the rest from a: a lane of an even column reads its even rows from b */
                    const bool ev = !(cm & 1);
                    if (rin && !((r0 - H) & 1)) {
                        const S *po = ap + (r0 - H + 1) * a.rs + cm;
                        const S *pe = ev ? (const S *)bp + ((r0 - H) >> 1) * b.rs + (cm >> 1) : ap + (r0 - H) * a.rs + cm;
                        const int64_t se = ev ? b.rs : 2 * a.rs, so = 2 * a.rs;
#pragma unroll
                        for (int j = 0; j < TH + 2 * H; j++)
                            v[j] = (j & 1) ? lwd_ldg_run(po + (j >> 1) * so) : lwd_ldg_run(pe + (j >> 1) * se);
                    } else {
#pragma unroll
                        for (int j = 0; j < TH + 2 * H; j++) {
                            const int64_t rm = map_idx(r0 - H + j, rows, t.mode);
                            v[j] = ev && !(rm & 1) ? lwd_ldg_run((const S *)bp + (rm >> 1) * b.rs + (cm >> 1))
                                                   : lwd_ldg_run(ap + rm * a.rs + cm);
                        }
                    }
                } else if (rin) {
                    /* one pointer stepped a row at a time: choosing per row between the row and
                     * its mapped image costs ~18 instructions a load (bench/NOTES-cuda.md) */
                    const S *p = ap + (r0 - H) * a.rs + cm;
#pragma unroll
                    for (int j = 0; j < TH + 2 * H; j++, p += a.rs) v[j] = lwd_ldg_run(p);
                } else if (r0 + TH <= rows) { /* an edge tile of a long image: only its halo rows map */
                    const S *p = ap + r0 * a.rs + cm;
#pragma unroll
                    for (int j = 0; j < H; j++) v[j] = lwd_ldg_run(ap + map_idx_near(r0 - H + j, rows, t.mode) * a.rs + cm);
#pragma unroll
                    for (int j = H; j < H + TH; j++, p += a.rs) v[j] = lwd_ldg_run(p);
#pragma unroll
                    for (int j = H + TH; j < TH + 2 * H; j++)
                        v[j] = lwd_ldg_run(ap + map_idx_near(r0 - H + j, rows, t.mode) * a.rs + cm);
                } else {
#pragma unroll
                    for (int j = 0; j < TH + 2 * H; j++)
                        v[j] = lwd_ldg_run(ap + map_idx_near(r0 - H + j, rows, t.mode) * a.rs + cm);
                }
                if constexpr (EDGE == TE_INNER) reg_lift<W, DIR>(v, w); /* inside the rows, or periodic */
                else if constexpr (LONG) reg_lift_placed<W, DIR, true>(v, w, r0 - H, rows, t.mode);
                else reg_lift_line<W, DIR>(v, w, r0 - H, rows, t.mode);
                const int slot = INV ? (wc & 1 ? PO : 0) + (wc >> 1) : tid;
#pragma unroll
                for (int j = 0; j < TH; j++) sm[j][slot] = v[H + j];
            }
            __syncthreads();
            /* 2. horizontal lifting, K outputs per thread, coalesced stores */
            const int rp = blockDim.x / SEGS;
            /* every row of the tile whole and aligned: vector stores only (a decision for the
             * block; whole output rows through store_row_group, which needs 16 bytes, also
             * from the tile's first column: a placed end tile may start off a 16-byte unit) */
            const bool whole = c0 + TW <= cols &&
                               (INV || IL ? vec_rows16<S>(c) && ((c0 * (int64_t)sizeof(S)) & 15) == 0 : vec);
            if (tid < rp * SEGS) {
                const int seg = tid % SEGS;
                const int64_t cb = c0 + seg * K;
                for (int rr = tid / SEGS; rr < TH; rr += rp) {
                    const int64_t r = r0 + rr;
                    if (r >= t.row_hi) break;
                    T u[NU];
                    if (INV) {
#pragma unroll
                        for (int i = 0; i < NU; i++) u[i] = sm[rr][(i & 1 ? PO : 0) + seg * (K / 2) + (i >> 1)];
                    } else {
#pragma unroll
                        for (int i = 0; i < NU; i++) u[i] = sm[rr][seg * K + i];
                    }
                    if constexpr (LONG) reg_lift_placed<W, DIR, true>(u, w, cb - H, cols, t.mode);
                    else reg_lift_line<W, DIR>(u, w, cb - H, cols, t.mode);
                    if (INV || (IL && !(il_split && !(r & 1)))) { /* a row of outputs, each where its sample was */
                        S *op = cp + r * c.rs + cb;
                        if (whole) {
                            if constexpr (K == 16) { /* the half types' inverse: two 16-byte vectors a lane */
                                store8_vec<S>(op, u + H);
                                store8_vec<S>(op + 8, u + H + 8);
                            } else if constexpr (sizeof(S) > 2) {
                                store_row_group<S, SEGS>(cp + r * c.rs + c0, sm[rr], u, seg);
                            } else { /* the half types' IL forward: one 16-byte vector a lane */
                                store8_vec<S>(op, u + H);
                            }
                        } else if (cb + K <= cols) {
#pragma unroll
                            for (int i = 0; i < K; i += 4)
                                store4<S>(op + i, u[H + i], u[H + i + 1], u[H + i + 2], u[H + i + 3], vec);
                        } else {
#pragma unroll
                            for (int i = 0; i < K; i++)
                                if (cb + i < cols) lwd_st(op + i, u[H + i]);
                        }
                        continue;
                    }
                    S *lo, *hi;
                    bool wv = whole, sv = vec;
                    if (IL) { /* an even row of the split forward */
                        lo = bp + (r >> 1) * b.rs + (cb >> 1);
                        hi = lo + b.off[0];
                        wv = c0 + TW <= cols && svec && (c0 & 7) == 0, sv = svec;
                    } else if (r & 1) {
                        lo = cp + o[1] + (r >> 1) * c.rs + (cb >> 1);
                        hi = cp + o[2] + (r >> 1) * c.rs + (cb >> 1);
                    } else {
                        lo = bp + (r >> 1) * b.rs + (cb >> 1);
                        hi = cp + o[0] + (r >> 1) * c.rs + (cb >> 1);
                    }
                    if (wv) {
                        store4_vec<S>(lo, u[H], u[H + 2], u[H + 4], u[H + 6]);
                        store4_vec<S>(hi, u[H + 1], u[H + 3], u[H + 5], u[H + 7]);
                    } else if (cb + K <= cols) {
                        store4<S>(lo, u[H], u[H + 2], u[H + 4], u[H + 6], sv);
                        store4<S>(hi, u[H + 1], u[H + 3], u[H + 5], u[H + 7], sv);
                    } else {
#pragma unroll
                        for (int i = 0; i < K; i++) {
                            if (cb + i >= cols) break;
                            if (i & 1) lwd_st(hi + (i >> 1), u[H + i]);
                            else lwd_st(lo + (i >> 1), u[H + i]);
                        }
                    }
                }
            }
            __syncthreads();
        }
    }
}

/* The kernels: the thread count as the only bound, or three blocks an SM */
template <class S, int W, int INV, int SM, int EDGE, int IL>
__global__ void __launch_bounds__(288) tile_vh(lwk_tile2d t, lwk_plane a, lwk_plane b, lwk_plane c)
{
    tile_vh_body<S, W, INV, SM, EDGE, IL>(t, a, b, c);
}

template <class S, int W, int INV, int SM, int EDGE, int IL>
__global__ void __launch_bounds__(288, 3) tile_vh3(lwk_tile2d t, lwk_plane a, lwk_plane b, lwk_plane c)
{
    tile_vh_body<S, W, INV, SM, EDGE, IL>(t, a, b, c);
}

/* Short tiles (tile_cfg SM: 160-thread blocks) run the small planes and levels, whose grids
 * are a wave or two of the device.  Left to ptxas the float32 inverses take 56 registers,
 * seven blocks an SM: a 1080p plane's 1020 tiles take a wave and a tenth on an H100.
 * Bounded to eight blocks (48 registers, no spills) they take one, and such grids ran in
 * 0.91-0.95x the time on an H100; grids within one wave either way ran 1.10-1.24x slower
 * bounded (fewer registers, the same single wave).  The forwards (48-144 bytes of spills at
 * 48 registers) ran 1.00-1.44x and the half types 0.98-1.14x bounded, so they keep their
 * kernels, and tile_vh_pick takes the bounded one only where it saves a wave
 * (bench/NOTES-tile2d.md, "Short tiles at eight blocks an SM").  Not d4 on short lines
 * (TE_ANY), which spills at that bound. */
template <class S, int W, int INV, int EDGE> constexpr bool tile_short_dense()
{
    return std::is_same<S, float>::value && INV && (128 + 2 * sh_halo(W) + 31) / 32 * 32 == 160 &&
           (tile_once_mirror_exact(W) || EDGE != TE_ANY);
}

template <class S, int W, int INV, int SM, int EDGE, int IL>
__global__ void __launch_bounds__(160, 8) tile_vhs(lwk_tile2d t, lwk_plane a, lwk_plane b, lwk_plane c)
{
    tile_vh_body<S, W, INV, SM, EDGE, IL>(t, a, b, c);
}

typedef void (*tile_kernel)(lwk_tile2d, lwk_plane, lwk_plane, lwk_plane);

template <class S, int W, int INV, int SM, int EDGE, int IL> static tile_kernel tile_vh_kernel()
{
    if constexpr (tile_three_blocks<S, W, INV, EDGE>()) return tile_vh3<S, W, INV, SM, EDGE, IL>;
    else return tile_vh<S, W, INV, SM, EDGE, IL>;
}

/* tile_vh_kernel, or for the short tiles that tile_short_dense names the kernel bounded to
 * eight blocks an SM where a grid of `blocks` takes fewer waves of it */
template <class S, int W, int INV, int SM, int EDGE, int IL>
static tile_kernel tile_vh_pick(int64_t blocks, int threads, size_t smem)
{
    const tile_kernel k = tile_vh_kernel<S, W, INV, SM, EDGE, IL>();
    if constexpr (SM && tile_short_dense<S, W, INV, EDGE>()) {
        const tile_kernel k8 = tile_vhs<S, W, INV, SM, EDGE, IL>;
        if (lw_cuda_func_attr((const void *)k8, LW_SMEM_ATTR, (int)smem) != cudaSuccess ||
            lw_cuda_func_attr((const void *)k, LW_SMEM_ATTR, (int)smem) != cudaSuccess)
            return k; /* the launch's own attribute call reports it */
        int64_t r = 0, r8 = 0; /* 0 where the runtime cannot tell */
        lw_cuda_resident((const void *)k, threads, smem, &r), lw_cuda_resident((const void *)k8, threads, smem, &r8);
        if (r > 0 && r8 > 0 && (blocks + r8 - 1) / r8 < (blocks + r - 1) / r) return k8;
    }
    return k;
}

/* Integer inverse: horizontal first, then vertical (the reverse of the
 * forward axis order, which the integer transforms depend on). */
template <class T, int W>
__global__ void __launch_bounds__(288) tile_inv(lwk_tile2d t, lwk_plane sll, lwk_plane sdet, lwk_plane dst)
{
    constexpr int H = sh_halo(W), TW = tile_cfg<T, 0>::TW, TH = tile_cfg<T, 0>::TH, K = tile_cfg<T, 0>::K;
    constexpr int WC = TW + 2 * H, WCP = tile_wcp(WC), SEGS = TW / K, NR = TH + 2 * H;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T(*sm)[WCP] = (T(*)[WCP])smem_raw;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x;
    const int64_t rows = t.rows, cols = t.cols, hr = (rows + 1) / 2, hc = (cols + 1) / 2;
    const int64_t c0 = (int64_t)blockIdx.x * TW;
    const int64_t nbatch = t.blen[0] * t.blen[1];
    const int64_t ntr = (t.row_hi - t.row_lo + TH - 1) / TH;

    for (int64_t b = blockIdx.z; b < nbatch; b += gridDim.z) {
        const int64_t b1 = b % t.blen[1], b0 = b / t.blen[1];
        const T *lp = (const T *)sll.p + b0 * sll.bs[0] + b1 * sll.bs[1];
        const T *dp = (const T *)sdet.p + b0 * sdet.bs[0] + b1 * sdet.bs[1];
        T *op = (T *)dst.p + b0 * dst.bs[0] + b1 * dst.bs[1];
        for (int64_t tr = blockIdx.y; tr < ntr; tr += gridDim.y) {
            const int64_t r0 = t.row_lo + tr * TH;
            /* 1. load the window from the four bands (interleaving on the fly) */
            if (tid < WC) {
                const int64_t cm = map_idx(c0 - H + tid, cols, t.mode);
                const int64_t ci = (cm & 1) ? hc + (cm >> 1) : (cm >> 1);
                const bool rin = r0 - H >= 0 && r0 + TH + H <= rows;
                T v[NR]; /* all loads in flight before the first shared store */
                if (rin) { /* rows alternate between the low and the high bands (r0 - H is even) */
                    const int64_t sl = (cm & 1) ? sdet.rs : sll.rs;
                    const T *pl = ((cm & 1) ? dp : lp) + ((r0 - H) >> 1) * sl + ci;
                    const T *ph = dp + (hr + ((r0 - H) >> 1)) * sdet.rs + ci;
#pragma unroll
                    for (int j = 0; j < NR; j++) v[j] = (j & 1) ? __ldg(ph + (j >> 1) * sdet.rs) : __ldg(pl + (j >> 1) * sl);
                } else {
#pragma unroll
                    for (int j = 0; j < NR; j++) {
                        const int64_t rm = map_idx(r0 - H + j, rows, t.mode);
                        const int64_t ri = (rm & 1) ? hr + (rm >> 1) : (rm >> 1);
                        v[j] = ((rm | cm) & 1) ? __ldg(dp + ri * sdet.rs + ci) : __ldg(lp + ri * sll.rs + ci);
                    }
                }
#pragma unroll
                for (int j = 0; j < NR; j++) sm[j][tid] = v[j];
            }
            __syncthreads();
            /* 2. horizontal inverse lifting, in place, a batch of rows at a time */
            smem_rows_lift<W, -1, NR, K, H, SEGS>(sm, w, c0, cols, t.mode);
            /* 3. vertical inverse lifting, one output column per thread */
            if (tid < TW && c0 + tid < cols) {
                T v[NR];
#pragma unroll
                for (int j = 0; j < NR; j++) v[j] = sm[j][H + tid];
                reg_lift_line<W, -1>(v, w, r0 - H, rows, t.mode);
#pragma unroll
                for (int j = 0; j < TH; j++) {
                    const int64_t r = r0 + j;
                    if (r < t.row_hi) op[r * dst.rs + c0 + tid] = v[H + j];
                }
            }
            __syncthreads();
        }
    }
}

/* ---- launchers ------------------------------------------------------------ */

/* How many row tiles a block of a gx x gy x gz grid walks (the kernels stride
 * over the tile rows by gridDim.y): one plane of many tiles spreads each
 * block's setup (its column's mapping, the batch pointers, the placement of
 * d4's end tiles) over up to four tiles, one per 2048 tiles of the plane.
 * On 16384^2 float32 that made the forwards of the wavelets with halos of 4
 * or more (cdf97, dd137, dd97, d4) and d4's inverse faster, and cdf53 (halo
 * 2: little work a tile) and the other inverses slower (bench/NOTES-cuda.md,
 * "tile2d's blocks walk row tiles"), so those keep a tile a block, as do
 * batches (their planes have few tile rows to share out evenly) and the
 * storage types not measured.  The tuning key tile2d_walk sets the count for
 * every kernel, walking a batch's planes instead of its rows. */
template <class S, int W, int KIND> constexpr bool tile_walks()
{
    return std::is_same<S, float>::value && sh_halo(W) >= 4 && (KIND == 0 || !tile_once_mirror_exact(W));
}

static int64_t tile_walk(int64_t gx, int64_t gy, int64_t gz)
{
    if (gz != 1) return 1;
    const int64_t k = gx * gy / 2048;
    return k < 1 ? 1 : k > 4 ? 4 : k;
}

/* The end tiles' kernel (edge) on the side stream, forked from s, and then the
 * others' (k) on s, which waits for edge: the end tiles first, so that their
 * longer blocks do not trail the others'.  The caller holds the plan's lock
 * (the side stream's events are the plan's). */
static cudaError_t tile_beside(lwk_side *sd, tile_kernel k, dim3 grid, tile_kernel edge, dim3 egrid, int threads,
                               size_t smem, lwk_tile2d t, lwk_plane a, lwk_plane b, lwk_plane c, cudaStream_t s)
{
    cudaError_t e = cudaEventRecord(sd->ev[0], s);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(sd->st, sd->ev[0], 0);
    if (e == cudaSuccess) {
        edge<<<egrid, threads, smem, sd->st>>>(t, a, b, c);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaEventRecord(sd->ev[1], sd->st);
    if (e == cudaSuccess) {
        k<<<grid, threads, smem, s>>>(t, a, b, c);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaStreamWaitEvent(s, sd->ev[1], 0);
    return e;
}

/* KIND 0: tile_vh forward, 1: tile_vh inverse, 2: tile_inv (integer inverse, not IL);
 * S the storage type */
template <class S, int W, int KIND, int SM, int IL>
static cudaError_t tile_launch(const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c, cudaStream_t s)
{
    typedef lwd_c<S> T;
    typedef tile_cfg<T, SM> C;
    constexpr int H = sh_halo(W), WC = C::TW + 2 * H, WCP = tile_wcp(WC);
    const int threads = (WC + 31) & ~31;
    const size_t smem = (size_t)(KIND == 2 ? C::TH + 2 * H : C::TH) * WCP * sizeof(T);
    static_assert(KIND != 2 || !IL, "the integer inverse has no interleaved variant");
    int64_t gx = (t->cols + C::TW - 1) / C::TW;
    int64_t gy = (t->row_hi - t->row_lo + C::TH - 1) / C::TH;
    int64_t gz = t->blen[0] * t->blen[1];
    if (gx < 1 || gy < 1 || gz < 1) return cudaSuccess;
    if (gx > 0x7fffffff) return cudaErrorInvalidConfiguration;
    const dim3 egrid((unsigned)gx, (unsigned)(gy < 4 ? gy : 4), (unsigned)(gz < 65535 ? gz : 65535));
    /* the plan's tuning, else the rule: a plane's row tiles, or a batch's planes */
    const int64_t walk = t->walk > 0 ? t->walk : tile_walks<S, W, KIND>() ? tile_walk(gx, gy, gz) : 1;
    if (gz == 1) gy = (gy + walk - 1) / walk;
    else gz = (gz + walk - 1) / walk;
    const dim3 grid((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), (unsigned)(gz < 65535 ? gz : 65535));
    const int64_t blocks = (int64_t)grid.x * grid.y * grid.z;
    tile_kernel k, edge = nullptr; /* edge: the end row tiles' kernel, after k or beside it */
    if constexpr (KIND == 2) {
        k = tile_inv<S, W>;
    } else if constexpr (tile_once_mirror_exact(W)) {
        k = tile_vh_pick<S, W, KIND == 1, SM, TE_ANY, IL>(blocks, threads, smem);
    } else {
        static_assert(H <= C::TH, "TE_EDGE: only the first and the last two row tiles meet an end");
        const bool periodic = t->mode == LW_PERIODIC;
        const bool short_lines = t->rows < C::TH + 2 * H || t->cols < C::K + 2 * H; /* than the windows */
        const int64_t min_tiles = t->ends > 0 ? t->ends : t->side ? edge_apart_side_tiles : edge_apart_min_tiles;
        const bool apart = t->rows >= min_tiles * C::TH;
        /* the launch's rows hold an end (a band's rows may hold neither) */
        const bool ends = t->row_lo < H || t->row_hi + C::TH + H > t->rows + 1;
        if (periodic || (!short_lines && apart)) k = tile_vh_pick<S, W, KIND == 1, SM, TE_INNER, IL>(blocks, threads, smem);
        else if (!short_lines) k = tile_vh_pick<S, W, KIND == 1, SM, TE_ALL, IL>(blocks, threads, smem);
        else k = tile_vh_kernel<S, W, KIND == 1, SM, TE_ANY, IL>();
        if (!periodic && !short_lines && apart && ends) edge = tile_vh_kernel<S, W, KIND == 1, SM, TE_EDGE, IL>();
    }
    cudaError_t attr = lw_cuda_func_attr((const void *)k, LW_SMEM_ATTR, (int)smem);
    if (attr == cudaSuccess && edge) attr = lw_cuda_func_attr((const void *)edge, LW_SMEM_ATTR, (int)smem);
    if (attr != cudaSuccess) return attr;
    if (edge && t->side) /* the tiles partition the planes: the two kernels may run at once */
        return tile_beside(t->side, k, grid, edge, egrid, threads, smem, *t, a, b, c, s);
    k<<<grid, threads, smem, s>>>(*t, a, b, c);
    if (edge) {
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        edge<<<egrid, threads, smem, s>>>(*t, a, b, c);
    }
    return cudaGetLastError();
}

/* Images up to this many samples (float32) take the short-tile configuration:
 * small images are latency bound (more, shorter blocks).  Above it the long
 * tiles' smaller halo wins, for every wavelet and direction once the forwards
 * hold three blocks an SM (bench/NOTES-matrix.md, "Three blocks an SM"). */
static constexpr int64_t short_tile_limit = (int64_t)4 << 20;

/* S the storage type; the half types take float's tile shapes (they compute in
 * float), long ones at every size: short tiles trailed them by 3-23% forward and
 * 0-16% inverse on an H100 at 48-256 Mi samples (bench/NOTES-cuda.md).  Planes no
 * wider than a short tile take short tiles at any size and for every type computed
 * in float: a long tile's columns would be half empty (192 planes of 128^2 on an
 * H200: 0.70-0.87x the time of long tiles, bench/NOTES-torch.md). */
template <class S, int W, int IL>
static cudaError_t tile_run(int inverse, const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c, cudaStream_t s)
{
    typedef lwd_c<S> T;
    const int64_t samples = (t->row_hi - t->row_lo) * t->cols * t->blen[0] * t->blen[1];
    const bool narrow = std::is_same<T, float>::value && t->cols <= tile_cfg<T, 1>::TW;
    const bool short_tiles = t->tiles ? t->tiles == 1 : narrow || (sizeof(S) == 4 && samples <= short_tile_limit);
    if constexpr (IL == 2) { /* the joined window: inverse only */
        if (!inverse) return cudaErrorInvalidValue;
        return short_tiles ? tile_launch<S, W, 1, 1, IL>(t, a, b, c, s) : tile_launch<S, W, 1, 0, IL>(t, a, b, c, s);
    } else {
        if (short_tiles)
            return inverse ? tile_launch<S, W, 1, 1, IL>(t, a, b, c, s) : tile_launch<S, W, 0, 1, IL>(t, a, b, c, s);
        return inverse ? tile_launch<S, W, 1, 0, IL>(t, a, b, c, s) : tile_launch<S, W, 0, 0, IL>(t, a, b, c, s);
    }
}

template <int W, int IL>
static cudaError_t tile_run_int(int inverse, const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c,
                                cudaStream_t s)
{
    if constexpr (IL) /* Mallat only: the integer inverse lifts rows first (tile_inv), and store_row_group moves
                       * float bits */
        return cudaErrorInvalidValue;
    else
        return inverse ? tile_launch<int32_t, W, 2, 0, 0>(t, a, b, c, s) : tile_launch<int32_t, W, 0, 0, 0>(t, a, b, c, s);
}

/* The wavelets the engine runs (lwk_tile2d_supported adds the run-time
 * rules): every separable one in float, those with an integer variant on
 * int32. */
template <class T> static constexpr bool tile_runs(int W)
{
    return lwc_separable(W) && (!std::is_same<T, int32_t>::value || lwc_has_integer(W));
}

template <class T, int IL>
static cudaError_t tile_dispatch_t(int inverse, const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c,
                                   cudaStream_t s)
{
    return lwc_dispatch_all(t->w.id, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (!tile_runs<T>(W)) {
            return cudaErrorInvalidValue;
        } else if constexpr (std::is_same<T, int32_t>::value) {
            return tile_run_int<W, IL>(inverse, t, a, b, c, s);
        } else {
            return tile_run<T, W, IL>(inverse, t, a, b, c, s);
        }
    });
}

/* Every kernel of one layout (IL 0: Mallat, 1: interleaved, 2: interleaved inverse with the joined
 * window) for every storage type */
template <int IL>
static cudaError_t tile_dispatch(int dtype, int inverse, const lwk_tile2d *t, lwk_plane a, lwk_plane b, lwk_plane c,
                                 cudaStream_t s)
{
    return lwd_by_dtype(dtype, [&](auto ty) { return tile_dispatch_t<LWD_TYPE_OF(ty), IL>(inverse, t, a, b, c, s); });
}

#endif
