#!/usr/bin/env python3
"""liftwave against pycudwt (PDWT's Python binding) on the matrix's 2-D cases, one run.

    python3 bench/pycudwt_compare.py --lib BUILD/libliftwave.so [--out FILE] [--repeat N]
                                     [--only PATTERN] [--quick] [--peer pycudwt|pywt]

pycudwt transforms 2-D float32 arrays on the GPU with PyWavelets' filters in mode
"periodization" (its tests compare with pywt.wavedec2(x, w, mode="per")), so each
case pairs a liftwave wavelet with the PyWavelets filter bank that computes the
same transform (docs/CONVENTIONS.md, section 5):

    haar  <-> haar      orthonormal, equal in periodic mode
    d4    <-> db2       equal in periodic mode (alignment and sign)
    cdf53 <-> bior2.2   equal with band gains {sqrt(2), -1/sqrt(2)} (lw_config.gain)
    cdf97 <-> bior4.4   the same
    (dd137, dd97, fs: no PyWavelets filter bank; pycudwt has no 3-D and no batches)

and liftwave runs in periodic mode with those gains, so that both produce the same
numbers.  Cases (the matrix's 2-D cells, same names): 2d-l1 (16384^2, 1 level),
2d-max (16384^2, the most levels pycudwt takes: it caps them at
ilog2(n / (taps - 1)), 10 for bior4.4; liftwave runs the same count), latency-2d-l1
(1080x1920, cdf97 only); forward and inverse.

Before timing, each case is checked: pycudwt's coefficients (A, [H, V, D] per
level) placed in liftwave's Mallat layout must equal liftwave's (the cpu backend,
same gains) within 1e-4 of max |coefficient| (peer_verified, peer_max_rel_err);
its inverse must give the input back within the same tolerance.  (Older PDWT releases
exchanged haar's H and V bands: where only the exchanged placement matches, the
record says so in peer_layout.)

Timing, both on the same device in the same process: liftwave through
lw_cuda_bench() (device buffers, CUDA events, the device-copy bound measured in the
same call, output poisoned and verified against the cpu backend: the matrix's
method); pycudwt with CUDA events on the legacy default stream (PDWT launches its
kernels there) around W.forward() or W.inverse() on its device-resident arrays,
through the libcudart pycudwt itself loaded; each inverse run is preceded by an
untimed forward (PDWT refuses a second inverse in a row).  Medians of --repeat runs
after 3 warm-up runs.

Records (one JSON object per line, --out or stdout): device, commit, date, command,
cell, wavelet, levels, shape, mode, direction, median_s, bound, bound_gbps,
fraction_of_bound, verified, floor_bytes, peer, peer_wavelet, peer_median_s,
peer_fraction_of_bound, peer_verified, peer_max_rel_err, speedup (peer time /
ours: > 1 means liftwave is faster), method.  A summary follows on stderr.

--peer pywt stands PyWavelets (on the CPU) in for pycudwt: the layout and scaling
check without a GPU (with --check-only: no timing at all; the CPU tests use it).
Exit status: 0, 1 when a check fails, 2 usage or a missing library.
"""
import argparse
import ctypes
import datetime
import fnmatch
import json
import os
import statistics
import subprocess
import sys

import numpy as np

from lw_ctypes import LwBenchResult, LwConfig  # bench/ (the script's folder) is on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LW_FLOAT32, LW_PERIODIC, LW_MALLAT, LW_FORWARD, LW_INVERSE = 0, 1, 0, 0, 1
LW_BACKEND_CPU, LW_BACKEND_CUDA, LW_BENCH_G2G = 1, 2, 0
WAVELET_ID = {"haar": 0, "cdf53": 1, "cdf97": 2, "dd137": 3, "d4": 4, "fs": 5, "dd97": 6}
# liftwave wavelet -> (PyWavelets / pycudwt name, band gains giving its units, filter taps)
PEERS = {"haar": ("haar", (1.0, 1.0), 2), "d4": ("db2", (1.0, 1.0), 4),
         "cdf53": ("bior2.2", (2 ** 0.5, -(0.5 ** 0.5)), 6), "cdf97": ("bior4.4", (2 ** 0.5, -(0.5 ** 0.5)), 10)}
TOL = 1e-4
METHOD = ("liftwave: lw_cuda_bench (G2G, CUDA events, median; bound: device copy of the same bytes in the same "
          "call), periodic mode with band gains giving PyWavelets' units; peer: CUDA events on the legacy default "
          "stream around W.forward() / W.inverse() (an untimed forward before each inverse), median; both after 3 "
          "warm-up runs, same process, same device")


class Liftwave:
    def __init__(self, path):
        lib = ctypes.CDLL(path)
        lib.lw_config_init.argtypes = [ctypes.POINTER(LwConfig)]
        lib.lw_plan_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(LwConfig)]
        lib.lw_execute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.lw_destroy.argtypes = [ctypes.c_void_p]
        lib.lw_plan_config.argtypes = [ctypes.c_void_p]
        lib.lw_plan_config.restype = ctypes.POINTER(LwConfig)
        lib.lw_last_error.restype = ctypes.c_char_p
        lib.lw_version.restype = ctypes.c_char_p
        lib.lw_backend_available.argtypes = [ctypes.c_int]
        lib.lw_cuda_bench.argtypes = [ctypes.POINTER(LwConfig), ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                                      ctypes.c_void_p, ctypes.c_double, ctypes.POINTER(LwBenchResult)]
        self.lib = lib

    def config(self, shape, wavelet, levels, direction, backend):
        c = LwConfig()
        self.lib.lw_config_init(ctypes.byref(c))
        c.rank = len(shape)
        for i, n in enumerate(shape):
            c.shape[i] = n
        c.dtype, c.wavelet, c.mode, c.layout = LW_FLOAT32, WAVELET_ID[wavelet], LW_PERIODIC, LW_MALLAT
        c.levels, c.direction, c.backend = levels, direction, backend
        c.gain[0], c.gain[1] = PEERS[wavelet][1]
        return c

    def error(self, what):
        return RuntimeError("liftwave %s: %s" % (what, self.lib.lw_last_error().decode()))

    def execute(self, x, wavelet, levels, direction):
        """The cpu backend's result (the reference of the timed runs)."""
        cfg = self.config(x.shape, wavelet, levels, direction, LW_BACKEND_CPU)
        plan = ctypes.c_void_p()
        if self.lib.lw_plan_create(ctypes.byref(plan), ctypes.byref(cfg)) != 0:
            raise self.error("plan")
        y = np.empty_like(x)
        st = self.lib.lw_execute(plan, x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p))
        self.lib.lw_destroy(plan)
        if st != 0:
            raise self.error("execute")
        return y

    def bench(self, x, ref, wavelet, levels, direction, repeat):
        cfg = self.config(x.shape, wavelet, levels, direction, LW_BACKEND_CUDA)
        res = LwBenchResult()
        st = self.lib.lw_cuda_bench(ctypes.byref(cfg), LW_BENCH_G2G, repeat, x.ctypes.data_as(ctypes.c_void_p),
                                    ref.ctypes.data_as(ctypes.c_void_p), 1e-5, ctypes.byref(res))
        if st != 0:
            raise self.error("lw_cuda_bench")
        return res


# ---- the peer -------------------------------------------------------------------

def to_mallat(coeffs, shape, swap=False):
    """[A, [H1, V1, D1], [H2, ...], ...] (level 1 finest; pywt's cH, cV, cD) -> liftwave's Mallat array;
    swap: H and V exchanged (older PDWT releases wrote haar's that way)."""
    out = np.empty(shape, np.float32)
    levels = len(coeffs) - 1
    h, w = shape
    for j in range(1, levels + 1):
        hh, ww = (h + 1) // 2, (w + 1) // 2
        cH, cV, cD = coeffs[j]
        if swap:
            cH, cV = cV, cH
        out[hh:h, :ww] = cH  # highpass along axis 0, lowpass along axis 1
        out[:hh, ww:w] = cV
        out[hh:h, ww:w] = cD
        h, w = hh, ww
    out[:h, :w] = coeffs[0]
    return out


class PycudwtPeer:
    name = "pycudwt"

    def __init__(self):
        import pycudwt
        self.mod = pycudwt
        self.version = getattr(pycudwt, "__version__", None) or pkg_version("pycudwt")
        self.cudart = self._cudart()

    @staticmethod
    def _cudart():
        """The libcudart pycudwt loaded (its kernels run in that runtime's context and default stream)."""
        path = None
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1]
                if "libcudart.so" in os.path.basename(p):
                    path = p
                    break
        rt = ctypes.CDLL(path or "libcudart.so")
        for fn in ("cudaEventCreate", "cudaEventRecord", "cudaEventSynchronize", "cudaEventElapsedTime",
                   "cudaDeviceSynchronize", "cudaEventDestroy"):
            getattr(rt, fn).restype = ctypes.c_int
        return rt

    def levels_allowed(self, n, taps):
        lv, q = 0, n // (taps - 1)
        while q > 1:
            q >>= 1
            lv += 1
        return lv

    def make(self, x, wname, levels):
        return self.mod.Wavelets(x, wname, levels)

    def coeffs(self, W):
        return W.coeffs

    def image(self, W):
        return W.image

    def median(self, W, direction, repeat, warm=3):
        rt, ms = self.cudart, ctypes.c_float()
        e0, e1 = ctypes.c_void_p(), ctypes.c_void_p()
        rt.cudaEventCreate(ctypes.byref(e0))
        rt.cudaEventCreate(ctypes.byref(e1))
        ts = []
        for i in range(warm + repeat):
            if direction == LW_INVERSE:
                W.forward()  # untimed: PDWT runs no second inverse in a row
            rt.cudaDeviceSynchronize()
            rt.cudaEventRecord(e0, None)
            W.forward() if direction == LW_FORWARD else W.inverse()
            rt.cudaEventRecord(e1, None)
            if rt.cudaEventSynchronize(e1) != 0:
                raise RuntimeError("pycudwt: cudaEventSynchronize failed")
            rt.cudaEventElapsedTime(ctypes.byref(ms), e0, e1)
            if i >= warm:
                ts.append(ms.value * 1e-3)
        rt.cudaEventDestroy(e0)
        rt.cudaEventDestroy(e1)
        return statistics.median(ts)


class PywtPeer:
    """PyWavelets on the CPU in pycudwt's place: checks the layout and scaling without a GPU."""
    name = "pywt"

    def __init__(self):
        import pywt
        self.pywt = pywt
        self.version = pywt.__version__
        self.cudart = None

    def levels_allowed(self, n, taps):
        return PycudwtPeer.levels_allowed(self, n, taps)

    def make(self, x, wname, levels):
        class W:
            pass
        w = W()
        w.x, w.wname, w.levels = x, wname, levels
        return w

    def coeffs(self, W):
        c = self.pywt.wavedec2(W.x, W.wname, mode="periodization", level=W.levels)
        return [c[0]] + [list(c[W.levels - i]) for i in range(W.levels)]  # pycudwt's order: finest first

    def image(self, W):
        c = self.pywt.wavedec2(W.x, W.wname, mode="periodization", level=W.levels)
        return self.pywt.waverec2(c, W.wname, mode="periodization").astype(np.float32)

    def median(self, W, direction, repeat, warm=3):
        raise RuntimeError("--peer pywt checks only (--check-only)")


def pkg_version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # noqa: BLE001 - no metadata
        return "unknown"


# ---- cases ---------------------------------------------------------------------

def cases(quick):
    n = 1024 if quick else 16384
    out = []
    for w in ("haar", "cdf53", "cdf97", "d4"):
        out.append(("2d-l1", (n, n), w, 1))
        out.append(("2d-max", (n, n), w, "max"))
    out.append(("latency-2d-l1", (270, 480) if quick else (1080, 1920), "cdf97", 1))
    return out


def rel_err(a, b):
    scale = float(np.max(np.abs(b))) or 1.0
    return float(np.max(np.abs(a.astype(np.float64) - b))) / scale


def floor_bytes(shape, levels):
    s, h, w = 0, shape[0], shape[1]
    for _ in range(levels):
        s += h * w
        h, w = (h + 1) // 2, (w + 1) // 2
    return 8.0 * s


def commit():
    c = os.environ.get("LW_COMMIT")
    if c:
        return c
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - a tree without .git
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lib", default=os.environ.get("LIFTWAVE_LIB", os.path.join(ROOT, "build", "libliftwave.so")))
    ap.add_argument("--out", help="records file (JSON lines); default stdout")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--only", default="", help="comma list of cell globs or substrings, e.g. '2d-l1-*'")
    ap.add_argument("--quick", action="store_true", help="1024^2 and 270x480 instead of 16384^2 and 1080x1920")
    ap.add_argument("--peer", choices=("pycudwt", "pywt"), default="pycudwt")
    ap.add_argument("--check-only", action="store_true", help="check the peer's results, time nothing")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    if not os.path.exists(a.lib):
        print("pycudwt_compare: %s not found (build liftwave_shared, or pass --lib)" % a.lib, file=sys.stderr)
        return 2
    if a.peer == "pywt" and not a.check_only:
        print("pycudwt_compare: --peer pywt stands in for the checks only (add --check-only)", file=sys.stderr)
        return 2
    try:
        peer = PycudwtPeer() if a.peer == "pycudwt" else PywtPeer()
    except ImportError as e:
        print("pycudwt_compare: %s is not installed (%s): nothing to compare" % (a.peer, e), file=sys.stderr)
        return 2
    lw = Liftwave(a.lib)
    if not a.check_only and not lw.lib.lw_backend_available(LW_BACKEND_CUDA):
        print("pycudwt_compare: liftwave's cuda backend is not available (--check-only checks without it)",
              file=sys.stderr)
        return 2
    command = "python3 bench/pycudwt_compare.py " + " ".join(sys.argv[1:])
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    out = open(a.out, "w") if a.out else sys.stdout
    pats = [p for p in a.only.split(",") if p]
    failed, rows = 0, []
    for group, shape, w, lv in cases(a.quick):
        pw, _, taps = PEERS[w]
        levels = peer.levels_allowed(min(shape), taps) if lv == "max" else lv
        names = ["%s-%s-%s" % (group, w, d) for d in ("fwd", "inv")]
        if pats and not any(fnmatch.fnmatch(n, p) if any(ch in p for ch in "*?[") else p in n
                            for n in names for p in pats):
            continue
        x = np.random.default_rng(len(rows) + 1).uniform(-1.5, 1.5, shape).astype(np.float32)
        coef = lw.execute(x, w, levels, LW_FORWARD)
        back = lw.execute(coef, w, levels, LW_INVERSE)
        W = peer.make(x, pw, levels)
        if hasattr(W, "forward"):
            W.forward()
        pc = peer.coeffs(W)
        fwd_err = rel_err(to_mallat(pc, shape), coef)
        swapped = fwd_err > TOL and rel_err(to_mallat(pc, shape, swap=True), coef) <= TOL
        if swapped:
            fwd_err = rel_err(to_mallat(pc, shape, swap=True), coef)
        del pc
        if hasattr(W, "inverse"):
            W.inverse()
        inv_err = rel_err(peer.image(W), x)
        for name, d, inp, ref, perr in ((names[0], LW_FORWARD, x, coef, fwd_err),
                                        (names[1], LW_INVERSE, coef, back, inv_err)):
            ok = perr <= TOL
            failed += not ok
            r = {"cell": name, "wavelet": w, "levels": levels, "shape": list(shape), "mode": "periodic",
                 "gain": list(PEERS[w][1]), "direction": "forward" if d == LW_FORWARD else "inverse",
                 "peer": "%s %s" % (peer.name, peer.version), "peer_wavelet": pw, "peer_verified": ok,
                 "peer_max_rel_err": perr, "commit": commit(), "date": date, "command": command}
            if swapped:
                r["peer_layout"] = "H and V bands exchanged against pywt's cH, cV (placed accordingly)"
            if lv == "max":
                r["note"] = "%s takes at most %d levels of %s on %d (ilog2(n / (taps - 1))); both run %d" % (
                    peer.name, levels, pw, min(shape), levels)
            if not a.check_only:
                res = lw.bench(inp, ref, w, levels, d, a.repeat)
                pt = peer.median(W, d, a.repeat)
                fb = floor_bytes(shape, levels)
                r.update(device=res.device.decode(), median_s=res.median_s, bound=res.bound.decode(),
                         bound_gbps=res.bound_gbps, fraction_of_bound=fb / res.median_s / 1e9 / res.bound_gbps,
                         verified=bool(res.verified), floor_bytes=fb, peer_median_s=pt,
                         peer_fraction_of_bound=fb / pt / 1e9 / res.bound_gbps, speedup=pt / res.median_s,
                         method=METHOD)
                failed += not res.verified
            rows.append(r)
            out.write(json.dumps(r) + "\n")
            out.flush()
    if a.out:
        out.close()
    if not rows:
        print("pycudwt_compare: --only '%s' matches no case" % a.only, file=sys.stderr)
        return 2
    slower = [r for r in rows if "speedup" in r and r["speedup"] < 1]
    print("# %d records, %d checks failed%s" % (len(rows), failed, "" if a.check_only else
          ", liftwave faster on %d of %d" % (len(rows) - len(slower), len(rows))), file=sys.stderr)
    for r in rows:
        line = "# %-24s L%-2d peer %-8s max rel err %.2g" % (r["cell"], r["levels"], r["peer_wavelet"],
                                                             r["peer_max_rel_err"])
        if "speedup" in r:
            line += "  liftwave %8.3f ms (%.2f of copy)  %s %8.3f ms (%.2f)  speedup %.2fx" % (
                r["median_s"] * 1e3, r["fraction_of_bound"], peer.name, r["peer_median_s"] * 1e3,
                r["peer_fraction_of_bound"], r["speedup"])
        print(line, file=sys.stderr)
    for r in slower:
        print("# slower than %s: %s (%.2fx)" % (peer.name, r["cell"], r["speedup"]), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
