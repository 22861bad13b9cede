#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the walker's wide strips (walk-w288.patch, run in session 64 and
# removed: git show bc4c381:bench/exp/wip/walk-w288.patch;
# 288-thread blocks, strips of 280 columns, 1152-byte row pieces; bench/NOTES-walker-plain.md): first
# bench/exp/walk_pattern.cu's memory pattern alone (built here beside the package as $1/walk_pattern:
# nvcc -O3 -arch=sm_90), then bench/exp/walk_plain_ab.sh (the patched build's walker tests, plain and under
# memcheck, and main's CLI, packed beside as liftwave-old, against the patched one, two rounds).
# The package: main's CLI from a main package as liftwave-old, the patch applied, then
# LW_PREBUILT_TARGETS="liftwave test_gpu_inplace" LW_PREBUILT_EXTRA=/path/liftwave-old bash tests/gpu/prebuilt.sh pack .ab13
# (only k_walk2d.cu rebuilds: about 2 minutes on the 2-core VM).
#   bash bench/exp/walk_w288_ab.sh .ab13    -> $OUT/pattern.txt, then walk_plain_ab.sh's files
set -u
D=${1:-.ab13}
timeout 120 "$D/walk_pattern" > "$OUT/pattern.txt" 2>&1
echo "walk_pattern rc=$?"; cat "$OUT/pattern.txt"
OLD=liftwave-old BUDGET=${BUDGET:-400} bash bench/exp/walk_plain_ab.sh "$D"
