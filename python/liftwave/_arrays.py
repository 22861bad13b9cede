"""Array libraries: NumPy, CuPy, PyTorch.

One adapter per library answers what the transforms need to know about an
array (dtype name, CUDA device, current stream, contiguity) and makes new
arrays of the same library on the same device.  CuPy and PyTorch are never
imported here: their adapters are chosen from the type's module name and reach
the library through sys.modules, where the caller's own import put it.
"""
import sys

import numpy as np


class NumpyArrays:
    """NumPy arrays (and anything np.asarray accepts): host memory."""

    name = "numpy"
    on_device = False

    @staticmethod
    def dtype(x):
        return x.dtype.name

    @staticmethod
    def device(x):
        return None

    @staticmethod
    def stream(x):
        return 0

    @staticmethod
    def is_contiguous(x):
        return x.flags.c_contiguous

    @staticmethod
    def contiguous(x):
        return np.ascontiguousarray(x)

    @staticmethod
    def writable(x):
        return x.flags.writeable

    @staticmethod
    def astype(x, dtype):
        return x.astype(dtype)

    @staticmethod
    def empty(shape, dtype, like):
        return np.empty(shape, dtype)

    @staticmethod
    def zeros(shape, dtype, like):
        return np.zeros(shape, dtype)

    @staticmethod
    def ptr(x):
        return x.ctypes.data


class CupyArrays:
    """CuPy arrays: CUDA device memory, CuPy's current stream."""

    name = "cupy"
    on_device = True

    @staticmethod
    def _cp():
        return sys.modules["cupy"]

    @staticmethod
    def dtype(x):
        return x.dtype.name

    @staticmethod
    def device(x):
        return x.device.id

    @staticmethod
    def stream(x):
        cp = sys.modules["cupy"]
        with x.device:
            return cp.cuda.get_current_stream().ptr

    @staticmethod
    def is_contiguous(x):
        return x.flags.c_contiguous

    @staticmethod
    def contiguous(x):
        with x.device:
            return sys.modules["cupy"].ascontiguousarray(x)

    @staticmethod
    def writable(x):
        return True

    @staticmethod
    def astype(x, dtype):
        with x.device:
            return x.astype(dtype)

    @staticmethod
    def empty(shape, dtype, like):
        with like.device:
            return sys.modules["cupy"].empty(shape, dtype)

    @staticmethod
    def zeros(shape, dtype, like):
        with like.device:
            return sys.modules["cupy"].zeros(shape, dtype)

    @staticmethod
    def ptr(x):
        return x.data.ptr


class TorchArrays:
    """PyTorch tensors: CPU (host pointers) or CUDA (the current stream of the
    tensor's device).  Tensors that require grad are detached: the transforms
    are not differentiable."""

    name = "torch"

    @staticmethod
    def dtype(x):
        return str(x.dtype)[6:]  # "torch.float32" -> "float32"

    @staticmethod
    def device(x):
        return x.device.index if x.is_cuda else None

    @staticmethod
    def stream(x):
        if not x.is_cuda:
            return 0
        return TorchArrays.stream_of(x.get_device())

    @staticmethod
    def stream_of(device):
        """The current stream of CUDA device `device` (an int) as an integer."""
        cuda = sys.modules["torch"].cuda
        raw = getattr(sys.modules["torch"]._C, "_cuda_getCurrentRawStream", None)
        return raw(device) if raw is not None else cuda.current_stream(device).cuda_stream

    @staticmethod
    def ptr(x):
        return x.data_ptr()

    @staticmethod
    def is_contiguous(x):
        return x.is_contiguous()

    @staticmethod
    def contiguous(x):
        return x.contiguous()

    @staticmethod
    def writable(x):
        return True

    @staticmethod
    def astype(x, dtype):
        return x.to(getattr(sys.modules["torch"], dtype))

    @staticmethod
    def empty(shape, dtype, like):
        torch = sys.modules["torch"]
        return torch.empty(tuple(shape), dtype=getattr(torch, dtype), device=like.device)

    @staticmethod
    def zeros(shape, dtype, like):
        torch = sys.modules["torch"]
        return torch.zeros(tuple(shape), dtype=getattr(torch, dtype), device=like.device)


def adapt(x):
    """(adapter, array) for an input: NumPy arrays as they are, CuPy arrays,
    PyTorch tensors (detached), anything else through np.asarray."""
    t = type(x)
    if t is np.ndarray:
        return NumpyArrays, x
    module = t.__module__
    if module.startswith("cupy"):
        return CupyArrays, x
    if module.startswith("torch"):
        if x.requires_grad:
            x = x.detach()
        return TorchArrays, x
    if isinstance(x, np.ndarray):
        return NumpyArrays, x
    try:
        a = np.asarray(x)
    except Exception as e:  # noqa: BLE001 - report what was given
        raise TypeError("liftwave: cannot use %s as an array (%s)" % (t.__name__, e)) from None
    return NumpyArrays, a


def is_device(ad, x):
    """True for arrays in CUDA device memory."""
    return ad is CupyArrays or (ad is TorchArrays and x.is_cuda)
