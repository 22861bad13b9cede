"""The PyTorch examples in examples/: the wavelet-downsampling CNN trains (its loss
falls in a few steps on random data, eagerly and compiled) and the 3-D Haar video
patcher inverts exactly."""
import importlib.util
import os

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples")


def load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(EXAMPLES, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_wavelet_cnn_trains():
    cnn = load("torch_wavelet_cnn")
    losses = cnn.train(steps=12)
    assert all(l == l for l in losses)  # no NaN
    assert losses[-1] < 0.8 * losses[0], losses


def test_wavelet_cnn_compiled_matches_eager():
    cnn = load("torch_wavelet_cnn")
    eager = cnn.train(steps=3)
    compiled = cnn.train(steps=3, compile=True)
    assert max(abs(a - b) for a, b in zip(eager, compiled)) < 1e-4, (eager, compiled)


def test_wavelet_down_is_the_haar_subbands():
    cnn = load("torch_wavelet_cnn")
    x = torch.randn(2, 3, 8, 8, dtype=torch.float64)
    y = cnn.WaveletDown()(x)
    assert y.shape == (2, 12, 4, 4)
    # LL of Haar: (a + b + c + d) / 2 of each 2x2 block, channel 4c of the output
    ll = (x[..., ::2, ::2] + x[..., 1::2, ::2] + x[..., ::2, 1::2] + x[..., 1::2, 1::2]) / 2
    torch.testing.assert_close(y[:, ::4], ll, rtol=0, atol=1e-12)
    assert float(y.square().sum()) == pytest.approx(float(x.square().sum()), rel=1e-12)  # orthonormal


def test_video_patcher_round_trip():
    vp = load("torch_video_patcher")
    shape, err = vp.demo(shape=(2, 3, 8, 16, 16), levels=2)
    assert shape == (2, 3 * 64, 2, 4, 4) and err < 1e-5
    x = torch.randn(1, 2, 4, 8, 8, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: vp.Patcher3D(1)(t), (x,))


def test_video_patcher_bfloat16():
    """bfloat16 on the CPU: the round trip within two bfloat16 roundings (2^-8 each,
    relative to coefficients of a few units: randn data)."""
    vp = load("torch_video_patcher")
    shape, err = vp.demo(shape=(1, 3, 4, 8, 8), levels=1, dtype=torch.bfloat16)
    assert shape == (1, 3 * 8, 2, 4, 4) and err < 0.1
