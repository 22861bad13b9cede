#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the Mallat row reorder cut in segments (k_rowcycle.cu,
# lw_mallat_cycle_segments; bench/NOTES-walker-plain.md, "The Mallat row reorder"):
#   bash bench/exp/rowcycle_land.sh DIR [OLD_DIR] ['tests race bench']   [ROUNDS=2; STOP=450]
# DIR: a package (tests/gpu/prebuilt.sh pack) of this build's liftwave and test_gpu_inplace; OLD_DIR
# (optional, "-" for none): a package whose liftwave has the whole-cycle reorder, unpacked beside it as
# the old arm.
# tests: test_gpu_inplace's rowcycle, tiles and ring sweeps, plain and (quick) under memcheck;
# race: racecheck of the ring route, Mallat cdf97 in place at 1080x1920 and 4096x256 (cut and whole);
# bench (last): Mallat in place d4 and cdf97 (auto and inplace=tiles) at 16000^2, 16384^2, 1080x1920,
# rounds alternating new and old -> $OUT/ab-{new,old}[T]-R.json (T: inplace=tiles; packed in
# $OUT/ab-records.tgz at the end), the table in $OUT/summary.txt
set -u
T00=$(date +%s)
OLDP=${2:--}
ST=" ${3:-tests race bench} "
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:?usage: rowcycle_land.sh DIR [OLD_DIR] [STAGES]}")"
OLDCLI=
if [ "$OLDP" != - ]; then
  LW_PREBUILT_DIR=/tmp/lw-old bash tests/gpu/prebuilt.sh unpack "$OLDP" >/dev/null
  if [ -x /tmp/lw-old/pkg/bin/liftwave ]; then OLDCLI=/tmp/lw-old/pkg/bin/liftwave
  else echo "rowcycle_land.sh: no old arm: unpacking $OLDP failed" >&2; fi
fi
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL|cycles' T_LINES=3
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, old: ${OLDCLI:+$(cat /tmp/lw-old/pkg/commit)}, $(date -u +%FT%TZ)"
if has tests; then
  t inplace 200 env LW_GPU_ONLY=rowcycle,tiles,ring test_gpu_inplace
  t memcheck 150 env LW_GPU_ONLY=rowcycle LW_GPU_QUICK=1 "$CS" --tool memcheck --error-exitcode 3 test_gpu_inplace
fi
if has race; then
  for sh in 1080x1920 4096x256; do
    t race-$sh 120 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
      --inplace --tune inplace=ring --layout mallat -w cdf97 --direction forward,inverse --shape $sh -l 2
    verified race-$sh
  done
fi
if has bench; then
  B() { # arm round seconds shape args...
    local a=$1 r=$2 s=$3 sh=$4 cli=liftwave; shift 4; case $a in old*) cli=$OLDCLI ;; esac
    timeout "$s" "$cli" bench --backend cuda --config G2G --shape "$sh" --direction forward,inverse \
      --layout mallat --inplace --repeat 10 --json "$@" >>"$OUT/ab-$a-$r.json" 2>>"$OUT/ab-$a-$r.err"
    say "bench $a $r $sh $*: rc=$?"
  }
  arms=new; [ -n "$OLDCLI" ] && arms="new old"
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for a in $arms; do
      for sh in 16000x16000 16384x16384 1080x1920; do
        [ $(( $(date +%s) - T00 )) -gt "${STOP:-450}" ] && break 3
        B $a $r 90 $sh -w d4,cdf97
        B ${a}T $r 60 $sh -w cdf97 --tune inplace=tiles
      done
    done
  done
  python3 bench/exp/set_table.py "$OUT" $arms | tee -a "$S"
  say "inplace=tiles:"; python3 bench/exp/set_table.py "$OUT" $(for a in $arms; do echo ${a}T; done) | tee -a "$S"
  # the device tool brings back a few files a call: the records in one archive
  tar -C "$OUT" -czf "$OUT/ab-records.tgz" $(cd "$OUT" && ls ab-*.json ab-*.err) && rm -f "$OUT"/ab-*.json "$OUT"/ab-*.err
fi
