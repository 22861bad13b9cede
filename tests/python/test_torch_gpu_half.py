"""liftwave.torch on float16 and bfloat16 CUDA tensors: the CUDA backend stores
half and computes in float32, rounding at each kernel's store (a level, or an
axis of a level), so results and gradients stay within a few roundings of the
CPU's float32 computation; the dtype and the device are kept; the modules
train; torch.compile runs them.  Skipped, with the reason, without PyTorch, a
CUDA device or liftwave's CUDA backend (tests/gpu/run.sh stage python)."""
import itertools

import pytest

from conftest import cuda_torch  # noqa: E402

torch, lwt = cuda_torch()

HALF = [torch.float16, torch.bfloat16]
UNIT = {torch.float16: 2.0 ** -10, torch.bfloat16: 2.0 ** -7}  # the type's spacing at 1
WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "dd97"]
NAXES = {"dwt": 1, "dwt2": 2, "dwt3": 3, "idwt": 1, "idwt2": 2, "idwt3": 3}
SHAPE = {1: (2, 3, 67), 2: (2, 3, 33, 20), 3: (1, 2, 9, 12, 10)}


def _rel(a, b):
    return float((a.double() - b.double()).abs().max() / b.double().abs().max().clamp_min(1e-300))


def _bound(dtype, levels, naxes):
    """(1 + 3 R) units, R the rounding stores before the last (test_gpu_half.c)."""
    return (1 + 3 * max(levels * naxes - 1, 0)) * UNIT[dtype]


@pytest.mark.parametrize("dtype,wavelet,mode,fn", list(itertools.product(
    HALF, WAVELETS, ["symmetric", "periodic"], ["dwt", "dwt2", "dwt3", "idwt2"])))
def test_forward_backward_close_to_float32(dtype, wavelet, mode, fn):
    f = getattr(lwt, fn)
    naxes = NAXES[fn]
    shape = SHAPE[naxes]
    if mode == "periodic":
        shape = tuple(n + (n & 1) if i >= len(shape) - naxes else n for i, n in enumerate(shape))
    levels = 2 if mode == "symmetric" else 1
    x32 = torch.rand(shape) * 2 - 1
    x = x32.to(dtype).cuda().requires_grad_()
    y = f(x, wavelet, levels, mode)
    assert y.dtype == dtype and y.is_cuda
    xw = x.detach().float().cpu().requires_grad_()
    yw = f(xw, wavelet, levels, mode)
    assert _rel(y.detach().cpu(), yw.detach()) <= _bound(dtype, levels, naxes), "forward"
    g = (torch.rand(shape) * 2 - 1).to(dtype)
    (y * g.cuda()).sum().backward()
    (yw * g.float()).sum().backward()
    assert x.grad.dtype == dtype and x.grad.is_cuda
    assert _rel(x.grad.cpu(), xw.grad) <= _bound(dtype, levels, naxes), "backward (the adjoint)"


@pytest.mark.parametrize("dtype", HALF)
def test_one_level_1d_is_one_rounding(dtype):
    """One level along one axis is one kernel store: within one unit of the cpu's
    half result (itself the float32 result rounded once)."""
    x = (torch.rand(4, 3, 1001) * 2 - 1).to(dtype)
    for wavelet in WAVELETS:
        a = lwt.dwt(x, wavelet, 1, "symmetric")
        b = lwt.dwt(x.cuda(), wavelet, 1, "symmetric").cpu()
        assert _rel(b, a) <= UNIT[dtype], wavelet


@pytest.mark.parametrize("dtype", HALF)
def test_wavedec_waverec_round_trip(dtype):
    x = (torch.rand(2, 3, 64, 64) * 2 - 1).to(dtype).cuda()
    c = lwt.wavedec2(x, "cdf97", 3)
    assert c[0].dtype == dtype and c[0].is_cuda
    z = lwt.waverec2(c, "cdf97")
    assert z.dtype == dtype and _rel(z, x) < 32 * UNIT[dtype]


@pytest.mark.parametrize("dtype", HALF)
def test_video_patcher_3d_haar(dtype):
    """(B, C, T, H, W) 3-D haar, 2 levels, forward + backward, as a video tokenizer runs it."""
    x = (torch.rand(2, 3, 8, 32, 32) * 2 - 1).to(dtype).cuda().requires_grad_()
    y = lwt.wavedec3(x, "haar", 2)  # [a_2, {'aad': ..., 'ddd': ...}, {...}]
    bands = [y[0]] + [v for d in y[1:] for v in d.values()]
    assert all(b.dtype == dtype and b.is_cuda for b in bands)
    sum(b.float().square().sum() for b in bands).backward()
    assert x.grad.dtype == dtype and torch.isfinite(x.grad.float()).all()
    z = lwt.waverec3(y, "haar")
    assert z.dtype == dtype and _rel(z.detach().cpu(), x.detach().cpu()) < 16 * UNIT[dtype]


@pytest.mark.parametrize("dtype", HALF)
def test_modules_train_step(dtype):
    m = lwt.DWTForward(2, "haar").cuda()
    x = torch.randn(2, 3, 32, 32, dtype=dtype, device="cuda", requires_grad=True)
    yl, yh = m(x)
    assert yl.dtype == dtype
    (yl.float().square().sum() + sum(h.float().square().sum() for h in yh)).backward()
    assert x.grad.dtype == dtype and torch.isfinite(x.grad.float()).all()
    yl2, yh2 = lwt.DWTForward(2, "haar")(x.detach().cpu())
    assert _rel(yl.detach().cpu(), yl2) <= _bound(dtype, 2, 2)


def test_compile_bf16_no_graph_break():
    m = lwt.DWT2d("cdf97", 2).cuda()
    f = torch.compile(lambda t: m(t))
    x = torch.randn(2, 3, 64, 64, dtype=torch.bfloat16, device="cuda")
    y = f(x)
    assert y.dtype == torch.bfloat16
    explain = torch._dynamo.explain(lambda t: m(t))(x)
    assert explain.graph_break_count == 0
