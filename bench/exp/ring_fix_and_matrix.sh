#!/usr/bin/env bash
# One device call (GPU machine, repo root; the package in $1, default .ab1, packed with
# LW_PREBUILT_TARGETS="liftwave test_gpu test_gpu_inplace" and LW_PREBUILT_EXTRA naming a
# test_gpu_inplace built with exp/wip/tile-ip-check.patch, renamed test_gpu_inplace_check):
#   1. the in-place tile kernel's ring hand-over (wide batches and ring sweeps, LW_GPU_ONLY=wide_batch,ring):
#      plain and under racecheck with the library's build, then the check build (ip_check.sh: "ipcheck A/B/C")
#   2. the whole matrix (liftwave bench --backend cuda --matrix) -> $OUT/matrix.json, matrix.err
#   3. test_gpu_inplace's whole set with what time is left (its summary in ring.txt)
# -> $OUT/ring.txt, $OUT/ipcheck.txt, $OUT/matrix.*
# (session 58's H100 took more than 60 s for step 1's first run: give it 180 when it matters)
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab1}")"
t0=$(date +%s)
R=$OUT/ring.txt
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $R
step() { # $1 title, $2 log, rest: command
  local title=$1 log=$2; shift 2
  "$@" > "$log" 2>&1; echo "rc=$?" >> "$log"
  { echo "== $title [$(( $(date +%s) - t0 ))s]"; grep -A3 "^FAIL" "$log" | head -12
    grep -i "checks\|hazard\|error summary\|rc=" "$log" | tail -4; } >> $R
}
LW_GPU_ONLY=wide_batch,ring step "plain wide_batch,ring" /tmp/r1.log timeout 60 test_gpu_inplace
LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring step "racecheck quick=2" /tmp/r2.log \
  timeout 90 compute-sanitizer --tool racecheck --print-limit 3 test_gpu_inplace
LW_IPCHECK_BIN=test_gpu_inplace_check LW_IPCHECK_PLAIN_ONLY=1 bash bench/exp/ip_check.sh "${1:-.ab1}" >/dev/null 2>&1
echo "== matrix start [$(( $(date +%s) - t0 ))s]" >> $R
timeout 330 liftwave bench --backend cuda --matrix --json > $OUT/matrix.json 2> $OUT/matrix.err
echo "matrix rc=$? [$(( $(date +%s) - t0 ))s]" >> $R
left=$(( 560 - ($(date +%s) - t0) ))
[ $left -gt 20 ] && step "test_gpu_inplace whole set (timeout ${left}s)" /tmp/r3.log timeout $left test_gpu_inplace
cat $R
