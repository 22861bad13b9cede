#!/usr/bin/env bash
# tests/skip_report.sh names each skipped test with the reason it printed.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Testing/Temporary"
printf '%s\n' "The following tests did not run:" "	  7 - cli_usage (Skipped)" \
    "	 12 - gpu_x (Skipped)" "	 13 - quiet_one (Skipped)" > "$tmp/out"
for t in cli_usage:"SKIP: NumPy is not installed" gpu_x:"SKIP: no CUDA device" quiet_one:""; do
    printf '%s\n' "1/3 Testing: ${t%%:*}" "1/3 Test: ${t%%:*}" "Command: \"x\"" "Output:" \
        "----------------------------------------------------------" "some line" "${t#*:}" "<end of output>" \
        "Test Passed."
done > "$tmp/Testing/Temporary/LastTest.log"
report=$(sh "$src/tests/skip_report.sh" "$tmp/out" "$tmp")
echo "$report"
grep -q "cli_usage *SKIP: NumPy is not installed" <<<"$report" || { echo "FAIL: cli_usage reason"; exit 1; }
grep -q "gpu_x *SKIP: no CUDA device" <<<"$report" || { echo "FAIL: gpu_x reason"; exit 1; }
grep -q "quiet_one *some line" <<<"$report" || { echo "FAIL: fallback to the last output line"; exit 1; }
printf 'All tests passed\n' > "$tmp/out"
[ -z "$(sh "$src/tests/skip_report.sh" "$tmp/out" "$tmp")" ] || { echo "FAIL: report without skips"; exit 1; }
echo "skip report: ok"
