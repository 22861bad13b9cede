"""liftwave.adjoint / inverse_adjoint (the transposes of forward / inverse) on
NumPy arrays: the dot-product identity in float64 for every wavelet, mode and
layout on odd, even and batched shapes, the orthogonal case, the plan's
direction, and the errors."""
import itertools

import numpy as np
import pytest

import liftwave

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs", "dd97"]
# (shape, axes): odd and even lengths, a length-1 axis, batches
SHAPES = [((37,), None), ((16, 24), None), ((9, 14, 7), None), ((3, 10, 13), (1, 2)), ((12, 1, 8), None),
          ((4, 6, 5, 10), (1, 3))]


def _cases(mode):
    for shape, axes in SHAPES:
        if mode == "periodic":
            shape = tuple(n + (n % 2) if n > 1 else n for n in shape)
        yield shape, axes


@pytest.mark.parametrize("wavelet,mode,layout,backend", list(itertools.product(
    WAVELETS, ["symmetric", "periodic"], ["mallat", "interleaved"], ["cpu", "cpu-ref"])))
def test_dot_product_identity(rng, wavelet, mode, layout, backend):
    for shape, axes in _cases(mode):
        kw = dict(wavelet=wavelet, levels=1 if mode == "periodic" else 2, mode=mode, layout=layout, axes=axes,
                  backend=backend)
        x = rng.standard_normal(shape)
        y = rng.standard_normal(shape)
        # <F x, y> == <x, F^T y>
        lhs, rhs = np.vdot(liftwave.forward(x, **kw), y), np.vdot(x, liftwave.adjoint(y, **kw))
        assert abs(lhs - rhs) <= 1e-12 * np.linalg.norm(x) * np.linalg.norm(y) * 4, (shape, kw, lhs, rhs)
        # <F^-1 y, x> == <y, F^-T x>
        lhs, rhs = np.vdot(liftwave.inverse(y, **kw), x), np.vdot(y, liftwave.inverse_adjoint(x, **kw))
        assert abs(lhs - rhs) <= 1e-12 * np.linalg.norm(x) * np.linalg.norm(y) * 4, (shape, kw, lhs, rhs)


def test_adjoint_is_linear_and_float32(rng):
    x = rng.standard_normal((33, 20)).astype(np.float32)
    y = liftwave.adjoint(x, "cdf97", levels=2)
    assert y.dtype == np.float32 and y.shape == x.shape
    y64 = liftwave.adjoint(x.astype(np.float64), "cdf97", levels=2)
    assert np.max(np.abs(y - y64)) <= 1e-5 * np.max(np.abs(y64))
    assert np.allclose(liftwave.adjoint(2 * x.astype(np.float64), "cdf97", levels=2), 2 * y64, rtol=0, atol=1e-12)


def test_orthogonal_adjoint_is_inverse(rng):
    y = rng.standard_normal((32, 16))
    for w in ("haar", "d4"):
        kw = dict(wavelet=w, levels=3, mode="periodic")
        assert np.allclose(liftwave.adjoint(y, **kw), liftwave.inverse(y, **kw), rtol=0, atol=1e-12)
        assert np.allclose(liftwave.inverse_adjoint(y, **kw), liftwave.forward(y, **kw), rtol=0, atol=1e-12)
        assert liftwave.Plan(y.shape, y.dtype, adjoint=True, **kw).config["direction"] == "inverse"
    # cdf97 is not orthogonal: its adjoint is no inverse
    kw = dict(wavelet="cdf97", levels=2, mode="periodic")
    assert not np.allclose(liftwave.adjoint(y, **kw), liftwave.inverse(y, **kw))


def test_plan_direction(rng):
    x = rng.standard_normal((20, 18))
    p = liftwave.Plan(x.shape, x.dtype, wavelet="cdf53", levels=2, adjoint=True)
    q = liftwave.Plan(x.shape, x.dtype, wavelet="cdf53", levels=2, adjoint=True, inverse=True)
    assert p.config["direction"] == "forward-adjoint"
    assert q.config["direction"] == "inverse-adjoint"
    assert "direction: forward-adjoint" in p.describe()
    assert np.array_equal(p(x), liftwave.adjoint(x, "cdf53", levels=2))
    assert np.array_equal(q(x), liftwave.inverse_adjoint(x, "cdf53", levels=2))


def test_integer_has_no_adjoint():
    with pytest.raises(ValueError, match="not linear"):
        liftwave.Plan((16,), "int32", wavelet="cdf53", integer=True, adjoint=True)
    with pytest.raises(ValueError, match="not linear"):
        liftwave.Plan((16,), "int32", wavelet="haar", integer=True, adjoint=True, inverse=True)
