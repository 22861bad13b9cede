/* `liftwave view`: a coefficient pyramid as a picture. */
#ifndef LW_CLI_VIEW_H
#define LW_CLI_VIEW_H

int lw_cli_view(int argc, char **argv);

#endif
