#!/usr/bin/env bash
# One device call (GPU machine, repo root; the package in $1 with bench/exp/hostcopy.c built beside it as
# $1/hostcopy: gcc -O3 -mavx2 -pthread -I$CUDA/include bench/exp/hostcopy.c -o hostcopy -L$CUDA/lib64
# -lcudart_static -ldl -lrt): what this host's memory can do for pageable transfers (hostcopy: the PCIe
# bound, memcpy by threads, beside DMA, cudaHostRegister's cost, the chunk pipeline), then the matrix's
# host-memory cells staged and registered, so that the pageable cells' fractions can be read against the
# host's own limit measured in the same call.
#   bash bench/exp/host_pageable_check.sh .ab4      -> $OUT/hostcopy.txt, host-*.json, host.txt
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab4}")"
t0=$(date +%s)
H=$OUT/host.txt
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; free -g | head -2
  cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; } > "$H"
timeout 150 "${1:-.ab4}/hostcopy" > "$OUT/hostcopy.txt" 2>&1; echo "hostcopy rc=$? [$(( $(date +%s) - t0 ))s]" >> "$H"
for arm in stage register; do
  timeout 150 liftwave bench --backend cuda --matrix --json --matrix-only 'host-*' --tune pageable=$arm \
    > "$OUT/host-$arm.json" 2> "$OUT/host-$arm.err"
  echo "host cells, pageable=$arm: rc=$? [$(( $(date +%s) - t0 ))s]" >> "$H"
  grep "^# " "$OUT/host-$arm.err" >> "$H"
done
rm -f "$OUT"/host-*.err
cat "$H"
