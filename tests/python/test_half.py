"""NumPy float16 through liftwave.forward / inverse / adjoint / inverse_adjoint:
the result is float16, bit for bit the float32 transform of the widened input
rounded once (the library computes half in float32; docs/CONVENTIONS.md "Half
precision"), and a round trip stays within the documented float16 bound."""
import itertools

import numpy as np
import pytest

import liftwave
from conftest import rel_err

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs", "dd97"]
SHAPES = [(37,), (16, 24), (9, 14, 7)]
DIRECTIONS = [liftwave.forward, liftwave.inverse, liftwave.adjoint, liftwave.inverse_adjoint]


def _shape_for(shape, mode):
    return tuple(n + (n % 2) for n in shape) if mode == "periodic" else shape


@pytest.mark.parametrize("wavelet,mode,layout", list(itertools.product(
    WAVELETS, ["symmetric", "periodic"], ["mallat", "interleaved"])))
def test_float16_matches_float32_rounded(rng, wavelet, mode, layout):
    for shape in SHAPES:
        shape = _shape_for(shape, mode)
        x = rng.uniform(-1, 1, shape).astype(np.float16)
        kw = dict(wavelet=wavelet, levels=1 if mode == "periodic" else 2, mode=mode, layout=layout, backend="cpu")
        for fn in DIRECTIONS:
            y = fn(x, **kw)
            assert y.dtype == np.float16 and y.shape == x.shape
            want = fn(x.astype(np.float32), **kw).astype(np.float16)  # numpy rounds to nearest even
            np.testing.assert_array_equal(y.view(np.uint16), want.view(np.uint16), err_msg="%s %s" % (fn.__name__, kw))
        z = liftwave.inverse(liftwave.forward(x, **kw), **kw)
        assert rel_err(z, x) < 4e-3, (shape, kw)


def test_float16_reference_backend(rng):
    """cpu-ref computes in double and rounds once: within one float16 step of
    the float64 result (relative to the largest coefficient)."""
    x = rng.uniform(-1, 1, (20, 22)).astype(np.float16)
    y = liftwave.forward(x, "cdf97", levels=2, backend="cpu-ref")
    assert y.dtype == np.float16
    assert rel_err(y, liftwave.forward(x.astype(np.float64), "cdf97", levels=2)) < 5.5e-4


def test_float16_plan_and_out(rng):
    x = rng.uniform(-1, 1, (8, 16)).astype(np.float16)
    plan = liftwave.Plan(x.shape, "float16", wavelet="haar", levels=2)
    out = np.empty_like(x)
    assert plan(x, out=out) is out
    np.testing.assert_array_equal(out, liftwave.forward(x, "haar", levels=2))
    with pytest.raises(TypeError):
        plan(x.astype(np.float32))


def test_float16_integer_refused():
    with pytest.raises(TypeError, match="integer"):
        liftwave.forward(np.zeros((8, 8), np.float16), "cdf53", integer=True)


def test_float16_overflow_is_infinity():
    """Coefficients past float16's range (65504) become infinity, as a cast would."""
    x = np.full(16, 60000, np.float16)
    y = liftwave.forward(x, "haar")
    assert np.isinf(y).any() and not np.isnan(y).any()
