/* Internal declarations shared by the core, the backends and the tests.
 * Not installed. */
#ifndef LW_INTERNAL_H
#define LW_INTERNAL_H

#include "liftwave.h"

#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

/* Record a formatted one-line message for lw_last_error() and return status.
 * Debug builds (no NDEBUG) append the place that failed, " [file.c:123]". */
lw_status lw_fail_at(const char *file, int line, lw_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#ifdef NDEBUG
#define lw_fail(status, ...) lw_fail_at(NULL, 0, (status), __VA_ARGS__)
#else
#define lw_fail(status, ...) lw_fail_at(__FILE__, __LINE__, (status), __VA_ARGS__)
#endif
void lw_clear_error(void);

#define LW_TRY(expr)                          \
    do {                                      \
        lw_status lw_try_s_ = (expr);         \
        if (lw_try_s_ != LW_OK) return lw_try_s_; \
    } while (0)

/* x rounded up to a multiple of 64 (cache lines, vector alignment). */
#define LW_ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* Overflow-checked size arithmetic: return 0 on success, -1 on overflow. */
int lw_mul_size(size_t a, size_t b, size_t *out);
int lw_mul_i64(int64_t a, int64_t b, int64_t *out);

/* lw_config.flags of the library's own sub-plans, never a caller's: a
 * device-pointer plan run by its owner with the owner's scratch (the CUDA
 * backend allocates none for it). */
#define LW_FLAG_EXTERNAL_SCRATCH 0x40000000u

/* ---- wavelet tables ------------------------------------------------------ */

#define LW_MAX_STEPS 4
#define LW_MAX_TAPS 4

/* One lifting step: the samples of one parity (target) are updated from the
 * samples of the other parity at the given (odd) offsets.
 *   float:   x[t] += sum_i weight[i] * x[t + offset[i]]
 *   integer: x[t] += sign * floor((sum_i icoef[i] * x[t + offset[i]] + iadd) / 2^ishift)
 */
typedef struct lw_step {
    int target_odd; /* 1: odd samples updated (predict), 0: even (update) */
    int ntaps;
    int offset[LW_MAX_TAPS];
    double weight[LW_MAX_TAPS];
    int icoef[LW_MAX_TAPS];
    int isign;
    int iadd;
    int ishift;
} lw_step;

typedef struct lw_wavelet_def {
    lw_wavelet id;
    const char *name;
    int nsteps;
    lw_step steps[LW_MAX_STEPS];
    double zeta_low;  /* even samples scaled by this after the steps (float) */
    double zeta_high; /* odd samples scaled by this (float) */
    int has_integer;  /* integer variant exists */
    int has_float;
    int separable;    /* 0 for Faber-Schauder (non-separable in nD) */
    int halo;         /* max |offset| summed over steps: reach of one level */
    int orthonormal;  /* float transform orthonormal: adjoint = inverse */
} lw_wavelet_def;

/* The table row of w (wavelet_list.h), NULL for a value outside the enum. */
const lw_wavelet_def *lw_wavelet_get(lw_wavelet w);

/* lw_plan_create with the wavelet row replaced by wav (its gains folded in;
 * cfg->wavelet names its origin): a backend's internal plan, e.g. the cuda
 * backend's periodic adjoints run as the inverse / forward of the transposed
 * steps on the fused engines. */
lw_status lw_plan_create_with(lw_plan **out, const lw_config *cfg, const lw_wavelet_def *wav);

/* Internal ids of the transposed wavelets (lw_wavelet_transpose): the row's
 * id plus this; never a value of lw_wavelet. */
#define LW_TRANSPOSED_ID 64
/* lw_wavelet_get, and for id = w + LW_TRANSPOSED_ID the transposed row
 * (gains 1); NULL otherwise. */
const lw_wavelet_def *lw_wavelet_get_any(int id);

/* The transposed steps of w, for the periodic adjoints: the transpose of a
 * periodic step x_t += sum_i w_i x_{t+o_i} (targets of one parity) is
 * x_s += sum_i w_i x_{s-o_i} on the other parity, so t gets, for every step
 * q of w, step q with the other parity, the offsets negated and the weights
 * negated (taps kept in ascending offset order), and 1/zeta.  Then, in
 * periodic mode, the forward's adjoint of w is the inverse of t (scaling
 * undone first, steps last to first and subtracted) and the inverse's
 * adjoint is the forward of t.  Float only (the integer rule is dropped);
 * t's id is w's plus LW_TRANSPOSED_ID. */
void lw_wavelet_transpose(const lw_wavelet_def *w, lw_wavelet_def *t);

/* Properties the engines decide support from (never from ids):
 *   symmetric_taps  every step's taps come in +-offset pairs of equal weight,
 *                   so whole-sample symmetric extension commutes with the
 *                   step (a mirrored tile edge needs no boundary logic)
 *   inside_pairs    predicts read only t-1 and updates only t+1: on an even
 *                   length no step reads outside the line
 *   step_pairs      the steps alternate predict, update, predict, ... in
 *                   pairs (the block schemes lift pair by pair) */
int lw_wavelet_symmetric_taps(const lw_wavelet_def *w);
int lw_wavelet_inside_pairs(const lw_wavelet_def *w);
int lw_wavelet_step_pairs(const lw_wavelet_def *w);

/* Functions of this header that CUDA kernels call too. */
#ifdef __CUDACC__
#define LW_HOST_DEVICE __host__ __device__
#else
#define LW_HOST_DEVICE
#endif

/* Index of sample i through the boundary mode for a line of length n >= 1.
 * Symmetric: whole-sample reflection (period 2n-2); periodic: i mod n. */
static inline LW_HOST_DEVICE int64_t lw_boundary_index(int64_t i, int64_t n, lw_mode mode)
{
    if (i >= 0 && i < n) return i;
    if (n == 1) return 0;
    if (mode == LW_PERIODIC) {
        int64_t r = i % n;
        return r < 0 ? r + n : r;
    }
    int64_t p = 2 * (n - 1);
    int64_t r = i % p;
    if (r < 0) r += p;
    return r < n ? r : p - r;
}

/* floor(v / 2^s) for any sign, s in [0, 62]. */
static inline int64_t lw_floor_shift(int64_t v, int s)
{
    if (s == 0) return v;
    int64_t d = (int64_t)1 << s;
    int64_t q = v / d; /* truncates toward zero */
    if ((v % d) != 0 && v < 0) q -= 1;
    return q;
}

/* ---- directions (direction.c; docs/ADJOINT.md) ---------------------------- */

/* Name of a direction ("forward", "inverse", "forward-adjoint",
 * "inverse-adjoint"; "?" outside the enum). */
const char *lw_direction_str(lw_direction d);

/* The transposes: LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT. */
static inline int lw_dir_adjoint(lw_direction d) { return d == LW_FORWARD_ADJOINT || d == LW_INVERSE_ADJOINT; }

/* Directions that run the levels coarse to fine, the axes in decreasing
 * order, and read a line's Mallat coefficients back to interleaved order
 * before lifting it: the inverse, and the forward's adjoint (whose factors are
 * the forward's transposed in reverse order).  The others (forward, the
 * inverse's adjoint) run fine to coarse, axes increasing, and write Mallat
 * order after lifting. */
static inline int lw_dir_coarse_first(lw_direction d) { return d == LW_INVERSE || d == LW_FORWARD_ADJOINT; }

struct lw_geometry;
/* The direction a plan runs for cfg: an adjoint of an orthogonal transform is
 * its inverse (F^T = F^-1), so LW_FORWARD_ADJOINT runs LW_INVERSE and
 * LW_INVERSE_ADJOINT runs LW_FORWARD; every other plan runs cfg->direction.
 * Orthogonal: an orthonormal wavelet in periodic mode, or one whose steps
 * stay inside even lines (haar) in symmetric mode with every transformed
 * length even at every level. */
lw_direction lw_direction_to_run(const lw_config *cfg, const struct lw_geometry *geo);

/* ---- geometry ------------------------------------------------------------ */

/* A validated plan geometry: the array shape, which axes transform, and the
 * length of every transformed axis at every level. */
#define LW_MAX_LEVELS 64

typedef struct lw_geometry {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int64_t strides[LW_MAX_RANK]; /* in elements, C order */
    int64_t total;                /* number of elements */
    int naxes;
    int axes[LW_MAX_AXES];
    int levels;
    /* len[k][a]: length of transformed axis a (index into axes) at the input of
     * level k+1 (k = 0 is the full length). len[levels][a] is the final
     * lowpass length. */
    int64_t len[LW_MAX_LEVELS + 1][LW_MAX_AXES];
} lw_geometry;

/* Validate cfg and fill geo (levels resolved).  Sets the error text. */
lw_status lw_geometry_init(lw_geometry *geo, const lw_config *cfg);

/* ---- tuning (tuning.c; keys documented in docs/TUNING.md) --------------- */

#define LW_TUNING_MAX 256

typedef struct lw_tuning {
    int simd;             /* 0 auto, else 1 + the cpu backend's lw_simd */
    int stream;           /* 0 auto, 1 cached stores, 2 streaming stores */
    int64_t ring_kb;      /* 0: from the L2 size */
    int prefetch, walk;
    int64_t walk_kb;
    int64_t split_min;
    int64_t vol_split[2]; /* 0x0: automatic */
    /* cuda, host pointers: pageable memory (src/cuda/staging.h); 0 = automatic */
    int64_t stage_kb, stage_buffers, copy_threads, register_min_mb, host_slabs;
    int pageable;         /* 0 auto, 1 stage, 2 register */
    int tile3d;           /* 0 auto, else 1 + the fused 3-D engine's tile variant */
    int inplace;          /* cuda, in == out: 0 auto, 1 lean (generic passes), 2 copy (a full-size scratch), 3 tiles */
    int64_t ooc_slab_mb, ooc_pass_levels; /* out of core (src/core/ooc_run.c); 0 = automatic */
    int ooc_ahead;        /* out of core: the next slab's uploads begun before a slab runs (1) */
    int ooc_stash;        /* out of core, coefficients in, out of place: the corner's levels first into the output (1) */
    int local_block;      /* cuda local engine: LW_LOCAL_BLOCK_* */
    int local_bound;      /* cuda local engine, 64-sample blocks: 0 auto, 1 none, 2.. 4, 5, 6 blocks an SM */
    int local_slabs;      /* cuda local engine, 64-sample blocks: 0 auto, 1 level 1 slab by slab, 2 whole blocks */
    int tile2d;           /* cuda fused 2-D: 0 auto, 1 short tiles, 2 long tiles (lwk_tile2d.tiles) */
    int64_t tile2d_walk;  /* cuda fused 2-D: tiles a block walks, 0 auto (lwk_tile2d.walk) */
    int64_t tile2d_ends;  /* cuda fused 2-D, d4: row tiles from which the end tiles run apart, 0 auto (lwk_tile2d.ends) */
    int64_t tile2d_lead_kb; /* cuda fused 2-D pyramids, batched inverse: scratch for the last planes' lowpass, 0 auto */
    int64_t tile2d_groups;  /* cuda fused 2-D: the batch in this many groups, one a stream (0, 1: one) */
    int tile2d_side;      /* cuda fused 2-D, d4: the end tiles' kernel beside the others' on a stream of its own (1) */
    int il_compact;       /* cuda tile2d-il, forward pyramids out of place: levels 2.. on compact grids by the fused tiles (1) */
    int tail;             /* cuda fused pyramids: 0 auto, 1 fused levels wherever they run, 2 small engine below the top */
    int planes;           /* cuda generic passes: 0 auto (two axes of a level as one plane pass), 1 off */
    int64_t reorder_piece; /* cuda generic passes in place, Mallat: longest piece of a cut cycle, 0 auto */
    int64_t line1d_hold;  /* cuda line1d: most samples a held level or a round takes at once, 0 the device's */
    int tile3d_load;      /* cuda fused 3-D: 0 auto (TMA where it applies), 1 the threads' copies (LWK_T3_LOAD_*) */
    int tile3d_stages;    /* cuda fused 3-D, float32 forwards: 0 auto, 1 staged as the inverses, 2 serial (LWK_T3_STAGES_*) */
    int64_t tile3d_zruns; /* cuda fused 3-D: runs of output pairs along z a tile, 0 auto (lwk_tile3d.zruns) */
    int tile3d_defaults;  /* cuda fused 3-D: whose ranking auto follows, 0 by the device, 1 wide, 2 narrow (LWK_T3_DEFAULTS_*) */
} lw_tuning;
enum { LW_LOCAL_BLOCK_AUTO = 0, LW_LOCAL_BLOCK_WIDE = 1, LW_LOCAL_BLOCK_NARROW = 2, LW_LOCAL_BLOCK_STRIDED = 3 };

void lw_tuning_defaults(lw_tuning *t);
/* Parse "key=value,key=value" (NULL: defaults); a bad key or value is
 * LW_ERR_INVALID_ARGUMENT with a message naming it. */
lw_status lw_tuning_parse(const char *s, lw_tuning *t);

/* ---- plans and backends ------------------------------------------------- */

struct lw_backend_ops;

struct lw_plan {
    lw_config cfg;        /* resolved copy (levels, axes filled) */
    lw_geometry geo;
    const lw_wavelet_def *wav; /* points to wavdef */
    lw_wavelet_def wavdef;     /* the wavelet's row, the plan's gains folded into its zetas */
    const struct lw_backend_ops *ops;
    void *impl;           /* backend-private state */
    char scheme[32];      /* copy of cfg.scheme; cfg.scheme points here */
    char tuning[LW_TUNING_MAX]; /* copy of cfg.tuning; cfg.tuning points here */
    lw_tuning tune;       /* parsed once at plan creation */
    void *stream;         /* cudaStream_t for device pointers */
};

/* A backend.  The table of backends (backends.c) drives the names, the
 * validation of lw_config.backend, the AUTO choice and every list shown to
 * users. */
typedef struct lw_backend_ops {
    const char *name;
    lw_backend id;
    int auto_rank;       /* AUTO takes the available backend of lowest rank > 0 (0: never) */
    int device_pointers; /* takes LW_FLAG_DEVICE_POINTERS */
    int (*available)(void);
    lw_status (*plan)(lw_plan *plan);        /* fill plan->impl */
    lw_status (*execute)(const lw_plan *plan, const void *in, void *out);
    void (*destroy)(lw_plan *plan);          /* free plan->impl */
    lw_status (*workspace)(const lw_plan *plan, size_t *bytes);
    /* what the plan will do, "key: value" lines appended to buf (lw_plan_describe) */
    void (*describe)(const lw_plan *plan, char *buf, size_t len);
    int (*engine_count)(void);
    const char *(*engine_name)(int i, const char **about);
    /* lw_execute_bands (validated); NULL: the transform through a host array (lw_bands_via_array) */
    lw_status (*execute_bands)(const lw_plan *plan, void *samples, const lw_band *bands);
} lw_backend_ops;

/* ---- bands in memory of their own (bands.c) ------------------------------ */
/* Band i's region of the Mallat array: offset and length per array axis. */
lw_status lw_band_region(const lw_plan *p, int i, int64_t *off, int64_t *len, int *level, unsigned *mask);
/* 1 when the plan writes coefficients (forward, inverse adjoint): samples -> bands */
int lw_bands_to_coefficients(const lw_plan *p);
/* Copy between band i's region of the coefficient array arr and its view b (to_band: arr -> b). */
typedef lw_status (*lw_band_copy_fn)(const lw_plan *p, int i, void *arr, const lw_band *b, int to_band, void *ctx);
/* lw_execute into (from) arr, an array of the plan's size in the plan's memory, the bands copied
 * out (in) by copy */
lw_status lw_bands_through_array(const lw_plan *p, void *samples, const lw_band *bands, void *arr,
                                 lw_band_copy_fn copy, void *ctx);
/* the same through a host array made for the call */
lw_status lw_bands_via_array(const lw_plan *p, void *samples, const lw_band *bands);

extern const lw_backend_ops lw_backend_cpu_ref;
extern const lw_backend_ops lw_backend_cpu;
extern const lw_backend_ops lw_backend_cuda; /* reports unavailable when not built */

/* The backend of an lw_backend value (NULL for AUTO and unknown values). */
const lw_backend_ops *lw_backend_get(lw_backend b);
/* The backend AUTO picks for cfg, or an error status with the message. */
lw_status lw_backend_choose(const lw_config *cfg, const lw_backend_ops **ops);

/* Append printf-style text to buf (always NUL-terminated, truncated to len). */
void lw_appendf(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- CPU reference entry points (used by the CPU backends and the tests) -- */

/* In-place transform of buf (dtype per cfg) following the plan's geometry.
 * Integer results are computed in int64; when one does not fit int32 it
 * returns LW_ERR_INTEGER_OVERFLOW, with buf partly transformed. */
lw_status lw_ref_transform(const lw_plan *plan, void *buf);

/* 1-D lifting of one line held in double / int64, in interleaved order, for
 * one level.  n >= 1.  Any direction for the float path (the adjoints in
 * scatter form, their definition); forward or inverse for the integer one. */
void lw_ref_lift_line_f(const lw_wavelet_def *w, lw_mode mode, double *x, int64_t n, lw_direction dir);
void lw_ref_lift_line_i(const lw_wavelet_def *w, lw_mode mode, int64_t *x, int64_t n, lw_direction dir);

#ifdef __cplusplus
}
#endif

#endif /* LW_INTERNAL_H */
