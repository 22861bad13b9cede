#!/usr/bin/env python3
"""Where a kernel's instructions go, from Nsight Compute's SASS source page
(`ncu ... --page source --print-source sass --csv`): the warp instructions executed in
total and per phase (the code between two BAR.SYNCs), then the SASS lines grouped by
(phase, how many times a warp ran them), which separates the code every warp runs from the
interior tiles' and the edge tiles' paths, with each group's commonest opcodes.

    python3 bench/exp/ncu_sass_classes.py NCU_SOURCE.csv [GROUPS]
"""
import collections
import csv
import re
import sys


def rows(path):
    lines = open(path).read().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith('"Address"'))
    table = list(csv.reader(lines[start:]))
    head = table[0]
    ci, cs = head.index("Instructions Executed"), head.index("Source")
    phase = 0
    for r in table[1:]:
        if len(r) <= ci:
            continue
        try:
            n = int(r[ci].replace(",", ""))
        except ValueError:
            continue
        op = re.sub(r"^@!?U?P\w+\s+", "", r[cs].strip()).split(" ")[0]
        yield phase, n, op
        if op.startswith("BAR"):
            phase += 1


def main():
    path, groups = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8
    total, per_phase = 0, collections.Counter()
    dyn, lines_of, ops = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
    for phase, n, op in rows(path):
        total += n
        per_phase[phase] += n
        if n:
            dyn[(phase, n)] += n
            lines_of[(phase, n)] += 1
            ops[(phase, n)][op] += 1
    print("total warp instructions %.1f M" % (total / 1e6))
    for p in sorted(per_phase):
        print("phase %d: %.1f%%" % (p, 100.0 * per_phase[p] / total))
    for k in sorted(dyn, key=lambda k: -dyn[k])[:groups]:
        print("phase %d, run %6d times: %4d lines, %.2f M: %s" % (k[0], k[1], lines_of[k], dyn[k] / 1e6,
                                                                 ", ".join("%s %d" % o for o in ops[k].most_common(6))))


if __name__ == "__main__":
    main()
