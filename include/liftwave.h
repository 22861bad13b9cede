/*
 * liftwave.h -- discrete wavelet transforms by lifting, on CPUs and NVIDIA GPUs.
 *
 * This is the only public header of libliftwave.  Everything else is internal.
 *
 * Model (FFTW / cuFFT style)
 *   1. Fill an lw_config (start from lw_config_init(), which sets the defaults).
 *   2. lw_plan_create() validates it and prepares everything the transform
 *      needs (geometry, tables, backend resources).
 *   3. lw_execute() runs the transform as many times as you like on any buffers
 *      of the planned shape and dtype.
 *   4. lw_destroy() frees the plan (NULL is accepted).
 *
 * Conventions (normative; the full text, with the PyWavelets relations, is
 * docs/CONVENTIONS.md in the source tree)
 *   - Arrays are dense and in C order (last axis fastest).  Up to LW_MAX_RANK
 *     axes; the transform runs along a chosen subset of 1..3 axes, every other
 *     axis is a batch.
 *   - Along an axis of length n, a level produces ceil(n/2) lowpass and
 *     floor(n/2) highpass coefficients; even positions are lowpass.
 *   - Forward: at each level the transformed axes are lifted in increasing axis
 *     order (axis 0, the slowest, first: "vertical then horizontal" in 2-D, as
 *     JPEG 2000 does).  Inverse undoes the axes in the reverse order.  For the
 *     float wavelets the order does not change the result beyond rounding; for
 *     the integer variants it is part of the definition.
 *   - Boundary samples are read through the boundary mode at every lifting
 *     step, so the transform is perfectly invertible for every length.
 *   - A length-1 axis is left unchanged.
 *   - Scaling, per axis and level: cdf53, cdf97, dd137, dd97 and fs use the
 *     JPEG 2000 normalisation: the lowpass has DC gain 1 (a constant signal
 *     gives the same constant in the lowpass band) and the highpass has
 *     Nyquist gain 2 ((-1)^n gives highpass coefficients of magnitude 2).
 *     haar and d4 are orthonormal (gains sqrt(2)), equal to PyWavelets "haar"
 *     and "db2" in mode "periodization".  The integer variants have no
 *     scaling step: integer haar (the S-transform) has DC gain 1 and Nyquist
 *     gain 2 like the others; rounding is given in docs/CONVENTIONS.md.
 *
 * Thread safety
 *   lw_plan_create / lw_destroy may be called from any thread.  lw_execute does
 *   not modify the plan: several threads may execute the same plan at once on
 *   different buffers (for the CUDA backend with host pointers, each call uses
 *   its own staging; with device pointers the calls are queued on the plan's
 *   stream).  lw_last_error() is per thread.
 *
 * Errors
 *   Every function returns an lw_status.  The library never prints and never
 *   exits.  On failure, lw_last_error() returns a one-line description of the
 *   most recent failure in the calling thread.
 *
 * Integer transforms and the int32 range
 *   The integer variants are exact: the CPU backends compute in 64-bit and
 *   return LW_ERR_INTEGER_OVERFLOW when any output value does not fit int32
 *   (they never wrap).  A sufficient condition for a forward transform to fit:
 *   with M = max |x| over the input, d transformed axes of length > 1 and
 *   L >= 1 levels, every coefficient c satisfies
 *       |c| <= eta^d * lambda^(d*(L-1)) * (M + d*L)
 *   where lambda and eta are the l1 norms of the lowpass and highpass
 *   analysis filters: haar 1 and 2, cdf53 1.5 and 2, dd137 1.625 and 2.25,
 *   dd97 1.5 and 2.25;
 *   fs gives |c| <= 2*M + 1 for every d and L.  So the result always fits
 *   when that bound is below 2^31, for example:
 *       |x| < 2^24: haar and fs any levels; cdf53 up to 11 / 5 / 3 levels in
 *                   1-D / 2-D / 3-D; dd137 up to 9 / 4 / 2; dd97 up to
 *                   10 / 4 / 2;
 *       |x| < 2^16 (16-bit data): cdf53 up to 24 / 12 / 7; dd137 up to
 *                   20 / 10 / 6; dd97 up to 24 / 11 / 7; haar and fs any.
 *   The inverse of a forward result reproduces the forward's input, so it
 *   fits whenever that input did; an arbitrary array given to the inverse
 *   may overflow and is reported the same way.  The CUDA backend does not
 *   check: its int32 arithmetic wraps outside these ranges (results are then
 *   wrong, silently).
 */
#ifndef LIFTWAVE_H
#define LIFTWAVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LW_VERSION_MAJOR 0
#define LW_VERSION_MINOR 1
#define LW_VERSION_PATCH 0
#define LW_VERSION_STRING "0.1.0"

/* Largest array rank accepted by a plan, and the most axes one plan transforms. */
#define LW_MAX_RANK 4
#define LW_MAX_AXES 3

/* levels value meaning "as many as the shape allows" (CLI: --levels max). */
#define LW_LEVELS_MAX (-1)

/* Status codes.  Values never change once released; new ones are appended. */
typedef enum lw_status {
    LW_OK = 0,
    LW_ERR_INVALID_ARGUMENT = 1, /* NULL pointer, bad enum value, bad rank/axes */
    LW_ERR_INVALID_SHAPE = 2,    /* zero or negative length, size overflow */
    LW_ERR_INVALID_LEVELS = 3,   /* more levels than the shape allows */
    LW_ERR_ODD_PERIODIC = 4,     /* periodic mode met an odd length at some level */
    LW_ERR_UNSUPPORTED = 5,      /* combination not offered (e.g. integer cdf97) */
    LW_ERR_OUT_OF_MEMORY = 6,    /* host allocation failed */
    LW_ERR_NO_BACKEND = 7,       /* requested backend absent (not built, no device) */
    LW_ERR_CUDA = 8,             /* a CUDA call failed; lw_last_error has its text */
    LW_ERR_DEVICE_OUT_OF_MEMORY = 9,
    LW_ERR_INTERNAL = 10,
    LW_ERR_INTEGER_OVERFLOW = 11 /* an integer result does not fit int32 (CPU
                                    backends; see "Integer transforms" above) */
} lw_status;

typedef enum lw_dtype {
    LW_FLOAT32 = 0,
    LW_FLOAT64 = 1,
    LW_INT32 = 2, /* only with the integer (reversible) transforms */
    /* Half storage: IEEE binary16 and bfloat16 (2 bytes, uint16_t bit
     * patterns in the caller's buffers).  Every lifting step is computed in
     * float32 ("cpu") or float64 ("cpu-ref") and the result is rounded to the
     * storage type once, at the store (round to nearest, ties to even).  Float
     * transforms only (not the integer variants); the CPU backends, every
     * direction; the cuda backend refuses them (LW_ERR_UNSUPPORTED) for now.
     * Measured accuracy per wavelet: docs/CONVENTIONS.md, "Half precision". */
    LW_FLOAT16 = 3,
    LW_BFLOAT16 = 4
} lw_dtype;

typedef enum lw_wavelet {
    LW_HAAR = 0,   /* Haar; integer variant: the S-transform */
    LW_CDF53 = 1,  /* CDF 5/3 (LeGall); integer variant: JPEG 2000 reversible */
    LW_CDF97 = 2,  /* CDF 9/7, JPEG 2000 irreversible constants; float only */
    LW_DD137 = 3,  /* Deslauriers-Dubuc 13/7; integer variant: Dirac */
    LW_D4 = 4,     /* Daubechies-4, equal to PyWavelets db2 periodization; float only */
    LW_FS = 5,     /* Faber-Schauder, non-separable in 2-D/3-D */
    LW_DD97 = 6    /* Deslauriers-Dubuc 9/7 (Dirac's default); integer variant: Dirac */
} lw_wavelet;

/* Number of wavelets: the values of lw_wavelet are 0 .. LW_WAVELET_COUNT - 1,
 * so a program can list them with lw_wavelet_name(). */
#define LW_WAVELET_COUNT 7

/* Boundary extension, read at every lifting step.
 *   LW_SYMMETRIC  ... x2 x1 | x0 x1 x2 ... x(n-2) x(n-1) | x(n-2) x(n-3) ...
 *                 whole-sample symmetric (JPEG 2000 F-4; PyWavelets "reflect")
 *   LW_PERIODIC   ... x(n-2) x(n-1) | x0 x1 ... x(n-1) | x0 x1 ...
 *                 every transformed length at every level must be even. */
typedef enum lw_mode {
    LW_SYMMETRIC = 0,
    LW_PERIODIC = 1
} lw_mode;

/* Output layout.
 *   LW_MALLAT       per axis and level: ceil(n/2) lowpass first, then the
 *                   highpass; the next level recurses into the lowpass corner.
 *   LW_INTERLEAVED  coefficients stay at their sample positions; level k works
 *                   on indices that are multiples of 2^(k-1) on every
 *                   transformed axis ("mixed scales"). */
typedef enum lw_layout {
    LW_MALLAT = 0,
    LW_INTERLEAVED = 1
} lw_layout;

/* Direction of a transform.  The forward F maps samples to coefficients and
 * the inverse F^-1 coefficients to samples; both are linear maps on arrays of
 * the planned shape (float wavelets).  The adjoints are their transposes:
 *   LW_FORWARD_ADJOINT  F^T, coefficients (in the plan's layout) to samples:
 *                       <F x, y> = <x, F^T y> for all arrays x, y.  The
 *                       backward pass of a forward transform: the gradient
 *                       w.r.t. the samples is F^T applied to the gradient
 *                       w.r.t. the coefficients.
 *   LW_INVERSE_ADJOINT  F^-T, samples to coefficients: <F^-1 y, x> =
 *                       <y, F^-T x>; the backward pass of an inverse.
 * Per axis and level they are the transposed lifting steps in reverse order,
 * with the boundary extension turned into folding (docs/ADJOINT.md).  For an
 * orthonormal wavelet (LW_WAVELET_ORTHONORMAL) in periodic mode, and for haar
 * in symmetric mode with every transformed length even at every level, the
 * transform is orthogonal: F^T = F^-1, and such a plan runs the inverse
 * (forward for LW_INVERSE_ADJOINT); lw_plan_config() then reports that
 * direction.  The integer variants are not linear: an adjoint with
 * lw_config.integer set fails with LW_ERR_UNSUPPORTED.  Every wavelet, mode,
 * layout, level count, batch and length is supported, except on the cuda
 * backend the non-separable fs over several axes and the papers' schemes
 * (LW_ERR_UNSUPPORTED there; the cpu backends run it). */
typedef enum lw_direction {
    LW_FORWARD = 0,
    LW_INVERSE = 1,
    LW_FORWARD_ADJOINT = 2,
    LW_INVERSE_ADJOINT = 3
} lw_direction;

typedef enum lw_backend {
    LW_BACKEND_AUTO = 0, /* CUDA when a device is present, else CPU */
    LW_BACKEND_CPU = 1,
    LW_BACKEND_CUDA = 2,
    LW_BACKEND_CPU_REF = 3 /* the double-precision reference, for testing */
} lw_backend;

/* Number of lw_backend values (AUTO included): lw_backend_name(i) for i in
 * [0, LW_BACKEND_COUNT) lists them. */
#define LW_BACKEND_COUNT 4

/* lw_config.flags */
#define LW_FLAG_DEVICE_POINTERS 0x1u /* in/out of lw_execute are CUDA device pointers */
/* lw_execute may overwrite `in` when in != out (like FFTW_DESTROY_INPUT): its
 * content afterwards is unspecified.  The default preserves `in`.  The CUDA
 * backend then uses `in` as workspace, so that a multi-level 2-D forward
 * transform needs no device memory beyond in and out (without the flag it
 * holds the lowpass bands of the inner levels: about N/4 + N/16 samples).
 * With host pointers the CUDA backend works on its own device copy of `in`
 * and never modifies the caller's array, flag or not.  The CPU backends
 * ignore the flag (they never modify `in`). */
#define LW_FLAG_DESTROY_INPUT 0x2u
/* The plan runs in place only: lw_execute(plan, x, x); in != out fails with
 * LW_ERR_INVALID_ARGUMENT.  The CUDA backend then holds only the in-place
 * workspace (lines too long for a block: a stash of originals at chunk edges
 * and the cycle leaders of the Mallat reorder) and none of the out-of-place
 * one (a 2-D pyramid's lowpass bands, the host pipeline's output copy):
 * device memory beyond the array (and, with host pointers, its one device
 * copy) is at most 1% of the array, or 1 MiB for arrays under 100 MiB, and
 * lw_workspace_size reports it.  A plan that cannot run in place within that
 * (the papers' GPU schemes and fs on cuda: they copy the input) fails
 * at creation with LW_ERR_UNSUPPORTED.  Not with LW_FLAG_DESTROY_INPUT. */
#define LW_FLAG_IN_PLACE 0x4u
/* One side on the device (the cuda backend): LW_FLAG_DEVICE_INPUT, `in` is a
 * device pointer and `out` host memory (G->C: coefficients computed on the
 * device come home); LW_FLAG_DEVICE_OUTPUT, the reverse (C->G: raw data goes
 * up, coefficients stay on the device).  The call is synchronous like a
 * host-pointer call and moves only the host side (the device side is read
 * or written in place: no device copy of it).  Both flags together are
 * LW_FLAG_DEVICE_POINTERS.  in != out; not with LW_FLAG_IN_PLACE. */
#define LW_FLAG_DEVICE_INPUT 0x8u
#define LW_FLAG_DEVICE_OUTPUT 0x10u

/* Everything a plan needs.  Initialise with lw_config_init() and change fields. */
typedef struct lw_config {
    int rank;                      /* 1..LW_MAX_RANK */
    int64_t shape[LW_MAX_RANK];    /* lengths, C order; each >= 1 */
    int naxes;                     /* 0 = transform every axis (rank must be <= 3) */
    int axes[LW_MAX_AXES];         /* distinct, increasing, in [0, rank) */
    lw_dtype dtype;                /* default LW_FLOAT32 */
    lw_wavelet wavelet;            /* default LW_CDF97 */
    lw_mode mode;                  /* default LW_SYMMETRIC */
    lw_layout layout;              /* default LW_MALLAT */
    int levels;                    /* >= 0, or LW_LEVELS_MAX; default 1 */
    lw_direction direction;        /* default LW_FORWARD */
    int integer;                   /* nonzero: integer (reversible) variant; dtype must be LW_INT32 */
    lw_backend backend;            /* default LW_BACKEND_AUTO */
    unsigned flags;                /* LW_FLAG_* */
    const char *scheme;            /* engine or GPU algorithm name; NULL or "auto" = the default
                                    * (lw_engine_count / lw_engine_name list them) */
    int threads;                   /* CPU threads; 0 = the OpenMP default (all cores unless
                                    * OMP_NUM_THREADS says otherwise); at most LW_MAX_THREADS */
    const char *tuning;            /* NULL, or "key=value,..." knobs read once at plan creation
                                    * (lw_tuning_count / lw_tuning_key list them; docs/TUNING.md);
                                    * an unknown key or bad value fails lw_plan_create */
    double gain[2];                /* band gains: per transformed axis and level the forward
                                    * multiplies the lowpass outputs by gain[0] and the highpass
                                    * by gain[1] after the wavelet's own scaling (the inverse
                                    * divides first), at no extra cost: a level's 2-D band "hl"
                                    * gets gain[1]*gain[0], and level k's lowpass gain[0]^k per
                                    * axis.  0 means 1 (the default).  Other normalisations
                                    * follow: {sqrt2, 1/sqrt2} turns cdf53 / cdf97 into
                                    * PyWavelets bior2.2 / bior4.4 (docs/CONVENTIONS.md).  Finite
                                    * and nonzero; float transforms of the separable wavelets
                                    * only (not fs, not the integer variants), and not the
                                    * papers' GPU schemes */
    uint64_t device_memory_limit;  /* CUDA with host pointers: the device bytes a call may
                                    * hold.  0 = automatic (the device's free memory at plan
                                    * creation, less 5% of its total or 256 MiB).  An array
                                    * whose transform needs more (its copies, out of place
                                    * two, and the engine's workspace) streams through the
                                    * device in slabs of its axis 0 with their halos, the
                                    * copies both ways overlapping the transforms: any array
                                    * that fits host memory, whatever the device's
                                    * (docs/OUT_OF_CORE.md).  Ignored by the other backends
                                    * and with LW_FLAG_DEVICE_POINTERS */
} lw_config;

/* Largest lw_config.threads accepted. */
#define LW_MAX_THREADS 1024

typedef struct lw_plan lw_plan;

/* Defaults: rank 0 (must be set), cdf97, symmetric, mallat, 1 level, forward,
 * float32, auto backend, all axes, gains 1. */
void lw_config_init(lw_config *cfg);

/* Create a plan.  On success *plan owns its resources; free with lw_destroy.
 * On failure *plan is NULL. */
lw_status lw_plan_create(lw_plan **plan, const lw_config *cfg);

/* Run the planned transform.  in and out each hold prod(shape) elements of the
 * planned dtype (host memory, or device memory with LW_FLAG_DEVICE_POINTERS).
 * in == out is allowed (in place); otherwise the buffers must not overlap and
 * in is not modified (unless the plan has LW_FLAG_DESTROY_INPUT).  With device
 * pointers the call is asynchronous on the plan's stream.
 * A CUDA plan for host pointers refuses device memory with
 * LW_ERR_INVALID_ARGUMENT (it would otherwise be read as host memory).
 * On failure the content of out is unspecified (it may be partly
 * transformed); in is unchanged when in != out (unless the plan has
 * LW_FLAG_DESTROY_INPUT).  In particular an integer transform that returns
 * LW_ERR_INTEGER_OVERFLOW leaves out partly written. */
lw_status lw_execute(const lw_plan *plan, const void *in, void *out);

/* ---- bands in memory of their own ---------------------------------------
 * A Mallat plan's coefficients need not form one array: lw_execute_bands
 * writes (or reads) each band through a view of its own, for example the
 * separate tensors of a neural-network layer, the subbands of a codec, or
 * pywt-style coefficient lists, with no Mallat array in between where the
 * engine allows (cuda, 2-D levels of the fused engine: the kernels store
 * every band in place; elsewhere through a workspace of the array's size).
 *
 * Band i, for i in [0, lw_band_count): 0 is the approximation (lowpass on
 * every transformed axis after the last level L); then level L's detail
 * bands, level L-1's, ..., level 1's, 2^naxes - 1 of them a level.  Within a
 * level a band is numbered by its mask m = 1 .. 2^naxes - 1: bit
 * (naxes - 1 - a) of m set means highpass along transformed axis a (2-D:
 * 1 = rows lowpass / columns highpass, 2 = the reverse, 3 = both highpass).
 * A band's shape is the array's, with each transformed axis cut to its
 * lowpass length at that level (lw_lowpass_length) or the highpass rest;
 * some bands are empty (a transformed axis of length 1 has no highpass). */
typedef struct lw_band {
    void *data;                   /* the band's first element; may be NULL for an empty band */
    int64_t strides[LW_MAX_RANK]; /* element strides of the band's axes (rank of the plan) */
} lw_band;

/* Number of bands of a Mallat plan: 1 + levels * (2^naxes - 1); 0 for a NULL
 * plan or the interleaved layout. */
int lw_band_count(const lw_plan *plan);

/* Shape of band i (rank entries), its level (1 = finest; the approximation
 * reports the plan's levels) and its mask (0 for the approximation).
 * Pointers may be NULL. */
lw_status lw_band_shape(const lw_plan *plan, int i, int64_t *shape, int *level, unsigned *mask);

/* Run the plan between `samples` (a dense array of the planned shape) and
 * bands[0 .. lw_band_count-1]: forward and LW_INVERSE_ADJOINT plans read
 * samples and write the bands; LW_INVERSE and LW_FORWARD_ADJOINT plans read
 * the bands and write samples.  Results equal lw_execute into (from) a Mallat
 * array whose bands are then copied out (in), bit for bit.  Memory as for
 * lw_execute: host memory, or device memory for LW_FLAG_DEVICE_POINTERS plans
 * (asynchronous on the plan's stream).  Bands must not overlap each other or
 * samples.  Not for LW_FLAG_IN_PLACE plans, one-sided plans
 * (LW_FLAG_DEVICE_INPUT / _OUTPUT) or the interleaved layout
 * (LW_ERR_INVALID_ARGUMENT). */
lw_status lw_execute_bands(const lw_plan *plan, void *samples, const lw_band *bands);

/* Free a plan.  NULL is accepted. */
void lw_destroy(lw_plan *plan);

/* The configuration the plan was made from, with levels resolved to a number
 * and axes filled in.  The pointer lives as long as the plan. */
const lw_config *lw_plan_config(const lw_plan *plan);

/* Name of the backend the plan runs on ("cpu", "cpu-ref", "cuda"). */
const char *lw_plan_backend_name(const lw_plan *plan);

/* What the plan will do, as "key: value" lines in buf (NUL-terminated):
 * the resolved configuration, backend, engine per level, SIMD path and
 * threads (cpu), workspace and staging (cuda).  Keys may be added in later
 * versions; a line never changes meaning.  LW_ERR_INVALID_ARGUMENT when len
 * is too short (buf then holds the truncated text); 4 KiB always suffice. */
lw_status lw_plan_describe(const lw_plan *plan, char *buf, size_t len);

/* The engines of a backend (values of lw_config.scheme besides "auto" and,
 * on cuda, the papers' schemes below): name of engine i, NULL outside
 * [0, count); *about (when not NULL) one line on what it does. */
int lw_engine_count(lw_backend b);
const char *lw_engine_name(lw_backend b, int i, const char **about);

/* Bytes of device workspace the plan holds (0 on the CPU). */
lw_status lw_workspace_size(const lw_plan *plan, size_t *bytes);

/* CUDA stream (a cudaStream_t passed as void*) for device-pointer execution.
 * NULL means the default stream.  Not thread safe against a concurrent execute.
 * A call may run part of its work on streams the plan owns (tuning
 * tile2d_groups), forked from this stream and joined back to it: the call is
 * ordered on this stream as a whole, and it can be captured in a CUDA graph. */
lw_status lw_set_stream(lw_plan *plan, void *stream);

/* Number of levels the shape allows along the given axes (the largest L for
 * which every transformed axis with n > 1 still has length >= 2 at level L).
 * LW_LEVELS_MAX in a plan means this many in symmetric mode; in periodic mode
 * it means the most levels for which every transformed length stays even
 * (768x1024: 8), and a plan fails only when an axis is odd at level 1.
 * naxes == 0 means all axes.  A plan asking for more levels than this fails
 * with LW_ERR_INVALID_LEVELS, with one exception: when every transformed axis
 * has length 1, *levels is 0 and yet a plan accepts any level count >= 0 (or
 * LW_LEVELS_MAX): the transform is then the identity (a length-1 axis is left
 * unchanged at every level), and lw_plan_config() reports levels = 0. */
lw_status lw_max_levels(int rank, const int64_t *shape, int naxes, const int *axes, int *levels);

/* Length of the lowpass part of an axis of length n after `level` levels. */
int64_t lw_lowpass_length(int64_t n, int level);

/* Text of a status ("invalid argument", ...).  Never NULL; a static string
 * that stays valid for the life of the program (unknown values give
 * "unknown status"). */
const char *lw_status_string(lw_status status);

/* One line describing the last failure in this thread ("" if none).  The
 * pointer is to a per-thread buffer owned by the library (do not free it):
 * it stays valid until the calling thread exits, but its content is replaced
 * by the next failure in that thread and emptied when lw_plan_create starts.
 * Copy the text to keep it.  At most 511 bytes. */
const char *lw_last_error(void);

/* Name <-> enum helpers for command lines and bindings.  The parse functions
 * return LW_ERR_INVALID_ARGUMENT for unknown names. */
const char *lw_wavelet_name(lw_wavelet w);
lw_status lw_wavelet_parse(const char *name, lw_wavelet *w);

/* Properties of a wavelet, as bits (0 for a value outside lw_wavelet):
 *   LW_WAVELET_INTEGER     an integer (reversible) variant exists
 *   LW_WAVELET_FLOAT       a float variant exists
 *   LW_WAVELET_ORTHONORMAL the float transform is orthonormal in periodic
 *                          mode (its adjoint is its inverse; in symmetric
 *                          mode the reflection breaks that, see lw_direction)
 *   LW_WAVELET_SEPARABLE   2-D/3-D transforms are products of 1-D ones (all
 *                          but fs) */
#define LW_WAVELET_INTEGER 0x1u
#define LW_WAVELET_FLOAT 0x2u
#define LW_WAVELET_ORTHONORMAL 0x4u
#define LW_WAVELET_SEPARABLE 0x8u
unsigned lw_wavelet_properties(lw_wavelet w);
const char *lw_mode_name(lw_mode m);
lw_status lw_mode_parse(const char *name, lw_mode *m);
const char *lw_layout_name(lw_layout l);
lw_status lw_layout_parse(const char *name, lw_layout *l);
const char *lw_dtype_name(lw_dtype t);
size_t lw_dtype_size(lw_dtype t);
const char *lw_backend_name(lw_backend b);
lw_status lw_backend_parse(const char *name, lw_backend *b);

/* The keys lw_config.tuning accepts: key i (NULL outside [0, count)) and, in
 * *about when not NULL, one line on its values and default.  Static strings. */
int lw_tuning_count(void);
const char *lw_tuning_key(int i, const char **about);

/* Library version string, and whether a backend is usable on this machine
 * (built in, and for CUDA a device present). */
const char *lw_version(void);
int lw_backend_available(lw_backend b);

/* The GPU algorithms of the papers this build knows (the values of
 * lw_config.scheme besides "auto"), whether or not a device is present; 0
 * when built without CUDA.  The last one is "fs", the Faber-Schauder engine
 * (wavelet fs only).  lw_scheme_name(i) is the name to pass;
 * lw_scheme_about(i) one line "paper P | inverse yes|no | N ops/quad |
 * B barriers | description", ops counted as multiply-accumulates per 2x2
 * block of samples for CDF 9/7 (fs: for the fs wavelet; as the papers count
 * them), barriers per window position of a level.  Both return NULL for i outside
 * [0, lw_scheme_count()); the strings live as long as the program. */
int lw_scheme_count(void);
const char *lw_scheme_name(int i);
const char *lw_scheme_about(int i);

/* ---- measuring (`liftwave bench`) ------------------------------------------
 * Device-side timing of a plan, and the operation table of the papers' GPU
 * schemes. */
typedef enum lw_bench_config {
    LW_BENCH_G2G = 0,          /* device buffers in and out */
    LW_BENCH_C2C = 1,          /* pinned host buffers (cudaMallocHost), library moves the data */
    LW_BENCH_C2C_PAGEABLE = 2, /* pageable host buffers (malloc, as NumPy's), library moves the data */
    LW_BENCH_IN_PLACE = 0x100  /* OR-ed into one of the above: time lw_execute(plan, x, x) on one
                                * buffer of that kind, the input restored before every run */
} lw_bench_config;

typedef struct lw_bench_result {
    double median_s;     /* median time of one execute, seconds */
    double min_s;
    int runs;            /* timed runs after warm-up */
    const char *bound;   /* "device-copy" (G2G) or "pcie" (C2C, both kinds of host memory) */
    double bound_gbps;   /* measured in the same run: bytes read + written per second; pcie:
                          * host-to-device and device-to-host copies of pinned buffers at once */
    int verified;        /* 1: output of the timed runs equals host_ref within tol */
    double max_rel_err;  /* vs host_ref, relative to max |host_ref| */
    char device[128];    /* device name */
    size_t device_extra_bytes; /* device memory the plan took beyond the bench's own buffers (G2G:
                                * in and out, or in place the one array; peak seen) */
    double register_s;   /* C2C_PAGEABLE: cudaHostRegister + cudaHostUnregister of the input and
                          * output buffers, seconds (median of 3; what pageable=register adds per call) */
    char engine[48];     /* the engine the plan ran (the "engine:" line of lw_plan_describe) */
} lw_bench_result;

/* Plan cfg on the CUDA backend, upload host_in (random data of the plan's
 * shape and dtype), warm up, time `repeat` runs with CUDA events (median),
 * measure the bound in the same run, poison the output before the timed runs
 * and compare the result with host_ref (NULL: not verified).  The C2C
 * configs time lw_execute on host buffers of that kind (the plan's tuning
 * says how pageable memory moves); their bound is always pinned memory.
 * With LW_BENCH_IN_PLACE every run (warm-up and timed) transforms one buffer
 * in place; the input is copied back into it before each run, outside the
 * timed region (G2G: from a pristine device copy, C2C: from host_in), and
 * the result of the last run is compared with host_ref.
 * LW_ERR_NO_BACKEND without CUDA.  Not thread safe (it owns the device while
 * it times). */
lw_status lw_cuda_bench(const lw_config *cfg, lw_bench_config config, int repeat, const void *host_in,
                        const void *host_ref, double tol, lw_bench_result *res);

/* The operation table of the papers' GPU schemes (`liftwave bench --scheme
 * list --wavelet W`): counts of scheme i of lw_scheme_name() for wavelet w,
 * one forward level, read off the programs the kernels run (host code, no
 * device needed), next to the paper's numbers. */
typedef struct lw_scheme_cost {
    double ops;         /* arithmetic operations per 2x2 quad of samples: one per lifting or filter tap
                         * executed, scaling omitted (as the papers count) */
    int barriers;       /* barriers per window position (tile), summed over the level's kernels */
    int paper_ops;      /* the paper's (003: Table 2); -1 where it gives none */
    int paper_barriers;
} lw_scheme_cost;

/* 1 and *c filled, or 0 if the scheme does not take w (or the build has no
 * CUDA). */
int lw_scheme_cost_of(int i, lw_wavelet w, lw_scheme_cost *c);

/* Describe the CUDA devices in a caller buffer (one line each); writes "" when
 * there is none.  Returns the number of devices. */
int lw_cuda_device_info(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LIFTWAVE_H */
