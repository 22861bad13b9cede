#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the tile kernel in place without a stash (issue 15;
# bench/NOTES-walker-plain.md, "In place without a stash, in the tile order"): k_tile2d_ip.cu's
# tile_ipn (persistent blocks by tickets, a flag a tile, waits only before the stores) under --tune
# inplace=ring, against the walker (auto) in the same call.  Main's stash ring is not in the package
# (with a third CLI the upload passes 64 MiB): its time is the record's of an earlier call
# (cuda-h200-inplace-ring-walker-2026-12-05-*: 3.86 ms at 16384^2 cdf97 on an H200, 0.13 of the copy).
# The package: this build's liftwave and test_gpu_inplace, and bench/exp/walk_pattern.cu built beside
# it as DIR/walk_pattern:
#   bash bench/exp/tile_ipn_ab.sh .ab22 ['pattern tests race bench']   [ROUNDS=2; STOP=470: no bench arm
#   starts later than STOP seconds into the call]
# pattern: the memory pattern alone (tip / tip-nw: the protocol without lifting); tests: test_gpu_inplace's
# ring and tiles sweeps, plain and the ring's under memcheck (quick); race: racecheck on 2048^2 in place by
# the ring; bench (last): 16384^2 symmetric interleaved in place, five wavelets, forward and inverse:
# with inplace=ring (new) and auto (walk), rounds alternating
#   -> $OUT/ab-{new,walk}-all.json (every round), bench.err, the logs, summary.txt (the pattern's
#   table and the A/B's: bench/exp/set_table.py): seven files (a call returns eight)
set -u
T00=$(date +%s)
D=${1:-.ab22}
ST=" ${2:-pattern tests race bench} "
eval "$(bash tests/gpu/prebuilt.sh unpack "$D")"
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL' T_LINES=3
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT (+ tile_ipn), $(date -u +%FT%TZ)"
if has pattern; then
  timeout 120 "$D/walk_pattern" >"$OUT/pattern.txt" 2>&1
  say "walk_pattern: rc=$?"; cat "$OUT/pattern.txt" >>"$S"; rm -f "$OUT/pattern.txt" # in the summary
fi
if has tests; then
  t ring 200 env LW_GPU_ONLY=ring,tiles test_gpu_inplace
  t memcheck 150 env LW_GPU_ONLY=ring LW_GPU_QUICK=1 "$CS" --tool memcheck --error-exitcode 3 test_gpu_inplace
fi
if has race; then
  t racecheck 150 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
    --inplace --tune inplace=ring -w cdf97,dd137 --shape 2048x2048 --layout interleaved --direction forward,inverse
  verified racecheck
fi
if has bench; then
  B() { # arm round seconds args...
    local a=$1 r=$2 s=$3; shift 3
    timeout "$s" liftwave bench --backend cuda --config G2G --shape 16384x16384 --direction forward,inverse \
      --repeat 20 --json --inplace -m symmetric --layout interleaved -w cdf97,cdf53,haar,d4,dd137 "$@" \
      >>"$OUT/ab-$a-all.json" 2>>"$OUT/bench.err"
    say "bench $a $r $*: rc=$?"
  }
  for r in $(seq 1 "${ROUNDS:-2}"); do
    [ $(( $(date +%s) - T00 )) -gt "${STOP:-470}" ] && break
    B new "$r" 150 --tune inplace=ring
    B walk "$r" 100
  done
  python3 bench/exp/set_table.py "$OUT" new walk | tee -a "$S"
fi
