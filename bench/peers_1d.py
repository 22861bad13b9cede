#!/usr/bin/env python3
"""liftwave against the peers a 1-D user would pick: ptwt (PyTorch, on the GPU) and
PyWavelets (on the CPU), multi-level 1-D transforms of one float32 signal, one run.

    python3 bench/peers_1d.py [--cli BUILD/liftwave] [--out FILE] [--repeat N] [--quick]

Cases: signals of 2^20, 10^6 (2^6 x 15625) and 2^24 samples; haar, d4 (db2), cdf53 (bior2.2)
and cdf97 (bior4.4); 1 and 5 levels; wavedec and waverec.

The peers have no non-redundant periodic mode ("periodization" is PyWavelets' only, ptwt has
none), so they run mode "periodic" (PyWavelets' padded periodic extension: a few more
coefficients a level) and liftwave runs its periodic mode with the band gains that give
PyWavelets' units (docs/CONVENTIONS.md section 5: it then equals pywt's "periodization"; the
gains cost nothing, so the CLI's periodic mode is timed).  Checked: liftwave's result against
its cpu backend (the CLI's bench: output poisoned, then verified); ptwt's coefficients (and
reconstruction) against PyWavelets' on the same data within 1e-4 of max |coefficient|
(peer_verified).

Timing, same run, same device: liftwave by `liftwave bench --backend cuda --config G2G`
(device buffers, CUDA events, median; the bound is the device copy of the same bytes measured
in the same call); ptwt with
CUDA events around ptwt.wavedec / ptwt.waverec on device tensors (median); PyWavelets with
time.perf_counter around pywt.wavedec / pywt.waverec on NumPy arrays (median).  3 warm-up
runs each.

Records (one JSON object per line): device, commit, date, command, wavelet, peer_wavelet,
levels, shape, direction, mode, median_s, bound, bound_gbps, fraction_of_bound, verified,
peer, peer_median_s, peer_verified, peer_max_rel_err, speedup (peer time / ours), method.
A table follows on stderr.  Exit status 1 when a check fails, 2 for a missing library."""
import argparse
import datetime
import json
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

TOL = 1e-4
PEERS = {"haar": "haar", "d4": "db2", "cdf53": "bior2.2", "cdf97": "bior4.4"}
METHOD = ("liftwave: liftwave bench --backend cuda --config G2G (CUDA events, median; bound: device copy of the "
          "same bytes, same call), periodic mode; ptwt: CUDA events around wavedec / waverec on device tensors, "
          "mode periodic, median; pywt: perf_counter around wavedec / waverec, mode periodic, median; 3 warm-up runs "
          "each, same process, same device")


def max_rel(a, b):
    a, b = [np.concatenate([np.asarray(c, dtype=np.float64).ravel() for c in x]) for x in (a, b)]
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30)) if a.shape == b.shape else float("inf")


def lw_bench(cli, n, w, levels, direction, repeat):
    """liftwave's record for the case (the CLI's bench, verified against its cpu backend)"""
    cmd = [cli, "bench", "--backend", "cuda", "--config", "G2G", "--shape", str(n), "-w", w, "-l", str(levels),
           "-m", "periodic", "--direction", direction, "--repeat", str(repeat), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    recs = [json.loads(ln) for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not recs:
        raise RuntimeError("%s: status %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[-300:]))
    return recs[0]


def median_gpu(torch, fn, repeat):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(repeat):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        ts.append(e0.elapsed_time(e1) / 1e3)
    return statistics.median(ts)


def median_cpu(fn, repeat):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", default=shutil.which("liftwave") or "build/liftwave")
    ap.add_argument("--out")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="2^20 samples only")
    a = ap.parse_args()
    try:
        import ptwt
        import pywt
        import torch
    except ImportError as e:
        print("peers_1d: %s (install torch, ptwt and PyWavelets)" % e, file=sys.stderr)
        return 2
    out = open(a.out, "w") if a.out else sys.stdout
    dev = torch.cuda.get_device_name(0)
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    rng = np.random.default_rng(20261207)
    failed = 0
    rows = []
    for n in ([1 << 20] if a.quick else [1 << 20, 1000000, 1 << 24]):
        x = rng.standard_normal(n).astype(np.float32)
        xt = torch.from_numpy(x).cuda()
        for w in ("haar", "d4", "cdf53", "cdf97"):
            pw = PEERS[w]
            for L in (1, 5):
                ref_c = pywt.wavedec(x, pw, mode="periodic", level=L)
                got_c = ptwt.wavedec(xt, pw, mode="periodic", level=L)
                err_f = max_rel([c.cpu().numpy() for c in got_c], ref_c)
                ref_r = pywt.waverec(ref_c, pw, mode="periodic")
                err_i = max_rel([ptwt.waverec(got_c, pw).cpu().numpy()], [ref_r])
                for d, err in (("forward", err_f), ("inverse", err_i)):
                    res = lw_bench(a.cli, n, w, L, d, a.repeat)
                    if d == "forward":
                        t_ptwt = median_gpu(torch, lambda: ptwt.wavedec(xt, pw, mode="periodic", level=L), a.repeat)
                        t_pywt = median_cpu(lambda: pywt.wavedec(x, pw, mode="periodic", level=L), max(3, a.repeat // 4))
                    else:
                        t_ptwt = median_gpu(torch, lambda: ptwt.waverec(got_c, pw), a.repeat)
                        t_pywt = median_cpu(lambda: pywt.waverec(ref_c, pw, mode="periodic"), max(3, a.repeat // 4))
                    ok = bool(res.get("verified")) and err <= TOL
                    failed += not ok
                    t, frac = res["median_s"], res.get("fraction_of_bound")
                    for peer, tp in (("ptwt", t_ptwt), ("pywt", t_pywt)):
                        r = {"device": dev, "commit": commit, "date": date, "command": " ".join(sys.argv),
                             "wavelet": w, "peer_wavelet": pw, "levels": L, "shape": [n], "direction": d,
                             "mode": "periodic", "median_s": t, "bound": res.get("bound"),
                             "bound_gbps": res.get("bound_gbps"), "fraction_of_bound": frac,
                             "verified": bool(res.get("verified")), "engine": res.get("engine"), "peer": peer,
                             "peer_median_s": tp,
                             "peer_verified": err <= TOL if peer == "ptwt" else True,
                             "peer_max_rel_err": err if peer == "ptwt" else 0.0, "speedup": tp / t,
                             "method": METHOD}
                        out.write(json.dumps(r) + "\n")
                    rows.append((n, w, L, d, t, frac, t_ptwt, t_pywt, ok))
                    out.flush()
    print("%-9s %-6s %2s %-8s %10s %6s %11s %8s %11s %8s %s" % ("samples", "wave", "L", "dir", "liftwave", "copy",
                                                              "ptwt", "x", "pywt", "x", "checked"), file=sys.stderr)
    for n, w, L, d, t, f, tp, tc, ok in rows:
        print("%-9d %-6s %2d %-8s %8.1f us %6.3f %8.1f us %7.1fx %8.1f us %7.1fx %s" %
              (n, w, L, d, t * 1e6, f or 0, tp * 1e6, tp / t, tc * 1e6, tc / t, "yes" if ok else "NO"),
              file=sys.stderr)
    sp = sorted(tp / t for _, _, _, _, t, _, tp, _, _ in rows)
    if sp:
        print("speedup over ptwt: min %.1fx, median %.1fx over %d cases" % (sp[0], sp[len(sp) // 2], len(sp)),
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
