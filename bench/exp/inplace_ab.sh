#!/usr/bin/env bash
# Two CLIs (an older build, e.g. from bench/exp/relink_old.sh, and the new one)
# timed on the same in-place cases in one run, alternating, and the table of
# their ratio: what the A/B records of bench/NOTES-inplace.md come from.
#   OLD=path NEW=path OUT=dir bash bench/exp/inplace_ab.sh
#   LW_AB_CASES   ";"-separated bench arguments, one case set each (default: the
#                 batch 192x512x512 on axes 1,2 and 512^3, one level)
#   LW_AB_ARGS    the bench arguments every set shares (default: five wavelets, both
#                 directions and layouts, --repeat 5)
#   LW_AB_ROUNDS  rounds of old then new (default 1)
#   LW_AB_BACKEND cuda (default), or cpu to try the script without a GPU
#   LW_AB_BUDGET  seconds: start no further set after this long (default none), so that
#                 a run under a time limit still ends with its table (the table takes, for
#                 each case, only the rounds both CLIs ran)
# Writes OUT/ab.json (the bench's records, each with "ab": "old" | "new" and
# "round") and OUT/ab.txt (case | old ms | new ms | new/old | verified: the best
# of the rounds' medians).
set -u -o pipefail
: "${OLD:?OLD=the older CLI}" "${NEW:?NEW=the new CLI}"
OUT=${OUT:-ab-out}
mkdir -p "$OUT"
BACKEND=${LW_AB_BACKEND:-cuda}
cfg=""
[ "$BACKEND" = cuda ] && cfg="--config G2G"
CASES=${LW_AB_CASES:-"--shape 192x512x512 --axes 1,2 --levels 1;--shape 512x512x512 --levels 1"}
ARGS=${LW_AB_ARGS:-"-w haar,cdf53,cdf97,dd137,dd97 --direction forward,inverse --layout mallat,interleaved --repeat 5"}
: >"$OUT/ab.json"
: >"$OUT/ab.err"
rc=0
t0=$(date +%s)
budget=${LW_AB_BUDGET:-0}
for round in $(seq 1 "${LW_AB_ROUNDS:-1}"); do
  for which in old new; do
    bin=$OLD
    [ $which = new ] && bin=$NEW
    IFS=';' read -ra sets <<<"$CASES"
    for set in "${sets[@]}"; do
      if [ "$budget" -gt 0 ] && [ $(($(date +%s) - t0)) -ge "$budget" ]; then
        echo "inplace_ab.sh: budget of ${budget}s spent: round $round, $which, set '$set' and the rest not run" >&2
        break 3
      fi
      # shellcheck disable=SC2086  # the sets and shared arguments are word lists
      "$bin" bench --backend "$BACKEND" $cfg --inplace --json $ARGS $set 2>>"$OUT/ab.err" |
        sed "s/^{/{\"ab\": \"$which\", \"round\": $round, /" >>"$OUT/ab.json" || rc=1
    done
  done
done
python3 - "$OUT/ab.json" <<'PY' | tee "$OUT/ab.txt"
import json, sys
cases = {}
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    r = json.loads(line)
    key = (r["wavelet"], "x".join(map(str, r["shape"])), "L%d" % r["levels"], r["dtype"], r["layout"], r["direction"])
    cases.setdefault(key, {}).setdefault(r["ab"], []).append(r)
print("case | old ms | new ms | new/old | verified")
for key, runs in cases.items():
    if "old" not in runs or "new" not in runs:
        print("%s | missing the %s run" % (" ".join(key), "old" if "old" not in runs else "new"))
        continue
    # the rounds both ran (a round cut short by the budget would favour one side)
    both = {r["round"] for r in runs["old"]} & {r["round"] for r in runs["new"]}
    old_r = [r for r in runs["old"] if r["round"] in both]
    new_r = [r for r in runs["new"] if r["round"] in both]
    o = min(r["median_s"] for r in old_r) * 1e3
    n = min(r["median_s"] for r in new_r) * 1e3
    ok = all(r.get("verified") for r in old_r + new_r)
    print("%s | %.3f | %.3f | %.2f | %s" % (" ".join(key), o, n, n / o, "yes" if ok else "NO"))
PY
exit $rc
