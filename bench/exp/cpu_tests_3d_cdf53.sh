#!/usr/bin/env bash
# session run C: CPU tests on the AVX-512 host, repeated 3-D CPU bench, cdf53 10 Mpixel tie check
set -u
B=/tmp/lw-gpu-build
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_GIT_COMMIT=${LW_COMMIT:-unknown} >/dev/null &&
cmake --build $B -j16 --target liftwave test_cpu_fast test_roundtrip >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
L=$B/liftwave
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) flags avx512f: $(grep -c avx512f /proc/cpuinfo) nproc $(nproc)"
for simd in scalar sse2 avx2 avx512; do for t in 1 16; do
  LW_CPU_SIMD=$simd OMP_NUM_THREADS=$t timeout 120 $B/tests/cpu/test_cpu_fast > $OUT/cpufast-$simd-$t.log 2>&1; echo "test_cpu_fast $simd t$t rc=$? $(tail -1 $OUT/cpufast-$simd-$t.log)"
done; done
for t in 1 16; do LW_CPU_SIMD=avx512 OMP_NUM_THREADS=$t timeout 120 $B/tests/unit/test_roundtrip --backend cpu > $OUT/rt-$t.log 2>&1; echo "test_roundtrip cpu avx512 t$t rc=$? $(tail -1 $OUT/rt-$t.log)"; done
rm -f $OUT/cpufast-*.log $OUT/rt-*.log
for i in 1 2 3; do
  $L bench -b cpu -w cdf97 -m periodic,symmetric --shape 256x256x256 --direction forward,inverse --repeat 15 --json 2>>$OUT/err.txt
done > $OUT/cpu3d.json
python3 -c "import sys,json
for l in open(sys.argv[1]):
    r=json.loads(l); print('cpu 3d %-9s %-8s %6.2f ms frac %.3f bound %.0f GB/s'%(r['mode'],r['direction'],r['median_s']*1e3,r['fraction_of_bound'],r['bound_gbps']))" $OUT/cpu3d.json
for i in 1 2 3; do
  $L bench -b cuda -w cdf53 --scheme 'auto,iwahashi*,explosive*:single' --shape 3238x3238 --repeat 200 --json 2>>$OUT/err.txt
done > $OUT/cdf53-10m.json
python3 -c "import sys,json
for l in open(sys.argv[1]):
    r=json.loads(l); print('cdf53 3238 %-18s %6.2f us frac %.3f'%(r['scheme'],r['median_s']*1e6,r['fraction_of_bound']))" $OUT/cdf53-10m.json
