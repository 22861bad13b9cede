"""liftwave.torch: the custom operators, their gradients (gradcheck in float64 for
every wavelet, mode, layout, dimension, 1-3 levels, odd sizes), agreement with the
NumPy API, torch.compile (no graph breaks) and torch.export.  Skipped, with the
reason, where PyTorch is not installed."""
import itertools
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)
import liftwave  # noqa: E402
import liftwave.torch as lwt  # noqa: E402
from torch.autograd import gradcheck, gradgradcheck  # noqa: E402

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "dd97", "fs"]
FUNCS = {1: (lwt.dwt, lwt.idwt), 2: (lwt.dwt2, lwt.idwt2), 3: (lwt.dwt3, lwt.idwt3)}


def shape_for(naxes, levels, mode):
    """Small shapes with a batch axis: odd lengths in symmetric mode, lengths
    divisible by 2^levels in periodic mode."""
    if mode == "periodic":
        base = {1: (2, 3 << levels), 2: (1, 1 << levels, 2 << levels),
                3: (1, 1 << levels, 1 << levels, 2 << max(levels - 1, 0))}
        return base[naxes]
    sym = {1: (2, 11), 2: (1, 7, 5), 3: (1, 5, 6, 5)}
    return sym[naxes]


def flat(c):
    if isinstance(c, torch.Tensor):
        return (c,)
    if isinstance(c, dict):
        return tuple(a for k in sorted(c) for a in flat(c[k]))
    return tuple(a for x in c for a in flat(x))


def test_import_liftwave_does_not_import_torch():
    import subprocess
    code = "import sys, liftwave, numpy; liftwave.forward(numpy.ones(4)); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="/")
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("naxes", [1, 2, 3])
@pytest.mark.parametrize("mode", ["symmetric", "periodic"])
@pytest.mark.parametrize("layout", ["mallat", "interleaved"])
def test_matches_numpy_api(naxes, mode, layout):
    rng = np.random.default_rng(5)
    for wavelet in WAVELETS:
        shape = shape_for(naxes, 2, mode)
        x = rng.standard_normal(shape)
        axes = tuple(range(len(shape) - naxes, len(shape)))
        want = liftwave.forward(x, wavelet, levels=2, mode=mode, layout=layout, axes=axes)
        fwd, inv = FUNCS[naxes]
        got = fwd(torch.from_numpy(x), wavelet, 2, mode, layout)
        np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-12)
        np.testing.assert_allclose(inv(got, wavelet, 2, mode, layout).numpy(), x, rtol=0, atol=1e-12)


@pytest.mark.parametrize("naxes", [1, 2, 3])
@pytest.mark.parametrize("levels", [1, 2, 3])
@pytest.mark.parametrize("mode", ["symmetric", "periodic"])
def test_gradcheck_every_wavelet_and_layout(naxes, levels, mode):
    """The backward passes (the adjoint transforms) against finite differences,
    and second derivatives (the backward of the backward) for one wavelet."""
    torch.manual_seed(naxes * 10 + levels)
    fwd, inv = FUNCS[naxes]
    shape = shape_for(naxes, levels, mode)
    for wavelet, layout in itertools.product(WAVELETS, ["mallat", "interleaved"]):
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        fast = x.numel() > 256  # 3-D, 3 levels, periodic: random projections v^T J u instead of all of J
        assert gradcheck(lambda t: fwd(t, wavelet, levels, mode, layout), (x,), fast_mode=fast)
        assert gradcheck(lambda t: inv(t, wavelet, levels, mode, layout), (x,), fast_mode=fast)
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    assert gradgradcheck(lambda t: fwd(t, "cdf97", levels, mode), (x,))


@pytest.mark.parametrize("naxes", [1, 2, 3])
@pytest.mark.parametrize("mode", ["symmetric", "periodic"])
def test_wavedec_waverec_gradcheck(naxes, mode):
    dec = {1: lwt.wavedec, 2: lwt.wavedec2, 3: lwt.wavedec3}[naxes]
    rec = {1: lwt.waverec, 2: lwt.waverec2, 3: lwt.waverec3}[naxes]
    levels = 2
    shape = shape_for(naxes, levels, mode)
    for wavelet in ["cdf97", "haar", "dd137"]:
        x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
        assert gradcheck(lambda t: flat(dec(t, wavelet, levels, mode)), (x,))
        coeffs = dec(x.detach(), wavelet, levels, mode)
        leaves = [c.clone().requires_grad_() for c in flat(coeffs)]

        def rebuild(*bands):
            it = iter(bands)
            out = [next(it)]
            for d in coeffs[1:]:
                if isinstance(d, torch.Tensor):
                    out.append(next(it))
                elif isinstance(d, dict):
                    out.append({k: next(it) for k in sorted(d)})
                else:
                    out.append(tuple(next(it) for _ in d))
            return rec(out, wavelet, mode)

        assert gradcheck(rebuild, tuple(leaves))
        torch.testing.assert_close(rebuild(*leaves), x.detach(), rtol=0, atol=1e-12)


def test_wavedec2_bands_are_the_mallat_quadrants():
    x = torch.randn(2, 3, 9, 6, dtype=torch.float64)
    c = lwt.dwt2(x, "cdf53", levels=2)
    a, (da2, ad2, dd2), (da1, ad1, dd1) = lwt.wavedec2(x, "cdf53", levels=2)
    assert a.shape == (2, 3, 3, 2) and da1.shape == (2, 3, 4, 3) and ad1.shape == (2, 3, 5, 3)
    torch.testing.assert_close(a, c[..., :3, :2], rtol=0, atol=0)
    torch.testing.assert_close(da2, c[..., 3:5, :2], rtol=0, atol=0)
    torch.testing.assert_close(ad2, c[..., :3, 2:3], rtol=0, atol=0)
    torch.testing.assert_close(dd1, c[..., 5:, 3:], rtol=0, atol=0)
    # bands given as None are zeros
    zero = lwt.waverec2([a, (None, None, torch.zeros_like(dd2)), (da1, ad1, None)], "cdf53")
    c2 = c.clone()
    c2[..., 3:5, :3] = 0
    c2[..., :3, 2:3] = 0
    c2[..., 5:, 3:] = 0
    torch.testing.assert_close(zero, lwt.idwt2(c2, "cdf53", levels=2), rtol=0, atol=1e-12)


def test_wavedec3_keys_and_shapes():
    x = torch.randn(1, 2, 5, 4, 6)
    coeffs = lwt.wavedec3(x, "haar", levels=1)
    assert sorted(coeffs[1]) == ["aad", "ada", "add", "daa", "dad", "dda", "ddd"]
    assert coeffs[0].shape == (1, 2, 3, 2, 3) and coeffs[1]["daa"].shape == (1, 2, 2, 2, 3)
    torch.testing.assert_close(lwt.waverec3(coeffs, "haar"), x, rtol=0, atol=1e-5)


def test_outputs_are_new_tensors_and_float32_runs_float32():
    x = torch.randn(4, 8, 8)
    y = lwt.dwt2(x, "cdf97")
    assert y.dtype == torch.float32 and y.data_ptr() != x.data_ptr()
    xt = x.transpose(1, 2)  # non-contiguous input: copied, same result as the contiguous one
    torch.testing.assert_close(lwt.dwt2(xt, "cdf97"), lwt.dwt2(xt.contiguous(), "cdf97"), rtol=0, atol=0)
    assert lwt.dwt2(torch.randn(0, 3, 8, 8)).shape == (0, 3, 8, 8)  # an empty batch
    torch.testing.assert_close(lwt.dwt2(x, "cdf97", levels=0), x, rtol=0, atol=0)


def test_modules():
    x = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64)
    fwd, inv = lwt.DWT3d("dd137", 2), lwt.IDWT3d("dd137", 2)
    torch.testing.assert_close(fwd(x), lwt.dwt3(x, "dd137", 2), rtol=0, atol=0)
    torch.testing.assert_close(inv(fwd(x)), x, rtol=0, atol=1e-12)
    assert "dd137" in repr(fwd)
    m2 = lwt.DWT2d("haar", 1, "periodic", "interleaved")
    x2 = torch.randn(1, 1, 4, 4)
    torch.testing.assert_close(lwt.IDWT2d("haar", 1, "periodic", "interleaved")(m2(x2)), x2, rtol=0, atol=1e-6)
    m1 = lwt.DWT1d("cdf53")
    torch.testing.assert_close(lwt.IDWT1d("cdf53")(m1(x)), x, rtol=0, atol=1e-12)


def test_eager_calls_match_the_operators():
    """Eager calls on plain tensors take the autograd.Functions (less host time); their
    values, gradients and second derivatives equal those through the registered operators,
    and tensor subclasses still go through the operators."""
    from liftwave.torch import _ops
    g = torch.Generator().manual_seed(5)
    x = torch.randn(2, 3, 12, 16, generator=g, dtype=torch.float64, requires_grad=True)
    gain = [2 ** -0.5, 2 ** -0.5]
    cases = [(_ops.analysis_call, _ops.analysis, (x, "cdf97", 2, "periodic", 2, 0, gain, True)),
             (_ops.analysis_call, _ops.analysis, (x, "d4", 1, "symmetric", 2, 3, [1.0, 1.0], False)),
             (_ops.transform_call, _ops.transform, (x, "dd137", 2, "symmetric", "interleaved", 2, 1))]
    for call, op, args in cases:
        assert _ops._plain(args[0])
        a, b = flat(call(*args)), flat(op(*args))
        assert len(a) == len(b) and all(torch.equal(u, v) for u, v in zip(a, b))
        w = [torch.randn(u.shape, generator=g, dtype=u.dtype, requires_grad=True) for u in a]
        ga = torch.autograd.grad(sum((u * v).sum() for u, v in zip(a, w)), x, create_graph=True)[0]
        gb = torch.autograd.grad(sum((u * v).sum() for u, v in zip(b, w)), x, create_graph=True)[0]
        assert torch.allclose(ga, gb, rtol=1e-12, atol=1e-12)
        # the backward's own derivative (with respect to the incoming gradients): the backward of the backward
        hv = torch.randn(x.shape, generator=g, dtype=x.dtype)
        ha = torch.autograd.grad((ga * hv).sum(), w)
        hb = torch.autograd.grad((gb * hv).sum(), w)
        assert all(torch.allclose(u, v, rtol=1e-12, atol=1e-12) for u, v in zip(ha, hb))
    bands = _ops.analysis_call(x.detach(), "cdf53", 1, "symmetric", 2, 0, [1.0, 1.0], False)
    back = _ops.synthesis_call(bands[0], bands[1:], "cdf53", "symmetric", 2, 1, [1.0, 1.0], False)
    assert torch.allclose(back, x.detach(), atol=1e-12)

    class Sub(torch.Tensor):
        pass

    assert not _ops._plain(x.detach().as_subclass(Sub))


def test_opcheck():
    """torch.library.opcheck: schema, fake kernels against the real ones,
    autograd registration, AOT dispatch with dynamic shapes."""
    x = torch.randn(2, 7, 5, dtype=torch.float64, requires_grad=True)
    torch.library.opcheck(torch.ops.liftwave.transform.default, (x, "cdf97", 2, "symmetric", "mallat", 2, 0))
    y = torch.randn(2, 8, 8, dtype=torch.float64, requires_grad=True)
    gain = [2 ** 0.5, -(2 ** -0.5)]
    torch.library.opcheck(torch.ops.liftwave.analysis.default, (y, "cdf97", 2, "periodic", 2, 0, gain, True))
    torch.library.opcheck(torch.ops.liftwave.analysis.default, (x, "cdf53", 2, "symmetric", 2, 3, [1.0, 1.0], False))
    outs = torch.ops.liftwave.analysis(y.detach(), "cdf97", 2, "periodic", 2, 0, gain, True)
    leaves = [o.requires_grad_() for o in outs]
    torch.library.opcheck(torch.ops.liftwave.synthesis.default,
                          (leaves[0], leaves[1:], "cdf97", "periodic", 2, 1, gain, True))


class Net(torch.nn.Module):
    """A model mixing every front: pytorch_wavelets-style, modules, functional 3-D."""

    def __init__(self):
        super().__init__()
        self.down = lwt.DWTForward(2, "bior4.4", mode="periodization")
        self.up = lwt.DWTInverse("bior4.4", mode="periodization")
        self.conv = torch.nn.Conv2d(3, 3, 3, padding=1)
        self.dwt, self.idwt = lwt.DWT2d("cdf97", 1), lwt.IDWT2d("cdf97", 1)

    def forward(self, x):
        yl, yh = self.down(x)
        z = self.up((self.conv(yl), [h * 0.5 for h in yh]))
        c = lwt.wavedec3(z.unsqueeze(1), "haar", 1, "symmetric")
        return self.idwt(self.dwt(z) * 2) + lwt.waverec3(c, "haar", "symmetric").squeeze(1)


def test_dynamo_no_graph_breaks_and_export():
    m = Net()
    x = torch.randn(2, 3, 16, 16)
    e = torch._dynamo.explain(m)(x)
    assert e.graph_break_count == 0 and e.graph_count == 1, e.break_reasons
    ep = torch.export.export(m, (x,))
    torch.testing.assert_close(ep.module()(x), m(x), rtol=0, atol=0)
    names = str(ep.graph)
    assert "liftwave.analysis" in names and "liftwave.synthesis" in names and "liftwave.transform" in names


def test_compile_forward_backward_dynamic_shapes():
    """aot_eager runs the fake kernels and the autograd formulas through AOTAutograd;
    dynamic=True recompiles for new shapes symbolically."""
    m = Net()
    mc = torch.compile(m, backend="aot_eager", fullgraph=True, dynamic=True)
    for shape in [(2, 3, 16, 16), (1, 3, 32, 8)]:
        x = torch.randn(shape, requires_grad=True)
        y = mc(x)
        y.square().sum().backward()
        g = x.grad.clone()
        x.grad = None
        m(x).square().sum().backward()
        torch.testing.assert_close(y, m(x), rtol=0, atol=1e-6)
        torch.testing.assert_close(g, x.grad, rtol=1e-5, atol=1e-5)


def test_compile_inductor():
    """The default backend (inductor: compiles C++ for the CPU), fullgraph."""
    m = Net()
    x = torch.randn(2, 3, 16, 16, requires_grad=True)
    try:
        mc = torch.compile(m, fullgraph=True)
        y = mc(x)
    except Exception as e:  # noqa: BLE001 - no C++ compiler for inductor: say so
        if "compiler" in str(e).lower() or "InvalidCxxCompiler" in type(e).__name__:
            pytest.skip("inductor cannot compile on this host: %s" % e)
        raise
    y.sum().backward()
    g = x.grad.clone()
    x.grad = None
    m(x).sum().backward()
    torch.testing.assert_close(y, m(x), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(g, x.grad, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("layout", ["mallat", "interleaved"])
def test_gradients_are_the_library_adjoints(layout):
    """x.grad of dwt2 is liftwave.adjoint of the incoming gradient, of idwt2 liftwave.inverse_adjoint."""
    rng = np.random.default_rng(9)
    for wavelet, mode, shape in [("cdf97", "symmetric", (2, 9, 7)), ("dd137", "periodic", (2, 8, 16)),
                                 ("d4", "symmetric", (1, 6, 5))]:
        x = torch.tensor(rng.standard_normal(shape), requires_grad=True)
        g = rng.standard_normal(shape)
        opts = dict(wavelet=wavelet, levels=2, mode=mode, layout=layout, axes=(1, 2))
        lwt.dwt2(x, wavelet, 2, mode, layout).backward(torch.from_numpy(g))
        np.testing.assert_allclose(x.grad.numpy(), liftwave.adjoint(g, **opts), rtol=0, atol=1e-12)
        x.grad = None
        lwt.idwt2(x, wavelet, 2, mode, layout).backward(torch.from_numpy(g))
        np.testing.assert_allclose(x.grad.numpy(), liftwave.inverse_adjoint(g, **opts), rtol=0, atol=1e-12)


def test_export_save_load_dynamic_batch():
    import io
    m = torch.nn.Sequential(lwt.DWT2d("cdf97", 2), lwt.IDWT2d("cdf97", 2))
    x = torch.randn(2, 3, 16, 16)
    ep = torch.export.export(m, (x,), dynamic_shapes=({0: torch.export.Dim("batch")},))
    buf = io.BytesIO()
    torch.export.save(ep, buf)
    buf.seek(0)
    loaded = torch.export.load(buf)
    x5 = torch.randn(5, 3, 16, 16)
    torch.testing.assert_close(loaded.module()(x5), x5, rtol=0, atol=1e-5)
    with torch.inference_mode():
        torch.testing.assert_close(m(x5), x5, rtol=0, atol=1e-5)
