#!/usr/bin/env bash
# prepared in session 54 (not run: no device lent), to run from the repo root with the package in .ab4: the gather by four adjacent samples (A/B against the CLI without it), tests, the ring against the walker in place
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack .ab4)"
OLD=$(ls $(dirname $LW)/liftwave-* | head -1)  # the CLI without the patch (LW_PREBUILT_EXTRA, named liftwave-COMMIT)
t0=$(date +%s)
LW_GPU_ONLY=il_pyramid,il_budget,wide_batch timeout 150 test_gpu_inplace > /tmp/t.log 2>&1; echo "rc=$?" >> /tmp/t.log
echo "== tests"; grep -A4 "^FAIL" /tmp/t.log | head -30; grep -v "^FAIL\|^    \|^engine" /tmp/t.log | tail -6
LW_GPU_QUICK=1 LW_GPU_ONLY=il_pyramid,wide_batch timeout 120 compute-sanitizer --tool memcheck --print-limit 5 test_gpu_inplace > /tmp/m.log 2>&1; echo "rc=$?" >> /tmp/m.log
echo "== memcheck"; grep -A3 "^FAIL" /tmp/m.log | head; tail -3 /tmp/m.log
S=16384x16384
ab() { # $1 = CLI
  local B="$1 bench --backend cuda --config G2G --repeat 10 --json --layout interleaved --direction inverse"
  $B -w cdf97,d4,cdf53,dd137 --shape $S -l 5
  $B -w cdf97 --shape $S -l 2
  $B -w cdf97,d4 --shape 192x512x512 --axes 1,2 -l 3
  $B -w cdf97 --dtype bfloat16,float64 --shape $S -l 5
}
{ ab $OLD; ab $LW; ab $OLD; ab $LW; } > $OUT/ab.json 2> $OUT/ab.err
{
$LW bench --backend cuda --config G2G --repeat 10 --json --layout interleaved -w cdf97,d4 --shape $S -l 1 --direction forward,inverse --inplace
$LW bench --backend cuda --config G2G --repeat 10 --json --layout interleaved -w cdf97,d4 --shape $S -l 1 --direction forward,inverse --inplace --tune inplace=ring
} > $OUT/ring.json 2> $OUT/ring.err
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
echo "bench done $(( $(date +%s)-t0 ))s"
for sh in $S 192x512x512; do
  ax=""; [ $sh = 192x512x512 ] && ax="--axes 1,2"
  timeout 90 ncu --clock-control none -k "regex:il_gather" --metrics gpu__time_duration.sum --csv $LW bench --backend cuda --config G2G --repeat 1 --layout interleaved -w cdf97 --shape $sh $ax -l 2 --direction inverse > /tmp/n.csv 2>&1
  echo "ncu gather $sh (new)"; grep -i "il_gather" /tmp/n.csv | awk -F'","' '{print $5, $NF}' | tail -3
  timeout 90 ncu --clock-control none -k "regex:il_gather" --metrics gpu__time_duration.sum --csv $OLD bench --backend cuda --config G2G --repeat 1 --layout interleaved -w cdf97 --shape $sh $ax -l 2 --direction inverse > /tmp/n.csv 2>&1
  echo "ncu gather $sh (41dfdce)"; grep -i "il_gather" /tmp/n.csv | awk -F'","' '{print $5, $NF}' | tail -3
done
# why the walker (the interleaved layout in place) runs at 0.37-0.5 of the copy: one instance of it and of the
# out-of-place tiles on 16384^2 cdf97, speed of light, memory, warp states, occupancy
# (and the tile kernel's ring in place, which ran super-linearly slow in the size even without its waits)
for v in "--inplace" "" "--inplace --tune inplace=ring"; do
  n=$(echo "$v" | tr -c 'a-z\n' '_')
  timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section SchedulerStats --section Occupancy -k "regex:walk2d|tile_vh|tile_ip" --launch-skip 2 --launch-count 1 \
    $LW bench --backend cuda --config G2G --repeat 3 --layout interleaved -w cdf97 --shape $S -l 1 $v > $OUT/ncu-il$n.txt 2>&1
  echo "ncu il $v"; grep -E "Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|No Eligible|Warp Cycles Per Issued" $OUT/ncu-il$n.txt | head -14
done
echo "all done $(( $(date +%s)-t0 ))s"
