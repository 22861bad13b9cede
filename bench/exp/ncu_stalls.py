#!/usr/bin/env python3
"""Where a kernel's warps wait, from Nsight Compute's SASS source page (`ncu ... --page source
--print-source sass --csv`, plain or gzipped): the stall-reason samples in total, per phase (the
code between two BAR.SYNCs in address order), and the SASS lines that hold the most samples of
the chosen reasons.  A warp waiting at a barrier is sampled on the instruction after it.

    python3 bench/exp/ncu_stalls.py NCU_SOURCE.csv[.gz] ... [--top N] [--reasons barrier,short_sb]
"""
import argparse
import collections
import csv
import gzip


def table(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith('"Address"'))
    t = list(csv.reader(lines[start:]))
    return t[0], [r for r in t[1:] if len(r) >= len(t[0])]


def num(x):
    try:
        return int(x.replace(",", ""))
    except ValueError:
        return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--reasons", default="barrier,short_sb,wait")
    a = ap.parse_args()
    for path in a.paths:
        head, rows = table(path)
        cols = [i for i, c in enumerate(head) if c.startswith("stall_") and "Not Issued" not in c]
        total, by_phase = collections.Counter(), collections.defaultdict(collections.Counter)
        phase = 0
        for r in rows:
            for i in cols:
                total[head[i][6:]] += num(r[i])
                by_phase[phase][head[i][6:]] += num(r[i])
            if "BAR.SYNC" in r[1]:
                phase += 1
        n = sum(total.values()) or 1
        print("==", path, "samples", n)
        print("  all:", ", ".join("%s %.1f%%" % (k, 100 * v / n) for k, v in total.most_common(8)))
        for p in sorted(by_phase):
            s = sum(by_phase[p].values())
            if s:
                top = ", ".join("%s %.1f" % (k, 100 * v / n) for k, v in by_phase[p].most_common(5))
                print("  phase %d %.1f%%: %s" % (p, 100 * s / n, top))
        ie = head.index("Instructions Executed")
        for reason in a.reasons.split(","):
            i = head.index("stall_" + reason)
            print("  lines with most %s:" % reason)
            for k, r in sorted(enumerate(rows), key=lambda kr: -num(kr[1][i]))[: a.top]:
                print("    %5d %5.1f%%  %-48s executed %s" % (k, 100 * num(r[i]) / n, r[1].strip()[:48], r[ie]))


if __name__ == "__main__":
    main()
