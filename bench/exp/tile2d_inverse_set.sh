#!/usr/bin/env bash
# The timing set of the tile2d store / inverse-window change (bench/NOTES-cuda.md, "tile2d's
# inverse: whole-vector stores and deinterleaved window rows"): one CLI, ROUNDS rounds, records
# (liftwave bench --json, verified) to $OUT/ab-$TAG-<round>.json.  For an A/B run it once per
# CLI on the same machine (one call each when the two CLIs do not fit one upload) and compare
# the records' median_s.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir bash bench/exp/tile2d_inverse_set.sh
set -u -o pipefail
LW=${LW:?LW: the CLI to time}
TAG=${TAG:-new}
ROUNDS=${ROUNDS:-1}
OUT=${OUT:-ab-out}
mkdir -p "$OUT"
t0=$(date +%s)
for i in $(seq 1 "$ROUNDS"); do
    f=$OUT/ab-$TAG-$i.json
    : >"$f"
    run() { timeout "$1" "$LW" bench -b cuda "${@:2}" --json >>"$f" 2>>"$OUT/ab.err"; }
    run 80 -w cdf97,cdf53,dd137,d4,dd97 -m periodic --dtype float32,bfloat16 --shape 192x512x512 --axes 1,2 -l 1 \
        --direction forward,inverse --repeat 20
    run 40 -w cdf97 -m periodic --dtype bfloat16 --shape 192x512x512 --axes 1,2 -l 1 --direction forward-adjoint --repeat 20
    run 80 -w cdf97,cdf53,dd137,d4 --shape 16384x16384 -l 1 --direction forward,inverse --repeat 10
    run 40 -w cdf97 --dtype float64 --shape 8192x8192 -l 1 --direction forward,inverse --repeat 10
    run 60 -w cdf97,dd137 --shape 512x512x512 -l 1 --direction forward,inverse --repeat 10
    run 30 -w cdf97 --shape 1920x1080 -l 1 --direction forward,inverse --repeat 200
    echo "tile2d_inverse_set: $TAG round $i, $(($(date +%s) - t0)) s, $(wc -l <"$f") records"
done
