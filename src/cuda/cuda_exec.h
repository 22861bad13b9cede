/* Engine choice and device-side execution of a plan (cuda_exec.c). */
#ifndef LW_CUDA_EXEC_H
#define LW_CUDA_EXEC_H

#include "k_line1d.h"
#include "lw_cuda.h"
#include "../core/band_plan.h"

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    LWE_COPY = 0,   /* no level: copy */
    LWE_GENERIC,    /* one generic pass per level and axis */
    LWE_SMALL,      /* whole items in shared memory, one launch */
    LWE_TILE2D,     /* fused 2-D levels, small-engine tail */
    LWE_TILE3D,     /* 3-D one level: fused planes + one pass */
    LWE_FS,         /* Faber-Schauder */
    LWE_FUSED3D,    /* 3-D one level, float32: one fused kernel */
    LWE_SCHEME,     /* a paper's 2-D scheme at every level (scheme_exec.c) */
    LWE_TILE2D_IL,  /* fused 2-D levels, interleaved layout, in place or not */
    LWE_LOCAL,      /* steps inside their pairs (haar): blocks of F levels a thread (local_exec.c) */
    LWE_LINE1D      /* long contiguous lines, a level a launch, in place held in shared memory (line1d_exec.c) */
};

#define LW_T2_GROUPS_MAX 4

/* The ways the walked lines' Mallat reorder runs (k_permute.cu): whole
 * cycles from a leaders table, whole cycles whose leaders the kernel finds
 * (lines with many short cycles, whose table would outweigh 1/256 of them),
 * cycles cut in pieces (lines with few long cycles) */
enum lw_reorder_kind { LW_REORDER_TABLE, LW_REORDER_FOUND, LW_REORDER_CUT, LW_REORDER_KINDS };

typedef struct lw_cuda_sched {
    int engine;        /* LWE_* */
    int engine_index;  /* its record (cuda_exec.c), unless LWE_SCHEME */
    const char *engine_name;
    int small_from;    /* tile2d, fused3d, line1d: first level (0-based) of the small-engine tail; levels if none */
    int small_inplace; /* in place, the small engine runs the plan (its items fit) instead of the engine's in-place route */
    int dtype;
    size_t esize, bytes;
    int64_t nbatch;
    lwk_wave w;
    size_t scratch;    /* device scratch bytes for an out-of-place run */
    size_t scr_off[2]; /* tile2d: offsets of the two level buffers */
    int tmp_full;      /* fs: the scratch is handed to the engine */
    size_t inplace_scratch; /* extra bytes an in-place run needs */
    size_t walk_stash;      /* generic path: stash of the in-place walks and the reorder's saved samples
                               (inplace_exec.c), at scratch offset 0 */
    int32_t *d_leaders;     /* the Mallat reorder's cycle leaders or pieces (device; the plan owns them) */
    size_t leaders_bytes;
    /* per level and axis: how the walked lines' Mallat reorder runs
     * (lw_reorder_kind), the int32 offset and count of its leaders, or of its
     * pieces (four int32 each, lw_mallat_cycle_pieces), or (LW_REORDER_FOUND:
     * none on the device) the count of cycles the kernel finds */
    int64_t lead_off[LW_MAX_LEVELS][LW_MAX_AXES], lead_n[LW_MAX_LEVELS][LW_MAX_AXES];
    unsigned char lead_kind[LW_MAX_LEVELS][LW_MAX_AXES];
    int64_t lead_piece[LW_MAX_LEVELS][LW_MAX_AXES]; /* LW_REORDER_CUT: the longest piece */
    int ip2d;                /* the in-place tile path runs this plan (tile2d_inplace.c) */
    int ip2d_walk;           /* by the strip walker (k_walk2d.cu), every level; else the tile kernel */
    struct lw_walk_level {
        int wide;
        int64_t strips, groups, per_group, vsegs, vbands;
    } ip2d_wl[LW_MAX_LEVELS]; /* the walker's blocks, level by level */
    size_t ip2d_stash_off;    /* the walker's stash in the workspace (after its counters) */
    int ip2d_oop_tile;        /* out of place, the tile kernel runs instead of the walker */
    int ip2d_oop_fused;       /* out of place, levels 1..this by tile2d_il_oop.c */
    struct lw_plan *il_sub;   /* its forward pyramid's levels 2.. (Mallat, on the compact level-1 lowpass) */
    size_t il_sub_scratch;    /* that plan's scratch */
    size_t ip2d_tile_bytes;   /* its workspace (levels 2.. run in place on out) */
    int64_t ip2d_slots;      /* its stash ring */
    size_t ip2d_flag_off;    /* its flags' offset in the workspace */
    size_t ip2d_bytes;       /* its workspace */
    int32_t *ip2d_lead;      /* Mallat: each level's row-cycle segments (device, int32 triples), */
    int32_t *ip2d_lead_host; /* or on the host where every level's are few (kernel parameters) */
    size_t ip2d_lead_bytes;
    int64_t ip2d_lead_off[LW_MAX_LEVELS], ip2d_lead_n[LW_MAX_LEVELS]; /* int32 offset, segments */
    int ip2d_lead_cut[LW_MAX_LEVELS]; /* the level's cycles cut in segments: flags in the workspace, */
    size_t ip2d_rc_flag_off;          /* at this offset */
    const struct lwk_scheme *scheme; /* LWE_SCHEME: the paper's algorithm */
    size_t scheme_off;               /* LWE_SCHEME: offset of its own scratch */
    int fwd_bands;   /* tile2d forward: LL workspace inside `in` (bands below) */
    int inv_bands;   /* tile2d inverse: workspace inside `out` (bands below) */
    lw_band_geo bg;
    lw_bands bands;
    /* tile2d: the batch's first dimension (t2_items) in t2_groups groups, group g > 0 on
     * stream t2_st[g - 1], forked and joined by the events (tile2d_exec.c; the plan owns them) */
    int t2_groups;
    int64_t t2_items;
    cudaStream_t t2_st[LW_T2_GROUPS_MAX - 1];
    cudaEvent_t t2_ev[LW_T2_GROUPS_MAX];
    /* calls on one plan from several threads (host pointers: a stream each) share the events of
     * the groups and of the end tiles' streams: where the plan has either, its forks, launches and
     * joins are issued under t2_mu (initialised: t2_mu_ok) */
    pthread_mutex_t t2_mu;
    int t2_mu_ok;
    /* tile2d, d4 in symmetric mode (tuning tile2d_side): the end tiles' streams (lwk_tile2d.side),
     * one a group (t2_groups, at least one), created with the plan where t2_side_on */
    int t2_side_on, t2_nside;
    lwk_side *t2_side;
    /* line1d: the levels (0-based) whose lines the device holds at once (in place: one read, one write) */
    unsigned char l1_held[LW_MAX_LEVELS];
    int l1_all_held; /* every level the engine runs is held or in rounds: then no generic pass, no walk */
    int l1_route;    /* the local engine's plan runs in place by the long-line engine */
    unsigned char l1_staged[LW_MAX_LEVELS]; /* out of place: the level reads its lowpass from the scratch */
    size_t l1_x_off[2], l1_stage_bytes;     /* the two staging buffers' offsets, their bytes */
    /* in place, levels the device cannot hold at once run in rounds (lwk_line1d_rounds; l1_rounds[k]),
     * the Mallat layout's in pairs of l1_pair[k] samples whose halves then move to the Mallat order
     * as rows along the cycles of their permutation (k_rowcycle.h: l1_rc_n[k] segments at l1_rc_off[k]
     * of l1_rc, device memory of l1_rc_bytes; cut in pieces: l1_rc_cut[k], flags in the in-place
     * scratch at l1_flag_off, after the rounds' saved samples) */
    unsigned char l1_rounds[LW_MAX_LEVELS], l1_rc_cut[LW_MAX_LEVELS];
    int64_t l1_pair[LW_MAX_LEVELS], l1_rc_off[LW_MAX_LEVELS], l1_rc_n[LW_MAX_LEVELS];
    int32_t *l1_rc;
    size_t l1_rc_bytes, l1_flag_off, l1_rnd_scratch;
} lw_cuda_sched;

/* The fused 2-D engine's run, out of place (tile2d_exec.c).  lw_tile2d_streams_plan:
 * whether the batch runs in groups (tuning tile2d_groups) and the end tiles beside
 * the others (tile2d_side); lw_tile2d_streams_create / _release: the streams and
 * events those take, at plan creation / destruction. */
lw_status lw_tile2d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st);
void lw_tile2d_streams_plan(const lw_plan *p, lw_cuda_sched *s);
lw_status lw_tile2d_streams_create(lw_cuda_sched *s);
void lw_tile2d_streams_release(lw_cuda_sched *s);

/* The generic path's passes (inplace_exec.c).  lw_cuda_pass_whole: a block
 * holds whole lines (the line kernels or the column pass; in place is safe),
 * lw_cuda_whole_pass runs such a pass; lw_cuda_passes_whole: every pass
 * of the plan is one.  lw_cuda_pass_walks: the pass
 * runs in place only by walking (its lines are cut in segments);
 * lw_cuda_walk_prepare (from lw_cuda_choose): the stash size and the cycle
 * leaders (or pieces) on the device; lw_cuda_sched_release frees them;
 * lw_cuda_walk_pass: level k, axis a in place on data (Mallat reordered);
 * lw_cuda_reorder_counts: the walked passes (no plane pass taking them) whose
 * reorder runs each way (n[kind], LW_REORDER_KINDS of them). */
int lw_cuda_pass_whole(const lw_cuda_sched *s, const lwk_pass *ps);
/* every pass of every level holds whole lines, a block's or a cluster's
 * (lw_cuda_axis_plane_of; in place: no workspace, no reorder) */
int lw_cuda_passes_whole(const lw_plan *p, const lw_cuda_sched *s);
/* Level k's axes at execution indices ai and ai + 1 (the inverse's order
 * reversed) as one plane pass (lwk_planes; tuning planes): 1 where the two
 * make planes of contiguous rows that the plane kernels take from src to dst
 * (NULL: any aligned pointers), pl filled for lwk_plane_launch.
 * lw_cuda_plane_levels: the levels of the plan with such a pass, and in
 * *axis_passes (if not NULL) the passes of one axis by the plane kernels
 * (lw_cuda_axis_plane_of). */
int lw_cuda_planes_of(const lw_plan *p, const lw_cuda_sched *s, int k, int ai, const lwk_wave *w, int inverse,
                     const void *src, const void *dst, lwk_planes *pl);
int lw_cuda_plane_levels(const lw_plan *p, const lw_cuda_sched *s, int *axis_passes);
/* The lines L (one level, one axis: lw_lines_for) by the plane kernels
 * alone (lwk_planes.yonly): side by side along the dimension of contiguous
 * samples. */
int lw_cuda_axis_plane_of(const lw_plan *p, const lw_cuda_sched *s, const lw_lines *L, const lwk_wave *w,
                          int inverse, const void *src, const void *dst, lwk_planes *pl);
lw_status lw_cuda_whole_pass(const lw_cuda_sched *s, const lwk_pass *ps, const void *src, void *dst, cudaStream_t st);
int lw_cuda_pass_walks(const lw_cuda_sched *s, const lwk_pass *ps);
lw_status lw_cuda_walk_prepare(const lw_plan *p, lw_cuda_sched *s);
void lw_cuda_sched_release(lw_cuda_sched *s);
lw_status lw_cuda_walk_pass(const lw_cuda_sched *s, int k, int a, const lwk_pass *ps, void *data, void *stash,
                            cudaStream_t st);
void lw_cuda_reorder_counts(const lw_plan *p, const lw_cuda_sched *s, int n[LW_REORDER_KINDS]);

/* 2-D by the fused in-place kernels, the strip walker or else the tile
 * kernel (tile2d_inplace.c): whether the plan's levels suit them; prepare:
 * their workspace within the in-place bound and the
 * row-cycle leaders (s->ip2d stays 0 where the bound cannot be met); run: the
 * interleaved layout in place or out of place, the Mallat layout in place
 * (in == out), with the workspace of s->ip2d_bytes. */
int lw_ip2d_applies(const lw_plan *p, const lw_cuda_sched *s);
lw_status lw_ip2d_prepare(const lw_plan *p, lw_cuda_sched *s);
void lw_ip2d_release(lw_cuda_sched *s);
lw_status lw_ip2d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *ws, cudaStream_t st);

/* The interleaved layout out of place by the fused 2-D tiles (tile2d_il_oop.c):
 * the levels from the first that the route runs (one level, or every level of
 * a forward pyramid: tuning il_compact; 0 where it does not apply; 1: the rest,
 * if any, then in place on out: lw_ip2d_run); prepare: a pyramid's Mallat plan
 * of levels 2.. (s->il_sub; release destroys it); its workspace; the run. */
int lw_il_oop_levels(const lw_plan *p, const lw_cuda_sched *s);
lw_status lw_il_oop_prepare(const lw_plan *p, lw_cuda_sched *s);
void lw_il_oop_release(lw_cuda_sched *s);
size_t lw_il_oop_bytes(const lw_plan *p, const lw_cuda_sched *s);
/* s->scratch out of place: the route's workspace, or the in-place kernels' for the levels it leaves */
void lw_il_oop_scratch(const lw_plan *p, lw_cuda_sched *s);
/* The plan's scratch without the pyramid route (the in-place kernels' on out), SIZE_MAX where it
 * has none or cannot do without it; lw_il_oop_drop drops it (1) for a device that cannot hold its
 * workspace, recomputing s->scratch, or keeps it (0). */
size_t lw_il_oop_fallback_bytes(const lw_cuda_sched *s);
int lw_il_oop_drop(const lw_plan *p, lw_cuda_sched *s);
lw_status lw_il_oop_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st);

/* The long-line engine (line1d_exec.c): whether it runs the plan's level k
 * (lines long enough, the wavelet and type its kernels take); prepare: the
 * levels the device holds (s->l1_held), those staged out of place
 * (s->l1_staged) and those in place in rounds (s->l1_rounds, their row
 * cycles in device memory: lw_line1d_release); workspace: the staging
 * buffers or the walk's stash, the larger; run: out of place or in place
 * (levels neither held nor in rounds by the generic path's walk:
 * lw_cuda_generic_level). */
int lw_line1d_level_ok(const lw_plan *p, const lw_cuda_sched *s, int k);
lw_status lw_line1d_prepare(const lw_plan *p, lw_cuda_sched *s);
void lw_line1d_release(lw_cuda_sched *s);
void lw_line1d_workspace(const lw_plan *p, lw_cuda_sched *s);
lw_status lw_line1d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                        cudaStream_t st);
/* Level k of the generic path in place on out (in: the plan's input, whose
 * bands an inverse's coarse-first levels read), scratch: the walks' stash */
lw_status lw_cuda_generic_level(const lw_plan *p, const lw_cuda_sched *s, int k, const void *in, void *out,
                                void *scratch, cudaStream_t st);

/* Choose the engine: levels 0 copy; a paper's scheme by name
 * (lw_cuda_choose_scheme); an engine by name, which must apply
 * (LW_ERR_UNSUPPORTED otherwise); "auto": the first engine record that
 * applies.  Fills s with the engine and its workspace. */
lw_status lw_cuda_choose(const lw_plan *p, lw_cuda_sched *s);
/* The engine records: count, and name / one-line description of record i. */
int lw_cuda_engine_count(void);
const char *lw_cuda_engine_name(int i, const char **about);
/* A short name of engine id LWE_* (for tests and benchmarks; "?" if none). */
const char *lw_cuda_engine_id_name(int engine);

/* Enqueue the whole transform on st.  in/out are device pointers (in == out
 * allowed); scratch holds s->scratch bytes, or s->inplace_scratch for an
 * in-place run. */
lw_status lw_cuda_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                      cudaStream_t st);

/* 1 if name is neither "auto" nor an engine record's name: then it must be
 * one of the papers' schemes (lw_scheme.h). */
int lw_cuda_is_paper_scheme(const char *name);
/* Plane view of base at level k (compact: the LL scratch layout) and the
 * one-level description of level k, for the scheme executor. */
lwk_plane lw_cuda_plane_of(const lw_plan *p, const void *base, int k, int compact);
void lw_cuda_tile_setup(const lw_plan *p, const lw_cuda_sched *s, int k, lwk_tile2d *t);

/* LWE_SCHEME (scheme_exec.c): check the plan against p->scheme, fill s
 * (engine, scratch); LW_ERR_UNSUPPORTED with a message if the scheme cannot
 * run this plan.  lw_cuda_run_scheme enqueues it. */
lw_status lw_cuda_choose_scheme(const lw_plan *p, lw_cuda_sched *s);
lw_status lw_cuda_run_scheme(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                             cudaStream_t st);

/* First level of the fused 2-D engine in row bands (tile2d_bands.c); t is
 * the level's tile description (rows, cols, wavelet, mode). */
lw_status lw_bands_run_fwd(const lw_cuda_sched *s, const lwk_tile2d *t, const void *in, void *out, cudaStream_t st);
lw_status lw_bands_run_inv(const lw_cuda_sched *s, const lwk_tile2d *t, const void *in, void *out, void *scratch,
                           cudaStream_t st);
/* LWE_FS (fs_exec.c): its scratch needs (set in s), and the transform. */
/* the kernels' view of a plan: transformed axes, batch dims, levels, mode, layout */
void lw_cuda_fs_setup(const lw_plan *p, lwk_fs *f);
void lw_cuda_fs_sched(const lw_plan *p, lw_cuda_sched *s);
lw_status lw_cuda_run_fs(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                         cudaStream_t st);

/* The small engine's tail of a pyramid (s->engine tile2d or fused3d): its
 * first level, the first k >= 1 the fused engine does not run (levels if
 * none).  small_exec.c: whether it holds levels k .. levels-1 of the plan's
 * items; lw_cuda_small_setup: its parameters for levels k0 .. levels-1, the
 * region at the array's strides and the batch's (callers set compact
 * buffers). */
int lw_cuda_small_from(const lw_plan *p, const lw_cuda_sched *s);
int lw_cuda_fits_small(const lw_plan *p, const lw_cuda_sched *s, int k);
void lw_cuda_small_setup(const lw_plan *p, const lw_cuda_sched *s, int k0, lwk_small *sm);

/* LWE_FUSED3D (fused3d_exec.c): bytes of level k's lowpass octant of a
 * volume, the pyramid's two octant buffers (s->scratch), the transform
 * (levels from s->small_from by the small engine in one launch). */
size_t lw_cuda_octant_bytes(const lw_plan *p, const lw_cuda_sched *s, int k);
void lw_fused3d_workspace(const lw_plan *p, lw_cuda_sched *s);
/* mirror_policy.c: whether "auto" takes a fused engine that refreshes the
 * mirror per step (d4, symmetric mode) for planes of rows x cols (levels:
 * the fused 2-D kernel's, 1 for 3d-yx, -1 for the in-place kernels), or for
 * the plan's volume (fused3d); 1 for the other wavelets, modes and named
 * engines */
int lw_cuda_mirror_worth_planes(const lw_plan *p, int64_t rows, int64_t cols, int levels);
/* 1 where the fused kernels need no mirror refresh (or the engine is named) */
int lw_cuda_mirror_free(const lw_plan *p);
/* 1 where the fused kernels refresh the mirror before every step, named or not */
int lw_cuda_mirror_refreshed(const lw_plan *p);
int lw_cuda_mirror_worth_volume(const lw_plan *p);
lw_status lw_fused3d_run(const lw_plan *p, const lw_cuda_sched *s, const void *in, void *out, void *scratch,
                         cudaStream_t st);
/* the engines that read neighbours another block writes (in place: the
 * fused in-place kernels or the generic path) */
int lw_cuda_engine_fused(int engine);
/* in place (in == out), the engine hands the plan to the fused engines' in-place
 * route (the tile kernels where prepared, else the generic passes, or
 * tuning inplace=copy): the fused engines, and the local one on the Mallat
 * layout */
int lw_cuda_inplace_routed(const lw_plan *p, int engine);
/* Engine (LWE_*) a CUDA plan runs, for tests and benchmarks; -1 otherwise. */
int lw_cuda_plan_engine(const lw_plan *p);

#ifdef __cplusplus
}
#endif

#endif
