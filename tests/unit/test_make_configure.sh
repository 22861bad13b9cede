#!/usr/bin/env bash
# `make ... CMAKE_FLAGS=...` reconfigures a build directory whenever the flags
# differ from those of its last configure (a flag left out is gone again),
# and does not reconfigure when they are the same.
set -euo pipefail
src=$1
unset MAKEFLAGS MFLAGS MAKELEVEL # run as a user would, not as a sub-make of make check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base="-DLW_BUILD_TESTS=OFF -DLW_WITH_CUDA=OFF"
cache() { sed -n "s/^$1:[A-Z]*=//p" "$tmp/b/CMakeCache.txt"; }
make -s -C "$src" configure BUILD="$tmp/b" CMAKE_FLAGS="$base -DLW_WITH_PNG=OFF" >/dev/null
[ "$(cache LW_WITH_PNG)" = OFF ] || { echo "FAIL: first configure did not take -DLW_WITH_PNG=OFF"; exit 1; }
stamp=$(stat -c %Y "$tmp/b/CMakeCache.txt")
sleep 1
make -s -C "$src" configure BUILD="$tmp/b" CMAKE_FLAGS="$base -DLW_WITH_PNG=OFF" >/dev/null
[ "$(stat -c %Y "$tmp/b/CMakeCache.txt")" = "$stamp" ] || { echo "FAIL: same flags reconfigured"; exit 1; }
make -s -C "$src" configure BUILD="$tmp/b" CMAKE_FLAGS="$base -DLW_WITH_OPENMP=OFF" >/dev/null
[ "$(cache LW_WITH_OPENMP)" = OFF ] || { echo "FAIL: changed CMAKE_FLAGS ignored"; exit 1; }
[ "$(cache LW_WITH_PNG)" = ON ] || { echo "FAIL: a flag left out (-DLW_WITH_PNG=OFF) stayed in the cache"; exit 1; }
echo "make configure follows CMAKE_FLAGS: ok"
