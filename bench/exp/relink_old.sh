#!/usr/bin/env bash
# An A/B partner for one device run without a second full build: the CLI of
# an existing build directory relinked with some library sources taken from
# another revision (the rest as built).
#   bash bench/exp/relink_old.sh REV OUTBIN FILE...    (FILE: paths under src/, e.g. src/cuda/k_plane.cu)
#   LW_BUILD_DIR  the configured, built CUDA build directory (default build-cuda)
#   LW_RELINK_FLAGS  extra compile flags for FILE... (e.g. -DSOME_SWITCH=1 with
#                 REV = HEAD: a build-time switch A/B'd against the build itself)
#   LW_RELINK_TARGET the program to relink (default liftwave; e.g. gpu_ooc_bench or
#                 test_gpu: any program of the build that links libliftwave.a)
# Then pack OUTBIN with the build (LW_PREBUILT_EXTRA=OUTBIN bash tests/gpu/prebuilt.sh pack)
# and time both CLIs in the same device call.
# The files' own compile commands are reused (make -n on the object's rule), with
# REV's sources and headers in place of the tree's.  Every object whose layout
# depends on a header that changed between REV and the build (a struct passed
# between files) must be listed too: the script does not check that.
set -eu -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 3 ] || { sed -n 2,12p "$0"; exit 2; }
REV=$1 OUTBIN=$2
shift 2
BUILD=$(cd "${LW_BUILD_DIR:-$ROOT/build-cuda}" && pwd)
OBJDIR=CMakeFiles/liftwave_obj.dir
if [ ! -f "$BUILD/libliftwave.a" ] || [ ! -f "$BUILD/CMakeFiles/liftwave.dir/link.txt" ]; then
  echo "relink_old: $BUILD is not a built CUDA build directory" >&2
  exit 2
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
git -C "$ROOT" archive "$REV" | tar x -C "$T/"
sed "s|$ROOT/|$T/|g" "$BUILD/$OBJDIR/includes_CUDA.rsp" > "$T/includes_CUDA.rsp"
cp "$BUILD/libliftwave.a" "$T/libliftwave.a"
objs=()
for f in "$@"; do
  [ -f "$T/$f" ] || { echo "relink_old: $f is not in $REV" >&2; exit 2; }
  rule="$OBJDIR/$f.o"
  cmd=$(cd "$BUILD" && make -n -B -f "$OBJDIR/build.make" "$rule" 2>/dev/null | grep -E "(nvcc|/cc|gcc|g\+\+) .* -c $ROOT/$f" | head -1)
  [ -n "$cmd" ] || { echo "relink_old: no compile rule for $f in $BUILD" >&2; exit 2; }
  o="$T/obj/$(basename "$f").o"
  mkdir -p "$T/obj"
  cmd=$(printf '%s' "$cmd" | sed -e "s|--options-file $OBJDIR/includes_CUDA.rsp|--options-file $T/includes_CUDA.rsp|" \
    -e "s| -I$ROOT/| -I$T/|g" -e "s| -c $ROOT/$f| -c $T/$f|" -e "s| -o [^ ]*| -o $o|" \
    -e "s| -MD||; s| -MT [^ ]*||; s| -MF [^ ]*||")
  (cd "$BUILD" && eval "$cmd ${LW_RELINK_FLAGS:-}")
  objs+=("$o")
done
(cd "$T/obj" && ar r "$T/libliftwave.a" "${objs[@]##*/}")
TGT=${LW_RELINK_TARGET:-liftwave}
TDIR=$(cd "$BUILD" && find . -type d -path "*/CMakeFiles/$TGT.dir" | head -1)
[ -n "$TDIR" ] || { echo "relink_old: no target $TGT in $BUILD" >&2; exit 2; }
TDIR=${TDIR#./}
TOP=$(dirname "$(dirname "$TDIR")") # the target's build folder, where its link line runs
sed -E "s#(^| )[./]*libliftwave\.a( |\$)#\1$T/libliftwave.a\2#" "$BUILD/$TDIR/linkLibs.rsp" > "$T/linkLibs.rsp"
link=$(sed -e "s|@CMakeFiles/$TGT.dir/linkLibs.rsp|@$T/linkLibs.rsp|" -e "s| -o $TGT | -o $OUTBIN |" \
  "$BUILD/$TDIR/link.txt")
(cd "$BUILD/$TOP" && eval "$link")
echo "relink_old: $OUTBIN = $BUILD's $TGT with $* of $(git -C "$ROOT" rev-parse --short=12 "$REV")${LW_RELINK_FLAGS:+ built with $LW_RELINK_FLAGS}"
