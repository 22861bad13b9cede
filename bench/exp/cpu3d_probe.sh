#!/usr/bin/env bash
# CPU 3-D on the device host: machine facts, thread scaling and pinning of the
# 256^3 cdf97 case (CPU-only build), perf profile when perf exists.
set -u
B=/tmp/lw-cpu-build
{ lscpu; for i in /sys/devices/system/cpu/cpu0/cache/index*; do echo "$(cat $i/level) $(cat $i/type) $(cat $i/size) shared $(cat $i/shared_cpu_list)"; done; nproc; command -v perf; numactl -H 2>&1 | head -5; } >$OUT/machine.txt 2>&1
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DLW_WITH_CUDA=OFF >$OUT/build.log 2>&1 && cmake --build $B -j16 --target liftwave perf_cpu >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
L=$B/liftwave
run() { # label env...
  local lab=$1; shift
  env "$@" $L bench -b cpu -w cdf97 -m periodic,symmetric --shape 256x256x256 --direction forward,inverse --repeat 15 --json ${TH:+--threads $TH} 2>>$OUT/err.txt | python3 -c "import sys,json
for l in sys.stdin:
    r=json.loads(l); print('$lab', r['threads'], r['mode'],r['direction'],'%.3f'%(r['median_s']*1e3),'%.3f'%r['fraction_of_bound'],'%.0f'%r['bound_gbps'])"
}
for rnd in 1 2; do
  for th in 1 2 4 8 16; do TH=$th run plain; done
  TH=16 run close OMP_PROC_BIND=close OMP_PLACES=cores
  TH=16 run spread OMP_PROC_BIND=spread OMP_PLACES=cores
  TH=8 run close8 OMP_PROC_BIND=close OMP_PLACES=cores
done > $OUT/scaling.txt
cat $OUT/scaling.txt
if command -v perf >/dev/null; then
  OMP_NUM_THREADS=16 perf record -g -o $OUT/perf.data $B/tests/cpu/perf_cpu -s 256x256x256 -r 60 >$OUT/perf-run.txt 2>&1
  perf report -i $OUT/perf.data --no-children --percent-limit 1 --stdio 2>/dev/null | head -80 > $OUT/perf-report.txt
  OMP_NUM_THREADS=16 perf stat -e cycles,instructions,cache-misses,LLC-load-misses $B/tests/cpu/perf_cpu -s 256x256x256 -r 60 > $OUT/perf-stat.txt 2>&1
  rm -f $OUT/perf.data
fi
