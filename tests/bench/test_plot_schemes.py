#!/usr/bin/env python3
"""Runs bench/plot_schemes.py on generated records (a JSON array file and a
one-record-per-line file) and checks its PNG files and markdown table.
Exits 77 (skipped) when matplotlib cannot be imported.

Usage: test_plot_schemes.py PLOT_SCHEMES_PY
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import matplotlib  # noqa: F401
except ImportError:
    print("SKIP: matplotlib is not installed (pip install matplotlib to run this test)")
    sys.exit(77)

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg)


def record(wavelet, scheme, n, ps, direction="forward", frac=None, with_rates=True):
    """One synthetic record of an n x n float32 run taking ps picoseconds per sample."""
    samples = n * n
    r = {"wavelet": wavelet, "scheme": scheme, "backend": "cuda", "shape": [n, n], "dtype": "float32",
         "levels": 1, "mode": "symmetric", "direction": direction, "config": "G2G",
         "median_s": ps * 1e-12 * samples}
    if with_rates:
        r["gsamples_per_s"] = samples / r["median_s"] / 1e9
        r["ps_per_sample"] = ps
    if frac is not None:
        r["fraction_of_bound"] = frac
    return r


def main():
    script = sys.argv[1]
    sizes = [256, 512, 1024, 2048, 3162, 4096, 8192]
    arr = []
    for n in sizes:  # cdf97: two schemes, the second twice as fast
        arr.append(record("cdf97", "blazewicz", n, 40.0, frac=0.4))
        arr.append(record("cdf97", "laan", n, 20.0, frac=0.8))
        arr.append(record("cdf97", "laan", n, 30.0, direction="inverse", frac=0.5))
    lines = [record("fs", "fs", n, 10.0 + n / 1024.0, frac=0.9, with_rates=False) for n in sizes]
    with tempfile.TemporaryDirectory() as tmp:
        fa, fl, out = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.jsonl"), os.path.join(tmp, "plots")
        with open(fa, "w") as f:
            json.dump(arr, f)
        with open(fl, "w") as f:
            f.write("case  scheme  (a table line between records is skipped)\n")
            for r in lines:
                f.write(json.dumps(r) + "\n")
        p = subprocess.run([sys.executable, script, "--out", out, fa, fl], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
        so, se = p.stdout.decode(), p.stderr.decode()
        check(p.returncode == 0, f"exit {p.returncode}: {se}")
        for name in ("cdf97-gsamples.png", "cdf97-ps.png", "fs-gsamples.png", "fs-ps.png"):
            path = os.path.join(out, name)
            ok = os.path.isfile(path)
            check(ok, f"{name} not written")
            if ok:
                with open(path, "rb") as f:
                    head = f.read(8)
                check(head == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG")
                check(os.path.getsize(path) > 5000, f"{name} is suspiciously small")
        table = open(os.path.join(out, "schemes.md")).read() if os.path.isfile(os.path.join(out, "schemes.md")) else ""
        check(table == so, "table printed differs from schemes.md")
        rows = {tuple(c.strip() for c in l.strip("|").split("|")[:3]): l for l in table.splitlines()[2:]}
        # ~1 Mpix: 1024x1024 (1.05 MP); ~10 Mpix: 3162x3162 (10.0 MP)
        lw = rows.get(("cdf97", "laan", "forward"), "")
        check("20.0 (1 MP)" in lw and "20.0 (10 MP)" in lw and "| 0.80 |" in lw, f"laan forward row: {lw!r}")
        check(("cdf97", "laan", "inverse") in rows, "laan inverse row missing")
        bz = rows.get(("cdf97", "blazewicz", "forward"), "")
        check("40.0 (1 MP)" in bz and "| 0.40 |" in bz, f"blazewicz row: {bz!r}")
        fs = rows.get(("fs", "fs", "forward"), "")  # rates derived from median_s: 10 + 1024/1024 = 11 ps
        check("11.0 (1 MP)" in fs and "13.1 (10 MP)" in fs and "| 0.90 |" in fs, f"fs row: {fs!r}")
        # no usable records: exit 2 with one line
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump([{"nothing": 1}], f)
        p = subprocess.run([sys.executable, script, "--out", out, bad], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 2 and len(p.stderr.decode().strip().splitlines()) == 1,
              f"no records: exit {p.returncode}, stderr {p.stderr.decode()!r}")
    print(f"plot_schemes: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
