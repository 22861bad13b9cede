#!/usr/bin/env bash
# The timing set of the tile2d store / inverse-window change (bench/NOTES-cuda.md, "tile2d's
# inverse: whole-vector stores and deinterleaved window rows"): one CLI, ROUNDS rounds, records
# (liftwave bench --json, verified) to $OUT/ab-$TAG-<round>.json.  For an A/B run it once per
# CLI on the same machine (one call each when the two CLIs do not fit one upload) and compare
# the records' median_s.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir bash bench/exp/tile2d_inverse_set.sh
cases() {
    run 80 -w cdf97,cdf53,dd137,d4,dd97 -m periodic --dtype float32,bfloat16 --shape 192x512x512 --axes 1,2 -l 1 \
        --direction forward,inverse --repeat 20
    run 40 -w cdf97 -m periodic --dtype bfloat16 --shape 192x512x512 --axes 1,2 -l 1 --direction forward-adjoint --repeat 20
    run 80 -w cdf97,cdf53,dd137,d4 --shape 16384x16384 -l 1 --direction forward,inverse --repeat 10
    run 40 -w cdf97 --dtype float64 --shape 8192x8192 -l 1 --direction forward,inverse --repeat 10
    run 60 -w cdf97,dd137 --shape 512x512x512 -l 1 --direction forward,inverse --repeat 10
    run 30 -w cdf97 --shape 1920x1080 -l 1 --direction forward,inverse --repeat 200
}
source "$(dirname "$0")/bench_set_rounds.sh"
