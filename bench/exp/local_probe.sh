#!/usr/bin/env bash
# Why some float32 one-level cases of the cuda local engine swing between runs (bench/NOTES-local.md,
# "What was not predicted"): Nsight Compute on one lc_kernel launch of each case, with the
# thread block wide (16-byte vectors at a 32-byte stride a thread), narrow (a warp's accesses
# contiguous) and strided (the wide block's 16-byte chunks 32 apart: a warp's vectors
# contiguous), against the controls that run at the copy (Mallat forward, bfloat16).  Counters:
# DRAM bytes read / written (extra reads would be read-modify-writes of partial sectors), L2
# sectors read / written, global store requests and sectors at L1 (sectors per request: how
# scattered one warp's store is), duration.  Then the same cases timed by the bench, in place as
# well (in == out: reads and writes at one address instead of a fixed offset between two arrays).
#   LW=path/to/liftwave (default build-dev/liftwave)   OUT=dir (local-probe.txt, local-probe.json)
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/local-probe-out}
LW=${LW:-$ROOT/build-dev/liftwave}
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
mkdir -p "$OUT"
T=$OUT/local-probe.txt J=$OUT/local-probe.json
: >"$T"; : >"$J"
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,gpu__time_duration.sum
# case: dtype layout direction block
CASES=${LW_PROBE_CASES:-"float32:mallat:inverse:wide float32:mallat:inverse:narrow float32:mallat:inverse:strided
  float32:interleaved:forward:wide float32:interleaved:forward:narrow float32:interleaved:forward:strided
  float32:interleaved:inverse:wide float32:mallat:forward:wide bfloat16:interleaved:forward:wide bfloat16:mallat:inverse:wide"}
for c in $CASES; do
  IFS=: read -r dt lay dir blk <<<"$c"
  args="bench --backend cuda --config G2G -w haar --scheme local --shape 16384x16384 --levels 1 --dtype $dt --layout $lay --direction $dir --tune local_block=$blk"
  if [ -n "$NCU" ]; then
    timeout 120 "$NCU" --clock-control none -k regex:lc_kernel --launch-skip 3 --launch-count 1 --metrics "$M" --csv \
      --page raw --print-units base "$LW" $args --repeat 2 >/tmp/lw-probe.csv 2>/tmp/lw-probe.err
    python3 - "$c" /tmp/lw-probe.csv <<'PY' | tee -a "$T"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[2])) if r]
hi = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
if hi is None or len(rows) < hi + 3:
    print("%-40s no report" % sys.argv[1]); sys.exit(0)
m = dict(zip(rows[hi], rows[hi + 2]))
f = lambda k: float(m.get(k, "nan").replace(",", ""))
rq, sc = f("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), f("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")
print("%-40s %8.3f ms  DRAM read %6.3f GiB write %6.3f GiB  L2 sectors read %.3g write %.3g  st sectors/request %.2f"
      % (sys.argv[1], f("gpu__time_duration.sum") / 1e6, f("dram__bytes_read.sum") / 2**30, f("dram__bytes_write.sum") / 2**30,
         f("lts__t_sectors_op_read.sum"), f("lts__t_sectors_op_write.sum"), sc / rq if rq else float("nan")))
PY
  fi
  "$LW" $args --inplace=both --repeat 10 --json >>"$J" 2>>"$OUT/local-probe.err" || echo "failed: $c" >>"$OUT/local-probe.err"
done
python3 - "$J" <<'PY' | tee -a "$T"
import json, sys
for l in open(sys.argv[1]):
    if not l.startswith("{"): continue
    r = json.loads(l)
    print("%-9s %-11s %-8s %-20s %-4s %8.4f ms  %.3f of the copy  %s" % (r["dtype"], r["layout"], r["direction"], r.get("tuning") or "",
          "IN" if r.get("inplace") else "oop", r["median_s"] * 1e3, r["fraction_of_bound"], "verified" if r["verified"] else "NOT VERIFIED"))
PY
