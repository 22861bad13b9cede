#!/usr/bin/env bash
# A/B of matrix cells between an older tree and this one, on the same GPU machine, in one run:
# both CLIs built side by side (default engines, -DLW_CUDA_SCHEMES=OFF), then the cells run
# old, new, old, new, so that clock and thermal drift show up as old-vs-old spread.
#   OLD=path/to/tree.tgz (git archive of the older commit; the device copy has no .git), or
#       OLD=. : this tree on both sides, told apart by their CMake flags
#   OLD_CMAKE / NEW_CMAKE                    extra cmake arguments of each side, e.g.
#       NEW_CMAKE=-DCMAKE_CUDA_FLAGS=-DSOME_SWITCH=1 (a build-time switch)
#   OLD_BIN / NEW_BIN                        two CLIs already built (e.g. unpacked by
#       tests/gpu/prebuilt.sh, one relinked by bench/exp/relink_old.sh): no build, OLD unused
#   CELLS='2d-l1-cdf53-*,batch-l1-cdf97-*'   cells (liftwave bench --matrix-only patterns; one
#       without * ? [ is a substring: '2d-l1-cdf97-inv' also runs host-2d-l1-cdf97-inv-*)
#   OUT=dir                                  records arm{1,2}-{1,2}.json (1 old, 2 new) and ab-summary.txt
# Usage on the device: OLD=.ab/tree-fdce97e.tgz CELLS='...' bash bench/exp/ab_matrix.sh
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/ab-out}
CELLS=${CELLS:?CELLS: the matrix cells to compare}
REPEAT=${REPEAT:-20}
mkdir -p "$OUT"
prebuilt=0
[ -n "${OLD_BIN:-}" ] && [ -n "${NEW_BIN:-}" ] && prebuilt=1
if [ $prebuilt = 1 ]; then
  :
elif [ "${OLD:?OLD: a tar.gz of the older tree (or OLD_BIN and NEW_BIN)}" = . ]; then
  OLD_TREE=$ROOT
else
  OLD_TREE=/tmp/ab-old
  mkdir -p "$OLD_TREE" && tar xzf "$OLD" -C "$OLD_TREE"
fi
build() { # tree build-dir extra-cmake-args
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_CUDA_SCHEMES=OFF $3 >"$2.log" 2>&1 &&
    cmake --build "$2" -j8 --target liftwave >>"$2.log" 2>&1
}
if [ $prebuilt = 1 ]; then
  echo "prebuilt: old $OLD_BIN, new $NEW_BIN" | tee "$OUT/ab-summary.txt"
else
  t0=$(date +%s)
  build "$OLD_TREE" /tmp/ab-old-build "${OLD_CMAKE:-}" & p1=$!
  build "$ROOT" /tmp/ab-new-build "${NEW_CMAKE:-}" & p2=$!
  wait $p1; r1=$?; wait $p2; r2=$?
  echo "builds: old rc=$r1 new rc=$r2 in $(( $(date +%s) - t0 ))s" | tee "$OUT/ab-summary.txt"
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] || { tail -20 /tmp/ab-old-build.log /tmp/ab-new-build.log; exit 1; }
  OLD_BIN=/tmp/ab-old-build/liftwave NEW_BIN=/tmp/ab-new-build/liftwave
fi
# old, new, old, new (bench/exp/arms_matrix.sh: arm 1 old, arm 2 new; the last column new / old)
ARMS="$OLD_BIN $NEW_BIN" CELLS=$CELLS ROUNDS=2 REPEAT=$REPEAT OUT=$OUT bash "$ROOT/bench/exp/arms_matrix.sh" |
  tee -a "$OUT/ab-summary.txt"
