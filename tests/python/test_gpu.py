"""CuPy arrays and PyTorch tensors (CUDA, and PyTorch on the CPU): the result
is the same library on the same device, the work runs on the caller's current
stream, nothing goes through host memory, and the errors.  Each test skips,
with the reason, when its library or a CUDA device is missing; the GPU machine
runs them through tests/gpu/run.sh (LW_STAGES=python)."""
import numpy as np
import pytest

import liftwave
import liftwave.pywt as lp
from conftest import rel_err

try:
    import cupy
    if cupy.cuda.runtime.getDeviceCount() < 1:
        raise RuntimeError("no CUDA device")
except Exception as e:  # noqa: BLE001 - ImportError, CUDA errors
    cupy, CUPY_WHY = None, "CuPy with a CUDA device is not available (%s)" % e.__class__.__name__
else:
    CUPY_WHY = ""
try:
    import torch
except ImportError:
    torch = None
TORCH_CUDA = torch is not None and torch.cuda.is_available()
CUDA_BUILT = liftwave._liftwave.BUILT_WITH_CUDA

need_cupy = pytest.mark.skipif(cupy is None or not CUDA_BUILT,
                               reason=CUPY_WHY or "liftwave was built without the CUDA backend")
need_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
need_torch_cuda = pytest.mark.skipif(not TORCH_CUDA or not CUDA_BUILT,
                                     reason="PyTorch with CUDA and a CUDA build of liftwave are needed")

# a kernel that spins for `cycles` and then fills x: work queued before ours
# that a transform on another stream would overtake
SPIN_FILL = r"""
extern "C" __global__ void spin_fill(float *x, long long n, float v, long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = v;
}
"""


def _host(a):
    if cupy is not None and isinstance(a, cupy.ndarray):
        return cupy.asnumpy(a)
    if torch is not None and isinstance(a, torch.Tensor):
        return a.cpu().numpy()
    return np.asarray(a)


# ---- CuPy ---------------------------------------------------------------------------
@need_cupy
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cupy_forward_inverse_same_library_and_device(rng, dtype):
    x = rng.standard_normal((96, 130)).astype(dtype)
    xd = cupy.asarray(x)
    y = liftwave.forward(xd, "cdf97", levels=3)
    assert isinstance(y, cupy.ndarray) and y.device.id == xd.device.id and y.dtype == dtype
    assert rel_err(_host(y), liftwave.forward(x, "cdf97", levels=3)) < (1e-5 if dtype == "float32" else 1e-12)
    z = liftwave.inverse(y, "cdf97", levels=3)
    assert isinstance(z, cupy.ndarray) and rel_err(_host(z), x) < (1e-5 if dtype == "float32" else 1e-12)


@need_cupy
@pytest.mark.parametrize("layout", ["mallat", "interleaved"])
def test_cupy_channels_last_image(rng, layout):
    # an RGB image as NumPy holds it (H, W, 3), transformed over H and W: the channels-last path of
    # the CUDA backend's haar engine, against the CPU backend
    x = rng.standard_normal((96, 160, 3)).astype("float32")
    xd = cupy.asarray(x)
    for levels in (1, 3):
        y = liftwave.forward(xd, "haar", levels=levels, axes=(0, 1), layout=layout)
        ref = liftwave.forward(x, "haar", levels=levels, axes=(0, 1), layout=layout)
        assert rel_err(_host(y), ref) < 1e-5
        z = liftwave.inverse(y, "haar", levels=levels, axes=(0, 1), layout=layout)
        assert rel_err(_host(z), x) < 1e-5


@need_cupy
def test_cupy_float16_on_the_cuda_backend(rng):
    """float16 device arrays run on the CUDA backend (stored half, computed in float32,
    rounded at each kernel's store): 3 levels of 2-D, at most 6 roundings, within
    (1 + 3 * 5) units of 2^-10 of the CPU's result; and host float16 arrays on
    backend="cuda" alike."""
    x = rng.uniform(-1, 1, (96, 130)).astype(np.float16)
    ref = liftwave.forward(x, "cdf97", levels=3)
    y = liftwave.forward(cupy.asarray(x), "cdf97", levels=3)
    assert isinstance(y, cupy.ndarray) and y.dtype == np.float16
    assert rel_err(_host(y), ref) <= 16 * 2.0 ** -10
    yh = liftwave.forward(x, "cdf97", levels=3, backend="cuda")
    assert yh.dtype == np.float16 and rel_err(yh, ref) <= 16 * 2.0 ** -10


@need_cupy
def test_cupy_integer_and_out(rng):
    x = rng.integers(0, 4096, (64, 48)).astype(np.int32)
    xd = cupy.asarray(x)
    out = cupy.empty_like(xd)
    r = liftwave.forward(xd, "cdf53", levels=2, integer=True, out=out)
    assert r is out
    assert np.array_equal(_host(out), liftwave.forward(x, "cdf53", levels=2, integer=True))
    liftwave.inverse(out, "cdf53", levels=2, integer=True, out=out)  # in place
    assert np.array_equal(_host(out), x)


@need_cupy
def test_cupy_runs_on_the_current_stream():
    n = 1 << 20
    spin = cupy.RawKernel(SPIN_FILL, "spin_fill")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        x = cupy.zeros((1024, 1024), cupy.float32)
        s.synchronize()
        spin((64,), (256,), (x, cupy.int64(n), cupy.float32(3.0), cupy.int64(200_000_000)))
        y = liftwave.forward(x, "haar", mode="periodic")  # must wait for spin_fill
    s.synchronize()
    expect = liftwave.forward(np.full((1024, 1024), 3.0, np.float32), "haar", mode="periodic")
    # had the transform not waited for spin_fill it would have read zeros; GPU and
    # CPU float32 differ only by rounding (another order of operations)
    got = _host(y)
    assert np.abs(got[:512, :512]).min() > 5.9
    assert np.allclose(got, expect, rtol=1e-6, atol=1e-6)
    # the plan that ran is a device-pointer plan
    plans = [p for p in liftwave._native._cache.values() if p.config["device_pointers"]]
    assert plans and all(p.config["backend"] == "cuda" for p in plans)


@need_cupy
def test_cupy_pywt_dropin(rng):
    pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed")
    x = rng.standard_normal((2, 64, 32)).astype(np.float32)
    for w in ["haar", "db2", "bior2.2", "bior4.4"]:
        ours = lp.wavedec2(cupy.asarray(x), w, "periodization", level=3)
        ref = pywt.wavedec2(x, w, "periodization", level=3)
        assert isinstance(ours[0], cupy.ndarray)
        assert rel_err(_host(ours[0]), ref[0]) < 1e-5
        for a, b in zip(ours[1:], ref[1:]):
            for p, q in zip(a, b):
                assert p.shape == q.shape and rel_err(_host(p), q) < 1e-5
        back = lp.waverec2(ours, w, "periodization")
        assert isinstance(back, cupy.ndarray) and rel_err(_host(back), x) < 1e-5


@need_cupy
def test_cupy_errors():
    x = cupy.zeros((16, 16), cupy.float32)
    with pytest.raises(ValueError, match="backend"):
        liftwave.forward(x, backend="cpu")
    with pytest.raises(ValueError, match="dtype"):  # a host out (G2C) of another dtype
        liftwave.forward(x, out=np.zeros((16, 16), np.float64))
    with pytest.raises(ValueError, match="no PyWavelets fallback"):
        lp.dwt2(cupy.zeros((15, 16)), "haar", "periodization")  # odd: pywt would pad
    with pytest.raises(ValueError, match="no PyWavelets fallback"):
        lp.dwt2(x, "haar", "symmetric")
    with pytest.raises(TypeError):
        liftwave.forward(cupy.zeros((8, 8), cupy.complex64))
    plan = liftwave.Plan((16, 16), "float32", device=x.device.id)
    with pytest.raises(ValueError, match="host"):
        plan(np.zeros((16, 16), np.float32))


@need_cupy
@pytest.mark.skipif(cupy is None or cupy.cuda.runtime.getDeviceCount() < 2, reason="needs 2 CUDA devices")
def test_cupy_second_device(rng):
    x = rng.standard_normal((64, 64)).astype(np.float32)
    with cupy.cuda.Device(1):
        x1 = cupy.asarray(x)
    y = liftwave.forward(x1, "cdf97")
    assert y.device.id == 1
    assert cupy.cuda.runtime.getDevice() == 0  # the caller's current device is restored
    assert rel_err(_host(y), liftwave.forward(x, "cdf97")) < 1e-5
    plan0 = liftwave.Plan((64, 64), "float32", device=0)
    with pytest.raises(ValueError, match="device 1"):
        plan0(x1)


# ---- PyTorch --------------------------------------------------------------------------
@need_torch
def test_torch_cpu_tensors(rng):
    x = rng.standard_normal((3, 32, 24)).astype(np.float32)
    t = torch.from_numpy(x.copy()).requires_grad_(True)
    y = liftwave.forward(t, "cdf53", levels=2, axes=(1, 2))
    assert isinstance(y, torch.Tensor) and y.device.type == "cpu" and y.dtype == torch.float32
    assert np.array_equal(y.numpy(), liftwave.forward(x, "cdf53", levels=2, axes=(1, 2)))
    c = lp.dwt2(torch.from_numpy(x), "db2", "periodization")
    assert isinstance(c[0], torch.Tensor)


@need_torch_cuda
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_torch_cuda_same_library_and_device(rng, dtype):
    x = rng.standard_normal((4, 3, 64, 64)).astype(dtype)
    t = torch.from_numpy(x).cuda()
    y = liftwave.forward(t, "cdf97", levels=2, axes=(2, 3))
    assert isinstance(y, torch.Tensor) and y.device == t.device and str(y.dtype) == "torch." + dtype
    tol = 1e-5 if dtype == "float32" else 1e-12
    assert rel_err(_host(y), liftwave.forward(x, "cdf97", levels=2, axes=(2, 3))) < tol
    assert rel_err(_host(liftwave.inverse(y, "cdf97", levels=2, axes=(2, 3))), x) < tol


@need_torch_cuda
def test_torch_cuda_runs_on_the_current_stream():
    s = torch.cuda.Stream()
    x = torch.zeros(2048, 2048, device="cuda")
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        torch.cuda._sleep(200_000_000)  # queued work that the transform must wait for
        x.fill_(5.0)
        y = liftwave.forward(x, "haar", mode="periodic")
    s.synchronize()
    expect = liftwave.forward(np.full((2048, 2048), 5.0, np.float32), "haar", mode="periodic")
    got = _host(y)  # zeros had the transform not waited; GPU and CPU differ only by rounding
    assert np.abs(got[:1024, :1024]).min() > 9.9
    assert np.allclose(got, expect, rtol=1e-6, atol=1e-6)


@need_torch_cuda
def test_torch_cuda_no_host_round_trip():
    from torch.profiler import ProfilerActivity, profile
    x = torch.randn(1024, 1024, device="cuda")
    lp.wavedec2(x, "bior4.4", "periodization", level=3)  # plans made outside the profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as prof:
        c = lp.wavedec2(x, "bior4.4", "periodization", level=3)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events()]
    assert not [n for n in names if "HtoD" in n or "DtoH" in n], [n for n in names if "Memcpy" in n]
    assert c[0].is_cuda


@need_torch_cuda
def test_torch_pywt_batch(rng):
    pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed")
    x = rng.standard_normal((2, 3, 32, 64)).astype(np.float32)
    ours = lp.wavedec2(torch.from_numpy(x).cuda(), "bior4.4", "periodization", level=2)
    ref = pywt.wavedec2(x, "bior4.4", "periodization", level=2)
    assert ours[0].is_cuda and rel_err(_host(ours[0]), ref[0]) < 1e-5
    for a, b in zip(ours[1:], ref[1:]):
        for p, q in zip(a, b):
            assert tuple(p.shape) == q.shape and rel_err(_host(p), q) < 1e-5


@need_torch_cuda
def test_torch_pywt_repeated_calls_take_the_cached_path(rng):
    """The second call of one shape runs on the tensors' addresses (no checks,
    no DLPack): same results, a new output each call, the current stream."""
    pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed")
    import liftwave.pywt as lpm
    x = rng.standard_normal((2, 3, 64, 32)).astype(np.float32)
    ref = pywt.wavedec2(x, "bior4.4", "periodization", level=2)
    t = torch.from_numpy(x).cuda()
    first = lp.wavedec2(t, "bior4.4", "periodization", level=2)
    assert any(k[0] is type(t) for k in lpm._seen_device), "the first call did not record the recipe"
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        torch.cuda._sleep(100_000_000)
        t2 = t * 1.0  # queued behind the sleep on s
        second = lp.wavedec2(t2, "bior4.4", "periodization", level=2)
    s.synchronize()
    assert second[0].data_ptr() != first[0].data_ptr()
    for c in (first, second):
        assert c[0].is_cuda and rel_err(_host(c[0]), ref[0]) < 1e-5
        for a, b in zip(c[1:], ref[1:]):
            for p, q in zip(a, b):
                assert tuple(p.shape) == q.shape and rel_err(_host(p), q) < 1e-5
    # a tensor that needs grad, or is not contiguous, takes the checked path
    tg = t.clone().requires_grad_(True)
    assert rel_err(_host(lp.wavedec2(tg, "bior4.4", "periodization", level=2)[0]), ref[0]) < 1e-5
    tn = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 1, 3, 2))).cuda().transpose(2, 3)
    assert not tn.is_contiguous()
    assert rel_err(_host(lp.wavedec2(tn, "bior4.4", "periodization", level=2)[0]), ref[0]) < 1e-5


@need_cupy
def test_cupy_pywt_repeated_calls_take_the_cached_path(rng):
    pywt = pytest.importorskip("pywt", reason="PyWavelets is not installed")
    x = rng.standard_normal((4, 64, 32)).astype(np.float64)
    ref = pywt.dwt2(x, "db2", "periodization")
    c = cupy.asarray(x)
    for _ in range(3):
        cA, (cH, cV, cD) = lp.dwt2(c, "db2", "periodization")
        assert rel_err(_host(cA), ref[0]) < 1e-12 and rel_err(_host(cD), ref[1][2]) < 1e-12


@need_cupy
@pytest.mark.parametrize("in_place", [False, True])
def test_host_array_larger_than_the_device_budget(rng, in_place):
    """A NumPy array on the cuda backend with a device budget below its size streams through the
    device (out of core) and equals the in-core run."""
    x = rng.standard_normal((700, 600)).astype(np.float32)
    ref = liftwave.Plan(x.shape, np.float32, levels=3, backend="cuda")(x)
    p = liftwave.Plan(x.shape, np.float32, levels=3, backend="cuda", device_memory_limit=512 << 10)
    assert "out_of_core" in p.describe()
    y = x.copy()
    got = p(y, out=y) if in_place else p(x)
    assert rel_err(got, ref) < 1e-5
    back = liftwave.Plan(x.shape, np.float32, levels=3, backend="cuda", inverse=True, device_memory_limit=512 << 10)
    assert rel_err(back(got), x) < 1e-5


# ---- one side on the device (placement C2G / G2C) -----------------------------------
def _placement_cases(rng, lib):
    """(host input, device input) of one array for lib ("cupy" / "torch")."""
    x = rng.standard_normal((300, 260)).astype(np.float32)
    if lib == "cupy":
        return x, cupy.asarray(x)
    return torch.from_numpy(x), torch.from_numpy(x).cuda()


@pytest.mark.parametrize("lib", ["cupy", "torch"])
def test_placement_equals_the_host_run(rng, lib):
    """C2G (host data, device coefficients) and G2C (the reverse), by Plan(placement=) and by
    forward/inverse with out= on the other side: equal to the host-pointer run; the output made
    on the other side by the same library; the device input left as it was."""
    if lib == "cupy" and (cupy is None or not CUDA_BUILT):
        pytest.skip(CUPY_WHY or "liftwave was built without the CUDA backend")
    if lib == "torch" and (not TORCH_CUDA or not CUDA_BUILT):
        pytest.skip("PyTorch with CUDA and a CUDA build of liftwave are needed")
    xh, xd = _placement_cases(rng, lib)
    xn = _host(xh)
    ref = liftwave.Plan(xn.shape, np.float32, levels=3, backend="cuda")(xn)
    c2g = liftwave.Plan(xn.shape, np.float32, levels=3, device=0, placement="C2G")
    y = c2g(xh)
    assert (isinstance(y, cupy.ndarray) if lib == "cupy" else y.is_cuda)
    assert np.array_equal(_host(y), ref)
    assert c2g.config["placement"] == "C2G"
    g2c = liftwave.Plan(xn.shape, np.float32, levels=3, device=0, placement="G2C")
    z = g2c(xd)
    assert (isinstance(z, np.ndarray) if lib == "cupy" else not z.is_cuda)
    assert np.array_equal(_host(z), ref)
    assert np.array_equal(_host(xd), xn)
    # the functional API picks the placement from out's side
    out_d = cupy.empty(xn.shape, np.float32) if lib == "cupy" else torch.empty(xn.shape, device="cuda")
    liftwave.forward(xh, "cdf97", levels=3, out=out_d)
    assert np.array_equal(_host(out_d), ref)
    out_h = np.empty(xn.shape, np.float32) if lib == "cupy" else torch.empty(xn.shape)
    back = liftwave.inverse(out_d, "cdf97", levels=3, out=out_h)
    assert rel_err(_host(back), xn) < 1e-5


@need_torch_cuda
def test_placement_errors():
    """A one-sided plan given arrays on the wrong sides: one clear error each."""
    x = torch.zeros((64, 64))
    c2g = liftwave.Plan((64, 64), np.float32, device=0, placement="C2G")
    with pytest.raises(ValueError, match="input in host memory"):
        c2g(x.cuda())
    with pytest.raises(ValueError, match="output in device memory"):
        c2g(x, out=torch.zeros((64, 64)))
    g2c = liftwave.Plan((64, 64), np.float32, device=0, placement="G2C")
    with pytest.raises(ValueError, match="input in device memory"):
        g2c(x)
