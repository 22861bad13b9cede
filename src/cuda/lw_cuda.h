/* CUDA backend internals shared by the host code (C) and the kernel files
 * (.cu).  Plain C structs passed by value to the kernels; each kernel family
 * has one small extern "C" launcher that returns a cudaError_t. */
#ifndef LW_CUDA_H
#define LW_CUDA_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "../core/line_geom.h"
#include "../core/lw_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per device (device_cache.c): cudaFuncSetAttribute(f, attr, value) on the
 * current device, asked once per function, attribute and device (function
 * attributes belong to a device's context, so each device a process runs on
 * needs its own); and values remembered per key, tag and current device
 * (lw_cuda_memo_get: 1 and *value when known). */
cudaError_t lw_cuda_func_attr(const void *f, int attr, int value);
int lw_cuda_memo_get(const void *key, int tag, long long *value);
void lw_cuda_memo_put(const void *key, int tag, long long value);
/* Blocks of f (threads a block, smem bytes of dynamic shared memory) the
 * current device holds at once, all SMs together (0 and the error when the
 * runtime cannot tell), asked once per function, block size, shared memory
 * and device.  Set f's shared-memory attributes before asking. */
cudaError_t lw_cuda_resident(const void *f, int threads, size_t smem, int64_t *blocks);
#define LW_SMEM_ATTR ((int)cudaFuncAttributeMaxDynamicSharedMemorySize)

/* Lifting table as the kernels read it (copied from lw_wavelet_def). */
typedef struct lwk_wave {
    int id;          /* lw_wavelet */
    int nsteps;
    int target_odd[LW_MAX_STEPS];
    int ntaps[LW_MAX_STEPS];
    int off[LW_MAX_STEPS][LW_MAX_TAPS];
    double wt[LW_MAX_STEPS][LW_MAX_TAPS];
    int icoef[LW_MAX_STEPS][LW_MAX_TAPS];
    int isign[LW_MAX_STEPS], iadd[LW_MAX_STEPS], ishift[LW_MAX_STEPS];
    double zl, zh;
    double izl, izh; /* 1/zl, 1/zh */
    float wtf[LW_MAX_STEPS][LW_MAX_TAPS], zlf, zhf, izlf, izhf; /* float copies */
    int integer; /* integer (reversible) variant */
    int halo;    /* reach of one level, per side */
    int unit_zeta; /* zl == zh == 1 (the plan's band gains folded in): scaling is the identity */
} lwk_wave;

/* A set of lines (src/core/line_geom.h), as the pass kernels take it. */
typedef lw_lines lwk_lines;

/* dtype codes shared with lw_dtype; F16 / BF16 are stored half, computed in
 * float32 (lwd_store in lw_cuda_dev.cuh) */
enum { LWK_F32 = 0, LWK_F64 = 1, LWK_I32 = 2, LWK_F16 = 3, LWK_BF16 = 4 };
/* nonzero for the half storage types */
static inline int lwk_is_half(int dtype) { return dtype == LWK_F16 || dtype == LWK_BF16; }

/* ---- generic pass: one level along one axis (k_pass.cu) ------------------
 * Lines longer than fit in shared memory are cut in segments with a halo;
 * then src and dst must differ.  copy_only: move the lines unchanged.
 * inverse: the coarse-first structure (Mallat order read, scaling first,
 * steps in reverse), that of the inverse and of the forward's adjoint;
 * adjoint: the transposed steps (docs/ADJOINT.md), so that inverse = 1,
 * adjoint = 1 is LW_FORWARD_ADJOINT and inverse = 0, adjoint = 1
 * LW_INVERSE_ADJOINT. */
typedef struct lwk_pass {
    lwk_wave w;
    lwk_lines L;
    int mode, inverse, mallat, copy_only, adjoint;
    const void *src_; /* set by the column-pass launcher */
    void *dst_;
} lwk_pass;

/* Number of segments the pass cuts each line in (1: in place is safe). */
int64_t lwk_pass_segments(int dtype, const lwk_pass *p);
cudaError_t lwk_pass_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t s);
/* In place along long lines (more segments than one): each block walks a
 * chunk of its lines segment by segment, keeping the originals its next
 * window needs, after a stash of the originals around the chunk boundaries
 * (lwk_walk_stash_bytes of scratch).  The coefficients stay at their sample
 * positions (p->mallat must be 0): lwk_permute_launch reorders them. */
size_t lwk_walk_stash_bytes(int dtype, const lwk_pass *p);
cudaError_t lwk_walk_launch(int dtype, const lwk_pass *p, void *data, void *stash, cudaStream_t s);
/* In-place Mallat reorder along the lines by cycles, from their leaders
 * (lw_mallat_cycle_leaders of L->n, on the device, ncyc of them; NULL: the
 * kernel finds them, for lines with many short cycles); inverse: back to the
 * sample positions. */
cudaError_t lwk_permute_launch(int dtype, const lwk_lines *L, const int32_t *leaders, int64_t ncyc, int inverse,
                               void *x, cudaStream_t s);
/* The same reorder along cycles cut in pieces (lw_mallat_cycle_pieces of
 * L->n, on the device), for lines whose cycles are few and long: each piece's
 * neighbour sample saved first (saved: npieces x L->nlines elements of
 * scratch), then a walker a piece and line, none waiting for another. */
cudaError_t lwk_permute_cut_launch(int dtype, const lwk_lines *L, const int32_t *pieces, int64_t npieces, int inverse,
                                   void *x, void *saved, cudaStream_t s);
/* Column pass: lines whose neighbours (dlen[0]) are contiguous, whole lines in
 * shared memory, in place or not.  lwk_colpass_ok says whether it applies. */
int lwk_colpass_ok(int dtype, const lwk_pass *p);
cudaError_t lwk_colpass_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t s);
/* Whole-line passes (k_lines.cu): forward and inverse (not the adjoints or
 * copies) of lines that fit a block's shared memory whole, the wavelet's
 * steps compiled in; in place or not.  lwk_lines_ok says whether one takes
 * the pass; lwk_pass_run (cuda_exec.c) prefers them to the generic kernels. */
int lwk_lines_ok(int dtype, const lwk_pass *p);
cudaError_t lwk_lines_launch(int dtype, const lwk_pass *p, const void *src, void *dst, cudaStream_t s);
/* Plane passes (k_plane.cu): one level along two axes of planes that a
 * thread-block cluster holds whole, in one read and one write, in place or
 * not; X (columns) is the axis of unit stride, rows run along it.  xfirst:
 * the steps along X come first (the order of the two passes they replace). */
typedef struct lwk_planes {
    lwk_wave w;
    int64_t nr, nc;  /* rows (along Y) and columns (along X) */
    int64_t rs, cs;  /* element strides of Y and X */
    int nd;          /* the planes: up to 3 outer dimensions */
    int64_t dlen[3], dstr[3];
    int64_t nplanes;
    int mode, inverse, mallat, xfirst;
    int yonly;       /* lift along Y only: X is a dimension of contiguous samples carried along */
} lwk_planes;
int lwk_plane_ok(int dtype, const lwk_planes *p, const void *src, const void *dst);
/* One-axis passes of nr-row planes over a contiguous dimension of ncx
 * samples: the strip width to cut it in (ncx: none), 0 where no strip fits. */
int64_t lwk_plane_strip(int dtype, int64_t nr, int64_t ncx);
cudaError_t lwk_plane_launch(int dtype, const lwk_planes *p, const void *src, void *dst, cudaStream_t s);

/* ---- local engine: steps inside their pairs (haar), k_local.cu -----------
 * One launch runs F levels (1 <= F <= lwk_local_fmax(D)) along D adjacent
 * dimensions (1 <= D <= 3) of a region whose other dimensions (nbd of them)
 * are a batch.  Each thread transforms its own block of 2^F samples along
 * every transformed dimension (2^X along the last, X >= F, lwk_local_xlog):
 * no sample outside the block is read, so nothing is shared between threads
 * and a block's coefficients may land where its samples were.
 *
 * Views hold a pointer and element strides in the kernel's order of the
 * dimensions: the batch (bshape's order), then the transformed ones.  al: the
 * largest power of two, at most 16, that divides the view's address and
 * every non-last stride in bytes, when the last stride is 1 (else 0); the
 * kernels use vector accesses up to it.
 * Forward: src holds the samples (lengths n), dst receives the level-F
 * lowpass (n >> F), band[j][m - 1] the level-(j + 1) band of mask m (bit
 * D - 1 - a set: highpass along transformed dimension a, as lw_band).
 * Inverse: src holds the level-F lowpass, band[][] the bands, dst receives
 * the samples.  With whole set (below) the coefficients move as blocks
 * instead, through coef. */
#define LWK_LOCAL_MAXF 4
typedef struct lwk_view {
    void *p;
    int64_t st[LW_MAX_RANK];
    int al;
} lwk_view;
typedef struct lwk_local {
    lwk_wave w;
    int D, F, nbd, inverse;
    int wide;                   /* the last dimension's block is 2^lwk_local_xlog(.., 1), else 2^F */
    int strided;                /* wide, in the warp-strided map (lwk_local_strided_ok; blocks along the
                                 * last dimension a multiple of 32) */
    int min_blocks;             /* blocks of 64 samples (lwk_local_bounded): thread blocks an SM the kernel
                                 * is compiled for, 1 (no bound), 4, 5 or 6; else ignored */
    int slabs;                  /* 1: level 1 slab by slab (lwk_local_slabs_ok, not whole); else 0 */
    int64_t bshape[LW_MAX_RANK]; /* batch extents (nbd of them): the array's dims before the transformed
                                  * ones, then the one after them (if ninner) */
    int ninner;                  /* 1: a batch dim after the transformed ones (channels last: an image's
                                  * colours); it varies fastest from thread to thread, so that a warp's
                                  * scalar accesses along x cover a contiguous run; else 0 */
    int64_t n[LW_MAX_AXES];     /* input lengths along the transformed dimensions (multiples of the block) */
    lwk_view src, dst;
    lwk_view band[LWK_LOCAL_MAXF][7];
    /* whole: the coefficients sit where the block's samples are (interleaved
     * layout), so they move as the block, through coef (forward: out's grid
     * of the launch's input; inverse: in's); band[] and, unless low_apart,
     * the lowpass view lie inside it.  low_apart (inverse): the lowpass comes
     * from src instead (a later launch out of place: the previous one wrote
     * it to out). */
    int whole, low_apart;
    lwk_view coef;
} lwk_local;

/* Levels a launch may run for D transformed dimensions. */
int lwk_local_fmax(int D);
/* log2 of a thread's block along the last dimension: F, or more for wide. */
int lwk_local_xlog(int dtype, int D, int F, int wide);
/* 1 if the wide block of F levels over D dimensions may be laid out in the
 * warp-strided map: a thread's 16-byte chunks 32 chunks apart, each holding
 * whole blocks of 2^F samples, so that one warp instruction covers 512
 * contiguous bytes. */
int lwk_local_strided_ok(int dtype, int D, int F);
/* 1 if the kernels of F levels over D dimensions come in the register bounds of min_blocks
 * (a thread's block holds 64 samples: 2-D three levels, 3-D two) */
int lwk_local_bounded(int D, int F);
/* 1 if a launch of F levels over D dimensions, wide or not, may lift level 1 slab by slab (two
 * samples deep along the first transformed dim) when its coefficients go to the bands */
int lwk_local_slabs_ok(int dtype, int D, int F, int wide);
/* 1 if the engine runs this wavelet (steps inside their pairs) for dtype. */
int lwk_local_supported(int dtype, const lwk_wave *w);
cudaError_t lwk_local_launch(int dtype, const lwk_local *k, cudaStream_t s);

/* ---- small engine: whole items in shared memory, several levels (k_small.cu)
 * Item = up to 3 transformed axes; batch = up to 3 other dims.  src and dst
 * may be the same or differ and may have different strides. */
#define LWK_SMALL_MAXLEV 24
typedef struct lwk_small {
    lwk_wave w;
    int na;                          /* transformed axes */
    int64_t sst[3], dst_[3];         /* src / dst element strides of the axes */
    int nb;                          /* batch dims */
    int64_t blen[3], bsst[3], bdst[3];
    int64_t nbatch;
    int k0, nlev;                    /* levels k0 .. k0+nlev-1 (0-based) */
    int len[LWK_SMALL_MAXLEV + 1][3]; /* region lengths at the input of level k0+i */
    int mode, inverse, mallat;
    /* grid step of level k0+i is gstep[i] (interleaved: 2^(k0+i) relative to
     * the strides above, which then describe level 0); mallat: 1 */
    int interleaved;
} lwk_small;

/* Whether the small engine holds an item of these lengths (na axes) of this dtype. */
int lwk_small_fits(int dtype, int na, const int64_t *len);
cudaError_t lwk_small_launch(int dtype, const lwk_small *p, const void *src, void *dst, cudaStream_t s);

/* ---- fused 2-D tile engine (k_tile2d.cu) ---------------------------------
 * One level of a 2-D Mallat transform of rows x cols planes in one kernel.
 * Forward: input interleaved (src), output split in the LL band (dll) and the
 * three detail bands (ddet, which also holds LH/HL/HH at Mallat positions).
 * Inverse: the reverse (sll + sdet in, dst out). */
typedef struct lwk_plane {
    const void *p; /* base pointer */
    int64_t rs;    /* row stride (elements); column stride is 1 */
    int64_t bs[2]; /* batch strides */
    /* A detail plane of the float tile2d engine (tile_vh) holds LH (rows lowpass,
     * columns highpass), HL and HH at Mallat positions (hc, hr*rs, hr*rs + hc
     * from p), or with split set at p + off[0..2]: bands in memory of their own
     * (lw_execute_bands) sharing rs and bs. */
    int64_t off[3];
    int split;
} lwk_plane;

/* A stream beside the caller's, owned by the plan: the end tiles' kernel (d4,
 * symmetric mode) runs on it at the same time as the other tiles' kernel, forked
 * from the caller's stream by ev[0] and joined back to it by ev[1].  Calls on one
 * plan from several threads (host pointers: a stream each) share the events: the
 * caller holds the plan's lock while it launches (lw_tile2d_run). */
typedef struct lwk_side {
    cudaStream_t st;
    cudaEvent_t ev[2];
} lwk_side;

typedef struct lwk_tile2d {
    lwk_wave w;
    int64_t rows, cols;
    int64_t blen[2]; /* batch dims (1 if unused) */
    int mode;
    int64_t row_lo, row_hi; /* forward: input rows handled (chunking); inverse: output rows */
    int tiles;              /* 0 auto, 1 short, 2 long (the plan's tuning key tile2d) */
    int walk;               /* tiles a block walks: 0 auto (tile_walk), else rows of one plane, or planes of a
                             * batch (the tuning key tile2d_walk) */
    int ends;               /* d4, symmetric: the fewest row tiles with which the end tiles run apart, 0 auto
                             * (the tuning key tile2d_ends) */
    lwk_side *side;         /* host only: where the end tiles run apart, their kernel on this stream beside the
                             * others' (NULL: after them, on the same stream) */
} lwk_tile2d;

/* 1 if the fused engine implements this wavelet/mode/dtype on these lengths. */
int lwk_tile2d_supported(int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols);
cudaError_t lwk_tile2d_forward(int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dll, lwk_plane ddet,
                               cudaStream_t s);
cudaError_t lwk_tile2d_inverse(int dtype, const lwk_tile2d *t, lwk_plane sll, lwk_plane sdet, lwk_plane dst,
                               cudaStream_t s);

/* ---- fused 2-D engine, interleaved layout, in place (k_tile2d_ip.cu) ------
 * One level on the grid rows x cols (strides rs, cs) of every plane: each
 * coefficient lands where its sample was.  LL positions (even row and column)
 * are read from ll, the others from det; when either is dst the kernel runs
 * in place (tiles in ticket order, halo originals through a ring of `slots`
 * stash slots of halo * (tw + th) compute-type elements; flags: a counter and
 * two flags a tile, zeroed before every launch).  lwk_tile2d_ip_dims: the
 * tile (tw x th), the halo and the compute type's size. */
typedef struct lwk_tile2d_ip {
    lwk_wave w;
    int64_t rows, cols, rs, cs;
    int64_t blen[2], bs[2]; /* batch dims (1 if unused) and strides */
    int mode;
    int64_t tiles, slots; /* tiles of all planes; slots > tiles a row + 1 */
    unsigned *flags;      /* 1 + 2 * tiles */
    void *stash;
} lwk_tile2d_ip;

void lwk_tile2d_ip_dims(int dtype, int wave_id, int *tw, int *th, int *halo, size_t *csize);
cudaError_t lwk_tile2d_ip_run(int dtype, int inverse, const lwk_tile2d_ip *t, const void *ll, const void *det,
                              void *dst, cudaStream_t s);

/* ---- fused 2-D engine, interleaved layout, by walked strips (k_walk2d.cu) --
 * One level on the grid rows x cols (strides rs, cs) of every plane, each
 * coefficient where its sample was, LL positions read from ll and the others
 * from det as lwk_tile2d_ip does.  Blocks own strips of columns (wide: one
 * strip of whole rows) of a group of per_group planes, or of one of vsegs
 * row segments of vbands bands (lwk_walk2d_dims) each, and walk their rows.
 * In place (a source is dst), with more than one strip each block waits for
 * its neighbours through `flags` (strips * groups * vsegs counters, zeroed
 * before the launch), and with more than one segment the rows around the
 * segments' edges are read from `stash` (planes * LWK_WALK2D_EDGES * 2 *
 * halo rows of cols elements; the launch fills it first); out of place both are
 * NULL.  Every block must be resident: strips * groups * vsegs at most
 * lwk_walk2d_capacity.  lwk_walk2d_dims: 0 if the kernel does not run this
 * dtype / wavelet (float, double and int32 only); else the strip width, the
 * band height and the halo. */
/* the stashed edges of a plane cut in vsegs row segments: the cuts, and in
 * periodic mode the wrap between the last segment and the first */
#define LWK_WALK2D_EDGES(vsegs, periodic) ((vsegs) > 1 ? (vsegs) - 1 + ((periodic) != 0) : 0)
typedef struct lwk_walk2d {
    lwk_wave w;
    int64_t rows, cols, rs, cs;
    int64_t blen[2], bs[2]; /* batch dims (1 if unused) and strides */
    int mode, wide;
    int64_t strips, groups, per_group, vsegs, vbands;
    unsigned *flags;
    void *stash;
} lwk_walk2d;

int lwk_walk2d_dims(int dtype, int wave_id, int wide, int *sw, int *bh, int *halo);
cudaError_t lwk_walk2d_capacity(int dtype, int wave_id, int inverse, int wide, int64_t *blocks);
cudaError_t lwk_walk2d_run(int dtype, int inverse, const lwk_walk2d *t, const void *ll, const void *det, void *dst,
                           cudaStream_t s);

/* ---- whole rows reordered along cycles (k_rowcycle.cu) --------------------
 * The Mallat reorder of a rows x cols region (row stride rs, unit columns) of
 * every plane in place: row q takes row src(q) with its columns reordered
 * (inverse = 0: interleaved -> Mallat; 1: back), one block a segment of a
 * cycle of the row permutation (segs: lw_mallat_cycle_segments of rows, walked
 * as inverse says: int32 triples of first row, rows, the segment before), two
 * rows of shared memory.  A block saves its first row and stores it last, at
 * the row before it, the last row of the segment before.  Where cycles are cut
 * in several segments (flags != NULL: an int a segment and plane, zeroed by
 * the launch) that store waits for the flag the block of the segment before
 * raises once it has read its last row, and the grid runs cooperatively (at
 * most lwk_rowcycle_resident blocks, planes included); else no block waits.
 * The segments are in device memory, or in host memory (segs_on_host) when
 * they take at most LWK_ROWCYCLE_INLINE int32 (never with flags): they then
 * travel as a kernel parameter.  lwk_rowcycle_max_cols: the widest rows it
 * takes; lwk_rowcycle_resident: its blocks the device holds at once for rows
 * of cols. */
#define LWK_ROWCYCLE_INLINE 512
int64_t lwk_rowcycle_max_cols(int dtype);
cudaError_t lwk_rowcycle_resident(int dtype, int64_t cols, int64_t *blocks);
cudaError_t lwk_rowcycle_launch(int dtype, int inverse, int64_t rows, int64_t cols, int64_t rs, const int64_t blen[2],
                                const int64_t bs[2], const int32_t *segs, int segs_on_host, int64_t nseg, int *flags,
                                void *data, cudaStream_t s);

/* ---- fused 3-D engine (k_tile3d.cu): one level, float32/float64, dense volumes
 * (x stride 1), one or a batch, Mallat, src != dst.  Blocks stream (y, x) tiles
 * along z. */
typedef struct lwk_tile3d {
    lwk_wave w;
    int64_t n[3];  /* lengths z, y, x */
    int64_t st[3]; /* strides of src (x must be 1) */
    int64_t dt[3]; /* strides of dst (x must be 1); all 0: those of src */
    /* ll != NULL: the lowpass octant (LLL band, ceil(n/2) per axis) lives
     * apart, compact or with strides lt (x 1): the forward writes it there
     * instead of dst's corner, the inverse reads it from there instead of
     * src's corner (pyramids: level k's LLL is level k+1's volume) */
    void *ll;
    int64_t lt[3];
    int mode;
    int variant; /* float32 tile variant (LWK_T3_NVARIANTS), -1: the direction's default */
    int load;    /* how the raw planes come: LWK_T3_LOAD_* */
    int stages;  /* float32 forwards: LWK_T3_STAGES_* */
    int zruns;   /* runs of output pairs along z a tile (gridDim.z), 0: lwk_tile3d_zruns's */
    int defaults; /* whose ranking the auto choices follow: LWK_T3_DEFAULTS_* */
} lwk_tile3d;
/* lwk_tile3d.stages: a forward step lifts one pair along z, y and x with
 * barriers between (serial), or pair a along z, a - 1 along y and a - 2 along
 * x with one barrier, as the inverses do (staged); auto: staged for the
 * forwards of reach 2 whose raw planes come by TMA, else serial */
enum { LWK_T3_STAGES_AUTO = 0, LWK_T3_STAGES_STAGED = 1, LWK_T3_STAGES_SERIAL = 2 };
/* lwk_tile3d.load: by the tensor memory accelerator where it applies (float32
 * and the half types on sm_90 and newer, any tile variant, volumes or batches
 * of items wider than a tile, symmetric mode, aligned rows), else each thread
 * its window points; or always by the threads */
enum { LWK_T3_LOAD_AUTO = 0, LWK_T3_LOAD_THREADS = 1 };
/* lwk_tile3d.defaults: the auto tiles and loads of single float32 volumes
 * follow the ranking measured on a device of wide memory (an H200's 6144-bit
 * HBM3e) or of narrower memory (an H100's 5120-bit HBM3); auto: by the
 * device's memory bus width */
enum { LWK_T3_DEFAULTS_AUTO = 0, LWK_T3_DEFAULTS_WIDE = 1, LWK_T3_DEFAULTS_NARROW = 2 };
/* A batch of volumes: items at these element distances in src, dst and the
 * octant apart (a kernel parameter of its own, after src and dst, so that one
 * volume's kernels keep their parameters where they were) */
typedef struct lwk_tile3d_batch {
    int64_t items, sb, db, lb;
} lwk_tile3d_batch;
int lwk_tile3d_supported(int dtype, const lwk_wave *w, int mode, const int64_t *n);
/* b: NULL or items <= 1 for one volume */
cudaError_t lwk_tile3d_run(int dtype, const lwk_tile3d *t, const lwk_tile3d_batch *b, int inverse, const void *src,
                           void *dst, cudaStream_t s);
/* Runs of output pairs per tile: fewest waves x steps per block. */
int lwk_tile3d_zruns(int64_t tiles, int64_t pairs, int64_t slots, int extra);

/* ---- Faber-Schauder (k_fs.cu): every level of one transform -------------
 * An item is the na transformed axes (lengths n, element strides st), the
 * batch the other dims; src and dst share the strides.  Forward: one launch
 * for all levels, every coefficient computed from original samples and
 * written to its final place (Mallat or interleaved); src and dst differ.
 * Inverse: coarse to fine; level k reads its coefficients from src and its
 * even samples from level k+1, and writes its whole grid densely: to the
 * region buffer regions[k & 1] for k >= 1 (compact, lwk_fs_region(p, k)
 * elements), to dst for k = 0.  src == dst only for the interleaved layout. */
typedef struct lwk_fs {
    int na;
    int64_t n[3];   /* lengths of the transformed axes */
    int64_t st[3];  /* their element strides */
    int nb;
    int64_t blen[3], bst[3];
    int64_t nbatch;
    int levels, mode, mallat;
} lwk_fs;
cudaError_t lwk_fs_forward(int dtype, const lwk_fs *p, const void *src, void *dst, cudaStream_t s);
/* Level k alone (one launch over the level-k grid). */
cudaError_t lwk_fs_inverse_level(int dtype, const lwk_fs *p, int k, const void *src, void *dst, void *const *regions,
                                 cudaStream_t s);
/* Levels levels-1 down to k0 in one launch (a block per batch item, the
 * item's level-k0 grid in shared memory); k0 from lwk_fs_tail_level: the
 * finest level whose grid fits (levels when none does). */
cudaError_t lwk_fs_inverse_tail(int dtype, const lwk_fs *p, int k0, const void *src, void *dst, void *const *regions,
                                cudaStream_t s);
int lwk_fs_tail_level(const lwk_fs *p, int dtype);
/* Samples of the level-k grid over the whole batch. */
int64_t lwk_fs_region(const lwk_fs *p, int k);

/* ---- host side helpers (backend_cuda.c) ---------------------------------- */
/* LW_OK for cudaSuccess, else the failure (out of device memory or a CUDA
 * error) with the call's name and CUDA's text, the place in debug builds. */
lw_status lw_cuda_check_at(const char *file, int line, cudaError_t e, const char *what);
#ifdef NDEBUG
#define lw_cuda_check(e, what) lw_cuda_check_at(NULL, 0, (e), (what))
#else
#define lw_cuda_check(e, what) lw_cuda_check_at(__FILE__, __LINE__, (e), (what))
#endif
/* Return the failure of a CUDA call from the enclosing function. */
/* ---- band copies (k_bandcopy.cu): a band's region of a dense array (offset
 * aoff, strides ast) to its own view (strides bst), or back (to_band 0) */
typedef struct lwk_bandcopy {
    int rank, to_band;
    int64_t len[LW_MAX_RANK], ast[LW_MAX_RANK], bst[LW_MAX_RANK];
    int64_t aoff;
} lwk_bandcopy;
cudaError_t lwk_bandcopy_launch(int dtype, const lwk_bandcopy *c, const void *src, void *dst, cudaStream_t s);

#define CK(call, what) LW_TRY(lw_cuda_check((call), (what)))
void lwk_wave_from_def(lwk_wave *w, const lw_wavelet_def *d, int integer);

#ifdef __cplusplus
}
#endif

#endif
