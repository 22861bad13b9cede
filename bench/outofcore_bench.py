#!/usr/bin/env python3
"""Out-of-core CLI benchmark (bench/NOTES-outofcore.md): a 2-D float32 .npy of
2 GiB transformed in memory and with --memory-limit, peak RSS and wall time
of each run (/usr/bin/time), outputs compared byte for byte.

usage: outofcore_bench.py LIFTWAVE WORKDIR [--limit 256M] [--reps 3] [--backend cpu] [--json OUT.json]

Before each run the page cache is flushed to disk (sync) so that one run's
writeback does not fall into the next; the runs alternate in memory / out of
core.  Every run writes 2 GiB and fsyncs it, so disk write speed is part of
every time (measured here with dd, printed with the results).
"""
import argparse
import datetime
import filecmp
import json
import os
import platform
import statistics
import subprocess
import sys

import numpy as np

SHAPE = (16384, 32768)  # float32: 2 GiB
CLI = [None]


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def timed(cmd, cwd):
    subprocess.run(["sync"])
    p = subprocess.run(["/usr/bin/time", "-f", "@@ %M %e", CLI[0]] + cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
    tail = [l for l in p.stderr.splitlines() if l.startswith("@@ ")][-1].split()
    return int(tail[1]) * 1024, float(tail[2]), p.stdout.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("workdir")
    ap.add_argument("--limit", default="256M")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--json")
    a = ap.parse_args()
    CLI[0] = os.path.abspath(a.cli)
    os.makedirs(a.workdir, exist_ok=True)
    src = os.path.join(a.workdir, "a2g.npy")
    if not os.path.exists(src):
        m = np.lib.format.open_memmap(src, mode="w+", dtype=np.float32, shape=SHAPE)
        rng = np.random.default_rng(5)
        for i in range(0, SHAPE[0], 1024):
            m[i:i + 1024] = rng.standard_normal((1024, SHAPE[1]), dtype=np.float32)
        del m
    dd = subprocess.run(["dd", "if=/dev/zero", "of=" + os.path.join(a.workdir, "dd.tmp"), "bs=4M", "count=512",
                         "conv=fsync"], capture_output=True, text=True).stderr.strip().splitlines()[-1]
    os.remove(os.path.join(a.workdir, "dd.tmp"))
    cases = [("forward", 1), ("forward", 3), ("inverse", 3)]
    results = []
    for direction, levels in cases:
        if direction == "forward":
            base = [direction, "a2g.npy", "OUT", "-w", "cdf97", "-l", str(levels), "-b", a.backend, "-q"]
        else:
            base = [direction, "c%d.npy" % levels, "OUT", "-b", a.backend, "-q"]
        mem, ooc = [], []
        for r in range(a.reps):
            mem.append(timed([x if x != "OUT" else "mem.npy" for x in base], a.workdir))
            ooc.append(timed([x if x != "OUT" else "ooc.npy" for x in base] + ["--memory-limit", a.limit, "-v"],
                             a.workdir))
        equal = filecmp.cmp(os.path.join(a.workdir, "mem.npy"), os.path.join(a.workdir, "ooc.npy"), shallow=False)
        if direction == "forward":
            os.replace(os.path.join(a.workdir, "mem.npy"), os.path.join(a.workdir, "c%d.npy" % levels))
            os.replace(os.path.join(a.workdir, "mem.npy.json"), os.path.join(a.workdir, "c%d.npy.json" % levels))
        rec = {"backend": a.backend, "direction": direction, "wavelet": "cdf97", "levels": levels, "shape": list(SHAPE), "dtype": "float32",
               "array_bytes": SHAPE[0] * SHAPE[1] * 4, "memory_limit": a.limit,
               "in_memory": {"peak_rss_bytes": max(m[0] for m in mem), "wall_s": [m[1] for m in mem],
                             "median_s": statistics.median(m[1] for m in mem)},
               "out_of_core": {"peak_rss_bytes": max(o[0] for o in ooc), "wall_s": [o[1] for o in ooc],
                               "median_s": statistics.median(o[1] for o in ooc), "verbose": ooc[-1][2]},
               "time_ratio": statistics.median(o[1] for o in ooc) / statistics.median(m[1] for m in mem),
               "output_equal": equal}
        results.append(rec)
        print(json.dumps(rec))
        sys.stdout.flush()
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=os.path.dirname(os.path.abspath(__file__)),
                            capture_output=True, text=True).stdout.strip()
    doc = {"device": "cpu: %s %d cores" % (cpu_model(), os.cpu_count()), "commit": commit,
           "date": datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": "python3 bench/outofcore_bench.py LIFTWAVE WORKDIR --limit %s --reps %d --backend %s" % (
               a.limit, a.reps, a.backend),
           "method": "each run: sync, then /usr/bin/time -f '%M %e' liftwave ...; in memory and out of core "
                     "alternate; peak RSS = max over the reps, time = median; disk: " + dd,
           "results": results}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
