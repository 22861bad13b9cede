#!/usr/bin/env python3
"""Tests of `liftwave bench --inplace` (issue 15's benchmark side) that need no GPU.

Usage: test_cli_bench_inplace.py LIFTWAVE_EXE SOURCE_DIR [GROUP ...]

Groups:
  records  --inplace on the cpu and cpu-ref backends: every record says "inplace": true
           and is verified against the reference (every wavelet, levels, layouts, axes,
           float64 and int32, odd lengths); without --inplace every record says false;
           --layout and --axes reach the records; the text table marks the placement
  both     --inplace=both: each combination out of place, then in place, the same data;
           the ratios at the end agree with the records
  matrix   --matrix -b cpu --inplace: both records of a cell and the ratio in the summary,
           equal to the summary of the written records; the dry run lists both
  options  usage errors (one line on stderr, nothing on stdout, exit 2): --inplace with
           --destroy-input, bad --inplace / --layout / --axes values; cuda in place:
           records on a machine with a GPU, else one clear error (exit 1)

Exit status: 0 pass, 1 failure, 77 NumPy missing (ctest SKIP_RETURN_CODE).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_harness import case, check, expect_fail, expect_ok, run, run_groups  # noqa: E402

ALL = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs", "dd97"]


def bench_json(d, args, want_rc=0):
    rc, out, err = run(d, ["bench"] + args + ["--json"], timeout=600)
    check(rc == want_rc, "bench %s: exit %d, want %d; stderr %r" % (" ".join(args), rc, want_rc, err))
    recs = []
    for line in out.splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            check(False, "bench %s: not a JSON line: %r" % (" ".join(args), line))
    return recs, err


def samples(r):
    n = 1
    for s in r["shape"]:
        n *= s
    return n


# ----------------------------------------------------------------- records ----

@case("records")
def t_inplace_records(d):
    base = ["--repeat", "2", "--direction", "forward,inverse"]
    for backend, shapes, levels in (("cpu", "64x48,9x10x11,1000", "1,3"), ("cpu-ref", "33x20", "2")):
        args = ["-b", backend, "-w", ",".join(ALL), "--shape", shapes, "--levels", levels] + base + ["--inplace"]
        recs, err = bench_json(d, args)
        want = len(ALL) * len(shapes.split(",")) * len(levels.split(",")) * 2
        check(len(recs) == want, "%s --inplace: %d records, want %d" % (backend, len(recs), want))
        check(err == "", "%s --inplace: stderr %r" % (backend, err))
        for r in recs:
            where = "%s %s %s L%d %s" % (backend, r["wavelet"], r["shape"], r["levels"], r["direction"])
            check(r["inplace"] is True, "%s: inplace %r" % (where, r["inplace"]))
            check(r["verified"] is True, "%s: in-place output not verified" % where)
            check(r["backend"] == backend and r["config"] == "host" and r["median_s"] > 0, "%s: %r" % (where, r))
    # float64 and the integer transforms in place, both layouts
    recs, _ = bench_json(d, ["-b", "cpu", "--shape", "40x31", "--repeat", "2", "--dtype", "float64", "--inplace",
                             "--layout", "mallat,interleaved", "--levels", "max"])
    check([(r["dtype"], r["layout"], r["inplace"], r["verified"]) for r in recs] ==
          [("float64", "mallat", True, True), ("float64", "interleaved", True, True)], "float64: %r" % recs)
    recs, _ = bench_json(d, ["-b", "cpu", "--shape", "40x31", "--repeat", "2", "--integer", "-w", "cdf53,haar,dd137",
                             "--inplace", "--levels", "2"])
    check(len(recs) == 3 and all(r["dtype"] == "int32" and r["inplace"] and r["verified"] for r in recs),
          "int32 in place: %r" % recs)
    # without --inplace: every record says false; layout and axes recorded
    recs, _ = bench_json(d, ["-b", "cpu,cpu-ref", "--shape", "64x48", "--repeat", "2"])
    check(len(recs) == 2 and all(r["inplace"] is False and r["verified"] for r in recs), "out of place: %r" % recs)
    check(all(r["layout"] == "mallat" and r["axes"] == [0, 1] for r in recs), "default layout/axes: %r" % recs)
    recs, _ = bench_json(d, ["-b", "cpu", "--shape", "6x20x24", "--axes", "1,2", "--layout", "interleaved",
                             "--levels", "2", "--repeat", "2", "--inplace"])
    check(len(recs) == 1 and recs[0]["axes"] == [1, 2] and recs[0]["layout"] == "interleaved" and
          recs[0]["verified"] and recs[0]["inplace"], "--axes 1,2 --layout interleaved: %r" % recs)
    # a batch axis counts in full in the floor: 2 levels on axes 1,2 of 6x20x24
    floor = 2 * 4 * (6 * 20 * 24 + 6 * 10 * 12)
    if recs:
        eff = floor / recs[0]["median_s"] / 1e9
        check(abs(eff - recs[0]["effective_gbps"]) <= 2e-3 * eff, "batch floor: %r vs %r" % (
            eff, recs[0]["effective_gbps"]))
    # a batch of volumes (4-D, axes 1,2,3), out of place and in place, every wavelet
    recs, _ = bench_json(d, ["-b", "cpu", "-w", ",".join(ALL), "--shape", "3x6x8x10", "--axes", "1,2,3",
                             "--levels", "1", "--repeat", "2", "--inplace=both"])
    check(len(recs) == 2 * len(ALL) and all(r["shape"] == [3, 6, 8, 10] and r["axes"] == [1, 2, 3] and r["verified"]
                                            for r in recs), "4-D batch of volumes: %r" % recs[:2])
    # the text table: a place column, "in" / "out"
    rc, out, err = run(d, ["bench", "-b", "cpu", "--shape", "64x48", "--repeat", "2", "--inplace=both"])
    head = [line for line in out.splitlines() if line.startswith("wavelet")]
    rows = [line.split() for line in out.splitlines() if line.startswith("cdf97")]
    check(rc == 0 and head and "place" in head[0].split(), "text table header: %r" % out)
    if head and len(rows) == 2:
        col = head[0].split().index("place")
        check([r[col] for r in rows] == ["out", "in"], "text table place column: %r" % rows)
    else:
        check(False, "text table rows: %r" % out)


# -------------------------------------------------------------------- both ----

RATIO = re.compile(r"^#   (.*): ([0-9.e+-]+) / ([0-9.e+-]+) ms = ([0-9.]+), ([0-9.]+) of the bound$")


@case("both")
def t_inplace_both(d):
    recs, err = bench_json(d, ["-b", "cpu", "-w", "cdf97,haar", "--shape", "128x96,7x9x5", "--repeat", "3",
                               "--layout", "mallat,interleaved", "--inplace=both"])
    check(len(recs) == 16, "--inplace=both: %d records, want 16" % len(recs))
    check([r["inplace"] for r in recs] == [False, True] * 8, "placements alternate: %r" % [r["inplace"] for r in recs])
    same = ("wavelet", "levels", "shape", "axes", "dtype", "mode", "layout", "backend", "direction", "config")
    for a, b in zip(recs[0::2], recs[1::2]):
        check(all(a[k] == b[k] for k in same), "pair differs beyond placement: %r / %r" % (a, b))
        check(a["verified"] and b["verified"], "pair not verified: %r / %r" % (a, b))
    lines = [line for line in err.splitlines() if line.startswith("#   ")]
    check(len(lines) == 8, "ratio lines: %d, want 8: %r" % (len(lines), err))
    for line, (a, b) in zip(lines, zip(recs[0::2], recs[1::2])):
        m = RATIO.match(line)
        if not check(m is not None, "ratio line format: %r" % line):
            continue
        t_in, t_out, ratio = float(m.group(2)), float(m.group(3)), float(m.group(4))
        check(abs(t_in - b["median_s"] * 1e3) <= 1e-3 * t_in and abs(t_out - a["median_s"] * 1e3) <= 1e-3 * t_out,
              "ratio line times %r vs records %r / %r" % (line, b["median_s"], a["median_s"]))
        check(abs(ratio - b["median_s"] / a["median_s"]) <= 1e-3 + 2e-3 * ratio, "ratio %r vs records" % line)
        check(a["wavelet"] in m.group(1) and "x".join(map(str, a["shape"])) in m.group(1) and
              ("interleaved" in m.group(1)) == (a["layout"] == "interleaved"), "ratio line names %r" % line)
    check(any(line.startswith("# in place: 8 pairs, largest ratio") for line in err.splitlines()),
          "ratio summary line: %r" % err)


# ------------------------------------------------------------------ matrix ----

@case("matrix")
def t_matrix_inplace(d):
    cells = "latency-2d-l1-cdf97-fwd,batch-l1-haar-inv"
    rc, out, err = run(d, ["bench", "--matrix", "-b", "cpu", "--matrix-only", cells, "--repeat", "1", "--inplace",
                           "--json"], timeout=600)
    check(rc == 0, "matrix --inplace: exit %d %r" % (rc, err))
    recs = [json.loads(line) for line in out.splitlines()]
    check([(r["cell"], r["inplace"]) for r in recs] ==
          [("batch-l1-haar-inv", False), ("batch-l1-haar-inv", True),
           ("latency-2d-l1-cdf97-fwd", False), ("latency-2d-l1-cdf97-fwd", True)],
          "cells and placements: %r" % [(r.get("cell"), r.get("inplace")) for r in recs])
    check(all(r["verified"] is True and r["axes"] == ([1, 2] if r["cell"].startswith("batch") else [0, 1])
              for r in recs), "matrix in-place records verified, axes: %r" % recs)
    check("# matrix: 2 cells, 2 verified" in err, "the targets' summary counts the cells once: %r" % err)
    ratios = [line for line in err.splitlines() if line.startswith("#   ")]
    check(len(ratios) == 2 and ratios[0].startswith("#   batch-l1-haar-inv: ") and
          ratios[1].startswith("#   latency-2d-l1-cdf97-fwd: "), "ratio lines: %r" % err)
    for line, (a, b) in zip(ratios, zip(recs[0::2], recs[1::2])):
        m = RATIO.match(line)
        if check(m is not None, "ratio line format %r" % line):
            check(abs(float(m.group(4)) - b["median_s"] / a["median_s"]) <= 1e-3 + 2e-3 * float(m.group(4)),
                  "ratio %r vs records" % line)
    with open(os.path.join(d, "m.json"), "w") as f:
        f.write(out)
    rc, out2, err2 = run(d, ["bench", "--matrix-summary", "m.json"])
    check(rc == 0 and out2.strip() == err.strip(), "summary of the records differs from the run's: %r vs %r" % (
        out2, err))
    # dry run: each cell twice, out then in
    rc, out, err = run(d, ["bench", "--matrix", "--dry-run", "--json", "--inplace", "--matrix-only",
                           "latency-2d-l1-cdf97-fwd"])
    rows = [json.loads(line) for line in out.splitlines()]
    check(rc == 0 and [r["inplace"] for r in rows] == [False, True], "dry run --inplace: %r %r" % (rows, err))
    expect_fail(d, ["bench", "--matrix-summary", "m.json", "--inplace"], ["--matrix-summary"], codes=(2,))


# ----------------------------------------------------------------- options ----

@case("options")
def t_inplace_options(d):
    base = ["bench", "-b", "cpu", "--shape", "64x48", "--repeat", "2"]
    for args, words in (
            (["--inplace", "--destroy-input"], ["--inplace", "--destroy-input"]),
            (["--destroy-input", "--inplace"], ["--inplace", "--destroy-input"]),
            (["--inplace=both", "--destroy-input"], ["--inplace", "--destroy-input"]),
            (["--inplace=yes"], ["--inplace", "yes"]),
            (["--inplace", "both"], ["both"]),
            (["--layout", "zigzag"], ["layout", "zigzag"]),
            (["--layout", "mallat,,interleaved"], ["--layout"]),
            (["--axes", "2,1"], ["--axes"]),
            (["--axes", "3"], ["axis 3"]),  # 0..3 parse; a 2-D shape has no axis 3
            (["--axes", "4"], ["--axes"]),
            (["--shape", "2x3x4x5x6"], ["shape"]),
            (["--axes", "0,1,2,0"], ["--axes"]),
            (["--axes", "x"], ["--axes"]),
            (["--axes", "1,2"], ["axis 2"]),  # a 2-D shape has no axis 2: the plan says so
            (["--device-memory-limit", "12Q"], ["--device-memory-limit"]),
            (["--device-memory-limit", "-1"], ["--device-memory-limit"])):
        rc, _ = expect_fail(d, base + args, words, codes=(2,))
        _, out, _ = run(d, base + args)
        check(out == "", "bench %s: stdout %r" % (" ".join(args), out))
    # --device-memory-limit: a cuda knob; the cpu records are the same without it
    out = expect_ok(d, base + ["--device-memory-limit", "1M", "--json"])
    check(json.loads(out.splitlines()[0])["verified"], "bench with --device-memory-limit on cpu: %r" % out[:200])
    # matrix with --inplace=both (the matrix's --inplace is the flag alone)
    expect_fail(d, ["bench", "--matrix", "--dry-run", "--inplace=both"], ["--inplace"], codes=(2,))
    # cuda, device pointers and host pointers, in place
    rc, out, err = run(d, ["bench", "-b", "cuda", "--config", "G2G,C2C", "--shape", "64x48", "--repeat", "3",
                           "--inplace", "--json"])
    if rc == 0:
        recs = [json.loads(line) for line in out.splitlines()]
        check([(r["config"], r["inplace"], r["verified"]) for r in recs] == [("G2G", True, True), ("C2C", True, True)],
              "cuda in place: %r" % recs)
        check(all(isinstance(r["extra_device_bytes"], int) for r in recs), "extra_device_bytes: %r" % recs)
    else:
        print("no CUDA device here: the cuda in-place records are checked on the GPU machine (tests/gpu/run.sh "
              "stage inplace); checking the clean error instead")
        expect_fail(d, ["bench", "-b", "cuda", "--shape", "64x48", "--inplace"], ["cuda"], codes=(1,))


def main():
    return run_groups(sys.argv[3:], "lwinplace_")


if __name__ == "__main__":
    sys.exit(main())
