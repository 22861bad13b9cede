#!/bin/sh
# Standard CPU benchmark set for liftwave (docs/METHOD.md).
#
#   bench/run_cpu_bench.sh [extra liftwave bench options, e.g. --threads 8 --repeat 20]
#
# Runs, on the cpu backend (host config, memcpy bound):
#   cdf97, cdf53, haar   2-D 4096x4096 float32, 1 and 5 levels
#   cdf97                3-D 256x256x256 float32, 1 level
# and writes bench/results/cpu-<host>-<UTC date>.json.
#
# Result file format: ONE JSON ARRAY (json.load() reads it whole).  Each
# element is a `liftwave bench --json` record (wavelet, levels, shape, dtype,
# mode, backend, scheme, direction, config, median_s, gsamples_per_s,
# ps_per_sample, effective_gbps, bound, bound_gbps, fraction_of_bound, threads,
# device, commit, date, verified) with one key added in front: "command", the
# bench command line that produced it.
#
# The liftwave binary: $LIFTWAVE, else build/liftwave under the repository.
set -eu

root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
exe=${LIFTWAVE:-$root/build/liftwave}
if [ ! -x "$exe" ]; then
    echo "run_cpu_bench.sh: liftwave binary not found at $exe (build it, or set LIFTWAVE)" >&2
    exit 1
fi

host=$(uname -n | cut -d. -f1)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
outdir=$root/bench/results
out=$outdir/cpu-$host-$stamp.json
mkdir -p "$outdir"
tmp=$(mktemp "$outdir/.cpu-bench.XXXXXX")
trap 'rm -f "$tmp" "$tmp.lines" "$tmp.part"' EXIT INT TERM

: > "$tmp.lines"
run() {
    # "$@": the bench options; extra options from the command line follow them.
    cmd="liftwave bench $* --json"
    echo "== $cmd" >&2
    "$exe" bench "$@" --json > "$tmp.part" || { rc=$?; rm -f "$tmp.part"; exit "$rc"; }
    # Add the command line in front of each record (options hold no quotes).
    sed "s|^{|{\"command\": \"$cmd\", |" "$tmp.part" >> "$tmp.lines"
    rm -f "$tmp.part"
}

run --backend cpu --wavelet cdf97,cdf53,haar --shape 4096x4096 --levels 1,5 --dtype float32 "$@"
run --backend cpu --wavelet cdf97 --shape 256x256x256 --levels 1 --dtype float32 "$@"

# JSON lines -> one JSON array.
{
    echo "["
    sed '$!s/$/,/' "$tmp.lines" | sed 's/^/  /'
    echo "]"
} > "$tmp"
chmod 644 "$tmp"
mv "$tmp" "$out"
echo "wrote $out ($(wc -l < "$tmp.lines") records)" >&2
