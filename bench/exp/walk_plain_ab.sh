#!/usr/bin/env bash
# One device call (GPU machine, repo root) for a strip-walker patch (written for the plain
# bands, bench/exp/wip/walk-plain-bands.patch; walk_w288_ab.sh runs it for the wide strips;
# bench/NOTES-walker-plain.md): the patched
# build's in-place tests on the walker's sweeps, plain and under memcheck (quick),
# then the older CLI packed beside it (OLD, LW_PREBUILT_EXTRA) against the patched
# one on the walker's cases, two rounds.
#   OLD=liftwave-old BUDGET=420 bash bench/exp/walk_plain_ab.sh .ab7
# PRIOR (optional): a third CLI packed beside them (an intermediate build), timed (PRIOR_S seconds) against
# the new one on 16384^2 cdf97, cdf53, dd137 and the cdf97 batch after the main A/B -> $OUT/ab2/.
# The package: main built as is, its CLI copied to liftwave-old; then the patch
# applied and `LW_PREBUILT_TARGETS="liftwave test_gpu_inplace" LW_PREBUILT_EXTRA=$PWD/liftwave-old
# bash tests/gpu/prebuilt.sh pack .ab7` (only k_walk2d.cu rebuilds: about 5 minutes).
# -> $OUT/table.txt, test-walker.log, memcheck.log, ab/ab.json, ab/ab.txt (ab2/ with PRIOR)
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab7}")"
t00=$(date +%s)
BUDGET=${BUDGET:-420}
left() { echo $((BUDGET - ($(date +%s) - t00))); }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/table.txt"
echo "commit $LW_COMMIT (patched), old CLI ${OLD:?OLD=the older CLI, packed beside}" >> "$OUT/table.txt"

t0=$(date +%s)
LW_GPU_ONLY=tiles,d4_walker,wide_batch timeout 150 test_gpu_inplace > "$OUT/test-walker.log" 2>&1
echo "test_gpu_inplace tiles,d4_walker,wide_batch: rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'checks|FAIL' "$OUT/test-walker.log" | tail -3 | tr '\n' ' ')" >> "$OUT/table.txt"
t0=$(date +%s)
LW_GPU_ONLY=tiles,d4_walker,wide_batch LW_GPU_QUICK=1 timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 \
  test_gpu_inplace > "$OUT/memcheck.log" 2>&1
echo "memcheck (the same sweeps, quick): rc=$? in $(( $(date +%s) - t0 ))s: $(grep 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)" >> "$OUT/table.txt"

# ab CLI DIR SECONDS CASES: CLI (old) against this build's liftwave (new), interleaved in place
ab() {
  OLD=$(command -v "$1") NEW=$(command -v liftwave) OUT=$OUT/$2 LW_AB_ROUNDS=${ROUNDS:-2} LW_AB_BUDGET=$3 \
    LW_AB_CASES=$4 LW_AB_ARGS="--layout interleaved --direction forward,inverse --repeat 15" \
    bash bench/exp/inplace_ab.sh >> "$OUT/table.txt" 2>&1
}
# the walker's cases: 16384^2 interleaved in place (every wavelet it lifts), the batch of
# 512^2 planes on the whole-row strips, then float64 and the integer transforms (whose kernels'
# registers rose most) at 8192^2; Mallat 16384^2 runs the plane passes, not the walker.
# CASES and ROUNDS (optional): a shorter A/B where little device time is left
keep=0; [ -n "${PRIOR:-}" ] && keep=${PRIOR_S:-120}  # seconds kept for PRIOR's A/B
ab "$OLD" ab $(( $(left) - 30 - keep )) \
  "${CASES:-"--shape 16384x16384 --levels 1 -w cdf97,haar,cdf53,dd137,dd97,d4;--shape 192x512x512 --axes 1,2 --levels 1 -w cdf97,haar,dd137,d4;--shape 8192x8192 --levels 1 --dtype float64 -w cdf97,dd137;--shape 8192x8192 --levels 1 --integer -w cdf53,dd137"}"
if [ -n "${PRIOR:-}" ] && [ "$(left)" -gt 60 ]; then
  echo "--- ${PRIOR} against the new CLI" >> "$OUT/table.txt"
  ab "$PRIOR" ab2 $(( $(left) - 20 )) "--shape 16384x16384 --levels 1 -w cdf97,cdf53,dd137;--shape 192x512x512 --axes 1,2 --levels 1 -w cdf97"
fi
cat "$OUT/table.txt"
