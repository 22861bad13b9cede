#!/usr/bin/env bash
# sanitizers on the line kernels, then the in-place / d4 benchmark records
set -u
export LW_COMMIT=$(cat .ab/commit)
B=$PWD/build-dev
t0=$(date +%s)
if [ ! -x $B/liftwave ] || [ ! -x $B/tests/gpu/test_gpu ]; then
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_CUDA_SCHEMES=OFF -DLW_GIT_COMMIT=$LW_COMMIT > $OUT/build.log 2>&1
cmake --build $B -j16 --target liftwave test_gpu test_gpu_inplace test_gpu_half >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
fi
echo "build $(( $(date +%s)-t0 ))s commit $LW_COMMIT"
T=$B/tests/gpu
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
san() { local n=$1; shift; local t=$(date +%s); timeout ${TO:-120} "$@" > /tmp/$n.log 2>&1; echo "$n rc=$? $(( $(date +%s)-t ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/$n.log | tail -1) / $(grep 'checks passed' /tmp/$n.log)"; grep -E "line-pass|engine generic" /tmp/$n.log; }
LW_GPU_QUICK=1 LW_GPU_ORACLE=cpu TO=150 san memcheck-inplace $CS --tool memcheck --error-exitcode 3 $T/test_gpu_inplace
LW_GPU_QUICK=1 LW_GPU_CASES=30 TO=120 san racecheck-gpu $CS --tool racecheck --error-exitcode 3 $T/test_gpu
tail -3 /tmp/racecheck-gpu.log
BA="bench --backend cuda --config G2G --inplace=both --json --direction forward,inverse --layout mallat,interleaved --repeat 5"
: > $OUT/inplace.json
timeout 120 $B/liftwave $BA -w haar,cdf53,cdf97,dd137,d4,dd97 --shape 512x512x512 --levels 1 >> $OUT/inplace.json 2>/tmp/b1.err; echo "bench 3d rc=$?"
timeout 100 $B/liftwave $BA -w haar,cdf53,cdf97,dd137,d4,dd97 --shape 192x512x512 --axes 1,2 --levels 1 >> $OUT/inplace.json 2>/tmp/b2.err; echo "bench batch rc=$?"
timeout 60 $B/liftwave bench --backend cuda --matrix --json --repeat 7 --matrix-only 'batch-*-d4-*,3d-*-d4-*,video-*' > $OUT/matrix-d4.json 2>/tmp/b3.err; echo "matrix rc=$?"
python3 - $OUT/inplace.json $OUT/matrix-d4.json <<'PY'
import json,sys
for f in sys.argv[1:]:
    for l in open(f):
        try: r=json.loads(l)
        except Exception: continue
        print("%-6s %-14s L%d %-3s %-3s %-3s %7.3f ms %.2f %s %s %s" % (r['wavelet'],'x'.join(map(str,r['shape'])),r['levels'],r['layout'][:3],r['direction'][:3],'IN' if r.get('inplace') else 'oop',r['median_s']*1e3,r['fraction_of_bound'],'ok' if r['verified'] else 'BAD',r.get('extra_device_bytes'),r.get('engine','')))
PY
echo "total $(( $(date +%s)-t0 ))s"
