"""pytorch_wavelets' front: DWTForward and DWTInverse, mode "periodization".

    from liftwave.torch import DWTForward, DWTInverse   # instead of pytorch_wavelets
    xfm = DWTForward(J=3, wave="bior4.4", mode="periodization")
    yl, yh = xfm(x)          # x (N, C, H, W); yl (N, C, H/8, W/8); yh[j] (N, C, 3, H/2^(j+1), W/2^(j+1))
    x2 = DWTInverse(wave="bior4.4", mode="periodization")((yl, yh))

Bands of a level in pytorch_wavelets' order (LH, HL, HH = pywt's cH, cV, cD),
finest level first.  Results equal pytorch_wavelets' and pywt's for haar / db1,
db2 (liftwave haar and d4) and bior2.2, bior4.4 (cdf53, cdf97 with the lowpass
x sqrt(2) and the highpass x -1/sqrt(2) per axis and level, applied as the bands
are copied out); liftwave's own wavelet names run in its units.  H and W must
be divisible by 2^J (pytorch_wavelets pads other sizes); other modes raise.
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


def _resolve(wave, mode, cls):
    """(liftwave wavelet, gain pair) for pytorch_wavelets' wave and mode arguments."""
    if mode not in _MODES:
        raise ValueError("liftwave.torch.%s: mode %r is not supported: liftwave answers mode='periodization' "
                         "(pytorch_wavelets' other modes pad the signal)" % (cls, mode))
    if not isinstance(wave, str):
        name = getattr(wave, "name", None)
        if not isinstance(name, str):
            raise TypeError("liftwave.torch.%s: wave must be a wavelet name or a pywt.Wavelet, not %s (filter "
                            "banks are not supported)" % (cls, type(wave).__name__))
        wave = name
    entry = _pywt_core.WAVELETS.get(wave)
    if entry is not None:
        lw, factor, _ = entry
        return lw, list(factor) if factor is not None else [1.0, 1.0]
    F._check_wavelet(wave, cls)  # liftwave's own names, in its units
    return wave, [1.0, 1.0]


class DWTForward(DeviceBound):
    """J-level 2-D transform of the last two axes: (yl, [yh_1, ..., yh_J]), finest first."""

    def __init__(self, J=1, wave="db1", mode="periodization", device=None):
        super().__init__(device)
        if isinstance(J, bool) or not isinstance(J, int) or J < 0:
            raise ValueError("liftwave.torch.DWTForward: J must be an integer >= 0, not %r" % (J,))
        self.J = J
        self.wave, self.mode = wave, mode
        self.wavelet, self.gain = _resolve(wave, mode, "DWTForward")

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

    def __init__(self, wave="db1", mode="periodization", device=None):
        super().__init__(device)
        self.wave, self.mode = wave, mode
        self.wavelet, self.gain = _resolve(wave, mode, "DWTInverse")

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
