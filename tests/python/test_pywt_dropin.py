"""liftwave.pywt against PyWavelets on random shapes (odd ones included),
levels, axes, batch axes and dtypes; the fallback to PyWavelets and its
warning; the errors."""
import warnings

import numpy as np
import pytest

import liftwave._pywt_core as core
import liftwave.pywt as lp

pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed: nothing to compare liftwave.pywt with")

WAVELETS = ["haar", "db1", "db2", "bior2.2", "bior4.4"]
MODE = "periodization"
TOL = {"float64": 1e-12, "float32": 1e-5, "complex128": 1e-12, "complex64": 1e-5}
# PyWavelets' bior4.4 taps carry about 12 digits, liftwave's cdf97 the exact
# T.800 constants: in float64 the two agree to a few 1e-12 (docs/PYTHON.md)
TOL_BIOR44_FLOAT64 = 5e-12


def _flatten(c):
    """Every array of a pywt result (tuple, list, dict nesting), in order."""
    if isinstance(c, dict):
        return [a for k in sorted(c) for a in _flatten(c[k])]
    if isinstance(c, (list, tuple)):
        return [a for x in c for a in _flatten(x)]
    return [c]


def _same(ours, theirs, dtype, wavelet=None):
    """Same structure, shapes and dtypes as pywt; values within the tolerance,
    relative to the largest coefficient of the whole result."""
    assert type(ours) is type(theirs)
    if isinstance(theirs, dict):
        assert sorted(ours) == sorted(theirs)
    a, b = _flatten(ours), _flatten(theirs)
    assert len(a) == len(b)
    tol = TOL[np.dtype(dtype).name]
    if wavelet == "bior4.4" and tol < 1e-10:
        tol = TOL_BIOR44_FLOAT64
    scale = max(float(np.abs(y).max()) for y in b if y.size) or 1.0
    for x, y in zip(a, b):
        assert x.shape == y.shape and x.dtype == y.dtype, (x.shape, y.shape, x.dtype, y.dtype)
        err = float(np.abs(x.astype(y.dtype) - y).max()) / scale
        assert err <= tol, err


def _quiet(fn, *args, **kw):
    """Run fn; fail on a liftwave fallback warning (the call must not be delegated)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn(*args, **kw)
    assert not [x for x in w if "liftwave.pywt" in str(x.message)], [str(x.message) for x in w]
    return out


def _even_shape(rng, ndim, level):
    return tuple(int(rng.integers(1, 6)) << level for _ in range(ndim))


@pytest.mark.parametrize("wavelet", WAVELETS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_single_level(rng, wavelet, dtype):
    for _ in range(4):
        x = rng.standard_normal(_even_shape(rng, 3, 1)).astype(dtype)
        _same(_quiet(lp.dwt, x, wavelet, MODE, axis=1), pywt.dwt(x, wavelet, MODE, axis=1), dtype, wavelet)
        _same(_quiet(lp.dwt2, x, wavelet, MODE), pywt.dwt2(x, wavelet, MODE), dtype, wavelet)
        _same(_quiet(lp.dwt2, x, wavelet, MODE, axes=(2, 0)), pywt.dwt2(x, wavelet, MODE, axes=(2, 0)), dtype, wavelet)
        _same(_quiet(lp.dwtn, x, wavelet, MODE), pywt.dwtn(x, wavelet, MODE), dtype, wavelet)
        _same(_quiet(lp.dwtn, x, wavelet, MODE, axes=(-1, 0)), pywt.dwtn(x, wavelet, MODE, axes=(-1, 0)), dtype, wavelet)
        cA, cD = pywt.dwt(x, wavelet, MODE, axis=0)
        _same(_quiet(lp.idwt, cA, cD, wavelet, MODE, axis=0), pywt.idwt(cA, cD, wavelet, MODE, axis=0), dtype, wavelet)
        _same(_quiet(lp.idwt, None, cD, wavelet, MODE, axis=0), pywt.idwt(None, cD, wavelet, MODE, axis=0), dtype, wavelet)
        c2 = pywt.dwt2(x, wavelet, MODE, axes=(0, 2))
        _same(_quiet(lp.idwt2, c2, wavelet, MODE, axes=(0, 2)), pywt.idwt2(c2, wavelet, MODE, axes=(0, 2)), dtype, wavelet)
        cn = pywt.dwtn(x, wavelet, MODE, axes=(2, 1))
        cn["ad"] = None
        _same(_quiet(lp.idwtn, cn, wavelet, MODE, axes=(2, 1)), pywt.idwtn(cn, wavelet, MODE, axes=(2, 1)), dtype, wavelet)


@pytest.mark.parametrize("wavelet", WAVELETS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_multilevel(rng, wavelet, dtype):
    for level in (1, 2, 3):
        x = rng.standard_normal(_even_shape(rng, 2, level) + (3,)).astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pywt's "level too high" (both warn alike, tested below)
            c = pywt.wavedec(x, wavelet, MODE, level=level, axis=0)
            _same(lp.wavedec(x, wavelet, MODE, level=level, axis=0), c, dtype, wavelet)
            _same(lp.waverec(c, wavelet, MODE, axis=0), pywt.waverec(c, wavelet, MODE, axis=0), dtype, wavelet)
            c = pywt.wavedec2(x, wavelet, MODE, level=level, axes=(0, 1))
            _same(lp.wavedec2(x, wavelet, MODE, level=level, axes=(0, 1)), c, dtype, wavelet)
            _same(lp.waverec2(c, wavelet, MODE, axes=(0, 1)), pywt.waverec2(c, wavelet, MODE, axes=(0, 1)), dtype, wavelet)
            c = pywt.wavedecn(x, wavelet, MODE, level=level, axes=(1, 0))
            _same(lp.wavedecn(x, wavelet, MODE, level=level, axes=(1, 0)), c, dtype, wavelet)
            _same(lp.waverecn(c, wavelet, MODE, axes=(1, 0)), pywt.waverecn(c, wavelet, MODE, axes=(1, 0)), dtype, wavelet)
            c = pywt.wavedecn(x, wavelet, MODE, level=level)
            _same(lp.wavedecn(x, wavelet, MODE, level=level), c, dtype, wavelet)


def test_default_level_and_warning(rng):
    x = rng.standard_normal((64, 128))
    _same(_quiet(lp.wavedec2, x, "bior4.4", MODE), pywt.wavedec2(x, "bior4.4", MODE), "float64", "bior4.4")
    _same(_quiet(lp.wavedec, x, "db2", MODE), pywt.wavedec(x, "db2", MODE), "float64")
    with pytest.warns(UserWarning, match="too high"):
        lp.wavedec(x, "bior4.4", MODE, level=5)
    with pytest.raises(ValueError, match="too low"):
        lp.wavedec(x, "haar", MODE, level=-1)
    _same(lp.wavedec(x, "haar", MODE, level=0), pywt.wavedec(x, "haar", MODE, level=0), "float64")


@pytest.mark.parametrize("src,dst", [("float16", "float32"), ("int32", "float64"), ("uint8", "float64"),
                                     ("bool", "float64"), ("int64", "float64")])
def test_dtypes_as_pywt(rng, src, dst):
    x = (rng.standard_normal((8, 16)) * 10).astype(src)
    ours = _quiet(lp.dwt2, x, "db2", MODE)
    assert ours[0].dtype == dst
    _same(ours, pywt.dwt2(x, "db2", MODE), dst)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex(rng, dtype):
    x = (rng.standard_normal((16, 8)) + 1j * rng.standard_normal((16, 8))).astype(dtype)
    c = pywt.wavedec2(x, "bior2.2", MODE, level=2)
    _same(_quiet(lp.wavedec2, x, "bior2.2", MODE, level=2), c, dtype)
    _same(_quiet(lp.waverec2, c, "bior2.2", MODE), pywt.waverec2(c, "bior2.2", MODE), dtype)


def test_batch_axes_higher_rank(rng):
    x = rng.standard_normal((2, 3, 16, 4, 8))
    c = pywt.wavedecn(x, "db2", MODE, level=2, axes=(2, 4))
    _same(_quiet(lp.wavedecn, x, "db2", MODE, level=2, axes=(2, 4)), c, "float64")
    _same(_quiet(lp.waverecn, c, "db2", MODE, axes=(2, 4)), pywt.waverecn(c, "db2", MODE, axes=(2, 4)), "float64")


def test_non_contiguous_input(rng):
    x = rng.standard_normal((32, 16)).T
    _same(_quiet(lp.dwt2, x, "haar", MODE), pywt.dwt2(x, "haar", MODE), "float64")


def test_dwt_max_level():
    for n in (1, 2, 3, 7, 8, 9, 100, 1024, 5000):
        for w in ["haar", "db2", "bior2.2", "bior4.4"]:
            assert lp.dwt_max_level(n, w) == pywt.dwt_max_level(n, w)
            assert lp.dwt_max_level(n, pywt.Wavelet(w)) == pywt.dwt_max_level(n, w)
        for f in (2, 4, 10):
            assert lp.dwt_max_level(n, f) == pywt.dwt_max_level(n, f)


@pytest.mark.parametrize("shape,level", [((33, 16), 1), ((24, 10), 2), ((7,), 1), ((16, 16), 5)])
def test_odd_lengths_go_to_pywt(rng, shape, level):
    """pywt pads odd lengths; liftwave does not: the call is delegated, never answered differently."""
    x = rng.standard_normal(shape)
    core._warned.clear()
    with pytest.warns(UserWarning, match="odd"):
        ours = lp.wavedecn(x, "db2", MODE, level=level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = pywt.wavedecn(x, "db2", MODE, level=level)
    _same(ours, theirs, "float64")
    c = pywt.wavedec(x, "haar", MODE, level=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(lp.waverec(c, "haar", MODE), pywt.waverec(c, "haar", MODE), "float64")


def test_other_modes_and_wavelets_go_to_pywt_once(rng):
    x = rng.standard_normal((16, 16))
    core._warned.clear()
    with pytest.warns(UserWarning, match="mode='symmetric'"):
        ours = lp.dwt2(x, "db2")
    _same(ours, pywt.dwt2(x, "db2"), "float64")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        lp.dwt2(x, "db2")
    assert not [m for m in w if "liftwave.pywt" in str(m.message)]  # once per reason
    with pytest.warns(UserWarning, match="sym4"):
        _same(lp.wavedec(x, "sym4", MODE, level=1), pywt.wavedec(x, "sym4", MODE, level=1), "float64")


def test_without_pywt_a_clear_error(rng, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "pywt", None)  # import pywt -> ImportError
    with pytest.raises(ValueError, match="PyWavelets is not installed"):
        lp.dwt2(rng.standard_normal((8, 8)), "db4", MODE)
    _quiet(lp.dwt2, rng.standard_normal((8, 8)), "db2", MODE)  # the supported path needs no pywt


def test_coefficient_shapes_that_do_not_fit(rng):
    cA = np.zeros((4, 4))
    with pytest.raises(ValueError):
        lp.idwt2((cA, (np.zeros((4, 5)), cA, cA)), "haar", MODE)
    with pytest.raises(ValueError):
        lp.waverec2([cA, (cA, cA, cA), (cA, cA, cA)], "haar", MODE)  # level 1 must be 8x8
    with pytest.raises(ValueError):
        lp.waverec2([cA, (cA, cA)], "haar", MODE)
    with pytest.raises(ValueError):
        lp.waverecn([cA, [cA]], "haar", MODE)
    with pytest.raises(ValueError):
        lp.idwtn({"aa": None, "ad": None}, "haar", MODE)
    with pytest.raises(ValueError):
        lp.idwtn({"aa": cA, "xd": cA}, "haar", MODE)


def test_bad_input(rng):
    with pytest.raises(ValueError):
        lp.dwt2(np.float64(1.0), "haar", MODE)
    with pytest.raises(ValueError):
        lp.dwt2(np.zeros((0, 4)), "haar", MODE)
    with pytest.raises(ValueError):
        lp.dwt2(np.zeros(8), "haar", MODE, axes=(0,))
    with pytest.raises(ValueError, match="unique"):
        lp.dwtn(np.zeros((8, 8)), "haar", MODE, axes=(0, 0))
    with pytest.raises((TypeError, ValueError)):
        lp.dwt2(np.array([[object()] * 4] * 4), "haar", MODE)


def test_large_results_recycled_buffers(rng):
    """1024x1024: the output buffer is reused only once the caller has dropped
    every view of the previous result."""
    x = rng.standard_normal((1024, 1024)).astype(np.float32)
    ref = pywt.wavedec2(x, "bior4.4", MODE, level=3)
    c1 = lp.wavedec2(x, "bior4.4", MODE, level=3)
    _same(c1, ref, "float32")
    keep = c1[1][0]  # one view of the first result stays alive
    snapshot = keep.copy()
    del c1
    c2 = lp.wavedec2(2 * x, "bior4.4", MODE, level=3)
    assert np.array_equal(keep, snapshot)  # not overwritten by the second call
    _same(c2, pywt.wavedec2(2 * x, "bior4.4", MODE, level=3), "float32")
    del c2, keep
    for _ in range(2):  # now recycled
        _same(lp.wavedec2(x, "bior4.4", MODE, level=3), ref, "float32")
    _same(lp.waverec2(ref, "bior4.4", MODE), pywt.waverec2(ref, "bior4.4", MODE), "float32")
