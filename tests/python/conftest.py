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
