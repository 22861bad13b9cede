#!/usr/bin/env python3
"""Checks the GPU-scheme side of `liftwave bench` on any machine (no device
needed): `--scheme list` (the table of the papers' schemes, or one line when
the build has none), `--scheme all` refused on the cpu backend with one clear
line, `--sizes-mpix`, the short options and the papers' table (`--table`).

Usage: test_bench_schemes.py LIFTWAVE_EXE
"""
import json
import re
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(exe, args):
    p = subprocess.run([exe, "bench"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def check_list(exe):
    """Returns (number of schemes listed, whether a CUDA device is present)."""
    rc, out, err = run(exe, ["--scheme", "list"])
    if rc != 0 or err:
        fail("--scheme list: rc=%d stderr=%r" % (rc, err))
        return 0, False
    lines = out.splitlines()
    if len(lines) == 1:
        if "no GPU schemes" not in lines[0] or "without CUDA" not in lines[0]:
            fail("--scheme list without schemes should say so: %r" % lines[0])
        return 0, False
    if not lines or not lines[0].startswith("scheme") or "barriers" not in lines[0]:
        fail("--scheme list: no header line: %r" % lines[:1])
        return 0, False
    rows = [l for l in lines[1:] if not l.startswith("#")]
    names = set()
    for r in rows:
        f = r.split()
        if len(f) < 6:
            fail("--scheme list: short row %r" % r)
            continue
        name, paper, inv, ops, bars = f[:5]
        if name in names:
            fail("--scheme list: %s listed twice" % name)
        names.add(name)
        if name == "auto":
            continue
        if paper not in ("000", "003", "004"):
            fail("--scheme list: %s: paper %r" % (name, paper))
        if inv not in ("yes", "no"):
            fail("--scheme list: %s: inverse %r" % (name, inv))
        for v, what in ((ops, "ops"), (bars, "barriers")):
            if v != "?" and not re.fullmatch(r"\d+", v):
                fail("--scheme list: %s: %s %r" % (name, what, v))
    if "auto" not in names:
        fail("--scheme list: the default engine 'auto' is not listed")
    for h in ("galiano", "laan", "blazewicz1", "blazewicz4"):
        for v in ("laan", "blazewicz", "kucis"):
            if "sep:%s+%s" % (h, v) not in names:
                fail("--scheme list: sep:%s+%s missing" % (h, v))
    device = not any(l.startswith("# no CUDA device") for l in lines)
    return len(names) - 1, device


def check_all_refused(exe, device):
    for args in (["--scheme", "all", "--backend", "cpu"], ["--scheme", "all", "--backend", "cpu-ref"]) + (
            () if device else (["--scheme", "all"],)):
        rc, out, err = run(exe, args + ["--shape", "64x64"])
        el = err.strip().splitlines()
        if rc != 2 or out or len(el) != 1 or not el[0].startswith("liftwave: bench:") or \
                "--scheme all" not in el[0] or "cuda" not in el[0]:
            fail("%s: want exit 2 and one line naming --scheme all and cuda; rc=%d out=%r err=%r"
                 % (" ".join(args), rc, out[:200], err))
    rc, out, err = run(exe, ["--scheme", "all,auto", "--backend", "cuda"])
    if rc != 2 or out:
        fail("--scheme all,auto should be a usage error; rc=%d" % rc)


def check_sizes_and_table(exe):
    rc, out, err = run(exe, ["-b", "cpu", "-w", "cdf53", "--sizes-mpix", "0.001,0.01", "--repeat", "2", "--json"])
    if rc != 0:
        fail("--sizes-mpix: rc=%d err=%r" % (rc, err))
        return
    recs = [json.loads(l) for l in out.splitlines()]
    shapes = [r["shape"] for r in recs]
    if shapes != [[32, 32], [102, 102]] or any(r["wavelet"] != "cdf53" for r in recs):
        fail("--sizes-mpix 0.001,0.01 -w cdf53: got shapes %r" % shapes)
    if not all(r["verified"] for r in recs):
        fail("--sizes-mpix: records not verified")
    for bad in (["--sizes-mpix", "abc"], ["--sizes-mpix", "0"], ["--sizes-mpix", "1,,2"]):
        rc, out, err = run(exe, ["-b", "cpu"] + bad)
        if rc != 2 or out or not err.startswith("liftwave: bench:"):
            fail("%s: want a usage error, rc=%d" % (" ".join(bad), rc))
    # the papers' table: a row per scheme and wavelet with ps/px at 1 Mpixel
    rc, out, err = run(exe, ["-b", "cpu", "--shape", "1024x1024,64x64", "-w", "haar", "--repeat", "2", "--table"])
    rows = [l.split() for l in out.splitlines() if l.startswith("auto ")]
    if rc != 0 or len(rows) != 1:
        fail("--table: want one table row for auto/haar; rc=%d out=%r" % (rc, out))
    else:
        f = rows[0]
        if f[1:6] != ["haar", "fwd", "float32", "symmetric", "1"]:
            fail("--table row: %r" % f)
        try:
            ps = float(f[6])
            frac = float(f[7])
            if not (ps > 0 and frac > 0) or f[8] != "-":
                fail("--table row values: %r" % f)
        except (ValueError, IndexError):
            fail("--table row: %r" % f)
    rc, out, err = run(exe, ["-b", "cpu", "--shape", "1024x1024", "-w", "haar", "--repeat", "2", "--table", "--json"])
    try:
        recs = [json.loads(l) for l in out.splitlines()]
    except ValueError:
        recs = None
        fail("--table --json: stdout must stay JSON lines: %r" % out[:300])
    if rc != 0 or recs is None or len(recs) != 1 or "ps/px@1M" not in err:
        fail("--table --json: want one record on stdout and the table on stderr; rc=%d" % rc)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = sys.argv[1]
    n, device = check_list(exe)
    print("schemes listed: %d (CUDA device: %s)" % (n, "yes" if device else "no"))
    check_all_refused(exe, device)
    check_sizes_and_table(exe)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
