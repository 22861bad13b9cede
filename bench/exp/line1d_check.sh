#!/usr/bin/env bash
# One device call (GPU machine, repo root) for the long-line engine (cuda engine "line1d", k_line1d.cu):
#   bash bench/exp/line1d_check.sh DIR ['tests san bench']   [STOP=480: no bench arm starts later]
# DIR: a package (tests/gpu/prebuilt.sh pack) of this build's liftwave, test_gpu_line1d and test_gpu_inplace.
# suite: test_gpu (random mix, 1-D up to 40000 samples), test_host_memory, test_gpu_ooc (a package of their own).
# staged: 2^24 five levels out of place, cdf97 / d4 / cdf53, both layouts (levels 2 staged in the scratch).
# ab: a fixed out-of-place set (1-D 10^6 + 3 and 2^24, 64 x 100000 rows; cdf97, d4; both layouts; 1 and 5 levels)
# into ab-set-$TAG.json, for two builds' packages run one after the other on one warm machine.
# rounds: in place, levels the device cannot hold in rounds: memcheck and racecheck of the rounds (forced on short lines
# by tuning line1d_hold), then 2^24, 2^25, an odd length whose half 8192 divides, one whose half no pair size divides
# (16787216: walked, or with exp/wip/line1d-short-pairs.patch a short last pair rotated) and 2 x 2^23, one and five levels,
# cdf97 / haar / d4, both layouts, auto against inplace=lean (the generic walk) and out of place, in one table.
# half: test_gpu_half (a package of its own).
# matrix: 1-D 10^6 + 3 and 2^24 samples, every separable wavelet, float32 / float64 / bfloat16, both layouts, 1 and 5
# levels, both directions, out of place (and 10^6 + 3 in place): floor and median of the fraction of the copy.
# peers: bench/peers_1d.py (ptwt on the GPU, PyWavelets on the CPU: their wheels unpacked, PyWavelets without its
# sample data, in DIR/peers-py.tar.xz; pip download ptwt PyWavelets --no-deps, cp312).
# tests: test_gpu_line1d (every separable wavelet, type, mode, layout, direction; in place and not) and
# test_gpu_inplace's walk sweep (the generic path's walk, now by scheme generic on 1-D lines).
# san: test_gpu_line1d's quick set under memcheck; racecheck of held levels (the CLI in place, 3 levels).
# bench (last): 1-D float32 signals and a batch of long rows, cdf97 / haar / d4 / cdf53, one level and five,
# Mallat, forward and inverse, out of place and in place (arms ipauto, ipgeneric), arm auto (line1d) against arm generic (--scheme
# generic: the route before this engine) -> $OUT/ab-records.tgz, the table in $OUT/summary.txt
set -u
T00=$(date +%s)
ST=" ${2:-tests san bench} "
eval "$(bash tests/gpu/prebuilt.sh unpack "${1:?usage: line1d_check.sh DIR [STAGES]}")"
S=$OUT/summary.txt T_GREP='checks passed|ERROR SUMMARY|RACECHECK SUMMARY|FAIL|line1d cases|cases run' T_LINES=3
. bench/exp/device_stage.sh
say "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit $LW_COMMIT, $(date -u +%FT%TZ)"
if has tests; then
  t line1d 400 test_gpu_line1d
  grep -E '^time:' "$OUT/line1d.log" | tee -a "$S"
  if command -v test_gpu_inplace >/dev/null; then t walk 300 env LW_GPU_ONLY=walk test_gpu_inplace; fi
fi
if has suite; then # a package of test_gpu, test_host_memory and test_gpu_ooc: the suites the engine joins
  t test_gpu 180 env LW_GPU_BIG=0 test_gpu
  t hostmem 180 test_host_memory
  t ooc 150 test_gpu_ooc
  for n in test_gpu hostmem ooc; do grep -E 'engine line1d' "$OUT/$n.log" | sed "s/^/  $n: /" | tee -a "$S"; done
fi
if has half; then # a package of test_gpu_half: its long lines by this engine and by the generic path
  t half 400 test_gpu_half
fi
if has peers; then
  rm -rf /tmp/lw-peers && mkdir -p /tmp/lw-peers && tar -C /tmp/lw-peers -xJf "$1"/peers-py.tar.xz
  t peers 400 env PYTHONPATH=/tmp/lw-peers python3 bench/peers_1d.py --cli "$(command -v liftwave)" --out "$OUT/peers.json"
  grep -E '^ *[0-9]|speedup|samples' "$OUT/peers.log" | tee -a "$S"
fi
if has san; then
  if command -v test_gpu_line1d >/dev/null; then # a package of the test
    t memcheck 300 env LW_GPU_QUICK=1 LW_GPU_ORACLE=cpu "$CS" --tool memcheck --error-exitcode 3 test_gpu_line1d
  fi
  if command -v liftwave >/dev/null; then # a package of the CLI
    t racecheck 200 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 \
      --inplace --layout mallat,interleaved -w cdf97,d4 --direction forward,inverse --shape 100003 -l 3
    verified racecheck
  fi
fi
B() { # arm round seconds args...
    local a=$1 r=$2 s=$3 sch=; shift 3
    case $a in *generic) sch="--scheme generic" ;; esac
    # shellcheck disable=SC2086
    timeout "$s" liftwave bench $sch --backend cuda --config G2G --layout mallat --direction forward,inverse \
      --repeat 10 --json "$@" >>"$OUT/ab-$a-$r.json" 2>>"$OUT/ab-$a-$r.err"
    say "bench $a $r $*: rc=$?"
}
if has bench; then
  for a in auto generic; do
    for ip in "" --inplace; do
      [ $(( $(date +%s) - T00 )) -gt "${STOP:-480}" ] && break 2
      arm=${ip:+ip}$a
      B $arm 1 120 $ip -w cdf97,haar,d4,cdf53 --shape 100003,1000003,4000000,16777216
      B $arm 1 60 $ip -w cdf97 --shape 33554432
      B $arm 1 60 $ip -w cdf97 --shape 64x100000 --axes 1
      B $arm 1 60 $ip -w cdf97,haar --shape 1000003,16777216 -l 5
    done
  done
  say "out of place:"; python3 bench/exp/set_table.py "$OUT" auto generic | tee -a "$S"
  say "in place:"; python3 bench/exp/set_table.py "$OUT" ipauto ipgeneric | tee -a "$S"
  python3 - "$OUT" <<'EOF' | tee -a "$S"
import glob, json, sys
for arm in ("auto", "ipauto"):
    fr = sorted(json.loads(l)["fraction_of_bound"] for f in glob.glob("%s/ab-%s-*.json" % (sys.argv[1], arm))
                for l in open(f) if l.startswith("{") and "fraction_of_bound" in l)
    if fr:
        print("%s: %d records, fraction of the device copy: floor %.3f, median %.3f" % (arm, len(fr), fr[0], fr[len(fr) // 2]))
EOF
fi
if has rounds && [ -z "${NOSAN:-}" ]; then # the rounds under the sanitizers (NOSAN=1: not, e.g. an older build's)
  t rmemcheck 300 "$CS" --tool memcheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 --inplace \
    --layout mallat,interleaved -w cdf97,d4 --direction forward,inverse --shape 65536,40000,40008 -l 3 --mode symmetric,periodic \
    --tune line1d_hold=17000
  verified rmemcheck
  t rracecheck 300 "$CS" --tool racecheck --error-exitcode 3 liftwave bench --backend cuda --config G2G --repeat 1 --inplace \
    --layout mallat,interleaved -w cdf97,d4 --direction forward,inverse --shape 65536,40002 -l 3 --tune line1d_hold=17000
  verified rracecheck
fi
if has rounds; then # in place, levels the device cannot hold: rounds (auto) against the generic walk (inplace=lean)
  for arm in rounds oop lean; do
    ip=--inplace; [ $arm = oop ] && ip=
    tu=; [ $arm = lean ] && tu="--tune inplace=lean"
    for sh in "16777216,33554432,16793599,16787216" "2x8388608 --axes 1"; do
      [ $(( $(date +%s) - T00 )) -gt "${STOP:-480}" ] && break 2
      [ $arm = lean ] && [ "${sh%%,*}" = 16777216 ] && sh=16777216,16787216 # the walk: a length a pair size divides, one none does
      # shellcheck disable=SC2086
      timeout 150 liftwave bench --backend cuda --config G2G -w cdf97,haar,d4 --layout mallat,interleaved \
        --direction forward,inverse --shape $sh -l 1,5 --repeat 10 $ip $tu --json >>"$OUT/ab-$arm-1.json" 2>>"$OUT/ab-$arm-1.err"
      say "rounds arm $arm $sh: rc=$?"
    done
  done
  python3 - "$OUT" <<'EOF3' | tee -a "$S"
import json, sys
import os
def load(a): # an arm that STOP cut before it ran: no records
    d, f = {}, "%s/ab-%s-1.json" % (sys.argv[1], a)
    for l in open(f) if os.path.exists(f) else []:
        if l.startswith("{"):
            r = json.loads(l)
            d[(r["wavelet"], r["layout"], "x".join(map(str, r["shape"])), r["levels"], r["direction"])] = r
    return d
R, G, O = load("rounds"), load("lean"), load("oop")
print("%-6s %-11s %-16s %2s %-8s %9s %9s %9s %6s %6s %5s %s" % ("wave", "layout", "shape", "L", "dir", "rounds", "lean",
      "oop us", "xlean", "/oop", "frac", "verified"))
for k in sorted(R):
    r, g, o = R[k], G.get(k), O.get(k)
    print("%-6s %-11s %-16s %2d %-8s %9.1f %9s %9s %6s %6s %5.3f %s %s" % (k + (r["median_s"] * 1e6,
          "%.1f" % (g["median_s"] * 1e6) if g else "-", "%.1f" % (o["median_s"] * 1e6) if o else "-",
          "%.2f" % (g["median_s"] / r["median_s"]) if g else "-", "%.2f" % (r["median_s"] / o["median_s"]) if o else "-",
          r["fraction_of_bound"], r["verified"], r.get("extra_device_bytes", ""))))
EOF3
fi
if has ab; then # a fixed set for builds compared on one machine (TAG names the build): out of place, both layouts
  for sh in "1000003,16777216" "64x100000 --axes 1"; do
    # shellcheck disable=SC2086
    timeout 120 liftwave bench --backend cuda --config G2G -w cdf97,d4 --layout mallat,interleaved -l 1,5 \
      --direction forward,inverse --shape $sh --repeat 20 --json >>"$OUT/ab-set-${TAG:-new}.json" 2>>"$OUT/ab-set-${TAG:-new}.err"
    say "ab set ${TAG:-new} $sh: rc=$?"
  done
  python3 -c "import json,sys
for l in open(sys.argv[1]):
    if l.startswith('{'):
        r=json.loads(l); print('%-6s %-11s %-10s L%d %-8s %8.1f us  %.3f  %s'%(r['wavelet'],r['layout'],'x'.join(map(str,r['shape'])),r['levels'],r['direction'],r['median_s']*1e6,r['fraction_of_bound'],r['verified']))" "$OUT/ab-set-${TAG:-new}.json" | tee -a "$S"
fi
if has staged; then # 2^24 five levels out of place, both layouts (levels 2 staged)
  timeout 120 liftwave bench --backend cuda --config G2G -w cdf97,d4,cdf53 --layout mallat,interleaved -l 5 \
    --direction forward,inverse --shape 16777216 --repeat 10 --json >"$OUT/staged.json" 2>"$OUT/staged.err"
  say "staged: rc=$?"
  python3 -c "import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l); print('%-6s %-11s %-8s %8.1f us  %.3f of the copy  verified %s  %s'%(r['wavelet'],r['layout'],r['direction'],r['median_s']*1e6,r['fraction_of_bound'],r['verified'],r['engine']))" "$OUT/staged.json" | tee -a "$S"
fi
if has matrix; then # every separable wavelet x float32 / float64 / bfloat16 x both layouts x 1 and 5 levels
  for ip in "" --inplace; do
    shp=1000003,16777216; [ -n "$ip" ] && shp=1000003
    timeout 300 liftwave bench --backend cuda --config G2G -w haar,cdf53,cdf97,dd137,d4,dd97 --dtype float32,float64,bfloat16 \
      --layout mallat,interleaved -l 1,5 --direction forward,inverse --shape $shp --repeat 10 --json $ip \
      >>"$OUT/ab-matrix${ip:+-ip}-1.json" 2>>"$OUT/ab-matrix${ip:+-ip}-1.err"
    say "matrix ${ip:-out of place}: rc=$?"
  done
  python3 - "$OUT" <<'EOF2' | tee -a "$S"
import glob, json, sys
for arm in ("matrix", "matrix-ip"):
    rs = [json.loads(l) for f in glob.glob("%s/ab-%s-*.json" % (sys.argv[1], arm)) for l in open(f) if l.startswith("{")]
    if not rs:
        continue
    fr = sorted((r["fraction_of_bound"], r["wavelet"], r["dtype"], r["layout"], r["levels"], r["shape"][0], r["direction"],
                 r["engine"]) for r in rs)
    print("%s: %d records, %d verified, fraction of the device copy: floor %.3f (%s), median %.3f; engines %s" % (
        arm, len(rs), sum(bool(r["verified"]) for r in rs), fr[0][0], " ".join(map(str, fr[0][1:])), fr[len(fr) // 2][0],
        sorted(set(r["engine"] for r in rs))))
    for n in sorted(set(r["shape"][0] for r in rs)):
        f = sorted(x[0] for x in fr if x[5] == n)
        print("  %d samples: %d records, floor %.3f, median %.3f" % (n, len(f), f[0], f[len(f) // 2]))
EOF2
fi
# the device tool brings back a few files a call: the records in one archive
if ls "$OUT"/ab-*.json >/dev/null 2>&1; then
  tar -C "$OUT" -czf "$OUT/ab-records.tgz" $(cd "$OUT" && ls ab-*.json ab-*.err) && rm -f "$OUT"/ab-*.json "$OUT"/ab-*.err
fi
say "# done in $(( $(date +%s) - T00 ))s"
