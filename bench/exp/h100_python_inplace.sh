#!/usr/bin/env bash
# One device call (GPU machine, repo root), with a package packed with LW_WHEEL_PYTHON (the cp312 wheel beside
# the CLI) in $1 and the peers' wheels in $1/wheels (PyWavelets, pytorch_wavelets, ptwt, six, setuptools<81 for
# python 3.12: bench/NOTES-torch.md; the package and these wheels fill 59 MiB of the 64 MiB upload, so leave
# bench/results and bench/plots out of that call's index): the PyTorch comparison (issue 19's
# rows: liftwave.torch against pytorch_wavelets and ptwt, eager and in a graph) and the in-place rows (issue
# 15: 2-D 16384^2 one and five levels, both layouts, cdf97 / haar / d4), each within its own time limit.
#   bash bench/exp/h100_python_inplace.sh .ab5     -> $OUT/torch.json, torch.log, inplace.json, summary.txt (the in-place table), calls.txt
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab5}")"
t0=$(date +%s)
export LW_COMMIT
LW_STAGES=python LW_PY_STEPS=install LW_WHEELS=$PWD/${1:-.ab5}/wheels bash tests/gpu/run.sh >/dev/null 2>&1
echo "python install: rc=$? [$(( $(date +%s) - t0 ))s]" >> "$OUT/calls.txt"
(cd /tmp && timeout ${LW_TORCH_TIMEOUT:-240} /tmp/lw-py-venv/bin/python "$OLDPWD/bench/torch_compare.py" --tag h100 \
  --out "$OUT/torch.json") > "$OUT/torch.log" 2>&1
echo "torch_compare: rc=$? [$(( $(date +%s) - t0 ))s]" >> "$OUT/calls.txt"
LW_STAGES=inplace LW_BUILD_DIR=$(dirname "$LW") LW_INPLACE_CASES="2d" \
  LW_INPLACE_ARGS="--repeat 5 -w cdf97,haar,d4" LW_INPLACE_TIMEOUT=${LW_INPLACE_TIMEOUT:-200} bash tests/gpu/run.sh >/dev/null 2>&1
echo "inplace: rc=$? [$(( $(date +%s) - t0 ))s]" >> "$OUT/calls.txt"
rm -f "$OUT"/python-install.log "$OUT"/build.log
cat "$OUT/calls.txt" "$OUT/summary.txt"
