/* Internal to `liftwave bench` (tools/cli_bench.c: options and output;
 * tools/cli_bench_run.c: timing and verification of one record). */
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

/* One combination of the option values: one record. */
typedef struct combo {
    int rank;
    int64_t shape[3];
    lw_dtype dtype;
    lw_wavelet wavelet;
    int levels;
    lw_mode mode;
    lw_direction dir;
    lw_backend backend;
    int config;         /* CFG_* */
    int host_memory;    /* HM_*: pinned or pageable for C2C, none otherwise */
    const char *scheme; /* "auto" or a GPU algorithm */
    int threads;        /* 0: the OpenMP default */
    int destroy_input;  /* cuda: LW_FLAG_DESTROY_INPUT (--destroy-input) */
    const char *tuning; /* lw_config.tuning (--tune), NULL for none */
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
    size_t extra_device_bytes; /* cuda: device memory taken beyond in and out (peak seen) */
    double register_s;  /* C2C pageable: cudaHostRegister + unregister of in and out (lw_bench_result) */
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

/* Release the input and reference kept between records of the same data
 * (consecutive combinations that differ only in scheme, backend or config). */
void lw_bench_cache_release(void);

/* cli_bench_table.c: `--scheme list` (returns the exit status; with nw > 0
 * wavelets, every scheme's operation and barrier counts for each, next to
 * the papers') and the papers' table over the records of a run (ps/pixel and
 * fraction of the bound at 1 and 10 Mpixel). */
int lw_bench_scheme_list(const lw_wavelet *w, int nw);
void lw_bench_table(FILE *f, const record *r, int n);

#endif
