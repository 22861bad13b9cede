"""liftwave.forward / inverse / Plan / max_levels / describe on NumPy arrays:
round trips of every wavelet, mode, layout, dtype and the integer variants,
bit-exact integer results, and the errors."""
import itertools

import numpy as np
import pytest

import liftwave
from conftest import rel_err

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs"]
INTEGER_WAVELETS = ["haar", "cdf53", "dd137", "fs"]
SHAPES = [(37,), (16, 24), (9, 14, 7), (3, 10, 12)]


def _levels_for(shape, mode):
    return 2 if mode == "symmetric" else 1


@pytest.mark.parametrize("wavelet,mode,layout,dtype", list(itertools.product(
    WAVELETS, ["symmetric", "periodic"], ["mallat", "interleaved"], ["float32", "float64"])))
def test_round_trip_float(rng, wavelet, mode, layout, dtype):
    for shape in SHAPES:
        if mode == "periodic":
            shape = tuple(n + (n % 2) for n in shape)
        x = rng.standard_normal(shape).astype(dtype)
        kw = dict(wavelet=wavelet, levels=_levels_for(shape, mode), mode=mode, layout=layout)
        y = liftwave.forward(x, **kw)
        assert y.dtype == x.dtype and y.shape == x.shape
        z = liftwave.inverse(y, **kw)
        assert rel_err(z, x) < (1e-5 if dtype == "float32" else 1e-12), (shape, kw)


@pytest.mark.parametrize("wavelet,mode,layout", list(itertools.product(
    INTEGER_WAVELETS, ["symmetric", "periodic"], ["mallat", "interleaved"])))
def test_round_trip_integer_exact(rng, wavelet, mode, layout):
    shapes = [(33,), (20, 18), (6, 10, 9)] if mode == "symmetric" else [(32,), (16, 8), (4, 8, 16)]
    for shape in shapes:
        x = rng.integers(-5000, 5000, shape, dtype=np.int32)
        kw = dict(wavelet=wavelet, levels="max", mode=mode, layout=layout, integer=True)
        y = liftwave.forward(x, **kw)
        assert y.dtype == np.int32
        assert np.array_equal(liftwave.inverse(y, **kw), x)
        # the tuned CPU path and the library's reference agree bit for bit
        assert np.array_equal(y, liftwave.forward(x, backend="cpu-ref", **kw))


def _cdf53_int_1d(x):
    """JPEG 2000 reversible 5/3, one level, whole-sample symmetric, Mallat order."""
    x = [int(v) for v in x]
    n = len(x)
    if n == 1:
        return x

    def at(i):  # whole-sample symmetric extension
        i = -i if i < 0 else i
        return x[2 * (n - 1) - i] if i > n - 1 else x[i]

    for i in range(1, n, 2):
        x[i] -= (at(i - 1) + at(i + 1)) // 2
    for i in range(0, n, 2):
        x[i] += (at(i - 1) + at(i + 1) + 2) // 4
    return x[0::2] + x[1::2]


def test_integer_cdf53_bit_exact_against_python_reference(rng):
    for n in [1, 2, 3, 8, 17, 64]:
        x = rng.integers(-(1 << 15), 1 << 15, n, dtype=np.int32)
        y = liftwave.forward(x, "cdf53", integer=True)
        assert y.tolist() == _cdf53_int_1d(x), n


def test_integer_haar_is_the_s_transform(rng):
    x = rng.integers(0, 256, 16).astype(np.int32)
    y = liftwave.forward(x, "haar", integer=True, mode="periodic")
    e, o = x[0::2].astype(np.int64), x[1::2].astype(np.int64)
    d = o - e
    assert y[8:].tolist() == d.tolist()
    assert y[:8].tolist() == (e + np.floor_divide(d, 2)).tolist()


@pytest.mark.parametrize("src,float_dtype", [("uint8", "float32"), ("int8", "float32"), ("int16", "float32"),
                                             ("uint16", "float32"), ("int32", "float64")])
def test_promotion_as_the_cli(rng, src, float_dtype):
    x = rng.integers(0, 100, (12, 10)).astype(src)
    y = liftwave.forward(x, "cdf53")
    assert y.dtype == float_dtype
    assert np.allclose(y, liftwave.forward(x.astype(float_dtype), "cdf53"))
    yi = liftwave.forward(x, "cdf53", integer=True)
    assert yi.dtype == np.int32
    assert np.array_equal(yi, liftwave.forward(x.astype(np.int32), "cdf53", integer=True))


def test_axes_and_batch(rng):
    x = rng.standard_normal((3, 16, 5, 12))
    y = liftwave.forward(x, "cdf97", levels=2, axes=(1, 3))
    for i in range(3):
        for k in range(5):
            assert rel_err(y[i, :, k, :], liftwave.forward(np.ascontiguousarray(x[i, :, k, :]), "cdf97",
                                                           levels=2)) < 1e-13
    assert rel_err(liftwave.inverse(y, "cdf97", levels=2, axes=(-3, -1)), x) < 1e-12


def test_non_contiguous_input_is_copied_once(rng):
    x = rng.standard_normal((32, 40))
    xt = x.T
    assert rel_err(liftwave.forward(xt, "haar"), liftwave.forward(np.ascontiguousarray(xt), "haar")) == 0
    assert np.array_equal(x.T, xt)  # the input is untouched


def test_out_and_in_place(rng):
    x = rng.standard_normal((16, 16)).astype(np.float32)
    out = np.empty_like(x)
    r = liftwave.forward(x, "cdf53", out=out)
    assert r is out and np.array_equal(out, liftwave.forward(x, "cdf53"))
    y = x.copy()
    liftwave.forward(y, "cdf53", out=y)  # in place
    assert np.array_equal(y, out)


def test_plan_reuse(rng):
    plan = liftwave.Plan((24, 30), "float32", wavelet="dd137", levels=2, mode="symmetric")
    inv = liftwave.Plan((24, 30), np.float32, wavelet="dd137", levels=2, inverse=True)
    for _ in range(3):
        x = rng.standard_normal((24, 30)).astype(np.float32)
        y = plan(x)
        assert np.array_equal(y, liftwave.forward(x, "dd137", levels=2))
        assert rel_err(inv(y), x) < 1e-5
    assert plan.config["levels"] == 2 and plan.config["backend"] == "cpu"
    assert "dd137" in plan.describe() and "dd137" in repr(plan)
    d = plan.describe()
    assert "backend: cpu" in d and "engines: " in d and "simd: " in d, d
    with pytest.raises(ValueError, match="shape"):
        plan(np.zeros((24, 31), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        plan(np.zeros((24, 30), np.float64))


def test_plan_threads(rng):
    import concurrent.futures
    plan = liftwave.Plan((64, 64), "float64", wavelet="cdf97", levels=3)
    xs = [rng.standard_normal((64, 64)) for _ in range(16)]
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        ys = list(ex.map(plan, xs))
    for x, y in zip(xs, ys):
        assert np.array_equal(y, liftwave.forward(x, "cdf97", levels=3))


def test_plan_scheme_and_tuning(rng):
    """scheme names an engine of the backend, tuning sets the plan's knobs (string or dict); both show in
    describe(), and results do not change; bad names are ValueErrors naming them"""
    x = rng.standard_normal((48, 64)).astype(np.float32)
    ref = liftwave.forward(x, "cdf97", levels=2)
    for kw in ({"scheme": "nd"}, {"tuning": "simd=scalar,stream=cached"}, {"tuning": {"simd": "scalar"}}):
        plan = liftwave.Plan(x.shape, "float32", wavelet="cdf97", levels=2, backend="cpu", **kw)
        assert np.allclose(plan(x), ref, rtol=0, atol=1e-5 * np.abs(ref).max()), kw
    d = liftwave.Plan(x.shape, "float32", backend="cpu", tuning={"simd": "scalar"}).describe()
    assert "scalar" in d, d
    with pytest.raises(ValueError, match="frobnicate"):
        liftwave.Plan(x.shape, "float32", backend="cpu", tuning="frobnicate=1")
    with pytest.raises(ValueError, match="local_block"):
        liftwave.Plan(x.shape, "float32", backend="cpu", tuning={"local_block": "sideways"})
    with pytest.raises(TypeError, match="tuning"):
        liftwave.Plan(x.shape, "float32", backend="cpu", tuning=3)
    with pytest.raises(ValueError, match="nosuch"):
        liftwave.Plan(x.shape, "float32", backend="cpu", scheme="nosuch")


def test_max_levels_and_describe():
    assert liftwave.max_levels((1080, 1920)) == 11
    assert liftwave.max_levels((5, 64), axes=(1,)) == 6
    assert liftwave.max_levels((1, 1)) == 0
    assert "liftwave" in liftwave.describe()
    assert liftwave.__version__ == "0.1.0"


def test_levels_max(rng):
    x = rng.standard_normal((40, 24))
    y = liftwave.forward(x, "cdf97", levels="max")
    assert rel_err(liftwave.inverse(y, "cdf97", levels="max"), x) < 1e-12


@pytest.mark.parametrize("dtype", ["complex64", "complex128", "bool", "int64", "uint32", "object"])
def test_unsupported_dtypes(dtype):
    x = np.zeros((8, 8), dtype=dtype)
    with pytest.raises(TypeError, match="not supported"):
        liftwave.forward(x)


def test_errors_carry_the_library_message(rng):
    x = rng.standard_normal((10, 12))
    with pytest.raises(ValueError, match="levels"):
        liftwave.forward(x, levels=9)
    with pytest.raises(ValueError, match="odd|even"):
        liftwave.forward(rng.standard_normal((10, 13)), mode="periodic")
    with pytest.raises(ValueError, match="unknown wavelet"):
        liftwave.forward(x, wavelet="db7")
    with pytest.raises(ValueError, match="unknown mode"):
        liftwave.forward(x, mode="zero")
    with pytest.raises(ValueError, match="unknown layout"):
        liftwave.forward(x, layout="packed")
    with pytest.raises(ValueError, match="backend"):
        liftwave.forward(x, backend="tpu")
    with pytest.raises(ValueError):  # no integer 9/7
        liftwave.forward(x.astype(np.int32), "cdf97", integer=True)
    with pytest.raises(TypeError, match="integer"):
        liftwave.forward(x, "cdf53", integer=True)
    with pytest.raises(ValueError, match="repeated"):
        liftwave.forward(x, axes=(0, 0))
    with pytest.raises(ValueError, match="out of range"):
        liftwave.forward(x, axes=(2,))
    with pytest.raises(ValueError):  # rank 4 needs axes
        liftwave.forward(np.zeros((2, 2, 2, 2)))
    with pytest.raises(ValueError):  # rank 5
        liftwave.forward(np.zeros((2, 2, 2, 2, 2)), axes=(0,))


def test_integer_overflow_is_reported():
    x = np.full(64, 2 ** 31 - 1, dtype=np.int32)
    x[::2] = -(2 ** 31) + 1  # highpass of about 2^32
    with pytest.raises(ValueError, match="int32|overflow|fit"):
        liftwave.forward(x, "dd137", integer=True)


def test_zero_size_and_0d():
    with pytest.raises(ValueError, match="0-d"):
        liftwave.forward(np.float32(1.0))
    with pytest.raises(ValueError):
        liftwave.forward(np.zeros((0, 8), np.float32))
    with pytest.raises(ValueError, match="zero-size"):
        liftwave.Plan((4, 0), "float32")


def test_bad_out():
    x = np.zeros((8, 8), np.float32)
    ro = np.zeros_like(x)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        liftwave.forward(x, out=ro)
    with pytest.raises(ValueError, match="shape"):
        liftwave.forward(x, out=np.zeros((8, 9), np.float32))
    with pytest.raises(ValueError, match="dtype"):
        liftwave.forward(x, out=np.zeros((8, 8), np.float64))
    with pytest.raises(ValueError, match="contiguous"):
        liftwave.forward(x, out=np.zeros((8, 16), np.float32)[:, ::2])


def test_device_backend_without_gpu():
    if liftwave._liftwave.backend_available("cuda"):
        pytest.skip("a CUDA device is present")
    with pytest.raises(RuntimeError):
        liftwave.forward(np.zeros((8, 8), np.float32), backend="cuda")


def test_lists_are_accepted():
    y = liftwave.forward([[1.0, 2.0], [3.0, 4.0]], "haar")
    assert isinstance(y, np.ndarray) and y.dtype == np.float64


def test_no_gpu_library_is_imported():
    """CuPy and PyTorch are imported only when the caller passes their arrays."""
    import subprocess
    import sys
    code = ("import sys, numpy as np, liftwave, liftwave.pywt as p; x = np.ones((8, 8));"
            "liftwave.forward(x); p.wavedec2(x, 'db2', 'periodization', level=1);"
            "print(sorted(m for m in ('cupy', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("wavelet", ["haar", "cdf53", "cdf97", "dd137", "d4", "dd97"])
@pytest.mark.parametrize("layout", ["mallat", "interleaved"])
def test_gain_scales_each_band(rng, wavelet, layout):
    """forward(gain=(a, b)) is the forward times a per axis and level for the
    lowpass, b for the highpass (2 levels of a 2-D transform: the level-1
    'hl' band gets b*a, the final lowpass a^4); the inverse with the same
    gains undoes it."""
    x = rng.standard_normal((16, 24))
    a, b = 1.25, -0.5
    base = liftwave.forward(x, wavelet, levels=2, layout=layout)
    y = liftwave.forward(x, wavelet, levels=2, layout=layout, gain=(a, b))
    f = np.empty_like(x)
    for i in range(16):
        for j in range(24):
            if layout == "mallat":
                ki = 1 if i >= 8 else 2 if i >= 4 else 3
                kj = 1 if j >= 12 else 2 if j >= 6 else 3
            else:
                ki = 1 if i % 2 else 2 if i % 4 else 3
                kj = 1 if j % 2 else 2 if j % 4 else 3
            k = min(ki, kj)
            if k == 3:
                f[i, j] = a ** 4
            else:
                f[i, j] = a ** (2 * (k - 1)) * (b if ki == k else a) * (b if kj == k else a)
    np.testing.assert_allclose(y, base * f, rtol=1e-12, atol=1e-12)
    z = liftwave.inverse(y, wavelet, levels=2, layout=layout, gain=(a, b))
    np.testing.assert_allclose(z, x, rtol=0, atol=1e-12)
    assert liftwave.Plan(x.shape, x.dtype, wavelet, gain=(a, b)).config["gain"] == (a, b)


def test_gain_errors(rng):
    x = rng.standard_normal((8, 8))
    with pytest.raises(ValueError, match="gain"):
        liftwave.forward(x, "cdf97", gain=(1.0, float("nan")))
    with pytest.raises(ValueError, match="pair"):
        liftwave.forward(x, "cdf97", gain=2.0)
    with pytest.raises(ValueError, match="separable"):
        liftwave.forward(x, "fs", gain=(2.0, 1.0))
    with pytest.raises(ValueError, match="integer"):
        liftwave.forward(x.astype(np.int32), "cdf53", integer=True, gain=(2.0, 1.0))
    np.testing.assert_array_equal(liftwave.forward(x, "cdf97", gain=(0, 0)), liftwave.forward(x, "cdf97"))


def test_device_memory_limit_option(rng):
    """device_memory_limit: accepted (and reported) on any backend, ignored off CUDA; bad values raise."""
    x = rng.standard_normal((64, 48)).astype(np.float32)
    a = liftwave.Plan(x.shape, np.float32, levels=2)(x)
    p = liftwave.Plan(x.shape, np.float32, levels=2, device_memory_limit=1 << 20)
    assert p.config["device_memory_limit"] == 1 << 20
    assert np.array_equal(p(x), a)
    assert liftwave.Plan(x.shape, np.float32, device_memory_limit=np.int64(4096)).config["device_memory_limit"] == 4096
    with pytest.raises(ValueError, match="device_memory_limit"):
        liftwave.Plan(x.shape, np.float32, device_memory_limit=-1)
    for bad in (1.5, True, "1M"):
        with pytest.raises(TypeError, match="device_memory_limit"):
            liftwave.Plan(x.shape, np.float32, device_memory_limit=bad)


def test_placement_option():
    """placement (one side on the device): the values, device= required, not in place; off CUDA the
    plan's creation says the backend is missing."""
    with pytest.raises(ValueError, match="placement must be"):
        liftwave.Plan((64, 64), np.float32, placement="X")
    with pytest.raises(ValueError, match="give device=N"):
        liftwave.Plan((64, 64), np.float32, placement="C2G")
    with pytest.raises(ValueError, match="not in_place"):
        liftwave.Plan((64, 64), np.float32, device=0, placement="G2C", in_place=True)
    if not liftwave._liftwave.backend_available("cuda"):
        with pytest.raises(RuntimeError, match="cuda"):
            liftwave.Plan((64, 64), np.float32, device=0, placement="C2G")
