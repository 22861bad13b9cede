"""Differentiable wavelet transforms of the last 1, 2 or 3 axes of a tensor.

    c = dwt2(x, "cdf97", levels=2)          # (..., H, W) -> coefficients of the same shape
    x2 = idwt2(c, "cdf97", levels=2)
    coeffs = wavedec2(x, "cdf97", levels=2)  # [a_2, (da_2, ad_2, dd_2), (da_1, ad_1, dd_1)]
    x2 = waverec2(coeffs, "cdf97")

Conventions are liftwave's (docs/CONVENTIONS.md): wavelets haar cdf53 cdf97 dd137
d4 dd97 fs, modes 'symmetric' (whole-sample, PyWavelets' 'reflect'; any length)
and 'periodic' (PyWavelets' 'periodization'; lengths even at every level),
layouts 'mallat' and 'interleaved'.  Every leading axis is a batch (NCHW,
NCDHW).  float32 and float64 tensors on the CPU or a CUDA device; the result
is a new tensor on the same device, computed on the current stream.  Gradients
are the exact adjoint transforms (docs/ADJOINT.md).
"""
from . import _bands
from ._ops import FORWARD, INVERSE, check_args, check_mode, check_tensor
from ._ops import analysis_call as analysis
from ._ops import synthesis_call as synthesis
from ._ops import transform_call as transform

__all__ = ["dwt", "idwt", "dwt2", "idwt2", "dwt3", "idwt3", "wavedec", "waverec", "wavedec2", "waverec2",
           "wavedec3", "waverec3"]

_WAVELETS = None


def _check_wavelet(wavelet, func):
    global _WAVELETS
    if _WAVELETS is None:
        from .. import _liftwave
        _WAVELETS = tuple(_liftwave.wavelet_names())
    if wavelet not in _WAVELETS:
        raise ValueError("liftwave.torch.%s: unknown wavelet %r (choose %s)" % (func, wavelet, ", ".join(_WAVELETS)))


def apply(x, wavelet, levels, mode, layout, naxes, direction, func):
    """The checked call of the liftwave::transform operator."""
    check_args(x, naxes, levels, mode, layout, func)
    _check_wavelet(wavelet, func)
    return transform(x, wavelet, levels, mode, layout, naxes, direction)


def dwt(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Forward transform along the last axis: coefficients of x's shape."""
    return apply(x, wavelet, levels, mode, layout, 1, FORWARD, "dwt")


def idwt(c, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Inverse of dwt with the same options."""
    return apply(c, wavelet, levels, mode, layout, 1, INVERSE, "idwt")


def dwt2(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Forward transform of the last two axes (..., H, W)."""
    return apply(x, wavelet, levels, mode, layout, 2, FORWARD, "dwt2")


def idwt2(c, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Inverse of dwt2 with the same options."""
    return apply(c, wavelet, levels, mode, layout, 2, INVERSE, "idwt2")


def dwt3(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Forward transform of the last three axes (..., D, H, W)."""
    return apply(x, wavelet, levels, mode, layout, 3, FORWARD, "dwt3")


def idwt3(c, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat"):
    """Inverse of dwt3 with the same options."""
    return apply(c, wavelet, levels, mode, layout, 3, INVERSE, "idwt3")


_NOGAIN = [1.0, 1.0]


def _pack(naxes, bands):
    """One level's detail bands (BAND_KEYS order) in the list's structure."""
    if naxes == 1:
        return bands[0]
    if naxes == 2:
        return tuple(bands)
    return dict(zip(_bands.BAND_KEYS[3], bands))


def _unpack(naxes, level, func):
    """One level's detail entry as a list in BAND_KEYS order (None: zeros)."""
    keys = _bands.BAND_KEYS[naxes]
    if naxes == 1:
        return [level]
    if naxes == 2:
        if not isinstance(level, (tuple, list)) or len(level) != 3:
            raise ValueError("liftwave.torch.%s: a detail entry must be a 3-tuple (da, ad, dd) as wavedec2 returns, "
                             "not %s" % (func, type(level).__name__))
        return list(level)
    if not isinstance(level, dict):
        raise ValueError("liftwave.torch.%s: a detail entry must be a dict keyed %s as wavedec3 returns, not %s"
                         % (func, ", ".join(keys), type(level).__name__))
    unknown = set(level) - set(keys)
    if unknown:
        raise ValueError("liftwave.torch.%s: unknown band keys %s (expected %s)" % (
            func, ", ".join(sorted(map(repr, unknown))), ", ".join(keys)))
    return [level.get(k) for k in keys]


def check_bands(approx, levels, naxes, mode, func):
    """Check that bands (approx, then per level, coarsest first, a list in
    BAND_KEYS order with None for zeros) come from one decomposition; returns
    the details with None replaced by zeros, in one flat list."""
    check_tensor(approx, func)
    if approx.dim() < naxes:
        raise ValueError("liftwave.torch.%s: the approximation needs at least %d dimensions, has shape %s"
                         % (func, naxes, tuple(approx.shape)))
    keys = _bands.BAND_KEYS[naxes]
    nb = approx.dim() - naxes
    batch = tuple(approx.shape[:nb])
    low = tuple(approx.shape[nb:])
    flat = []
    for depth, bands in enumerate(levels):
        j = len(levels) - depth  # 1 = finest
        for b in bands:
            if b is not None:
                check_tensor(b, func)
                if b.dtype != approx.dtype or b.device != approx.device:
                    raise ValueError("liftwave.torch.%s: a band of level %d is %s on %s, the approximation %s on %s"
                                     % (func, j, b.dtype, b.device, approx.dtype, approx.device))
        high = []
        for i in range(naxes):  # from the first band given that is highpass along axis i
            sizes = [(k, b.shape[nb + i]) for k, b in zip(keys, bands)
                     if b is not None and k[i] == "d" and b.dim() == approx.dim()]
            if len({n for _, n in sizes}) > 1:
                raise ValueError("liftwave.torch.%s: the bands of level %d disagree on the highpass length along "
                                 "axis %d: %s" % (func, j, i - naxes, ", ".join("%r has %d" % kn for kn in sizes)))
            high.append(sizes[0][1] if sizes else low[i])  # none given: the length was even
        high = tuple(high)
        _bands.check_level(low, high, mode, j, func)
        for k, b in zip(keys, bands):
            want = batch + _bands.band_shape(low, high, k)
            if b is None:
                b = approx.new_zeros(want)
            elif tuple(b.shape) != want:
                raise ValueError("liftwave.torch.%s: band %r of level %d has shape %s, expected %s (from the "
                                 "approximation of shape %s and the bands before it)" % (
                                     func, k, j, tuple(b.shape), want, tuple(approx.shape)))
            flat.append(b)
        low = tuple(a + b for a, b in zip(low, high))
    return flat


def _wavedec(x, wavelet, levels, mode, naxes, func):
    check_args(x, naxes, levels, mode, "mallat", func)
    _check_wavelet(wavelet, func)
    outs = analysis(x, wavelet, levels, mode, naxes, FORWARD, _NOGAIN, False)
    per = len(_bands.BAND_KEYS[naxes])
    return [outs[0]] + [_pack(naxes, outs[1 + i * per:1 + (i + 1) * per]) for i in range(levels)]


def _waverec(coeffs, wavelet, mode, naxes, func):
    check_mode(mode, func)
    _check_wavelet(wavelet, func)
    if not isinstance(coeffs, (list, tuple)) or not coeffs:
        raise ValueError("liftwave.torch.%s: expected a non-empty list [approximation, details...], got %s"
                         % (func, type(coeffs).__name__))
    details = check_bands(coeffs[0], [_unpack(naxes, d, func) for d in coeffs[1:]], naxes, mode, func)
    return synthesis(coeffs[0], details, wavelet, mode, naxes, INVERSE, _NOGAIN, False)


def wavedec(x, wavelet="cdf97", levels=1, mode="symmetric"):
    """Multilevel decomposition of the last axis: [a_J, d_J, ..., d_1] (views of one tensor)."""
    return _wavedec(x, wavelet, levels, mode, 1, "wavedec")


def waverec(coeffs, wavelet="cdf97", mode="symmetric"):
    """Inverse of wavedec; detail bands given as None are zeros."""
    return _waverec(coeffs, wavelet, mode, 1, "waverec")


def wavedec2(x, wavelet="cdf97", levels=1, mode="symmetric"):
    """Multilevel decomposition of the last two axes: [a_J, (da_J, ad_J, dd_J), ..., (da_1, ad_1, dd_1)],
    pywt.wavedec2's structure (cH = da: highpass along H)."""
    return _wavedec(x, wavelet, levels, mode, 2, "wavedec2")


def waverec2(coeffs, wavelet="cdf97", mode="symmetric"):
    """Inverse of wavedec2; bands given as None are zeros."""
    return _waverec(coeffs, wavelet, mode, 2, "waverec2")


def wavedec3(x, wavelet="cdf97", levels=1, mode="symmetric"):
    """Multilevel decomposition of the last three axes: [a_J, {'aad': ..., ..., 'ddd': ...}, ...]
    (pywt.wavedecn's keys, one letter per axis D, H, W)."""
    return _wavedec(x, wavelet, levels, mode, 3, "wavedec3")


def waverec3(coeffs, wavelet="cdf97", mode="symmetric"):
    """Inverse of wavedec3; missing or None bands are zeros."""
    return _waverec(coeffs, wavelet, mode, 3, "waverec3")
