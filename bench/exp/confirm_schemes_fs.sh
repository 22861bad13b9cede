#!/usr/bin/env bash
# session run B: CPU 3-D diagnosis on the 16-core host, scheme confirmation, fs records
set -u
B=/tmp/lw-gpu-build
if [ ! -x $B/liftwave ]; then
  cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_GIT_COMMIT=${LW_COMMIT:-unknown} >/dev/null && cmake --build $B -j16 --target liftwave >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
fi
L=$B/liftwave
py() { python3 -c "import sys,json
for l in sys.stdin:
    r=json.loads(l); print('%-30s %-9s %-8s %8.2f ms frac %.3f bound %.0f GB/s thr %d simd %s'%(sys.argv[1],r['mode'],r['direction'],r['median_s']*1e3,r['fraction_of_bound'],r['bound_gbps'],r['threads'],r.get('simd')))" "$1"; }
for v in "" "LW_CPU_SIMD=avx2" "LW_CPU_RING_KB=1024" "LW_CPU_RING_KB=512" "OMP_PROC_BIND=close"; do
  env $v $L bench -b cpu -w cdf97 -m periodic,symmetric --shape 256x256x256 --direction forward,inverse --repeat 9 --json 2>>$OUT/err.txt | py "256^3 ${v:-default}"
done
env $L bench -b cpu -w cdf97 -m periodic --shape 256x256x256 --direction forward --threads 8,4 --repeat 9 --json 2>>$OUT/err.txt | py "256^3 threads"
$L bench -b cuda -w cdf97,cdf53,dd137 --scheme 'auto,monolithic*,polyphase*:single,polyphase*,sweldens:single,sweldens,explosive*,iwahashi*,explosive:single,monolithic*:single' --sizes-mpix 0.1,1,10,64,256 --json > $OUT/confirm.json 2>>$OUT/err.txt
echo "confirm: $(wc -l < $OUT/confirm.json) records"
$L bench -b cuda -w fs --scheme all --levels 1,max --sizes-mpix 0.1,1,10,64,256 --direction forward,inverse --json > $OUT/fs-f32.json 2>>$OUT/err.txt
$L bench -b cuda -w fs --integer --scheme all --levels 1,max --sizes-mpix 0.1,1,10,64,256 --direction forward,inverse --json > $OUT/fs-int.json 2>>$OUT/err.txt
echo "fs: $(cat $OUT/fs-*.json | wc -l) records"; tail -5 $OUT/err.txt
