#!/usr/bin/env bash
# Writes .ab/base.tar.gz: the tree at REV (default HEAD) with every 3-D unit
# reading and writing only 4 planes of its own strip, so its input and output
# stay in L1/L2 (results wrong; timing only).  Run it, then
#   AB_TEST= AB_VARIANTS="new base" bash bench/exp/cpu3d_ab.sh
# on the device (carry .ab): "base" is the transform's compute time alone.
set -eu
REV=${1:-HEAD}
T=$(mktemp -d)
git archive "$REV" | tar x -C "$T"
python3 - "$T/src/cpu/fast_vol.c" <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
for a, b in [
    ("const char *sp = src + (size_t)(u * lv->ss[0]) * es;",
     "const char *sp = src + (size_t)((o0 + (u & 3)) * lv->ss[0]) * es;"),
    ("char *dplane = dst + (size_t)(p0 * lv->ds[0]) * es;",
     "char *dplane = dst + (size_t)((o0 + (p0 & 3)) * lv->ds[0]) * es;"),
    ("const char *nxt = un >= 0 ? src + (size_t)(un * lv->ss[0]) * es : NULL;",
     "const char *nxt = un >= 0 ? src + (size_t)((o0 + (un & 3)) * lv->ss[0]) * es : NULL;")]:
    assert a in s, a
    s = s.replace(a, b)
open(p, "w").write(s)
PY
mkdir -p .ab
tar czf .ab/base.tar.gz -C "$T" .
rm -rf "$T"
echo ".ab/base.tar.gz: compute-only tree of $REV"
