# Sourced by the bench/exp/*_set.sh timing sets: runs the set's `cases` function ROUNDS
# times with one CLI, each round's records (liftwave bench --json) to $OUT/ab-$TAG-<round>.json;
# inside `cases`, `run SECONDS ARGS...` times one `liftwave bench -b cuda ARGS --json` call.
#   LW=path/to/liftwave TAG=new ROUNDS=1 OUT=dir bash bench/exp/<set>.sh
set -u -o pipefail
LW=${LW:?LW: the CLI to time}
TAG=${TAG:-new}
ROUNDS=${ROUNDS:-1}
OUT=${OUT:-ab-out}
mkdir -p "$OUT"
t0=$(date +%s)
for i in $(seq 1 "$ROUNDS"); do
    f=$OUT/ab-$TAG-$i.json
    : >"$f"
    run() { timeout "$1" "$LW" bench -b cuda "${@:2}" --json >>"$f" 2>>"$OUT/ab.err"; }
    cases
    echo "$(basename "$0" .sh): $TAG round $i, $(($(date +%s) - t0)) s, $(wc -l <"$f") records"
done
