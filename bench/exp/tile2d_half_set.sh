#!/usr/bin/env bash
# The timing set of tile2d's K = 16 row segments for the half types and its edge tiles' loads
# (bench/NOTES-cuda.md, "tile2d: the half types' long row segments"): the half types' 2-D and
# batch transforms (the PyTorch layers' shapes among them) and float32 guards, with ROUNDS rounds
# of records (liftwave bench --json, verified) to $OUT/ab-$TAG-<round>.json.  For an A/B run it
# once per CLI, alternating, on the same machine and compare the records' median_s.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir bash bench/exp/tile2d_half_set.sh
cases() {
    run 80 -w cdf97,cdf53,dd137,d4,haar -m periodic --dtype bfloat16,float16 --shape 192x512x512 --axes 1,2 -l 1 \
        --direction forward,forward-adjoint,inverse --repeat 20
    run 60 -w cdf97,haar -m periodic --dtype bfloat16 --shape 192x512x512 --axes 1,2 -l 3 \
        --direction forward,forward-adjoint --repeat 20
    run 40 -w cdf97 -m symmetric --dtype bfloat16 --shape 192x512x512 --axes 1,2 -l 1 --direction forward,inverse --repeat 20
    run 40 -w cdf97,d4 --dtype bfloat16 --shape 16384x16384 -l 1 --direction forward,inverse --repeat 10
    run 40 -w cdf97 --dtype bfloat16 --shape 1920x1080 -l 1 --direction forward,inverse --repeat 200
    run 60 -w cdf97,dd137 -m periodic --dtype float32 --shape 192x512x512 --axes 1,2 -l 1 --direction forward,inverse --repeat 20
    run 40 -w cdf97 --dtype float32 --shape 16384x16384 -l 1 --direction forward,inverse --repeat 10
}
source "$(dirname "$0")/bench_set_rounds.sh"
