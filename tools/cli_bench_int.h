/* Internal to `liftwave bench` (tools/cli_bench.c: options and combinations;
 * tools/cli_bench_output.c: records as JSON lines and text rows;
 * tools/cli_bench_run.c: timing and verification of one record;
 * tools/cli_bench_matrix.c: the matrix of target cases, --matrix;
 * tools/cli_bench_summary.c: its floor, median and misses, and the ratios
 * in place / out of place). */
#ifndef LW_CLI_BENCH_INT_H
#define LW_CLI_BENCH_INT_H

#include "liftwave.h"

#include <stdint.h>
#include <stdio.h>

#define LW_BENCH_VERIFY_LIMIT ((int64_t)64 << 20) /* samples checked against cpu-ref; above: see below */
#define LW_BENCH_VERIFY_LIMIT_HOST ((int64_t)256 << 20) /* cpu records up to here still against cpu-ref */
#define LW_BENCH_AUTO_TARGET_S 0.5                /* auto --repeat: about this much timed work */
#define LW_BENCH_AUTO_MIN_RUNS 5
#define LW_BENCH_AUTO_MAX_RUNS 1000
#define LW_BENCH_CUDA_RUNS 20                     /* default --repeat on cuda (fewer from 8 Mi samples) */
#define LW_BENCH_MAX_SCHEMES 64                   /* --scheme values, "all" expanded */

enum { CFG_HOST = 0, CFG_G2G = 1, CFG_C2C = 2 };
extern const char *const lw_bench_config_names[3]; /* "host", "G2G", "C2C" */
/* host memory of a C2C record (--host-memory); HM_NONE for the others */
enum { HM_NONE = 0, HM_PINNED = 1, HM_PAGEABLE = 2 };
extern const char *const lw_bench_host_memory_names[3]; /* "none", "pinned", "pageable" */
/* lw_direction values: names ("forward", "inverse", "forward-adjoint",
 * "inverse-adjoint") and short ones for tables ("fwd", "inv", "fadj", "iadj") */
extern const char *const lw_bench_dir_names[4];
extern const char *const lw_bench_dir_short[4];

/* One combination of the option values: one record. */
typedef struct combo {
    int rank;
    int64_t shape[LW_MAX_RANK];
    int naxes;          /* 0: every axis; else the transformed axes (the others are a batch) */
    int axes[3];
    lw_dtype dtype;
    lw_wavelet wavelet;
    int levels;
    lw_mode mode;
    lw_layout layout;
    lw_direction dir;
    lw_backend backend;
    int config;         /* CFG_* */
    int host_memory;    /* HM_*: pinned or pageable for C2C, none otherwise */
    const char *scheme; /* "auto" or a GPU algorithm */
    int threads;        /* 0: the OpenMP default */
    int destroy_input;  /* cuda: LW_FLAG_DESTROY_INPUT (--destroy-input) */
    int inplace;        /* timed as lw_execute(plan, x, x), the input restored before each run (--inplace) */
    const char *tuning; /* lw_config.tuning (--tune), NULL for none */
    uint64_t device_memory_limit; /* lw_config.device_memory_limit (--device-memory-limit; 0 automatic) */
} combo;

/* One result (the JSON record's values). */
typedef struct record {
    combo c;
    int levels; /* resolved */
    double median_s, gsps, ps, eff_gbps, bound_gbps, frac;
    double bound_best_gbps; /* host: the best of the copies (bound_gbps: their median); 0: not measured */
    const char *bound;  /* "memcpy", "device-copy", "pcie" */
    int threads;        /* CPU threads; 0 for the cuda configs */
    int verified;       /* output equals cpu-ref within tolerance */
    int checked;        /* a comparison was made (0: over the size limit) */
    char device[128];
    char simd[16];      /* host configs: the cpu backend's SIMD path, "" for other backends */
    char engine[48];    /* cuda configs: the engine the plan ran, "" when unknown */
    size_t extra_device_bytes; /* cuda: device memory the plan took beyond the bench's buffers (peak seen) */
    double register_s;  /* C2C pageable: cudaHostRegister + unregister of in and out (lw_bench_result) */
    double floor_bytes; /* the bytes effective_gbps counts (see lw_bench_floor_bytes) */
} record;

/* "liftwave: bench: <message>" on stderr. */
void lw_bench_errline(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* "cdf97 4096x4096 levels=1 float32 symmetric forward on cuda/G2G" (the
 * shape left out when with_shape is 0); the shape alone, "4096x4096". */
void lw_bench_combo_text(const combo *c, int with_shape, char *buf, size_t len);
void lw_bench_shape_text(const combo *c, char *buf, size_t len);

/* Report a library failure for combination c; returns the exit status (2 for
 * an impossible configuration, 1 otherwise). */
int lw_bench_lw_error(const combo *c, const char *what, lw_status s);

void lw_bench_make_config(const combo *c, int integer, lw_backend backend, const char *scheme, lw_config *cfg);

/* Time one combination and fill r.  repeat 0: automatic.  Returns 0 or an
 * exit status (the error already printed).  A verification mismatch is
 * printed and leaves r->checked = 1, r->verified = 0 with status 0. */
int lw_bench_run_one(const combo *c, int integer, int repeat, record *r);

/* The bytes a record's effective_gbps counts: for G2G and host records
 * 2 * itemsize * the samples each level transforms, summed over the levels
 * (a 2-D pyramid tends to 4/3 of one pass, a 3-D one to 8/7; batch axes
 * count in full); for C2C the array up and down once (2 * itemsize * N). */
double lw_bench_floor_bytes(const combo *c, int levels);

/* cli_bench_output.c: one record as a JSON object on one line of f; extra
 * (NULL for none) is appended inside the object as is: ", \"key\": value,
 * ...".  lw_bench_print_row: one row of the text table (the header and the
 * device line first when *header is 0 or the device changed). */
void lw_bench_print_json(FILE *f, const record *r, const char *date, const char *extra);
void lw_bench_print_row(const record *r, int *header, char *last_device, size_t ldlen);
/* "[1, 2]": the transformed axes (every axis when naxes is 0) */
void lw_bench_axes_text(const combo *c, char *buf, size_t len);
void lw_bench_iso_date(char *buf, size_t len);
void lw_bench_json_string(FILE *f, const char *s); /* quoted, escaped */

/* Release the input and reference kept between records of the same data
 * (consecutive combinations that differ only in scheme, backend or config). */
void lw_bench_cache_release(void);

/* cli_bench_table.c: `--scheme list` (returns the exit status; with nw > 0
 * wavelets, every scheme's operation and barrier counts for each, next to
 * the papers') and the papers' table over the records of a run (ps/pixel and
 * fraction of the bound at 1 and 10 Mpixel). */
int lw_bench_scheme_list(const lw_wavelet *w, int nw);
void lw_bench_table(FILE *f, const record *r, int n);

/* cli_bench_matrix.c: `liftwave bench --matrix ...` and `--matrix-summary
 * FILE` (argv as lw_cli_bench's); returns the exit status.  lw_bench_is_matrix:
 * whether argv asks for either. */
int lw_bench_is_matrix(int argc, char **argv);
int lw_bench_matrix(int argc, char **argv);

/* cli_bench_summary.c: a matrix cell's outcome against its target, and the
 * summary of a run (the floor: smallest fraction of the bound and its cell;
 * the median of the fractions; the cells that miss).  A cell's target is a
 * fraction of its bound (met at or above) or a latency (met at or below);
 * a cell meets it only with a verified record. */
enum { TGT_FRACTION = 0, TGT_LATENCY = 1 };
extern const char *const lw_bench_target_kinds[2]; /* "fraction", "latency_s" (the records' target_kind) */
#define LW_MATRIX_FLOOR_TARGET 0.60                /* issue 16: the floor of the whole matrix */

typedef struct cell_result {
    char cell[128];     /* the matrix cell, or (plain bench) the combination without its placement */
    int kind;        /* TGT_* */
    double target;   /* fraction, or seconds */
    double frac;     /* fraction_of_bound */
    double median_s;
    int verified;
    int failed;      /* no measurement (the error is on stderr / in the record) */
    int inplace;     /* timed in place; its out-of-place twin has the same cell name */
    double extra_bytes, array_bytes; /* cuda: extra_device_bytes and the array's bytes; host: 0, 0 */
} cell_result;

int lw_bench_cell_meets(const cell_result *r);
/* Prints the summary as '# ' lines; returns the number of cells that miss.
 * The floor, median and misses are over the out-of-place results; the
 * in-place ones (--inplace) follow as lw_bench_inplace_summary's lines. */
int lw_bench_matrix_summary(FILE *f, const cell_result *r, int n);
/* Per cell with both an out-of-place and an in-place result: the ratio of
 * their median times (in place / out of place), the in-place fraction of the
 * bound, its extra device memory against the array; then the largest ratio
 * and extra memory.  '# ' lines; nothing when no cell has both. */
void lw_bench_inplace_summary(FILE *f, const cell_result *r, int n);
/* --matrix-summary FILE: the summary of matrix records (JSON lines) written
 * by an earlier run; returns the exit status. */
int lw_bench_matrix_summary_file(const char *path);

#endif
