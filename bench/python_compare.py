#!/usr/bin/env python3
"""liftwave's Python package against PyWavelets, pytorch_wavelets and ptwt, in one run.

    python3 bench/python_compare.py [--cpu] [--gpu] [--quick] [--tag vm2] [--out FILE | --no-save]

CPU cases (NumPy, --cpu, the default when no GPU library is installed):
  dwt2-64x64        liftwave.pywt.dwt2(x, W, "periodization") on 64x64 float32: the
                    per-call cost of the Python layer (issue 18: <= 15 us, and faster
                    than pywt.dwt2), W = bior4.4 and haar
  wavedec2-4096-L5  liftwave.pywt.wavedec2(x, "bior4.4", "periodization", level=5) on
                    4096x4096 float32 against pywt.wavedec2 (issue 18: >= 30x)
GPU cases (--gpu; CuPy and/or PyTorch CUDA, each when installed):
  dwt2-16384        liftwave.pywt.dwt2 (haar, bior4.4) and liftwave.forward (cdf97
                    periodic) on a 16384x16384 float32 device array, with a device-to-device
                    copy of the same array timed in the same run: fraction_of_copy =
                    copy time / our time (issue 18: >= 0.75)
  wavedec2-64x3x512 PyTorch (64,3,512,512) float32, 1 and 3 levels, liftwave.pywt.wavedec2
                    against pytorch_wavelets DWTForward(mode="periodization") and ptwt.wavedec2
                    (issue 18: >= 10x pytorch_wavelets)
Every record: device, commit, date, command, case, median_s and, where a peer ran,
peer, peer_median_s, speedup (peer time / ours).  Results are checked against the
peer (or pywt) before they are timed.  Records go to
bench/results/python-<cpu|gpu>-<tag>-<date>-<commit>.json (tag: --tag, else the host
name) unless --out / --no-save.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METHOD = ("medians: CPU, time.perf_counter over blocks of calls after one warm-up call (the 64x64 cases: "
          "blocks of 2000 calls); GPU, CUDA events around each call on the current stream, a device-to-device "
          "copy of the same array timed before and after ours and the smaller median kept. Every result is "
          "checked against the peer (or pywt) before it is timed; liftwave.pywt returns views of one buffer.")


def commit():
    c = os.environ.get("LW_COMMIT")
    if c:
        return c
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=7", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - a tree without .git
        return "unknown"


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return "%s, %d cores" % (line.split(":", 1)[1].strip(), os.cpu_count())
    except OSError:
        pass
    return "%s, %d cores" % (platform.processor() or platform.machine(), os.cpu_count())


def host_median(fn, repeat, inner=1):
    """Median seconds per call of fn over `repeat` timed blocks of `inner` calls (after a warm-up)."""
    fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        ts.append((time.perf_counter() - t0) / inner)
    return statistics.median(ts)


def max_rel(ours, theirs):
    """Largest difference over the largest coefficient, across nested results."""
    def flat(c):
        if isinstance(c, dict):
            return [a for k in sorted(c) for a in flat(c[k])]
        if isinstance(c, (list, tuple)):
            return [a for x in c for a in flat(x)]
        return [c]
    a, b = flat(ours), flat(theirs)
    scale = max(float(abs(y).max()) for y in b)
    return max(float(abs(x - y).max()) for x, y in zip(a, b)) / scale


class Records:
    def __init__(self, device, command):
        self.device, self.command, self.rows = device, command, []
        self.load_start = os.getloadavg()
        self.commit, self.date = commit(), datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def add(self, case, median_s, peer=None, peer_median_s=None, **extra):
        r = {"device": self.device, "commit": self.commit, "date": self.date, "command": self.command,
             "case": case, "median_s": median_s}
        if peer is not None:
            r.update(peer=peer, peer_median_s=peer_median_s, speedup=peer_median_s / median_s)
        r.update(extra)
        self.rows.append(r)
        line = "%-44s ours %10.3f ms" % (case, median_s * 1e3)
        if peer is not None:
            line += "  %s %10.3f ms  speedup %.1fx" % (peer, peer_median_s * 1e3, r["speedup"])
        if "fraction_of_copy" in extra:
            line += "  fraction of copy %.2f" % extra["fraction_of_copy"]
        if "loop_speedup" in extra:
            line += "  in a loop: %.3f ms, speedup %.1fx" % (extra["loop_median_s"] * 1e3, extra["loop_speedup"])
        print(line, flush=True)


# ---- CPU: NumPy against PyWavelets ----------------------------------------------
def cpu_cases(rec, quick):
    import pywt as real
    import liftwave.pywt as lp

    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    for w in ("bior4.4", "haar"):
        assert max_rel(lp.dwt2(x, w, "periodization"), real.dwt2(x, w, "periodization")) < 1e-5
        blocks, inner = (5, 200) if quick else (21, 2000)
        ours = host_median(lambda: lp.dwt2(x, w, "periodization"), blocks, inner)
        theirs = host_median(lambda: real.dwt2(x, w, "periodization"), blocks, inner)
        rec.add("dwt2-64x64-float32-%s-numpy" % w, ours, "pywt", theirs, per_call_us=ours * 1e6,
                target="<= 15 us per call and faster than pywt")
    n = 1024 if quick else 4096
    x = rng.standard_normal((n, n)).astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert max_rel(lp.wavedec2(x, "bior4.4", "periodization", level=5),
                       real.wavedec2(x, "bior4.4", "periodization", level=5)) < 1e-5
        ours = host_median(lambda: lp.wavedec2(x, "bior4.4", "periodization", level=5), 3 if quick else 11)
        theirs = host_median(lambda: real.wavedec2(x, "bior4.4", "periodization", level=5), 3 if quick else 5)
    rec.add("wavedec2-%dx%d-L5-float32-bior4.4-numpy" % (n, n), ours, "pywt", theirs, threads=os.cpu_count(),
            pywt_version=real.__version__, target=">= 30x pywt")


# ---- GPU ---------------------------------------------------------------------------
class GpuTimer:
    """Median of event-timed calls on the current stream of CuPy or PyTorch."""

    def __init__(self, lib):
        self.lib = lib

    def median(self, fn, repeat, inner=1):
        """Median seconds per call over `repeat` samples; a sample times `inner` calls back to back
        (inner > 1: the host's launch gaps between calls overlap the device's work, as in a loop)."""
        if self.lib == "torch":
            import torch
            ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
            sync = torch.cuda.synchronize
        else:
            import cupy
            ev = cupy.cuda.Event
            sync = cupy.cuda.Device().synchronize
        fn()
        sync()
        ts = []
        for _ in range(repeat):
            a, b = ev(), ev()
            a.record()
            for _ in range(inner):
                fn()
            b.record()
            b.synchronize()
            ts.append((a.elapsed_time(b) if self.lib == "torch" else __import__("cupy").cuda.get_elapsed_time(a, b))
                      / 1e3 / inner)
        return statistics.median(ts)


def gpu_dwt2_cases(rec, lib, quick):
    """16384^2 float32 dwt2 through Python against a device copy, same run."""
    import liftwave
    import liftwave.pywt as lp

    n = 4096 if quick else 16384
    if lib == "torch":
        import torch
        x = torch.randn(n, n, device="cuda", dtype=torch.float32)
        y = torch.empty_like(x)
        copy = lambda: y.copy_(x)  # noqa: E731
    else:
        import cupy
        x = cupy.random.standard_normal((n, n), dtype=cupy.float32)
        y = cupy.empty_like(x)
        copy = lambda: cupy.copyto(y, x)  # noqa: E731
    t = GpuTimer(lib)
    reps = 10 if quick else 50
    out = liftwave.forward(x, "cdf97", mode="periodic")
    calls = [("liftwave.forward-cdf97-periodic", lambda: liftwave.forward(x, "cdf97", mode="periodic", out=out)),
             ("liftwave.pywt.dwt2-haar", lambda: lp.dwt2(x, "haar", "periodization")),
             ("liftwave.pywt.dwt2-bior4.4", lambda: lp.dwt2(x, "bior4.4", "periodization"))]
    for name, fn in calls:
        c1 = t.median(copy, reps)
        ours = t.median(fn, reps)
        c2 = t.median(copy, reps)
        cp = min(c1, c2)
        rec.add("%s-%dx%d-float32-%s" % (name, n, n, lib), ours, copy_median_s=cp, fraction_of_copy=cp / ours,
                target=">= 0.75 of the device copy")


def torch_batch_cases(rec, quick):
    """(64,3,512,512) float32, 1 and 3 levels: liftwave.pywt.wavedec2 against pytorch_wavelets and ptwt."""
    import torch
    import liftwave.pywt as lp

    shape = (8, 3, 256, 256) if quick else (64, 3, 512, 512)
    x = torch.randn(*shape, device="cuda", dtype=torch.float32)
    t = GpuTimer("torch")
    reps = 10 if quick else 30
    for wave in ("haar", "bior4.4"):
        for J in (1, 3):
            ours = t.median(lambda: lp.wavedec2(x, wave, "periodization", level=J), reps)
            case = "wavedec2-%s-L%d-%s-torch" % ("x".join(map(str, shape)), J, wave)
            peers = 0
            try:
                from pytorch_wavelets import DWTForward
                dwt = DWTForward(J=J, wave=wave, mode="periodization").cuda()
                yl, yh = dwt(x)
                ref = lp.wavedec2(x, wave, "periodization", level=J)
                err = float((yl - ref[0]).abs().max() / ref[0].abs().max())
                rec.add(case, ours, "pytorch_wavelets", t.median(lambda: dwt(x), reps), max_rel_diff_cA=err,
                        target=">= 10x pytorch_wavelets")
                peers += 1
            except Exception as e:  # noqa: BLE001 - missing, or failing on this torch: say so, go on
                print("pytorch_wavelets: %s: %s" % (type(e).__name__, e))
            try:
                import ptwt
                import pywt as real
                w = real.Wavelet(wave)
                ptwt.wavedec2(x, w, level=J, mode="periodic")
                rec.add(case, ours, "ptwt(mode=periodic)", t.median(
                    lambda: ptwt.wavedec2(x, w, level=J, mode="periodic"), reps))
                peers += 1
            except Exception as e:  # noqa: BLE001 - as above
                print("ptwt: %s: %s" % (type(e).__name__, e))
            if not peers:
                rec.add(case, ours)


def gpu_name(lib):
    if lib == "torch":
        import torch
        return torch.cuda.get_device_name()
    import cupy
    return cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)["name"].decode()


def have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpu", action="store_true", help="the NumPy cases")
    ap.add_argument("--gpu", action="store_true", help="the CuPy / PyTorch CUDA cases")
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats (a smoke test)")
    ap.add_argument("--out", help="JSON file for the records")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--tag", default=platform.node() or "host", help="machine name in the file name (vm2, h100)")
    args = ap.parse_args()
    command = "python3 bench/python_compare.py " + " ".join(sys.argv[1:])
    libs = [m for m in ("cupy", "torch") if have(m)]
    if libs and "torch" in libs:
        import torch
        if not torch.cuda.is_available():
            libs.remove("torch")
    if not args.cpu and not args.gpu:
        args.cpu, args.gpu = True, bool(libs)
    saved = []
    if args.cpu:
        rec = Records("cpu: " + cpu_name(), command)
        cpu_cases(rec, args.quick)
        saved.append(("cpu", rec))
    if args.gpu:
        if not libs:
            print("GPU cases skipped: neither CuPy nor PyTorch with CUDA is installed")
        else:
            rec = Records("gpu: " + gpu_name(libs[0]), command)
            for lib in libs:
                gpu_dwt2_cases(rec, lib, args.quick)
            if "torch" in libs:
                torch_batch_cases(rec, args.quick)
                import torch_compare  # the liftwave.torch layers, forward + backward (issue 19)
                torch_compare.torch_layer_cases(rec, args.quick)
            saved.append(("gpu", rec))
    for kind, rec in saved:
        if args.no_save or args.quick and not args.out:
            continue
        path = args.out or os.path.join(ROOT, "bench", "results", "python-%s-%s-%s-%s.json" % (
            kind, args.tag, rec.date[:10], rec.commit))
        if args.out and len(saved) > 1:
            path = "%s-%s.json" % (os.path.splitext(args.out)[0], kind)
        save(rec, path)


def save(rec, path):
    with open(path, "w") as f:
        json.dump({"device": rec.device, "commit": rec.commit, "date": rec.date, "command": rec.command,
                   "method": METHOD,
                   "host": {"loadavg_at_start": rec.load_start, "loadavg_at_end": os.getloadavg(),
                            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"), "cpus": os.cpu_count(),
                            "python": platform.python_version(), "numpy": np.__version__},
                   "results": rec.rows}, f, indent=1)
    print("records:", path)


if __name__ == "__main__":
    main()
