"""liftwave.torch on CUDA tensors: results and gradients equal the CPU's, the
current stream, device checks, peak memory of forward + backward, torch.compile.
Skipped, with the reason, without PyTorch, a CUDA device or liftwave's CUDA backend
(tests/gpu/run.sh stage python runs it on the GPU machine)."""
import pytest

from conftest import cuda_torch  # noqa: E402

torch, lwt = cuda_torch()

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "dd97"]


@pytest.mark.parametrize("naxes", [1, 2, 3])
@pytest.mark.parametrize("mode", ["symmetric", "periodic"])
def test_forward_backward_equal_the_cpu(naxes, mode):
    fwd, inv = {1: (lwt.dwt, lwt.idwt), 2: (lwt.dwt2, lwt.idwt2), 3: (lwt.dwt3, lwt.idwt3)}[naxes]
    shape = {1: (3, 4, 96), 2: (2, 3, 48, 40), 3: (2, 1, 16, 24, 8)}[naxes]
    if mode == "symmetric":
        shape = shape[:-1] + (shape[-1] + 1,)  # an odd length
    for wavelet in WAVELETS + (["fs"] if naxes == 1 else []):  # CUDA has no adjoint of fs over several axes
        for layout in ("mallat", "interleaved"):
            x = torch.randn(shape, dtype=torch.float64)
            g = torch.randn(shape, dtype=torch.float64)
            out = []
            for dev in ("cpu", "cuda"):
                xd = x.detach().to(dev).requires_grad_()  # a leaf on each device (x.to("cpu") is x itself)
                y = fwd(xd, wavelet, 2, mode, layout)
                z = inv(y * 1.5, wavelet, 2, mode, layout)
                (y * g.to(dev)).sum().add((z * g.to(dev)).sum()).backward()
                out.append((y.detach().cpu(), z.detach().cpu(), xd.grad.cpu()))
            for a, b in zip(*out):
                torch.testing.assert_close(b, a, rtol=0, atol=1e-10)


def test_gradcheck_cuda():
    for wavelet in ("cdf97", "d4"):
        x = torch.randn(2, 7, 9, dtype=torch.float64, device="cuda", requires_grad=True)
        assert torch.autograd.gradcheck(lambda t: lwt.dwt2(t, wavelet, 2), (x,))
        y = torch.randn(1, 2, 8, 16, dtype=torch.float64, device="cuda", requires_grad=True)
        fwd = lwt.DWTForward(2, "bior4.4", "periodization").cuda()
        assert torch.autograd.gradcheck(lambda t: (lambda a, h: (a, *h))(*fwd(t)), (y,))


def test_compat_on_cuda_equals_cpu():
    x = torch.randn(4, 3, 64, 64)
    for wave in ("haar", "db2", "bior2.2", "bior4.4"):
        a = lwt.DWTForward(3, wave, "periodization")(x)
        b = lwt.DWTForward(3, wave, "periodization").cuda()(x.cuda())
        torch.testing.assert_close(b[0].cpu(), a[0], rtol=1e-5, atol=1e-5)
        for h, k in zip(b[1], a[1]):
            torch.testing.assert_close(h.cpu(), k, rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(lwt.DWTInverse(wave, "periodization").cuda()(b).cpu(), x, rtol=1e-4, atol=1e-4)


def test_current_stream():
    """Work is queued on the caller's current stream: a side stream held back by a
    long kernel still gives the right result once it is synchronised."""
    x = torch.randn(8, 3, 512, 512, device="cuda")
    ref = lwt.dwt2(x, "cdf97", 3)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        torch.cuda._sleep(10_000_000)  # keep s busy
        y = lwt.dwt2(x, "cdf97", 3)
        yl, yh = lwt.DWTForward(3, "bior4.4", "periodization").cuda()(x)
        x2 = lwt.DWTInverse("bior4.4", "periodization").cuda()((yl, yh))
    s.synchronize()
    torch.testing.assert_close(y, ref, rtol=0, atol=0)
    torch.testing.assert_close(x2, x, rtol=1e-4, atol=1e-4)


def test_devices():
    x = torch.randn(1, 3, 16, 16, device="cuda")
    with pytest.raises(ValueError, match="the input is on cuda:0, the module on cpu"):
        lwt.DWT2d("haar")(x)
    with pytest.raises(ValueError, match="the module on cpu"):
        lwt.DWTForward(1, "haar")(x)
    assert lwt.DWT2d("haar").cuda()(x).is_cuda
    a, (da, ad, dd) = lwt.wavedec2(x, "haar", 1)
    with pytest.raises(ValueError, match="on cpu, the approximation torch.float32 on cuda:0"):
        lwt.waverec2([a, (da.cpu(), ad, dd)], "haar")
    yl, yh = lwt.DWTForward(1, "haar").cuda()(x)
    with pytest.raises(ValueError, match=r"yh\[0\] is torch.float32 on cpu"):
        lwt.DWTInverse("haar").cuda()((yl, [yh[0].cpu()]))


@pytest.mark.parametrize("wave", ["haar", "bior4.4"])
def test_peak_memory_forward_backward(wave):
    """No saved activations: the peak of forward + backward stays within the input,
    the outputs, their gradients and the input's gradient (each the input's size),
    plus the one Mallat buffer of the transform's own."""
    x = torch.randn(16, 3, 256, 256, device="cuda", requires_grad=True)
    fwd = lwt.DWTForward(3, wave, "periodization").cuda()
    n = x.numel() * 4
    for _ in range(2):  # the second pass has the plan and the caching allocator warm
        x.grad = None
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        yl, yh = fwd(x)
        torch.autograd.backward([yl] + yh, [torch.ones_like(yl)] + [torch.ones_like(h) for h in yh])
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - base
        del yl, yh
    assert peak <= 4 * n + (1 << 20), "peak %.1f MiB for an input of %.1f MiB" % (peak / 2 ** 20, n / 2 ** 20)


def test_compile_cuda():
    m = torch.nn.Sequential(lwt.DWT2d("haar", 1, "periodic"), torch.nn.Conv2d(3, 3, 1),
                            lwt.IDWT2d("haar", 1, "periodic")).cuda()
    x = torch.randn(2, 3, 32, 32, device="cuda", requires_grad=True)
    mc = torch.compile(m, fullgraph=True)
    y = mc(x)
    y.sum().backward()
    torch.testing.assert_close(y, m(x), rtol=1e-5, atol=1e-5)
    e = torch._dynamo.explain(m)(x)
    assert e.graph_break_count == 0


def _flat(c):
    if isinstance(c, torch.Tensor):
        return [c]
    if isinstance(c, dict):
        return [a for k in sorted(c) for a in _flat(c[k])]
    return [a for t in c for a in _flat(t)]


@pytest.mark.parametrize("case", ["dwt2-haar-J1", "dwt2-bior4.4-J3", "idwt2-bior4.4-J2", "wavedec3-haar-J2",
                                  "dwt2-cdf97-symmetric", "dwt2-haar-J3-bfloat16"])
def test_cuda_graph_capture(case):
    """Forward + backward captured in a CUDA graph (torch.cuda.graph, as torch.compile's
    reduce-overhead mode does) and replayed on new data equal eager steps: the operators
    enqueue only on the capturing stream, allocate nothing during the call, and the plan's
    stream switch leaves a capture alone."""
    dtype = torch.bfloat16 if case.endswith("bfloat16") else torch.float32
    shape = (2, 3, 16, 32, 32) if case.startswith("wavedec3") else (4, 3, 64, 96)
    if case.startswith("idwt2"):
        coeffs = lwt.DWTForward(2, "bior4.4", "periodization").cuda()(torch.randn(shape, device="cuda"))
        leaves = [c.detach().clone().requires_grad_() for c in [coeffs[0]] + coeffs[1]]
        inv = lwt.DWTInverse("bior4.4", "periodization").cuda()
        layer = lambda: inv((leaves[0], leaves[1:]))  # noqa: E731
    else:
        leaves = [torch.randn(shape, device="cuda").to(dtype).requires_grad_()]
        x = leaves[0]
        layer = {"dwt2-haar-J1": lambda m=lwt.DWTForward(1, "haar").cuda(): m(x),
                 "dwt2-bior4.4-J3": lambda m=lwt.DWTForward(3, "bior4.4", "periodization").cuda(): m(x),
                 "wavedec3-haar-J2": lambda: lwt.wavedec3(x, "haar", 2, "periodic"),
                 "dwt2-cdf97-symmetric": lambda: lwt.wavedec2(x, "cdf97", 2, "symmetric"),
                 "dwt2-haar-J3-bfloat16": lambda m=lwt.DWTForward(3, "haar").cuda(): m(x)}[case]
    with torch.no_grad():  # the outputs' shapes, with no autograd graph kept alive
        grads = [torch.randn_like(o) for o in _flat(layer())]
    outs = []

    def step():
        for v in leaves:
            v.grad = None
        y = _flat(layer())
        torch.autograd.backward(y, grads)
        outs[:] = y

    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        step()
    static_outs, static_grads = list(outs), [v.grad for v in leaves]
    for _ in range(2):  # new data into the captured input, then the graph against an eager step
        with torch.no_grad():
            for v in leaves:
                v.copy_(torch.randn(v.shape, device="cuda").to(v.dtype))
        g.replay()
        got = [t.detach().clone() for t in static_outs + static_grads]
        step()
        want = [t.detach() for t in outs + [v.grad for v in leaves]]
        assert len(got) == len(want)
        for a, b in zip(got, want):
            torch.testing.assert_close(a, b, rtol=0, atol=0)
