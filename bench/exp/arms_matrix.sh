#!/usr/bin/env bash
# Matrix cells under several arms on one GPU machine in one call: every round runs every arm in
# turn, so that clock and thermal drift show as spread between rounds.  An arm is
# [PROGRAM][@TUNING]: a liftwave CLI (default liftwave on PATH; e.g. an older build packed beside
# this one) and a plan tuning string for --tune (docs/TUNING.md; none if empty).
#   ARMS="/tmp/old/liftwave /tmp/new/liftwave"            two builds
#   ARMS="@tile3d=auto @tile3d=32x64 @tile3d=16x64"        one build, three tunings
#   CELLS='3d-*,video-*'  liftwave bench --matrix-only patterns
#   ROUNDS (2), REPEAT (20), OUT (folder of the records), BUDGET (s: later arms skipped, said so)
# Records: $OUT/arm<i>-<round>.json (i: the arm's place in ARMS, from 1), and all of them in
# $OUT/arms.json, each with its arm (as given in ARMS) and round; the table on stdout:
# each arm's medians over the rounds (us), its best fraction of the bound, and each arm's best
# time over the first arm's.
set -u -o pipefail
ARMS=${ARMS:?ARMS: the arms, [PROGRAM][@TUNING] each}
CELLS=${CELLS:?CELLS: the matrix cells}
ROUNDS=${ROUNDS:-2}
REPEAT=${REPEAT:-20}
OUT=${OUT:?OUT: a folder for the records}
BUDGET=${BUDGET:-100000}
t00=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - t00))); }
mkdir -p "$OUT"
for r in $(seq 1 "$ROUNDS"); do
  i=0
  for a in $ARMS; do
    i=$((i + 1))
    [ "$(left)" -gt 60 ] || { echo "budget: arm $a round $r skipped"; continue; }
    bin=${a%%@*} tune=
    case $a in *@*) tune=${a#*@} ;; esac
    t0=$(date +%s)
    timeout "$(left)" "${bin:-liftwave}" bench --backend cuda --matrix --json --repeat "$REPEAT" \
      --matrix-only "$CELLS" ${tune:+--tune "$tune"} >"$OUT/arm$i-$r.json" 2>"$OUT/arm$i-$r.err"
    echo "arm $i ($a) round $r: rc=$? in $(( $(date +%s) - t0 ))s"
  done
done
python3 - "$OUT" $ARMS <<'EOF'
import glob, json, os, sys
out, arms = sys.argv[1], sys.argv[2:]
t = {}  # cell -> arm index -> [(median_s, fraction, verified)]
joined = open(os.path.join(out, "arms.json"), "w")  # every record, with its arm and round: the file to commit
for i in range(len(arms)):
    for f in sorted(glob.glob(os.path.join(out, "arm%d-*.json" % (i + 1)))):
        rnd = int(os.path.basename(f)[:-len(".json")].split("-")[1])
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "cell" in r:
                t.setdefault(r["cell"], {}).setdefault(i, []).append(
                    (r["median_s"], r.get("fraction_of_bound", 0), r.get("verified")))
                r["arm"], r["round"] = arms[i], rnd
                joined.write(json.dumps(r) + "\n")
joined.close()
print("cell | " + " | ".join(arms) + " | " + " | ".join("%d/1" % (i + 1) for i in range(1, len(arms))))
for c in sorted(t):
    row, best = [], []
    for i in range(len(arms)):
        v = t[c].get(i, [])
        best.append(min(x[0] for x in v) if v else None)
        if not v:
            row.append("-")
            continue
        ok = all(x[2] for x in v)
        row.append("%s%s (%.3f)" % ("/".join("%.1f" % (x[0] * 1e6) for x in v), "" if ok else " UNVERIFIED",
                                    max(x[1] for x in v)))
    ratio = ["%.3f" % (b / best[0]) if b and best[0] else "-" for b in best[1:]]
    print("%s | %s | %s" % (c, " | ".join(row), " | ".join(ratio)))
EOF
