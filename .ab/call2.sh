#!/usr/bin/env bash
# build, quick correctness, 3-D / batch in place, d4 matrix cells, batch in place by the passes (inplace=lean)
set -u
export LW_COMMIT=$(cat .ab/commit)
B=$PWD/build-dev
t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_CUDA_SCHEMES=OFF -DLW_GIT_COMMIT=$LW_COMMIT > $OUT/build.log 2>&1
cmake --build $B -j16 --target liftwave test_gpu test_gpu_inplace test_gpu_half >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s)-t0 ))s commit $LW_COMMIT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
T=$B/tests/gpu
step() { local n=$1; shift; local t=$(date +%s); timeout ${TO:-120} "$@" > /tmp/$n.log 2>&1; echo "$n rc=$? $(( $(date +%s)-t ))s: $(tail -1 /tmp/$n.log)"; }
LW_GPU_QUICK=1 step inplace-quick $T/test_gpu_inplace
grep -E "^(engine|in-place|FAIL)" /tmp/inplace-quick.log | head -12
BA="bench --backend cuda --config G2G --inplace=both --json --direction forward,inverse --layout mallat,interleaved --repeat 5"
TO=150 step bench3d $B/liftwave $BA -w cdf97,haar,d4,dd137,cdf53,dd97 --shape 512x512x512 --levels 1
cp /tmp/bench3d.log $OUT/inplace-3d.json
TO=100 step benchbatch $B/liftwave $BA -w cdf97,haar,d4 --shape 192x512x512 --axes 1,2 --levels 1
cp /tmp/benchbatch.log $OUT/inplace-batch.json
TO=100 step benchbatchl $B/liftwave $BA -w cdf97,haar --shape 192x512x512 --axes 1,2 --levels 1 --tune inplace=lean
cp /tmp/benchbatchl.log $OUT/inplace-batch-lean.json
TO=100 step matrixd4 $B/liftwave bench --backend cuda --matrix --json --repeat 7 --matrix-only 'batch-*-d4-*,3d-*-d4-*,video-*'
cp /tmp/matrixd4.log $OUT/matrix-d4.json
python3 - $OUT/inplace-3d.json $OUT/inplace-batch.json $OUT/inplace-batch-lean.json $OUT/matrix-d4.json <<'PY'
import json,sys
for f in sys.argv[1:]:
    for l in open(f):
        try: r=json.loads(l)
        except Exception: continue
        print("%-6s %-14s L%d %-11s %-3s %-5s %8.3f ms frac %.2f ver %s extra %s %s %s" % (r['wavelet'],'x'.join(map(str,r['shape'])),r['levels'],r['layout'][:3],r['direction'][:3],'IN' if r.get('inplace') else 'oop',r['median_s']*1e3,r['fraction_of_bound'],r['verified'],r.get('extra_device_bytes'),r.get('engine',''),r.get('tuning') or ''))
PY
echo "total $(( $(date +%s)-t0 ))s"
