#!/usr/bin/env bash
# One device step (GPU machine, repo root, a package in $1): the strip walker (2-D interleaved in place,
# cdf97, one level, 16384 rows) on widths whose 88-column strips and row segments (924 resident blocks /
# strips, at most 8) spread over the SMs differently: 11616 (132 strips x 7 segments, 7 blocks on every
# SM), 13552 (154 x 6), 14520 (165 x 5), 15400 (175 x 5), 16384 (187 x 4), forward and inverse, two rounds.
# What paces the walker's slowest block: the SM it shares, or its own chain (bench/NOTES-walker-plain.md).
#   bash bench/exp/walk_widths.sh .ab12     -> $OUT/walk-widths.json, the table on stdout
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab12}")"
for r in 1 2; do
  for W in 11616 13552 14520 15400 16384; do
    for d in forward inverse; do
      timeout 40 liftwave bench --backend cuda --config G2G --layout interleaved --inplace -w cdf97 \
        --shape 16384x$W -l 1 --direction $d --repeat 20 --json
    done
  done
done > "$OUT/walk-widths.json" 2> "$OUT/walk-widths.err"
liftwave describe -b cuda --layout interleaved --inplace -w cdf97 --shape 16384x13552 2>&1 | grep -i walker | head -2
python3 - "$OUT/walk-widths.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if line.startswith('{'):
        r = json.loads(line)
        print(r['shape'][1], r['direction'][:3], r.get('engine'), '%.3f ms' % (r['median_s'] * 1e3),
              '%.3f of copy' % r['fraction_of_bound'], '%.2f ps/sample' % r['ps_per_sample'], 'verified' if r['verified'] else 'NOT VERIFIED')
PY
tail -3 "$OUT/walk-widths.err"
