#!/usr/bin/env bash
# One device step (GPU machine, repo root, a package with the CLI in $1): where the bfloat16 tile2d level 1
# spends its time (issue 19: the bfloat16 bior4.4 J=3 step at 0.547 of the copy, level 1 at about 0.80 of
# it, bench/NOTES-torch.md), against float32 on the same planes.  Nsight Compute on the first tile kernel
# of 192 x 512 x 512 (axes 1,2) cdf97 periodic one level, forward and forward-adjoint, bfloat16 and float32:
# duration, memory throughput, occupancy, warp stalls, instructions.
#   bash bench/exp/bf16_ncu.sh .abNN     -> $OUT/bf16-ncu.txt (its key lines also on stdout)
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:?usage: bf16_ncu.sh DIR}")"
R=$OUT/bf16-ncu.txt
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)" > "$R"
for t in bfloat16 float32; do
  for d in forward forward-adjoint; do
    A="bench --backend cuda --config G2G --repeat 1 -w cdf97 -m periodic --dtype $t --shape 192x512x512 --axes 1,2 -l 1 --direction $d"
    echo "## ncu -k regex:^tile -c 1, liftwave $A" >> "$R"
    timeout 120 ncu --clock-control none -k regex:^tile -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats \
      liftwave $A 2>&1 | grep -v '^==PROF==' | sed -n '/tile/,$p' >> "$R"
  done
done
grep -E '^## |^  tile|Duration|Memory Throughput|DRAM Throughput|Registers Per|Achieved Occupancy|Waves Per SM|No Eligible|Executed Ipc A|Stall|L1/TEX Hit|L2 Hit|Executed Instructions  ' "$R"
