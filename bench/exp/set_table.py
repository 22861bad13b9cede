#!/usr/bin/env python3
"""The table of a timing set's A/B (bench/exp/*_set.sh run once per CLI and round, TAG=<cli>-<round>):
each case's best median over the rounds for each CLI, in microseconds, and each CLI's time over the
first one's; a case not verified in every record is marked.
    python3 bench/exp/set_table.py DIR old new m6      (DIR holds ab-<cli>-<round>-1.json)"""
import glob
import json
import os
import sys

d, clis = sys.argv[1], sys.argv[2:]
t = {}  # case -> cli -> [median_s], verified
ok = {}
for c in clis:
    for f in sorted(glob.glob(os.path.join(d, "ab-%s-*.json" % c))):
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "median_s" not in r:
                continue
            key = "%s %s %s L%d %s %s%s%s%s" % (r["wavelet"], "x".join(map(str, r["shape"])), r["dtype"], r["levels"],
                                              r.get("mode", ""), r["direction"],
                                              "" if not r.get("axes") else " axes " + ",".join(map(str, r["axes"])),
                                              "" if r.get("layout", "mallat") == "mallat" else " " + r["layout"],
                                              " in place" if r.get("inplace") else "")
            t.setdefault(key, {}).setdefault(c, []).append(r["median_s"])
            ok[key] = ok.get(key, True) and bool(r.get("verified"))
print("case | " + " | ".join("%s us" % c for c in clis) + " | " + " | ".join("%s/%s" % (c, clis[0]) for c in clis[1:]))
ratios = {c: [] for c in clis[1:]}
for k, v in t.items():
    best = [min(v[c]) * 1e6 if c in v else None for c in clis]
    row = [("%.1f" % b) if b else "-" for b in best]
    for c, b in zip(clis[1:], best[1:]):
        if b and best[0]:
            ratios[c].append(b / best[0])
            row.append("%.3f" % (b / best[0]))
        else:
            row.append("-")
    print(k + " | " + " | ".join(row) + ("" if ok[k] else " | NOT VERIFIED"))
for c, r in ratios.items():
    if r:
        r = sorted(r)
        print("%s/%s: median %.3f, min %.3f, max %.3f over %d cases" % (c, clis[0], r[len(r) // 2], r[0], r[-1], len(r)))
