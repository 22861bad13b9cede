"""In place from Python: plan(x, out=x), Plan(..., in_place=True) and the
refusals (an out that overlaps x without being x; an in_place plan given an
array it cannot transform itself).  On the CPU backends; GPU in place has its
own cases in test_gpu.py when a device is present."""
import numpy as np
import pytest

import liftwave

RNG = np.random.default_rng(15)


@pytest.mark.parametrize("wavelet", ["haar", "cdf53", "cdf97", "dd137", "dd97", "d4", "fs"])
@pytest.mark.parametrize("layout", ["mallat", "interleaved"])
@pytest.mark.parametrize("inverse", [False, True])
def test_out_is_x_matches_out_of_place(wavelet, layout, inverse):
    x = RNG.standard_normal((37, 64)).astype(np.float32)
    plan = liftwave.Plan(x.shape, x.dtype, wavelet=wavelet, levels=2, layout=layout, inverse=inverse)
    want = plan(x)
    y = x.copy()
    got = plan(y, out=y)
    assert got is y
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_in_place_plan(dtype):
    x = RNG.standard_normal((24, 40, 18)).astype(dtype)
    ref = liftwave.Plan(x.shape, dtype, wavelet="cdf97", levels=2)(x)
    plan = liftwave.Plan(x.shape, dtype, wavelet="cdf97", levels=2, in_place=True)
    assert plan.config["in_place"] is True
    y = x.copy()
    assert plan(y) is y
    np.testing.assert_array_equal(y, ref)
    back = liftwave.Plan(x.shape, dtype, wavelet="cdf97", levels=2, inverse=True, in_place=True)
    assert back(y, out=y) is y
    np.testing.assert_allclose(y, x, rtol=0, atol=1e-5 if dtype == "float32" else 1e-12)


def test_in_place_plan_refusals():
    plan = liftwave.Plan((16, 16), "float32", in_place=True)
    x = np.zeros((16, 16), np.float32)
    with pytest.raises(ValueError, match="out must be the input"):
        plan(x, out=np.zeros_like(x))
    with pytest.raises(ValueError, match="C-contiguous"):
        plan(np.zeros((16, 32), np.float32)[:, ::2])
    ro = np.zeros((16, 16), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        plan(ro)
    with pytest.raises(TypeError):
        plan(np.zeros((16, 16), np.float64))  # the plan's dtype, checked first
    with pytest.raises(ValueError, match="LW_FLAG_IN_PLACE|destroy"):
        liftwave.Plan((16, 16), "float32", in_place=True, destroy_input=True)


def test_partial_overlap_refused():
    buf = np.zeros(16 * 16 + 8, np.float32)
    x = buf[:256].reshape(16, 16)
    out = buf[8:264].reshape(16, 16)
    plan = liftwave.Plan((16, 16), "float32")
    with pytest.raises(ValueError, match="overlaps"):
        plan(x, out=out)
