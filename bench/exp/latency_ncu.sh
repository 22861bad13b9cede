#!/usr/bin/env bash
# One device step (GPU machine, repo root, a package in $1): where the 1080p latency cells' time goes
# (issue 16's 12 us target; 15.2 / 16.6 us on the H100 at 35c3983, bench/NOTES-matrix.md): Nsight Compute
# on the one kernel of 2-D cdf97 one level 1080x1920 float32 (symmetric), forward and inverse: its
# duration, waves, occupancy, the SMs' active cycles against the elapsed ones (the ramp and the tail),
# and the stall reasons; then the matrix's two latency cells again beside it, so that kernel time and
# cell time come from the same machine.
#   bash bench/exp/latency_ncu.sh .ab12     -> $OUT/latency-ncu.txt, $OUT/latency-cells.json
set -u
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab12}")"
R=$OUT/latency-ncu.txt
echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)" > "$R"
for d in forward inverse; do
  A="bench --backend cuda --config G2G --repeat 1 -w cdf97 --shape 1080x1920 -l 1 --direction $d"
  echo "## ncu --clock-control none -k regex:^tile -c 1, liftwave $A" >> "$R"
  timeout 90 ncu --clock-control none -k regex:^tile -c 1 --section SpeedOfLight --section LaunchStats \
    --section Occupancy --section WarpStateStats --section SchedulerStats \
    --metrics sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.avg,gpu__time_duration.sum \
    liftwave $A 2>&1 | grep -v '^==PROF==' | sed -n '/tile/,$p' >> "$R"
done
timeout 60 liftwave bench --backend cuda --matrix --json --matrix-only 'latency-*' > "$OUT/latency-cells.json" 2>> "$R"
grep -E '^## |Duration|Waves Per SM|Achieved Occupancy|sm__cycles|No Eligible|Grid Size|Block Size|missed|latency' "$R"
