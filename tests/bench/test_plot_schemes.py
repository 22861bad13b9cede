#!/usr/bin/env python3
"""Runs bench/plot_schemes.py on generated records (a results file with a
"results" key, one with a "records" key, a JSON array and a one-record-per-line
file, mixing CLI and gpu_bench records) and checks its PNG files and markdown
table.  Exits 77 (skipped) when matplotlib cannot be imported.

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
SIDES = [324, 1024, 3238, 8192]  # --sizes-mpix 0.1,1,10,64: 1024^2 = 1 Mpixel, 3238^2 = 10.0 Mpixel (2^20)


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg)


def cli(wavelet, scheme, n, ps, direction="forward", frac=None, with_rates=True):
    """A `liftwave bench --json` record of an n x n float32 run at ps picoseconds per sample."""
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


def gpu_bench(wavelet, scheme, n, ps, frac, engine=None):
    """A gpu_bench record: no backend or mode, a case name, maybe an engine."""
    r = cli(wavelet, scheme, n, ps, frac=frac)
    del r["backend"], r["mode"]
    r["case"] = f"{scheme}-{wavelet}-{n}"
    if engine:
        r["engine"] = engine
    return r


def run(script, out, files):
    p = subprocess.run([sys.executable, script, "--out", out] + files, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=180)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def table_rows(text):
    rows = {}
    for line in text.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[tuple(cells[:3])] = cells[3:]
    return rows


def main():
    script = sys.argv[1]
    results, records, arr, lines = [], [], [], []
    for n in SIDES:
        results.append(cli("cdf97", "auto", n, 5.0, frac=0.8))                 # CLI: backend cuda, scheme auto
        results.append(cli("cdf97", "sep:laan+kucis", n, 20.0, frac=0.2))
        results.append(cli("cdf97", "sep:blazewicz4+kucis", n, 15.0, frac=0.3))
        results.append(cli("cdf97", "sep:laan+kucis", n, 30.0, direction="inverse", frac=0.1))
        records.append(gpu_bench("cdf97", "monolithic*", n, 6.0, 0.7))
        records.append(gpu_bench("cdf97", "monolithic*:single", n, 7.0, 0.6))
        records.append(gpu_bench("cdf97", "auto", n, 5.5, 0.75, engine="tile2d"))  # gpu_bench: auto + engine
        arr.append(gpu_bench("cdf53", "sweldens", n, 4.0, 0.9))
        arr.append(gpu_bench("cdf53", "auto", n, 3.0, 0.95, engine="tile2d"))
        lines.append(cli("fs", "fs", n, 10.0 + n / 1024.0, frac=0.5, with_rates=False))
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, f) for f in ("sep.json", "block.json", "arr.json", "fs.jsonl")]
        with open(paths[0], "w") as f:
            json.dump({"device": "test", "results": results}, f)
        with open(paths[1], "w") as f:
            json.dump({"device": "test", "records": records}, f)
        with open(paths[2], "w") as f:
            json.dump(arr, f)
        with open(paths[3], "w") as f:
            f.write("case  scheme  (a table line between records is skipped)\n")
            for r in lines:
                f.write(json.dumps(r) + "\n")
        out = os.path.join(tmp, "plots")
        rc, so, se = run(script, out, paths)
        check(rc == 0, f"exit {rc}: {se}")
        want = [f"{w}-{fam}-{m}.png" for w, fam in (("cdf97", "sep"), ("cdf97", "block"), ("cdf53", "block"),
                                                     ("fs", "engines")) for m in ("gsamples", "frac")]
        for name in want:
            path = os.path.join(out, name)
            ok = os.path.isfile(path)
            check(ok, f"{name} not written")
            if ok:
                with open(path, "rb") as f:
                    head = f.read(8)
                check(head == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG")
                check(os.path.getsize(path) > 5000, f"{name} is suspiciously small")
        got = sorted(f for f in os.listdir(out) if f.endswith(".png")) if os.path.isdir(out) else []
        check(got == sorted(want), f"PNG files {got}, want {sorted(want)} (auto alone gets no engines plot)")
        tpath = os.path.join(out, "schemes.md")
        table = open(tpath).read() if os.path.isfile(tpath) else ""
        check(table == so, "table printed differs from schemes.md")
        rows = table_rows(table)
        # auto: one label for the CLI's and gpu_bench's default engine; at one size the median of the two
        for key in rows:
            check(key[1] == "auto" or "auto" not in key[1] and key[1] not in ("cuda", "tile2d"),
                  f"default engine labelled {key[1]!r}")
        a97 = rows.get(("cdf97", "auto", "forward"))
        check(a97 is not None and a97[0] == "5.0 (1 MP)" and a97[2] == "5.0 (10 MP)" and a97[3] == "0.80",
              f"cdf97 auto row: {a97!r}")
        check(rows.get(("cdf53", "auto", "forward"), [""])[0] == "3.0 (1 MP)", "cdf53 auto row")
        lk = rows.get(("cdf97", "sep:laan+kucis", "forward"))
        check(lk == ["20.0 (1 MP)", "0.20", "20.0 (10 MP)", "0.20"], f"laan+kucis forward row: {lk!r}")
        check(("cdf97", "sep:laan+kucis", "inverse") in rows, "laan+kucis inverse row missing")
        ms = rows.get(("cdf97", "monolithic*:single", "forward"))
        check(ms is not None and ms[0] == "7.0 (1 MP)" and ms[1] == "0.60", f"monolithic*:single row: {ms!r}")
        fs = rows.get(("fs", "fs", "forward"))  # rates derived from median_s: 10 + 1024/1024 = 11 ps
        check(fs is not None and fs[0] == "11.0 (1 MP)" and fs[2] == "13.2 (10 MP)" and fs[3] == "0.50",
              f"fs row: {fs!r}")
        order = [k[1] for k in rows if k[0] == "cdf97"]
        check(order[:1] == ["auto"], f"auto is not the first cdf97 row: {order}")
        check(len(rows) == 9, f"{len(rows)} table rows, want 9: {sorted(rows)}")
        # no usable records: exit 2 with one line
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump([{"nothing": 1}], f)
        rc, so, se = run(script, out, [bad])
        check(rc == 2 and len(se.strip().splitlines()) == 1, f"no records: exit {rc}, stderr {se!r}")
    print(f"plot_schemes: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
