#!/usr/bin/env bash
# The fused 2-D engine's walk (tuning key tile2d_walk; bench/NOTES-cuda.md, "tile2d's blocks walk
# row tiles"): the matrix's 2-D one-level and batch cells, and bfloat16 batches of the PyTorch
# layers' shape, at each walk in WALKS (0 = the auto rule), ROUNDS rounds, in one call, records
# (liftwave bench --json, verified) to $OUT/walk-<w>-<round>.json and a table of each cell's
# median against walk 1 to $OUT/walk-summary.txt.
#   LW=path/to/liftwave WALKS="0 1 2 3 4 8" ROUNDS=1 OUT=dir bash bench/exp/tile2d_walk_sweep.sh
# CELLS (default '2d-l1-*,batch-*') picks the matrix cells.
set -u
CELLS=${CELLS:-'2d-l1-*,batch-*'}
LW=${LW:-liftwave}
WALKS=${WALKS:-"0 1 2 3 4 8"}
ROUNDS=${ROUNDS:-1}
OUT=${OUT:?OUT: a folder for the records}
for r in $(seq 1 "$ROUNDS"); do
    for w in $WALKS; do
        f=$OUT/walk-$w-$r.json
        timeout 120 "$LW" bench --backend cuda --matrix --matrix-only "$CELLS" --tune tile2d_walk=$w \
            --json > "$f" 2>> "$OUT/walk.err" || echo "walk $w round $r: matrix rc=$?" >> "$OUT/walk.err"
        timeout 60 "$LW" bench --backend cuda -w cdf97,haar,d4 -m periodic --dtype bfloat16 --shape 192x512x512 \
            --axes 1,2 -l 1,3 --direction forward,inverse --repeat 20 --tune tile2d_walk=$w --json >> "$f" \
            2>> "$OUT/walk.err" || echo "walk $w round $r: bf16 rc=$?" >> "$OUT/walk.err"
    done
done
python3 - "$OUT" $WALKS <<'PY' > "$OUT/walk-summary.txt"
import glob, json, os, sys
out, walks = sys.argv[1], sys.argv[2:]
t = {}
for w in walks:
    for f in glob.glob(os.path.join(out, 'walk-%s-*.json' % w)):
        for line in open(f):
            if not line.startswith('{'):
                continue
            r = json.loads(line)
            key = r.get('cell') or '%s %s %s L%d %s' % ('x'.join(map(str, r['shape'])), r['dtype'], r['wavelet'],
                                                       r['levels'], r['direction'])
            if not r.get('verified'):
                key += ' (NOT VERIFIED)'
            t.setdefault(key, {}).setdefault(w, []).append(r['median_s'])
print('# median time against walk 1 (the lowest median of the rounds); walks: ' + ' '.join(walks))
for key in sorted(t):
    base = min(t[key].get('1', [0])) or None
    cols = []
    for w in walks:
        v = min(t[key][w]) if w in t[key] else None
        cols.append('%s:%s' % (w, '-' if v is None else ('%.1fus' % (v * 1e6)) + ('' if not base else ' %.2fx' % (v / base))))
    print('%-40s %s' % (key, '  '.join(cols)))
PY
cat "$OUT/walk-summary.txt"
