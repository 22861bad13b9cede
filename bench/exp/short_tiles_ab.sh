#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the short tiles' launch bound (bench/NOTES-tile2d.md,
# "Short tiles at eight blocks an SM"): the tests of the build (test_gpu, test_gpu_half, test_gpu_bands;
# test_gpu's and test_gpu_half's random cases under memcheck and racecheck), then three CLIs packed
# together: liftwave-old (main), liftwave (short tiles at 8 blocks an SM), liftwave-m6 (the forwards at 6):
# the matrix's latency cells (200 runs), its 2d-max and batch-l3 cells (whose small levels take short
# tiles), and bench/exp/tile2d_short_set.sh, each in rounds alternating the CLIs.
# The package: main's CLI as liftwave-old, the m6 build's CLI (-DLW_SHORT_FWD_MINB=6 on
# k_tile2d*.cu) as liftwave-m6, then LW_PREBUILT_TARGETS="liftwave test_gpu test_gpu_half test_gpu_bands"
# LW_PREBUILT_EXTRA="/path/liftwave-old /path/liftwave-m6" bash tests/gpu/prebuilt.sh pack .ab14
#   bash bench/exp/short_tiles_ab.sh .ab14 [STAGES]   -> $OUT/summary.txt, logs, lat/, cells/, set/
# ONE=old|new|m6: the package holds one CLI (liftwave), timed under that name: the three builds' device
# code does not fit one upload (each build's tile2d kernels are about 20 MB packed), so each goes in a
# call of its own on the same warm machine, and the tables join them (bench/exp/set_table.py).
# STAGES (default "tests lat cells set"): a subset, so that the work splits over two calls; "pattern"
# runs $1/walk_pattern (bench/exp/walk_pattern.cu, built beside the package) -> $OUT/pattern.txt.
set -u
ST=" ${2:-tests lat cells set} "
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab14}")"
S=$OUT/summary.txt
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)"
if has pattern; then
  timeout 150 "${1:-.ab14}/walk_pattern" >"$OUT/pattern.txt" 2>&1
  say "walk_pattern: rc=$?"; cat "$OUT/pattern.txt" >>"$S"
fi
if has tests; then
t test_gpu 150 env LW_GPU_BIG=0 test_gpu
t test_gpu_half 60 test_gpu_half
t test_gpu_bands 60 test_gpu_bands
t memcheck 150 env LW_GPU_QUICK=1 LW_GPU_CASES=40 "$CS" --tool memcheck --error-exitcode 3 test_gpu
# racecheck: test_gpu's random cases ran past 150 s under it; the CLI's short-tile cases instead (small
# batches: grids within a wave; 1080p and 2048^2: the inverses' bounded kernel), each record verified
for c in "-w cdf97,d4,dd137,haar --shape 4x200x264 --axes 1,2 -l 2" "-w cdf97,d4 --shape 1080x1920 -l 1" \
         "-w dd137 --shape 2048x2048 -l 1 --layout interleaved"; do
  n=race-$(echo "$c" | tr -c 'a-z0-9' '_' | cut -c1-40)
  # shellcheck disable=SC2086  # a case is a word list
  t "$n" 150 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
    --direction forward,inverse $c
  verified "$n"
done
t memcheck-half 90 env LW_GPU_QUICK=1 LW_GPU_CASES=40 "$CS" --tool memcheck --error-exitcode 3 test_gpu_half
fi
ARMS="$(command -v liftwave-old) $(command -v liftwave) $(command -v liftwave-m6)" NAMES="old new m6"
if [ -n "${ONE:-}" ]; then
  mkdir -p /tmp/one && ln -sf "$(command -v liftwave)" "/tmp/one/liftwave-$ONE" && ARMS=/tmp/one/liftwave-$ONE NAMES=$ONE
fi
has lat && ARMS=$ARMS CELLS='latency-*' ROUNDS=3 REPEAT=200 OUT=$OUT/lat${ONE:+-$ONE} bash bench/exp/arms_matrix.sh | tee -a "$S"
has cells && ARMS=$ARMS CELLS='2d-max-*,batch-l3-*' ROUNDS=2 REPEAT=20 OUT=$OUT/cells${ONE:+-$ONE} BUDGET=${CELLS_S:-150} \
  bash bench/exp/arms_matrix.sh | tee -a "$S"
has set && for r in ${SET_ROUNDS:-1 2}; do
  for a in $NAMES; do
    b=liftwave; [ -z "${ONE:-}" ] && [ $a = old ] && b=liftwave-old; [ -z "${ONE:-}" ] && [ $a = m6 ] && b=liftwave-m6
    LW=$(command -v $b) TAG=$a-$r ROUNDS=1 OUT=$OUT/set bash bench/exp/tile2d_short_set.sh | tee -a "$S"
  done
done
has set && [ -z "${ONE:-}" ] && python3 bench/exp/set_table.py "$OUT/set" old new m6 | tee -a "$S"
# the records in one file ($OUT's file count is limited)
cd "$OUT" && f=$(ls -d lat* cells* set 2>/dev/null; true) && [ -n "$f" ] && tar czf ab-records.tgz $f && rm -rf $f
