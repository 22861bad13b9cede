#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the in-place tile kernel without its stash ring (issue 15;
# bench/NOTES-walker-plain.md, "The tile kernel without its stash ring"): tile_ipn in both modes (periodic
# planes read the 2H rows and columns around their wrap from a copy saved before the launch), taken by
# `auto` wherever the device holds more of its blocks than a row of tiles + 1, against the strip walker
# (--tune inplace=tiles) and the stash ring (--tune inplace=ring) in the same call.
#   bash bench/exp/tile_grid_ab.sh DIR ['tests race bench']    [ROUNDS=1; STOP=450: no bench round
#   starts later than STOP seconds into the call]
# DIR: a package (tests/gpu/prebuilt.sh pack) with liftwave and test_gpu_inplace.
# rowcycle (asked for by name): DIR/rowcycle_ab (bench/exp/rowcycle_ab.cu: its header says how to build it), the
# Mallat layout's row reorder alone (element loads, 16-byte pieces, cycles cut), at 16384^2, 16000^2 and 4096^2;
# pattern (asked for by name): DIR/walk_pattern (bench/exp/walk_pattern.cu, nvcc -O3 -arch=sm_90), the memory
# pattern alone, its variants tip / tip-nw the protocol of tile_ipn with no lifting (with and without waits);
# tests: test_gpu_inplace's grid, ring and tiles sweeps (TESTS_ONLY: other sweeps, empty: all; TESTS_S: its
# time limit, 240 s), and the grid sweep under memcheck (quick);
# race: racecheck on 1024^2 (symmetric) and 512^2 (periodic) in place by the grid; memcheck and racecheck on
# the Mallat layout in place at 1080x1920 (row cycles cut in segments) and 4096x256 (whole cycles);
# bench: 16384^2 interleaved in place, five wavelets, both modes, forward and inverse, and the Mallat
# layout's cdf97 and d4: auto (grid) against inplace=tiles (walk) and inplace=ring (ring: cdf97), rounds
# alternating -> $OUT/ab-{grid,walk,ring}-<round>.json, the table in summary.txt (bench/exp/set_table.py)
set -u
T00=$(date +%s)
D=${1:-.ab23}
ST=" ${2:-tests race bench} "
eval "$(bash tests/gpu/prebuilt.sh unpack "$D")"
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL|without a stash ring' T_LINES=4
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)"
if has pattern; then
  timeout 120 "$D/walk_pattern" >"$OUT/pattern.txt" 2>&1
  say "walk_pattern: rc=$?"; cat "$OUT/pattern.txt" >>"$S"; rm -f "$OUT/pattern.txt" # in the summary
fi
if has rowcycle; then
  for sh in "" "16000 16000" "4096 4096"; do
    # shellcheck disable=SC2086  # a shape is two words
    timeout 60 "$D/rowcycle_ab" $sh >"$OUT/rowcycle.txt" 2>&1
    say "rowcycle_ab $sh: rc=$?"; cat "$OUT/rowcycle.txt" >>"$S"; rm -f "$OUT/rowcycle.txt"
  done
fi
if has tests; then
  t grid-tests "${TESTS_S:-240}" env LW_GPU_ONLY="${TESTS_ONLY-grid,ring,tiles}" test_gpu_inplace
  t grid-memcheck 150 env LW_GPU_ONLY=grid LW_GPU_QUICK=1 "$CS" --tool memcheck --error-exitcode 3 test_gpu_inplace
fi
if has race; then
  for c in "-m symmetric --shape 1024x1024" "-m periodic --shape 512x512"; do
    n=grid-race-$(echo "$c" | awk '{print $2}')
    # shellcheck disable=SC2086  # a case is a word list
    t "$n" 150 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
      --inplace --tune inplace=grid -w cdf97,dd137 --layout interleaved --direction forward,inverse $c
    verified "$n"
  done
  # the row reorder: cycles cut in segments (1080 rows), whole (4096), Mallat in place, both tools
  for tool in memcheck racecheck; do
    for sh in 1080x1920 4096x256; do
      n=rc-$tool-$sh
      t "$n" 120 "$CS" --tool $tool --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
        --inplace --tune inplace=ring --layout mallat -w cdf97,haar --direction forward,inverse --shape $sh -l 2
      verified "$n"
    done
  done
fi
if has bench; then
  B() { # arm round modes mallat(0/1) args...
    local a=$1 r=$2 ms=$3 ml=$4; shift 4
    for m in $ms; do
      timeout 150 liftwave bench --backend cuda --config G2G --shape 16384x16384 --direction forward,inverse \
        --repeat 20 --json --inplace -m $m --layout interleaved -w "${W:-cdf97,cdf53,haar,d4,dd137}" "$@" \
        >>"$OUT/ab-$a-$r.json" 2>>"$OUT/bench.err"
      say "bench $a $r $m interleaved $*: rc=$?"
    done
    [ "$ml" = 1 ] || return 0
    timeout 100 liftwave bench --backend cuda --config G2G --shape 16384x16384 --direction forward,inverse \
      --repeat 20 --json --inplace -m symmetric --layout mallat -w cdf97,d4 "$@" >>"$OUT/ab-$a-$r.json" 2>>"$OUT/bench.err"
    say "bench $a $r mallat $*: rc=$?"
  }
  for r in $(seq 1 "${ROUNDS:-1}"); do
    [ $(( $(date +%s) - T00 )) -gt "${STOP:-450}" ] && break
    B grid "$r" "symmetric periodic" 1
    B walk "$r" "symmetric periodic" 1 --tune inplace=tiles
    [ "$r" = 1 ] && W=cdf97 B ring "$r" symmetric 0 --tune inplace=ring
  done
  python3 bench/exp/set_table.py "$OUT" grid walk ring | tee -a "$S"
fi
