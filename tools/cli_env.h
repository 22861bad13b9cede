/* What the machine offers, checked before any work: the SIMD path that
 * LW_CPU_SIMD forces and the CPU thread counts asked for. */
#ifndef LW_CLI_ENV_H
#define LW_CLI_ENV_H

/* The tuning string LW_CPU_SIMD asks for ("simd=NAME"), or NULL when it is
 * unset.  The library reads no environment: the CLI passes this to its plans
 * (lw_config.tuning). */
const char *lw_cli_env_tuning(void);

/* LW_CPU_SIMD names a path this CPU runs (or is unset), as the library
 * judges it: a path the CPU lacks is refused, so that no timing or result is
 * labelled with a path it did not use.  Exit status, error printed. */
int lw_cli_check_simd(void);

/* A CPU thread count no larger than the CPUs this process may run on.  what
 * names the option in the message.  Exit status, error printed. */
int lw_cli_check_threads(const char *what, int threads);

#endif
