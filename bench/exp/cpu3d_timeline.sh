#!/usr/bin/env bash
# CPU 3-D on the device host: the per-thread timeline of the 256^3 cdf97
# engine (perf_cpu -T: fork, busy per thread, last unit per thread, join)
# under environment variants, alternating rounds.
#   TL_VARIANTS="default OMP_WAIT_POLICY=active LW_CPU_VOL_SPLIT=8x8"
#   TL_ROUNDS=3  TL_THREADS=16  TL_REPS=30  TL_CASES="-m periodic;-m periodic -i"
set -u
B=${LW_BUILD_DIR:-/tmp/lw-cpu-build}
OUT=${OUT:-/tmp/tl-out}; mkdir -p $OUT
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DLW_WITH_CUDA=OFF >$OUT/build.log 2>&1 &&
  cmake --build $B -j16 --target perf_cpu test_cpu_fast >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$B/tests/cpu/perf_cpu
# TL_TEST="16 LW_CPU_VOL_SPLIT=1x1,OMP_NUM_THREADS=16": test_cpu_fast under each setting first
for t in ${TL_TEST:-}; do
  e=$(echo "$t" | tr ',' ' '); case $t in *=*) ;; *) e="OMP_NUM_THREADS=$t";; esac
  echo "test_cpu_fast $t: $(env $e $B/tests/cpu/test_cpu_fast 2>&1 | tail -1)"
done | tee $OUT/tests.txt
CASES=${TL_CASES:-"-m periodic;-m periodic -i;-m symmetric;-m symmetric -i"}
for rnd in $(seq 1 ${TL_ROUNDS:-3}); do
  for th in ${TL_THREADS:-16}; do
    for v in ${TL_VARIANTS:-default}; do
      echo "$CASES" | tr ';' '\n' | while read -r args; do
        [ -n "$args" ] || continue
        e=; [ "$v" != default ] && e=$(echo "$v" | tr ',' ' ')
        echo "== round $rnd threads $th variant $v case $args"
        env $e OMP_NUM_THREADS=$th $P -s 256x256x256 -r ${TL_REPS:-30} -T $args 2>&1
      done
    done
  done
done | tee $OUT/timeline.txt | grep -E "^==|median|timeline"
