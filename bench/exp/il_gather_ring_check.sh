#!/usr/bin/env bash
# One device call (GPU machine, repo root, the package in $1, default .ab1): the in-place tile kernel's
# coherent loads under racecheck (the float64 wide-batch cases that came out wrong with __ldg), the
# interleaved inverse pyramids' gather by four adjacent samples against the CLI without it (the
# package's bin/liftwave-*), the tile kernel's ring against the walker in place, ncu of both.
# Writes summaries to $OUT; logs stay in /tmp.
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab1}")"
OLD=$(ls "$(dirname "$LW")"/liftwave-* | head -1)
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 ))s]"; }
LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring timeout 200 compute-sanitizer --tool racecheck --print-limit 5 \
    test_gpu_inplace > /tmp/r.log 2>&1; echo "rc=$?" >> /tmp/r.log
{ echo "== racecheck wide_batch,ring quick=2 $(el)"; grep -B1 -A4 "^FAIL" /tmp/r.log | head -30
  grep -i "hazard\|checks\|rc=" /tmp/r.log | tail -5; } > $OUT/racecheck.txt
LW_GPU_ONLY=il_pyramid,il_budget,wide_batch,ring,tiles timeout 150 test_gpu_inplace > /tmp/t.log 2>&1; echo "rc=$?" >> /tmp/t.log
{ echo "== tests $(el)"; grep -A4 "^FAIL" /tmp/t.log | head -30; grep -v "^FAIL\|^    \|^engine" /tmp/t.log | tail -8; } > $OUT/tests.txt
LW_GPU_QUICK=1 LW_GPU_ONLY=il_pyramid,wide_batch timeout 100 compute-sanitizer --tool memcheck --print-limit 5 \
    test_gpu_inplace > /tmp/m.log 2>&1; echo "rc=$?" >> /tmp/m.log
{ echo "== memcheck $(el)"; grep -A3 "^FAIL" /tmp/m.log | head; tail -3 /tmp/m.log; } > $OUT/memcheck.txt
cat $OUT/racecheck.txt $OUT/tests.txt $OUT/memcheck.txt
S=16384x16384
ab() { # $1 = CLI
  local B="$1 bench --backend cuda --config G2G --repeat 10 --json --layout interleaved --direction inverse"
  $B -w cdf97,d4,cdf53,dd137 --shape $S -l 5
  $B -w cdf97 --shape $S -l 2
  $B -w cdf97,d4 --shape 192x512x512 --axes 1,2 -l 3
  $B -w cdf97 --dtype bfloat16,float64 --shape $S -l 5
  $B -w cdf97 --shape 1920x1080,1000x1000 -l 3
}
{ ab $OLD; ab $LW; ab $OLD; ab $LW; } > $OUT/ab.json 2> $OUT/ab.err
echo "ab done $(el)"
R="$LW bench --backend cuda --config G2G --repeat 10 --json --layout interleaved --direction forward,inverse --inplace"
{ for t in "" "--tune inplace=ring"; do
    $R -w cdf97,d4,haar --shape $S -l 1 $t
    $R -w cdf97 --shape 8192x8192,4096x4096 -l 1 $t
    $R -w cdf97 --shape 192x512x512 --axes 1,2 -l 1 $t
  done; } > $OUT/ring.json 2> $OUT/ring.err
echo "ring done $(el)"
python3 - $OUT/ab.json $OUT/ring.json > $OUT/summary.txt <<'PY'
import json,sys
for fn in sys.argv[1:]:
    print("##", fn.split('/')[-1])
    for l in open(fn):
        l=l.strip()
        if not l.startswith('{'): continue
        r=json.loads(l)
        print("  %s %s %s %s L%d ip=%d %s %s commit=%s %.3f ms %.3f ver=%s extra=%s" % (r['wavelet'],'x'.join(map(str,r['shape'])),r['dtype'],r['direction'],r['levels'],r['inplace'],r['engine'],r['tuning'],r['commit'],r['median_s']*1e3,r['fraction_of_bound'],r['verified'],r['extra_device_bytes']))
PY
cat $OUT/summary.txt; tail -3 $OUT/ab.err $OUT/ring.err
for sh in $S 192x512x512; do
  ax=""; [ $sh = 192x512x512 ] && ax="--axes 1,2"
  for c in $LW $OLD; do
    timeout 60 ncu --clock-control none -k "regex:il_gather" --metrics gpu__time_duration.sum --csv $c bench --backend cuda \
      --config G2G --repeat 1 --layout interleaved -w cdf97 --shape $sh $ax -l 2 --direction inverse > /tmp/n.csv 2>&1
    echo "ncu gather $sh $(basename $c)"; grep -i "il_gather" /tmp/n.csv | awk -F'","' '{print $5, $NF}' | tail -2
  done
done > $OUT/ncu-gather.txt
cat $OUT/ncu-gather.txt; echo "ncu gather done $(el)"
# the walker and the ring in place, one launch each, 16384^2 cdf97 forward
for v in "--inplace" "--inplace --tune inplace=ring"; do
  n=$(echo "$v" | tr -c 'a-z\n' '_')
  timeout 100 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy --section LaunchStats -k "regex:walk2d|tile_ip" --launch-skip 2 --launch-count 1 \
    $LW bench --backend cuda --config G2G --repeat 3 --layout interleaved -w cdf97 --shape $S -l 1 $v > $OUT/ncu-il$n.txt 2>&1
  echo "ncu il $v"; grep -E "Duration|DRAM Throughput|L2 Hit|L1/TEX Hit|Achieved Occupancy|No Eligible|Warp Cycles Per Issued|Registers Per" $OUT/ncu-il$n.txt | head -14
done
# the 512^3 pyramids' kernels one by one (cdf97 and dd137, both directions), and the small kernel's SASS page
# (16^3, four levels: the 512^3 tail) with its stall samples, for bench/exp/ncu_stalls.py and ncu_sass_classes.py
for w in cdf97 dd137; do for d in forward inverse; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $LW bench --backend cuda --repeat 1 \
    -w $w --shape 512x512x512 -l 9 --direction $d > /tmp/k.csv 2>&1
  echo "== 512^3 $w $d nine levels: kernel, grid, us"
  python3 -c 'import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>10 and r[-3:-2]!=[]]
h=next((r for r in rows if "Kernel Name" in r),None)
if h:
  k,g,v=h.index("Kernel Name"),h.index("Grid Size"),h.index("Metric Value")
  for r in rows:
    if r is not h and len(r)>v: print("  ",r[k][:40],r[g],r[v])' /tmp/k.csv | tail -14
done; done > $OUT/ncu-3d-levels.txt
cat $OUT/ncu-3d-levels.txt
timeout 90 ncu --clock-control none --section SourceCounters --section WarpStateStats --import-source no -k regex:small_kernel \
  -c 1 --page source --print-source sass --csv $LW bench --backend cuda --repeat 1 -w cdf97 --shape 16x16x16 -l 4 \
  --scheme small > $OUT/ncu-small-sass.csv 2>/tmp/s.err
python3 bench/exp/ncu_stalls.py $OUT/ncu-small-sass.csv 2>&1 | head -20
python3 bench/exp/ncu_sass_classes.py $OUT/ncu-small-sass.csv 12 2>&1 | head -60 > $OUT/ncu-small-classes.txt
head -40 $OUT/ncu-small-classes.txt
echo "all done $(el)"
