#!/usr/bin/env python3
"""Checks `liftwave bench`: JSON records (keys, types, values, internal
consistency), the table, --help, the CUDA configs (record or clean error) and
bad options (exit 2, one 'liftwave:' line on stderr, nothing on stdout).

Usage: test_bench_cli.py LIFTWAVE_EXE
"""
import json
import math
import re
import subprocess
import sys

KEYS = {
    "wavelet": str, "levels": int, "shape": list, "axes": list, "dtype": str, "mode": str, "layout": str,
    "backend": str, "scheme": str, "direction": str, "config": str, "inplace": bool,
    "median_s": float, "gsamples_per_s": float,
    "ps_per_sample": float, "effective_gbps": float, "bound": str, "bound_gbps": float,
    "fraction_of_bound": float, "threads": int, "device": str, "commit": str, "date": str,
    "verified": bool,
}
# keys only GPU records carry (device memory beyond in/out, the destroy-input flag)
CUDA_KEYS = {"extra_device_bytes": int, "destroy_input": bool}
# keys only host records carry (the best of the copies beside their median)
HOST_KEYS = {"bound_best_gbps": float, "fraction_of_best_bound": float}
ITEMSIZE = {"float32": 4, "float64": 8, "int32": 4}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(exe, args):
    p = subprocess.run([exe, "bench"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def lowpass(n, k):
    for _ in range(k):
        if n > 1:
            n = (n + 1) // 2
    return n


def max_levels(shape):
    best = None
    for n in shape:
        if n == 1:
            continue
        lv = 0
        while n > 1:
            n = (n + 1) // 2
            lv += 1
        best = lv if best is None else min(best, lv)
    return best or 0


def close(a, b, rel=2e-3):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_record(rec, where, want=None):
    """Keys and types exactly; values self-consistent; fields equal to want."""
    keys = dict(KEYS)
    if rec.get("backend") == "cuda":
        keys.update(CUDA_KEYS)
    elif rec.get("config") == "host":  # the cpu backend's SIMD path (null for cpu-ref)
        simd = rec.get("simd", "missing")
        want_simd = (None,) if rec.get("backend") == "cpu-ref" else ("scalar", "sse2", "avx2", "avx512")
        if simd not in want_simd:
            fail("%s: simd = %r, expected one of %r" % (where, simd, want_simd))
        rec = {k: v for k, v in rec.items() if k != "simd"}
        keys.update(HOST_KEYS)
    if set(rec) != set(keys):
        fail("%s: keys %s, expected %s" % (where, sorted(rec), sorted(keys)))
        return
    for k, t in keys.items():
        v = rec[k]
        ok = isinstance(v, t) and not (t is int and isinstance(v, bool))
        if t is float:  # JSON writes 2e-05 or 5 either way
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        if not ok:
            fail("%s: %s = %r is not %s" % (where, k, v, t.__name__))
            return
    for k, v in (want or {}).items():
        if rec[k] != v:
            fail("%s: %s = %r, expected %r" % (where, k, rec[k], v))
    shape = rec["shape"]
    if not (1 <= len(shape) <= 3 and all(isinstance(n, int) and n >= 1 for n in shape)):
        fail("%s: bad shape %r" % (where, shape))
        return
    samples = math.prod(shape)
    t = rec["median_s"]
    if not t > 0:
        fail("%s: median_s %r" % (where, t))
        return
    if rec["dtype"] not in ITEMSIZE or rec["direction"] not in ("forward", "inverse", "forward-adjoint", "inverse-adjoint"):
        fail("%s: dtype/direction %r/%r" % (where, rec["dtype"], rec["direction"]))
        return
    if rec["mode"] not in ("symmetric", "periodic"):
        fail("%s: mode %r" % (where, rec["mode"]))
    floor = 2 * ITEMSIZE[rec["dtype"]] * sum(math.prod(lowpass(n, k) for n in shape)
                                              for k in range(rec["levels"]))
    checks = (("gsamples_per_s", samples / t / 1e9), ("ps_per_sample", t / samples * 1e12),
              ("effective_gbps", floor / t / 1e9))
    for k, v in checks:
        if not close(rec[k], v):
            fail("%s: %s = %r, expected %r from median_s" % (where, k, rec[k], v))
    if not rec["bound_gbps"] > 0:
        fail("%s: bound_gbps %r" % (where, rec["bound_gbps"]))
    elif not close(rec["fraction_of_bound"], rec["effective_gbps"] / rec["bound_gbps"]):
        fail("%s: fraction_of_bound %r != effective/bound" % (where, rec["fraction_of_bound"]))
    host = rec["config"] == "host"
    if host and not (rec["bound_best_gbps"] >= rec["bound_gbps"] * (1 - 1e-9) and
                     close(rec["fraction_of_best_bound"], rec["effective_gbps"] / rec["bound_best_gbps"])):
        fail("%s: best copy %r GB/s below the median %r, or fraction_of_best_bound %r != effective/best" %
             (where, rec["bound_best_gbps"], rec["bound_gbps"], rec["fraction_of_best_bound"]))
    if host and (rec["bound"] != "memcpy" or rec["threads"] < 1 or rec["backend"] not in ("cpu", "cpu-ref")):
        fail("%s: host record with bound %r threads %r backend %r" % (where, rec["bound"], rec["threads"],
                                                                        rec["backend"]))
    if not host and (rec["config"] not in ("G2G", "C2C") or rec["backend"] != "cuda" or
                     rec["bound"] != {"G2G": "device-copy", "C2C": "pcie"}.get(rec["config"])):
        fail("%s: gpu record config %r backend %r bound %r" % (where, rec["config"], rec["backend"], rec["bound"]))
    if not rec["device"] or not rec["commit"]:
        fail("%s: empty device or commit" % where)
    if not DATE.match(rec["date"]):
        fail("%s: date %r is not ISO 8601 UTC" % (where, rec["date"]))
    if samples <= 64 << 20 and rec["verified"] is not True:
        fail("%s: not verified" % where)


def records(exe, args, count, want=None, label=None):
    label = label or " ".join(args)
    rc, out, err = run(exe, args + ["--json"])
    if rc != 0:
        fail("%s: exit %d: %s" % (label, rc, err.strip()))
        return []
    lines = [ln for ln in out.splitlines() if ln.strip()]
    if len(lines) != count:
        fail("%s: %d records, expected %d" % (label, len(lines), count))
    recs = []
    for i, ln in enumerate(lines):
        try:
            rec = json.loads(ln)
        except ValueError as e:
            fail("%s: line %d is not JSON (%s): %s" % (label, i + 1, e, ln))
            continue
        check_record(rec, "%s [%d]" % (label, i + 1), want)
        recs.append(rec)
    return recs


def main(argv):
    if len(argv) != 2:
        print("usage: test_bench_cli.py LIFTWAVE_EXE", file=sys.stderr)
        return 2
    exe = argv[1]
    base = ["--backend", "cpu", "--shape", "64x48", "--repeat", "3"]

    # The brief's command, several wavelets.
    wavelets = ["cdf97", "cdf53", "haar", "d4", "dd137", "fs"]
    recs = records(exe, base + ["--wavelet", ",".join(wavelets)], len(wavelets),
                   {"levels": 1, "shape": [64, 48], "dtype": "float32", "mode": "symmetric", "backend": "cpu",
                    "scheme": "auto", "direction": "forward", "config": "host", "bound": "memcpy",
                    "inplace": False, "layout": "mallat", "axes": [0, 1]})
    if [r["wavelet"] for r in recs] != wavelets:
        fail("wavelet order %s" % [r["wavelet"] for r in recs])

    # levels max resolves to a number; the floor sums the pyramid.
    records(exe, base + ["--wavelet", "haar", "--levels", "max", "--mode", "symmetric"], 1,
            {"levels": max_levels([64, 48]), "mode": "symmetric"})
    records(exe, base + ["--wavelet", "d4", "--levels", "4", "--mode", "periodic"], 1, {"mode": "periodic"})

    # Integer transforms on int32; cpu-ref backend; explicit host config.
    records(exe, base + ["--wavelet", "cdf53,haar,dd137", "--integer", "--levels", "3"], 3,
            {"dtype": "int32", "levels": 3})
    records(exe, ["--backend", "cpu-ref", "--config", "host", "--shape", "20x30", "--repeat", "2"], 1,
            {"backend": "cpu-ref", "config": "host"})

    # Comma lists: shapes of every rank, dtypes, directions -> the product.
    recs = records(exe, ["--backend", "cpu", "--repeat", "2", "--shape", "64x48,9x10x11,1000",
                         "--dtype", "float32,float64", "--direction", "forward,inverse", "--levels", "2"], 12)
    combos = {(tuple(r["shape"]), r["dtype"], r["direction"]) for r in recs}
    if len(combos) != 12:
        fail("list product: %d distinct combinations, expected 12" % len(combos))

    # Threads (OpenMP builds; a build without OpenMP refuses more than one).
    rc, out, err = run(exe, base + ["--threads", "1", "--json"])
    if rc != 0 or json.loads(out.splitlines()[0])["threads"] != 1:
        fail("--threads 1: exit %d, %s %s" % (rc, out.strip(), err.strip()))

    # Table (default output).
    rc, out, err = run(exe, base + ["--wavelet", "cdf97,haar"])
    rows = [ln for ln in out.splitlines() if ln and not ln.startswith("#")]
    if rc != 0 or len(rows) != 3 or "median_ms" not in rows[0] or err:
        fail("table: exit %d, rows %r, stderr %r" % (rc, rows, err))

    rc, out, err = run(exe, ["--help"])
    if rc != 0 or "usage: liftwave bench" not in out or "verified" not in out:
        fail("--help: exit %d" % rc)

    # CUDA configs: records when a GPU is usable, else one clear line and exit 1.
    # the adjoint directions: verified against cpu-ref like the others, named in the record
    for d in ("forward-adjoint", "inverse-adjoint"):
        for rec in records(exe, ["--backend", "cpu,cpu-ref", "--mode", "periodic,symmetric", "--shape", "64x48",
                                 "--levels", "2", "--direction", d, "--repeat", "3"], 4):
            if rec.get("direction") != d or rec.get("verified") is not True:
                fail("--direction %s: record %r" % (d, rec))
    rc, out, err = run(exe, ["--direction", "forward-adjoint", "--integer", "--wavelet", "cdf53", "--dtype", "int32",
                             "--shape", "16x16", "--backend", "cpu"])
    if rc == 0 or "adjoint" not in err:
        fail("integer adjoint bench: exit %d, stderr %r" % (rc, err))

    for cfg in ("G2G", "C2C"):
        args = ["--config", cfg, "--shape", "64x48", "--repeat", "3", "--json"]
        rc, out, err = run(exe, args)
        if rc == 0:
            records(exe, args[:-1], 1, {"config": cfg, "backend": "cuda", "threads": 0})
        elif rc != 1 or len(err.strip().splitlines()) != 1 or not err.startswith("liftwave:") or out:
            fail("--config %s without a GPU: exit %d, stderr %r, stdout %r" % (cfg, rc, err, out))

    # An engine's name as --scheme forces it (`--scheme list` prints the engines of each backend).
    records(exe, ["--backend", "cpu", "--scheme", "nd", "--shape", "96x64", "--repeat", "2", "-w", "haar"], 1,
            {"scheme": "nd", "backend": "cpu"})

    # Usage errors: exit 2, exactly one line on stderr, nothing on stdout.
    bad = [["--bogus"], ["extra"], ["--shape"], ["--shape", "0x4"], ["--shape", "2x2x2x2"],
           ["--shape", "64y48"], ["--wavelet", "cdf99"], ["--wavelet", "cdf97,,haar"], ["--levels", "-3"],
           ["--mode", "zero"], ["--dtype", "uint8"],
           ["--dtype", "int32"], ["--integer", "--wavelet", "cdf97"], ["--integer", "--dtype", "float32"],
           ["--direction", "sideways"], ["--config", "D2D"], ["--backend", "tpu"],
           ["--backend", "cpu", "--config", "G2G"], ["--backend", "cpu", "--scheme", "laan"],
           ["--repeat", "0"], ["--repeat", "x"], ["--threads", "0"], ["--scheme", "nosuchscheme"],
           ["--backend", "cpu", "--scheme", "local"], ["--backend", "cuda", "--scheme", "nd"]]
    # Data errors (the shape does not allow them): exit 1, as in forward and inverse.
    data = [["--levels", "99", "--shape", "8x8"], ["--mode", "periodic", "--shape", "63x64", "--backend", "cpu"]]
    for args, want in [(a, 2) for a in bad] + [(a, 1) for a in data]:
        rc, out, err = run(exe, args)
        lines = err.strip().splitlines()
        if rc != want or len(lines) != 1 or not lines[0].startswith("liftwave:") or out:
            fail("bench %s: exit %d (want %d), stderr %r, stdout %r" % (" ".join(args), rc, want, err, out[:200]))

    print("bench cli: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
