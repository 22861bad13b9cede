/* What the machine offers, checked before any work: the SIMD path that
 * LW_CPU_SIMD forces and the CPU thread counts asked for. */
#ifndef LW_CLI_ENV_H
#define LW_CLI_ENV_H

/* The tuning string the environment asks for, or NULL: LW_CPU_SIMD,
 * LW_CPU_RING_KB, LW_CPU_PREFETCH, LW_CPU_WALK, LW_CPU_WALK_KB,
 * LW_CPU_SPLIT_MIN, LW_CPU_VOL_SPLIT, LW_CPU_STREAM (0/1) as their tuning keys
 * (docs/TUNING.md), then LW_TUNING as it is.  The library reads no
 * environment: the CLI passes this to its plans (lw_config.tuning). */
const char *lw_cli_env_tuning(void);

/* The environment's tuning is valid on this machine, as the library judges
 * it (a SIMD path the CPU lacks, an unknown key or a bad value is refused,
 * so that no timing or result is labelled with a setting it did not use).
 * Exit status, error printed. */
int lw_cli_check_env_tuning(void);

/* A CPU thread count no larger than the CPUs this process may run on.  what
 * names the option in the message.  Exit status, error printed. */
int lw_cli_check_threads(const char *what, int threads);

#endif
