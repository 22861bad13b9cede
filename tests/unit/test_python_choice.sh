#!/usr/bin/env bash
# The tests' Python (tests/CMakeLists.txt) has NumPy, and PyWavelets, when
# python3 on PATH or /usr/bin/python3 has them (a python3 first on PATH that
# lacks them must not hide a system one that has them).
set -uo pipefail
chosen=$1
has() { [ -n "$1" ] && [ -x "$1" ] && "$1" -c "import $2" >/dev/null 2>&1; }
for mod in numpy pywt; do
    if has "$(command -v python3)" $mod || has /usr/bin/python3 $mod; then
        has "$chosen" $mod || { echo "FAIL: '$chosen' lacks $mod, which another python3 here has"; exit 1; }
    fi
done
echo "tests run ${chosen:-no python}: ok"
