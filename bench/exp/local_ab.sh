#!/usr/bin/env bash
# The cuda "local" engine (haar, one thread a block of samples; src/cuda/local_exec.c) against
# what auto runs, on the same GPU machine in one run: haar 2-D 16384^2 (1, 3 levels, max),
# the batch 192x512x512 on axes 1,2 (1, 3 levels), 3-D 512^3 (1, 2 levels, max), 1920x1080
# (latency), float32 and bfloat16 (float64 and int32 at 16384^2 one level), both layouts,
# forward and inverse, then the interleaved layout in place.  Every record is verified by
# the bench (output against the reference) and carries its engine.
#   LW=path/to/liftwave (default: build-dev/liftwave, else build/liftwave)
#   OUT=dir             records local-ab$TAG.json, messages local-ab$TAG.err, table local-ab$TAG.txt
#   LW_LOCAL_AB_SET=f32 float32 rows only, bfloat16 2-D rows (a shorter run); =channels the
#                       channels-last rows (HWC images, two-channel 1-D); default: all
#   LW_LOCAL_AB_SCHEMES schemes compared (default auto,local; the table pairs the first with the second)
#   LW_LOCAL_AB_ARGS    appended to every bench command (e.g. --tune local_block=narrow)
#   LW_LOCAL_AB_TAG     suffix of the file names (e.g. -narrow)
# Usage on the device, after the build: bash bench/exp/local_ab.sh
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/local-ab-out}
LW=${LW:-$ROOT/build-dev/liftwave}
[ -x "$LW" ] || LW=$ROOT/build/liftwave
mkdir -p "$OUT"
TAG=${LW_LOCAL_AB_TAG:-}
J=$OUT/local-ab$TAG.json E=$OUT/local-ab$TAG.err
: >"$J"
common="--backend cuda --config G2G -w haar --scheme ${LW_LOCAL_AB_SCHEMES:-auto,local} --direction forward,inverse --json --repeat 10"
run() { "$LW" bench $common "$@" ${LW_LOCAL_AB_ARGS:-} >>"$J" 2>>"$E" || echo "failed: $*" >>"$E"; }
if [ "${LW_LOCAL_AB_SET:-all}" = channels ]; then
  # channels last (RGB and RGBA images, stereo sound): the transformed axes followed by the channels; compare with
  # LW_LOCAL_AB_SCHEMES=generic,auto (what ran them before the local engine took them)
  run --shape 8192x8192x3 --axes 0,1 --levels 1,3 --layout mallat,interleaved
  run --shape 8192x8192x3 --axes 0,1 --levels 1 --dtype bfloat16
  run --shape 4096x4096x4 --axes 0,1 --levels 2
  run --shape 33554432x2 --axes 0 --levels 4
elif [ "${LW_LOCAL_AB_SET:-all}" = f32 ]; then
  run --shape 16384x16384 --levels 1,3 --layout mallat,interleaved --dtype float32,bfloat16
  run --shape 192x512x512 --axes 1,2 --levels 1 --layout mallat,interleaved
  run --shape 512x512x512 --levels 1,2 --layout mallat,interleaved
  run --shape 1080x1920 --levels 1,3
else
  run --shape 16384x16384 --levels 1,3,max --layout mallat,interleaved --dtype float32,bfloat16
  run --shape 16384x16384 --levels 1 --dtype float64
  run --shape 16384x16384 --levels 1 --integer
  run --shape 192x512x512 --axes 1,2 --levels 1,3 --layout mallat,interleaved --dtype float32,bfloat16
  run --shape 512x512x512 --levels 1,2,max --layout mallat,interleaved --dtype float32,bfloat16
  run --shape 1080x1920 --levels 1,3 --dtype float32
  run --shape 16384x16384,192x512x512 --levels 1 --layout interleaved --inplace=both
fi
python3 - "$J" "${LW_LOCAL_AB_SCHEMES:-auto,local}" >"$OUT/local-ab$TAG.txt" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
SA, SB = (sys.argv[2].split(',') + ['local'])[:2]
key = lambda r: ('x'.join(map(str, r['shape'])), ','.join(map(str, r.get('axes') or [])), r['levels'], r['layout'], r['dtype'],
                 r['direction'], r.get('inplace'))
by = {}
for r in rows:
    by.setdefault(key(r), {})[r['scheme']] = r
print('%-14s %-6s %-3s %-11s %-9s %-8s %-5s %10s %10s %7s %7s %6s' % ('shape', 'axes', 'L', 'layout', 'dtype', 'dir', 'inpl',
      SA + ' ms', SB + ' ms', SA + ' f', SB + ' f', 'speed'))
for k, d in by.items():
    a, l = d.get(SA), d.get(SB)
    if not a or not l: continue
    print('%-14s %-6s %-3s %-11s %-9s %-8s %-5s %10.4f %10.4f %7.3f %7.3f %6.2f %s' % (k[0], k[1], k[2], k[3], k[4], k[5],
          'yes' if k[6] else 'no', a['median_s'] * 1e3, l['median_s'] * 1e3, a['fraction_of_bound'], l['fraction_of_bound'],
          a['median_s'] / l['median_s'], '' if a['verified'] and l['verified'] else 'NOT VERIFIED'))
EOF
cat "$OUT/local-ab$TAG.txt"
