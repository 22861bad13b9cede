#!/usr/bin/env bash
# One command for the GPU machine: build (sm_90), test the CUDA backend against
# the CPU reference, run a subset under compute-sanitizer (memcheck, racecheck),
# run the benchmark set; logs and JSON under $OUT (default ./gpu-out); a short
# summary last.
#   LW_STAGES="build unit test sanitize schemes bench"   stages to run (default all; also "profile", "ncu",
#                                            "python", "cpubench", "schemebench", "hostmem", "matrix")
#   LW_SCHEME_ONLY=name                      the schemes stage tests one scheme
#   LW_GPU_CASES=N                           random cases in the full test
#   LW_SAN_CASES=N                           random cases under the sanitizers (default 40)
#   LW_BENCH_ARGS="--only 2d-cdf97"          extra arguments for gpu_bench
#   stage "schemebench": the CLI's `bench --scheme all` (every scheme of the papers and auto)
#   over 0.1..256 Mpixel for cdf97, cdf53, dd137, fs -> $OUT/schemes-all.json (LW_SCHEME_WAVELETS,
#   LW_SCHEME_SIZES override) and the papers' text table -> $OUT/schemes-table.txt
#   stage "cpubench": the issue-5 CPU set on this host's cores -> $OUT/cpu-bench.json
#   stage "python": (steps LW_PY_STEPS, default "install test bench") pip-installs the Python package (CUDA build, sm_90; LW_PY_DEFINES overrides the
#   -Ccmake.define.X=Y settings) into a virtual environment that sees the host's CuPy / PyTorch, from
#   the wheels in $LW_WHEELS
#   (default $ROOT/.whl: scikit-build-core nanobind numpy PyWavelets pytest and their
#   dependencies, pytorch_wavelets ptwt optional; no network; a wheel of liftwave for this python,
#   LW_PY_WHEEL from tests/gpu/prebuilt.sh unpack, is installed instead of building one), then runs tests/python (GPU tests
#   included) -> $OUT/python-test.log and bench/python_compare.py -> $OUT/python-bench-*.json
#   stage "hostmem": host-pointer execution from pinned and pageable memory (issue 16): builds and runs
#   test_host_memory (every wavelet, 2-D 1/5 levels, 3-D, batches, odd sizes, both directions, pinned /
#   staged / registered, two threads on one plan) -> $OUT/hostmem-test.log, its quick set under
#   compute-sanitizer memcheck -> $OUT/hostmem-memcheck.log, then `liftwave bench --host-memory
#   pinned,pageable` on 2-D 16384^2 1 and 5 levels and 3-D 512^3, forward and inverse, staged and
#   registered (--tune pageable=register; also 1024^2 and 4096^2: registration cost against size) -> $OUT/hostmem-bench.json (+ .err); a table in the summary
#   (LW_HOSTMEM_BENCH_ARGS adds bench options, e.g. --tune copy_threads=4; LW_HOSTMEM_STEPS="test memcheck
#   bench" picks the steps, so that a run can be split in two calls sharing LW_BUILD_DIR)
#   stage "matrix": issue 16's matrix benchmark and its GPU peer.  Steps (LW_MATRIX_STEPS, default
#   "build peer run"; split them over calls sharing LW_BUILD_DIR to stay within a call's time):
#   build: the CLI and libliftwave.so; peer: pip-installs pycudwt from its sdist in $LW_WHEELS (default
#   $ROOT/.whl: pycudwt-*.tar.gz, Cython, setuptools, wheel, packaging, numpy; built with nvcc for sm_90,
#   no network) into /tmp/lw-pycudwt and runs bench/pycudwt_compare.py -> $OUT/matrix-pycudwt.json
#   (+ install and summary in $OUT/matrix-pycudwt.log); run: `liftwave bench --backend cuda --matrix
#   --json ${LW_MATRIX_ARGS}` (e.g. --matrix-only '3d-*') -> $OUT/matrix.json, its summary (floor,
#   median, misses) and messages -> $OUT/matrix.err (about 5 minutes on an H100; data and references
#   on the host are most of it)
#   stage "inplace": issue 15's in place against out of place, `liftwave bench --backend cuda --config G2G
#   --inplace=both --json` (each case out of place, then in place on the same data, in one run; in place =
#   lw_execute(plan, x, x), the input restored before every run outside the CUDA events) over haar, cdf53,
#   cdf97, dd137, d4, fs, dd97, forward and inverse, layouts mallat and interleaved: 2-D 16384^2 levels 1 and
#   5 ("2d"), 3-D 512^3 level 1 ("3d"), batch 192x512x512 on axes 1,2 level 1 ("batch") -> $OUT/inplace.json
#   (+ .err: messages and the bench's ratio lines); in the summary a table per case: out-of-place ms,
#   in-place ms, ratio, fraction of the device copy (out / in), extra_device_bytes of the in-place run / the
#   array's bytes, verified, and the issue's targets (ratio <= 1.5 Mallat / 1.15 interleaved, 2-D 1 level in
#   place >= 0.80 of the copy, extra <= 1% of the array) met or missed.  Builds the CLI when $BUILD has none.
#   LW_INPLACE_CASES picks rows (default "2d 3d batch", so that a run can be split over calls sharing
#   LW_BUILD_DIR); LW_INPLACE_ARGS is appended to every bench command (default "--repeat 5"; later options
#   win, e.g. LW_INPLACE_ARGS="--repeat 3 -w cdf97,haar").  Estimated 4-5 minutes on an H100 (224 pairs;
#   the random data, references and 1 GiB downloads and comparisons on the host are most of it)
#   stage "ooc": issue 17's GPU rows, out of core (see the stage below)
#   stage "local": the cuda local engine (haar): builds the CLI, test_gpu and test_local_body, runs
#   test_local_body, test_gpu's haar cases (LW_GPU_WAVELET=haar: the local engine's named and auto
#   cases, its block maps, channels last) -> $OUT/local-test.log, then (LW_LOCAL_STEPS, default
#   "channels") "probe": bench/exp/local_probe.sh (ncu counters and timings of the block maps wide /
#   narrow / strided) -> $OUT/local-probe.txt, .json; "channels": channels-last images against the
#   generic passes (bench/exp/local_ab.sh, LW_LOCAL_AB_SET=channels) -> $OUT/local-ab-channels.*
#   stage "ab": matrix cells of an older tree against this one on this machine, old/new/old/new
#   (bench/exp/ab_matrix.sh; LW_AB_OLD: a tar.gz of the older tree, e.g. `git archive --format=tar.gz
#   -o .ab/tree-OLD.tgz OLD` carried in .ab, or "." for this tree with LW_AB_OLD_CMAKE / LW_AB_NEW_CMAKE
#   telling the sides apart; LW_AB_CELLS: --matrix-only patterns) -> $OUT/ab-*.json and the table in
#   $OUT/ab-summary.txt
#   stage "ncu": Nsight Compute on one kernel instance per issue-3 target case
#   (LW_NCU_CASES="case:kernel-regex:launches-to-skip[:gpu_bench,args] ..."): DRAM throughput
#   (% of peak, GB/s), achieved occupancy, top two warp stall reasons; table
#   in the summary, raw CSV in $OUT/ncu-raw.csv
set -u -o pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/gpu-out}
BUILD=${LW_BUILD_DIR:-/tmp/lw-gpu-build}
STAGES=${LW_STAGES:-"build unit test sanitize schemes bench"}
mkdir -p "$OUT"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
has() { case " $STAGES " in *" $1 "*) return 0;; esac; return 1; }
# the device copy of the tree has no .git: pass LW_COMMIT=$(git rev-parse --short=12 HEAD) from the checkout
export LW_COMMIT=${LW_COMMIT:-$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)}

say "device: $(nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1)  commit: $LW_COMMIT"

if has build; then
  # building here can outlast a call (tests/gpu/prebuilt.sh: build off this machine, unpack here)
  t0=$(date +%s)
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_GIT_COMMIT="$LW_COMMIT" >"$OUT/build.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target liftwave_static test_gpu test_gpu_adjoint test_gpu_inplace test_gpu_half test_gpu_devices test_schemes gpu_bench test_gain fuzz_plan_random >>"$OUT/build.log" 2>&1
  rc=$?
  # the CLI only if it builds right now (other work in progress must not break this run)
  cmake --build "$BUILD" -j"$(nproc)" --target liftwave liftwave_shared >>"$OUT/build.log" 2>&1 && cli=yes || cli=no
  say "build: rc=$rc in $(( $(date +%s) - t0 ))s (CLI built: $cli)"
  if [ $rc -ne 0 ]; then tail -40 "$OUT/build.log"; exit 1; fi
fi
T=$BUILD/tests/gpu

if has unit; then
  # the unit tests that cover every available backend, the CUDA one included here
  for u in unit/test_gain; do
    t0=$(date +%s)
    timeout ${LW_UNIT_TIMEOUT:-300} "$BUILD/tests/$u" >"$OUT/$(basename $u).log" 2>&1
    say "$(basename $u): rc=$? in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/$(basename $u).log")"
    grep FAIL "$OUT/$(basename $u).log" | head -10 | tee -a "$SUMMARY"
  done
  t0=$(date +%s)
  timeout ${LW_UNIT_TIMEOUT:-300} "${CS:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}" --tool memcheck \
    --error-exitcode 3 "$BUILD/tests/unit/test_gain" >"$OUT/san-test_gain.log" 2>&1
  say "compute-sanitizer memcheck test_gain: rc=$? in $(( $(date +%s) - t0 ))s: $(grep 'ERROR SUMMARY' "$OUT/san-test_gain.log" | tail -1) / $(tail -1 "$OUT/san-test_gain.log")"
fi

if has test; then
  t0=$(date +%s)
  LW_GPU_BIG=${LW_GPU_BIG:-1} timeout ${LW_TEST_TIMEOUT:-900} "$T/test_gpu" >"$OUT/test.log" 2>&1
  rc=$?
  say "test_gpu: rc=$rc in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/test.log")"
  grep -E "^(engine|random|fixed|leak|threads|out of|big|fs wide)" "$OUT/test.log" | tee -a "$SUMMARY"
  grep FAIL "$OUT/test.log" | head -20 | tee -a "$SUMMARY"
  # one more test program: name, log, the summary lines it contributes
  more_test() {
    local t0; t0=$(date +%s)
    timeout ${LW_TEST_TIMEOUT:-900} "$T/$1" >"$OUT/$2" 2>&1
    say "$1: rc=$? in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/$2")"
    grep -E "$3" "$OUT/$2" | tee -a "$SUMMARY"
    grep FAIL "$OUT/$2" | head -20 | tee -a "$SUMMARY"
  }
  more_test test_gpu_adjoint test-adjoint.log "^(engine|random|fixed|timing)"
  more_test test_gpu_inplace test-inplace.log "^(engine|in-place|memory|timing|refusal)"
  more_test test_gpu_half test-half.log "^(engine|random|fixed|timing|refusals)"
  more_test test_gpu_devices test-devices.log "^(device|SKIP)"
  # the API fuzz target on the cuda backend against the reference (random configurations)
  FZ=$(command -v fuzz_plan_random || echo "$BUILD/tests/fuzz/fuzz_plan_random")
  if [ -x "$FZ" ]; then
    t0=$(date +%s)
    timeout ${LW_TEST_TIMEOUT:-900} "$FZ" ${LW_FUZZ_COUNT:-3000} 0x5eed2026 cuda >"$OUT/fuzz-plan-cuda.log" 2>&1
    say "fuzz_plan_random cuda: rc=$? in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/fuzz-plan-cuda.log")"
    grep "fuzz_plan:" "$OUT/fuzz-plan-cuda.log" | head -5 | tee -a "$SUMMARY"
  fi
fi

if has sanitize; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    t0=$(date +%s)
    n=${LW_SAN_CASES:-40}; [ $tool = racecheck ] && n=$(( n / 2 ))
    LW_GPU_QUICK=1 LW_GPU_CASES=$n timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $tool --error-exitcode 3 "$T/test_gpu" >"$OUT/san-$tool.log" 2>&1
    rc=$?
    say "compute-sanitizer $tool: rc=$rc in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool.log" | tail -1) / $(grep 'checks passed' "$OUT/san-$tool.log")"
    t0=$(date +%s)
    LW_GPU_QUICK=1 LW_GPU_CASES=$n timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $tool --error-exitcode 3 "$T/test_gpu_adjoint" >"$OUT/san-adjoint-$tool.log" 2>&1
    rc=$?
    say "compute-sanitizer $tool (adjoint): rc=$rc in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-adjoint-$tool.log" | tail -1) / $(grep 'checks passed' "$OUT/san-adjoint-$tool.log")"
    t0=$(date +%s)
    # racecheck runs the in-place tile kernel's blocks slowly: its few cases only (LW_GPU_QUICK=2)
    LW_GPU_QUICK=$([ $tool = racecheck ] && echo 2 || echo 1) LW_GPU_ORACLE=cpu timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $tool --error-exitcode 3 "$T/test_gpu_inplace" >"$OUT/san-inplace-$tool.log" 2>&1
    rc=$?
    say "compute-sanitizer $tool (in place): rc=$rc in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-inplace-$tool.log" | tail -1) / $(grep 'checks passed' "$OUT/san-inplace-$tool.log")"
    t0=$(date +%s)
    LW_GPU_QUICK=1 LW_GPU_CASES=$n timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $tool --error-exitcode 3 "$T/test_gpu_half" >"$OUT/san-half-$tool.log" 2>&1
    rc=$?
    say "compute-sanitizer $tool (half): rc=$rc in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-half-$tool.log" | tail -1) / $(grep 'checks passed' "$OUT/san-half-$tool.log")"
  done
fi

if has schemes; then
  # the papers' schemes against the reference, and quicker passes under the sanitizers (compared
  # with the fast CPU backend, LW_GPU_ORACLE=cpu); K shards
  # per pass (LW_SCHEME_SHARDS, default 8: the CPU reference is the slow part), every pass's
  # shards side by side
  K=${LW_SCHEME_SHARDS:-8}
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  t0=$(date +%s)
  declare -A pass_pids
  for pass in ${LW_SCHEME_PASSES:-plain memcheck racecheck}; do
    pass_pids[$pass]=
    for i in $(seq 0 $((K - 1))); do
      if [ $pass = plain ]; then
        LW_SCHEME_SHARD=$i/$K timeout ${LW_TEST_TIMEOUT:-900} "$T/test_schemes" >"$OUT/schemes-$i.log" 2>&1 &
      else
        LW_SCHEME_SHARD=$i/$K LW_GPU_ORACLE=cpu OMP_NUM_THREADS=1 LW_GPU_QUICK=$([ $pass = racecheck ] && echo 2 || echo 1) timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $pass --error-exitcode 3 \
          "$T/test_schemes" >"$OUT/san-schemes-$pass-$i.log" 2>&1 &
      fi
      pass_pids[$pass]="${pass_pids[$pass]} $!"
    done
  done
  for pass in ${LW_SCHEME_PASSES:-plain memcheck racecheck}; do
    rc=0; for p in ${pass_pids[$pass]}; do wait $p || rc=$?; done
    if [ $pass = plain ]; then
      cat "$OUT"/schemes-[0-9]*.log >"$OUT/schemes.log"
      say "test_schemes ($K shards): rc=$rc after $(( $(date +%s) - t0 ))s: $(grep -h 'checks passed' "$OUT"/schemes-[0-9]*.log | awk '{p+=$2; f+=$5} END {print p " checks passed, " f " failed in " NR " shards"}')"
      grep -hE "^scheme .*takes" "$OUT/schemes.log" | tee -a "$SUMMARY"
      grep -h FAIL "$OUT/schemes.log" | head -20 | tee -a "$SUMMARY"
    else
      cat "$OUT"/san-schemes-$pass-*.log >"$OUT/san-schemes-$pass.log"
      say "compute-sanitizer $pass (schemes, $K shards): rc=$rc after $(( $(date +%s) - t0 ))s: $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT"/san-schemes-$pass-*.log | sort | uniq -c | paste -sd';') / $(grep -h 'checks passed' "$OUT"/san-schemes-$pass-*.log | awk '{p+=$2; f+=$5} END {print p " checks passed, " f " failed in " NR " shards"}')"
    fi
  done
  rm -f "$OUT"/schemes-[0-9]*.log "$OUT"/san-schemes-*-[0-9]*.log  # merged above (fewer files to fetch)
fi

if has bench; then
  t0=$(date +%s)
  timeout ${LW_BENCH_TIMEOUT:-900} "$T/gpu_bench" --json "$OUT/bench.json" ${LW_BENCH_ARGS:-} >"$OUT/bench.log" 2>&1
  rc=$?
  say "gpu_bench: rc=$rc in $(( $(date +%s) - t0 ))s"
  cat "$OUT/bench.log" | tee -a "$SUMMARY"
  # cross-check through the CLI when it built (its own bench driver, same lw_cuda_bench)
  if [ -x "$BUILD/liftwave" ] && [ -z "${LW_NO_CLI_BENCH:-}" ]; then
    { echo "=== liftwave bench (CLI)"; timeout 300 "$BUILD/liftwave" bench --backend cuda --wavelet cdf97 \
        --shape 16384x16384,512x512x512,1920x1080 --direction forward,inverse --config G2G --json; } >>"$OUT/bench.log" 2>&1
    say "CLI bench: rc=$? (records appended to bench.log)"
  fi
fi
if has schemebench; then
  t0=$(date +%s)
  timeout ${LW_SCHEME_TIMEOUT:-540} "$BUILD/liftwave" bench --backend cuda --scheme all \
    --wavelet ${LW_SCHEME_WAVELETS:-cdf97,cdf53,dd137,fs} --sizes-mpix ${LW_SCHEME_SIZES:-0.1,1,10,64,256} --json \
    >"$OUT/schemes-all.json" 2>"$OUT/schemes-all.err"
  rc=$?
  say "scheme bench (CLI --scheme all): rc=$rc in $(( $(date +%s) - t0 ))s, $(wc -l <"$OUT/schemes-all.json") records"
  cp "$OUT/schemes-all.err" "$OUT/schemes-table.txt"  # --scheme all prints the papers' table on stderr with --json
fi
if has cpubench; then
  t0=$(date +%s)
  L="$BUILD/liftwave"
  { $L bench --backend cpu --wavelet cdf97 --mode periodic --shape 8192x8192 --levels 1,5 --direction forward,inverse --repeat 9 --json
    $L bench --backend cpu --wavelet cdf97 --mode symmetric --shape 8192x8192 --levels 1,5 --repeat 9 --json
    $L bench --backend cpu --wavelet cdf97 --mode periodic,symmetric --shape 256x256x256,512x512x512 --levels 1 --direction forward,inverse --repeat 9 --json
  } >"$OUT/cpu-bench.json" 2>"$OUT/cpu-bench.err"
  say "cpu bench: rc=$? in $(( $(date +%s) - t0 ))s on $(nproc) cores"
  python3 -c "import sys,json
for l in open(sys.argv[1]):
    r=json.loads(l); print('cpu %-6s %-9s L%d %-14s %-8s %8.2f ms frac %.3f (bound %.0f GB/s, %d threads)'%(r['wavelet'],r['mode'],r['levels'],'x'.join(map(str,r['shape'])),r['direction'],r['median_s']*1e3,r['fraction_of_bound'],r['bound_gbps'],r['threads']))" "$OUT/cpu-bench.json" | tee -a "$SUMMARY"
  if python3 -c "import pywt" 2>/dev/null; then timeout 300 python3 "$ROOT/bench/pywt_compare.py" --lib "$BUILD/libliftwave.so" --json >"$OUT/pywt.txt" 2>&1; say "pywt: $(tail -2 "$OUT/pywt.txt" | paste -sd' ')"; else say "pywt: not installed on this host"; fi
fi
if has python; then
  t0=$(date +%s)
  W=${LW_WHEELS:-$ROOT/.whl}
  PYV=${LW_PY_VENV:-/tmp/lw-py-venv}
  PS=" ${LW_PY_STEPS:-install test bench} "
fi
if has python && [[ $PS == *" install "* ]]; then
  # the host's python3 may itself be a virtual environment (CuPy, PyTorch) and may lack ensurepip:
  # a venv without pip when need be, driven by the host's pip (pip --python), and a .pth file that
  # shows the host's packages to it (--system-site-packages alone would not)
  if python3 -m venv --system-site-packages "$PYV" >"$OUT/python-install.log" 2>&1; then
    PIP="$PYV/bin/python -m pip"
  else
    rm -rf "$PYV"
    python3 -m venv --system-site-packages --without-pip "$PYV" >>"$OUT/python-install.log" 2>&1
    PIP="$(command -v pip3 || command -v pip) --python $PYV/bin/python"
  fi
  PIP="$PIP --disable-pip-version-check"
  # a wheel built off this machine for this python (LW_PY_WHEEL from tests/gpu/prebuilt.sh unpack)
  # saves the package's CUDA build here
  PREWHEEL=""
  case "${LW_PY_WHEEL:-}" in
  *-cp"$("$PYV/bin/python" -c 'import sys; print("%d%d" % sys.version_info[:2])')"-*.whl) PREWHEEL=$LW_PY_WHEEL ;;
  ?*) echo "LW_PY_WHEEL=$LW_PY_WHEEL is not for this python: building the package" >>"$OUT/python-install.log" ;;
  esac
  INSTALL="install --no-index --find-links $W"
  # what the steps need beyond the wheels of the package and its peers: the build's requirements
  # unless a wheel was packed, pytest for the test step (so that a benchmark-only call carries fewer wheels)
  BUILD_REQ="scikit-build-core nanobind" TEST_REQ=pytest
  [ -n "$PREWHEEL" ] && BUILD_REQ=
  [[ $PS == *" test "* ]] || TEST_REQ=
  { python3 -c 'import site; print("\n".join(site.getsitepackages()))' \
      >"$("$PYV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/lw_host_site.pth" &&
    $PIP $INSTALL $BUILD_REQ numpy PyWavelets $TEST_REQ &&
    { $PIP $INSTALL pytorch_wavelets ptwt "setuptools<81" || echo "pytorch_wavelets / ptwt: not installed (no wheels)"; } &&
    if [ -n "$PREWHEEL" ]; then $PIP install --no-deps --force-reinstall "$PREWHEEL"; else
    $PIP $INSTALL --no-build-isolation -Cbuild-dir=/tmp/lw-py-build -Ccmake.define.LW_GIT_COMMIT="$LW_COMMIT" \
      ${LW_PY_DEFINES:--Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90} "$ROOT"; fi; } >>"$OUT/python-install.log" 2>&1
  rc=$?
  say "python package: install rc=$rc in $(( $(date +%s) - t0 ))s: $(cd /tmp && "$PYV/bin/python" -c 'import liftwave; print(liftwave.describe())' 2>&1 | paste -sd' ')"
  [ $rc -ne 0 ] && tail -30 "$OUT/python-install.log"
fi
# the tests and the benchmark need the package installed (by this call's install step, or by an
# earlier call of the same machine with LW_PY_STEPS=install: the steps can be split so that the
# install overlaps other stages and the benchmark runs alone)
if has python && [[ $PS == *" test "* || $PS == *" bench "* ]] && ! (cd /tmp && "$PYV/bin/python" -c 'import liftwave' 2>/dev/null); then
  say "python: the package is not installed in $PYV: no tests, no benchmark"
elif has python; then
  if [[ $PS == *" test "* ]]; then
    t0=$(date +%s)
    (cd "$ROOT/tests/python" && timeout ${LW_PY_TEST_TIMEOUT:-900} "$PYV/bin/python" -m pytest -q -rs -p no:cacheprovider .) >"$OUT/python-test.log" 2>&1
    say "python tests: rc=$? in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/python-test.log")"
    grep -E "^(FAILED|SKIPPED|ERROR)" "$OUT/python-test.log" | head -30 | tee -a "$SUMMARY"
  fi
  if [[ $PS == *" bench "* ]] && [ "${LW_PY_BENCH:-1}" = 1 ]; then
    t0=$(date +%s)
    (cd /tmp && timeout ${LW_PY_BENCH_TIMEOUT:-900} "$PYV/bin/python" "$ROOT/bench/python_compare.py" ${LW_PY_BENCH_ARGS:---gpu} \
      --out "$OUT/python-bench.json") >"$OUT/python-bench.log" 2>&1
    say "python bench: rc=$? in $(( $(date +%s) - t0 ))s"
    tee -a "$SUMMARY" <"$OUT/python-bench.log"
  fi
fi
if has profile; then
  # Nsight Compute on the fused kernels of two bench cases (speed of light, memory)
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  for c in ${LW_PROFILE_CASES:-2d-cdf97-L1-16384-inv 3d-cdf97-L1-512-fwd}; do
    timeout 180 "$NCU" --clock-control none -k "regex:tile|col_kernel" --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      "$T/gpu_bench" --only "$c" --repeat 3 >/tmp/ncu-one.txt 2>&1
    { echo "=== $c"; cat /tmp/ncu-one.txt; } >>"$OUT/ncu.txt"
    say "ncu $c: $(grep -E 'Memory Throughput|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|L2 Hit Rate' /tmp/ncu-one.txt | tr -s ' ' | paste -sd';')"
  done
fi
if has hostmem; then
  t0=$(date +%s)
  # self-sufficient (LW_STAGES=hostmem alone): configure when the build stage did not, build only what it runs
  [ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DLW_GIT_COMMIT="$LW_COMMIT" >>"$OUT/build.log" 2>&1
  cmake --build "$BUILD" -j"$(nproc)" --target test_host_memory liftwave >>"$OUT/build.log" 2>&1
  rc=$?
  say "hostmem build: rc=$rc in $(( $(date +%s) - t0 ))s"
  [ $rc -ne 0 ] && tail -30 "$OUT/build.log"
  HS=" ${LW_HOSTMEM_STEPS:-test memcheck bench} "
fi
if has hostmem && [[ $HS == *" test "* ]]; then
  t0=$(date +%s)
  timeout ${LW_TEST_TIMEOUT:-900} "$T/test_host_memory" >"$OUT/hostmem-test.log" 2>&1
  say "test_host_memory: rc=$? in $(( $(date +%s) - t0 ))s: $(tail -1 "$OUT/hostmem-test.log")"
  grep -E "^(hostmem|threads):" "$OUT/hostmem-test.log" | tee -a "$SUMMARY"
  grep FAIL "$OUT/hostmem-test.log" | head -20 | tee -a "$SUMMARY"
fi
if has hostmem && [[ $HS == *" memcheck "* ]]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  t0=$(date +%s)
  LW_HOSTMEM_QUICK=1 timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool memcheck --error-exitcode 3 "$T/test_host_memory" \
    >"$OUT/hostmem-memcheck.log" 2>&1
  say "compute-sanitizer memcheck (host memory, quick): rc=$? in $(( $(date +%s) - t0 ))s: $(grep -E 'ERROR SUMMARY' "$OUT/hostmem-memcheck.log" | tail -1) / $(grep 'checks passed' "$OUT/hostmem-memcheck.log")"
fi
if has hostmem && [[ $HS == *" bench "* ]]; then
  t0=$(date +%s)
  L="$BUILD/liftwave"
  B="bench --backend cuda --wavelet cdf97 --direction forward,inverse --json ${LW_HOSTMEM_BENCH_ARGS:-}"
  { $L $B --shape 16384x16384 --levels 1,5 --host-memory pinned,pageable
    $L $B --shape 512x512x512 --levels 1 --host-memory pinned,pageable
    $L $B --shape 16384x16384,512x512x512 --levels 1 --host-memory pageable --tune pageable=register
    # registration against staging by size (register_s in every pageable record)
    for t in stage register; do
      $L bench --backend cuda --wavelet cdf97 --json --shape 1024x1024,4096x4096 --levels 1 --host-memory pageable \
        --tune pageable=$t ${LW_HOSTMEM_BENCH_ARGS:-}
    done
  } >"$OUT/hostmem-bench.json" 2>"$OUT/hostmem-bench.err"
  say "hostmem bench: rc=$? in $(( $(date +%s) - t0 ))s, $(wc -l <"$OUT/hostmem-bench.json") records (bound: pinned H2D + D2H at once)"
  python3 -c "import sys,json
for l in open(sys.argv[1]):
    r=json.loads(l); t=r.get('tuning') or 'staged'
    print('hostmem %-6s L%d %-14s %-7s %-8s %-18s %8.2f ms frac %.3f of %.1f GB/s verified %s%s'%(r['wavelet'],r['levels'],'x'.join(map(str,r['shape'])),r['direction'],r['host_memory'],t if r['host_memory']=='pageable' else '',r['median_s']*1e3,r['fraction_of_bound'],r['bound_gbps'],r['verified'],(' register_s %.1f ms'%(r['register_s']*1e3)) if 'register_s' in r else ''))" "$OUT/hostmem-bench.json" | tee -a "$SUMMARY"
  tail -5 "$OUT/hostmem-bench.err" | tee -a "$SUMMARY"
fi
if has ncu; then
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  : >"$OUT/ncu-raw.csv"
  say "ncu: case | kernel | DRAM % of peak | DRAM GB/s | achieved occupancy % | top stall reasons (cycles per issued instruction)"
  for spec in ${LW_NCU_CASES:-2d-cdf97-L1-16384-fwd:tile_vh:2 2d-cdf97-L1-16384-inv:tile_vh:2 2d-cdf53-L1-16384-fwd:tile_vh:2 \
      2d-haar-L1-16384-fwd:tile_vh:2 2d-cdf97-L5-16384-fwd:tile_vh:5 3d-cdf97-L1-512-fwd:tile3s:2 \
      3d-cdf97-L1-512-inv:tile3s:2 2d-cdf97-L1-1920x1080-fwd:tile_vh:2}; do
    c=${spec%%:*}; rest=${spec#*:}; k=${rest%%:*}; rest=${rest#*:}; skip=${rest%%:*}; args=
    case $rest in *:*) args=${rest#*:}; args=${args//,/ };; esac
    rm -f /tmp/lw-ncu.ncu-rep
    timeout ${LW_NCU_TIMEOUT:-120} "$NCU" --clock-control none -k "regex:^$k" --launch-skip "$skip" --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --metrics dram__bytes.sum.per_second,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
      -o /tmp/lw-ncu "$T/gpu_bench" --only "$c" --repeat 1 $args >/tmp/lw-ncu.log 2>&1
    rc=$?
    "$NCU" --import /tmp/lw-ncu.ncu-rep --csv --page raw --print-units base >/tmp/lw-ncu.csv 2>>/tmp/lw-ncu.log
    { echo "=== $c (ncu rc=$rc)"; cat /tmp/lw-ncu.csv; } >>"$OUT/ncu-raw.csv"
    python3 - "$c${args:+ ($args)}" /tmp/lw-ncu.csv <<'PYEOF' | tee -a "$SUMMARY"
import csv, re, sys
rows = [r for r in csv.reader(open(sys.argv[2])) if r]
hi = next((i for i, r in enumerate(rows) if r[0] == "ID"), None)
if hi is None or len(rows) < hi + 3:
    print("ncu: %s | no report" % sys.argv[1]); sys.exit(0)
m = dict(zip(rows[hi], rows[hi + 2]))
def num(k):
    try: return float(m.get(k, "nan").replace(",", ""))
    except ValueError: return float("nan")
st = {}
for k in m:
    g = re.match(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$", k)
    if g and g.group(1) not in ("selected",): st[g.group(1)] = num(k)
top = sorted(st.items(), key=lambda kv: -kv[1])[:2]
print("ncu: %s | %s | %.1f | %.0f | %.1f | %s" % (sys.argv[1], m.get("Kernel Name", "?")[:40],
      num("dram__throughput.avg.pct_of_peak_sustained_elapsed"), num("dram__bytes.sum.per_second") / 1e9,
      num("sm__warps_active.avg.pct_of_peak_sustained_active"), ", ".join("%s %.2f" % kv for kv in top)))
PYEOF
  done
fi
if has matrix; then
  MS=" ${LW_MATRIX_STEPS:-build peer run} "
  L="$BUILD/liftwave"
fi
if has matrix && [[ $MS == *" build "* ]]; then
  t0=$(date +%s)
  [ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DLW_GIT_COMMIT="$LW_COMMIT" >>"$OUT/build.log" 2>&1
  cmake --build "$BUILD" -j"$(nproc)" --target liftwave liftwave_shared >>"$OUT/build.log" 2>&1
  rc=$?
  say "matrix build (CLI, libliftwave.so): rc=$rc in $(( $(date +%s) - t0 ))s"
  [ $rc -ne 0 ] && tail -30 "$OUT/build.log"
fi
if has matrix && [[ $MS == *" peer "* ]]; then
  t0=$(date +%s)
  W=${LW_WHEELS:-$ROOT/.whl}
  PDWT=${LW_PYCUDWT_DIR:-/tmp/lw-pycudwt}
  # the host's python3 may be a virtual environment without pip: then the host's pip drives it
  if python3 -m pip --version >/dev/null 2>&1; then PIP="python3 -m pip"; else PIP="$(command -v pip3 || command -v pip) --python $(command -v python3)"; fi
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  # PDWT's setup.py links -lcudart -lcublas from /usr/lib/x86_64-linux-gnu only: the linker and the
  # loader are pointed at the first copies found (the toolkit's, or PyTorch's nvidia wheels'; not
  # the toolkit's link-only stand-ins under stubs/)
  mkdir -p /tmp/lw-cudalink
  for l in cudart cublas cublasLt; do
    f=$(find "$(dirname "$(dirname "$NVCC")")"/ /usr/local/cuda*/ /opt /usr/lib -name "lib$l.so*" 2>/dev/null |
        grep -v /stubs/ | sort | head -1)
    [ -n "$f" ] && ln -sf "$f" /tmp/lw-cudalink/lib$l.so && export LD_LIBRARY_PATH="$(dirname "$f")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  done
  export LIBRARY_PATH=/tmp/lw-cudalink${LIBRARY_PATH:+:$LIBRARY_PATH} LD_LIBRARY_PATH=/tmp/lw-cudalink${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  { echo "=== pip install pycudwt (sdist, nvcc sm_90) from $W"
    PYCUDWT_CC=90 CUDAHOME=${CUDAHOME:-$(dirname "$(dirname "$NVCC")")} PATH="$(dirname "$NVCC"):$PATH" \
      $PIP install --disable-pip-version-check --no-index --find-links "$W" --no-deps --upgrade --target "$PDWT" pycudwt &&
    if ! python3 -c "import numpy" 2>/dev/null; then  # the script needs NumPy: the wheel from $W then
      $PIP install --disable-pip-version-check --no-index --find-links "$W" --no-deps --target "$PDWT" numpy; fi
  } >"$OUT/matrix-pycudwt.log" 2>&1
  rc=$?
  say "pycudwt install: rc=$rc in $(( $(date +%s) - t0 ))s"
  if [ $rc -eq 0 ]; then
    t0=$(date +%s)
    (cd /tmp && PYTHONPATH="$PDWT${PYTHONPATH:+:$PYTHONPATH}" timeout ${LW_PEER_TIMEOUT:-600} python3 "$ROOT/bench/pycudwt_compare.py" \
      --lib "$BUILD/libliftwave.so" --out "$OUT/matrix-pycudwt.json" ${LW_PEER_ARGS:-}) >>"$OUT/matrix-pycudwt.log" 2>&1
    say "pycudwt compare: rc=$? in $(( $(date +%s) - t0 ))s, $(cat "$OUT/matrix-pycudwt.json" 2>/dev/null | wc -l) records"
    grep -E "^# " "$OUT/matrix-pycudwt.log" | tee -a "$SUMMARY"
  else
    tail -30 "$OUT/matrix-pycudwt.log"
  fi
fi
if has matrix && [[ $MS == *" run "* ]]; then
  t0=$(date +%s)
  timeout ${LW_MATRIX_TIMEOUT:-900} "$L" bench --backend cuda --matrix --json ${LW_MATRIX_ARGS:-} \
    >"$OUT/matrix.json" 2>"$OUT/matrix.err"
  say "matrix: rc=$? in $(( $(date +%s) - t0 ))s, $(wc -l <"$OUT/matrix.json") records"
  grep -E "^# " "$OUT/matrix.err" | tee -a "$SUMMARY"
  grep -vE "^# " "$OUT/matrix.err" | head -20 | tee -a "$SUMMARY"
fi
if has inplace; then
  t0=$(date +%s)
  L="$BUILD/liftwave"
  if [ ! -x "$L" ]; then  # self-sufficient (LW_STAGES=inplace alone)
    [ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DLW_GIT_COMMIT="$LW_COMMIT" >>"$OUT/build.log" 2>&1
    cmake --build "$BUILD" -j"$(nproc)" --target liftwave >>"$OUT/build.log" 2>&1
    say "inplace build (CLI): rc=$? in $(( $(date +%s) - t0 ))s"
  fi
  B="bench --backend cuda --config G2G --inplace=both --json -w haar,cdf53,cdf97,dd137,d4,fs,dd97
     --direction forward,inverse --layout mallat,interleaved"
  IA=${LW_INPLACE_ARGS:---repeat 5}
  : >"$OUT/inplace.json"; : >"$OUT/inplace.err"
  rc=0
  for c in ${LW_INPLACE_CASES:-2d 3d batch}; do
    case $c in
      2d) args="--shape 16384x16384 --levels 1,5";;
      3d) args="--shape 512x512x512 --levels 1";;
      batch) args="--shape 192x512x512 --axes 1,2 --levels 1";;
      *) say "inplace: unknown case '$c' (2d, 3d, batch)"; rc=2; continue;;
    esac
    timeout ${LW_INPLACE_TIMEOUT:-900} "$L" $B $args $IA >>"$OUT/inplace.json" 2>>"$OUT/inplace.err" || rc=$?
  done
  say "inplace bench: rc=$rc in $(( $(date +%s) - t0 ))s, $(wc -l <"$OUT/inplace.json") records"
  grep -vE "^#" "$OUT/inplace.err" | head -20 | tee -a "$SUMMARY"
  python3 - "$OUT/inplace.json" <<'PYEOF' | tee -a "$SUMMARY"
import json, math, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
key = lambda r: (r["wavelet"], tuple(r["shape"]), tuple(r["axes"]), r["levels"], r["layout"], r["direction"], r["dtype"])
pairs = {}
for r in recs:
    pairs.setdefault(key(r), {})[r["inplace"]] = r
print("inplace: case | out ms | in ms | in/out | frac of copy out / in | extra / array | verified out/in | targets")
miss = 0
for k, p in pairs.items():
    w, shape, axes, lv, lay, d, dt = k
    name = "%s %s%s L%d %s %s" % (w, "x".join(map(str, shape)), " axes " + ",".join(map(str, axes)) if len(axes) < len(shape) else "",
                                   lv, lay, "fwd" if d == "forward" else "inv") + ("" if dt == "float32" else " " + dt)
    o, i = p.get(False), p.get(True)
    if not o or not i:
        print("inplace: %s | missing the %s record" % (name, "out-of-place" if not o else "in-place")); miss += 1; continue
    ratio = i["median_s"] / o["median_s"]
    extra = i["extra_device_bytes"] / (math.prod(shape) * {"float64": 8.0}.get(i["dtype"], 4.0))
    why = []
    if ratio > (1.5 if lay == "mallat" else 1.15): why.append("ratio")
    if extra > 0.01: why.append("memory")
    if len(shape) == 2 and lv == 1 and i["fraction_of_bound"] < 0.80: why.append("copy")
    if not (o["verified"] and i["verified"]): why.append("verified")
    miss += bool(why)
    print("inplace: %s | %.3f | %.3f | %.2f | %.2f / %.2f | %.4f | %s/%s | %s" % (name, o["median_s"] * 1e3,
          i["median_s"] * 1e3, ratio, o["fraction_of_bound"], i["fraction_of_bound"], extra,
          "yes" if o["verified"] else "NO", "yes" if i["verified"] else "NO", "met" if not why else "MISSED " + ",".join(why)))
print("inplace: %d cases, %d miss a target or verification" % (len(pairs), miss))
PYEOF
fi
# stage "ooc": issue 17's GPU rows.  test_gpu_ooc (the sweep against in core, C->G / G->C, timings
# at 8192^2 / 256x512^2 under a 64 MiB budget and C->G / G->C at 16384^2 -> $OUT/ooc-test.log, its
# RECORD lines -> $OUT/ooc-records.json) and its quick set under memcheck and racecheck, then
# gpu_ooc_bench (one host array, PCIe bound measured in the same run -> $OUT/ooc-bench.json):
# LW_OOC_ROWS picks "big" (2-D cdf97 L1 in place, the array 2 GiB larger than the device, pageable),
# "budget" (16 GiB under a 1 GiB budget, out of place, pinned, best of 3: 2-D 65536^2 and 3-D
# 4096x1024^2, 1 and 5 levels; 2-D 1 level pageable; 2-D 1 level in place under 8 GiB, rows held on
# the device).  Default "budget big".  The rows and their targets: bench/NOTES-outofcore.md.
if has ab; then
  OUT=$OUT OLD=${LW_AB_OLD:?LW_AB_OLD: a tar.gz of the older tree, or .} CELLS=${LW_AB_CELLS:?LW_AB_CELLS: the cells} \
    OLD_CMAKE=${LW_AB_OLD_CMAKE:-} NEW_CMAKE=${LW_AB_NEW_CMAKE:-} bash "$ROOT/bench/exp/ab_matrix.sh" >"$OUT/ab.log" 2>&1
  say "ab: rc=$?"
  cat "$OUT/ab-summary.txt" 2>/dev/null | tee -a "$SUMMARY"
fi
if has local; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DLW_GIT_COMMIT="$LW_COMMIT" \
    >>"$OUT/build.log" 2>&1
  cmake --build "$BUILD" -j"$(nproc)" --target liftwave test_gpu test_local_body >>"$OUT/build.log" 2>&1 ||
    say "local: build FAILED"
  { "$BUILD/tests/unit/test_local_body" && LW_GPU_WAVELET=haar LW_GPU_BIG=0 "$BUILD/tests/gpu/test_gpu"; } \
    >"$OUT/local-test.log" 2>&1
  say "local: tests rc=$? $(grep -E 'checks passed' "$OUT/local-test.log" | tr '\n' ' ')"
  if [[ " ${LW_LOCAL_STEPS:-channels} " == *" probe "* ]]; then
    OUT=$OUT LW=$BUILD/liftwave bash "$ROOT/bench/exp/local_probe.sh" >/dev/null 2>&1
    sed 's/^/local: /' "$OUT/local-probe.txt" | tee -a "$SUMMARY"
  fi
  if [[ " ${LW_LOCAL_STEPS:-channels} " == *" channels "* ]]; then
    LW_LOCAL_AB_SET=channels LW_LOCAL_AB_SCHEMES=generic,auto LW_LOCAL_AB_TAG=-channels OUT=$OUT LW=$BUILD/liftwave \
      bash "$ROOT/bench/exp/local_ab.sh" >/dev/null 2>&1
    sed 's/^/local: /' "$OUT/local-ab-channels.txt" | tee -a "$SUMMARY"
  fi
fi
if has ooc; then
  if [ ! -x "$BUILD/tests/gpu/test_gpu_ooc" ] || [ ! -x "$BUILD/tests/gpu/gpu_ooc_bench" ]; then
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >>"$OUT/build.log" 2>&1
    cmake --build "$BUILD" -j"$(nproc)" --target test_gpu_ooc gpu_ooc_bench >>"$OUT/build.log" 2>&1 || say "ooc: build FAILED"
  fi
  T=$BUILD/tests/gpu
  "$T/test_gpu_ooc" >"$OUT/ooc-test.log" 2>&1; say "ooc: test_gpu_ooc rc=$? $(tail -1 "$OUT/ooc-test.log")"
  grep '^RECORD ' "$OUT/ooc-test.log" | sed 's/^RECORD //' >"$OUT/ooc-records.json"
  grep -E '^timing' "$OUT/ooc-test.log" | sed 's/^/ooc: /' | tee -a "$SUMMARY"
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    q=1; [ $tool = racecheck ] && q=2
    LW_GPU_QUICK=$q timeout ${LW_SAN_TIMEOUT:-600} "$CS" --tool $tool --error-exitcode 3 "$T/test_gpu_ooc" >"$OUT/ooc-$tool.log" 2>&1
    say "ooc: $tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/ooc-$tool.log" | tail -1)"
  done
  ROWS=${LW_OOC_ROWS:-"budget big"}
  J=$OUT/ooc-bench.json; : >"$J"
  G=1073741824
  row() { "$T/gpu_ooc_bench" "$@" --json "$J" >>"$OUT/ooc-bench.log" 2>&1; say "ooc: $* rc=$?"; }
  if [[ " $ROWS " == *" budget "* ]]; then
    for L in 1 5; do
      row --shape 65536x65536 --levels $L --limit $G --pinned --out-of-place --repeat 3
      row --shape 4096x1024x1024 --levels $L --limit $G --pinned --out-of-place --repeat 3
    done
    row --shape 65536x65536 --levels 1 --limit $G --out-of-place --repeat 2
    row --shape 65536x65536 --levels 1 --limit $((8 * G)) --pinned --repeat 3
  fi
  if [[ " $ROWS " == *" big "* ]]; then
    MIB=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
    SIDE=$(python3 -c "import math; print(int(math.ceil(math.sqrt(($MIB + 2048) * 1048576 / 4) / 8)) * 8)")
    row --shape ${SIDE}x${SIDE} --levels 1
  fi
  grep -E "^(forward|inverse|array|round trip|out of core)" "$OUT/ooc-bench.log" | sed 's/^/ooc: /' | tee -a "$SUMMARY"
fi
echo "=== summary ($OUT/summary.txt) ==="
cat "$SUMMARY"
