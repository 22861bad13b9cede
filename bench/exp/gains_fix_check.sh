#!/usr/bin/env bash
# One device call (GPU machine, repo root; a package in $1 built with LW_PREBUILT_TARGETS="liftwave test_gpu
# test_gpu_bands" and LW_WHEEL_PYTHON, PyWavelets' wheel in $1/wheels): the band gains on the register-window
# kernels (bench/NOTES-torch.md, "A bug the run found"): test_gpu's gained cases, the torch GPU tests and
# bench/exp/compat_cuda_check.py on the new wheel, a short random mix of test_gpu (one float case in four
# with gains) and test_gpu_bands quick, each step within its own time limit.  The timing of the scaling's
# run-time test is not here: main's CLI beside these programs packs to 105 MB, past the upload.
#   bash bench/exp/gains_fix_check.sh .ab8      -> $OUT/gains.txt, compat.txt, pytest-torch.log, test-*.log
set -u
D=${1:-.ab8}
eval "$(bash tests/gpu/prebuilt.sh unpack "$D")"
export LW_COMMIT
S=$OUT/gains.txt
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 ))s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$S"
echo "commit $LW_COMMIT" >> "$S"
LW_GPU_ONLY=gains timeout 45 test_gpu > "$OUT/test-gains.log" 2>&1
echo "test_gpu LW_GPU_ONLY=gains: rc=$? $(grep -E 'gained cases|checks' "$OUT/test-gains.log" | tr '\n' ' ') $(el)" >> "$S"
grep -m5 FAIL "$OUT/test-gains.log" >> "$S"
LW_STAGES=python LW_PY_STEPS=install LW_WHEELS=$PWD/$D/wheels bash tests/gpu/run.sh >/dev/null 2>&1
echo "python install: rc=$? $(el)" >> "$S"
(cd /tmp && timeout 60 /tmp/lw-py-venv/bin/python "$OLDPWD/bench/exp/compat_cuda_check.py" > "$OUT/compat.txt" 2>&1)
echo "compat check: rc=$? $(el); bands off by more than 1e-4: $(grep '^front\|^dwt2' "$OUT/compat.txt" | \
  awk '{for (i = 6; i <= NF; i++) if ($i + 0 > 1e-4) {n++; break}} END {print n + 0}')" >> "$S"
(cd tests/python && timeout 60 /tmp/lw-py-venv/bin/python -m pytest -q -rs -p no:cacheprovider test_torch_gpu.py \
  test_torch_gpu_half.py > "$OUT/pytest-torch.log" 2>&1)
echo "torch GPU tests: rc=$? $(tail -1 "$OUT/pytest-torch.log") $(el)" >> "$S"
LW_GPU_CASES=${LW_RANDOM:-150} LW_GPU_QUICK=1 timeout 45 test_gpu > "$OUT/test-random.log" 2>&1
echo "test_gpu ${LW_RANDOM:-150} random cases (quick): rc=$? $(grep -E 'checks' "$OUT/test-random.log" | tr '\n' ' ') $(el)" >> "$S"
grep -m5 FAIL "$OUT/test-random.log" >> "$S"
LW_GPU_QUICK=1 timeout 40 test_gpu_bands > "$OUT/test-bands.log" 2>&1
echo "test_gpu_bands (quick): rc=$? $(tail -1 "$OUT/test-bands.log") $(el)" >> "$S"
cat "$S"
