"""A drop-in for PyWavelets (pywt) with mode="periodization".

    import liftwave.pywt as pywt
    cA, (cH, cV, cD) = pywt.dwt2(image, "bior4.4", mode="periodization")
    coeffs = pywt.wavedec2(image, "db2", mode="periodization", level=3)
    image2 = pywt.waverec2(coeffs, "db2", mode="periodization")

Same functions, argument names, defaults and return structures as pywt
(dwt, idwt, dwt2, idwt2, dwtn, idwtn, wavedec, waverec, wavedec2, waverec2,
wavedecn, waverecn, dwt_max_level), for the wavelets haar/db1, db2, bior2.2,
bior4.4, on NumPy arrays (the CPU backend) and on CuPy arrays / PyTorch
tensors (their GPU, the same library out).  Results equal pywt's (float64
to about 1e-12, float32 to float32 rounding); dtypes follow pywt (float32
stays float32, float16 becomes float32, integers float64, complex runs as two
real transforms).  The coefficient arrays of one call are views of one
buffer (the transform's Mallat array), not separate C-contiguous arrays.

Everything else (another mode, such as pywt's default "symmetric", another
wavelet, or a length that is odd at some level, which pywt pads) goes to the
real PyWavelets for NumPy input, with a warning shown once per reason, and
raises ValueError for GPU arrays or when PyWavelets is not installed.
Note: pywt's "symmetric" is half-sample symmetric; liftwave's own
"symmetric" mode (liftwave.forward) is what pywt calls "reflect".
"""
import numpy as np

from . import _pywt_core as core
from ._arrays import TorchArrays, adapt
from ._pywt_core import Unsupported, detail_keys, fallback

__all__ = ["dwt", "idwt", "dwt2", "idwt2", "dwtn", "idwtn", "wavedec", "waverec", "wavedec2", "waverec2",
           "wavedecn", "waverecn", "dwt_max_level"]


# (shape, dtype, wavelet, mode, axes, level) of C-contiguous float NumPy calls
# that went through _forward's checks -> (recipe, axes, level): repeated
# calls of one shape skip the checks (the per-call cost of small transforms)
_seen = {}
# the same for CuPy arrays and PyTorch CUDA tensors, keyed with the type and
# the device too -> (recipe, axes, level, adapter, device): a hit runs on the
# arrays' addresses (the checks and the DLPack imports cost more than a
# batch's launch)
_seen_device = {}


def _device_key(data, wavelet, mode, axes, level, multilevel):
    """The _seen_device key of a C-contiguous CUDA tensor or CuPy array
    (not requiring grad), else None."""
    t = type(data)
    if type(wavelet) is not str or not (axes is None or type(axes) is tuple):
        return None
    module = t.__module__
    if module.startswith("torch"):
        if not data.is_cuda or data.requires_grad or not data.is_contiguous():
            return None
        return (t, tuple(data.shape), data.dtype, data.get_device(), wavelet, mode, axes, level, multilevel)
    if module.startswith("cupy"):
        if not data.flags.c_contiguous:
            return None
        return (t, data.shape, data.dtype, data.device.id, wavelet, mode, axes, level, multilevel)
    return None


def _forward(func, data, wavelet, mode, axes, level, multilevel=True):
    """(Mallat buffer in pywt units, recipe, axes, level); raises Unsupported.
    multilevel: level follows pywt's wavedec rules (None = the maximum, a
    warning when too high); the single-level functions pass 1 and False."""
    key = dkey = None
    if type(data) is np.ndarray:
        if type(wavelet) is str and (axes is None or type(axes) is tuple) and data.flags.c_contiguous:
            key = (data.shape, data.dtype, wavelet, mode, axes, level, multilevel)
            hit = _seen.get(key)
            if hit is not None:
                r, axes, level = hit
                return r.forward_numpy(data), r, axes, level
    else:
        dkey = _device_key(data, wavelet, mode, axes, level, multilevel)
        hit = _seen_device.get(dkey) if dkey is not None else None
        if hit is not None:
            r, axes, level, ad, device = hit
            out = ad.empty(r.shape, r.dtype, data)
            stream = ad.stream_of(device) if ad is TorchArrays else ad.stream(data)
            r.run_ptr(ad.ptr(data), ad.ptr(out), stream)
            return out, r, axes, level
    entry = core.check_request(wavelet, mode)
    ad, x = adapt(data)
    axes = tuple(range(x.ndim)) if axes is None else core.normalize_axes(axes, x.ndim, func)
    if x.ndim == 0 or not axes:
        raise ValueError("liftwave.pywt.%s: 0-d data or no axes" % func)
    warned = False
    if multilevel:
        level, warned = core.resolve_level(level, [x.shape[a] for a in axes], entry[2])
    buf, recipe = core.decompose(ad, x, entry, level, axes, func)
    if level > 0 and not warned and core.dtype_name(ad, x) in ("float32", "float64"):
        if key is not None:
            if len(_seen) >= 256:
                _seen.clear()
            _seen[key] = (recipe, axes, level)
        elif dkey is not None and x is data:
            if len(_seen_device) >= 256:
                _seen_device.clear()
            _seen_device[dkey] = (recipe, axes, level, ad, dkey[3])
    return buf, recipe, axes, level


def _inverse(func, approx, details, wavelet, mode, axes):
    """The reconstruction from pywt-ordered coefficients; raises Unsupported."""
    entry = core.check_request(wavelet, mode)
    present = [a for a in [approx] + [c for d in details for c in d.values()] if a is not None]
    ndim = adapt(present[0])[1].ndim if present else 0
    naxes = len(next(iter(details[0]))) if details and details[0] else None
    if axes is None:
        axes = tuple(range(ndim if naxes is None else naxes))
    axes = core.normalize_axes(axes, ndim, func)
    keys = set(detail_keys(len(axes))[1:])
    for d in details:
        if not set(d) <= keys:
            raise ValueError("liftwave.pywt.%s: coefficient keys %r do not match %d axes" % (
                func, sorted(set(d) - keys), len(axes)))
    return core.reconstruct(approx, details, entry, axes, func)[1]


def dwt(data, wavelet, mode="symmetric", axis=-1):
    """Single-level 1-D transform along `axis`: (cA, cD)."""
    try:
        buf, r, _, _ = _forward("dwt", data, wavelet, mode, (axis,), 1, False)
    except Unsupported as e:
        return fallback("dwt", str(e), [data], (data, wavelet), {"mode": mode, "axis": axis})
    return buf[r.index[1, "a"]], buf[r.index[1, "d"]]


def idwt(cA, cD, wavelet, mode="symmetric", axis=-1):
    """Inverse of dwt; cA or cD may be None (zeros)."""
    try:
        return _inverse("idwt", cA, [{"d": cD}], wavelet, mode, (axis,))
    except Unsupported as e:
        return fallback("idwt", str(e), [cA, cD], (cA, cD, wavelet), {"mode": mode, "axis": axis})


def dwtn(data, wavelet, mode="symmetric", axes=None):
    """Single-level n-D transform: dict of every band keyed 'aa', 'ad', ... (one letter per axis)."""
    try:
        buf, r, axes, _ = _forward("dwtn", data, wavelet, mode, axes, 1, False)
    except Unsupported as e:
        return fallback("dwtn", str(e), [data], (data, wavelet), {"mode": mode, "axes": axes})
    return {k: buf[r.index[1, k]] for k in detail_keys(len(axes))}


def idwtn(coeffs, wavelet, mode="symmetric", axes=None):
    """Inverse of dwtn; missing or None bands are zeros."""
    naxes = max((len(k) for k in coeffs), default=0)
    try:
        details = [{k: v for k, v in coeffs.items() if k != "a" * naxes}]
        return _inverse("idwtn", coeffs.get("a" * naxes), details, wavelet, mode, axes)
    except Unsupported as e:
        return fallback("idwtn", str(e), list(coeffs.values()), (coeffs, wavelet), {"mode": mode, "axes": axes})


def _check_2d(axes, func):
    if len(axes) != 2:
        raise ValueError("Expected 2 axes")


def dwt2(data, wavelet, mode="symmetric", axes=(-2, -1)):
    """Single-level 2-D transform: (cA, (cH, cV, cD))."""
    _check_2d(axes, "dwt2")
    try:
        buf, r, _, _ = _forward("dwt2", data, wavelet, mode, axes, 1, False)
    except Unsupported as e:
        d = fallback("dwtn", str(e), [data], (data, wavelet), {"mode": mode, "axes": axes})
        return d["aa"], (d["da"], d["ad"], d["dd"])
    i = r.index
    return buf[i[1, "aa"]], (buf[i[1, "da"]], buf[i[1, "ad"]], buf[i[1, "dd"]])


def idwt2(coeffs, wavelet, mode="symmetric", axes=(-2, -1)):
    """Inverse of dwt2: coeffs = (cA, (cH, cV, cD))."""
    _check_2d(axes, "idwt2")
    cA, (cH, cV, cD) = coeffs
    return idwtn({"aa": cA, "da": cH, "ad": cV, "dd": cD}, wavelet, mode, axes)


def wavedec(data, wavelet, mode="symmetric", level=None, axis=-1):
    """Multilevel 1-D decomposition: [cA_n, cD_n, ..., cD_1]."""
    try:
        buf, r, _, level = _forward("wavedec", data, wavelet, mode, (axis,), level)
    except Unsupported as e:
        return fallback("wavedec", str(e), [data], (data, wavelet), {"mode": mode, "level": level, "axis": axis})
    return [buf[r.index[level, "a"]]] + [buf[r.index[j, "d"]] for j in range(level, 0, -1)]


def waverec(coeffs, wavelet, mode="symmetric", axis=-1):
    """Inverse of wavedec."""
    if not isinstance(coeffs, (list, tuple)) or len(coeffs) < 1:
        raise ValueError("Coefficient list too short (minimum 1 arrays required).")
    try:
        return _inverse("waverec", coeffs[0], [{"d": c} for c in coeffs[1:]], wavelet, mode, (axis,))
    except Unsupported as e:
        return fallback("waverec", str(e), list(coeffs), (coeffs, wavelet), {"mode": mode, "axis": axis})


def wavedec2(data, wavelet, mode="symmetric", level=None, axes=(-2, -1)):
    """Multilevel 2-D decomposition: [cA_n, (cH_n, cV_n, cD_n), ..., (cH_1, cV_1, cD_1)]."""
    _check_2d(axes, "wavedec2")
    c = wavedecn(data, wavelet, mode, level, axes)
    return [c[0]] + [(d["da"], d["ad"], d["dd"]) for d in c[1:]]


def waverec2(coeffs, wavelet, mode="symmetric", axes=(-2, -1)):
    """Inverse of wavedec2."""
    _check_2d(axes, "waverec2")
    if not isinstance(coeffs, (list, tuple)) or len(coeffs) < 1:
        raise ValueError("Coefficient list too short (minimum 1 arrays required).")
    details = []
    for d in coeffs[1:]:
        if not isinstance(d, (list, tuple)) or len(d) != 3:
            raise ValueError("Unexpected detail coefficient type: %s. Detail coefficients must be a 3-tuple of "
                             "arrays as returned by wavedec2." % type(d).__name__)
        details.append({"da": d[0], "ad": d[1], "dd": d[2]})
    return waverecn([coeffs[0]] + details, wavelet, mode, axes)


def wavedecn(data, wavelet, mode="symmetric", level=None, axes=None):
    """Multilevel n-D decomposition: [cA_n, {'ad': ..., 'da': ..., 'dd': ...}, ...] (finest last)."""
    try:
        buf, r, axes, level = _forward("wavedecn", data, wavelet, mode, axes, level)
    except Unsupported as e:
        return fallback("wavedecn", str(e), [data], (data, wavelet), {"mode": mode, "level": level, "axes": axes})
    keys = detail_keys(len(axes))
    return [buf[r.index[level, keys[0]]]] + [{k: buf[r.index[j, k]] for k in keys[1:]} for j in range(level, 0, -1)]


def waverecn(coeffs, wavelet, mode="symmetric", axes=None):
    """Inverse of wavedecn."""
    if not isinstance(coeffs, (list, tuple)) or len(coeffs) < 1:
        raise ValueError("Coefficient list too short (minimum 1 arrays required).")
    for d in coeffs[1:]:
        if not isinstance(d, dict):
            raise ValueError("Unexpected detail coefficient type: %s. Detail coefficients must be a dictionary "
                             "of arrays as returned by wavedecn." % type(d).__name__)
    try:
        return _inverse("waverecn", coeffs[0], list(coeffs[1:]), wavelet, mode, axes)
    except Unsupported as e:
        arrays = [coeffs[0]] + [c for d in coeffs[1:] for c in d.values()]
        return fallback("waverecn", str(e), arrays, (coeffs, wavelet), {"mode": mode, "axes": axes})


def dwt_max_level(data_len, filter_len):
    """pywt.dwt_max_level: the level beyond which every coefficient sees the boundary."""
    try:
        return core.dwt_max_level(data_len, filter_len)
    except Unsupported as e:
        return fallback("dwt_max_level", str(e), [], (data_len, filter_len), {})
