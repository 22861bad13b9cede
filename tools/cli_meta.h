/* Coefficient files that know how they were made.
 *
 * `liftwave forward` writes, next to a .npy or .raw coefficient file F, the
 * JSON sidecar F.json with the parameters of the transform, the source
 * dtype, the library version and a checksum of the coefficients; `inverse`
 * and `view` read it back (cli_meta_apply.c).  The format, one flat object:
 *
 *   {"format": "liftwave-coefficients", "format_version": 1,
 *    "library_version": "0.1.0", "wavelet": "cdf97", "levels": 3,
 *    "mode": "symmetric", "layout": "mallat", "axes": [0, 1],
 *    "integer": false, "source_dtype": "uint8", "source_shape": [512, 512, 3],
 *    "dtype": "float32", "shape": [512, 512, 3],
 *    "checksum": "fold64:0123456789abcdef"}
 *
 * shape, dtype and checksum describe the coefficient array as written, so a
 * sidecar left next to a file it does not describe is recognised. */
#ifndef LW_CLI_META_H
#define LW_CLI_META_H

#include "cli_common.h"

typedef struct lw_cli_meta {
    char library_version[32];
    lw_wavelet wavelet;
    int levels;
    lw_mode mode;
    lw_layout layout;
    int naxes;
    int axes[LW_MAX_AXES];
    int integer;
    lw_io_type source_dtype;
    int source_rank;
    int64_t source_shape[LW_IO_MAX_RANK];
    lw_io_type dtype;
    int rank;
    int64_t shape[LW_IO_MAX_RANK];
    uint64_t checksum;
} lw_cli_meta;

/* Checksum of the coefficient bytes as they are held in memory. */
uint64_t lw_cli_checksum(const void *data, size_t bytes);

/* The same checksum over bytes given in parts, in order. */
typedef struct lw_cli_checksum_state {
    uint64_t h[4];
    uint64_t total;
    unsigned char pend[32];
    int npend;
} lw_cli_checksum_state;
void lw_cli_checksum_init(lw_cli_checksum_state *s);
void lw_cli_checksum_add(lw_cli_checksum_state *s, const void *data, size_t bytes);
uint64_t lw_cli_checksum_end(const lw_cli_checksum_state *s);

/* The sidecar's path: data_path + ".json" (0, or -1 when it does not fit). */
int lw_cli_meta_path(const char *data_path, char *buf, size_t len);

/* Does this output format get a sidecar (.npy, .raw)? */
int lw_cli_meta_format(const char *data_path);

/* Write the sidecar of data_path to a temporary file in its directory;
 * *tmp (malloc'd) names it.  lw_cli_meta_commit renames it into place,
 * lw_cli_meta_discard removes it.  Exit statuses, errors printed. */
int lw_cli_meta_stage(const char *data_path, const lw_cli_meta *m, char **tmp);
int lw_cli_meta_commit(const char *data_path, char *tmp);
void lw_cli_meta_discard(char *tmp);

/* Remove the sidecar of data_path, if any (the file there no longer is what
 * it describes).  Prints a warning when it cannot. */
void lw_cli_meta_remove(const char *data_path);

/* Read the sidecar of data_path.  *found = 0 when there is none (returns
 * LW_EXIT_OK); a sidecar that cannot be read or parsed is a data error. */
int lw_cli_meta_read(const char *data_path, lw_cli_meta *m, int *found);

/* "0,1" */
void lw_cli_axes_text(int naxes, const int *axes, char *buf, size_t len);

#endif
