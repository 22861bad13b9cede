#!/bin/sh
# Timing matrix of the cpu backend (used for bench/NOTES-cpu.md):
#   tests/cpu/perf_matrix.sh BUILD_DIR [max threads]
set -eu
B=${1:-build}
T=${2:-$(nproc)}
P=$B/tests/cpu/perf_cpu
lscpu | grep -E "Model name|^CPU\(s\)|L1d|L2|L3" || true
th=1
while [ "$th" -le "$T" ]; do
    OMP_NUM_THREADS=$th $P -s 8192x8192 -w cdf97 -m periodic -r 9
    th=$((th * 2))
done
for th in 1 $T; do
    export OMP_NUM_THREADS=$th
    $P -s 8192x8192 -w cdf97 -m periodic -i -r 9
    $P -s 8192x8192 -w cdf97 -m symmetric -r 9
    $P -s 8192x8192 -w cdf97 -m symmetric -l 5 -r 9
    $P -s 8192x8192 -w cdf53 -m symmetric -t int32 -r 9
    $P -s 8192x8192 -w cdf53 -m symmetric -r 9
    $P -s 8192x8192 -w haar -m symmetric -r 9
    $P -s 8192x8192 -w dd137 -m symmetric -r 9
    $P -s 8192x8192 -w d4 -m periodic -r 9
    $P -s 8192x4096 -w cdf97 -m symmetric -t float64 -r 9
    $P -s 256x256x256 -w cdf97 -m symmetric -r 9
    $P -s 67108864 -w cdf97 -m symmetric -r 9
done
for s in scalar sse2 avx2 avx512; do
    LW_CPU_SIMD=$s OMP_NUM_THREADS=1 $P -s 8192x8192 -w cdf97 -m periodic -r 7
done
