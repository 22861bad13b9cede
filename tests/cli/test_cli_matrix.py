#!/usr/bin/env python3
"""Tests of `liftwave bench --matrix` (issue 16's table of targets) that need no GPU.

Usage: test_cli_matrix.py LIFTWAVE_EXE SOURCE_DIR [GROUP ...]

Groups:
  cells    the dry run lists exactly the cells of the issue's table (names, shapes,
           axes, levels, host memory, targets), in text and JSON; --matrix-only and
           --repeat select and change them
  summary  the floor / median / misses logic on synthetic records (--matrix-summary),
           and bad record files
  options  bad options: one line on stderr, exit 2 (usage) or 1 (runtime)
  records  a real run of two cells on the cpu backend (the cuda backend needs a GPU):
           every key of a matrix record, meets consistent with the target, and the
           summary of the written records equal to the run's own

Exit status: 0 pass, 1 failure, 77 NumPy missing (ctest SKIP_RETURN_CODE).
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_harness import case, check, expect_fail, expect_ok, run, run_groups  # noqa: E402

# The table, written out independently of tools/cli_bench_matrix.c:
# (name prefix, shape, axes, levels, wavelets, [(host memory, target)], target kind)
ALL = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs", "dd97"]
TABLE = [
    ("2d-l1", (16384, 16384), (0, 1), "1", ["haar"], [("none", 0.97)], "fraction"),
    ("2d-l1", (16384, 16384), (0, 1), "1", [w for w in ALL if w != "haar"], [("none", 0.85)], "fraction"),
    ("2d-max", (16384, 16384), (0, 1), "max=14", ALL, [("none", 0.75)], "fraction"),
    ("batch-l1", (192, 512, 512), (1, 2), "1", ALL, [("none", 0.75)], "fraction"),
    ("batch-l3", (192, 512, 512), (1, 2), "3", ALL, [("none", 0.75)], "fraction"),
    ("3d-l1", (512, 512, 512), (0, 1, 2), "1", ALL, [("none", 0.75)], "fraction"),
    ("3d-max", (512, 512, 512), (0, 1, 2), "max=9", ALL, [("none", 0.65)], "fraction"),
    ("video-l3", (64, 1080, 1920), (0, 1, 2), "3", ["d4"], [("none", 0.65)], "fraction"),
    ("host-2d-l1", (16384, 16384), (0, 1), "1", ["cdf97"], [("pinned", 0.90), ("pageable", 0.80)], "fraction"),
    ("host-2d-l5", (16384, 16384), (0, 1), "5", ["cdf97"], [("pinned", 0.90), ("pageable", 0.80)], "fraction"),
    ("host-3d-l1", (512, 512, 512), (0, 1, 2), "1", ["cdf97"], [("pinned", 0.90), ("pageable", 0.80)], "fraction"),
    ("latency-2d-l1", (1080, 1920), (0, 1), "1", ["cdf97"], [("none", 12e-6)], "latency_s"),
]


def expected_cells(cpu=False):
    cells = {}
    for prefix, shape, axes, levels, wavelets, variants, kind in TABLE:
        for w in wavelets:
            for d in ("forward", "inverse"):
                for hm, target in variants:
                    if cpu and hm != "none":
                        continue
                    name = "%s-%s-%s%s" % (prefix, w, "fwd" if d == "forward" else "inv", "" if hm == "none" else "-" + hm)
                    cells[name] = dict(shape=list(shape), axes=list(axes), levels=levels, wavelet=w, direction=d,
                                       host_memory=hm, target=target, target_kind=kind)
    return cells


def dry(d, extra=()):
    out = expect_ok(d, ["bench", "--matrix", "--dry-run", "--json"] + list(extra))
    return [json.loads(line) for line in out.splitlines()]


# ------------------------------------------------------------------- cells ----

@case("cells")
def t_dry_run_lists_the_table(d):
    want = expected_cells()
    got = dry(d)
    names = [r["cell"] for r in got]
    check(len(names) == len(set(names)), "dry run: duplicate cell names")
    check(set(names) == set(want), "dry run cells: missing %s, unexpected %s" % (
        sorted(set(want) - set(names))[:8], sorted(set(names) - set(want))[:8]))
    check(len(got) == 100, "dry run: %d cells, want 100" % len(got))
    for r in got:
        w = want.get(r["cell"])
        if not w:
            continue
        for k, v in w.items():
            ok = abs(r[k] - v) <= 1e-12 * abs(v) if isinstance(v, float) else r[k] == v
            check(ok, "%s: %s = %r, want %r" % (r["cell"], k, r[k], v))
        cfg = "G2G" if w["host_memory"] == "none" else "C2C"
        check(r["config"] == cfg, "%s: config %r, want %s" % (r["cell"], r["config"], cfg))
        rep = 200 if w["target_kind"] == "latency_s" else 5 if cfg == "C2C" else 20
        check(r["repeat"] == rep, "%s: repeat %r, want %d" % (r["cell"], r["repeat"], rep))
    # pinned and pageable of one case run next to each other (they share data and reference)
    for i, n in enumerate(names):
        if n.endswith("-pinned"):
            check(i + 1 < len(names) and names[i + 1] == n[:-len("pinned")] + "pageable",
                  "%s is not followed by its pageable twin" % n)
    text = expect_ok(d, ["bench", "--matrix", "--dry-run"])
    rows = [line.split()[0] for line in text.splitlines()[1:] if line and not line.startswith("#")]
    check(rows == names, "text dry run lists other cells than the JSON one")
    check("# 100 cells" in text and "nothing run" in text, "text dry run: no count line: %r" % text[-200:])


@case("cells")
def t_only_and_repeat(d):
    names = [r["cell"] for r in dry(d, ["--matrix-only", "3d-max"])]
    check(names and all(n.startswith("3d-max-") for n in names) and len(names) == 14,
          "--matrix-only 3d-max: %r" % names)
    names = [r["cell"] for r in dry(d, ["--matrix-only", "*-d4-fwd,latency-*-inv"])]
    want = sorted([n for n in expected_cells() if n.endswith("-d4-fwd")] + ["latency-2d-l1-cdf97-inv"])
    check(sorted(names) == want, "--matrix-only globs: %r, want %r" % (names, want))
    names = [r["cell"] for r in dry(d, ["--matrix-only=pageable"])]
    check(len(names) == 6 and all(n.endswith("-pageable") for n in names), "--matrix-only=pageable: %r" % names)
    reps = {r["repeat"] for r in dry(d, ["--repeat", "3"])}
    check(reps == {3}, "--repeat 3: repeats %r" % reps)
    names = [r["cell"] for r in dry(d, ["-b", "cpu"])]
    check(sorted(names) == sorted(expected_cells(cpu=True)), "-b cpu: host-memory cells not left out")


# ----------------------------------------------------------------- summary ----

def rec(cell, frac=None, target=0.75, kind="fraction", median_s=1e-3, verified=True, error=None):
    r = {"cell": cell, "target_kind": kind, "target": target, "axes": [0, 1], "shape": [4, 4], "command": "x \"y\""}
    if error:
        r.update(error=error, verified=False, meets=False)
    else:
        r.update(fraction_of_bound=frac, median_s=median_s, verified=verified, meets=True)  # meets is recomputed
    return r


def summary(d, recs, name="r.json"):
    with open(os.path.join(d, name), "w") as f:
        for r in recs:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return run(d, ["bench", "--matrix-summary", name])


def lines_of(out, prefix):
    return [line for line in out.splitlines() if line.startswith(prefix)]


@case("summary")
def t_floor_median_misses(d):
    recs = [rec("a", 0.90), rec("b", 0.70), rec("c", 0.80, target=0.65), rec("d", 0.95, target=0.97),
            rec("e", 0.50, verified=False), rec("lat", 0.30, target=12e-6, kind="latency_s", median_s=17e-6),
            rec("lat2", 0.20, target=12e-6, kind="latency_s", median_s=11e-6), rec("f", error="boom")]
    rc, out, err = summary(d, recs)
    check(rc == 0 and err == "", "summary: exit %d %r" % (rc, err))
    # verified fraction cells: a .90 b .70 c .80 d .95 -> floor .70 (b), median (.80 + .90) / 2
    check(lines_of(out, "# matrix:") == ["# matrix: 8 cells, 6 verified, 3 meet their targets, 5 miss"],
          "summary counts: %r" % out)
    check(lines_of(out, "# floor:") == ["# floor: 0.7000 of the bound (b), target >= 0.60: met"], "floor: %r" % out)
    med = statistics.median([0.90, 0.70, 0.80, 0.95])
    check(lines_of(out, "# median") == ["# median of the fractions: %.4f (4 verified cells with a fraction target; "
                                        "latency cells apart)" % med], "median: %r" % out)
    missed = lines_of(out, "# missed")
    want = ["# missed b: 0.7000 of the bound, target >= 0.75", "# missed d: 0.9500 of the bound, target >= 0.97",
            "# missed e: not verified", "# missed lat: 17.0 us, target <= 12.0 us",
            "# missed f: no measurement (the run failed)"]
    check(missed == want, "missed lines: %r" % missed)
    # a floor under 0.60 is reported as missed; the unverified record does not count in it
    rc, out, err = summary(d, [rec("x", 0.59, target=0.5), rec("y", 0.10, verified=False), rec("z", 0.61)])
    check(lines_of(out, "# floor:") == ["# floor: 0.5900 of the bound (x), target >= 0.60: missed"],
          "floor below 0.60: %r" % out)
    check(lines_of(out, "# median") and "0.6000 (2 verified" in out, "median of two: %r" % out)
    # only a latency cell: no floor
    rc, out, err = summary(d, [rec("lat", 0.3, target=12e-6, kind="latency_s", median_s=5e-6)])
    check(rc == 0 and "# floor: none" in out and not lines_of(out, "# missed"), "latency only: %r" % out)
    # blank lines are skipped; keys in any order; arrays and escapes inside strings
    rc, out, err = summary(d, ["", json.dumps(dict(reversed(list(rec("q", 0.8).items())))), "  "])
    check(rc == 0 and "# matrix: 1 cells, 1 verified, 1 meet" in out, "reordered keys: %d %r %r" % (rc, out, err))


@case("summary")
def t_bad_record_files(d):
    for recs, words in (([], ["no records"]), (["{not json"], ["line 1", "json"]),
                        ([rec("a", 0.8), {"wavelet": "haar"}], ["line 2", "cell"]),
                        ([{"cell": "a", "target": 0.5}], ["target_kind"]),
                        ([rec("a", 0.8, kind="speed")], ["target_kind"]),
                        ([{"cell": "a", "target": 0.5, "target_kind": "fraction", "verified": True}],
                         ["fraction_of_bound"])):
        with open(os.path.join(d, "bad.json"), "w") as f:
            f.write("\n".join(r if isinstance(r, str) else json.dumps(r) for r in recs) + ("\n" if recs else ""))
        expect_fail(d, ["bench", "--matrix-summary", "bad.json"], ["bad.json"] + words, codes=(1,))
    expect_fail(d, ["bench", "--matrix-summary", "missing.json"], ["missing.json"], codes=(1,))


# ----------------------------------------------------------------- options ----

@case("options")
def t_bad_options(d):
    m = ["bench", "--matrix"]
    for args, words in ((m + ["--wavelet", "haar"], ["--wavelet", "--matrix-only"]),
                        (m + ["--shape", "8x8"], ["--shape"]),
                        (m + ["--matrix-only", "nothing-like-this"], ["nothing-like-this", "--dry-run"]),
                        (m + ["--matrix-only", ""], ["--matrix-only"]),
                        (m + ["-b", "cpu-ref"], ["cpu-ref"]),
                        (m + ["--backend", "tpu"], ["tpu"]),
                        (m + ["--repeat", "0"], ["--repeat", "0"]),
                        (m + ["--repeat", "x3"], ["--repeat"]),
                        (m + ["--repeat"], ["--repeat", "value"]),
                        (m + ["--dry-run=yes"], ["--dry-run"]),
                        (m + ["stray"], ["stray"]),
                        (["bench", "--dry-run"], ["--matrix"]),
                        (["bench", "--matrix-only", "3d"], ["--matrix"]),
                        (["bench", "--matrix-summary", "r.json", "--dry-run"], ["--matrix-summary"]),
                        (m + ["--matrix-summary", "r.json"], ["--matrix-summary"])):
        expect_fail(d, args, words, codes=(2,))
    info = run(d, ["info"])[1]
    if "cuda" in info and "CUDA devices: 0" not in info and "no CUDA" not in info and \
            run(d, ["bench", "--matrix", "--matrix-only", "latency-2d-l1-cdf97-fwd", "--repeat", "1"])[0] == 0:
        print("a CUDA device answers: the no-device error is not checked here")
    else:
        expect_fail(d, m + ["--matrix-only", "latency"], ["cuda", "--dry-run"], codes=(1,))
    expect_fail(d, m + ["--dry-run", "--tune", "nokey=1"] + ["--matrix-only", "zzz"], ["zzz"], codes=(2,))


# ----------------------------------------------------------------- records ----

KEYS = ["wavelet", "levels", "shape", "dtype", "mode", "backend", "direction", "config", "median_s",
        "effective_gbps", "bound", "bound_gbps", "fraction_of_bound", "device", "commit", "date", "command",
        "verified", "axes", "host_memory", "extra_device_bytes", "target", "target_kind", "meets", "cell", "case",
        "floor_bytes", "bytes_counted", "repeat"]


@case("records")
def t_cpu_run_records(d):
    cells = "latency-2d-l1-cdf97-fwd,batch-l3-haar-inv"
    rc, out, err = run(d, ["bench", "--matrix", "-b", "cpu", "--matrix-only", cells, "--repeat", "1", "--json"],
                       timeout=600)
    check(rc == 0, "cpu matrix run: exit %d %r" % (rc, err))
    recs = [json.loads(line) for line in out.splitlines()]
    check([r["cell"] for r in recs] == ["batch-l3-haar-inv", "latency-2d-l1-cdf97-fwd"],
          "cells run: %r" % [r["cell"] for r in recs])
    for r in recs:
        missing = [k for k in KEYS if k not in r]
        check(not missing, "%s: keys missing %r" % (r.get("cell"), missing))
        if missing:
            continue
        check(r["verified"] is True, "%s: not verified" % r["cell"])
        check(r["command"].startswith("liftwave bench --matrix") and cells in r["command"], "command %r" % r["command"])
        check(r["host_memory"] == "none" and r["extra_device_bytes"] == 0 and r["repeat"] == 1, "%s keys" % r["cell"])
        met = r["median_s"] <= r["target"] if r["target_kind"] == "latency_s" else r["fraction_of_bound"] >= r["target"]
        check(r["meets"] is met, "%s: meets %r, fraction %r / median %r, target %r" % (
            r["cell"], r["meets"], r["fraction_of_bound"], r["median_s"], r["target"]))
        eff = r["floor_bytes"] / r["median_s"] / 1e9
        check(abs(eff - r["effective_gbps"]) <= 1e-4 * eff, "%s: effective_gbps is not floor_bytes / median_s"
              % r["cell"])
    b = recs[0]
    n = 192 * 512 * 512
    one = 2 * 4 * n
    # three levels of a batch of 2-D arrays on axes 1, 2: the batch axis in full, (1 + 1/4 + 1/16) of one pass
    check(b["axes"] == [1, 2] and b["shape"] == [192, 512, 512] and b["levels"] == 3, "batch record: %r" % b)
    check(abs(b["floor_bytes"] - one * 1.3125) < 1, "batch floor_bytes %r, want %r" % (b["floor_bytes"], one * 1.3125))
    check("1.312500 x one pass" in b["bytes_counted"], "bytes_counted: %r" % b["bytes_counted"])
    lat = recs[1]
    check(lat["target_kind"] == "latency_s" and lat["target"] == 12e-6 and lat["shape"] == [1080, 1920],
          "latency record: %r" % lat)
    # the run's own summary (stderr with --json) equals the summary of its records
    with open(os.path.join(d, "m.json"), "w") as f:
        f.write(out)
    out2 = expect_ok(d, ["bench", "--matrix-summary", "m.json"])
    check(out2.strip() == err.strip() and "# matrix: 2 cells, 2 verified" in out2,
          "summary of the records differs from the run's: %r vs %r" % (out2, err))
    # text mode: one row per cell, the summary on stdout
    rc, out, err = run(d, ["bench", "--matrix", "-b", "cpu", "--matrix-only", "latency-2d-l1-cdf97-inv", "--repeat",
                           "1"])
    check(rc == 0 and err == "" and "latency-2d-l1-cdf97-inv" in out and "# floor: none" in out,
          "text run: %d %r %r" % (rc, out, err))


# ------------------------------------------------------------------ driver ----

def main():
    return run_groups(sys.argv[3:], "lwmatrix_")


if __name__ == "__main__":
    sys.exit(main())
