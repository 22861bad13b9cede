#!/usr/bin/env bash
# GPU programs built off the GPU machine.  Building liftwave's CUDA code takes
# about 6 minutes on a 16-core GPU machine, which is GPU time; any machine
# with nvcc (no GPU needed) can build the same sm_90 binaries instead, and the
# GPU machine then only unpacks and runs them.
#
#   bash tests/gpu/prebuilt.sh pack [DIR]
#       here: configure (if needed) and build, in ${LW_PREBUILT_BUILD:-build-cuda},
#       the targets ${LW_PREBUILT_TARGETS:-"liftwave test_gpu"} for sm_90 with this
#       checkout's commit stamped in, strip them and write DIR/pkg.tar.xz (default
#       .ab, a folder git ignores, carried to the GPU machine) with the shared
#       libraries the CLI needs beside them.  The programs' device code is most of
#       their size and the same in each, so xz -9 (its window spans several) packs
#       two programs into about 31 MB.
#   bash tests/gpu/prebuilt.sh unpack [DIR]
#       on the GPU machine: unpacks DIR/pkg.tar.xz into ${LW_PREBUILT_DIR:-/tmp/lw-prebuilt}
#       and prints the lines to eval there: PATH with the programs first,
#       LD_LIBRARY_PATH with the carried libraries, LW (the CLI, as bench/exp
#       scripts take it) and LW_COMMIT.
#
# The programs link the CUDA runtime statically; the GPU machine's driver must
# take the CUDA version of the nvcc used here (both 13.0 when this was written).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cmd=${1:-}
dir=${2:-$ROOT/.ab}

case "$cmd" in
pack)
    command -v nvcc >/dev/null || { echo "prebuilt.sh: no nvcc here" >&2; exit 1; }
    B=${LW_PREBUILT_BUILD:-$ROOT/build-cuda}
    commit=$(git -C "$ROOT" rev-parse --short=12 HEAD)
    git -C "$ROOT" diff --quiet HEAD -- src include tools tests CMakeLists.txt ||
        echo "prebuilt.sh: note: uncommitted changes are built in; the stamp says $commit" >&2
    # the stamp is a definition of the CLI's sources only: changing it rebuilds no CUDA code
    cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_WITH_CUDA=ON \
        -DLW_GIT_COMMIT="$commit" >/dev/null
    targets=${LW_PREBUILT_TARGETS:-"liftwave test_gpu"}
    # shellcheck disable=SC2086
    cmake --build "$B" -j"$(nproc)" --target $targets
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/pkg/bin" "$stage/pkg/lib"
    for t in $targets; do
        f=$(find "$B" -type f -name "$t" -perm -u+x | head -1)
        [ -n "$f" ] || { echo "prebuilt.sh: no program $t in $B" >&2; exit 1; }
        strip -o "$stage/pkg/bin/$t" "$f"
    done
    # the libraries outside the C/C++ runtime that the programs load (libpng for the CLI, OpenMP)
    for t in $targets; do ldd "$stage/pkg/bin/$t"; done | awk '/=> \// {print $3}' | sort -u |
        grep -E 'libpng|libgomp|libz\.' | while read -r l; do cp -L "$l" "$stage/pkg/lib/"; done
    echo "$commit" >"$stage/pkg/commit"
    mkdir -p "$dir"
    tar -C "$stage" -cf - pkg | xz -9 -T1 >"$dir/pkg.tar.xz"
    echo "prebuilt.sh: $dir/pkg.tar.xz ($(du -h "$dir/pkg.tar.xz" | cut -f1)), commit $commit: $targets"
    ;;
unpack)
    P=${LW_PREBUILT_DIR:-/tmp/lw-prebuilt}
    rm -rf "$P" && mkdir -p "$P"
    xz -dc "$dir/pkg.tar.xz" | tar -C "$P" -xf -
    echo "export PATH=$P/pkg/bin:\$PATH LD_LIBRARY_PATH=$P/pkg/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export LW=$P/pkg/bin/liftwave LW_COMMIT=$(cat "$P/pkg/commit")"
    ;;
*)
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
