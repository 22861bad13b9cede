#!/usr/bin/env python3
"""bench/pycudwt_compare.py without a GPU: with PyWavelets standing in for pycudwt
(--peer pywt --check-only; pycudwt computes pywt.wavedec2(..., mode="periodization"))
every case's peer coefficients, placed in liftwave's Mallat layout, equal
liftwave's (cpu backend, periodic, band gains), and the inverse gives the input
back; bad options exit 2 with one message.

Usage: test_pycudwt_compare.py LIBLIFTWAVE_SO SOURCE_DIR
Exit status: 0 pass, 1 failure, 77 NumPy or PyWavelets missing (ctest SKIP_RETURN_CODE).
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy  # noqa: F401
    import pywt  # noqa: F401
except ImportError as e:
    print("SKIP: %s is not installed for %s (the peer script's check needs NumPy and PyWavelets)" % (e.name,
          sys.executable))
    sys.exit(77)

LIB, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SCRIPT = os.path.join(SRC, "bench", "pycudwt_compare.py")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg)


def run(args):
    p = subprocess.run([sys.executable, SCRIPT, "--lib", LIB] + args, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "r.json")
    rc, _, err = run(["--peer", "pywt", "--check-only", "--quick", "--out", out])
    check(rc == 0, "check-only run: exit %d %r" % (rc, err))
    recs = [json.loads(line) for line in open(out)] if os.path.exists(out) else []
    names = [r["cell"] for r in recs]
    want = ["%s-%s-%s" % (g, w, d) for w in ("haar", "cdf53", "cdf97", "d4") for g in ("2d-l1", "2d-max")
            for d in ("fwd", "inv")] + ["latency-2d-l1-cdf97-fwd", "latency-2d-l1-cdf97-inv"]
    check(sorted(names) == sorted(want), "cases: %r" % names)
    peers = {r["wavelet"]: r["peer_wavelet"] for r in recs}
    check(peers == {"haar": "haar", "cdf53": "bior2.2", "cdf97": "bior4.4", "d4": "db2"}, "mapping %r" % peers)
    for r in recs:
        check(r["peer_verified"] is True and r["peer_max_rel_err"] < 1e-5,
              "%s: peer check %r (err %g)" % (r["cell"], r["peer_verified"], r["peer_max_rel_err"]))
        check("peer_layout" not in r, "%s: bands placed exchanged against pywt" % r["cell"])
        for k in ("commit", "date", "command", "levels", "shape", "direction", "peer"):
            check(k in r, "%s: no key %s" % (r["cell"], k))
    lv = {r["cell"]: r["levels"] for r in recs}
    # the most levels PDWT takes on 1024: ilog2(1024 / (taps - 1))
    check(lv.get("2d-max-haar-fwd") == 10 and lv.get("2d-max-cdf97-fwd") == 6 and lv.get("2d-max-d4-fwd") == 8,
          "capped levels: %r" % lv)
    rc, _, err = run(["--peer", "pywt", "--check-only", "--quick", "--only", "2d-l1-cdf97-*", "--out", out])
    check(rc == 0 and [json.loads(x)["cell"] for x in open(out)] == ["2d-l1-cdf97-fwd", "2d-l1-cdf97-inv"],
          "--only: %d %r" % (rc, err))
    for args, word in ((["--peer", "pywt", "--check-only", "--only", "nothing"], "matches no case"),
                       (["--peer", "pywt"], "--check-only"),
                       (["--peer", "pywt", "--check-only", "--repeat", "0"], "--repeat")):
        rc, _, err = run(args)
        check(rc == 2 and word in err, "%r: exit %d %r" % (args, rc, err))
    p = subprocess.run([sys.executable, SCRIPT, "--lib", os.path.join(d, "none.so")], capture_output=True, text=True)
    check(p.returncode == 2 and "none.so" in p.stderr, "missing library: %d %r" % (p.returncode, p.stderr))

print("%d failed checks" % len(failures))
sys.exit(1 if failures else 0)
