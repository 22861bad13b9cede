#!/usr/bin/env bash
# Device run for the registry change: the GPU suite of the new tree and an
# A/B of the issue-3 target set against the tree before the change (carried
# as .ab/base.tar.gz, `git archive` of the base commit), in one call.
#   REG_PARTS="ab test"            bench A/B (new, base, new again) and test_gpu
#   REG_PARTS="sanitize schemes"   compute-sanitizer on test_gpu, the papers' schemes
# LW_COMMIT / REG_BASE name the two commits in the records.
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/gpu-out}
mkdir -p "$OUT"
PARTS=${REG_PARTS:-"ab test"}
has() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }
BASE=${REG_BASE:-base}
B=/tmp/lw-gpu-build
T=$B/tests/gpu
# the base tree builds beside the new one (fewer cores each)
if has ab && [ ! -x /tmp/base-build/tests/gpu/gpu_bench ]; then
  rm -rf /tmp/base && mkdir -p /tmp/base && tar xzf "$ROOT/.ab/base.tar.gz" -C /tmp/base
  (cmake -S /tmp/base -B /tmp/base-build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/base-build.log" 2>&1 &&
   cmake --build /tmp/base-build -j6 --target gpu_bench >>"$OUT/base-build.log" 2>&1; echo "base build rc=$?" >>"$OUT/base-build.log") &
  basepid=$!
fi
if [ ! -x "$T/gpu_bench" ]; then
  LW_STAGES=build bash "$ROOT/tests/gpu/run.sh" >"$OUT/run-build.txt" 2>&1 || { tail -30 "$OUT/run-build.txt"; exit 1; }
  tail -1 "$OUT/run-build.txt"
fi
[ -n "${basepid:-}" ] && wait $basepid && tail -1 "$OUT/base-build.log"
if has ab; then
  for round in new base new2; do
    exe=$T/gpu_bench; c=$LW_COMMIT
    [ $round = base ] && exe=/tmp/base-build/tests/gpu/gpu_bench && c=$BASE
    t0=$(date +%s)
    LW_COMMIT=$c timeout 200 "$exe" --json "$OUT/bench-$round.json" --repeat ${REG_REPEAT:-30} >"$OUT/bench-$round.log" 2>&1
    echo "bench $round: rc=$? in $(( $(date +%s) - t0 ))s"
  done
  python3 - "$OUT" <<'PYEOF'
import json, sys, os
d = sys.argv[1]
def load(n):
    p = os.path.join(d, "bench-%s.json" % n)
    return {json.loads(l)["case"]: json.loads(l) for l in open(p)} if os.path.exists(p) else {}
new, base, new2 = load("new"), load("base"), load("new2")
print("%-32s %9s %9s %9s %7s %7s %7s" % ("case", "base_us", "new_us", "new2_us", "f_base", "f_new", "f_new2"))
for k in new:
    b, n, m = base.get(k), new[k], new2.get(k, {})
    g = lambda r, key: r.get(key, float("nan")) if r else float("nan")
    print("%-32s %9.1f %9.1f %9.1f %7.3f %7.3f %7.3f" % (k, g(b, "median_s") * 1e6, n["median_s"] * 1e6,
          g(m, "median_s") * 1e6, g(b, "fraction_of_bound"), n["fraction_of_bound"], g(m, "fraction_of_bound")))
PYEOF
fi
if has test; then
  LW_STAGES=test LW_TEST_TIMEOUT=${REG_TEST_TIMEOUT:-200} bash "$ROOT/tests/gpu/run.sh" >"$OUT/run-test.txt" 2>&1
  grep -E "test_gpu|FAIL|^engine|^random|^fixed" "$OUT/run-test.txt" | head -30
fi
if has sanitize; then
  LW_STAGES=sanitize LW_SAN_CASES=${REG_SAN_CASES:-30} LW_SAN_TIMEOUT=${REG_SAN_TIMEOUT:-170} bash "$ROOT/tests/gpu/run.sh" >"$OUT/run-san.txt" 2>&1
  grep -E "compute-sanitizer" "$OUT/run-san.txt"
fi
if has schemes; then
  LW_STAGES=schemes LW_SCHEME_PASSES="${REG_SCHEME_PASSES:-plain memcheck racecheck}" LW_TEST_TIMEOUT=200 LW_SAN_TIMEOUT=150 \
    bash "$ROOT/tests/gpu/run.sh" >"$OUT/run-schemes.txt" 2>&1
  grep -E "test_schemes|compute-sanitizer|FAIL" "$OUT/run-schemes.txt" | head -20
fi
