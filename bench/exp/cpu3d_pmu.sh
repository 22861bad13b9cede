#!/usr/bin/env bash
# CPU 3-D on the device host with counters (perf_event_open in perf_cpu -P):
# frequency (cycles / task clock), IPC and stall shares of the 256^3 cdf97
# transform and of a memcpy of the same bytes, at 1 .. 16 threads.
#   PMU_THREADS="1 8 16"  PMU_REPS=40  PMU_ENV="LW_CPU_STREAM=0"
set -u
B=/tmp/lw-cpu-build
OUT=${OUT:-/tmp/pmu-out}; mkdir -p $OUT
{ lscpu; echo "paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>&1)"; grep -m1 -o 'arch_perfmon\|hypervisor' /proc/cpuinfo | sort -u; } >$OUT/machine.txt 2>&1
grep -E "Model name|Thread|Core|Socket|MHz|NUMA|L2|L3|paranoid|perfmon|hypervisor" $OUT/machine.txt
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DLW_WITH_CUDA=OFF >$OUT/build.log 2>&1 &&
  cmake --build $B -j16 --target perf_cpu >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$B/tests/cpu/perf_cpu
for th in ${PMU_THREADS:-1 16}; do
  for args in "" "-i"; do
    for e in "" ${PMU_ENV:-}; do
      echo "== threads $th $args ${e:-default}"
      env ${e:+$e} OMP_NUM_THREADS=$th $P -s 256x256x256 -r ${PMU_REPS:-40} -P $args 2>&1
    done
  done
done | tee $OUT/pmu.txt
