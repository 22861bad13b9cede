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
 * fs wavelet (fs_exec.c, k_fs.cu).
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
    /* Arithmetic per 2x2 block of input samples and barriers per level, as
     * the kernels are written (the report's operation table); -1 unknown. */
    int ops_per_quad, barriers;
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
