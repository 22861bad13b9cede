#!/usr/bin/env bash
# One device step (GPU machine, repo root, a package in $1): Nsight Compute on the strip walker of main's
# CLI, one launch of 16384^2 cdf97 float32 interleaved in place forward: the summary sections, then the
# source counters' SASS page, whose stall samples bench/exp/ncu_stalls.py sums per phase and line (which
# lines of the vertical phase hold the long-scoreboard samples: bench/NOTES-walker-plain.md).  -k walk2d
# matches the kernel's base name exactly: a regex also took the stash kernel walk2d_stash (6.6 us) first.
#   bash bench/exp/walker_ncu_src.sh .ab6   -> $OUT/walker-ncu.txt, $OUT/walker-src.csv.gz
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab6}")"
A="bench --backend cuda --config G2G --repeat 1 --layout interleaved --inplace -w cdf97 --shape 16384x16384 -l 1 --direction forward"
{ echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)"
  echo "# ncu --clock-control none -k walk2d -c 1 (sections below) liftwave $A"
  timeout 120 ncu --clock-control none -k walk2d -c 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section InstructionStats \
    liftwave $A 2>&1 | grep -v "^==PROF==" | sed -n '/walk2d/,$p'
} > "$OUT/walker-ncu.txt" 2>&1
timeout 150 ncu --clock-control none -k walk2d -c 1 --section SourceCounters -o /tmp/wsrc -f liftwave $A > /dev/null 2>&1
ncu -i /tmp/wsrc.ncu-rep --page source --print-source sass --csv 2>/dev/null | gzip > "$OUT/walker-src.csv.gz"
python3 bench/exp/ncu_stalls.py "$OUT/walker-src.csv.gz" --top 12 --reasons long_sb,barrier,wait,short_sb >> "$OUT/walker-ncu.txt" 2>&1
grep -E "Duration|DRAM Throughput|No Eligible|Warp Cycles Per Issued|Achieved Occupancy|Executed Instructions|L2 Hit|L1/TEX Hit|Mem Busy" "$OUT/walker-ncu.txt" | head -12
