#!/usr/bin/env bash
# The cpu backend in place against out of place (bench/NOTES-cpu-inplace.md): 2-D one level and
# pyramids, a batch, 1-D lines, both layouts and directions, four wavelets; one JSON record per
# case and direction (in place and out of place), the ratio lines on stderr.
# Usage: bench/cpu_inplace.sh [CLI [OUT_PREFIX]]   (CLI: build/liftwave)
set -euo pipefail
cli=${1:-build/liftwave}
out=${2:-/tmp/cpu-inplace}
run() { "$cli" bench -b cpu --inplace=both --direction forward,inverse --layout mallat,interleaved --json "$@"; }
{
    run --shape 4096x4096,8192x8192 -w cdf97,haar,dd137,d4 -l 1,5
    run --shape 16x1024x1024 --axes 1,2 -w cdf97,haar -l 1,3
    run --shape 16777216 -w cdf97,haar -l 1,5
} >"$out.json" 2>"$out.log"
grep '^#   ' "$out.log" | sed 's/ on cpu\/host//' >"$out-summary.txt"
echo "$(grep -c . "$out.json") records, $(grep -c . "$out-summary.txt") pairs: $out.json, $out-summary.txt"
