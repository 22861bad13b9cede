#!/usr/bin/env bash
# One device call (GPU machine, repo root, the package in $1, default .ab2): the in-place tile kernel's
# coherent loads under racecheck (the wide-batch cases that came out wrong at 41dfdce), the in-place
# sweeps the session's changes touch and their quick set under memcheck, then the whole matrix.
# Writes $OUT/summary.txt, $OUT/matrix.json, $OUT/matrix.err (few files: the call returns at most eight).
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab2}")"
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 ))s]"; }
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > $S
LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring timeout 200 compute-sanitizer --tool racecheck --print-limit 5 \
    test_gpu_inplace > /tmp/r.log 2>&1; echo "rc=$?" >> /tmp/r.log
{ echo "== racecheck (LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring) $(el)"; grep -A5 "^FAIL" /tmp/r.log | head -40
  grep -i "hazard\|checks\|rc=\|cases" /tmp/r.log | tail -8; } >> $S
LW_GPU_ONLY=il_pyramid,il_budget,wide_batch,ring,tiles timeout 200 test_gpu_inplace > /tmp/t.log 2>&1; echo "rc=$?" >> /tmp/t.log
{ echo "== test_gpu_inplace (il_pyramid,il_budget,wide_batch,ring,tiles) $(el)"; grep -A5 "^FAIL" /tmp/t.log | head -40
  grep -v "^FAIL\|^    \|^engine" /tmp/t.log | tail -10; } >> $S
LW_GPU_QUICK=1 LW_GPU_ONLY=il_pyramid,wide_batch,ring timeout 100 compute-sanitizer --tool memcheck --print-limit 5 \
    test_gpu_inplace > /tmp/m.log 2>&1; echo "rc=$?" >> /tmp/m.log
{ echo "== memcheck (LW_GPU_QUICK=1 il_pyramid,wide_batch,ring) $(el)"; grep -A3 "^FAIL" /tmp/m.log | head -20
  tail -3 /tmp/m.log; } >> $S
cat $S
timeout 330 $LW bench --backend cuda --matrix --json > $OUT/matrix.json 2> $OUT/matrix.err
echo "== matrix $(el)" >> $S; tail -12 $OUT/matrix.err >> $S
tail -14 $S
