#!/usr/bin/env python3
"""Checks the GPU-scheme side of `liftwave bench` on any machine (no device
needed): `--scheme list` (the table of the papers' schemes, or one line when
the build has none), `--scheme list --wavelet ...` (operations and barriers
counted from the kernels: the block schemes' equal the paper's Table 2),
`--scheme all` refused on the cpu backend with one clear line,
`--sizes-mpix`, the short options and the papers' table (`--table`).

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
    engines = [l.split()[1:3] for l in lines if l.startswith("#   ")]
    for want in (["cpu", "nd"], ["cpu", "vol"], ["cpu", "fs"]):
        if want not in engines:
            fail("--scheme list: engine %s missing from %r" % (want, engines))
    if lines and "no GPU schemes" in lines[0]:
        if "without CUDA" not in lines[0] or any(not l.startswith("#") for l in lines[1:]):
            fail("--scheme list without schemes should say so: %r" % lines)
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
    fs = [r.split() for r in rows if r.split()[:1] == ["fs"]]
    if not fs or fs[0][1:3] != ["004", "yes"]:
        fail("--scheme list: fs (paper 004, with an inverse) missing: %r" % fs)
    device = not any(l.startswith("# no CUDA device") for l in lines)
    return len(names) - 1, device


# Barina, Kula and Zemcik (paper 003), Table 2, transcribed for this test:
# (barriers, operations) per wavelet in the paper's row order.
TABLE2_ROWS = ("sweldens", "iwahashi", "iwahashi*", "explosive", "explosive*", "monolithic", "monolithic*",
               "polyphase", "polyphase*", "convolution")
TABLE2 = {
    "cdf53": ((4, 16), (3, 24), (3, 18), (3, 24), (3, 18), (2, 24), (2, 18), (1, 63), (1, 23), (1, 64)),
    "cdf97": ((8, 32), (6, 48), (6, 36), (6, 48), (6, 36), (4, 48), (4, 36), (2, 126), (2, 46), (1, 256)),
    "dd137": ((4, 32), (3, 64), (3, 50), (3, 64), (3, 50), (2, 64), (2, 50), (1, 255), (1, 203), (1, 256)),
}


def check_costs(exe):
    """--scheme list --wavelet: counts per wavelet; the block schemes' equal Table 2."""
    rc, out, err = run(exe, ["--scheme", "list", "--wavelet", "cdf53,cdf97,dd137,fs"])
    if rc != 0 or err:
        fail("--scheme list --wavelet: rc=%d stderr=%r" % (rc, err))
        return
    lines = out.splitlines()
    if lines and "no GPU schemes" in lines[0]:
        return  # a build without CUDA: nothing to count
    if not lines or lines[0].split() != ["wavelet", "scheme", "paper", "inverse", "ops/quad", "ops:paper",
                                         "barriers", "barriers:paper"]:
        fail("--scheme list --wavelet: header %r" % lines[:1])
        return
    rows = {}
    for l in lines[1:]:
        if l.startswith("#"):
            continue
        f = l.split()
        if len(f) != 8:
            fail("--scheme list --wavelet: row %r" % l)
            continue
        rows[(f[0], f[1])] = f[2:]
    for wav, entries in TABLE2.items():
        for name, (bars, ops) in zip(TABLE2_ROWS, entries):
            for buf in ("", ":single"):
                r = rows.get((wav, name + buf))
                if name == "convolution" and buf:
                    if r:
                        fail("convolution has no single-buffered variant")
                    continue
                if not r:
                    fail("%s %s%s: no counts" % (wav, name, buf))
                    continue
                paper, _, o, po, b, pb = r
                if paper != "003" or float(o) != ops or po != str(ops):
                    fail("%s %s%s: ops %s (paper column %s), Table 2 has %d" % (wav, name, buf, o, po, ops))
                want_b = 2 * bars - 1 if buf else bars  # single buffering: a second barrier per rewrite
                if b != str(want_b) or pb != ("-" if buf else str(bars)):
                    fail("%s %s%s: barriers %s (paper column %s), want %d (Table 2: %d)"
                         % (wav, name, buf, b, pb, want_b, bars))
        seps = [k for k in rows if k[0] == wav and k[1].startswith("sep:")]
        if len(seps) != 12 or any(rows[k][3] != "-" or rows[k][5] != "-" for k in seps):
            fail("%s: want the 12 sep schemes with empty paper columns: %r" % (wav, seps))
    # the separable passes of 000 as its text counts CDF 9/7: 9+7 filter taps (galiano), 4 steps x 2 taps
    # (laan), 10 step evaluations per pair (blazewicz1, Fig. 1), 22 per 4 pairs (blazewicz4, kucis)
    for name, ops, bars in (("sep:galiano+laan", 32 + 16, 2 + 5), ("sep:laan+laan", 16 + 16, 5 + 5),
                            ("sep:blazewicz1+kucis", 40 + 22, 2 + 2), ("sep:blazewicz4+blazewicz", 22 + 22, 2 + 6)):
        r = rows.get(("cdf97", name))
        if not r or float(r[2]) != ops or r[4] != str(bars):
            fail("cdf97 %s: want %d ops/quad and %d barriers, got %r" % (name, ops, bars, r))
    fs = [k for k in rows if k[0] == "fs"]
    if fs != [("fs", "fs")] or rows[("fs", "fs")][0] != "004":
        fail("fs: want the fs scheme alone (paper 004): %r" % fs)
    if any(k[1] == "fs" for k in rows if k[0] != "fs"):
        fail("the fs scheme is listed for another wavelet")


def check_all_refused(exe, device):
    # an explicit cpu backend contradicts --scheme all (usage, 2); auto on a
    # machine without a device is a runtime error (1), as for any scheme
    cases = [(["--scheme", "all", "--backend", "cpu"], 2), (["--scheme", "all", "--backend", "cpu-ref"], 2)]
    if not device:
        cases.append((["--scheme", "all"], 1))
    for args, want in cases:
        rc, out, err = run(exe, args + ["--shape", "64x64"])
        el = err.strip().splitlines()
        if rc != want or out or len(el) != 1 or not el[0].startswith("liftwave: bench:") or \
                "--scheme all" not in el[0] or "cuda" not in el[0]:
            fail("%s: want exit %d and one line naming --scheme all and cuda; rc=%d out=%r err=%r"
                 % (" ".join(args), want, rc, out[:200], err))
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
    check_costs(exe)
    check_all_refused(exe, device)
    check_sizes_and_table(exe)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
