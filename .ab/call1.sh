#!/usr/bin/env bash
# build, quick correctness, then the 3-D / batch in-place rows and the d4 matrix cells
set -u
export LW_COMMIT=$(cat .ab/commit)
B=$PWD/build-dev
t0=$(date +%s)
if [ ! -x $B/liftwave ]; then
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_CUDA_SCHEMES=OFF -DLW_GIT_COMMIT=$LW_COMMIT > $OUT/build.log 2>&1
cmake --build $B -j16 --target liftwave test_gpu test_gpu_inplace test_gpu_half >> $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
fi
echo "build $(( $(date +%s)-t0 ))s"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
T=$B/tests/gpu
step() { local n=$1; shift; local t=$(date +%s); timeout ${TO:-120} "$@" > $OUT/$n.log 2>&1; echo "$n rc=$? $(( $(date +%s)-t ))s: $(tail -1 $OUT/$n.log)"; }
LW_GPU_QUICK=1 step inplace-quick $T/test_gpu_inplace
grep -E "^(engine|in-place|FAIL)" $OUT/inplace-quick.log | head -20
BA="bench --backend cuda --config G2G --inplace=both --json --direction forward,inverse --layout mallat,interleaved --repeat 5"
TO=200 step bench3d $B/liftwave $BA -w cdf97,haar,d4,dd137 --shape 512x512x512 --levels 1
cp $OUT/bench3d.log $OUT/inplace-3d.json
TO=120 step benchbatch $B/liftwave $BA -w cdf97,haar,d4 --shape 192x512x512 --axes 1,2 --levels 1
cp $OUT/benchbatch.log $OUT/inplace-batch.json
TO=100 step benchbatchg $B/liftwave $BA -w cdf97,haar --shape 192x512x512 --axes 1,2 --levels 1 --scheme generic
cp $OUT/benchbatchg.log $OUT/inplace-batch-generic.json
TO=120 step matrixd4 $B/liftwave bench --backend cuda --matrix --json --repeat 7 --matrix-only 'batch-*-d4-*,3d-*-d4-*,video-*'
cp $OUT/matrixd4.log $OUT/matrix-d4.json
python3 - $OUT/inplace-3d.json $OUT/inplace-batch.json $OUT/inplace-batch-generic.json $OUT/matrix-d4.json <<'PY'
import json,sys
for f in sys.argv[1:]:
    for l in open(f):
        try: r=json.loads(l)
        except Exception: continue
        print("%-6s %-14s L%d %-11s %-3s %-5s %8.3f ms frac %.2f ver %s extra %s %s" % (r['wavelet'],'x'.join(map(str,r['shape'])),r['levels'],r['layout'],r['direction'][:3],'IN' if r.get('inplace') else 'oop',r['median_s']*1e3,r['fraction_of_bound'],r['verified'],r.get('extra_device_bytes'),r.get('engine','')))
PY
