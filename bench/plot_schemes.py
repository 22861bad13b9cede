#!/usr/bin/env python3
"""Plots and tabulates benchmark records per wavelet and scheme.

Usage: plot_schemes.py [--out DIR] [--table FILE] RECORDS.json [...]

Each input file holds benchmark records as written by `liftwave bench --json`
and tests/gpu/gpu_bench: a JSON array of objects, one object per line, or an
object whose "records" key holds them (bench/results files).
Keys used: wavelet, shape, median_s, gsamples_per_s, ps_per_sample, scheme
(else engine, else backend), backend, direction, dtype, levels, config,
layout, fraction_of_copy (else fraction_of_bound).  Records missing
gsamples_per_s or ps_per_sample get them from shape and median_s.

Writes, for each wavelet W, DIR/W-gsamples.png (Gsamples/s against the image
size in Mpixel, log x) and DIR/W-ps.png (picoseconds per sample), one line per
scheme (a subplot per direction), and a markdown table of ps/pixel at about
1 and 10 Mpixel and the fraction of the copy bound there, per wavelet and
scheme (printed, and written to --table, default DIR/schemes.md).

Exit status: 0 done, 1 matplotlib missing, 2 bad usage or no usable records.
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict


def load_records(path):
    """Records of one file: a JSON array/object, or one JSON object per line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        data = json.loads(text)
        if isinstance(data, dict) and isinstance(data.get("records"), list):
            return data["records"]  # a results file: metadata + records
        return data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        pass
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line[0] not in "{[":
            continue  # tables or logs mixed with the records
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{no}: not JSON: {e}") from None
        out.extend(obj if isinstance(obj, list) else [obj])
    return out


def samples_of(shape):
    if isinstance(shape, str):
        shape = [int(s) for s in shape.replace(",", "x").split("x") if s.strip()]
    n = 1
    for s in shape:
        n *= int(s)
    return n


def normalise(r):
    """Add samples, mpix, gsps, ps, frac, series fields; None if unusable."""
    if not isinstance(r, dict) or "wavelet" not in r or "shape" not in r:
        return None
    try:
        n = samples_of(r["shape"])
    except (TypeError, ValueError):
        return None
    med = r.get("median_s")
    gsps = r.get("gsamples_per_s")
    ps = r.get("ps_per_sample")
    if gsps is None and med:
        gsps = n / med / 1e9
    if ps is None and med:
        ps = med / n * 1e12
    if gsps is None or ps is None or n <= 0:
        return None
    q = dict(r)
    q["_n"] = n
    q["_mpix"] = n / 1e6
    q["_gsps"] = float(gsps)
    q["_ps"] = float(ps)
    frac = r.get("fraction_of_copy", r.get("fraction_of_bound"))
    q["_frac"] = float(frac) if frac is not None else None
    scheme = r.get("scheme") or r.get("engine") or r.get("backend") or "?"
    if scheme == "auto":
        scheme = r.get("backend", "auto") + (":" + r["engine"] if r.get("engine") else "")
    q["_scheme"] = str(scheme)
    return q


QUALIFIERS = ("backend", "dtype", "levels", "config", "layout", "mode")


def series_label(r, varying):
    parts = [r["_scheme"]]
    for k in QUALIFIERS:
        if k in varying and k in r:
            v = r[k]
            parts.append(f"L{v}" if k == "levels" else str(v))
    return " ".join(parts)


def varying_keys(recs):
    """Qualifiers that tell apart records of one scheme, size and direction
    (levels = max differs with the size alone: that does not split a line)."""
    out = set()
    groups = defaultdict(list)
    for r in recs:
        groups[(r["_scheme"], r["_n"], r.get("direction"))].append(r)
    for rs in groups.values():
        for k in QUALIFIERS:
            if len({str(r.get(k)) for r in rs}) > 1:
                out.add(k)
    return out


def nearest(points, target, tol=3.0):
    """Record whose size is nearest to target Mpixel (log scale), within tol times."""
    best = None
    for r in points:
        d = abs(math.log(r["_mpix"] / target))
        if d <= math.log(tol) and (best is None or d < best[0]):
            best = (d, r)
    return best[1] if best else None


def plot_wavelet(plt, wav, recs, outdir, key, ylabel, fname):
    dirs = sorted({r.get("direction", "forward") for r in recs})
    fig, axes = plt.subplots(1, len(dirs), figsize=(6.4 * len(dirs), 4.6), squeeze=False)
    varying = varying_keys(recs)
    for ax, d in zip(axes[0], dirs):
        groups = defaultdict(list)
        for r in recs:
            if r.get("direction", "forward") == d:
                groups[series_label(r, varying)].append(r)
        ys = []
        for i, label in enumerate(sorted(groups)):
            pts = sorted(groups[label], key=lambda r: r["_mpix"])
            ys += [r[key] for r in pts]
            ax.plot([r["_mpix"] for r in pts], [r[key] for r in pts], marker="o", label=label,
                    linestyle=("-", "--", ":", "-.")[i // 10 % 4])
        ax.set_xscale("log")
        if ys and min(ys) > 0 and max(ys) / min(ys) > 50:
            ax.set_yscale("log")  # schemes orders of magnitude apart
        ax.set_xlabel("image size (Mpixel)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{wav} {d}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    path = os.path.join(outdir, fname)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def fmt(v, spec):
    return "–" if v is None else format(v, spec)


def table(by_wav):
    lines = [
        "| wavelet | scheme | direction | ps/pixel ~1 Mpix | ps/pixel ~10 Mpix | fraction of copy ~10 Mpix |",
        "|---|---|---|---|---|---|",
    ]
    for wav in sorted(by_wav):
        recs = by_wav[wav]
        varying = varying_keys(recs)
        groups = defaultdict(list)
        for r in recs:
            groups[(series_label(r, varying), r.get("direction", "forward"))].append(r)
        for (label, d) in sorted(groups):
            pts = groups[(label, d)]
            a, b = nearest(pts, 1.0), nearest(pts, 10.0)
            cell_a = f"{a['_ps']:.1f} ({a['_mpix']:.2g} MP)" if a else "–"
            cell_b = f"{b['_ps']:.1f} ({b['_mpix']:.2g} MP)" if b else "–"
            frac = fmt(b["_frac"], ".2f") if b else "–"
            lines.append(f"| {wav} | {label} | {d} | {cell_a} | {cell_b} | {frac} |")
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description="Plot benchmark records per wavelet and scheme.")
    ap.add_argument("files", nargs="+", help="JSON record files (array or one object per line)")
    ap.add_argument("--out", default=".", help="folder for the PNG files and the table [.]")
    ap.add_argument("--table", help="markdown table file [OUT/schemes.md]")
    args = ap.parse_args(argv)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_schemes.py: matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return 1
    recs = []
    for path in args.files:
        try:
            raw = load_records(path)
        except (OSError, ValueError) as e:
            print(f"plot_schemes.py: {e}", file=sys.stderr)
            return 2
        recs.extend(q for q in (normalise(r) for r in raw) if q)
    if not recs:
        print("plot_schemes.py: no usable records (need wavelet, shape and median_s or throughput)", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    by_wav = defaultdict(list)
    for r in recs:
        by_wav[str(r["wavelet"])].append(r)
    written = []
    for wav, rs in sorted(by_wav.items()):
        written.append(plot_wavelet(plt, wav, rs, args.out, "_gsps", "Gsamples/s", f"{wav}-gsamples.png"))
        written.append(plot_wavelet(plt, wav, rs, args.out, "_ps", "ps per sample", f"{wav}-ps.png"))
    md = table(by_wav)
    tpath = args.table or os.path.join(args.out, "schemes.md")
    with open(tpath, "w", encoding="utf-8") as f:
        f.write(md)
    sys.stdout.write(md)
    print(f"wrote {len(written)} plots and {tpath} from {len(recs)} records", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
