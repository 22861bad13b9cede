/* `liftwave bench`: times the transform in memory on random data and reports
 * speed against a bandwidth bound measured in the same run (docs/METHOD.md). */
#ifndef LW_CLI_BENCH_H
#define LW_CLI_BENCH_H

/* argv[0] is "bench".  Prints records on stdout and errors as one line
 * "liftwave: ..." on stderr.  Returns the process exit status: 0 success,
 * 1 runtime failure (allocation, missing backend, wrong output), 2 usage. */
int lw_cli_bench(int argc, char **argv);

#endif
