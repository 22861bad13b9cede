#!/usr/bin/env bash
# The fused 3-D engine's tile variants against each other on the matrix's 3-D cells, one binary,
# arms run in turn (each round: every arm), so that drift shows as spread between rounds; then
# test_gpu's fused 3-D set (every variant named, d4's included) and its quick set under memcheck and racecheck.
# On the GPU machine, after tests/gpu/prebuilt.sh unpack (liftwave and test_gpu on PATH):
#   ARMS="auto 32x64 16x64" CELLS='3d-*,video-*' ROUNDS=2 OUT=dir BUDGET=s \
#     bash bench/exp/tile3d_variants_ab.sh
# An arm is a tile3d value, or PROGRAM@VALUE for another CLI (e.g. liftwave-main@auto: an older
# build's, packed beside this one by LW_PREBUILT_EXTRA).
# Records: $OUT/arm-<arm>-<round>.json; the per-cell table on stdout.  Steps past BUDGET seconds
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
for r in $(seq 1 "$ROUNDS"); do
  for a in $ARMS; do
    [ "$(left)" -gt 60 ] || { echo "budget: arm $a round $r skipped"; continue; }
    t0=$(date +%s)
    bin=liftwave tune=$a
    case $a in *@*) bin=${a%@*} tune=${a#*@} ;; esac
    timeout $(left) "$bin" bench --backend cuda --matrix --json --matrix-only "$CELLS" --tune "tile3d=$tune" \
      >"$OUT/arm-$a-$r.json" 2>"$OUT/arm-$a-$r.err"
    echo "arm $a round $r: rc=$? in $(( $(date +%s) - t0 ))s"
  done
done
python3 - "$OUT" $ARMS <<'EOF'
import glob, json, os, sys
out, arms = sys.argv[1], sys.argv[2:]
t = {}  # cell -> arm -> [(median_s, fraction, verified)]
for a in arms:
    for f in sorted(glob.glob(os.path.join(out, "arm-%s-*.json" % a))):
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "cell" in r:
                t.setdefault(r["cell"], {}).setdefault(a, []).append((r["median_s"], r.get("fraction_of_bound", 0), r.get("verified")))
print("cell | " + " | ".join(arms) + " | best/first")
for c in sorted(t):
    row, best = [], None
    for a in arms:
        v = t[c].get(a, [])
        if not v:
            row.append("-")
            continue
        us = [x[0] * 1e6 for x in v]
        ok = all(x[2] for x in v)
        row.append("%s%s (%.3f)" % ("/".join("%.1f" % u for u in us), "" if ok else " UNVERIFIED", max(x[1] for x in v)))
        m = min(us)
        best = m if best is None or m < best else best
    first = min(x[0] for x in t[c].get(arms[0], [(0, 0, 0)])) * 1e6
    print("%s | %s | %.3f" % (c, " | ".join(row), best / first if first else 0))
EOF
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
