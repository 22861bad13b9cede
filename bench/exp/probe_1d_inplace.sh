#!/usr/bin/env bash
# One device call (GPU machine, repo root): 1-D cdf97 Mallat in place and out of place on line lengths
# whose reorder has few long cycles (1000003: 2, 786432: 4) and many short ones (2^20, 2^24), from the
# package .ab26 (tests/gpu/prebuilt.sh pack) -> $OUT/p1d.json and a table on stdout.
eval "$(bash tests/gpu/prebuilt.sh unpack .ab26)"
for sh in 1048576 1000003 786432 16777216 16777217; do
  for ip in "--inplace" ""; do
    timeout 60 liftwave bench --backend cuda --config G2G --shape $sh --layout mallat -w cdf97 --direction forward,inverse --repeat 5 --json $ip >> $OUT/p1d.json 2>>$OUT/p1d.err
  done
done
python3 -c "
import json
for l in open('$OUT/p1d.json'):
    try: r=json.loads(l)
    except: continue
    print(r['shape'],r['direction'],'inplace' if r.get('inplace') else 'oop', '%.1f us'%(r['median_s']*1e6), r.get('fraction_of_bound'), r.get('verified'), r.get('engine'))
"
tail -3 $OUT/p1d.err
