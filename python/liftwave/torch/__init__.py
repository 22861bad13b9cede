"""liftwave.torch: differentiable wavelet transforms for PyTorch.

    import liftwave.torch as lwt
    c = lwt.dwt2(x, "cdf97", levels=2)                 # (..., H, W) -> Mallat coefficients, same shape
    coeffs = lwt.wavedec2(x, "cdf97", levels=2)        # [a_2, (da_2, ad_2, dd_2), (da_1, ad_1, dd_1)]
    layer = lwt.DWT2d("haar", levels=1, mode="periodic")
    from liftwave.torch import DWTForward, DWTInverse  # pytorch_wavelets' front

Custom operators (torch.library) with fake kernels and exact adjoints as
gradients: they run under torch.compile without graph breaks and export with
torch.export.  CPU and CUDA tensors, float32 and float64.  docs/TORCH.md in
the source tree has the details.
"""
import torch as _torch

if not hasattr(_torch.library, "custom_op"):
    raise ImportError("liftwave.torch needs PyTorch 2.4 or later (torch.library.custom_op); this is %s"
                      % _torch.__version__)

from .compat import DWTForward, DWTInverse  # noqa: E402
from .functional import (dwt, dwt2, dwt3, idwt, idwt2, idwt3, wavedec, wavedec2, wavedec3,  # noqa: E402
                         waverec, waverec2, waverec3)
from .modules import DWT1d, DWT2d, DWT3d, IDWT1d, IDWT2d, IDWT3d  # noqa: E402

__all__ = ["dwt", "idwt", "dwt2", "idwt2", "dwt3", "idwt3", "wavedec", "waverec", "wavedec2", "waverec2",
           "wavedec3", "waverec3", "DWT1d", "IDWT1d", "DWT2d", "IDWT2d", "DWT3d", "IDWT3d", "DWTForward",
           "DWTInverse"]
