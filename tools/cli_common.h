/* Shared pieces of the liftwave command-line tool: option parsing, error
 * reporting, dtype conversion between the I/O layer and the library, timing.
 *
 * Error convention: a failing helper prints exactly one line
 * "liftwave: <message>" on stderr and returns the exit status to use
 * (LW_EXIT_DATA for runtime/data errors, LW_EXIT_USAGE for usage errors).
 * Nothing calls exit(); statuses travel back up to main(). */
#ifndef LW_CLI_COMMON_H
#define LW_CLI_COMMON_H

#include "liftwave.h"
#include "lw_io.h"

#include <stddef.h>
#include <stdint.h>

#define LW_EXIT_OK 0
#define LW_EXIT_DATA 1  /* runtime or data error */
#define LW_EXIT_USAGE 2 /* bad command line */
#define LW_EXIT_HELP (-1) /* parser printed --help; the command returns 0 */

/* The one table of exit statuses, printed by every command's --help.  Usage
 * errors are those the command line alone shows; everything that depends on
 * files, data or the machine is a data or runtime error. */
#define LW_CLI_EXIT_TEXT                                                                      \
    "Exit status:\n"                                                                        \
    "  0  success\n"                                                                        \
    "  1  data or runtime error: a file cannot be read or written or holds bad data, the\n"  \
    "     options do not fit the data (levels, axes, periodic lengths, recorded\n"           \
    "     parameters), the output is the input, a backend or SIMD path is missing, a\n"     \
    "     transform fails\n"                                                                \
    "  2  usage error: unknown command or option, bad option value, wrong number of\n"      \
    "     arguments, options that contradict each other\n"


#define LW_CLI_MAX_POS 4

/* Which options a command accepts (bit mask for lw_cli_parse). */
#define LW_OPT_TRANSFORM 0x1u /* -w -l -m --layout --integer --axes -b --scheme --force --overwrite
                                 --memory-limit --quiet --progress-after --planes */
#define LW_OPT_RAW 0x2u       /* --shape --dtype */
#define LW_OPT_VIEW 0x4u      /* --stretch */

typedef enum lw_cli_stretch {
    LW_STRETCH_ROBUST = 0, /* lowpass: 0.5..99.5 percentile; details: +-99.5 percentile of |x| */
    LW_STRETCH_MINMAX = 1  /* every band: its own min..max */
} lw_cli_stretch;

typedef struct lw_cli_opts {
    const char *pos[LW_CLI_MAX_POS];
    int npos;

    lw_wavelet wavelet;
    lw_mode mode;
    lw_layout layout;
    int levels; /* >= 0 or LW_LEVELS_MAX */
    int integer;
    int naxes;  /* 0: default axes */
    int axes[LW_MAX_AXES]; /* as given; negative counts from the end (resolved later) */
    lw_backend backend;
    const char *scheme;

    int have_shape, have_dtype;
    lw_raw_spec raw;

    lw_cli_stretch stretch;
    int verbose;
    int force;     /* --force: recorded parameters yield to the options, with a warning */
    int overwrite; /* --overwrite: the output may be the input file */
    unsigned given; /* LW_GIVEN_* bits of the options on the command line */
    uint64_t memory_limit; /* --memory-limit in bytes; 0 = the default (cli_stream.c) */
    uint64_t device_memory_limit; /* --device-memory-limit: lw_config.device_memory_limit (0 = automatic) */
    int quiet;             /* --quiet: no progress bar */
    double progress_after; /* --progress-after: seconds before the bar is first drawn (default 1) */
    int all_planes;        /* video: --planes all (else luma only) */
    int given_planes;
} lw_cli_opts;

/* lw_cli_opts.given: which transform options the user wrote (the others hold
 * defaults, which a coefficient file's recorded parameters may replace). */
#define LW_GIVEN_WAVELET 0x1u
#define LW_GIVEN_LEVELS 0x2u
#define LW_GIVEN_MODE 0x4u
#define LW_GIVEN_LAYOUT 0x8u
#define LW_GIVEN_AXES 0x10u
#define LW_GIVEN_INTEGER 0x20u

/* Print "liftwave: <message>" on stderr; return status. */
int lw_cli_fail(int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Where a --scheme name runs: LW_CLI_ON_CPU when it is an engine of the cpu
 * backend, LW_CLI_ON_CUDA when it is an engine of the cuda backend or one of
 * the papers' GPU schemes (both for "auto"); 0 for a name nothing knows. */
#define LW_CLI_ON_CPU 0x1u
#define LW_CLI_ON_CUDA 0x2u
unsigned lw_cli_scheme_where(const char *name);

/* Print "liftwave: warning: <message>" on stderr. */
void lw_cli_warn(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* A path as error messages show it (lw_io_path_brief: the middle of a very
 * long path elided, so the reason after it is never cut off).  The result
 * lives in one of 4 static buffers, reused in turn: use it at once. */
const char *lw_cli_path(const char *path);

/* Print the library's last error (or the status text when it is empty);
 * return LW_EXIT_DATA. */
int lw_cli_fail_lib(lw_status st);

/* Print a help text to stdout with the library's lists in place of
 * {wavelets}, {integer_wavelets} and {backends} (so that help never lists
 * what the library does not have, nor misses what it has). */
void lw_cli_print_usage(const char *text);

/* Parse argv[1..argc-1] (argv[0] is the command name).  Options may come
 * before, between or after the positional arguments; "--name=value",
 * "--name value", "-x value" and "-xvalue" forms are accepted; "--" ends the
 * options.  usage is printed on stdout for -h/--help (returns LW_EXIT_HELP).
 * Checks the positional count against npos.  Returns LW_EXIT_OK or an exit
 * status (error already printed). */
int lw_cli_parse(int argc, char **argv, unsigned accept, int npos, const char *usage, lw_cli_opts *o);

/* Check an input path: its format is known, .raw has --shape/--dtype,
 * --shape/--dtype are only given for .raw (usage errors), PNG is built when
 * needed and the file is a readable, non-empty regular file (data errors),
 * so that a bad input is reported before any problem with the output. */
int lw_cli_check_input(const char *path, const lw_cli_opts *o);

/* Check an output path before any work: its format is known (and PNG is
 * built when needed) and its directory exists.  image_only: only
 * .png/.pgm/.ppm/.pnm are accepted. */
int lw_cli_check_output(const char *path, int image_only);

/* Read a file through the I/O layer; on failure print one line naming the
 * file and return LW_EXIT_DATA. */
int lw_cli_read(const char *path, const lw_cli_opts *o, lw_array *a);

/* Write through the I/O layer (atomic); on failure print one line. */
int lw_cli_write(const char *path, const lw_array *a);

/* 1 if the path's format is an image (.png, .pgm, .ppm, .pnm). */
int lw_cli_is_image_path(const char *path);

/* Convert a in place to the transform's working type (docs/CONVENTIONS.md / CLI
 * contract): float path uint8/uint16/int16/float32 -> float32, int32/float64
 * -> float64; integer path any integer type -> int32, float -> error.
 * Sets *dt.  Returns LW_EXIT_OK or an exit status (error printed). */
int lw_cli_to_work_type(lw_array *a, int integer, lw_dtype *dt);
/* The rule alone: the working dtype of data of type t (error printed). */
int lw_cli_work_dtype(lw_io_type t, int integer, lw_dtype *dt);

/* Round the values of src to nearest and convert to an 8-bit (all values in
 * [0,255]) or 16-bit (all in [0,65535]) image array in dst; otherwise print
 * the "values do not fit an image" error.  dst gets its own buffer. */
int lw_cli_to_image(const lw_array *src, lw_array *dst);

/* Element i of an array as double (any I/O type). */
double lw_cli_get(const lw_array *a, int64_t i);

/* Number of elements (no overflow: the array is already allocated). */
int64_t lw_cli_count(const lw_array *a);

/* "512x512x3" */
void lw_cli_shape_string(const lw_array *a, char *buf, size_t len);

lw_io_type lw_cli_io_type(lw_dtype t);

/* Monotonic time in seconds. */
double lw_cli_now(void);

/* `liftwave info` (cli_info.c); forward/inverse are in cli_transform.h,
 * view in cli_view.h, bench in cli_bench.h. */
int lw_cli_info(int argc, char **argv);

#endif
