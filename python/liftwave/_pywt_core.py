"""The machinery behind liftwave.pywt: which PyWavelets calls liftwave can
answer exactly, the mapping of a pywt multilevel decomposition onto one
liftwave Mallat array, and the fallback to the real PyWavelets.

Relations (docs/CONVENTIONS.md section 5), periodic mode = pywt "periodization":
  haar, db1 -> liftwave haar, exactly;  db2 -> liftwave d4, exactly;
  bior2.2 -> cdf53, bior4.4 -> cdf97, with the lowpass x sqrt(2) and the
  highpass x -1/sqrt(2) per transformed axis and level: the plan's band gains
  (lw_config.gain), applied by the kernels as they store.
liftwave's periodic mode needs an even length at every level; pywt pads odd
lengths (repeats the last sample), which liftwave does not do, so those calls
go to PyWavelets (NumPy input) or raise (device arrays): never a different
result.
"""
import math
import warnings

import numpy as np

from . import _native, _recycle
from ._arrays import NumpyArrays, adapt, is_device

_SQ2 = math.sqrt(2.0)
# pywt name -> (liftwave wavelet, (lowpass, highpass) factor to pywt units, pywt dec_len)
WAVELETS = {
    "haar": ("haar", None, 2),
    "db1": ("haar", None, 2),
    "db2": ("d4", None, 4),
    "bior2.2": ("cdf53", (_SQ2, -1.0 / _SQ2), 6),
    "bior4.4": ("cdf97", (_SQ2, -1.0 / _SQ2), 10),
}
MODE = "periodization"


class Unsupported(Exception):
    """A request liftwave cannot answer exactly; str() names the argument."""


def wavelet_name(wavelet):
    """pywt accepts names and Wavelet objects."""
    return wavelet if isinstance(wavelet, str) else getattr(wavelet, "name", repr(wavelet))


def check_request(wavelet, mode):
    """The liftwave wavelet entry, or Unsupported naming the argument."""
    name = wavelet_name(wavelet)
    if name not in WAVELETS:
        raise Unsupported("wavelet=%r (liftwave.pywt answers %s)" % (name, ", ".join(WAVELETS)))
    if mode != MODE:
        raise Unsupported("mode=%r (liftwave.pywt answers mode='periodization')" % (mode,))
    return WAVELETS[name]


# ---- falling back to PyWavelets ----------------------------------------------
_warned = set()


def fallback(func, reason, arrays, args, kwargs):
    """Call pywt.<func> for NumPy data (one warning per reason), else raise."""
    device = [a for a in arrays if a is not None and adapt(a)[0] is not NumpyArrays]
    if device:
        raise ValueError("liftwave.pywt.%s: %s; %s arrays have no PyWavelets fallback" % (
            func, reason, adapt(device[0])[0].name))
    try:
        import pywt as real_pywt  # the real PyWavelets (absolute import)
    except ImportError:
        raise ValueError("liftwave.pywt.%s: %s, and PyWavelets is not installed to answer it" % (func, reason)) \
            from None
    if reason not in _warned:
        _warned.add(reason)
        warnings.warn("liftwave.pywt: %s; calling PyWavelets %s instead (this warning is shown once)"
                      % (reason, real_pywt.__version__), stacklevel=3)
    return getattr(real_pywt, func)(*args, **kwargs)


# ---- dtypes and axes as pywt has them ------------------------------------------
def pywt_dtype(name):
    """The dtype pywt computes in: float32/float64/complex as given, float16 ->
    float32, every other real type -> float64."""
    if name in ("float32", "float64", "complex64", "complex128"):
        return name
    if name == "float16":
        return "float32"
    if name in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        return "float64"
    raise TypeError("liftwave.pywt: dtype %s is not supported" % name)


def real_dtype(name):
    return {"complex64": "float32", "complex128": "float64"}.get(name, name)


def normalize_axes(axes, ndim, func):
    """pywt's axes, made non-negative, in the caller's order (band keys follow it)."""
    out = tuple(a + ndim if a < 0 else a for a in (int(a) for a in axes))
    if any(not 0 <= a < ndim for a in out):
        raise np.exceptions.AxisError("liftwave.pywt.%s: axes %r out of range for %d-d data" % (
            func, tuple(axes), ndim)) if hasattr(np, "exceptions") else ValueError("axes out of range")
    if len(set(out)) != len(out):
        raise ValueError("The axes passed to %s must be unique." % func)
    return out


def dwt_max_level(data_len, filter_len):
    """pywt.dwt_max_level: floor(log2(data_len / (filter_len - 1))), 0 when shorter."""
    if not isinstance(filter_len, (int, np.integer)):
        name = wavelet_name(filter_len)
        if name not in WAVELETS:
            raise Unsupported("wavelet=%r" % name)
        filter_len = WAVELETS[name][2]
    data_len = int(data_len)
    if data_len < 1:
        raise ValueError("data_len must be greater than zero")
    if filter_len < 2:
        raise ValueError("invalid wavelet filter length")
    if data_len < filter_len - 1:
        return 0
    return int(data_len // (filter_len - 1)).bit_length() - 1


def resolve_level(level, sizes, dec_len):
    """pywt's level rules: None -> the largest useful level, < 0 an error,
    too high a UserWarning (pywt warns and goes on).  Returns (level, warned)."""
    max_level = min(dwt_max_level(n, dec_len) for n in sizes)
    if level is None:
        return max_level, False
    if level < 0:
        raise ValueError("Level value of %d is too low . Minimum level is 0." % level)
    if level > max_level:
        warnings.warn("Level value of %d is too high: all coefficients will experience boundary effects."
                      % level, stacklevel=4)
        return int(level), True
    return int(level), False


# ---- the Mallat array of a pywt decomposition ------------------------------------
def band_slices(ndim, axes, shape, level, key):
    """Index of the band `key` (one letter per axis of `axes`, 'a' or 'd') of
    level `level` (1 = finest) in the Mallat array of shape `shape`."""
    idx = [slice(None)] * ndim
    for a, c in zip(axes, key):
        h = shape[a] >> level
        idx[a] = slice(0, h) if c == "a" else slice(h, 2 * h)
    return tuple(idx)


def detail_keys(naxes):
    """'a'/'d' strings of length naxes in pywt's order, the all-'a' one first."""
    keys = [""]
    for _ in range(naxes):
        keys = [k + c for k in keys for c in "ad"]
    return keys


def _merged_shape(shape, axes):
    """Shape with every run of untransformed axes merged into one (the library
    takes rank <= 4) and the transformed axes' positions in it."""
    out, pos = [], []
    batch = None
    for i, n in enumerate(shape):
        if i in axes:
            if batch is not None:
                out.append(batch)
                batch = None
            pos.append(len(out))
            out.append(n)
        else:
            batch = n if batch is None else batch * n
    if batch is not None:
        out.append(batch)
    return tuple(out), tuple(pos)


def check_even(shape, axes, level):
    """Unsupported unless every transformed length is even at every level."""
    for a in axes:
        if shape[a] % (1 << level):
            raise Unsupported("length %d along axis %d is odd at some of %d levels (pywt pads odd lengths; "
                              "liftwave's periodic mode needs even ones)" % (shape[a], a, level))


# dtype -> name without numpy's (slow, Python-level) dtype.name
_NAMES = {np.dtype(t): np.dtype(t).name for t in ("float32", "float64", "complex64", "complex128")}


def dtype_name(ad, x):
    if ad is NumpyArrays:
        name = _NAMES.get(x.dtype)
        if name is not None:
            return name
    return ad.dtype(x)


class Recipe:
    """What one transform (shape, dtype, device, wavelet, level, axes,
    direction) needs, made once and cached: the liftwave plan on the shape
    with merged batch axes, its band gains giving pywt's units (the kernels
    scale as they store: no pass of its own), and the index of every band in
    the Mallat array."""

    def __init__(self, shape, dtype, device, entry, level, axes, inverse, numpy):
        lw_wavelet, factor, _ = entry
        merged, pos = _merged_shape(shape, set(axes))
        if len(merged) > 4 or len(pos) > 3:
            raise Unsupported("%d-d data with axes %r (liftwave takes at most 3 axes and 4 merged dimensions)" % (
                len(shape), tuple(axes)))
        self.merged = None if merged == shape else merged
        self.plan = None
        if level > 0:
            self.plan = _native.cached_plan(merged, dtype, device, lw_wavelet, level, "periodic", "mallat", pos,
                                            False, "auto", inverse, factor)._plan
        keys = detail_keys(len(axes))
        self.index = {}
        for j in range(level, 0, -1):
            for key in (keys if j == level else keys[1:]):
                self.index[j, key] = band_slices(len(shape), axes, shape, j, key)
        if level == 0:
            self.index[0, keys[0]] = (Ellipsis,)
        self.shape, self.dtype = shape, dtype
        size = int(np.prod(shape))
        self.recycler = _recycle.Recycler() if numpy and size >= _recycle.RECYCLE_MIN and \
            _recycle.Recycler.enabled else None

    def forward_numpy(self, x):
        """The pywt-unit Mallat array of a contiguous NumPy x of the recipe's dtype."""
        out = self.recycler.take() if self.recycler is not None else None
        if out is None:
            out = np.empty(self.shape, self.dtype)
        self.run(x, out, 0)
        if self.recycler is not None:
            self.recycler.keep(out)
        return out

    def run(self, x, out, stream):
        """The transform of x into out (both contiguous, of the plan's dtype), in pywt units."""
        if self.merged is None:
            self.plan.execute(x, out, stream)
        else:
            self.plan.execute(x.reshape(self.merged), out.reshape(self.merged), stream)

    def run_ptr(self, x_ptr, out_ptr, stream):
        """run() on the addresses of arrays already known to fit the recipe
        (shape, dtype, C-contiguity, device): no DLPack import."""
        self.plan.execute_ptr(x_ptr, out_ptr, stream)


_recipes = {}


def recipe(ad, x, dtype, entry, level, axes, inverse):
    device = ad.device(x) if ad is not NumpyArrays and is_device(ad, x) else None
    key = (tuple(x.shape), dtype, device, entry[0], level, axes, inverse, ad is NumpyArrays)
    r = _recipes.get(key)
    if r is None:
        if len(_recipes) >= 64:
            _recipes.clear()
        r = _recipes[key] = Recipe(key[0], dtype, device, entry, level, axes, inverse, ad is NumpyArrays)
    return r, (0 if device is None else ad.stream(x))


def decompose(ad, x, entry, level, axes, func):
    """The Mallat array of x in pywt units, of x's library and device, and its
    Recipe (recipe.index[level, key] is a band's index).  Complex data runs as
    real and imaginary parts."""
    if x.ndim == 0:
        raise ValueError("liftwave.pywt.%s: 0-d data has nothing to transform" % func)
    check_even(x.shape, axes, level)
    name = dtype_name(ad, x)
    dt = pywt_dtype(name)
    if dt.startswith("complex"):
        re, r = decompose(ad, x.real, entry, level, axes, func)
        return re + 1j * decompose(ad, x.imag, entry, level, axes, func)[0], r
    if dt != name:
        x = ad.astype(x, dt)
    elif not ad.is_contiguous(x):
        x = ad.contiguous(x)
    r, stream = recipe(ad, x, dt, entry, level, axes, False)
    if level == 0:
        out = ad.empty(x.shape, dt, x)
        out[...] = x
    elif ad is NumpyArrays:
        out = r.forward_numpy(x)
    else:
        out = ad.empty(x.shape, dt, x)
        r.run(x, out, stream)
    return out, r


class ShapeMismatch(Unsupported):
    """Coefficient shapes that do not fit one periodization decomposition."""


def reconstruct(approx, details, entry, axes, func):
    """Inverse of decompose from pywt coefficients: approx (or None) and, from
    the coarsest level to the finest, dicts key -> array (or None: zeros)
    without the all-'a' key.  Returns (adapter, array)."""
    lw_wavelet, factor, _ = entry
    level = len(details)
    keys = detail_keys(len(axes))
    # (level, key, array) of every band, the approximation first
    bands = [(level, keys[0], approx)] + [(level - i, k, d.get(k)) for i, d in enumerate(details) for k in keys[1:]]
    present = [(j, c) for j, _, c in bands if c is not None]
    if not present:
        raise ValueError("At least one coefficient must contain a valid value.")
    ad, ref = adapt(present[0][1])
    if ref.ndim == 0:
        raise ValueError("liftwave.pywt.%s: 0-d coefficients" % func)
    # the shape of the reconstruction, from the first band present
    full = list(ref.shape)
    for a in axes:
        full[a] = ref.shape[a] << present[0][0]
    names = []
    for j, c in present:
        aad, c = adapt(c)
        if aad is not ad:
            raise TypeError("liftwave.pywt.%s: coefficients mix %s and %s arrays" % (func, ad.name, aad.name))
        expect = tuple(n >> j if a in axes else n for a, n in enumerate(full))
        if tuple(c.shape) != expect:
            raise ShapeMismatch("coefficient shape %r at level %d does not fit a periodization decomposition "
                                "of even lengths (expected %r)" % (tuple(c.shape), j, expect))
        names.append(pywt_dtype(aad.dtype(c)))
    if any(full[a] == 0 for a in axes):
        raise ValueError("liftwave.pywt.%s: zero-length coefficients" % func)
    dt = np.result_type(*names).name
    if dt.startswith("complex"):
        part = lambda c, f: None if c is None else f(adapt(c)[1])  # noqa: E731
        re = reconstruct(part(approx, lambda c: c.real), [{k: part(v, lambda c: c.real) for k, v in d.items()}
                                                        for d in details], entry, axes, func)[1]
        im = reconstruct(part(approx, lambda c: c.imag), [{k: part(v, lambda c: c.imag) for k, v in d.items()}
                                                        for d in details], entry, axes, func)[1]
        return ad, re + 1j * im
    buf = ad.empty(tuple(full), dt, ref)
    for j, key, c in bands:
        view = buf[band_slices(buf.ndim, axes, full, j, key)]
        if c is None:
            view[...] = 0
        else:
            view[...] = adapt(c)[1]
    if level > 0:
        r, stream = recipe(ad, buf, dt, entry, level, axes, True)
        r.run(buf, buf, stream)
    return ad, buf
