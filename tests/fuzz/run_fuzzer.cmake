# ctest fuzz_run_<fmt>: run a libFuzzer binary for a few seconds over a copy
# of its seed corpus (libFuzzer adds the inputs it finds to the first corpus
# folder, which must not be the source tree).  A crash, leak, sanitizer report
# or timeout fails the test; the input that caused it is kept in
# WORK/artifacts/ and the end of the log is printed.
#   cmake -DFUZZER=bin -DCORPUS=dir -DWORK=dir [-DDICT=file] [-DSECONDS=5]
#         [-DRUNS=1000000] -P run_fuzzer.cmake
foreach(v FUZZER CORPUS WORK)
  if(NOT ${v})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT SECONDS)
  set(SECONDS 5)
endif()
if(NOT RUNS)
  set(RUNS 1000000)
endif()
if(NOT EXISTS ${FUZZER})
  message(FATAL_ERROR "${FUZZER} was not built")
endif()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK}/corpus)

set(args -max_total_time=${SECONDS} -runs=${RUNS} -max_len=4096 -timeout=10 -rss_limit_mb=2048
         -artifact_prefix=${WORK}/artifacts/ -print_final_stats=1)
if(DICT)
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK}/corpus
                RESULT_VARIABLE rc OUTPUT_FILE ${WORK}/log.txt ERROR_FILE ${WORK}/log.txt)
file(STRINGS ${WORK}/log.txt lines)
list(LENGTH lines n)
set(from 0)
if(n GREATER 25)
  math(EXPR from "${n} - 25")
endif()
list(SUBLIST lines ${from} -1 tail)
string(REPLACE ";" "\n" tail "${tail}")
message("${tail}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${rc}); log ${WORK}/log.txt, input in ${WORK}/artifacts/")
endif()
