#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the strip walker's periodic row segments (k_walk2d.cu:
# the ring of segments, its wrap stashed; bench/NOTES-walker-plain.md, "Periodic planes in row segments").
# The package: this build's liftwave and test_gpu_inplace, main's CLI beside them as liftwave-old
# (LW_PREBUILT_EXTRA: the two CLIs' device code is the same but the walker's, so xz stores it once: 61 MB):
#   bash bench/exp/walk_periodic_ab.sh DIR ['tests bench race']   [ROUNDS=2; STOP=470: no bench arm starts
#   later than STOP seconds into the call]
# tests: test_gpu_inplace's walker sweeps plain and under memcheck (quick); gpu: test_gpu (not big: the
# tile engines, for .ab20's resident-blocks helper); race: racecheck on 8192^2 periodic interleaved in place
# (seven segments: the 1% stash of that size), every record verified.
# bench (last): 16384^2 periodic, every wavelet but fs, interleaved in and out of place; cdf97 and d4 Mallat;
# cdf97 symmetric interleaved in place for the ratio; rounds alternating new and old
#   -> $OUT/ab-{new,old}-R.json, $OUT/summary.txt (the table: bench/exp/set_table.py)
set -u
T00=$(date +%s)
ST=" ${2:-tests bench race} "
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:?usage: walk_periodic_ab.sh DIR [STAGES], DIR a package holding liftwave, test_gpu_inplace and liftwave-old}")"
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL|periodic with' T_LINES=3
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT (+ the periodic segments), old: liftwave-old, $(date -u +%FT%TZ)"
if has tests; then
  t walker 150 env LW_GPU_ONLY=tiles,d4_walker test_gpu_inplace
  t memcheck 120 env LW_GPU_ONLY=tiles,d4_walker LW_GPU_QUICK=1 "$CS" --tool memcheck --error-exitcode 3 test_gpu_inplace
fi
if has gpu; then # with .ab20 (the resident-blocks helper too): the 2-D and 3-D tile engines' cases
  t test_gpu 150 env LW_GPU_BIG=0 test_gpu
fi
if has race; then
  t racecheck 150 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
    --inplace -m periodic --layout interleaved -w cdf97,d4 --shape 8192x8192 --direction forward,inverse
  verified racecheck
fi
if has bench; then
  B() { # arm round seconds args...
    local a=$1 r=$2 s=$3 cli=liftwave; shift 3; [ "$a" = old ] && cli=liftwave-old
    timeout "$s" "$cli" bench --backend cuda --config G2G --shape 16384x16384 --direction forward,inverse \
      --repeat 20 --json "$@" >>"$OUT/ab-$a-$r.json" 2>>"$OUT/ab-$a-$r.err"
    say "bench $a $r $*: rc=$?"
  }
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for a in new old; do
      [ $(( $(date +%s) - T00 )) -gt "${STOP:-470}" ] && break 2
      B $a $r 200 -m periodic --layout interleaved -w cdf97,cdf53,haar,d4,dd137 --inplace=both
      B $a $r 120 -m periodic --layout mallat -w cdf97,d4 --inplace=both
      B $a $r 60 -m symmetric --layout interleaved -w cdf97 --inplace
    done
  done
  python3 bench/exp/set_table.py "$OUT" new old | tee -a "$S"
fi
