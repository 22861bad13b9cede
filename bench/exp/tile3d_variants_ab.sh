#!/usr/bin/env bash
# The fused 3-D engine's tile variants against each other on the matrix's 3-D cells, one binary,
# arms run in turn (each round: every arm), so that drift shows as spread between rounds; then
# test_gpu's fused 3-D set (every variant named, d4's included) and its quick set under memcheck and racecheck.
# On the GPU machine, after tests/gpu/prebuilt.sh unpack (liftwave and test_gpu on PATH):
#   ARMS="auto 32x64 16x64" CELLS='3d-*,video-*' ROUNDS=2 OUT=dir BUDGET=s \
#     bash bench/exp/tile3d_variants_ab.sh
# An arm is a tile3d value, or PROGRAM@VALUE for another CLI (e.g. liftwave-main@auto: an older
# build's, packed beside this one by LW_PREBUILT_EXTRA).
# Records: $OUT/arm<i>-<round>.json (bench/exp/arms_matrix.sh); the per-cell table on stdout.  Steps past BUDGET seconds
# (from the start) are skipped, said so.
set -u -o pipefail
ARMS=${ARMS:-"auto 32x64 16x64"}
CELLS=${CELLS:-'3d-*,video-*'}
ROUNDS=${ROUNDS:-2}
OUT=${OUT:?OUT: a folder for the records}
BUDGET=${BUDGET:-100000}
t00=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - t00))); }
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  t0=$(date +%s)
  LW_GPU_ONLY=fused3d timeout $(left) test_gpu >"$OUT/test-fused3d.log" 2>&1
  echo "test_gpu fused3d: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'checks passed|FAIL' "$OUT/test-fused3d.log" | head -5)"
fi
# the arms as bench/exp/arms_matrix.sh takes them: PROGRAM@tile3d=VALUE
arms=
for a in $ARMS; do
  case $a in *@*) arms="$arms ${a%@*}@tile3d=${a#*@}" ;; *) arms="$arms @tile3d=$a" ;; esac
done
ARMS=$arms CELLS=$CELLS ROUNDS=$ROUNDS OUT=$OUT BUDGET=$(left) bash "$(dirname "$0")/arms_matrix.sh"
if [ "${SKIP_SAN:-0}" != 1 ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    [ "$(left)" -gt 30 ] || { echo "budget: $tool skipped"; continue; }
    t0=$(date +%s)
    LW_GPU_ONLY=fused3d LW_GPU_QUICK=1 timeout $(left) "$CS" --tool $tool --error-exitcode 3 test_gpu >"$OUT/san-$tool.log" 2>&1
    echo "$tool fused3d quick: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1) / $(grep 'checks passed' "$OUT/san-$tool.log")"
  done
fi
echo "total $(( $(date +%s) - t00 ))s"
