#!/usr/bin/env python3
"""Time PyWavelets against liftwave's cpu backend on the same data, one run.

    python3 bench/pywt_compare.py [--size 8192] [--repeat 5] [--threads N]
                                  [--lib build/libliftwave.so] [--json]

PyWavelets: pywt.dwt2(x, 'bior4.4', mode='periodization') on float32.
liftwave:   cdf97, periodic, float32, 1 level, forward, backend cpu, through
            ctypes on the shared library (no dependency on the CLI), out of
            place into a preallocated array.
Both get the same random float32 size x size array.  Each is run once to warm
up, then timed `repeat` times; the medians and their ratio are printed.  The
outputs are checked against each other (docs/CONVENTIONS.md: cdf97 periodic equals
bior4.4 periodization once its lowpass is multiplied by sqrt(2) and its
highpass by -1/sqrt(2) per axis), so the two really compute the same
transform.
liftwave's thread count: --threads, else OMP_NUM_THREADS, else all cores
(PyWavelets runs on one thread).  Also reported: a memcpy of the same array
(numpy.copyto, one thread) as a rough bandwidth reference.
"""
import argparse
import ctypes
import json
import os
import platform
import statistics
import sys
import time

from lw_ctypes import LwConfig  # bench/ (the script's folder) is on sys.path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


LW_FLOAT32, LW_CDF97, LW_PERIODIC, LW_MALLAT, LW_FORWARD, LW_BACKEND_CPU = 0, 2, 1, 0, 0, 1


def load_lib(path):
    lib = ctypes.CDLL(path)
    lib.lw_config_init.argtypes = [ctypes.POINTER(LwConfig)]
    lib.lw_plan_create.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(LwConfig)]
    lib.lw_plan_create.restype = ctypes.c_int
    lib.lw_execute.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    lib.lw_execute.restype = ctypes.c_int
    lib.lw_destroy.argtypes = [ctypes.c_void_p]
    lib.lw_last_error.restype = ctypes.c_char_p
    lib.lw_version.restype = ctypes.c_char_p
    return lib


def median_time(fn, repeat):
    fn()  # warm-up
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=8192)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="liftwave threads (OMP_NUM_THREADS)")
    ap.add_argument("--lib", default=os.environ.get("LIFTWAVE_LIB", os.path.join(ROOT, "build", "libliftwave.so")))
    ap.add_argument("--json", action="store_true", help="print one JSON record instead of text")
    a = ap.parse_args()
    if a.threads > 0:
        os.environ["OMP_NUM_THREADS"] = str(a.threads)  # before libgomp is loaded
    try:
        import numpy as np
        import pywt
    except ImportError as e:
        print("pywt_compare: needs numpy and PyWavelets (%s)" % e, file=sys.stderr)
        return 2
    if not os.path.exists(a.lib):
        print("pywt_compare: %s not found (build the library, or pass --lib)" % a.lib, file=sys.stderr)
        return 2
    lib = load_lib(a.lib)

    n = a.size
    x = np.random.default_rng(12345).standard_normal((n, n), dtype=np.float32)
    y = np.empty_like(x)

    cfg = LwConfig()
    lib.lw_config_init(ctypes.byref(cfg))
    cfg.rank = 2
    cfg.shape[0] = n
    cfg.shape[1] = n
    cfg.dtype, cfg.wavelet, cfg.mode, cfg.layout = LW_FLOAT32, LW_CDF97, LW_PERIODIC, LW_MALLAT
    cfg.levels, cfg.direction, cfg.backend = 1, LW_FORWARD, LW_BACKEND_CPU
    plan = ctypes.c_void_p()
    if lib.lw_plan_create(ctypes.byref(plan), ctypes.byref(cfg)) != 0:
        print("pywt_compare: plan failed: %s" % lib.lw_last_error().decode(), file=sys.stderr)
        return 1
    xp, yp = x.ctypes.data_as(ctypes.c_void_p), y.ctypes.data_as(ctypes.c_void_p)

    def run_lw():
        if lib.lw_execute(plan, xp, yp) != 0:
            raise RuntimeError(lib.lw_last_error().decode())

    res = {}

    def run_pywt():
        res["c"] = pywt.dwt2(x, "bior4.4", mode="periodization")

    t_lw, t_lw_min = median_time(run_lw, a.repeat)
    t_pw, t_pw_min = median_time(run_pywt, max(1, min(a.repeat, 5)))
    cp = np.empty_like(x)
    t_cp, _ = median_time(lambda: np.copyto(cp, x), a.repeat)
    lib.lw_destroy(plan)

    # same transform?  docs/CONVENTIONS.md: pywt = liftwave with lowpass * sqrt(2) and
    # highpass * -1/sqrt(2) per axis, so liftwave band = pywt band * s or r per axis
    cA, (cH, cV, cD) = res["c"]
    h = n // 2
    s, r = 1.0 / np.sqrt(2.0), -np.sqrt(2.0)
    pairs = [(y[:h, :h], cA * s * s), (y[h:, :h], cH * r * s), (y[:h, h:], cV * s * r), (y[h:, h:], cD * r * r)]
    err = max(float(np.max(np.abs(a_ - b_))) for a_, b_ in pairs)
    scale = max(float(np.max(np.abs(b_))) for _, b_ in pairs)
    threads = int(os.environ.get("OMP_NUM_THREADS", "0") or 0) or os.cpu_count()
    rec = {
        "size": [n, n],
        "dtype": "float32",
        "pywt": {"function": "dwt2", "wavelet": "bior4.4", "mode": "periodization", "version": pywt.__version__,
                 "median_s": t_pw, "min_s": t_pw_min, "threads": 1},
        "liftwave": {"wavelet": "cdf97", "mode": "periodic", "backend": "cpu", "version": lib.lw_version().decode(),
                     "median_s": t_lw, "min_s": t_lw_min, "threads": threads,
                     "gsamples_per_s": n * n / t_lw * 1e-9},
        "numpy_copy_s": t_cp,
        "ratio_pywt_over_liftwave": t_pw / t_lw,
        "max_abs_diff": err,
        "max_rel_diff": err / scale if scale else err,
        "same_result": err <= 1e-4 * scale,
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
    }
    if a.json:
        print(json.dumps(rec))
    else:
        print("data: %dx%d float32, same array for both" % (n, n))
        print("PyWavelets %s dwt2 bior4.4 periodization: median %.1f ms (min %.1f), 1 thread"
              % (pywt.__version__, t_pw * 1e3, t_pw_min * 1e3))
        print("liftwave %s cdf97 periodic cpu: median %.1f ms (min %.1f), %d thread(s), %.3f Gsamples/s"
              % (rec["liftwave"]["version"], t_lw * 1e3, t_lw_min * 1e3, threads, rec["liftwave"]["gsamples_per_s"]))
        print("numpy copy of the array: %.1f ms" % (t_cp * 1e3))
        print("results agree: max |diff| %.3g (relative %.3g)" % (err, rec["max_rel_diff"]))
        print("ratio pywt / liftwave: %.2f" % rec["ratio_pywt_over_liftwave"])
    return 0 if rec["same_result"] else 1


if __name__ == "__main__":
    sys.exit(main())
