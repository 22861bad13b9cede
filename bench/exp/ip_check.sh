#!/usr/bin/env bash
# One device call (GPU machine, repo root, the package in $1, default .ab3: a build with exp/wip/tile-ip-check.patch
# and LW_IP_CHECK defined, see exp/wip/README.md): test_gpu_inplace's wide
# batches and ring sweeps with the in-place tile kernel's test build (LW_IP_CHECK: a window sample read
# from the array after its owner stored, a stash slot read whose stamp is not its owner's, a slot read
# below the wait range: each printed as "ipcheck A/B/C"), plain and under racecheck.  -> $OUT/ipcheck.txt
set -u
# LW_IPCHECK_BIN: the check build's program name (default test_gpu_inplace: a package of the check build);
# LW_IPCHECK_PLAIN_ONLY=1: the plain wide-batch and ring sweep only; a package already unpacked ($LW set) is used as is
[ -n "${LW:-}" ] || eval "$(bash tests/gpu/prebuilt.sh unpack "${1:-.ab3}")"
B=${LW_IPCHECK_BIN:-test_gpu_inplace}
t0=$(date +%s)
O=$OUT/ipcheck.txt
run() { # $1 title, rest: command
  local title=$1; shift
  "$@" > /tmp/l.log 2>&1; echo "rc=$?" >> /tmp/l.log
  { echo "== $title [$(( $(date +%s) - t0 ))s]"; grep "ipcheck" /tmp/l.log | sort | uniq -c | sort -rn | head -30
    grep -c "ipcheck" /tmp/l.log; grep -A2 "^FAIL" /tmp/l.log | head -16; grep "checks\|hazard\|rc=" /tmp/l.log | tail -3; } >> $O
}
if [ -z "${LW_IPCHECK_PLAIN_ONLY:-}" ]; then
  LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring run "racecheck quick=2" timeout 60 compute-sanitizer --tool racecheck --print-limit 3 $B
  LW_GPU_QUICK=2 LW_GPU_ONLY=wide_batch,ring run "plain quick=2" timeout 20 $B
fi
LW_GPU_ONLY=wide_batch,ring run "plain wide_batch,ring ($B)" timeout 45 $B
cat $O
