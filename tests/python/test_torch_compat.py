"""liftwave.torch.DWTForward / DWTInverse against pytorch_wavelets (where installed)
and PyWavelets: haar, db1, db2, bior2.2, bior4.4 in periodization mode, 1-3
levels, float32 and float64; haar in every pytorch_wavelets mode; pytorch_wavelets'
defaults; gradients by gradcheck."""
import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)
import liftwave.torch as lwt  # noqa: E402

WAVES = ["haar", "db1", "db2", "bior2.2", "bior4.4"]


PW_MODES = ["zero", "symmetric", "reflect", "periodization", "per", "periodic"]


def peer_forward(x, J, **kw):
    """pytorch_wavelets' DWTForward(J=J, **kw) of x in float64, or None where it cannot be imported
    (it needs setuptools' pkg_resources, which setuptools 81 dropped)."""
    try:
        from pytorch_wavelets import DWTForward
    except ImportError:
        return None
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)  # its filters are made in the default dtype
    try:
        return DWTForward(J=J, **kw)(x.double())
    finally:
        torch.set_default_dtype(old)


def reference(x, wave, J):
    """(yl, yh) of pytorch_wavelets in float64 where it is installed, else built from pywt.wavedec2."""
    got = peer_forward(x, J, wave=wave, mode="periodization")
    if got is not None:
        return "pytorch_wavelets", got[0], got[1]
    pywt = pytest.importorskip("pywt", reason="neither pytorch_wavelets nor PyWavelets is installed")
    c = pywt.wavedec2(x.double().numpy(), wave, mode="periodization", level=J)
    yl = torch.from_numpy(c[0])
    yh = [torch.from_numpy(np.stack(c[J - j], axis=2)) for j in range(J)]
    return "pywt", yl, yh


@pytest.mark.parametrize("wave", WAVES)
@pytest.mark.parametrize("J", [1, 2, 3])
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_forward_and_inverse_equal_the_peer(wave, J, dtype):
    torch.manual_seed(J)
    x = torch.randn(2, 3, 64, 96, dtype=dtype)
    yl, yh = lwt.DWTForward(J=J, wave=wave, mode="periodization")(x)
    peer, rl, rh = reference(x, wave, J)
    assert yl.dtype == dtype and len(yh) == J
    assert yl.shape == rl.shape and [h.shape for h in yh] == [h.shape for h in rh], peer
    tol = 1e-10 if dtype == torch.float64 else 1e-5  # bior4.4's pywt taps carry about 12 digits
    scale = float(x.abs().max())
    assert float((yl.double() - rl).abs().max()) <= tol * scale * 4 ** J, peer
    for h, r in zip(yh, rh):
        assert float((h.double() - r).abs().max()) <= tol * scale * 4 ** J, peer
    x2 = lwt.DWTInverse(wave=wave, mode="periodization")((yl, yh))
    torch.testing.assert_close(x2, x, rtol=0, atol=1e-12 if dtype == torch.float64 else 1e-4)


def test_inverse_of_the_peers_coefficients():
    torch.manual_seed(3)
    x = torch.randn(1, 2, 32, 32, dtype=torch.float64)
    for wave in WAVES:
        peer, rl, rh = reference(x, wave, 2)
        torch.testing.assert_close(lwt.DWTInverse(wave, "periodization")((rl, rh)), x, rtol=0, atol=1e-9)


def test_pywt_wavelet_objects_and_liftwave_names():
    pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed")
    x = torch.randn(1, 1, 16, 16, dtype=torch.float64)
    a = lwt.DWTForward(2, pywt.Wavelet("bior2.2"), "periodization")(x)
    b = lwt.DWTForward(2, "bior2.2", "periodization")(x)
    torch.testing.assert_close(a[0], b[0], rtol=0, atol=0)
    # liftwave's own names run in liftwave's units: the same as wavedec2 in periodic mode
    yl, yh = lwt.DWTForward(2, "cdf97")(x)
    c = lwt.wavedec2(x, "cdf97", 2, "periodic")
    torch.testing.assert_close(yl, c[0], rtol=0, atol=0)
    torch.testing.assert_close(yh[0], torch.stack(c[2], 2), rtol=0, atol=0)


def test_none_details_are_zeros_and_batch_axes():
    x = torch.randn(2, 3, 4, 16, 16, dtype=torch.float64)  # two leading batch axes
    yl, yh = lwt.DWTForward(2, "db2", "periodization")(x)
    assert yl.shape == (2, 3, 4, 4, 4) and yh[0].shape == (2, 3, 4, 3, 8, 8)
    inv = lwt.DWTInverse("db2", "periodization")
    torch.testing.assert_close(inv((yl, [None, yh[1]])), inv((yl, [torch.zeros_like(yh[0]), yh[1]])), rtol=0, atol=0)
    assert lwt.DWTForward(0, "haar")(x)[1] == []


@pytest.mark.parametrize("wave", ["haar", "db2", "bior2.2", "bior4.4"])
def test_gradcheck(wave):
    torch.manual_seed(7)
    x = torch.randn(1, 2, 8, 8, dtype=torch.float64, requires_grad=True)
    fwd, inv = lwt.DWTForward(2, wave, "periodization"), lwt.DWTInverse(wave, "periodization")
    assert torch.autograd.gradcheck(lambda t: (lambda yl, yh: (yl, *yh))(*fwd(t)), (x,))
    yl, yh = fwd(x.detach())
    leaves = [yl.requires_grad_()] + [h.requires_grad_() for h in yh]
    assert torch.autograd.gradcheck(lambda a, *h: inv((a, list(h))), tuple(leaves))


def test_backward_saves_nothing_but_the_arguments():
    """The graph of DWTForward holds no tensor of the input's size: the backward
    is the adjoint of the bands, computed from the incoming gradients only."""
    x = torch.randn(1, 1, 64, 64, requires_grad=True)
    saved = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t.shape) or t, lambda t: t):
        yl, yh = lwt.DWTForward(3, "bior4.4", "periodization")(x)
        x2 = lwt.DWTInverse("bior4.4", "periodization")((yl, yh))
    assert saved == []
    x2.sum().backward()
    torch.testing.assert_close(x.grad, torch.ones_like(x), rtol=0, atol=1e-4)


@pytest.mark.parametrize("mode", PW_MODES)
def test_haar_takes_every_pytorch_wavelets_mode(mode):
    """On sizes divisible by 2^J the Haar filters read no sample past an end, so every
    pytorch_wavelets mode gives the periodization result (and pytorch_wavelets' own, where
    it can be imported)."""
    torch.manual_seed(5)
    x = torch.randn(2, 3, 32, 16, dtype=torch.float64)
    wl, wh = lwt.DWTForward(3, "haar", "periodization")(x)
    for wave in ("haar", "db1"):
        m = lwt.DWTForward(3, wave, mode)
        assert m.mode == mode
        yl, yh = m(x)
        torch.testing.assert_close(yl, wl, rtol=0, atol=0)
        for h, w in zip(yh, wh):
            torch.testing.assert_close(h, w, rtol=0, atol=0)
        torch.testing.assert_close(lwt.DWTInverse(wave, mode)((yl, yh)), x, rtol=0, atol=1e-12)
    got = peer_forward(x, 3, wave="db1", mode=mode)
    if got is not None:
        torch.testing.assert_close(wl, got[0], rtol=0, atol=1e-12)
        for h, r in zip(wh, got[1]):
            torch.testing.assert_close(h, r, rtol=0, atol=1e-12)


def test_defaults_are_pytorch_wavelets():
    """wave='db1', mode='zero' as in pytorch_wavelets: a model written for it that takes the
    defaults gets the same bands; a padded mode liftwave does not compute is an error naming
    the fix, never other shapes."""
    torch.manual_seed(6)
    x = torch.randn(1, 2, 16, 16, dtype=torch.float64)
    fwd, inv = lwt.DWTForward(2), lwt.DWTInverse()
    assert (fwd.wave, fwd.mode, inv.wave, inv.mode) == ("db1", "zero", "db1", "zero")
    yl, yh = fwd(x)
    wl, wh = lwt.DWTForward(2, "haar", "periodization")(x)
    torch.testing.assert_close(yl, wl, rtol=0, atol=0)
    torch.testing.assert_close(inv((yl, yh)), x, rtol=0, atol=1e-12)
    got = peer_forward(x, 2)
    if got is not None:
        torch.testing.assert_close(yl, got[0], rtol=0, atol=1e-12)
    for wave in ("db2", "bior2.2", "bior4.4"):
        with pytest.raises(ValueError, match=r"mode 'zero' \(pytorch_wavelets' default\) is not supported for "
                                             r"'%s'.*pass mode='periodization'" % wave):
            lwt.DWTForward(1, wave)
        with pytest.raises(ValueError, match="pytorch_wavelets' default"):
            lwt.DWTInverse(wave)
        with pytest.raises(ValueError, match=r"mode 'reflect' is not supported for '%s'" % wave):
            lwt.DWTForward(1, wave, "reflect")
    with pytest.raises(ValueError, match=r"mode 'constant' is not a pytorch_wavelets mode \(periodization, per, zero"):
        lwt.DWTForward(1, "haar", "constant")
    # liftwave's own names: periodization, also by default; no padded mode
    assert lwt.DWTForward(1, "cdf97").mode == "periodization"
    with pytest.raises(ValueError, match="mode 'zero' is not supported for liftwave's wavelet 'cdf97'"):
        lwt.DWTInverse("cdf97", mode="zero")
