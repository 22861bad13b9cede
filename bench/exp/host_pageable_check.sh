#!/usr/bin/env bash
# One device call (GPU machine, repo root; the package in $1 with bench/exp/hostcopy.c built beside it as
# $1/hostcopy: gcc -O3 -mavx2 -pthread -I$CUDA/include bench/exp/hostcopy.c -o hostcopy -L$CUDA/lib64
# -lcudart_static -ldl -lrt): what this host's memory can do for pageable transfers (hostcopy: the PCIe
# bound, memcpy by threads, beside DMA, cudaHostRegister's cost, the chunk pipeline), then the matrix's
# host-memory cells staged and registered, so that the pageable cells' fractions can be read against the
# host's own limit measured in the same call.
# Last, the 3-D host cells with the fused 3-D engine's auto against tile3d_defaults=wide, two rounds.
#   bash bench/exp/host_pageable_check.sh .ab6      -> $OUT/hostcopy.txt, host-*.json, host-3d-arms.json, host.txt
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab6}")"
t0=$(date +%s)
H=$OUT/host.txt
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc; free -g | head -2
  cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; } > "$H"
timeout 150 "${1:-.ab6}/hostcopy" > "$OUT/hostcopy.txt" 2>&1; echo "hostcopy rc=$? [$(( $(date +%s) - t0 ))s]" >> "$H"
for arm in stage register; do
  timeout 150 liftwave bench --backend cuda --matrix --json --matrix-only 'host-*' --tune pageable=$arm \
    > "$OUT/host-$arm.json" 2> "$OUT/host-$arm.err"
  echo "host cells, pageable=$arm: rc=$? [$(( $(date +%s) - t0 ))s]" >> "$H"
  grep "^# " "$OUT/host-$arm.err" >> "$H"
done
rm -f "$OUT"/host-*.err
# the 3-D host cells under the fused 3-D engine's two rankings (session 59: host-3d-l1 pinned forward
# 12.5 -> 14.0 ms with tile3d_defaults=narrow's first run, another host; NOTES-matrix.md)
ARMS="@ @tile3d_defaults=wide" CELLS='host-3d-*' ROUNDS=2 REPEAT=10 OUT=$OUT/t3 BUDGET=150 \
  bash bench/exp/arms_matrix.sh >> "$H" 2>&1
mv "$OUT/t3/arms.json" "$OUT/host-3d-arms.json" 2>/dev/null; rm -rf "$OUT/t3"
cat "$H"
