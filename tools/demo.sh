#!/usr/bin/env bash
# liftwave demo (`make demo`): transform the bundled sample picture, draw its
# coefficient pyramid, invert it, and check a lossless integer round trip.
#
# usage: bash tools/demo.sh [BUILD_DIR]          (default BUILD_DIR: build)
# environment (optional):
#   LW_DEMO_OUT     output folder (default: out/ in the source tree, git-ignored)
#   LW_DEMO_CLI     the liftwave executable (default: BUILD_DIR/liftwave)
#   LW_DEMO_SAMPLE  input picture (default: data/sample.png, or data/sample.pgm
#                   when PNG support is not built)
# Exit status: 0 ok, 1 a step failed, 77 no sample data (used by ctest).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-build}
CLI=${LW_DEMO_CLI:-$BUILD/liftwave}
OUT=${LW_DEMO_OUT:-$ROOT/out}

fail() { echo "demo: $*" >&2; exit 1; }

[ -x "$CLI" ] || fail "no liftwave executable at '$CLI' (build first: make build)"

have_png=0
"$CLI" info | grep -q '^PNG support: yes' && have_png=1

if [ -n "${LW_DEMO_SAMPLE:-}" ]; then
    SAMPLE=$LW_DEMO_SAMPLE
elif [ $have_png = 1 ] && [ -f "$ROOT/data/sample.png" ]; then
    SAMPLE=$ROOT/data/sample.png
elif [ -f "$ROOT/data/sample.pgm" ]; then
    SAMPLE=$ROOT/data/sample.pgm
else
    echo "demo: no sample picture (data/sample.png or data/sample.pgm)" >&2
    exit 77
fi
[ -f "$SAMPLE" ] || fail "sample '$SAMPLE' not found"
EXT=${SAMPLE##*.}
case "$EXT" in
    png | PNG) IMG=png ;;
    ppm | PPM) IMG=ppm ;;
    *) IMG=pgm ;;
esac
[ $IMG = png ] && [ $have_png = 0 ] && fail "this liftwave has no PNG support; use a .pgm sample"
VIEW_EXT=$([ $have_png = 1 ] && echo png || echo pgm)
[ "$IMG" = ppm ] && [ "$VIEW_EXT" = pgm ] && VIEW_EXT=ppm

mkdir -p "$OUT"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/liftwave-demo.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

now_ms() { date +%s%N | awk '{printf "%.1f", $1 / 1e6}'; }

# Run a liftwave command with -v; set LAST (its report line) and WALL (ms).
run() {
    local t0 t1
    t0=$(now_ms)
    LAST=$("$CLI" "$@" -v) || fail "step failed: liftwave $*"
    t1=$(now_ms)
    WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}
field() { # field REGEX -> first capture of the report line
    sed -n "s/.*$1.*/\\1/p" <<<"$LAST" | head -n 1
}

rel() { echo "${1#"$ROOT"/}"; }

echo "liftwave demo -- $("$CLI" --version)"
echo "sample: $(rel "$SAMPLE")    output: $(rel "$OUT")/"
echo

# 1. CDF 9/7, 3 levels, float.
run forward "$SAMPLE" "$OUT/sample_cdf97.npy" -w cdf97 -l 3
SHAPE=$(field '(\([0-9x]* [a-z0-9]*\)) ->')
BACKEND=$(field ' on \([a-z-]*\);')
printf '  %-34s %-36s transform %8s ms   (command %s ms)\n' "forward cdf97, 3 levels" \
    "$(rel "$OUT")/sample_cdf97.npy" "$(field 'transform \([0-9.]*\) ms')" "$WALL"

# 2. The coefficient pyramid as a picture.  view, like inverse, takes the
# parameters the forward recorded in sample_cdf97.npy.json.
[ -f "$OUT/sample_cdf97.npy.json" ] || fail "forward wrote no $(rel "$OUT")/sample_cdf97.npy.json"
run view "$OUT/sample_cdf97.npy" "$OUT/sample_cdf97_view.$VIEW_EXT"
printf '  %-34s %-36s %-21s   (command %s ms)\n' "view: pyramid picture" \
    "$(rel "$OUT")/sample_cdf97_view.$VIEW_EXT" "" "$WALL"

# 3. Inverse, and the largest round-trip error against the original.
run inverse "$OUT/sample_cdf97.npy" "$OUT/sample_cdf97_back.npy"
T_INV=$(field 'transform \([0-9.]*\) ms')
W_INV=$WALL
"$CLI" inverse "$OUT/sample_cdf97.npy" "$TMP/back.raw"
"$CLI" forward "$SAMPLE" "$TMP/orig.raw" -l 0 # the original, promoted to float32
[ "$(wc -c <"$TMP/back.raw")" = "$(wc -c <"$TMP/orig.raw")" ] || fail "round trip changed the array size"
# float32 samples of both; NumPy when present, else od + awk (od prints ~8 digits).
if MAXERR=$(python3 -c 'import sys, numpy as np
a, b = (np.fromfile(f, np.float32).astype(np.float64) for f in sys.argv[1:3])
print("%.3g" % np.max(np.abs(a - b)))' "$TMP/back.raw" "$TMP/orig.raw" 2>/dev/null); then :; else
    MAXERR=$(paste <(od -An -v -w4 -tf4 "$TMP/back.raw") <(od -An -v -w4 -tf4 "$TMP/orig.raw") |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.3g", m + 0 }')
fi
printf '  %-34s %-36s transform %8s ms   (command %s ms)\n' "inverse cdf97" \
    "$(rel "$OUT")/sample_cdf97_back.npy" "$T_INV" "$W_INV"
awk -v e="$MAXERR" 'BEGIN { exit !(e < 1e-3) }' || fail "round-trip error $MAXERR is too large"

# 4. Integer CDF 5/3 (JPEG 2000 reversible), as many levels as the shape allows.
run forward "$SAMPLE" "$OUT/sample_cdf53_int.npy" -w cdf53 -l max --integer
LEVELS=$(field ', \([0-9]*\) levels*,')
printf '  %-34s %-36s transform %8s ms   (command %s ms)\n' "forward integer cdf53, $LEVELS levels" \
    "$(rel "$OUT")/sample_cdf53_int.npy" "$(field 'transform \([0-9.]*\) ms')" "$WALL"
run inverse "$OUT/sample_cdf53_int.npy" "$OUT/sample_cdf53_back.$IMG"
printf '  %-34s %-36s transform %8s ms   (command %s ms)\n' "inverse integer cdf53" \
    "$(rel "$OUT")/sample_cdf53_back.$IMG" "$(field 'transform \([0-9.]*\) ms')" "$WALL"

if cmp -s "$SAMPLE" "$OUT/sample_cdf53_back.$IMG"; then
    LOSSLESS="byte-identical to $(rel "$SAMPLE") (cmp)"
else
    # Same pixels, other encoder settings?  Compare with the original re-encoded
    # by liftwave itself (0 levels = identity).
    "$CLI" forward "$SAMPLE" "$TMP/ref.$IMG" -l 0 --integer -w haar
    cmp "$TMP/ref.$IMG" "$OUT/sample_cdf53_back.$IMG" >/dev/null ||
        fail "integer round trip is NOT lossless ($(rel "$OUT")/sample_cdf53_back.$IMG differs)"
    LOSSLESS="pixel-identical to $(rel "$SAMPLE") (cmp after re-encoding the original)"
fi

echo
echo "summary: $SHAPE on $BACKEND"
echo "  cdf97 3 levels: max round-trip error $MAXERR (float32)"
echo "  cdf53 integer $LEVELS levels: lossless, $LOSSLESS"
echo "  pyramid picture: $(rel "$OUT")/sample_cdf97_view.$VIEW_EXT"
echo "  parameters recorded by each forward: $(rel "$OUT")/sample_cdf97.npy.json (inverse and view use them)"
echo "  (one-shot timings of single commands; $([ "$BACKEND" = cuda ] && echo "on cuda they include device start-up; ")'liftwave bench' measures speed)"
