/* The GPU algorithms of the papers as selectable schemes (issue 4).
 *
 * A 2-D scheme computes ONE level of a 2-D Mallat transform over a batch of
 * planes with the same contract as the fused engine (lwk_tile2d_forward /
 * lwk_tile2d_inverse in lw_cuda.h): forward reads src and writes the LL band
 * to dll and the three detail bands to ddet (Mallat positions; dll may equal
 * ddet, then LL goes to its Mallat corner); inverse reads sll + sdet and
 * writes dst.  src/dst never overlap the band planes.  The executor
 * (scheme_exec.c) runs a scheme at every level of a pyramid, so a scheme is
 * measured as the paper describes it, without the default engine's tricks.
 *
 * Families (one file set each; every family exports find/count/at):
 *   "sep:H+V"   separable passes of Kucis et al. (000)      scheme_sep.c, k_sep_*.cu
 *   block names Barina et al. (003): sweldens, iwahashi, explosive, monolithic,
 *               polyphase, convolution and iwahashi*, explosive*, monolithic*,
 *               polyphase*                                  scheme_block.c, k_block*.cu
 * Faber-Schauder ("fs", 004) is not a 2-D tile scheme: it is the engine of the
 * fs wavelet (fs_exec.c, k_fs.cu); the public list (scheme_api.c) adds it
 * after these families.
 *
 * Every scheme gives the CPU reference's result (float32 within 1e-5
 * relative, integer exact) for every size and mode it accepts; `supported`
 * says which (wavelet, dtype, mode, lengths) it takes, and plan creation fails
 * with LW_ERR_UNSUPPORTED and a message naming the scheme otherwise. */
#ifndef LW_SCHEME_H
#define LW_SCHEME_H

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lwk_scheme lwk_scheme;

/* The report's operation table: counts of one level, forward, for one wavelet,
 * read off the programs the kernels run (compile-time step tables), and the
 * paper's numbers next to them. */
typedef struct lwk_cost {
    double ops;         /* arithmetic operations per 2x2 quad of samples: one per lifting or filter tap
                         * the kernels execute (redundant evaluations included), scaling omitted as the
                         * papers count; a fraction where the redundant work does not divide evenly */
    int barriers;       /* __syncthreads per window position (tile), summed over the level's kernels */
    int paper_ops;      /* the paper's count (003: Table 2); -1 where the paper gives none */
    int paper_barriers;
} lwk_cost;

struct lwk_scheme {
    const char *name;   /* exactly as given to --scheme */
    const char *paper;  /* "000" or "003" */
    const char *about;  /* one line for `liftwave bench --scheme list` and reports */
    int has_inverse;    /* 0: forward only (plan creation refuses the inverse) */
    int variant;        /* family-private index */
    /* 1 if the scheme implements this case. */
    int (*supported)(const lwk_scheme *sc, int dtype, const lwk_wave *w, int mode, int64_t rows, int64_t cols);
    /* Device scratch bytes one level of these planes needs (0 if none). */
    size_t (*scratch_bytes)(const lwk_scheme *sc, int dtype, const lwk_tile2d *t);
    cudaError_t (*forward)(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane src, lwk_plane dll,
                           lwk_plane ddet, void *scratch, cudaStream_t s);
    cudaError_t (*inverse)(const lwk_scheme *sc, int dtype, const lwk_tile2d *t, lwk_plane sll, lwk_plane sdet,
                           lwk_plane dst, void *scratch, cudaStream_t s);
    /* Counts for wavelet `wavelet` (an lw_wavelet); 0 if the scheme does not
     * take it.  Host code: no device needed. */
    int (*cost)(const lwk_scheme *sc, int wavelet, lwk_cost *c);
};

/* Families.  find: NULL if the name is not theirs. */
const lwk_scheme *lwk_sep_find(const char *name);
int lwk_sep_count(void);
const lwk_scheme *lwk_sep_at(int i);
const lwk_scheme *lwk_block_find(const char *name);
int lwk_block_count(void);
const lwk_scheme *lwk_block_at(int i);

/* The registry over all families (scheme_table.c). */
const lwk_scheme *lwk_scheme_find(const char *name);
int lwk_scheme_count(void);
const lwk_scheme *lwk_scheme_at(int i);

#ifdef __cplusplus
}
#endif

#endif
