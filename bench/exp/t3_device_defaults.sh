#!/usr/bin/env bash
# One device call (GPU machine, repo root): the fused 3-D engine's defaults of this build against an
# older CLI packed beside it (LW_PREBUILT_EXTRA, named in OLD), or against the tunings in ARMS
# (arms_matrix.sh's), on the 3-D and video cells of the matrix (CELLS), then test_gpu's fused 3-D set
# and its quick set under memcheck, within BUDGET seconds.
#   OLD=liftwave-c842588 BUDGET=330 bash bench/exp/t3_device_defaults.sh .ab2
#   ARMS="@ @tile3d=16x64 @tile3d=32x64" CELLS='3d-l1-cdf97-*' bash bench/exp/t3_device_defaults.sh .ab2
# (TEST_QUICK: test_gpu's quick level for its fused 3-D set, default 0: the whole set;
# EXTRA_ARMS and EXTRA_CELLS: a second arms run on this build's CLI, its records joined in $OUT/x/arms.json)
# -> $OUT/arm*.json, arms.json, table.txt, test-fused3d.log, memcheck.log
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab2}")"
t00=$(date +%s)
BUDGET=${BUDGET:-330}
left() { echo $((BUDGET - ($(date +%s) - t00))); }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/table.txt"
ARMS=${ARMS:-"${OLD:?OLD (the older CLI) or ARMS}@ @"} CELLS=${CELLS:-'3d-*,video-*'} ROUNDS=1 REPEAT=15 OUT=$OUT BUDGET=$(( $(left) - 90 )) \
  bash bench/exp/arms_matrix.sh >> "$OUT/table.txt" 2>&1
rm -f "$OUT"/arm*-*.err
# EXTRA_ARMS / EXTRA_CELLS: a second set of arms on this build (e.g. tunings of other cells), -> $OUT/x/
if [ -n "${EXTRA_ARMS:-}" ] && [ "$(left)" -gt 120 ]; then
  ARMS=$EXTRA_ARMS CELLS=${EXTRA_CELLS:?} ROUNDS=1 REPEAT=${EXTRA_REPEAT:-30} OUT=$OUT/x BUDGET=$(( $(left) - 100 )) \
    bash bench/exp/arms_matrix.sh >> "$OUT/table.txt" 2>&1
  rm -f "$OUT"/x/arm*-*.err "$OUT"/x/arm*-*.json
fi
t0=$(date +%s)
LW_GPU_ONLY=fused3d LW_GPU_QUICK=${TEST_QUICK:-0} timeout $(( $(left) - 30 )) test_gpu > "$OUT/test-fused3d.log" 2>&1
echo "test_gpu fused3d (quick ${TEST_QUICK:-0}): rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'checks passed|FAIL' "$OUT/test-fused3d.log" | head -5)" >> "$OUT/table.txt"
if [ "$(left)" -gt 20 ]; then
  t0=$(date +%s)
  LW_GPU_ONLY=fused3d LW_GPU_QUICK=1 timeout $(left) compute-sanitizer --tool memcheck --error-exitcode 3 test_gpu > "$OUT/memcheck.log" 2>&1
  echo "memcheck fused3d quick: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) / $(grep 'checks passed' "$OUT/memcheck.log")" >> "$OUT/table.txt"
fi
cat "$OUT/table.txt"
