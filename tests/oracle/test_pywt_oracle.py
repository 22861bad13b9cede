#!/usr/bin/env python3
"""PyWavelets as an external oracle for liftwave's forward transform.

Usage: test_pywt_oracle.py LIFTWAVE_EXE [--backend cpu|cuda|cpu-ref] [--verbose]

Drives the built CLI (`liftwave forward IN.npy OUT.npy ...`) on float64 .npy
files and compares with PyWavelets through the relations of docs/CONVENTIONS.md section 5:

  periodic   haar  == pywt 'haar'    mode 'periodization', exactly
             d4    == pywt 'db2'     mode 'periodization', exactly
             cdf97 ~  pywt 'bior4.4' and cdf53 ~ pywt 'bior2.2' (periodization):
                      pywt lowpass  = liftwave lowpass  * sqrt(2)
                      pywt highpass = liftwave highpass * (-1/sqrt(2))
                      per transformed axis, compounding over the levels.
  symmetric  (cdf97, cdf53) one level == periodization of the signal mirrored
             along every transformed axis (x0..x(n-1), x(n-2)..x1), restricted
             to the first ceil(n/2) lowpass / floor(n/2) highpass; several
             levels apply the same relation to the lowpass corner.
  layouts    mallat: per axis lowpass ceil(n/2) first, then highpass, next
             level in the lowpass corner; interleaved: the same coefficients at
             their sample positions (level k on multiples of 2^(k-1)).

Exit status: 0 all cases pass, 1 some case failed, 77 PyWavelets (or NumPy)
is not installed (registered with SKIP_RETURN_CODE 77).
"""
import math
import os
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not installed for %s (apt-get install python3-numpy python3-pywt, or pip install "
          "numpy PyWavelets; then reconfigure)" % sys.executable)
    sys.exit(77)
try:
    import pywt
except ImportError:
    print("SKIP: PyWavelets is not installed for %s (apt-get install python3-pywt, or pip install PyWavelets; "
          "then reconfigure)" % sys.executable)
    sys.exit(77)

# pywt warns that high levels "experience boundary effects": expected here.
warnings.simplefilter("ignore", UserWarning)

SQ2 = math.sqrt(2.0)
PYWT_NAME = {"haar": "haar", "d4": "db2", "cdf97": "bior4.4", "cdf53": "bior2.2"}
# pywt coefficient = liftwave coefficient * factor, per axis: (lowpass, highpass)
FACTOR = {"haar": (1.0, 1.0), "d4": (1.0, 1.0), "cdf97": (SQ2, -1.0 / SQ2), "cdf53": (SQ2, -1.0 / SQ2)}
# pywt's 9/7 taps are less precise than ITU-T T.800's: agreement is ~1e-12.
TOL = {"haar": 1e-12, "d4": 1e-12, "cdf97": 1e-9, "cdf53": 1e-12}


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------
# Running liftwave
# ---------------------------------------------------------------------------
class CliRunner:
    """Runs `liftwave forward` on .npy files in a private temporary folder."""

    def __init__(self, exe, backend):
        self.exe = exe
        self.backend = backend
        self.tmp = tempfile.TemporaryDirectory(prefix="lw-oracle-")
        self.count = 0

    def paths(self):
        self.count += 1
        d = self.tmp.name
        return os.path.join(d, "in%d.npy" % self.count), os.path.join(d, "out%d.npy" % self.count)

    def command(self, src, dst, wavelet, levels, mode, layout, axes):
        cmd = [self.exe, "forward", src, dst, "-w", wavelet, "-l", str(levels), "-m", mode,
               "--layout", layout, "-b", self.backend]
        if axes is not None:
            cmd += ["--axes", ",".join(str(a) for a in axes)]
        return cmd

    def forward(self, x, wavelet, levels, mode, layout="mallat", axes=None):
        src, dst = self.paths()
        np.save(src, np.ascontiguousarray(x, dtype=np.float64))
        cmd = self.command(src, dst, wavelet, levels, mode, layout, axes)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        if p.returncode != 0:
            raise Failure("exit %d: %s (%s)" % (p.returncode, p.stderr.decode(errors="replace").strip(),
                                               " ".join(cmd[1:])))
        y = np.load(dst)
        os.unlink(src)
        os.unlink(dst)
        if y.dtype != np.float64 or y.shape != x.shape:
            raise Failure("output is %s %s, expected float64 %s" % (y.dtype, y.shape, x.shape))
        return y

    def expect_error(self, x, wavelet, levels, mode):
        """An impossible request: non-zero exit, one 'liftwave:' line, no output file."""
        src, dst = self.paths()
        np.save(src, x)
        cmd = self.command(src, dst, wavelet, levels, mode, "mallat", None)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode(errors="replace").strip().splitlines()
        if p.returncode == 0:
            raise Failure("expected an error, got exit 0")
        if len(err) != 1 or not err[0].startswith("liftwave:"):
            raise Failure("expected one 'liftwave: ...' line on stderr, got %r" % err)
        if os.path.exists(dst):
            raise Failure("an output file was left behind")


# ---------------------------------------------------------------------------
# Expected liftwave output, built from PyWavelets
# ---------------------------------------------------------------------------
def half(n):
    return (n + 1) // 2


def band_scale(wavelet, key, level):
    """Factor from liftwave units to pywt units for a band of `level` (1-based)."""
    fl, fh = FACTOR[wavelet]
    s = 1.0
    for c in key:
        s *= fl ** (level - 1) * (fl if c == "a" else fh)
    return s


def band_index(ndim, axes, lengths, key):
    """Index of a level's band inside the Mallat array; lengths: region per axis."""
    idx = [slice(None)] * ndim
    for a, n, c in zip(axes, lengths, key):
        idx[a] = slice(0, half(n)) if c == "a" else slice(half(n), n)
    return tuple(idx)


def expected_periodic(x, wavelet, levels, axes):
    """Mallat array in liftwave units from pywt.wavedecn (periodization)."""
    coeffs = pywt.wavedecn(x, PYWT_NAME[wavelet], mode="periodization", level=levels, axes=axes)
    out = np.full(x.shape, np.nan)
    lengths = [x.shape[a] for a in axes]
    for j in range(1, levels + 1):
        details = coeffs[levels - j + 1]  # coeffs = [cA_L, d_L, ..., d_1]
        for key, band in details.items():
            out[band_index(x.ndim, axes, lengths, key)] = band / band_scale(wavelet, key, j)
        lengths = [half(n) for n in lengths]
    corner = [slice(None)] * x.ndim
    for a, n in zip(axes, lengths):
        corner[a] = slice(0, n)
    out[tuple(corner)] = coeffs[0] / band_scale(wavelet, "a" * len(axes), levels)
    return out


def mirror(x, axis):
    """x0..x(n-1), x(n-2)..x1 along axis (whole-sample symmetric period 2n-2)."""
    n = x.shape[axis]
    if n < 2:
        return x
    tail = np.take(x, np.arange(n - 2, 0, -1), axis=axis)
    return np.concatenate([x, tail], axis=axis)


def symmetric_one_level(x, wavelet, axes):
    """One symmetric level, in place on x (liftwave units, Mallat)."""
    xm = x
    for a in axes:
        xm = mirror(xm, a)
    bands = pywt.dwtn(xm, PYWT_NAME[wavelet], mode="periodization", axes=axes)
    lengths = [x.shape[a] for a in axes]
    out = np.empty_like(x)
    for key, band in bands.items():
        take = [slice(None)] * x.ndim
        for a, n, c in zip(axes, lengths, key):
            take[a] = slice(0, half(n) if c == "a" else n // 2)
        out[band_index(x.ndim, axes, lengths, key)] = band[tuple(take)] / band_scale(wavelet, key, 1)
    x[...] = out


def expected_symmetric(x, wavelet, levels, axes):
    out = np.array(x, dtype=np.float64, copy=True)
    lengths = [x.shape[a] for a in axes]
    for _ in range(levels):
        region = [slice(None)] * x.ndim
        for a, n in zip(axes, lengths):
            region[a] = slice(0, n)
        sub = out[tuple(region)].copy()
        symmetric_one_level(sub, wavelet, axes)
        out[tuple(region)] = sub
        lengths = [half(n) for n in lengths]
    return out


def trailing_zeros(i, cap):
    if i == 0:
        return cap
    t = 0
    while i % 2 == 0 and t < cap:
        i //= 2
        t += 1
    return t


def mallat_to_interleaved(m, levels):
    """Move every coefficient of a Mallat array (all axes transformed) to its
    interleaved sample position."""
    shape = m.shape
    tz = [np.array([trailing_zeros(i, levels) for i in range(n)]) for n in shape]
    grids = np.meshgrid(*[np.arange(n) for n in shape], indexing="ij")
    tzs = np.meshgrid(*tz, indexing="ij")
    level = np.minimum.reduce(tzs) + 1  # levels + 1: final lowpass
    src = []
    for a, n in enumerate(shape):
        i = grids[a]
        mi = np.empty_like(i)
        final = level > levels
        mi[final] = i[final] >> levels
        for j in range(1, levels + 1):
            sel = level == j
            g = i[sel] >> (j - 1)
            nj = n
            for _ in range(j):
                nj = half(nj)
            mi[sel] = np.where(g % 2 == 0, g // 2, nj + (g - 1) // 2)
        src.append(mi)
    return m[tuple(src)]


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------
class Oracle:
    def __init__(self, runner, verbose=False):
        self.run = runner
        self.verbose = verbose
        self.rng = np.random.default_rng(20240531)
        self.passed = 0
        self.failed = []

    def data(self, shape):
        return self.rng.uniform(-1.0, 1.0, size=shape) + 0.25

    def check(self, name, fn):
        try:
            fn()
        except Failure as e:
            self.failed.append("%s: %s" % (name, e))
            print("FAIL %s: %s" % (name, e))
            return
        self.passed += 1
        if self.verbose:
            print("ok   %s" % name)

    @staticmethod
    def compare(got, exp, tol):
        if got.shape != exp.shape:
            raise Failure("band shape %s, expected %s" % (got.shape, exp.shape))
        scale = max(1.0, float(np.max(np.abs(exp))))
        if np.isnan(exp).any():
            raise Failure("internal: expected array not fully built")
        err = float(np.max(np.abs(got - exp))) / scale
        if not err <= tol:
            raise Failure("max relative error %.3g > %.1g" % (err, tol))

    def case(self, wavelet, mode, shape, levels, axes=None, layout="mallat"):
        name = "%s %s %s L=%s%s%s" % (wavelet, mode, "x".join(map(str, shape)), levels,
                                      "" if axes is None else " axes=%s" % list(axes),
                                      "" if layout == "mallat" else " " + layout)

        def body():
            x = self.data(shape)
            ax = list(range(len(shape))) if axes is None else list(axes)
            got = self.run.forward(x, wavelet, levels, mode, layout, axes)
            nl = levels
            if levels == "max":
                nl = min(math.ceil(math.log2(shape[a])) for a in ax if shape[a] > 1)
            if mode == "periodic":
                exp = expected_periodic(x, wavelet, nl, ax)
            else:
                exp = expected_symmetric(x, wavelet, nl, ax)
            if layout == "interleaved":
                exp = mallat_to_interleaved(exp, nl)
            self.compare(got, exp, TOL[wavelet])

        self.check(name, body)

    def wavedec2_mapping(self, wavelet, shape, levels):
        """Check the 2-D band placement against pywt.wavedec2's (cH, cV, cD)
        directly: cH = [h0:, :w0] (detail along axis 0), cV = [:h0, w0:],
        cD = [h0:, w0:], LL at the top-left."""

        def body():
            x = self.data(shape)
            got = self.run.forward(x, wavelet, levels, "periodic")
            fl, fh = FACTOR[wavelet]
            c = pywt.wavedec2(x, PYWT_NAME[wavelet], mode="periodization", level=levels)
            h, w = shape
            tol = TOL[wavelet]
            for j in range(1, levels + 1):
                cH, cV, cD = c[levels - j + 1]
                h0, w0 = half(h), half(w)
                lo = fl ** (2 * (j - 1))
                self.compare(got[h0:h, :w0] * lo * fh * fl, cH, tol)
                self.compare(got[:h0, w0:w] * lo * fl * fh, cV, tol)
                self.compare(got[h0:h, w0:w] * lo * fh * fh, cD, tol)
                h, w = h0, w0
            self.compare(got[:h, :w] * fl ** (2 * levels), c[0], tol)

        self.check("%s wavedec2 mapping %s L=%d" % (wavelet, "x".join(map(str, shape)), levels), body)

    def error_case(self, wavelet, shape, levels):
        def body():
            self.run.expect_error(self.data(shape), wavelet, levels, "periodic")

        self.check("%s periodic %s L=%d is refused" % (wavelet, "x".join(map(str, shape)), levels), body)

    def all(self):
        for w in ("haar", "d4", "cdf97", "cdf53"):
            for n, L in ((2, 1), (64, 1), (64, 3), (96, 5), (128, "max")):
                self.case(w, "periodic", (n,), L)
            for shape, L in (((32, 48), 1), ((32, 48), 3), ((16, 64), "max"), ((8, 12, 16), 1),
                             ((8, 12, 16), 2), ((4, 8, 4), "max")):
                self.case(w, "periodic", shape, L)
            self.case(w, "periodic", (6, 32), 2, axes=(1,))
            self.case(w, "periodic", (8, 5, 16), 2, axes=(0, 2))
            self.wavedec2_mapping(w, (16, 24), 2)
        for w in ("cdf97", "cdf53"):
            for n in (1, 2, 3, 4, 5, 8, 17, 64, 101):
                self.case(w, "symmetric", (n,), 1)
            for n, L in ((37, "max"), (100, 3), (9, 2), (64, 4)):
                self.case(w, "symmetric", (n,), L)
            for shape in ((7, 9), (8, 10), (2, 3), (16, 15)):
                self.case(w, "symmetric", shape, 1)
            for shape in ((5, 6, 7), (4, 4, 4), (3, 8, 9)):
                self.case(w, "symmetric", shape, 1)
            self.case(w, "symmetric", (13, 20), 3)
            self.case(w, "symmetric", (9, 6, 5), 2)
            self.case(w, "symmetric", (7, 33), 2, axes=(1,))
        # haar on even sizes never reads past the ends: symmetric == periodic
        self.case("haar", "symmetric", (32,), 3)
        self.case("haar", "symmetric", (16, 8), 2)
        # interleaved layout: the same coefficients at their sample positions
        self.case("cdf97", "symmetric", (13, 20), 3, layout="interleaved")
        self.case("haar", "periodic", (32,), 4, layout="interleaved")
        self.case("cdf53", "symmetric", (5, 6, 7), 2, layout="interleaved")
        self.case("d4", "periodic", (16, 8), 2, layout="interleaved")
        # periodic needs even lengths at every level: 10 -> 5 at level 2
        self.error_case("cdf97", (10,), 2)


def run_all(runner, verbose=False):
    o = Oracle(runner, verbose)
    o.all()
    print("pywt oracle: %d passed, %d failed (pywt %s, numpy %s)" %
          (o.passed, len(o.failed), pywt.__version__, np.__version__))
    return 1 if o.failed else 0


def main(argv):
    args = argv[1:]
    verbose = "--verbose" in args
    args = [a for a in args if a != "--verbose"]
    backend = "cpu"
    if len(args) >= 3 and args[1] == "--backend":
        backend = args[2]
        args = args[:1] + args[3:]
    if len(args) != 1:
        print("usage: test_pywt_oracle.py LIFTWAVE_EXE [--backend B] [--verbose]", file=sys.stderr)
        return 2
    if not os.access(args[0], os.X_OK):
        print("liftwave executable not found: %s" % args[0], file=sys.stderr)
        return 1
    runner = CliRunner(args[0], backend)
    if backend not in ("cpu", "cpu-ref"):
        # A GPU run on a machine without one is skipped, not failed.
        src, dst = runner.paths()
        np.save(src, np.arange(1.0, 9.0))
        p = subprocess.run(runner.command(src, dst, "haar", 1, "periodic", "mallat", None),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        msg = p.stderr.decode(errors="replace").strip()
        if p.returncode != 0 and ("not available" in msg or "without CUDA" in msg):
            print("SKIP: backend %s not available: %s" % (backend, msg))
            return 77
    return run_all(runner, verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
