"""The custom operators behind liftwave.torch.

    liftwave::transform(Tensor x, str wavelet, int levels, str mode, str layout,
                        int naxes, int direction) -> Tensor
        the last `naxes` (1-3) axes of x (every leading axis is a batch) in one of
        the library's four directions (lw_direction): 0 forward, 1 inverse, 2 the
        forward's adjoint, 3 the inverse's adjoint; a new tensor of x's shape.
    liftwave::analysis(Tensor x, str wavelet, int levels, str mode, int naxes,
                       int direction, float[2] gain, bool stacked) -> Tensor[]
        direction 0 or 3 (samples -> coefficients) of the Mallat plan, returned
        as separate bands: [approximation, the detail bands of level J, ..., of
        level 1] (_bands.BAND_KEYS order), or with stacked=True one tensor per
        level, (..., bands, *band shape).  The plan's gains (lw_config.gain: per
        axis and level lowpass x gain[0], highpass x gain[1], the reciprocal for
        direction 3) set the bands' units.
    liftwave::synthesis(Tensor approx, Tensor[] details, str wavelet, str mode,
                        int naxes, int direction, float[2] gain, bool stacked) -> Tensor
        the reverse, direction 1 or 2.
The bands are written (read) by the library in place (lw_execute_bands): on CUDA
tensors of the fused 2-D engine's cases the kernels store every band where it
belongs, with no Mallat array in between.

Each runs a cached liftwave plan on the tensors' memory: host pointers for CPU
tensors, device pointers on the current stream for CUDA tensors.  Registered with
torch.library.custom_op, fake kernels (shapes only) and autograd formulas: the
gradient of direction d is direction d ^ 2 (forward <-> its adjoint, inverse <->
its adjoint; docs/ADJOINT.md) by the same operators, so gradients of every order
are exact, nothing but the arguments is saved for the backward pass, and
torch.compile / torch.export see one opaque node per transform.
"""
import functools
from typing import List

import torch

from .. import _native
from .._arrays import TorchArrays
from . import _bands

# torch dtype -> the library's dtype name.  The half types are stored half and
# computed in float32 by the library (docs/CONVENTIONS.md "Half precision"), on
# CPU and CUDA tensors (the non-separable fs has no half kernels on CUDA: the
# library refuses it with a message).
DTYPES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
          torch.bfloat16: "bfloat16"}

FORWARD, INVERSE, FORWARD_ADJOINT, INVERSE_ADJOINT = 0, 1, 2, 3
MODES = ("symmetric", "periodic")
LAYOUTS = ("mallat", "interleaved")


def check_tensor(x, func):
    """TypeError / ValueError, naming func, for what the transforms do not take."""
    if not isinstance(x, torch.Tensor):
        raise TypeError("liftwave.torch.%s: expected a torch.Tensor, got %s" % (func, type(x).__name__))
    if x.dtype in DTYPES:
        return
    if x.is_complex():
        raise TypeError("liftwave.torch.%s: complex tensors (%s) are not supported; transform x.real and "
                        "x.imag separately" % (func, x.dtype))
    raise TypeError("liftwave.torch.%s: dtype %s is not supported (float32, float64, float16, bfloat16): the layers are "
                    "differentiable float maps; convert integer data with x.float(), or use "
                    "liftwave.forward(..., integer=True) for the reversible integer transforms" % (func, x.dtype))


def check_mode(mode, func):
    if mode not in MODES:
        raise ValueError("liftwave.torch.%s: mode must be one of %s, not %r (PyWavelets' 'periodization' is "
                         "'periodic', its 'reflect' is 'symmetric')" % (func, ", ".join(MODES), mode))


def check_args(x, naxes, levels, mode, layout, func):
    """Everything about a call that does not need the library: the tensor, the
    rank, the level count, the mode and layout names."""
    check_tensor(x, func)
    if x.dim() < naxes:
        raise ValueError("liftwave.torch.%s: needs at least %d dimensions, got a tensor of shape %s"
                         % (func, naxes, tuple(x.shape)))
    if isinstance(levels, bool) or not isinstance(levels, int) or levels < 0:
        raise ValueError("liftwave.torch.%s: levels must be an integer >= 0, not %r" % (func, levels))
    check_mode(mode, func)
    if layout not in LAYOUTS:
        raise ValueError("liftwave.torch.%s: layout must be one of %s, not %r" % (func, ", ".join(LAYOUTS), layout))


def _stream(x):
    return TorchArrays.stream_of(x.get_device()) if x.is_cuda else 0


def _check_operand(x, naxes):
    """The operators' own checks (they may be called as torch.ops.liftwave.*): dtype and
    naxes; returns the library's dtype name."""
    dtype = DTYPES.get(x.dtype)
    if dtype is None:
        check_tensor(x, "liftwave operator")
    if naxes not in (1, 2, 3) or naxes > x.dim():
        raise ValueError("liftwave.torch: naxes must be 1, 2 or 3 and at most the rank, not %r for shape %s"
                         % (naxes, tuple(x.shape)))
    return dtype


def _execute(x, out, wavelet, levels, mode, layout, naxes, direction, destroy_input=False):
    """Run the cached plan of x's shape on contiguous x into contiguous out (may be x;
    destroy_input: x is scratch)."""
    dtype = _check_operand(x, naxes)
    shape = tuple(x.shape)
    batch = 1
    for n in shape[:len(shape) - naxes]:
        batch *= n
    merged = (max(batch, 1),) + shape[len(shape) - naxes:]  # an empty batch: the plan still checks the sizes
    device = None
    if x.is_cuda:
        device = x.device.index if x.device.index is not None else torch.cuda.current_device()
    plan = _native.cached_plan(merged, dtype, device, wavelet, levels, mode, layout,
                               tuple(range(1, naxes + 1)), False, "auto", direction,
                               destroy_input=destroy_input and out is not x)
    if batch:
        plan._plan.execute(x.view(merged), out.view(merged), _stream(x))


def _transform_impl(x: torch.Tensor, wavelet: str, levels: int, mode: str, layout: str, naxes: int,
              direction: int) -> torch.Tensor:
    """See the module docstring; callers check arguments with check_args first."""
    x = x.contiguous()
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    _execute(x, out, wavelet, levels, mode, layout, naxes, direction)
    return out


transform = torch.library.custom_op("liftwave::transform", mutates_args=())(_transform_impl)


@transform.register_fake
def _transform_fake(x, wavelet, levels, mode, layout, naxes, direction):
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _transform_setup(ctx, inputs, output):
    ctx.args = inputs[1:]


def _transform_backward(ctx, grad):
    wavelet, levels, mode, layout, naxes, direction = ctx.args
    return transform(grad, wavelet, levels, mode, layout, naxes, direction ^ 2), None, None, None, None, None, None


transform.register_autograd(_transform_backward, setup_context=_transform_setup)


# ---- bands: analysis and synthesis -------------------------------------------------
def band_shapes(shape, naxes, levels, stacked):
    """Shapes of analysis()'s outputs for an input of `shape` (a tuple; symbolic sizes too)."""
    nb = len(shape) - naxes
    batch = tuple(shape[:nb])
    lens = _bands.lowpass_lengths(shape[nb:], levels)
    keys = _bands.BAND_KEYS[naxes]
    out = [batch + lens[levels]]
    for j in range(levels, 0, -1):
        high = tuple(a - b for a, b in zip(lens[j - 1], lens[j]))
        shapes = [batch + _bands.band_shape(lens[j], high, k) for k in keys]
        out += [batch + (len(keys),) + shapes[0][nb:]] if stacked else shapes
    return out


def synthesis_shape(approx_shape, detail_shapes, naxes, stacked):
    """The shape synthesis() returns (the shapes are assumed to fit; the callers check)."""
    nb = len(approx_shape) - naxes
    keys = _bands.BAND_KEYS[naxes]
    if stacked:
        highs = [tuple(s[nb + 1:]) for s in detail_shapes]
    else:
        per = len(keys)
        single = [keys.index("a" * i + "d" + "a" * (naxes - 1 - i)) for i in range(naxes)]
        highs = [tuple(detail_shapes[lv * per + single[i]][nb + i] for i in range(naxes))
                 for lv in range(len(detail_shapes) // per)]
    return tuple(approx_shape[:nb]) + _bands.full_sizes(approx_shape[nb:], highs)


# the real kernels' layouts, once per shape (the fake kernels see symbolic sizes: no cache there)
_concrete_band_shapes = functools.lru_cache(maxsize=512)(band_shapes)


@functools.lru_cache(maxsize=8)
def _band_order(naxes, levels, stacked):
    """For each of the library's bands (lw_execute_bands: the approximation, then per level from
    the coarsest the masks 1 .. 2^naxes - 1, bit naxes-1-a = highpass along axis a): the list index
    of the tensor holding it and its index along the stacked axis (-1: the tensor is the band)."""
    keys = _bands.BAND_KEYS[naxes]
    per = len(keys)
    order = [(0, -1)]
    for lv in range(levels):
        for m in range(1, per + 1):
            key = "".join("d" if (m >> (naxes - 1 - a)) & 1 else "a" for a in range(naxes))
            k = keys.index(key)
            order.append((1 + lv, k) if stacked else (1 + lv * per + k, -1))
    return tuple(order)


@functools.lru_cache(maxsize=512)
def _dense_bands(shape, naxes, levels, stacked, esize):
    """Contiguous band tensors of the shapes band_shapes gives: per library band (tensor index,
    byte offset in it), and its element strides as an array of the plan's merged shape (one
    batch axis, then the transformed axes)."""
    nb = len(shape) - naxes
    shapes = band_shapes(shape, naxes, levels, stacked)
    where, strides = [], []
    for i, b in _band_order(naxes, levels, stacked):
        sh = list(shapes[i])
        st = [1] * len(sh)
        for d in range(len(sh) - 2, -1, -1):
            st[d] = st[d + 1] * sh[d + 1]
        off = 0
        if b >= 0:
            off = b * st[nb] * esize
            del sh[nb], st[nb]
        where.append((i, off))
        strides.append([st[nb - 1] if nb else 0] + st[nb:])
    return tuple(where), strides


def _band_view(t, nb):
    """(pointer, element strides) of band tensor t (nb leading batch axes) as an array of the
    plan's merged shape; None when the batch axes do not merge into one stride."""
    st = t.stride()
    sh = t.shape
    for d in range(nb - 1):
        if sh[d] > 1 and st[d] != st[d + 1] * sh[d + 1]:
            return None
    return t.data_ptr(), [st[nb - 1] if nb else 0] + list(st[nb:])


def _run_bands(samples, tensors, wavelet, levels, mode, naxes, direction, gain, stacked):
    """lw_execute_bands between the samples tensor (contiguous) and the band tensors (the
    analysis outputs / synthesis inputs, stacked or not, of the shapes band_shapes gives) on
    the cached plan of samples' shape; gains by the plan (lw_config.gain)."""
    nb = samples.dim() - naxes
    shape = tuple(samples.shape)
    batch = 1
    for n in shape[:nb]:
        batch *= n
    if not batch:
        return
    merged = (batch,) + shape[nb:]
    device = None
    if samples.is_cuda:
        device = samples.device.index if samples.device.index is not None else torch.cuda.current_device()
    g = (float(gain[0]), float(gain[1]))
    plan = _native.cached_plan(merged, DTYPES[samples.dtype], device, wavelet, levels, mode, "mallat",
                               tuple(range(1, naxes + 1)), False, "auto", direction,
                               gain=None if g == (1.0, 1.0) else g)
    if all(t.is_contiguous() for t in tensors):  # the layers' case: layouts made once per shape
        where, strides = _dense_bands(shape, naxes, levels, stacked, samples.element_size())
        ptrs = [tensors[i].data_ptr() + off for i, off in where]
    else:
        ptrs, strides = [], []
        for i, b in _band_order(naxes, levels, stacked):
            t = tensors[i].select(nb, b) if b >= 0 else tensors[i]
            v = _band_view(t, nb)
            if v is None:  # batch axes that do not merge (a caller's strided band): a dense copy
                t = t.contiguous()
                tensors.append(t)  # kept alive until the call returns
                v = _band_view(t, nb)
            ptrs.append(v[0])
            strides.append(v[1])
    plan._plan.execute_bands_ptr(samples.data_ptr(), ptrs, strides, _stream(samples))


def _analysis_impl(x: torch.Tensor, wavelet: str, levels: int, mode: str, naxes: int, direction: int,
             gain: List[float], stacked: bool) -> List[torch.Tensor]:
    """See the module docstring."""
    _check_operand(x, naxes)
    x = x.contiguous()
    outs = [x.new_empty(s) for s in _concrete_band_shapes(tuple(x.shape), naxes, levels, stacked)]
    _run_bands(x, list(outs), wavelet, levels, mode, naxes, direction, gain, stacked)
    return outs


analysis = torch.library.custom_op("liftwave::analysis", mutates_args=())(_analysis_impl)


@analysis.register_fake
def _analysis_fake(x, wavelet, levels, mode, naxes, direction, gain, stacked):
    return [x.new_empty(s) for s in band_shapes(tuple(x.shape), naxes, levels, stacked)]


def _analysis_setup(ctx, inputs, output):
    ctx.args = inputs[1:]
    ctx.shapes = [tuple(o.shape) for o in output]
    ctx.like = (output[0].dtype, output[0].device)


def _analysis_backward(ctx, grads):
    wavelet, levels, mode, naxes, direction, gain, stacked = ctx.args
    dtype, device = ctx.like
    grads = [g if g is not None else torch.zeros(s, dtype=dtype, device=device) for g, s in zip(grads, ctx.shapes)]
    gx = synthesis(grads[0], list(grads[1:]), wavelet, mode, naxes, direction ^ 2, gain, stacked)
    return gx, None, None, None, None, None, None, None


analysis.register_autograd(_analysis_backward, setup_context=_analysis_setup)


def _synthesis_impl(approx: torch.Tensor, details: List[torch.Tensor], wavelet: str, mode: str, naxes: int,
              direction: int, gain: List[float], stacked: bool) -> torch.Tensor:
    """See the module docstring."""
    _check_operand(approx, naxes)
    full = synthesis_shape(tuple(approx.shape), [tuple(d.shape) for d in details], naxes, stacked)
    keys = _bands.BAND_KEYS[naxes]
    levels = len(details) if stacked else len(details) // len(keys)
    bands = [approx] + list(details)
    want = _concrete_band_shapes(full, naxes, levels, stacked)
    for i, t in enumerate(bands):  # the library reads through raw pointers: shapes, dtypes, devices must fit
        if tuple(t.shape) != want[i] or t.dtype != approx.dtype or t.device != approx.device:
            raise ValueError("liftwave.torch: band %d is %s %s on %s; the bands of a %s array are %s, all %s on %s"
                             % (i, tuple(t.shape), t.dtype, t.device, full, list(want), approx.dtype, approx.device))
    out = approx.new_empty(full)
    _run_bands(out, bands, wavelet, levels, mode, naxes, direction, gain, stacked)
    return out


synthesis = torch.library.custom_op("liftwave::synthesis", mutates_args=())(_synthesis_impl)


@synthesis.register_fake
def _synthesis_fake(approx, details, wavelet, mode, naxes, direction, gain, stacked):
    return approx.new_empty(synthesis_shape(tuple(approx.shape), [tuple(d.shape) for d in details], naxes,
                                            stacked))


def _synthesis_setup(ctx, inputs, output):
    approx, details, wavelet, mode, naxes, direction, gain, stacked = inputs
    keys = _bands.BAND_KEYS[naxes]
    ctx.args = (wavelet, len(details) if stacked else len(details) // len(keys), mode, naxes, direction, gain,
                stacked)


def _synthesis_backward(ctx, grad):
    wavelet, levels, mode, naxes, direction, gain, stacked = ctx.args
    outs = analysis(grad, wavelet, levels, mode, naxes, direction ^ 2, gain, stacked)
    return outs[0], list(outs[1:]), None, None, None, None, None, None


synthesis.register_autograd(_synthesis_backward, setup_context=_synthesis_setup)


# ---- eager calls ---------------------------------------------------------------------
# The dispatcher and torch.library's autograd wrapper cost about as much host time per call
# as the operator's own work at the layers' usual sizes, and a training step is bound by it
# (bench/NOTES-torch.md).  Eager calls on ordinary tensors therefore run the same kernels
# through autograd.Functions whose backward is again these calls (so every order of
# gradient stays exact); torch.compile, torch.export, fake and functorch tensors and tensor
# subclasses go through the registered operators.
def _is_wrapped(t):
    f = getattr(getattr(torch._C, "_functorch", None), "is_functorch_wrapped_tensor", None)
    return f(t) if f is not None else False


def _plain(*ts):
    if torch.compiler.is_compiling():
        return False
    return all(type(t) is torch.Tensor and not _is_wrapped(t) for t in ts)


class _TransformFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, wavelet, levels, mode, layout, naxes, direction):
        ctx.args = (wavelet, levels, mode, layout, naxes, direction)
        return _transform_impl(x, wavelet, levels, mode, layout, naxes, direction)

    @staticmethod
    def backward(ctx, grad):
        wavelet, levels, mode, layout, naxes, direction = ctx.args
        call = transform_call if torch.is_grad_enabled() else _transform_impl  # see _AnalysisFn.backward
        return (call(grad, wavelet, levels, mode, layout, naxes, direction ^ 2),) + (None,) * 6


class _AnalysisFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, wavelet, levels, mode, naxes, direction, gain, stacked):
        ctx.args = (wavelet, levels, mode, naxes, direction, gain, stacked)
        return tuple(_analysis_impl(x, wavelet, levels, mode, naxes, direction, gain, stacked))

    @staticmethod
    def backward(ctx, *grads):
        wavelet, levels, mode, naxes, direction, gain, stacked = ctx.args
        # a differentiable backward only under create_graph (grad mode on): otherwise the kernels
        # directly, without a second autograd.Function (its host time is most of a step's)
        call = synthesis_call if torch.is_grad_enabled() else _synthesis_impl
        gx = call(grads[0], list(grads[1:]), wavelet, mode, naxes, direction ^ 2, gain, stacked)
        return (gx,) + (None,) * 7


class _SynthesisFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, wavelet, mode, naxes, direction, gain, stacked, approx, *details):
        keys = _bands.BAND_KEYS[naxes]
        levels = len(details) if stacked else len(details) // len(keys)
        ctx.args = (wavelet, levels, mode, naxes, direction, gain, stacked)
        return _synthesis_impl(approx, list(details), wavelet, mode, naxes, direction, gain, stacked)

    @staticmethod
    def backward(ctx, grad):
        wavelet, levels, mode, naxes, direction, gain, stacked = ctx.args
        call = analysis_call if torch.is_grad_enabled() else _analysis_impl  # see _AnalysisFn.backward
        outs = call(grad, wavelet, levels, mode, naxes, direction ^ 2, gain, stacked)
        return (None,) * 6 + tuple(outs)


def transform_call(x, wavelet, levels, mode, layout, naxes, direction):
    """transform(), eagerly through _TransformFn where it can (see above)."""
    if _plain(x):
        return _TransformFn.apply(x, wavelet, levels, mode, layout, naxes, direction)
    return transform(x, wavelet, levels, mode, layout, naxes, direction)


def analysis_call(x, wavelet, levels, mode, naxes, direction, gain, stacked):
    """analysis(), eagerly through _AnalysisFn where it can (see above)."""
    if _plain(x):
        return list(_AnalysisFn.apply(x, wavelet, levels, mode, naxes, direction, gain, stacked))
    return analysis(x, wavelet, levels, mode, naxes, direction, gain, stacked)


def synthesis_call(approx, details, wavelet, mode, naxes, direction, gain, stacked):
    """synthesis(), eagerly through _SynthesisFn where it can (see above)."""
    if _plain(approx, *details):
        return _SynthesisFn.apply(wavelet, mode, naxes, direction, gain, stacked, approx, *details)
    return synthesis(approx, details, wavelet, mode, naxes, direction, gain, stacked)
