#!/bin/sh
# List the tests a ctest run skipped, each with the reason it printed (its
# "SKIP: ..." line, else its last line of output).  `make check` runs this
# after ctest, whose own summary says only "(Skipped)".
#
# usage: sh tests/skip_report.sh CTEST_STDOUT_FILE BUILD_DIR
out=$1
log=$2/Testing/Temporary/LastTest.log
skipped=$(sed -n 's/^[[:space:]]*[0-9]* - \([A-Za-z0-9_.-]*\) (Skipped)$/\1/p' "$out" 2>/dev/null)
[ -n "$skipped" ] || exit 0
echo
echo "Skipped tests, and why:"
for t in $skipped; do
    reason=$(awk -v t="$t" '
        $0 ~ ("^[0-9]+/[0-9]+ Test: " t "$") { mine = 1; next }
        mine && $0 == "Output:" { out = 1; getline; next }
        out && $0 == "<end of output>" { exit }
        out && /^SKIP/ { print; found = 1; exit }
        out && NF { last = $0 }
        END { if (!found && last != "") print last }' "$log" 2>/dev/null)
    printf '  %-30s %s\n' "$t" "${reason:-(printed no reason)}"
done
