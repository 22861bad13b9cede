#!/usr/bin/env bash
# The timing set of the short tiles' launch bound (bench/NOTES-tile2d.md, "Short tiles at eight blocks
# an SM"): the planes and levels that take short tiles (float32 up to 4 Mi samples a level; planes of at
# most 128 columns for every type computed in float), each wavelet family, both directions, with
# ROUNDS rounds of records (liftwave bench --json, verified) to $OUT/ab-$TAG-<round>.json.  For an A/B
# run it once per CLI, alternating, on the same machine and compare the records' median_s.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir bash bench/exp/tile2d_short_set.sh
cases() {
    run 60 -w cdf97,haar,cdf53,dd137,d4 --shape 1080x1920 -l 1 --direction forward,inverse --repeat 200
    run 60 -w cdf97,dd137,d4 --shape 2048x2048 -l 1 --direction forward,inverse --repeat 50
    run 40 -w cdf97 --shape 64x256x256 --axes 1,2 -l 1 --direction forward,inverse --repeat 50
    run 40 -w cdf97,d4 --shape 1024x1024 -l 3 --direction forward,inverse --repeat 100
    run 60 -w cdf97,haar -m periodic --dtype bfloat16,float16 --shape 192x128x128 --axes 1,2 -l 1 \
        --direction forward,forward-adjoint --repeat 50
    run 40 -w cdf97 -m periodic --dtype bfloat16 --shape 192x512x512 --axes 1,2 -l 3 \
        --direction forward,forward-adjoint --repeat 20
    run 30 -w cdf97 --shape 16384x16384 -l 1 --direction forward,inverse --repeat 10
}
source "$(dirname "$0")/bench_set_rounds.sh"
