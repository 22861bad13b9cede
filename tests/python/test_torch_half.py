"""liftwave.torch on float16 and bfloat16 CPU tensors: forward and backward
agree with the float32 computation rounded to the half type (the library
computes half in float32 and rounds once), for dwt/idwt 1-3-D and the
multi-level functions, and the dtype is kept."""
import itertools

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)
import liftwave.torch as lwt  # noqa: E402

HALF = [torch.float16, torch.bfloat16]
STEP = {torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}  # one rounding, relative


def _rel(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max().clamp_min(1e-300))


@pytest.mark.parametrize("dtype,wavelet,mode,fn", list(itertools.product(
    HALF, ["haar", "cdf97", "cdf53", "d4"], ["symmetric", "periodic"], ["dwt", "dwt2", "dwt3", "idwt2"])))
def test_forward_bitexact_and_backward_close(dtype, wavelet, mode, fn):
    f = getattr(lwt, fn)
    shape = {"dwt": (2, 3, 32), "dwt2": (2, 3, 16, 12), "dwt3": (1, 2, 8, 8, 6), "idwt2": (2, 3, 16, 12)}[fn]
    x32 = torch.rand(shape) * 2 - 1
    x = x32.to(dtype).requires_grad_()
    y = f(x, wavelet, 2 if mode == "symmetric" else 1, mode)
    assert y.dtype == dtype
    xw = x.detach().float().requires_grad_()
    yw = f(xw, wavelet, 2 if mode == "symmetric" else 1, mode)
    assert torch.equal(y.detach(), yw.detach().to(dtype)), "forward: float32 result rounded once"
    g = torch.rand(shape).to(dtype)
    (y * g).sum().backward()
    (yw * g.float()).sum().backward()
    assert x.grad.dtype == dtype
    assert torch.equal(x.grad, xw.grad.to(dtype)), "backward (the adjoint): float32 result rounded once"


@pytest.mark.parametrize("dtype", HALF)
def test_wavedec_waverec_round_trip(dtype):
    x = (torch.rand(2, 3, 32, 32) * 2 - 1).to(dtype)
    c = lwt.wavedec2(x, "cdf97", 3)
    assert c[0].dtype == dtype
    z = lwt.waverec2(c, "cdf97")
    assert z.dtype == dtype and _rel(z, x) < 16 * STEP[dtype]


@pytest.mark.parametrize("dtype", HALF)
def test_modules_train_step(dtype):
    """A module in half precision: forward, backward, finite gradients."""
    m = lwt.DWTForward(2, "haar")
    x = torch.randn(2, 3, 16, 16, dtype=dtype, requires_grad=True)
    yl, yh = m(x)
    (yl.float().square().sum() + sum(h.float().square().sum() for h in yh)).backward()
    assert x.grad.dtype == dtype and torch.isfinite(x.grad.float()).all()
