/* liftwave: command-line front end of libliftwave.
 *
 *   liftwave forward IN OUT [options]     forward transform
 *   liftwave inverse IN OUT [options]     inverse transform
 *   liftwave view COEFFS OUT.png [opts]   coefficient pyramid as a picture
 *   liftwave bench [options]              speed measurements
 *   liftwave info                         version, backends, devices
 *
 * Exit status: 0 success, 1 runtime or data error, 2 usage error; every
 * error is one line "liftwave: <message>" on stderr. */
#include "cli_bench.h"
#include "cli_common.h"
#include "cli_transform.h"
#include "cli_view.h"

#include <stdio.h>
#include <string.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif

static const char main_usage[] =
    "usage: liftwave COMMAND [arguments] [options]\n"
    "\n"
    "Discrete wavelet transforms by lifting (CPU and CUDA).\n"
    "\n"
    "commands:\n"
    "  forward IN OUT     forward transform  (-w WAVELET -l N|max -m MODE --layout L\n"
    "                     --integer --axes A,B -b BACKEND --shape S --dtype T)\n"
    "  inverse IN OUT     inverse transform (parameters from IN.json, written by forward)\n"
    "  view COEFFS OUT    draw the coefficient pyramid as a .png/.pgm/.ppm picture\n"
    "  bench [options]    speed and fraction of measured memory bandwidth\n"
    "  info               version, backends, CUDA devices, PNG support\n"
    "  help [COMMAND]     this text, or a command's help (also COMMAND --help)\n"
    "\n"
    "options: -h/--help, --version\n"
    "wavelets: {wavelets}\n"
    "modes: symmetric periodic   layouts: mallat interleaved   backends: {backends}\n"
    "files: .npy .pgm .ppm .pnm .png .raw (with --shape and --dtype); video (forward):\n"
    "       .y4m, or - for YUV4MPEG2 on stdin; arrays larger than --memory-limit are\n"
    "       transformed out of core, in slabs; on -b cuda, arrays larger than the\n"
    "       device (or --device-memory-limit) stream through it (docs/OUT_OF_CORE.md)\n"
    "\n"
    "example:\n"
    "  liftwave forward photo.png c.npy -w cdf97 -l 3\n"
    "  liftwave view c.npy pyramid.png\n"
    "  liftwave inverse c.npy back.png\n"
    "\n"
    "forward writes its parameters next to .npy/.raw coefficients (c.npy.json);\n"
    "inverse and view use them.\n"
    "\n" LW_CLI_EXIT_TEXT;

typedef int (*command_fn)(int argc, char **argv);

static command_fn find_command(const char *name)
{
    if (strcmp(name, "forward") == 0) return lw_cli_forward;
    if (strcmp(name, "inverse") == 0) return lw_cli_inverse;
    if (strcmp(name, "view") == 0) return lw_cli_view;
    if (strcmp(name, "info") == 0) return lw_cli_info;
    if (strcmp(name, "bench") == 0) return lw_cli_bench;
    return NULL;
}

static int is_help(const char *s) { return !strcmp(s, "help") || !strcmp(s, "--help") || !strcmp(s, "-h"); }

int main(int argc, char **argv)
{
    if (argc < 2) return lw_cli_fail(LW_EXIT_USAGE, "missing command (try 'liftwave --help')");
    const char *cmd = argv[1];
    if (is_help(cmd)) {
        if (argc == 2) {
            lw_cli_print_usage(main_usage);
            return LW_EXIT_OK;
        }
        if (argc > 3) return lw_cli_fail(LW_EXIT_USAGE, "'help' takes one command name");
        command_fn fn = find_command(argv[2]);
        if (!fn) return lw_cli_fail(LW_EXIT_USAGE, "unknown command '%s' (try 'liftwave --help')", argv[2]);
        char help_flag[] = "--help";
        char *sub[3] = {argv[2], help_flag, NULL};
        return fn(2, sub);
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        if (argc > 2) return lw_cli_fail(LW_EXIT_USAGE, "unexpected argument '%s'", argv[2]);
        printf("liftwave %s (commit %s)\n", lw_version(), LW_GIT_COMMIT);
        return LW_EXIT_OK;
    }
    command_fn fn = find_command(cmd);
    if (!fn) {
        if (cmd[0] == '-') return lw_cli_fail(LW_EXIT_USAGE, "unknown option '%s' (try 'liftwave --help')", cmd);
        return lw_cli_fail(LW_EXIT_USAGE, "unknown command '%s' (try 'liftwave --help')", cmd);
    }
    int rc = fn(argc - 1, argv + 1);
    if (fflush(stdout) != 0 && rc == LW_EXIT_OK) rc = lw_cli_fail(LW_EXIT_DATA, "cannot write to standard output");
    return rc;
}
