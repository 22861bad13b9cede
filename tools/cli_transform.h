/* `liftwave forward` and `liftwave inverse`. */
#ifndef LW_CLI_TRANSFORM_H
#define LW_CLI_TRANSFORM_H

int lw_cli_forward(int argc, char **argv);
int lw_cli_inverse(int argc, char **argv);

#endif
