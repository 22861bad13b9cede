"""Shared pieces of the Python package tests (pytest; run by ctest through
run_pytest.py, or directly: python -m pytest tests/python)."""
import numpy as np
import pytest

liftwave = pytest.importorskip("liftwave", reason="the liftwave package is not installed (pip install .)")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def rel_err(a, b):
    """max |a - b| over max |b| (1 when b is all zeros)."""
    a = np.asarray(a, dtype=np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float64)
    b = np.asarray(b, dtype=a.dtype)
    scale = max(float(np.abs(b).max()) if b.size else 0.0, 1e-300)
    return float(np.abs(a - b).max()) / scale if a.size else 0.0


def cuda_torch():
    """(torch, liftwave.torch) for the tests on CUDA tensors; skips the calling
    module, with the reason, without PyTorch 2.4 or later, a CUDA device seen by
    PyTorch, or liftwave's CUDA backend (call it at module level)."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
    if not hasattr(torch.library, "custom_op"):
        pytest.skip("liftwave.torch needs PyTorch 2.4 or later, this is %s" % torch.__version__, allow_module_level=True)
    import liftwave._liftwave as _ext
    import liftwave.torch as lwt

    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device", allow_module_level=True)
    if not _ext.backend_available("cuda"):
        pytest.skip("liftwave was built without the CUDA backend or sees no device: %s" % liftwave.describe(),
                    allow_module_level=True)
    return torch, lwt
