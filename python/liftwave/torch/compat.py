"""pytorch_wavelets' front: DWTForward and DWTInverse.

    from liftwave.torch import DWTForward, DWTInverse   # instead of pytorch_wavelets
    xfm = DWTForward(J=3, wave="bior4.4", mode="periodization")
    yl, yh = xfm(x)          # x (N, C, H, W); yl (N, C, H/8, W/8); yh[j] (N, C, 3, H/2^(j+1), W/2^(j+1))
    x2 = DWTInverse(wave="bior4.4", mode="periodization")((yl, yh))

Bands of a level in pytorch_wavelets' order (LH, HL, HH = pywt's cH, cV, cD),
finest level first.  Results equal pytorch_wavelets' and pywt's for haar / db1,
db2 (liftwave haar and d4) and bior2.2, bior4.4 (cdf53, cdf97 with the lowpass
x sqrt(2) and the highpass x -1/sqrt(2) per axis and level, applied as the bands
are copied out); liftwave's own wavelet names run in its units.  H and W must
be divisible by 2^J (pytorch_wavelets pads other sizes).

Modes and defaults are pytorch_wavelets' (wave="db1", mode="zero").  liftwave
computes mode "periodization" ("per"); haar / db1 take every pytorch_wavelets
mode, because on sizes divisible by 2^J the Haar filters read no sample past an
end, so every mode gives the periodization result.  The other wavelets in any
other mode (pytorch_wavelets pads them: longer bands) raise ValueError, as does
mode="zero" for liftwave's own names, whose default here is periodization.
Gradients are the exact adjoints (liftwave::analysis / synthesis).
"""
from .. import _pywt_core
from . import functional as F
from ._ops import FORWARD, INVERSE, check_tensor
from ._ops import analysis_call as analysis
from ._ops import synthesis_call as synthesis
from .modules import DeviceBound

__all__ = ["DWTForward", "DWTInverse"]

_MODES = ("periodization", "per")
# pytorch_wavelets' modes; on sizes divisible by 2^J they all equal periodization for haar
_HAAR_MODES = _MODES + ("zero", "symmetric", "reflect", "periodic")
_HAAR = ("haar", "db1")
_DEFAULT = "zero"  # pytorch_wavelets' default mode


def _resolve(wave, mode, cls):
    """(liftwave wavelet, gain pair, the mode as pytorch_wavelets names it) for
    pytorch_wavelets' wave and mode arguments (mode None: its default, 'zero')."""
    if not isinstance(wave, str):
        name = getattr(wave, "name", None)
        if not isinstance(name, str):
            raise TypeError("liftwave.torch.%s: wave must be a wavelet name or a pywt.Wavelet, not %s (filter "
                            "banks are not supported)" % (cls, type(wave).__name__))
        wave = name
    entry = _pywt_core.WAVELETS.get(wave)
    if entry is None:  # liftwave's own names, in its units: periodization only, also by default
        F._check_wavelet(wave, cls)
        if mode is not None and mode not in _MODES:
            raise ValueError("liftwave.torch.%s: mode %r is not supported for liftwave's wavelet %r: this front "
                             "answers mode='periodization'" % (cls, mode, wave))
        return wave, [1.0, 1.0], "periodization" if mode is None else mode
    given = mode
    mode = _DEFAULT if mode is None else mode
    if mode not in _HAAR_MODES:
        raise ValueError("liftwave.torch.%s: mode %r is not a pytorch_wavelets mode (%s)"
                         % (cls, mode, ", ".join(_HAAR_MODES)))
    if mode not in _MODES and wave not in _HAAR:
        raise ValueError("liftwave.torch.%s: mode %r%s is not supported for %r: pytorch_wavelets pads the signal "
                         "in that mode (longer bands), liftwave computes mode='periodization' (bands of H/2^j x "
                         "W/2^j); pass mode='periodization'"
                         % (cls, mode, " (pytorch_wavelets' default)" if given is None else "", wave))
    lw, factor, _ = entry
    return lw, list(factor) if factor is not None else [1.0, 1.0], mode


class DWTForward(DeviceBound):
    """J-level 2-D transform of the last two axes: (yl, [yh_1, ..., yh_J]), finest first.
    mode: pytorch_wavelets' name (default 'zero', as there; see the module's docstring)."""

    def __init__(self, J=1, wave="db1", mode=None, device=None):
        super().__init__(device)
        if isinstance(J, bool) or not isinstance(J, int) or J < 0:
            raise ValueError("liftwave.torch.DWTForward: J must be an integer >= 0, not %r" % (J,))
        self.J = J
        self.wave = wave
        self.wavelet, self.gain, self.mode = _resolve(wave, mode, "DWTForward")

    def forward(self, x):
        check_tensor(x, "DWTForward")
        self.check_device(x)
        if x.dim() < 2:
            raise ValueError("liftwave.torch.DWTForward: needs (..., H, W), got shape %s" % (tuple(x.shape),))
        for n in x.shape[-2:]:
            if n % (1 << self.J):
                raise ValueError("liftwave.torch.DWTForward: H and W must be divisible by 2^J = %d in "
                                 "periodization mode, got shape %s" % (1 << self.J, tuple(x.shape)))
        outs = analysis(x, self.wavelet, self.J, "periodic", 2, FORWARD, self.gain, True)
        return outs[0], outs[:0:-1]

    def extra_repr(self):
        return "J=%d, wave=%r, mode=%r" % (self.J, self.wave, self.mode)


class DWTInverse(DeviceBound):
    """Inverse of DWTForward: takes (yl, yh) with yh finest first; a yh entry
    of None is zeros."""

    def __init__(self, wave="db1", mode=None, device=None):
        super().__init__(device)
        self.wave = wave
        self.wavelet, self.gain, self.mode = _resolve(wave, mode, "DWTInverse")

    def forward(self, coeffs):
        if not isinstance(coeffs, (tuple, list)) or len(coeffs) != 2:
            raise ValueError("liftwave.torch.DWTInverse: expected (yl, yh) as DWTForward returns")
        yl, yh = coeffs
        check_tensor(yl, "DWTInverse")
        self.check_device(yl)
        if yl.dim() < 2:
            raise ValueError("liftwave.torch.DWTInverse: yl needs (..., H, W), got shape %s" % (tuple(yl.shape),))
        if not isinstance(yh, (tuple, list)):
            raise ValueError("liftwave.torch.DWTInverse: yh must be a list of (..., 3, H, W) tensors, not %s"
                             % type(yh).__name__)
        J = len(yh)
        details = []
        for i in range(J - 1, -1, -1):  # coarsest first
            want = tuple(yl.shape[:-2]) + (3,) + tuple(n << (J - 1 - i) for n in yl.shape[-2:])
            h = yh[i]
            if h is None:
                h = yl.new_zeros(want)
            check_tensor(h, "DWTInverse")
            if tuple(h.shape) != want:
                raise ValueError("liftwave.torch.DWTInverse: yh[%d] has shape %s, expected %s (from yl of shape %s "
                                 "and %d levels)" % (i, tuple(h.shape), want, tuple(yl.shape), J))
            if h.dtype != yl.dtype or h.device != yl.device:
                raise ValueError("liftwave.torch.DWTInverse: yh[%d] is %s on %s, yl %s on %s"
                                 % (i, h.dtype, h.device, yl.dtype, yl.device))
            details.append(h)
        return synthesis(yl, details, self.wavelet, "periodic", 2, INVERSE, self.gain, True)

    def extra_repr(self):
        return "wave=%r, mode=%r" % (self.wave, self.mode)
