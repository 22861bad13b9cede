#!/usr/bin/env bash
# The timing set of the local engine's 64-sample blocks (haar: 2-D three levels a launch, 3-D two;
# bench/NOTES-torch.md, "Level 1 slab by slab"): the PyTorch layers' shapes (a batch of 2-D
# images; a volume of the samples of the (B*C, T, H, W) ones, whose batches bench cannot shape), issue 16's 2-D and 3-D haar cells, float32, bfloat16, float16
# and float64, forward and inverse, in the Mallat layout (the bands: level 1 slab by slab) and the
# interleaved one (whole blocks).  EXTRA: more `liftwave bench` arguments for every case, e.g.
# "--tune local_bound=5"; PART=layers: the PyTorch layers' shapes only.  ROUNDS rounds of records (liftwave bench --json, verified) to
# $OUT/ab-$TAG-<round>.json; for an A/B run it once per CLI, alternating, on the same machine.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir [EXTRA=...] [PART=layers] bash bench/exp/local_set.sh
cases() {
    local d="--direction forward,inverse"
    # shellcheck disable=SC2086
    {
        run 60 -w haar -m periodic --dtype bfloat16,float32 --shape 192x512x512 --axes 1,2 -l 3 $d --repeat 20 ${EXTRA:-}
        run 40 -w haar -m periodic --dtype bfloat16,float32 --shape 384x256x256 -l 2 $d --repeat 20 ${EXTRA:-}
        [ "${PART:-}" = layers ] && return
        run 40 -w haar --dtype float32,bfloat16 --shape 512x512x512 -l 2 $d --repeat 10 ${EXTRA:-}
        run 40 -w haar --dtype float32 --shape 16384x16384 -l 3 $d --repeat 10 ${EXTRA:-}
        run 40 -w haar --dtype float64 --shape 4096x4096 -l 3 $d --repeat 10 ${EXTRA:-}
        run 40 -w haar --dtype float32 --shape 192x512x512 --axes 1,2 -l 3 --layout interleaved $d --repeat 20 ${EXTRA:-}
    }
}
source "$(dirname "$0")/bench_set_rounds.sh"
