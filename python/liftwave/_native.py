"""The native API: Plan, forward, inverse, adjoint, inverse_adjoint, max_levels, describe.

Conventions are those of the C library (docs/CONVENTIONS.md): whole-sample
`symmetric` (PyWavelets' `reflect`) or `periodic` boundaries, JPEG 2000
scaling for cdf53/cdf97/dd137/fs, the Mallat or interleaved layout.

Dtypes (as the CLI does): float32 -> float32 and float64 -> float64 on the float
path; float16 -> float16 (stored half, computed in float32 by the library,
rounded once; CPU backends only, docs/CONVENTIONS.md "Half precision");
int32 -> float64 on the float path and int32 on the integer path
(integer=True); uint8, int8, int16, uint16 -> float32 on the float path and
int32 on the integer path.  Anything else (complex, bool, 64-bit integers,
object) is a TypeError; bfloat16 (which NumPy lacks) comes through
liftwave.torch.  Converted or non-contiguous input is copied
once; otherwise nothing is copied.
"""
import collections
import operator
import sys
import threading

import numpy as np

from . import _liftwave
from ._arrays import adapt, is_device

_SMALL_INTS = ("uint8", "int8", "int16", "uint16")
_BACKENDS = ("auto", "cpu", "cuda", "cpu-ref")


def compute_dtype(name, integer):
    """dtype the transform runs in (and returns) for an input dtype name."""
    if integer:
        if name == "int32" or name in _SMALL_INTS:
            return "int32"
        raise TypeError("liftwave: integer transforms take int32 (or 8/16-bit integer) arrays, not %s" % name)
    if name in ("float32", "float64", "float16", "bfloat16"):
        return name
    if name == "int32":
        return "float64"
    if name in _SMALL_INTS:
        return "float32"
    raise TypeError("liftwave: dtype %s is not supported (float32, float64, float16, int32; uint8, int8, int16, "
                    "uint16 are promoted)" % name)


def _normalize_axes(axes, ndim):
    """Sorted tuple of distinct non-negative axes (the library lifts them in increasing order)."""
    if axes is None:
        return ()
    if isinstance(axes, int):
        axes = (axes,)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise ValueError("liftwave: axis %d is out of range for %d-d arrays" % (a, ndim))
        out.append(a % ndim)
    if len(set(out)) != len(out):
        raise ValueError("liftwave: repeated axis in %r" % (tuple(axes),))
    return tuple(sorted(out))


def _normalize_levels(levels):
    if levels is None or levels == "max":
        return _liftwave.LEVELS_MAX
    if isinstance(levels, bool) or int(levels) != levels:
        raise TypeError("liftwave: levels must be an integer or 'max', not %r" % (levels,))
    if levels < 0:
        raise ValueError("liftwave: levels must be >= 0 or 'max', not %d" % levels)
    return int(levels)


def _dtype_name(dtype):
    s = str(dtype)
    if s.startswith("torch."):
        return s[6:]
    if s == "bfloat16":  # a name NumPy does not know (liftwave.torch passes it)
        return s

    return np.dtype(dtype).name


def _byte_count(n):
    """device_memory_limit: a non-negative whole number of bytes."""
    if isinstance(n, bool):
        raise TypeError("liftwave: device_memory_limit is a whole number of bytes, not %r" % (n,))
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("liftwave: device_memory_limit is a whole number of bytes, not %r" % (n,)) from None
    if n < 0 or n >= 1 << 64:
        raise ValueError("liftwave: device_memory_limit must be 0 (what is free) or a positive byte count, not %d" % n)
    return n


def _tuning_string(tuning):
    """lw_config.tuning from "key=value,..." or a dict {key: value}"""
    if isinstance(tuning, dict):
        return ",".join("%s=%s" % (k, v) for k, v in tuning.items())
    if not isinstance(tuning, str):
        raise TypeError("liftwave: tuning is a string 'key=value,...' or a dict, not %r" % (tuning,))
    return tuning


class Plan:
    """A reusable transform of arrays of one shape and dtype.

        plan = liftwave.Plan((1080, 1920), "float32", wavelet="cdf97", levels=3)
        y = plan(x)              # or plan(x, out=y)

    inverse=True plans the inverse; adjoint=True the transpose of the forward
    (inverse=False) or of the inverse (inverse=True), see adjoint().
    device=None plans take host arrays (NumPy, PyTorch CPU; backend "auto" is
    the CPU, "cuda" runs them through the GPU); device=N plans take CuPy arrays
    and PyTorch tensors on CUDA device N, queued on the caller's current
    stream.  A plan may be called from several threads at once.  threads:
    CPU threads (0: the OpenMP default), where the library has the setting.
    in_place=True: plan(x) transforms x itself and returns it (x must be
    writable, C-contiguous and of the computed dtype; out may only be x); on
    the GPU the plan then holds only the in-place workspace (at most 1% of
    the array; LW_FLAG_IN_PLACE).  Without it, plan(x, out=x) also runs in
    place; an out that overlaps x without being x is refused.
    gain: (lowpass, highpass) factors applied per transformed axis and level
    by the kernels themselves (lw_config.gain; e.g. (sqrt(2), 1/sqrt(2)) for
    orthonormal-style scaling of cdf97); None means (1, 1).
    device_memory_limit: host arrays on the cuda backend: the device bytes a
    call may hold (0: what is free); a larger transform streams the array
    through the device in slabs (docs/OUT_OF_CORE.md).
    scheme: an engine or a paper's GPU algorithm to run instead of the
    default ("" or "auto"; `liftwave bench --scheme list` prints them); tuning: the plan's
    knobs, "key=value,..." or a dict (docs/TUNING.md, e.g. "local_block=narrow"
    or {"pageable": "register"}); a bad key or value raises ValueError.
    placement: one side on device N (device=N is then required): "C2G" takes
    a host input (NumPy, PyTorch CPU) and writes a device output (CuPy,
    PyTorch CUDA), "G2C" the reverse; the output, when not given, is made on
    the other side by the same library (NumPy <-> CuPy; PyTorch's G2C output
    is pinned).  The call runs on the library's own streams: it waits for the
    caller's current stream before reading a device input, and returns when
    the output is complete (LW_FLAG_DEVICE_INPUT / LW_FLAG_DEVICE_OUTPUT).
    """

    def __init__(self, shape, dtype, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", axes=None,
                 integer=False, backend="auto", inverse=False, device=None, destroy_input=False, scheme="",
                 threads=0, adjoint=False, gain=None, in_place=False, device_memory_limit=0, placement=None,
                 tuning=""):
        shape = tuple(int(n) for n in shape)
        if not shape:
            raise ValueError("liftwave: 0-d arrays have nothing to transform")
        if any(n <= 0 for n in shape):
            raise ValueError("liftwave: zero-size arrays have nothing to transform (shape %r)" % (shape,))
        self.shape = shape
        self.dtype = _dtype_name(dtype)  # what the caller passes in
        self.run_dtype = compute_dtype(self.dtype, bool(integer))  # what the library computes in and returns
        if backend not in _BACKENDS:
            raise ValueError("liftwave: unknown backend %r (choose %s)" % (backend, ", ".join(_BACKENDS)))
        if placement not in _PLACEMENTS:
            raise ValueError("liftwave: placement must be None, 'C2G' or 'G2C', not %r" % (placement,))
        if placement is not None and device is None:
            raise ValueError("liftwave: placement %r puts one side on a CUDA device: give device=N" % placement)
        if placement is not None and in_place:
            raise ValueError("liftwave: placement %r has its input and output on different sides: not in_place"
                             % placement)
        if device is not None:
            if backend not in ("auto", "cuda"):
                raise ValueError("liftwave: device arrays run on backend 'cuda', not %r" % backend)
            backend = "cuda"
        elif backend == "auto":
            backend = "cpu"
        self.device = device
        self.placement = placement
        self._plan = _liftwave.Plan(shape, list(_normalize_axes(axes, len(shape))), self.run_dtype, str(wavelet),
                                    str(mode), str(layout), _normalize_levels(levels),
                                    int(bool(inverse)) | (int(bool(adjoint)) << 1), bool(integer),
                                    backend, device is not None and placement is None,
                                    -1 if device is None else int(device),
                                    bool(destroy_input), scheme or "", int(threads), *_normalize_gain(gain),
                                    bool(in_place), _byte_count(device_memory_limit), _PLACEMENTS[placement],
                                    _tuning_string(tuning))
        self.in_place = bool(in_place)

    @property
    def config(self):
        """The plan's configuration as the library resolved it (levels, axes, backend, workspace)."""
        return self._plan.config()

    def describe(self):
        """What the plan will do, as the library says it (lw_plan_describe): "key: value"
        lines with the resolved configuration, backend, engine per level, SIMD path,
        threads, workspace."""
        return self._plan.describe()

    def __repr__(self):
        c = self._plan.config()
        where = c["backend"] + ("" if c["device"] < 0 else ":%d" % c["device"])
        return "<liftwave.Plan: %s %s, %s, %s, %d level(s), axes %s of %s %s%s, on %s>" % (
            c["direction"], c["wavelet"], c["mode"], c["layout"], c["levels"], tuple(c["axes"]),
            "x".join(map(str, c["shape"])), c["dtype"], ", integer" if c["integer"] else "", where)

    def __call__(self, x, out=None):
        ad, x = adapt(x)
        if tuple(x.shape) != self.shape:
            raise ValueError("liftwave: array shape %r does not match the plan's %r" % (tuple(x.shape), self.shape))
        name = ad.dtype(x)
        if name != self.dtype:
            raise TypeError("liftwave: array dtype %s does not match the plan's %s" % (name, self.dtype))
        return self._run(ad, x, name, out)

    def _run(self, ad, x, name, out):
        """Transform x (shape and dtype already checked) into out or a new array."""
        on_device = is_device(ad, x)
        if self.placement is not None:
            return self._run_placed(ad, x, name, out, on_device)
        if on_device != (self.device is not None):
            raise ValueError("liftwave: the plan takes %s arrays, got a %s array in %s memory" % (
                "device" if self.device is not None else "host", ad.name, "device" if on_device else "host"))
        if self.in_place:
            if name != self.run_dtype or not ad.is_contiguous(x) or not ad.writable(x):
                raise ValueError("liftwave: an in_place plan transforms its array itself: it must be writable, "
                                 "C-contiguous and %s (got %s%s)" % (self.run_dtype, name, "" if ad.is_contiguous(x)
                                                                      else ", not contiguous"))
            if out is not None and out is not x:
                raise ValueError("liftwave: an in_place plan writes into its input: out must be the input or None")
            self._plan.execute(x, x, ad.stream(x) if on_device else 0)
            return x
        x = self._input(ad, x, name)
        if out is None:
            out = ad.empty(x.shape, self.run_dtype, x)
        else:
            _check_out(ad, out, self.shape, self.run_dtype)
        self._plan.execute(x, out, ad.stream(x) if on_device else 0)
        return out


    def _input(self, ad, x, name):
        """x as the library reads it: the documented promotion to the computed dtype, or the
        documented copy of a non-contiguous input (one copy at most)."""
        if name != self.run_dtype:
            return ad.astype(x, self.run_dtype)
        return x if ad.is_contiguous(x) else ad.contiguous(x)

    def _run_placed(self, ad, x, name, out, on_device):
        """One side on the device (placement): x on its side, out on the other."""
        in_dev = self.placement == "G2C"
        side = {True: "device", False: "host"}
        if on_device != in_dev:
            raise ValueError("liftwave: a %s plan takes its input in %s memory, got a %s array in %s memory" % (
                self.placement, side[in_dev], ad.name, side[on_device]))
        if on_device and ad.device(x) != self.device:
            raise ValueError("liftwave: the input is on CUDA device %d, the plan on device %d" % (
                ad.device(x), self.device))
        x = self._input(ad, x, name)
        if out is None:
            out = _empty_other_side(ad, x, self.shape, self.run_dtype, self.device)
        else:
            oad, out = adapt(out)
            if is_device(oad, out) == in_dev:
                raise ValueError("liftwave: a %s plan writes its output in %s memory, got out in %s memory" % (
                    self.placement, side[not in_dev], side[in_dev]))
            _check_out(oad, out, self.shape, self.run_dtype)
        self._plan.execute(x, out, ad.stream(x) if on_device else 0)
        return out


# placement name -> the extension's code (0: both operands on one side)
_PLACEMENTS = {None: 0, "G2C": 1, "C2G": 2}


def _empty_other_side(ad, x, shape, dtype, device):
    """A new array on the side of a one-sided plan that x is not on: PyTorch for PyTorch (a
    pinned host tensor, or one on CUDA device `device`); NumPy for CuPy, CuPy for NumPy."""
    if ad.name == "torch":
        torch = sys.modules["torch"]
        if x.is_cuda:
            return torch.empty(tuple(shape), dtype=getattr(torch, dtype), pin_memory=True)
        return torch.empty(tuple(shape), dtype=getattr(torch, dtype), device="cuda:%d" % device)
    if ad.name == "cupy":
        return np.empty(shape, dtype)
    try:
        import cupy
    except ImportError:
        raise ValueError("liftwave: a C2G plan given a NumPy array makes its device output with CuPy, which is not "
                         "installed: pass out= a device array") from None
    with cupy.cuda.Device(device):
        return cupy.empty(shape, dtype)


def _normalize_gain(gain):
    """(lowpass, highpass) as two floats; None -> (1.0, 1.0)."""
    if gain is None:
        return 1.0, 1.0
    try:
        lo, hi = gain
        return float(lo), float(hi)
    except (TypeError, ValueError):
        raise ValueError("liftwave: gain must be a pair (lowpass, highpass) of numbers, not %r" % (gain,)) from None


def _check_out(ad, out, shape, dtype):
    oad, _ = adapt(out)
    if oad is not ad:
        raise TypeError("liftwave: out is a %s array, the input a %s array" % (oad.name, ad.name))
    if tuple(out.shape) != shape or oad.dtype(out) != dtype:
        raise ValueError("liftwave: out must have shape %r and dtype %s, not %r %s" % (
            shape, dtype, tuple(out.shape), oad.dtype(out)))
    if not ad.writable(out):
        raise ValueError("liftwave: out is read-only")
    if not ad.is_contiguous(out):
        raise ValueError("liftwave: out must be C-contiguous")


# Plans made by forward() / inverse(), most recently used last.
_CACHE_SIZE = 32
# Host transforms smaller than this many samples run on one CPU thread (where
# the library has lw_config.threads): waking a thread team costs more than the
# work, and much more when the cores are busy with other processes.
SMALL_SAMPLES = 1 << 15
_cache = collections.OrderedDict()
_cache_lock = threading.Lock()


def cached_plan(shape, dtype, device, wavelet, levels, mode, layout, axes, integer, backend, direction, gain=None,
                destroy_input=False, placement=None):
    """A Plan from the cache, made on first use.  direction: 0 forward, 1 inverse
    (False / True do), 2 the forward's adjoint, 3 the inverse's (the library's lw_direction);
    gain: None or a (lowpass, highpass) pair of floats; destroy_input: the caller's input is
    scratch (LW_FLAG_DESTROY_INPUT)."""
    direction = int(direction)
    key = (shape, dtype, device, wavelet, levels, mode, layout, axes, integer, backend, direction, gain,
           bool(destroy_input), placement)
    with _cache_lock:
        plan = _cache.get(key)
        if plan is not None:
            _cache.move_to_end(key)
            return plan
    threads = 0
    if device is None and backend != "cuda":
        size = 1
        for n in shape:
            size *= n
        threads = 1 if size < SMALL_SAMPLES else 0
    plan = Plan(shape, dtype, wavelet, levels, mode, layout, axes, integer, backend, direction & 1, device,
                threads=threads, adjoint=direction >> 1, gain=gain, destroy_input=bool(destroy_input),
                placement=placement)
    with _cache_lock:
        _cache[key] = plan
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return plan


def _transform(x, wavelet, levels, mode, layout, axes, integer, backend, out, direction, gain):
    ad, x = adapt(x)
    shape = tuple(x.shape)
    if not shape:
        raise ValueError("liftwave: 0-d arrays have nothing to transform")
    device = ad.device(x) if is_device(ad, x) else None
    placement = None
    if out is not None:  # out on the other side of x: one side on the device (C->G or G->C)
        oad, out = adapt(out)
        if is_device(oad, out) != (device is not None):
            placement = "G2C" if device is not None else "C2G"
            device = device if device is not None else oad.device(out)
    if device is not None and backend not in ("auto", "cuda"):
        raise ValueError("liftwave: a %s array in CUDA memory cannot run on backend %r" % (ad.name, backend))
    if axes is not None:
        axes = _normalize_axes(axes, len(shape))
    name = ad.dtype(x)
    if gain is not None:
        gain = _normalize_gain(gain)
    plan = cached_plan(shape, name, device, wavelet, levels, mode, layout, axes, bool(integer), backend, direction,
                       gain, placement=placement)
    return plan._run(ad, x, name, out)


def forward(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", axes=None, integer=False,
            backend="auto", out=None, gain=None):
    """Forward transform of x (NumPy, CuPy, PyTorch): a new array of the same
    library on the same device, or `out` (on the other side of x: host data to
    device coefficients or the reverse, see Plan's placement).  levels: an integer or 'max';
    axes: the 1-3 axes to transform (default all, rank <= 3; the others are a
    batch); integer: the reversible int32 variant (haar, cdf53, dd137, fs);
    backend: 'auto' (the array's device: CPU for host arrays, CUDA for device
    arrays), 'cpu', 'cuda', 'cpu-ref'; gain: (lowpass, highpass) factors per
    axis and level, applied by the kernels (None: the wavelet's own scaling)."""
    return _transform(x, wavelet, levels, mode, layout, axes, integer, backend, out, 0, gain)


def inverse(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", axes=None, integer=False,
            backend="auto", out=None, gain=None):
    """Inverse of forward() with the same options."""
    return _transform(x, wavelet, levels, mode, layout, axes, integer, backend, out, 1, gain)


def adjoint(y, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", axes=None, backend="auto", out=None,
            gain=None):
    """The adjoint (transpose) of forward() with the same options: coefficients y to
    samples, with sum(forward(x) * y) == sum(x * adjoint(y)) to rounding.  It is the
    backward pass of forward(): the gradient w.r.t. x is adjoint(gradient w.r.t. the
    coefficients).  For orthogonal transforms (haar, d4 periodic) it equals inverse().
    Float data only (the integer variants are not linear)."""
    return _transform(y, wavelet, levels, mode, layout, axes, False, backend, out, 2, gain)


def inverse_adjoint(x, wavelet="cdf97", levels=1, mode="symmetric", layout="mallat", axes=None, backend="auto",
                    out=None, gain=None):
    """The adjoint of inverse(): samples x to coefficients, with
    sum(inverse(y) * x) == sum(y * inverse_adjoint(x)); the backward pass of inverse()."""
    return _transform(x, wavelet, levels, mode, layout, axes, False, backend, out, 3, gain)


def max_levels(shape, axes=None):
    """Largest level count the shape allows along axes (docs/CONVENTIONS.md section 3)."""
    shape = tuple(int(n) for n in shape)
    return _liftwave.max_levels(list(shape), list(_normalize_axes(axes, len(shape))))


def describe(plan=None):
    """describe(): the build (version, backends, CUDA devices); describe(plan): the plan."""
    if plan is not None:
        return plan.describe()
    cuda = _liftwave.backend_available("cuda")
    lines = ["liftwave %s (CUDA backend %s%s)" % (
        _liftwave.version(), "built" if _liftwave.BUILT_WITH_CUDA else "not built",
        ", device present" if cuda else (", no device" if _liftwave.BUILT_WITH_CUDA else ""))]
    devs = _liftwave.cuda_devices().strip()
    if devs:
        lines.append(devs)
    return "\n".join(lines)
