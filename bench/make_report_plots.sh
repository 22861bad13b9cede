#!/bin/sh
# Regenerates the report's figures and table from committed records:
#
#   bench/make_report_plots.sh [RESULTS.json ...]
#
# Runs bench/plot_schemes.py over the results files (default: every
# bench/results/*schemes*.json and bench/results/*-fs-*.json, the GPU-scheme
# records of issue 4) and writes, replacing what was there:
#   bench/plots/W-F-gsamples.png   throughput (Gsamples/s) against size, per
#   bench/plots/W-F-frac.png       wavelet W and family F (sep, block, engines),
#                                  and the fraction of the copy bandwidth
#   bench/plots/schemes.md         ps/pixel and fraction of copy at 1 and 10
#                                  Mpixel per wavelet and scheme (markdown)
#   bench/plots/SOURCES            the input files and their sha256
# Needs python3 with matplotlib (pip install matplotlib).  $PYTHON overrides
# the interpreter.  Exit status: plot_schemes.py's (0 ok, 1 no matplotlib,
# 2 no usable records).
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
py=${PYTHON:-python3}
out=$root/bench/plots

if [ "$#" -eq 0 ]; then
    set --
    for f in "$root"/bench/results/*schemes*.json "$root"/bench/results/*-fs-*.json; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
fi
if [ "$#" -eq 0 ]; then
    echo "make_report_plots.sh: no results files (bench/results/*schemes*.json, *-fs-*.json)" >&2
    exit 2
fi

mkdir -p "$out"
rm -f "$out"/*.png "$out"/schemes.md "$out"/SOURCES
"$py" "$root/bench/plot_schemes.py" --out "$out" --table "$out/schemes.md" "$@" >/dev/null
for f in "$@"; do
    sum=$(sha256sum "$f" | cut -d' ' -f1)
    case $f in "$root"/*) f=${f#"$root"/} ;; esac
    echo "$sum  $f"
done >"$out/SOURCES"
echo "make_report_plots.sh: $(ls "$out"/*.png | wc -l) plots, table and SOURCES in ${out#"$root"/}/" >&2
