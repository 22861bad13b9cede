#!/usr/bin/env bash
# The issue-5 CPU record set on this host (CPU-only build of the tree):
# test_cpu_fast on the best SIMD path at all cores, then CPU_RUNS runs of the
# 3-D 256^3 set and CPU_RUNS2D runs of the 2-D 8192^2 set, every record a
# JSON line in $OUT/cpu-records.jsonl (command added), machine facts in
# $OUT/host.txt.  LW_COMMIT names the tree (the device copy has no .git).
set -u
OUT=${OUT:-/tmp/cpu-records}; mkdir -p $OUT
B=${LW_BUILD_DIR:-/tmp/lw-cpu-rec}
{ grep -m1 "model name" /proc/cpuinfo; nproc; cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1; uptime; } > $OUT/host.txt
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DLW_WITH_CUDA=OFF -DLW_GIT_COMMIT="${LW_COMMIT:-unknown}" >$OUT/build.log 2>&1 &&
cmake --build $B -j$(nproc) --target liftwave test_cpu_fast >>$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
if [ -n "${CPU_TEST-1}" ]; then
  echo "test_cpu_fast ($(nproc) threads): $(OMP_NUM_THREADS=$(nproc) $B/tests/cpu/test_cpu_fast 2>&1 | grep -E '^simd|checks' | paste -sd' ')" | tee -a $OUT/host.txt
fi
: > $OUT/cpu-records.jsonl
rec() {
  local cmd="liftwave bench $* --json"
  $B/liftwave bench "$@" --json 2>>$OUT/err.txt | sed "s|^{|{\"command\": \"$cmd\", |" >> $OUT/cpu-records.jsonl
}
for i in $(seq 1 ${CPU_RUNS:-5}); do
  rec --backend cpu --wavelet cdf97 --mode periodic,symmetric --shape 256x256x256 --levels 1 --direction forward,inverse --repeat 15
done
for i in $(seq 1 ${CPU_RUNS2D:-1}); do
  rec --backend cpu --wavelet cdf97 --mode periodic --shape 8192x8192 --levels 1,5 --direction forward,inverse --repeat 9
done
python3 - $OUT/cpu-records.jsonl <<'PY' | tee $OUT/summary.txt
import sys, json
for l in open(sys.argv[1]):
    r = json.loads(l)
    print('%-9s L%d %-12s %-8s %8.3f ms  fraction %.3f of median copy %.0f GB/s, %.3f of best copy %.0f GB/s (%d threads, %s)' % (r['mode'], r['levels'], 'x'.join(map(str, r['shape'])), r['direction'], r['median_s'] * 1e3, r['fraction_of_bound'], r['bound_gbps'], r.get('fraction_of_best_bound', 0), r.get('bound_best_gbps', 0), r['threads'], r['simd'] if 'simd' in r else ''))
PY
