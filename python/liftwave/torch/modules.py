"""nn.Module forms of the transforms: DWT1d / IDWT1d, DWT2d / IDWT2d, DWT3d / IDWT3d.

    down = DWT2d("haar", levels=1, mode="periodic")   # (..., H, W) -> Mallat coefficients, same shape
    up = IDWT2d("haar", levels=1, mode="periodic")

The options are checked when the module is made.  A module lives on a device
like any other (an empty buffer follows .to() / .cuda()), and an input on
another device is a ValueError, as a module with weights would refuse it.
"""
import torch

from . import functional as F
from ._ops import FORWARD, INVERSE, check_args

__all__ = ["DWT1d", "IDWT1d", "DWT2d", "IDWT2d", "DWT3d", "IDWT3d"]


class DeviceBound(torch.nn.Module):
    """A module that runs on the device of its (empty) buffer `_device`."""

    def __init__(self, device=None):
        super().__init__()
        self.register_buffer("_device", torch.empty(0, device=device), persistent=False)

    def check_device(self, x):
        if isinstance(x, torch.Tensor) and x.device != self._device.device:
            raise ValueError("liftwave.torch.%s: the input is on %s, the module on %s (move one with .to())"
                             % (type(self).__name__, x.device, self._device.device))


class _Transform(DeviceBound):
    naxes = 0
    direction = FORWARD

    def __init__(self, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", device=None):
        super().__init__(device)
        name = type(self).__name__
        check_args(torch.empty((1,) * self.naxes), self.naxes, levels, mode, layout, name)
        F._check_wavelet(wavelet, name)
        self.wavelet, self.levels, self.mode, self.layout = wavelet, levels, mode, layout

    def forward(self, x):
        self.check_device(x)
        return F.apply(x, self.wavelet, self.levels, self.mode, self.layout, self.naxes, self.direction,
                       type(self).__name__)

    def extra_repr(self):
        return "wavelet=%r, levels=%d, mode=%r, layout=%r" % (self.wavelet, self.levels, self.mode, self.layout)


class DWT1d(_Transform):
    """Forward transform of the last axis."""
    naxes = 1


class IDWT1d(_Transform):
    """Inverse of DWT1d."""
    naxes, direction = 1, INVERSE


class DWT2d(_Transform):
    """Forward transform of the last two axes (NCHW: H and W)."""
    naxes = 2


class IDWT2d(_Transform):
    """Inverse of DWT2d."""
    naxes, direction = 2, INVERSE


class DWT3d(_Transform):
    """Forward transform of the last three axes (NCDHW: D, H and W)."""
    naxes = 3


class IDWT3d(_Transform):
    """Inverse of DWT3d."""
    naxes, direction = 3, INVERSE
