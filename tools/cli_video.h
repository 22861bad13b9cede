/* `liftwave forward clip.y4m OUT` and `liftwave forward - OUT`: the 3-D
 * (T,H,W) transform of a sequence of video frames (cli_video.c). */
#ifndef LW_CLI_VIDEO_H
#define LW_CLI_VIDEO_H

#include "cli_common.h"

/* Is IN a video: "-" (stdin) or a .y4m file? */
int lw_cli_is_video_input(const char *in, const lw_cli_opts *o);

int lw_cli_video_forward(const char *in, const char *out, lw_cli_opts *o);

#endif
