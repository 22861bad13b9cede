#!/usr/bin/env bash
# CPU 3-D on the device host: the working tree ("new") against a base tree
# (.ab/base.tar.gz, carried) built the same way, alternating rounds; extra
# variants of the new build through environment knobs.
#   AB_VARIANTS="new base new:LW_CPU_SIMD=avx2"  AB_ROUNDS=4  AB_THREADS="16 1"  AB_CASES="args;args"  AB_TEST_SIMD="avx512 avx2" (empty AB_TEST: no tests)
set -u
OUT=${OUT:-/tmp/ab-out}; mkdir -p $OUT
build() { # dir srcdir
  cmake -S $2 -B $1 -DCMAKE_BUILD_TYPE=Release -DLW_WITH_CUDA=OFF >$OUT/build-$(basename $1).log 2>&1 &&
  cmake --build $1 -j16 --target liftwave test_cpu_fast >>$OUT/build-$(basename $1).log 2>&1 || { tail -30 $OUT/build-$(basename $1).log; exit 1; }
}
rm -rf /tmp/ab-base-src; mkdir -p /tmp/ab-base-src; tar xzf .ab/base.tar.gz -C /tmp/ab-base-src
build /tmp/ab-new . & build /tmp/ab-base /tmp/ab-base-src & wait
[ -x /tmp/ab-new/liftwave ] && [ -x /tmp/ab-base/liftwave ] || exit 1
if [ -n "${AB_TEST-1}" ]; then
  for simd in ${AB_TEST_SIMD:-avx512 avx2}; do for th in 1 16; do
    echo "test_cpu_fast $simd threads $th: $(LW_CPU_SIMD=$simd OMP_NUM_THREADS=$th /tmp/ab-new/tests/cpu/test_cpu_fast 2>&1 | tail -1)"
  done; done | tee $OUT/tests.txt
fi
# AB_CASES: ";"-separated liftwave bench argument sets (default: the 3-D case)
CASES=${AB_CASES:-"-w cdf97 -m periodic,symmetric --shape 256x256x256 --direction forward,inverse"}
for rnd in $(seq 1 ${AB_ROUNDS:-4}); do
  for th in ${AB_THREADS:-16}; do
    for v in ${AB_VARIANTS:-new base}; do
      b=${v%%:*}; e=; [ "$v" != "$b" ] && e=${v#*:}
      echo "$CASES" | tr ';' '\n' | while read -r args; do
        [ -n "$args" ] || continue
        env $e /tmp/ab-$b/liftwave bench -b cpu $args --repeat ${AB_REPEAT:-15} --threads $th --json 2>>$OUT/err.txt | python3 -c "import sys,json
for l in sys.stdin:
    r=json.loads(l); print('$v', r['threads'], 'x'.join(map(str,r['shape']))+'/L%d'%r['levels']+'/'+r['mode'], r['direction'], '%.3f'%(r['median_s']*1e3), '%.3f'%r['fraction_of_bound'], '%.0f'%r['bound_gbps'], '%.3f'%r.get('fraction_of_best_bound',0))"
      done
    done
  done
done > $OUT/ab.txt
python3 - $OUT/ab.txt <<'PY' | tee $OUT/ab-summary.txt
import sys, collections, statistics
d = collections.defaultdict(list); f = collections.defaultdict(list); bw = collections.defaultdict(list)
for l in open(sys.argv[1]):
    v, th, m, dr, ms, fr, bd = l.split()[:7]
    d[(th, m, dr, v)].append(float(ms)); f[(th, m, dr, v)].append(float(fr)); bw[th].append(float(bd))
for k in sorted(d, key=lambda k: (int(k[0]), k[1], k[2], k[3])):
    print('th %-3s %-28s %-8s %-24s median %.3f ms (min %.3f)  fraction median %.3f (max %.3f)' % (k[0], k[1], k[2], k[3], statistics.median(d[k]), min(d[k]), statistics.median(f[k]), max(f[k])))
for th in bw: print('threads', th, 'memcpy bound GB/s median %.0f (min %.0f max %.0f)' % (statistics.median(bw[th]), min(bw[th]), max(bw[th])))
PY
