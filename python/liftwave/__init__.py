"""liftwave: discrete wavelet transforms by lifting on CPUs and NVIDIA GPUs.

    import liftwave
    y = liftwave.forward(x, "cdf97", levels=3)      # NumPy, CuPy or PyTorch in, the same out
    x2 = liftwave.inverse(y, "cdf97", levels=3)
    g = liftwave.adjoint(dy, "cdf97", levels=3)      # transpose of forward (its backward pass)

    import liftwave.pywt as pywt                     # PyWavelets API, mode="periodization"

docs/PYTHON.md in the source tree has the details.
"""
from ._liftwave import version as _version
from ._native import Plan, adjoint, describe, forward, inverse, inverse_adjoint, max_levels

__version__ = _version()
__all__ = ["Plan", "forward", "inverse", "adjoint", "inverse_adjoint", "max_levels", "describe", "__version__"]
