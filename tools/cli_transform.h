/* `liftwave forward` and `liftwave inverse`. */
#ifndef LW_CLI_TRANSFORM_H
#define LW_CLI_TRANSFORM_H

int lw_cli_forward(int argc, char **argv);
int lw_cli_inverse(int argc, char **argv);

/* Pieces shared with the out-of-core and video paths (cli_stream.c,
 * cli_video.c). */
#include "cli_common.h"

/* Usage-level checks of the option combination.  Before the input is read
 * (for an inverse whose wavelet may come from the input's recorded
 * parameters, the integer check waits until those are known). */
int lw_cli_check_combination(const lw_cli_opts *o, int integer_check);
/* Fill cfg's axes from the options and the array's rank. */
int lw_cli_choose_axes(const lw_cli_opts *o, int rank, int image_io, lw_config *cfg);
/* The whole configuration of a transform from the options and the array
 * (cfg initialised by lw_config_init). */
int lw_cli_fill_config(const lw_cli_opts *o, int rank, const int64_t *shape, lw_dtype dt, lw_direction dir,
                       int image_io, lw_config *cfg);

#endif
