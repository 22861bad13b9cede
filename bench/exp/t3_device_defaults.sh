#!/usr/bin/env bash
# One device call (GPU machine, repo root): the fused 3-D engine's defaults of this build against an
# older CLI packed beside it (LW_PREBUILT_EXTRA, named in OLD), on every 3-D and video cell of the matrix,
# then test_gpu's fused 3-D set and its quick set under memcheck, within BUDGET seconds.
#   OLD=liftwave-c842588 BUDGET=330 bash bench/exp/t3_device_defaults.sh .ab2
# -> $OUT/arm*.json, arms.json, table.txt, test-fused3d.log, memcheck.log
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab2}")"
t00=$(date +%s)
BUDGET=${BUDGET:-330}
left() { echo $((BUDGET - ($(date +%s) - t00))); }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/table.txt"
ARMS="${OLD:?OLD: the older CLI}@ @" CELLS=${CELLS:-'3d-*,video-*'} ROUNDS=1 REPEAT=15 OUT=$OUT BUDGET=$(( $(left) - 90 )) \
  bash bench/exp/arms_matrix.sh >> "$OUT/table.txt" 2>&1
rm -f "$OUT"/arm*-*.err
t0=$(date +%s)
LW_GPU_ONLY=fused3d timeout $(( $(left) - 30 )) test_gpu > "$OUT/test-fused3d.log" 2>&1
echo "test_gpu fused3d: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'checks passed|FAIL' "$OUT/test-fused3d.log" | head -5)" >> "$OUT/table.txt"
if [ "$(left)" -gt 20 ]; then
  t0=$(date +%s)
  LW_GPU_ONLY=fused3d LW_GPU_QUICK=1 timeout $(left) compute-sanitizer --tool memcheck --error-exitcode 3 test_gpu > "$OUT/memcheck.log" 2>&1
  echo "memcheck fused3d quick: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) / $(grep 'checks passed' "$OUT/memcheck.log")" >> "$OUT/table.txt"
fi
cat "$OUT/table.txt"
