/* Tuned CPU backend ("cpu"): shared declarations of its files.
 *
 *   fast_dispatch.c     SIMD path choice (cpuid, the tuning's simd) and thread count
 *   fast_simd_*.c       per-ISA kernels (one templated body: fast_tmpl_*.h):
 *                       step loops, fused two-tap kernels, split / merge
 *   fast_line.c         1-D lifting of one line segment along a contiguous
 *                       (or strided) axis held split: load, lift, store
 *   fast_nd.c           the single-loop pipeline: lifting along the slow axes
 *                       on a ring of sub-blocks, each finished sub-block handed
 *                       to the next axis while hot in cache; items, strips
 *                       and 3-D tiles over OpenMP threads
 *   fast_fs.c           Faber-Schauder with 2-3 active axes (non-separable)
 *   fast_adjoint.c      the adjoint directions: transposed steps along lines
 *   fast_adjoint_fs.c   ... and of Faber-Schauder over several axes
 *   fast_backend.c      plan / execute: levels (out of place, lowpass to the
 *                       next level's buffer), scratch cache, batches, integer
 *                       overflow guard with exact fallback
 * Design notes and measurements: bench/NOTES-cpu.md.
 *
 * Internal; not installed. */
#ifndef LW_FAST_INTERNAL_H
#define LW_FAST_INTERNAL_H

#include "../core/cycles.h" /* lw_mallat_pos */
#include "../core/lw_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef LW_HAVE_OPENMP
#include <omp.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- SIMD paths ----------------------------------------------------------- */

typedef enum lw_simd {
    LW_SIMD_SCALAR = 0,
    LW_SIMD_SSE2 = 1,
    LW_SIMD_AVX2 = 2,
    LW_SIMD_AVX512 = 3,
    LW_SIMD_COUNT = 4
} lw_simd;

/* One lifting step prepared for the kernels.  dst[j] +=/-= delta(j) with
 *   float:   delta = sum_i w[i] * nb[i][j]     (kind selects the grouping)
 *   integer: delta = sign * ((sum_i c[i] * nb[i][j] + add) >> shift)
 * Integer kernels also OR into *guard when a value read or written lies
 * outside (-glim, glim): beyond that the int32 arithmetic could overflow. */
enum { LW_FK_1 = 0, LW_FK_2 = 1, LW_FK_2S = 2, LW_FK_4S = 3 };

typedef struct lw_fstep {
    int target_odd;
    int ntaps;
    int off[LW_MAX_TAPS];
    int kind;
    float wf[LW_MAX_TAPS];
    double wd[LW_MAX_TAPS];
    int32_t ic[LW_MAX_TAPS];
    int32_t iadd, ishift, isign;
    uint32_t gbias, glim; /* guard: (uint32)(x + gbias) > glim means |x| >= gbias + 1 */
} lw_fstep;

typedef void (*lw_k_step)(void *dst, const void *const *nb, size_t n, const lw_fstep *s, int inverse,
                          int *guard);
/* dst[i] = src[i] * f (integer types: copy). dst and src do not overlap. */
typedef void (*lw_k_scale)(void *dst, const void *src, size_t n, double f);
/* L[i] = src[2i] * fl, H[i] = src[2i+1] * fh for i < npairs. */
typedef void (*lw_k_split)(const void *src, void *lo, void *hi, size_t npairs, double fl, double fh);
/* dst[2i] = L[i] * fl, dst[2i+1] = H[i] * fh for i < npairs. */
typedef void (*lw_k_merge)(void *dst, const void *lo, const void *hi, size_t npairs, double fl, double fh);

/* Forward lift2s may store whole final blocks straight to their outputs:
 * L index j to dl[j + offl] times fl when jl0 <= j < jl1 (likewise H); other
 * blocks stay in place.  nt: streaming stores where aligned. */
typedef struct lw_lift_out {
    void *dl, *dh;
    ptrdiff_t offl, offh;
    size_t jl0, jl1, jh0, jh1;
    double fl, fh;
    int nt;
    int discard; /* blocks not stored out are dropped (else kept in place) */
    int noscale; /* store without the factors fl, fh (inverse: to a ring row) */
} lw_lift_out;

struct lw_row_prog;

typedef struct lw_fkern {
    lw_k_step step;
    lw_k_scale scale;
    lw_k_split split;
    lw_k_merge merge;
    lw_k_scale scale_nt; /* same, with streaming stores (large outputs) */
    lw_k_merge merge_nt;
    /* all steps of a "P, U, P, U" two-tap wavelet in one pass over a split
     * line (see fast_tmpl_type.h); NULL on the scalar path */
    void (*lift2s)(void *lo, void *hi, size_t nblk, const lw_fstep *steps, int nsteps, int inverse, int *guard,
                   const struct lw_lift_out *out);
    int lanes; /* elements per vector (1: scalar) */
    /* the same steps down a ring of rows: rows[0] = row i, rows[q] = row i-q */
    void (*vchain)(void *const *rows, size_t n, const lw_fstep *steps, int nsteps, int inverse, int *guard);
    /* whole rows through a line buffer (fast_row.c, lw_row_fwd / lw_row_inv);
     * NULL where lift2s is */
    void (*row_fwd)(const struct lw_row_prog *r, const void *row, void *buf, void *dst, void *lo, double f, int nt,
                    int *guard);
    void (*row_inv)(const struct lw_row_prog *r, const void *src, const void *lo, void *buf, void *row, double f,
                    int *guard);
    void (*row_load)(const struct lw_row_prog *r, const void *src, void *row);
    /* inverse, rows last: a forward-geometry row program (fb1 > fb0, four
     * float steps) -> samples in natural order (lw_row_inv_merge); NULL on
     * the scalar path and for integers */
    void (*row_invm)(const struct lw_row_prog *r, const void *row, void *buf, void *dst, int nt);
    /* four float steps: `iters` interior iterations of vchain down rows at
     * a fixed distance (lw_fast_vsweep); NULL for integers */
    void (*vwalk)(void *row_i0, size_t stride, size_t iters, size_t n, const lw_fstep *steps, int inverse);
} lw_fkern;

/* Kernel tables, indexed by dtype (LW_FLOAT32, LW_FLOAT64, LW_INT32). */
extern const lw_fkern lw_fk_scalar[3];
#if defined(__x86_64__) || defined(__i386__)
#define LW_FAST_X86 1
extern const lw_fkern lw_fk_sse2[3];
extern const lw_fkern lw_fk_avx2[3];
extern const lw_fkern lw_fk_avx512[3];
#endif

/* Whether this CPU (and build) can run a path. */
int lw_simd_supported(lw_simd s);
/* The path to use: the tuning's `simd` (0 = auto: the best supported one;
 * else 1 + the requested lw_simd, which this CPU must support, or
 * LW_ERR_UNSUPPORTED naming it). */
lw_status lw_simd_choose(int want, lw_simd *out);
const char *lw_simd_name(lw_simd s);
lw_status lw_simd_parse(const char *name, lw_simd *s);
const lw_fkern *lw_simd_kernels(lw_simd s, lw_dtype t);

/* Orders this thread's earlier streaming stores (the kernels' streaming
 * stores are not fenced one by one): called by each thread after its share
 * of a level. */
void lw_fast_store_fence(void);

/* Threads a plan asking for `requested` (lw_config.threads) runs on: the
 * request when > 0, else the OpenMP default (OMP_NUM_THREADS,
 * omp_set_num_threads); 1 without OpenMP. */
int lw_cpu_threads(int requested);

/* Timeline of the 3-D engine's parallel region, for perf_cpu -T (a
 * diagnostic: one plan at a time; NULL, the default, turns it off).  Times
 * are CLOCK_MONOTONIC seconds. */
#define LW_TRACE_THREADS 256
typedef struct lw_vol_trace {
    double t0, t1; /* before the region is entered / after it is left */
    int nthreads;
    double begin[LW_TRACE_THREADS]; /* a thread enters the region */
    double ready[LW_TRACE_THREADS]; /* its scratch is cleared */
    double end[LW_TRACE_THREADS];   /* its last unit is done */
    double busy[LW_TRACE_THREADS];  /* time inside its units */
    int units[LW_TRACE_THREADS];
} lw_vol_trace;
extern lw_vol_trace *lw_vol_trace_sink;
double lw_trace_now(void);

/* ---- plan-time tables ----------------------------------------------------- */

typedef struct lw_fast_plan {
    lw_simd simd;
    const lw_fkern *k;
    int nsteps;
    lw_fstep steps[LW_MAX_STEPS];
    int D;            /* max |offset| of any step */
    int E;            /* halo rows of a strip window: nsteps * D */
    double zl, zh;    /* zeta low / high (float path) */
    int isint;
    size_t es;        /* element size */
    int fused;        /* lines lifted by k->lift2s (cdf53, cdf97, fs) */
    /* level buffers kept between executions (fresh pages cost more than the
     * transform); one execute at a time uses them, concurrent ones malloc */
    void *cache;
    size_t cache_size;
    volatile int cache_busy; /* taken with __atomic builtins */
    lw_tuning tune;   /* the plan's knobs */
    int threads;      /* threads of every execute */
    int engine;       /* forced engine (lw_config.scheme), -1: per level the first that applies */
    lw_direction run; /* the structure the levels run: the plan's direction, or for a periodic
                       * adjoint the inverse / forward of the transposed steps (lw_wavelet_transpose) */
} lw_fast_plan;

/* ---- the windowed 1-D line lifting (fast_line.c) --------------------------- */

/* n groups of G contiguous elements at element strides ds / ss:
 * dst[j * ds + c] = src[j * ss + c] * f for c < G (integer types copied), as
 * k->scale does for unit strides: the strided lines of arrays with channels
 * after the transformed axes (G = 1), one loop instead of a kernel call a
 * sample. */
void lw_scale_groups(const lw_fast_plan *fp, char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, int64_t G,
                     double f);

/* A window of a line held split: the samples t of [x0, x1) (x0 even; the
 * core window [w0, w1) plus margins for the fused kernel) as even samples
 * L[(t - x0) / 2] from index 0, then odd samples H[(t - x0 - 1) / 2] from
 * index hoff; fmt elements in all, padded so that consecutive split rows stay
 * 64-byte aligned and the fused kernel may read past the ends.
 *
 * A sample may be a group of G contiguous elements (the channels of a
 * channels-last image, (H, W, C) over axes 0, 1): sample t's group then sits
 * at element G * (t - x0) / 2 of its half, so each half holds its groups
 * contiguously, a lifting step is one vector loop over count * G elements
 * with neighbours G elements apart, and the channels ride in the SIMD lanes.
 * Such lines take the generic steps (no margins: the fused kernel's
 * neighbours are one element apart). */
typedef struct lw_line_geom {
    int64_t n;        /* line length */
    int64_t w0, w1;   /* core window */
    int64_t x0, x1;   /* held window */
    int64_t cl, ch;   /* even / odd samples held */
    int64_t G;        /* elements per sample (1, or the channels of a group) */
    size_t nblk;      /* vector blocks of the fused kernel */
    size_t hoff, fmt;
} lw_line_geom;

void lw_line_geom_init(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, lw_line_geom *g);
/* lw_line_geom_init for samples of G contiguous elements (G = 1: the same). */
void lw_line_geom_group(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t G,
                        lw_line_geom *g);
/* The same with x0 / 2 a multiple of the vector lanes (fused wavelets), so
 * that whole blocks of the fused kernel land aligned in a Mallat row whose
 * halves start aligned (at the cost of up to a block of extra margin). */
void lw_line_geom_aligned(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1,
                          lw_line_geom *g);
/* The same with (x0 - phase) a multiple of 2 * lanes instead (phase even):
 * whole blocks of the fused kernel then map onto whole blocks of a compact
 * row whose x0 is phase. */
void lw_line_geom_phase(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1, int64_t phase,
                        lw_line_geom *g);
/* The same window held compactly: no margins, no padding beyond a cache
 * line per half (the vertical steps of fast_vol.c touch only samples); for
 * wavelets without the fused kernel this equals lw_line_geom_init. */
void lw_line_geom_compact(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1,
                          lw_line_geom *g);
/* Copy the samples held in both geometries (even x0 each) from src (gs) to
 * dst (gd). */
void lw_line_convert(const lw_fast_plan *fp, const lw_line_geom *gs, const char *src, const lw_line_geom *gd,
                     char *dst);

/* Load the window's samples from a line (element stride ss between samples;
 * a group's elements contiguous), times f. */
void lw_line_load_fwd(const lw_fast_plan *fp, const lw_line_geom *g, const char *src, int64_t ss, char *base,
                      double f);
/* Load the window's coefficients (Mallat or interleaved order, stride ss;
 * the lowpass ones from lo (stride ls) when lo != NULL), divided by the zetas
 * and times f. */
void lw_line_load_inv(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, const char *src, int64_t ss,
                      const char *lo, int64_t ls, char *base, double f);
/* The lifting steps, in place (forward order, or reverse with inverse). */
/* Window samples [t0, t1) of a loaded line from kept (G elements each, in
 * order), times fe on even and fo on odd samples: in place, the samples of a
 * segment's window that the segments beside it may have stored */
void lw_line_patch(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int64_t t0, int64_t t1,
                   const char *kept, double fe, double fo);
void lw_line_lift(const lw_fast_plan *fp, const lw_line_geom *g, char *base, int inverse, int *guard);
/* Store outputs [o0, o1) as coefficients times f and their zeta, in Mallat
 * or interleaved order (element stride ds); lowpass ones to lo (stride ls)
 * when lo != NULL.  nt: streaming stores. */
void lw_line_store_fwd(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, const char *base, char *dst,
                       int64_t ds, char *lo, int64_t ls, int64_t o0, int64_t o1, double f, int nt);
/* lw_line_lift forward then lw_line_store_fwd, fused where possible. */
void lw_line_lift_store_fwd(const lw_fast_plan *fp, const lw_line_geom *g, int mallat, char *base, char *dst,
                            int64_t ds, char *lo, int64_t ls, int64_t o0, int64_t o1, double f, int nt, int *guard);
/* Store samples [o0, o1) in natural order (stride ds), times f. */
void lw_line_store_inv(const lw_fast_plan *fp, const lw_line_geom *g, const char *base, char *dst, int64_t ds,
                       int64_t o0, int64_t o1, double f, int nt);

/* Scratch of lw_line_fwd / lw_line_inv for windows of up to wmax samples of
 * G elements. */
size_t lw_line_scratch_bytes(const lw_fast_plan *fp, int64_t wmax, int64_t G);

/* ---- whole rows between a compact ring and a line buffer (fast_row.c) ------ */

#define LW_ROW_MARGIN 16
/* Per-level program of the fused wavelets' whole-row lifting for fast_vol.c:
 * compact ring form rg, line buffer form g (aligned, with margins), and the
 * copies, margins and output ranges of a row, computed once; run by the
 * kernels k->row_fwd / k->row_inv.  Buffer indices count elements from the
 * buffer's start (H half from g.hoff). */
typedef struct lw_row_prog {
    const lw_fast_plan *fp;
    lw_line_geom rg, g;
    double zl, zh;                            /* the plan's zetas */
    int64_t cl_n, ch_n, cl_at, ch_at;         /* ring row <-> buffer */
    int nm;                                   /* margin copies buf[md] = buf[ms] */
    int64_t md[LW_ROW_MARGIN], ms[LW_ROW_MARGIN];
    int64_t zl_end, zh_end, rl_at, rh_at;     /* zero [0, zl_end) (L), [hoff, zh_end) (H), from rl_at / rh_at */
    int discard;                              /* forward: no leftovers, and the junk the kernel
                                               * would store back is dropped (stays zero) */
    int64_t offl, offh, jl0, jl1, jh0, jh1;   /* forward: lw_lift_out ranges */
    int64_t lol[4], loh[4];                   /* forward: leftover (start, count) x2 */
    int64_t ie, ne, ie_at, io, no, io_at;     /* inverse: the two core runs (first sample, count, buffer index) */
    int64_t ril[4], rih[4];                   /* inverse: buffer index ranges (start, count) x2 of the
                                               * ring row not covered by whole blocks (H: from hoff) */
    int nw;                                   /* periodic halo samples of the buffer (both directions) */
    int64_t wd[LW_ROW_MARGIN], wu[LW_ROW_MARGIN];
    int64_t ws[LW_ROW_MARGIN];                /* inverse: ... copied from buffer index ws (a core sample) */
    /* load (forward, unit-stride rows): the pairs of [0, n) split to ring
     * indices ld_l (even) / ld_h (odd), an odd last sample to ld_t (-1: none),
     * then the periodic halo copied inside the ring row: row[hd] = row[hs] */
    int64_t ld_l, ld_h, ld_np, ld_t;
    int nh;
    int64_t hd[LW_ROW_MARGIN], hs[LW_ROW_MARGIN];
    /* forward: every output in the whole blocks [fb0, fb1) of both halves
     * (fb1 > fb0: the kernels' branch-free path for four steps) */
    int64_t fb0, fb1;
    /* ... and where edge > 0, blocks [rb0, rb1) are read straight from the
     * ring row (every sample they read is held there), so only the edge
     * samples are copied into the buffer: L [cl_at, +eh_l), [et_l, +en_l),
     * H (from hoff) [ch_at - hoff, +eh_h), [et_h, +en_h) */
    int edge;
    int64_t rb0, rb1, eh_l, et_l, en_l, eh_h, et_h, en_h;
    /* inverse: blocks stored straight to the ring row, [bl0, bl1) of L and
     * [bh0, bh1) of H (buffer block indices); the others go back to the
     * buffer and their samples are copied (ril, rih) */
    int64_t bl0, bl1, bh0, bh1;
    /* inverse in phase (whole > 0): every ring sample lies in the L blocks
     * [k0, kl1) and H blocks [k0, kh1), stored whole (the ring row's padding
     * takes the spill); the other blocks are dropped, so the buffer outside
     * core, halo and margins stays zero without clearing */
    int whole;
    int64_t k0, kl1, kh1;
} lw_row_prog;

/* Whole rows of length n for forward (inverse 0) or inverse levels; 0 when
 * this plan cannot.  narrow: the ring row (rg) holds [0, n) even when
 * periodic, the halo being copied into the buffer by the row kernels (only
 * for k->row_fwd / k->row_inv users).  0 when
 * this plan cannot (not fused, or margins wider than LW_ROW_MARGIN).  The
 * forward buffer is aligned for whole-block (streaming) stores to Mallat
 * rows; the inverse one in phase with the ring row (whole blocks map onto
 * whole blocks of the ring row, its padding taking the last one's spill). */
int lw_row_init(lw_row_prog *r, const lw_fast_plan *fp, lw_mode mode, int64_t n, int inverse, int narrow);
/* Forward: ring row -> buffer -> lifted, stored in Mallat order to dst (unit
 * stride), the lowpass half to lo (unit stride) when lo != NULL; times f and
 * the zetas; nt: streaming stores.  buf: g.fmt elements, zeroed before the
 * first row of a level and then used only by these two. */
static inline void lw_row_fwd(const lw_row_prog *r, const char *row, char *buf, char *dst, char *lo, double f,
                              int nt, int *guard)
{
    r->fp->k->row_fwd(r, row, buf, dst, lo, f, nt, guard);
}
/* Inverse: a Mallat row of coefficients (unit stride; the lowpass half from
 * lo when lo != NULL) times f over the zetas -> buffer -> lifted back -> ring
 * row. */
static inline void lw_row_inv(const lw_row_prog *r, const char *src, const char *lo, char *buf, char *row, double f,
                              int *guard)
{
    r->fp->k->row_inv(r, src, lo, buf, row, f, guard);
}
/* Inverse with the rows last (fast_vol.c): the program r is a forward one
 * (lw_row_init, inverse 0) with lw_row_merge_ok; the ring row holds
 * coefficients already divided by their zetas and lifted back along the
 * other axes; lifted back along the row and stored in natural order to dst
 * (unit stride).  nt: streaming stores. */
static inline void lw_row_inv_merge(const lw_row_prog *r, const char *row, char *buf, char *dst, int nt)
{
    r->fp->k->row_invm(r, row, buf, dst, nt);
}
/* Whether lw_row_inv_merge can run program r (a forward one). */
int lw_row_merge_ok(const lw_row_prog *r);
/* Load a unit-stride row of the input into its compact ring form (rg),
 * periodic halo included. */
static inline void lw_row_load(const lw_row_prog *r, const char *src, char *row)
{
    r->fp->k->row_load(r, src, row);
}

/* Whole segment [o0, o1) of a line of samples of G elements: load, lift,
 * store (scratch per thread). */
void lw_line_fwd(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, char *dst,
                 int64_t ds, char *lo, int64_t ls, int64_t n, int64_t G, int64_t o0, int64_t o1, double fin, int nt,
                 void *scratch, int *guard);
void lw_line_inv(const lw_fast_plan *fp, lw_mode mode, int mallat, const char *src, int64_t ss, const char *lo,
                 int64_t ls, char *dst, int64_t ds, int64_t n, int64_t G, int64_t o0, int64_t o1, double fout, int nt,
                 void *scratch, int *guard);

/* Window [w0, w1) holding every sample that outputs [o0, o1) depend on. */
static inline void lw_fast_window(const lw_fast_plan *fp, lw_mode mode, int64_t n, int64_t o0, int64_t o1,
                                  int64_t *w0, int64_t *w1)
{
    *w0 = o0 - fp->E;
    *w1 = o1 + fp->E;
    if (mode != LW_PERIODIC) {
        if (*w0 < 0) *w0 = 0;
        if (*w1 > n) *w1 = n;
    }
}

/* cnt samples of G elements each from `from` to `to`, sample strides fst and
 * tst (elements): one memcpy where both are dense */
static inline void lw_fast_copy_samples(char *to, int64_t tst, const char *from, int64_t fst, int64_t cnt, int64_t G,
                                        size_t es)
{
    if (tst == G && fst == G) {
        memcpy(to, from, (size_t)(cnt * G) * es);
        return;
    }
    const size_t b = (size_t)G * es, ts = (size_t)tst * es, fs = (size_t)fst * es;
    /* small samples: copies of a constant size, which compile to loads and stores (a call a
     * sample costs more than the sample) */
    if (b == 4)
        for (int64_t j = 0; j < cnt; j++) memcpy(to + (size_t)j * ts, from + (size_t)j * fs, 4);
    else if (b == 8)
        for (int64_t j = 0; j < cnt; j++) memcpy(to + (size_t)j * ts, from + (size_t)j * fs, 8);
    else if (b % 4 == 0 && b <= 64)
        for (int64_t j = 0; j < cnt; j++)
            for (size_t q = 0; q < b; q += 4) memcpy(to + (size_t)j * ts + q, from + (size_t)j * fs + q, 4);
    else
        for (int64_t j = 0; j < cnt; j++) memcpy(to + (size_t)j * ts, from + (size_t)j * fs, b);
}

/* In place, the copy a unit keeps of the window beyond its own [o0, o1) of
 * an axis of n: 2E entries, entry r < E window index o0 - E + r (before the
 * unit), else o1 + r - E (after it).  lw_fast_kept_source (below) gives an
 * entry's item and sample; lw_fast_kept_entry the entry of a window index
 * outside [o0, o1). */
static inline int64_t lw_fast_kept_entry(int64_t i, int64_t o0, int64_t o1, int64_t E)
{
    return i < o0 ? i - (o0 - E) : E + (i - o1);
}

/* Index of u inside the window [w0, w1) by whole-sample reflection at its
 * ends: the true symmetric boundary when the window is the whole axis, a
 * don't-care value (outside every output's dependency cone) otherwise. */
static inline int64_t lw_fast_reflect(int64_t u, int64_t w0, int64_t w1)
{
    if (u >= w0 && u < w1) return u;
    return w0 + lw_boundary_index(u - w0, w1 - w0, LW_SYMMETRIC);
}

static inline int64_t lw_wrap(int64_t i, int64_t n)
{
    if (i >= 0 && i < n) return i;
    int64_t r = i % n;
    return r < 0 ? r + n : r;
}

/* Entry k of the kept copy of items x units x 2E entries, units of seg along
 * an axis of n: its item and the sample v it holds (wrapped where periodic);
 * 0 where no window reads that entry. */
static inline int lw_fast_kept_source(int64_t k, int64_t nunits, int64_t seg, int64_t n, int64_t E, lw_mode mode,
                                      int64_t *item, int64_t *v)
{
    const int64_t r = k % (2 * E), unit = (k / (2 * E)) % nunits;
    const int64_t o0 = unit * seg, o1 = o0 + seg < n ? o0 + seg : n, i = r < E ? o0 - E + r : o1 + (r - E);
    *item = k / (2 * E) / nunits;
    *v = lw_wrap(i, n);
    return o0 < o1 && (mode == LW_PERIODIC || (i >= 0 && i < n));
}

/* ---- the nD single-loop pipeline (fast_nd.c) ------------------------------ */

/* One level of one problem: nv slow ("vertical") axes lifted through rings of
 * sub-blocks, then either a lifted line (hlift) or a plain vector of rowlen
 * contiguous batch elements per row. */
typedef struct lw_fast_level {
    const lw_fast_plan *fp;
    lw_mode mode;
    int mallat;
    int inverse;
    int nv;                    /* vertical axes, 0..3 */
    int64_t n[LW_MAX_AXES];    /* their lengths at this level */
    int64_t ss[LW_MAX_AXES];   /* src strides (elements) */
    int64_t ds[LW_MAX_AXES];   /* dst strides */
    int hlift;                 /* 1: rows are lines lifted along the last axis */
    int nt;                    /* streaming stores for dst and ll (large levels) */
    int64_t rowlen;            /* line length (hlift) or vector length */
    int64_t G;                 /* hlift: elements per sample of a row (its channels, contiguous), else 1 */
    int64_t srs, drs;          /* element stride along the row (src, dst) */
    /* the all-lowpass samples (even index on every axis) go to / come from a
     * separate dense buffer when has_ll: forward writes the next level's
     * input there, inverse reads the previous level's output from there */
    int has_ll;
    int64_t ls[LW_MAX_AXES], lrs;
    /* items: up to 4 batch axes */
    int nb;
    int64_t bn[LW_MAX_RANK], bss[LW_MAX_RANK], bds[LW_MAX_RANK], bls[LW_MAX_RANK];
    /* Mallat layout with dim 0's rows left in sample order, each row in Mallat
     * order within itself (nv == 1): the in-place route, whose rows then move
     * to their Mallat rows (fast_rows.c).  On a line (nv == 0, mallat then 0):
     * each chunk of lw_fast_line_chunk samples in Mallat order within itself,
     * the chunks' halves then moved (fast_rows.c) */
    int vil;
    int fsmode;                /* non-separable Faber-Schauder over the nv axes */
    int adjoint;               /* an adjoint direction: the "adjoint" engine, in place */
    const lw_plan *plan;       /* the plan, and the level (0-based) described */
    int level;
} lw_fast_level;

/* The chunk of a line with vil set: 16 KiB, an even number of samples */
static inline int64_t lw_fast_line_chunk(const lw_fast_level *lv)
{
    const int64_t B = 2 * (int64_t)(16384 / (2 * (size_t)lv->G * lv->fp->es));
    return B < 2 ? 2 : B;
}

/* Where sample v's coefficient lies in a line of n with chunks of B in Mallat
 * order within themselves */
static inline int64_t lw_fast_chunk_pos(int64_t v, int64_t n, int64_t B)
{
    const int64_t c0 = v - v % B, cnt = c0 + B < n ? B : n - c0, r = v - c0;
    return c0 + ((r & 1) ? (cnt + 1) / 2 + (r >> 1) : r >> 1);
}

/* Sub-blocks (rows, tiles of rows, planes) of a window [w0, w1) along a
 * vertical axis: row t at base + ((t - w0) mod R) * stride elements (a ring
 * of R slots), or at base + (t - w0) * stride when R is 0. */
typedef struct lw_vrows {
    char *base;
    int64_t R;
    size_t stride;
    int64_t w0, w1;
} lw_vrows;

/* The vertical lifting steps of iteration i of the single loop (see
 * fast_nd.c): step q on row i - q*D, over n elements of each row (forward
 * order, or reverse with inverse); neighbours outside the window reflected. */
void lw_fast_vsteps(const lw_fast_plan *fp, const lw_vrows *v, int64_t i, int inverse, size_t n, int *guard);

/* lw_fast_vsteps for the iterations [i0, i1) over rows at a fixed distance
 * (v->R == 0), the interior ones as a column walk (k->vwalk) where the plan
 * has one: per element the same operations in the same order. */
void lw_fast_vsweep(const lw_fast_plan *fp, const lw_vrows *v, int64_t i0, int64_t i1, int inverse, size_t n,
                    int *guard);

/* ---- engines (fast_engines.c) ------------------------------------------------
 * An engine runs one level from src to dst (distinct buffers, ll a third one
 * or NULL) on `threads` threads; scratch holds threads * per_thread bytes
 * (64-byte aligned, per_thread from its scratch()), or is NULL (then each
 * thread allocates its own). */
typedef struct lw_cpu_engine {
    const char *name;
    int (*applies)(const lw_fast_level *lv);
    size_t (*scratch)(const lw_fast_level *lv); /* per thread, 64-byte multiple */
    lw_status (*run)(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                     char *scratch, size_t per_thread);
    /* Whether run() may be given src == dst (in place: it reads every sample
     * before any thread stores over it): 1 as the level is; 2 for a Mallat
     * level run with vil set, its rows moved after (forward) or before
     * (inverse) by lw_fast_move_rows; NULL or 0: the caller copies the input
     * to a buffer of its own first */
    int (*in_place)(const lw_fast_level *lv);
    /* in place, the bytes beyond the array it keeps on `threads` threads
     * besides its per-thread scratch (NULL: none) */
    size_t (*in_place_bytes)(const lw_fast_level *lv, int threads);
    const char *about;
} lw_cpu_engine;

int lw_cpu_engine_count(void);
const lw_cpu_engine *lw_cpu_engine_at(int i);
int lw_cpu_engine_find(const char *name); /* -1 if none has that name */
/* The engine of a level: the plan's forced one (fp->engine >= 0), else the
 * first whose rule applies. */
const lw_cpu_engine *lw_cpu_engine_for(const lw_fast_level *lv);
/* The engine of a level run in place (src == dst): lw_cpu_engine_for's, where
 * it runs the level in place (*route: its in_place()); NULL (route 0) where
 * not.  No other engine stands in: in place gives the bits out of place
 * gives, and the engines' roundings may differ (the vol and nd engines' float64
 * Mallat inverses do) */
const lw_cpu_engine *lw_cpu_engine_in_place_for(const lw_fast_level *lv, int *route);

/* The "nd" engine (fast_nd.c). */
size_t lw_fast_nd_scratch(const lw_fast_level *lv);
/* Whether it runs the level in place (src == dst): lines (no vertical axis),
 * or one vertical axis with the interleaved layout or Mallat with vil set,
 * as is (1); Mallat with its rows in sample order (2: set vil).  Each
 * segment of a line or strip of rows takes the E samples or rows its window
 * reads beyond each of its ends from a copy made before any unit stores */
int lw_fast_nd_in_place(const lw_fast_level *lv);
/* The bytes of that copy for `threads` threads (0 where none is needed) */
size_t lw_fast_nd_in_place_bytes(const lw_fast_level *lv, int threads);
/* The calling thread's number in the innermost OpenMP team (0 without OpenMP) */
static inline int lw_fast_thread_num(void)
{
#ifdef LW_HAVE_OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/* Element offsets of batch item `item` (C order over the level's batch axes) in src, dst and ll */
static inline void lw_fast_item_offsets(const lw_fast_level *lv, int64_t item, int64_t *so, int64_t *dof,
                                        int64_t *lof)
{
    int64_t rem = item;
    *so = *dof = *lof = 0;
    for (int b = (lv->nb < LW_MAX_RANK ? lv->nb : LW_MAX_RANK) - 1; b >= 0; b--) {
        const int64_t ib = rem % lv->bn[b];
        rem /= lv->bn[b];
        *so += ib * lv->bss[b];
        *dof += ib * lv->bds[b];
        *lof += ib * lv->bls[b];
    }
}

/* Bytes a thread's working buffers may take: the core's L2 (256 KiB .. 2 MiB) or tuning ring_kb */
size_t lw_fast_cache_budget(const lw_tuning *t);
/* The vol engine in place (fast_vol.c): strips of whole planes that keep the
 * 2E planes their windows read beyond them; Mallat with the planes in sample
 * order (2: set vil) */
int lw_fast_vol_in_place(const lw_fast_level *lv);
size_t lw_fast_vol_in_place_bytes(const lw_fast_level *lv, int threads);
/* The planes engine (fast_planes.c): batches of small 2-D items as channels last */
int lw_fast_planes_applies(const lw_fast_level *lv);
size_t lw_fast_planes_scratch(const lw_fast_level *lv);
lw_status lw_fast_planes_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                             char *scratch, size_t per_thread);
/* In place: a chunk's items are read whole into scratch before any is written */
int lw_fast_planes_in_place(const lw_fast_level *lv);
size_t lw_fast_planes_in_place_bytes(const lw_fast_level *lv, int threads);

/* The sub-blocks of dim 0 (rows, nv 1; planes, nv 2) of every item of a
 * level in place between sample order and Mallat order (fast_rows.c):
 * to_mallat 1 moves sub-block t to lw_mallat_pos(t, n) of dst (after a
 * forward level run with vil), 0 the reverse in src (before an inverse one) */
lw_status lw_fast_move_rows(const lw_fast_level *lv, char *data, int to_mallat, int threads);
/* One cycle of that move, from its leader p: n rows at base + r * st
 * elements, cnt samples of G elements a row at stride rs; buf holds cnt * G
 * elements */
void lw_fast_walk_cycle(char *base, int64_t n, int64_t st, int64_t rs, int64_t cnt, int64_t G, size_t es, int64_t p,
                        char *buf, int to_mallat);
lw_status lw_fast_nd_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                         char *scratch, size_t per_thread);

/* ---- levels with two vertical axes and a lifted row (fast_vol.c) ----------- */

/* The "vol" engine: whether it takes this level, its scratch and run. */
int lw_fast_vol_applies(const lw_fast_level *lv);
size_t lw_fast_vol_scratch(const lw_fast_level *lv);
lw_status lw_fast_vol_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                          char *scratch, size_t per_thread);

/* ---- the adjoint directions (fast_adjoint.c) ---------------------------------- */

/* The "adjoint" engine: adjoint levels, run in place (src == dst, the whole
 * array; ll unused), lines (or, for fs over several axes, samples) over
 * threads. */
int lw_fast_adjoint_applies(const lw_fast_level *lv);
size_t lw_fast_adjoint_scratch(const lw_fast_level *lv);
lw_status lw_fast_adjoint_run(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard,
                              char *scratch, size_t per_thread);
/* One pass along transformed axis a of level k in place: lines read (in
 * Mallat order when read_mallat), lifted by the plan's adjoint when lift,
 * written back (Mallat order when write_mallat). */
lw_status lw_fast_adjoint_axis(const lw_plan *p, int k, int a, char *x, int threads, int read_mallat,
                               int write_mallat, int lift);
/* Level k of the adjoint of Faber-Schauder over several axes, in place
 * (fast_adjoint_fs.c). */
lw_status lw_fast_adjoint_fs_level(const lw_plan *p, int k, char *x, int threads);

/* ---- Faber-Schauder with several active axes (fast_fs.c) ------------------- */

/* One level (lv->nv active axes, rowlen 1) from src to dst, for every item;
 * the all-even samples to / from ll when lv->has_ll, as in fast_nd.c. */
lw_status lw_fast_fs_level(const lw_fast_level *lv, const char *src, char *dst, char *ll, int threads, int *guard);
/* 1 where a level runs in place (interleaved, no lowpass buffer), else 0 */
int lw_fast_fs_in_place(const lw_fast_level *lv);

/* ---- backend entry points (fast_backend.c) --------------------------------- */

lw_status lw_fast_plan_create(lw_plan *plan);
/* The SIMD path name of a plan that runs on the tuned cpu backend, else NULL
 * (for benchmark records). */
const char *lw_cpu_plan_simd(const lw_plan *plan);
lw_status lw_fast_execute(const lw_plan *plan, const void *in, void *out);
void lw_fast_describe(const lw_plan *plan, char *buf, size_t len);
void lw_fast_destroy(lw_plan *plan);

/* ---- half storage on the float32 engines (fast_half.c) --------------------- */

/* The backend entry points above hand a half plan to these. */
lw_status lw_half_plan_create(lw_plan *plan);
lw_status lw_half_execute(const lw_plan *plan, const void *in, void *out);
void lw_half_describe(const lw_plan *plan, char *buf, size_t len);
void lw_half_destroy(lw_plan *plan);
/* the float32 plan a half plan runs on its scratch */
const lw_plan *lw_half_inner(const lw_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
