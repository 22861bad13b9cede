#!/usr/bin/env bash
# CPU 3-D on the Xeon: ring budget variants, alternating, 5 rounds
set -u
B=/tmp/lw-gpu-build
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build $B -j16 --target liftwave >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
L=$B/liftwave
for i in 1 2 3 4 5; do for v in default 768 1024 4096; do
  e=; [ $v != default ] && e="LW_CPU_RING_KB=$v"
  env $e $L bench -b cpu -w cdf97 -m periodic,symmetric --shape 256x256x256 --direction forward,inverse --repeat 15 --json 2>>$OUT/err.txt | python3 -c "import sys,json
for l in sys.stdin:
    r=json.loads(l); print('$v', r['mode'],r['direction'],'%.3f'%(r['median_s']*1e3),'%.3f'%r['fraction_of_bound'],'%.0f'%r['bound_gbps'])"
done; done > $OUT/ring.txt
python3 - $OUT/ring.txt <<'PY'
import sys,collections,statistics
d=collections.defaultdict(list); f=collections.defaultdict(list)
for l in open(sys.argv[1]):
    v,m,dr,ms,fr,bd=l.split(); d[(m,dr,v)].append(float(ms)); f[(m,dr,v)].append(float(fr))
for k in sorted(d): print('%-9s %-8s ring %-7s median %.3f ms (min %.3f)  frac median %.3f'%(k[0],k[1],k[2],statistics.median(d[k]),min(d[k]),statistics.median(f[k])))
PY
