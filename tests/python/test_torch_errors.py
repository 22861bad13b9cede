"""liftwave.torch on bad input: one clear exception each, never a crash or a
silently wrong result (dtypes, devices, integer data, coefficient lists whose
shapes do not fit, bad options)."""
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
if not hasattr(torch.library, "custom_op"):
    pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)
import liftwave.torch as lwt  # noqa: E402

X = torch.randn(2, 3, 8, 8)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.uint8, torch.int16, torch.bool])
def test_integer_dtypes(dtype):
    x = torch.ones(1, 8, 8, dtype=dtype)
    for call in (lambda: lwt.dwt2(x), lambda: lwt.wavedec2(x), lambda: lwt.DWT2d()(x),
                 lambda: lwt.DWTForward(1, "haar")(x)):
        with pytest.raises(TypeError, match="not supported"):
            call()


def test_requires_grad_on_integer_data():
    """PyTorch itself refuses gradients on integer tensors; liftwave.torch refuses
    integer tensors outright, so no integer transform ever meets autograd."""
    x = torch.ones(1, 8, 8, dtype=torch.int32)
    with pytest.raises(RuntimeError, match="floating point"):
        x.requires_grad_()
    with pytest.raises(TypeError, match=r"integer=True"):
        lwt.dwt2(x)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device: the fs half refusal on CUDA tensors")
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_cuda_fs_refused(dtype):
    """The CUDA backend runs the half types for the separable wavelets; the
    non-separable fs has no half kernels there: a clear error, no result."""
    x = torch.ones(1, 8, 8, dtype=dtype, device="cuda")
    with pytest.raises(Exception, match="non-separable"):
        lwt.dwt2(x, "fs")


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_complex(dtype):
    with pytest.raises(TypeError, match="complex"):
        lwt.dwt2(torch.ones(4, 4, dtype=dtype))


def test_not_a_tensor():
    with pytest.raises(TypeError, match="torch.Tensor"):
        lwt.dwt2([[1.0, 2.0], [3.0, 4.0]])


def test_module_on_another_device():
    """A module lives on a device (its buffer follows .to()); an input elsewhere is a
    ValueError (the meta device stands in for a GPU here; test_torch_gpu.py runs CUDA)."""
    for module, arg in ((lwt.DWT2d(device="meta"), X), (lwt.IDWT2d(device="meta"), X),
                        (lwt.DWTForward(1, device="meta"), X), (lwt.DWTInverse(device="meta"), (X, []))):
        with pytest.raises(ValueError, match="module on meta"):
            module(arg)
    m = lwt.DWT2d("haar").to("meta")
    with pytest.raises(ValueError, match="the input is on cpu, the module on meta"):
        m(X)
    assert m.to_empty(device="cpu")(X).shape == X.shape


def test_bad_options():
    with pytest.raises(ValueError, match="unknown wavelet"):
        lwt.dwt2(X, "db7")
    with pytest.raises(ValueError, match="mode must be one of"):
        lwt.dwt2(X, "haar", mode="periodization")
    with pytest.raises(ValueError, match="layout"):
        lwt.dwt2(X, "haar", layout="packet")
    with pytest.raises(ValueError, match="levels"):
        lwt.dwt2(X, "haar", levels=-1)
    with pytest.raises(ValueError, match="levels"):
        lwt.DWT2d("haar", levels=1.5)
    with pytest.raises(ValueError, match="at least 3 dimensions"):
        lwt.dwt3(torch.ones(4, 4))
    with pytest.raises(ValueError, match="levels requested"):  # the library's check
        lwt.dwt2(X, "cdf97", levels=5)
    with pytest.raises(ValueError, match="even lengths"):
        lwt.dwt2(torch.ones(7, 8), "haar", mode="periodic")
    with pytest.raises(ValueError, match="mode 'zero' is not supported"):
        lwt.DWTForward(1, "db2", mode="zero")
    with pytest.raises(ValueError, match="unknown wavelet"):
        lwt.DWTInverse("sym4")
    with pytest.raises(TypeError, match="filter banks"):
        lwt.DWTForward(1, ([0.7, 0.7], [0.7, -0.7]))
    with pytest.raises(ValueError, match="divisible by 2"):
        lwt.DWTForward(2, "haar")(torch.ones(1, 1, 12, 10))
    with pytest.raises(ValueError, match="J must be"):
        lwt.DWTForward(-1)


def test_waverec_shapes_that_do_not_fit():
    x = torch.randn(1, 2, 9, 8, dtype=torch.float64)
    a, (da2, ad2, dd2), (da1, ad1, dd1) = lwt.wavedec2(x, "cdf53", levels=2)
    with pytest.raises(ValueError, match=r"level 1 disagree on the highpass length along axis -1: 'ad' has 3, "
                                         r"'dd' has 4"):
        lwt.waverec2([a, (da2, ad2, dd2), (da1, ad1[..., :-1], dd1)], "cdf53")
    with pytest.raises(ValueError, match=r"band 'ad' of level 1 has shape"):
        lwt.waverec2([a, (da2, ad2, dd2), (da1, ad1[..., :-1, :], dd1)], "cdf53")
    with pytest.raises(ValueError, match=r"band 'dd' of level 2"):
        lwt.waverec2([a, (da2, ad2, dd2[:, :1]), (da1, ad1, dd1)], "cdf53")
    with pytest.raises(ValueError, match="lowpass and .* highpass"):  # levels given in the wrong order
        lwt.waverec2([a, (da1, ad1, dd1), (da2, ad2, dd2)], "cdf53")
    with pytest.raises(ValueError, match="3-tuple"):
        lwt.waverec2([a, (da2, ad2)], "cdf53")
    with pytest.raises(ValueError, match="non-empty list"):
        lwt.waverec2([], "cdf53")
    with pytest.raises(ValueError, match="float32 on cpu, the approximation torch.float64"):
        lwt.waverec2([a, (da2.float(), ad2, dd2)], "cdf53")
    with pytest.raises(ValueError, match="periodic-mode"):  # odd sizes have no periodic decomposition
        lwt.waverec2([a, (da2, ad2, dd2), (da1, ad1, dd1)], "cdf53", mode="periodic")
    c3 = lwt.wavedec3(torch.randn(4, 4, 4), "haar", 1)
    with pytest.raises(ValueError, match="unknown band keys 'xyz'"):
        lwt.waverec3([c3[0], dict(c3[1], xyz=c3[1]["aad"])], "haar")
    with pytest.raises(ValueError, match="dict keyed"):
        lwt.waverec3([c3[0], list(c3[1].values())], "haar")
    with pytest.raises(TypeError, match="waverec: expected a torch.Tensor, got list"):
        lwt.waverec([torch.ones(4), [1.0, 2.0]], "haar")


def test_dwt_inverse_shapes_that_do_not_fit():
    yl, yh = lwt.DWTForward(2, "bior4.4", mode="per")(torch.randn(1, 3, 32, 32))
    inv = lwt.DWTInverse("bior4.4", mode="per")
    with pytest.raises(ValueError, match=r"yh\[1\] has shape"):
        inv((yl, [yh[1], yh[0]]))
    with pytest.raises(ValueError, match=r"yh\[1\] has shape"):
        inv((yl, [yh[0], yh[1][:, :2]]))
    with pytest.raises(ValueError, match=r"yh\[0\] is torch.float64"):
        inv((yl, [yh[0].double(), yh[1]]))
    with pytest.raises(ValueError, match=r"expected \(yl, yh\)"):
        inv(yl)
    with pytest.raises(ValueError, match="list of"):
        inv((yl, yh[0]))


def test_operators_called_directly():
    """torch.ops.liftwave.* check what the library cannot: dtype, naxes."""
    with pytest.raises(TypeError, match="not supported"):
        torch.ops.liftwave.transform(torch.ones(4, 4, dtype=torch.int32), "haar", 1, "symmetric", "mallat", 2, 0)
    with pytest.raises(ValueError, match="naxes must be 1, 2 or 3"):
        torch.ops.liftwave.transform(torch.ones(4, 4), "haar", 1, "symmetric", "mallat", 3, 0)
    with pytest.raises(ValueError, match="naxes must be 1, 2 or 3"):
        torch.ops.liftwave.analysis(torch.ones(2, 4, 4, 4, 4), "haar", 1, "symmetric", 4, 0, [1.0, 1.0], False)
    with pytest.raises(ValueError, match="unknown wavelet"):  # the library's message
        torch.ops.liftwave.transform(torch.ones(4, 4), "db7", 1, "symmetric", "mallat", 2, 0)


def test_synthesis_operator_checks_the_bands():
    """The library reads the bands through raw pointers: torch.ops.liftwave.synthesis refuses
    bands whose shape, dtype or device do not fit the array they make (never reads past them)."""
    a = torch.ones(2, 4, 4)
    d = [torch.ones(2, 3, 4, 4)]
    out = torch.ops.liftwave.synthesis(a, d, "haar", "periodic", 2, 1, [1.0, 1.0], True)
    assert out.shape == (2, 8, 8)
    with pytest.raises(ValueError, match="band 1"):
        torch.ops.liftwave.synthesis(a, [torch.ones(2, 3, 4, 3)], "haar", "periodic", 2, 1, [1.0, 1.0], True)
    with pytest.raises(ValueError, match="band 1"):
        torch.ops.liftwave.synthesis(a, [torch.ones(2, 3, 4, 4, dtype=torch.float64)], "haar", "periodic", 2, 1,
                                     [1.0, 1.0], True)
    with pytest.raises(ValueError, match="band 3"):  # the third detail band (list index 3)
        torch.ops.liftwave.synthesis(a, [torch.ones(2, 4, 4), torch.ones(2, 4, 4), torch.ones(2, 4, 5)], "haar",
                                     "periodic", 2, 1, [1.0, 1.0], False)
