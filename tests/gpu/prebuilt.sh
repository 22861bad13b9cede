#!/usr/bin/env bash
# GPU programs built off the GPU machine.  Building liftwave's CUDA code on the
# 16-core GPU machine took about 6 minutes in 2026-11 and more than two calls of
# 10 minutes on 2026-12-04 (k_tile2d.cu and k_tile3d.cu each past 10 minutes
# there, CMake architecture 90), all of it GPU time; any machine with nvcc (no
# GPU needed) builds the same sm_90 binaries instead (the 2-core VM: 14 minutes
# for the four largest kernel files, the rest already built), and the GPU
# machine then only unpacks and runs them.  The upload holds 64 MiB with the
# checkout (about 21 MiB tracked, 15 of it bench/results): a package of three
# programs is about 49 MiB, so leave the records out of that call's index
# (git rm -r --cached bench/results, /bench/results/ in .git/info/exclude;
# git reset after, before any commit: a commit in between records the
# records' deletion) or carry fewer programs.
#
#   bash tests/gpu/prebuilt.sh pack [DIR]
#       here: configure (if needed) and build, in ${LW_PREBUILT_BUILD:-build-cuda-real},
#       the targets ${LW_PREBUILT_TARGETS:-"liftwave test_gpu"} (programs, or liftwave_shared:
#       lib/libliftwave.so, for the bench scripts that load it) for sm_90, as CMake's
#       CUDA architectures ${LW_PREBUILT_ARCH:-90-real}: machine code only, without the
#       PTX that a 90 build adds for later GPUs (the packed CLI 33 MB against 51 at
#       38c13c8, so that two builds' programs fit the GPU machine's 64 MiB upload beside
#       the checkout; ptxas compiles the machine code the same way) (the papers'
#       schemes only with LW_PREBUILT_SCHEMES=ON: most of the compile time) with this
#       checkout's commit stamped in, strip them and write DIR/pkg.tar.xz (default
#       .ab, a folder git ignores, carried to the GPU machine) with the shared
#       libraries the CLI needs beside them.  The programs' device code is most of
#       their size and the same in each, so xz with a window wider than the
#       whole archive (512 MiB: about 5 GiB of memory to pack, 512 MiB to
#       unpack) stores that code about once, whatever the number of programs.
#       LW_PREBUILT_EXTRA: more programs (paths) to put in bin/ as they are, e.g. an
#       older build's CLI renamed, for an A/B in one run.
#       With LW_WHEEL_PYTHON (a python3 of the GPU machine's minor version, 3.12
#       when this was written, with scikit-build-core and nanobind), the Python
#       package too: a wheel built in the same tree with the same settings (the
#       library's objects are shared, only the extension is new), stored
#       uncompressed in the archive so that xz finds its device code in the
#       programs'.  tests/gpu/run.sh (stage python) installs it instead of
#       building one.
#   bash tests/gpu/prebuilt.sh unpack [DIR]
#       on the GPU machine: unpacks DIR/pkg.tar.xz into ${LW_PREBUILT_DIR:-/tmp/lw-prebuilt}
#       and prints the lines to eval there: PATH with the programs first,
#       LD_LIBRARY_PATH with the carried libraries, LW (the CLI, as bench/exp
#       scripts take it), LW_COMMIT and LW_PY_WHEEL (the wheel, if packed).
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
    B=${LW_PREBUILT_BUILD:-$ROOT/build-cuda-real}
    commit=$(git -C "$ROOT" rev-parse --short=12 HEAD)
    git -C "$ROOT" diff --quiet HEAD -- src include tools tests CMakeLists.txt ||
        echo "prebuilt.sh: note: uncommitted changes are built in; the stamp says $commit" >&2
    # the stamp is a definition of the CLI's sources only: changing it rebuilds no CUDA code
    cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${LW_PREBUILT_ARCH:-90-real}" -DLW_WITH_CUDA=ON \
        -DLW_CUDA_SCHEMES="${LW_PREBUILT_SCHEMES:-OFF}" -DLW_GIT_COMMIT="$commit" >/dev/null
    targets=${LW_PREBUILT_TARGETS:-"liftwave test_gpu"}
    # shellcheck disable=SC2086
    cmake --build "$B" -j"$(nproc)" --target $targets
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    mkdir -p "$stage/pkg/bin" "$stage/pkg/lib"
    for t in $targets; do
        if [ "$t" = liftwave_shared ]; then  # the C library itself, for bench scripts (ctypes)
            f=$(find "$B" -maxdepth 1 -type f -name 'libliftwave.so.*' | head -1)
            [ -n "$f" ] || { echo "prebuilt.sh: no libliftwave.so in $B" >&2; exit 1; }
            strip --strip-unneeded -o "$stage/pkg/lib/libliftwave.so" "$f"
            continue
        fi
        f=$(find "$B" -type f -name "$t" -perm -u+x | head -1)
        [ -n "$f" ] || { echo "prebuilt.sh: no program $t in $B" >&2; exit 1; }
        strip -o "$stage/pkg/bin/$t" "$f"
    done
    # the libraries outside the C/C++ runtime that the programs load (libpng for the CLI, OpenMP)
    for f in "$stage"/pkg/bin/* "$stage"/pkg/lib/libliftwave.so; do if [ -f "$f" ]; then ldd "$f"; fi; done | awk '/=> \// {print $3}' | sort -u |
        grep -E 'libpng|libgomp|libz\.' | while read -r l; do cp -L "$l" "$stage/pkg/lib/"; done
    if [ -n "${LW_WHEEL_PYTHON:-}" ]; then
        # pack's settings where they differ from pyproject.toml's (pip builds only the extension)
        CMAKE_GENERATOR="Unix Makefiles" "$LW_WHEEL_PYTHON" -m pip wheel -q --no-deps --no-build-isolation \
            -w "$stage/whl" -Cbuild-dir="$B" -Ccmake.define.LW_GIT_COMMIT="$commit" \
            -Ccmake.define.CMAKE_CUDA_ARCHITECTURES="${LW_PREBUILT_ARCH:-90-real}" -Ccmake.define.LW_CUDA_SCHEMES="${LW_PREBUILT_SCHEMES:-OFF}" \
            -Ccmake.define.LW_BUILD_TESTS=ON -Ccmake.define.LW_BUILD_CLI=ON -Ccmake.define.LW_WITH_PNG=ON "$ROOT"
        for w in "$stage"/whl/liftwave-*.whl; do
            "$LW_WHEEL_PYTHON" - "$w" "$stage/pkg/$(basename "$w")" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as a, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as b:
    for i in a.infolist():
        b.writestr(i, a.read(i), compress_type=zipfile.ZIP_STORED)
PY
        done
        targets="$targets $(cd "$stage/pkg" && ls liftwave-*.whl)"
    fi
    # more programs for bin/ as they are (an older build's CLI for an A/B in one run: its device
    # code is mostly this build's, which xz finds)
    for f in ${LW_PREBUILT_EXTRA:-}; do cp "$f" "$stage/pkg/bin/"; done
    echo "$commit" >"$stage/pkg/commit"
    mkdir -p "$dir"
    tar -C "$stage" -cf - pkg | xz -T1 --lzma2=preset=9,dict=512MiB >"$dir/pkg.tar.xz"
    echo "prebuilt.sh: $dir/pkg.tar.xz ($(du -h "$dir/pkg.tar.xz" | cut -f1)), commit $commit: $targets"
    ;;
unpack)
    P=${LW_PREBUILT_DIR:-/tmp/lw-prebuilt}
    rm -rf "$P" && mkdir -p "$P"
    xz -dc "$dir/pkg.tar.xz" | tar -C "$P" -xf -
    echo "export PATH=$P/pkg/bin:\$PATH LD_LIBRARY_PATH=$P/pkg/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export LW=$P/pkg/bin/liftwave LW_COMMIT=$(cat "$P/pkg/commit")"
    for w in "$P"/pkg/liftwave-*.whl; do if [ -f "$w" ]; then echo "export LW_PY_WHEEL=$w"; fi; done
    ;;
*)
    sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
