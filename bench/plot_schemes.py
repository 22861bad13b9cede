#!/usr/bin/env python3
"""Plots and tabulates benchmark records per wavelet and scheme.

Usage: plot_schemes.py [--out DIR] [--table FILE] RECORDS.json [...]

Each input file holds benchmark records as written by `liftwave bench --json`
and tests/gpu/gpu_bench: a JSON array of objects, one object per line, or an
object whose "results" or "records" key holds them (bench/results files).
Keys used: wavelet, shape, median_s, gsamples_per_s, ps_per_sample, scheme,
engine, backend, direction, dtype, levels, config, layout, mode,
fraction_of_copy (else fraction_of_bound).  Records missing gsamples_per_s
or ps_per_sample get them from shape and median_s.

Series.  The default engine is labelled `auto` whether the record comes from
the CLI (backend cuda, scheme auto) or from gpu_bench (scheme auto or none,
engine tile2d, ...); a record on another backend adds the backend to its label
when both kinds are present.  Image sizes are in Mpixel = samples / 2^20, as
the CLI's --sizes-mpix counts them.

Plots.  The series of a wavelet are split by family: `sep` (the separable
passes of paper 000, sep:H+V: colour = horizontal pass, line style =
vertical pass), `block` (the block schemes of paper 003: colour = scheme,
solid = double buffering, dashed = :single) and `engines` (auto, fs and
anything else).  The sep and block plots carry `auto` as a thick black
reference line (its records from the same tool, CLI or gpu_bench, as the
family's).  For each wavelet W and family F present, DIR/W-F-gsamples.png
(Gsamples/s against Mpixel, log x) and DIR/W-F-frac.png (fraction of the copy
bandwidth), a subplot per direction, the legend outside the axes.

Table.  Markdown, per wavelet and series: ps/pixel and fraction of copy at
the measured sizes nearest to 1 and 10 Mpixel (within a factor 3; the size
used is printed).  Printed, and written to --table (default DIR/schemes.md).

Exit status: 0 done, 1 matplotlib missing, 2 bad usage or no usable records.
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

MPIX = 1048576.0  # samples per Mpixel (2^20), as `liftwave bench --sizes-mpix`
BLOCK_SCHEMES = {"sweldens", "iwahashi", "explosive", "monolithic", "polyphase", "convolution",
                 "iwahashi*", "explosive*", "monolithic*", "polyphase*"}
FAMILIES = ("sep", "block", "engines")
METRICS = (("gsamples", "_gsps", "Gsamples/s"), ("frac", "_frac", "fraction of copy bandwidth"))
QUALIFIERS = ("backend", "rank", "dtype", "levels", "config", "layout", "mode")
LINESTYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")


def load_records(path):
    """Records of one file: a JSON array/object, or one JSON object per line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        data = json.loads(text)
        if isinstance(data, dict):
            for key in ("results", "records"):  # a results file: metadata + records
                if isinstance(data.get(key), list):
                    return data[key]
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


def shape_of(shape):
    if isinstance(shape, str):
        shape = [s for s in shape.replace(",", "x").split("x") if s.strip()]
    return [int(s) for s in shape]


def scheme_label(r):
    """The series name: `auto` for the default engine from either source."""
    scheme = r.get("scheme")
    if scheme in (None, "", "auto"):
        return "auto"  # CLI: scheme auto; gpu_bench: scheme auto (or none) + engine
    return str(scheme)


def family_of(scheme):
    if scheme.startswith("sep:"):
        return "sep"
    if scheme.split(":")[0] in BLOCK_SCHEMES:
        return "block"
    return "engines"


def normalise(r):
    """Add _n, _mpix, _gsps, _ps, _frac, _scheme, _family; None if unusable."""
    if not isinstance(r, dict) or "wavelet" not in r or "shape" not in r:
        return None
    try:
        shape = shape_of(r["shape"])
    except (TypeError, ValueError):
        return None
    n = math.prod(shape) if shape else 0
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
    if "backend" not in q and (q.get("engine") or q.get("config") in ("G2G", "C2C")):
        q["backend"] = "cuda"  # gpu_bench records do not say it
    q["rank"] = f"{len(shape)}-D"
    q["_n"] = n
    q["_mpix"] = n / MPIX
    q["_gsps"] = float(gsps)
    q["_ps"] = float(ps)
    frac = r.get("fraction_of_copy", r.get("fraction_of_bound"))
    q["_frac"] = float(frac) if frac is not None else None
    q["_scheme"] = scheme_label(r)
    q["_family"] = family_of(q["_scheme"])
    q["_source"] = "gpu_bench" if "case" in r else "cli"  # gpu_bench names each case
    return q


def varying_keys(recs):
    """Qualifiers that tell apart records of one scheme, size and direction
    (levels = max differs with the size alone: that does not split a line; a
    record without the key, like gpu_bench's without mode, splits nothing)."""
    out = set()
    groups = defaultdict(list)
    for r in recs:
        groups[(r["_scheme"], r["_n"], r.get("direction"))].append(r)
    for rs in groups.values():
        for k in QUALIFIERS:
            if len({str(r[k]) for r in rs if k in r}) > 1:
                out.add(k)
    return out


def series_points(recs, varying, key=None):
    """{(label, direction): records sorted by size}, one record per size: of
    several measurements of a series at one size (the CLI's and gpu_bench's
    auto at 1024^2, say) the one with the median ps/sample."""
    at = defaultdict(list)
    for r in recs:
        if key is None or r[key] is not None:
            at[(series_label(r, varying), r.get("direction", "forward"), r["_n"])].append(r)
    out = defaultdict(list)
    for (lab, d, _), rs in at.items():
        rs.sort(key=lambda r: r["_ps"])
        out[(lab, d)].append(rs[(len(rs) - 1) // 2])
    for pts in out.values():
        pts.sort(key=lambda r: r["_n"])
    return out


def qualifier_text(r, varying):
    parts = []
    for k in QUALIFIERS:
        if k in varying and k in r:
            v = r[k]
            parts.append(f"L{v}" if k == "levels" else str(v))
    return " ".join(parts)


def series_label(r, varying):
    return " ".join(p for p in (r["_scheme"], qualifier_text(r, varying)) if p)


def style_keys(r, varying):
    """(colour key, line-style key) of a record's series."""
    s, qual = r["_scheme"], qualifier_text(r, varying)
    if r["_family"] == "sep":
        h, _, v = s[4:].partition("+")
        return h, (v + " " + qual).strip()
    if r["_family"] == "block":
        base, _, buf = s.partition(":")
        return base, ((buf or "double") + " " + qual).strip()
    return s, qual


def nearest(points, target, tol=3.0):
    """Record whose size is nearest to target Mpixel (log scale), within tol times."""
    best = None
    for r in points:
        d = abs(math.log(r["_mpix"] / target))
        if d <= math.log(tol) and (best is None or d < best[0]):
            best = (d, r)
    return best[1] if best else None


def plot_family(plt, wav, fam, recs, varying, outdir, metric):
    """One PNG: the family's series (plus auto as reference) of one metric."""
    name, key, ylabel = metric
    dirs = sorted({r.get("direction", "forward") for r in recs})
    series = series_points(recs, varying, key)
    if not series:
        return None
    labels = sorted({lab for lab, _ in series}, key=lambda lab: (lab.split()[0] != "auto", lab))
    firsts = {lab: next(rs[0] for (l2, _), rs in series.items() if l2 == lab) for lab in labels}
    ref = {lab for lab in labels if firsts[lab]["_scheme"] == "auto" and fam != "engines"}
    ckeys = sorted({style_keys(firsts[lab], varying)[0] for lab in labels if lab not in ref})
    skeys = sorted({style_keys(firsts[lab], varying)[1] for lab in labels if lab not in ref})
    cmap = plt.get_cmap("tab10" if len(ckeys) <= 10 else "tab20")
    fig, axes = plt.subplots(1, len(dirs), figsize=(6.2 * len(dirs), 4.8), squeeze=False)
    handles = {}
    for ax, d in zip(axes[0], dirs):
        ys = []
        for lab in labels:
            pts = series.get((lab, d), [])
            if not pts:
                continue
            xs, yv = [r["_mpix"] for r in pts], [r[key] for r in pts]
            ys += yv
            if lab in ref:
                kw = dict(color="black", linewidth=2.6, linestyle="-", marker="o", zorder=5)
            else:
                ck, sk = style_keys(pts[0], varying)
                i, j = ckeys.index(ck), skeys.index(sk)
                kw = dict(color=cmap(i % cmap.N), linestyle=LINESTYLES[j % len(LINESTYLES)],
                          marker=MARKERS[(i + j) % len(MARKERS)], linewidth=1.5, markersize=5)
            (line,) = ax.plot(xs, yv, label=lab, **kw)
            handles.setdefault(lab, line)
        ax.set_xscale("log")
        if name == "gsamples" and ys and min(ys) > 0 and max(ys) / min(ys) > 50:
            ax.set_yscale("log")  # schemes orders of magnitude apart
        if name == "frac":
            ax.set_ylim(0, max(1.05, max(ys) * 1.05 if ys else 1.05))
        ax.set_xlabel("image size (Mpixel = 2^20 samples)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{wav} {fam} {d}")
        ax.grid(True, which="both", alpha=0.3)
    ncol = 1 if len(handles) <= 20 else 2
    fig.tight_layout()
    fig.legend([handles[lab] for lab in labels if lab in handles], [lab for lab in labels if lab in handles],
               loc="upper left", bbox_to_anchor=(1.0, 0.97), fontsize=8, ncol=ncol, frameon=False)
    path = os.path.join(outdir, f"{wav}-{fam}-{name}.png")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_wavelet(plt, wav, recs, outdir):
    varying = varying_keys(recs)
    written = []
    auto = [r for r in recs if r["_scheme"] == "auto"]
    fams = [f for f in FAMILIES if any(r["_family"] == f for r in recs)]
    if len(fams) > 1 and len(auto) == sum(r["_family"] == "engines" for r in recs):
        fams.remove("engines")  # auto alone: already the reference line of the others
    for fam in fams:
        own = [r for r in recs if r["_family"] == fam]
        if fam != "engines":  # the default engine as reference, measured by the same tool
            own += [r for r in auto if r["_source"] in {q["_source"] for q in own}]
        for metric in METRICS:
            path = plot_family(plt, wav, fam, own, varying, outdir, metric)
            if path:
                written.append(path)
    return written


def fmt(v, spec):
    return "–" if v is None else format(v, spec)


def table(by_wav):
    lines = [
        "| wavelet | scheme | direction | ps/pixel ~1 Mpix | fraction of copy ~1 Mpix "
        "| ps/pixel ~10 Mpix | fraction of copy ~10 Mpix |",
        "|---|---|---|---|---|---|---|",
    ]
    for wav in sorted(by_wav):
        recs = by_wav[wav]
        varying = varying_keys(recs)
        groups = series_points(recs, varying)
        fam = {lab: FAMILIES.index(pts[0]["_family"]) for (lab, _), pts in groups.items()}
        for key in sorted(groups, key=lambda k: (k[0].split()[0] != "auto", fam[k[0]], k[0], k[1])):
            label, d = key
            pts = groups[key]
            cells = []
            for target in (1.0, 10.0):
                p = nearest(pts, target)
                cells.append(f"{p['_ps']:.1f} ({p['_mpix']:.2g} MP)" if p else "–")
                cells.append(fmt(p["_frac"], ".2f") if p else "–")
            lines.append(f"| {wav} | {label} | {d} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description="Plot benchmark records per wavelet and scheme.")
    ap.add_argument("files", nargs="+", help="JSON record files (array, results file, or one object per line)")
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
        written += plot_wavelet(plt, wav, rs, args.out)
    md = table(by_wav)
    tpath = args.table or os.path.join(args.out, "schemes.md")
    with open(tpath, "w", encoding="utf-8") as f:
        f.write(md)
    sys.stdout.write(md)
    print(f"wrote {len(written)} plots and {tpath} from {len(recs)} records", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
