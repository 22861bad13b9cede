#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the line reorder along cycles cut in pieces (k_permute.cu,
# lw_mallat_cycle_pieces; bench/NOTES-inplace.md, "Walked lines with few long cycles"):
#   bash bench/exp/permute_cut_ab.sh DIR ['tests bench']   [ROUNDS=2; STOP=450: no bench arm starts later]
# (stage lean: the walk sweep and the found leaders' racecheck only; stage mini: 1-D cdf97 1000003, 786432, 2^20, 2^24 and 2^25 in place, auto and whole, and out of place, for a short call)
# DIR: a package (tests/gpu/prebuilt.sh pack) of this build's liftwave and test_gpu_inplace.  The arms are
# tunings of the one CLI: auto; whole (reorder_piece=2^30: a walker a cycle, as before the pieces); p1024.
# tests: test_gpu_inplace's walk sweep plain and (quick) under memcheck; racecheck of a 1-D cut case and of a
# 2^16 line (leaders found by the kernel).
# bench (last): 1-D float32 Mallat in place, cdf97 and haar, one level (and five for 1000003), on line
# lengths whose reorder has few long cycles (100003: 2; 1000003: 2; 786432: 4; 4000000: 106, the longest
# 102564) and many short ones (2^20, 2^24), and 2-D 100003x16 (walked columns); rounds alternating new and
# old, then the same cases out of place (new) -> $OUT/ab-records.tgz, the table in $OUT/summary.txt
set -u
T00=$(date +%s)
ST=" ${2:-tests bench} "
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:?usage: permute_cut_ab.sh DIR [STAGES]}")"
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL|pieces' T_LINES=3
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT (+ the cut reorder), $(date -u +%FT%TZ)"
if has tests || has lean; then t walk 300 env LW_GPU_ONLY=walk test_gpu_inplace; fi
if has tests; then
  t memcheck 200 env LW_GPU_ONLY=walk LW_GPU_QUICK=1 "$CS" --tool memcheck --error-exitcode 3 test_gpu_inplace
  t racecheck 120 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
    --inplace --layout mallat -w cdf97 --direction forward,inverse --shape 100003
  verified racecheck
fi
if has tests || has lean; then # the found leaders' list is in shared memory
  t racecheck-found 120 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
    --inplace --layout mallat -w cdf97 --direction forward,inverse --shape 65536
  verified racecheck-found
fi
B() { # arm round seconds args...
    local a=$1 r=$2 s=$3 tune=; shift 3
    case $a in whole) tune="--tune reorder_piece=1073741824" ;; p1024) tune="--tune reorder_piece=1024" ;; esac
    # shellcheck disable=SC2086
    timeout "$s" liftwave bench $tune --backend cuda --config G2G --layout mallat --direction forward,inverse \
      --repeat 10 --json "$@" >>"$OUT/ab-$a-$r.json" 2>>"$OUT/ab-$a-$r.err"
    say "bench $a $r $*: rc=$?"
}
if has mini; then # the headline cases only, for a short call
  for a in auto whole; do B $a 1 60 --inplace -w cdf97 --shape 1000003,786432,1048576,16777216,33554432 --repeat 5; done
  B oop 1 60 -w cdf97 --shape 1000003,786432,1048576,16777216,33554432 --repeat 5
  python3 bench/exp/set_table.py "$OUT" auto whole | tee -a "$S"
  say "out of place:"; python3 bench/exp/set_table.py "$OUT" oop | tee -a "$S"
fi
if has bench; then
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for a in auto whole p1024; do
      [ $(( $(date +%s) - T00 )) -gt "${STOP:-450}" ] && break 2
      for sh in 100003 1000003 786432 4000000 1048576 16777216 100003x16; do
        B $a $r 120 --inplace -w cdf97,haar --shape $sh
      done
      B $a $r 60 --inplace -w cdf97 --shape 1000003 -l 5
    done
  done
  for sh in 100003 1000003 786432 4000000 1048576 16777216 100003x16; do B oop 1 60 -w cdf97,haar --shape $sh; done
  python3 bench/exp/set_table.py "$OUT" auto whole p1024 | tee -a "$S"
  say "out of place:"; python3 bench/exp/set_table.py "$OUT" oop | tee -a "$S"
fi
# the device tool brings back a few files a call: the records in one archive
if ls "$OUT"/ab-*.json >/dev/null 2>&1; then
  tar -C "$OUT" -czf "$OUT/ab-records.tgz" $(cd "$OUT" && ls ab-*.json ab-*.err) && rm -f "$OUT"/ab-*.json "$OUT"/ab-*.err
fi
