"""Two things that keep large NumPy results of liftwave.pywt near the speed of
the transform itself:

* band scaling on every core: the bands of a bior decomposition are
  multiplied in place in chunks of rows, on a thread pool (NumPy releases the
  GIL in its loops), instead of one band after the other on one core;
* recycled output buffers: the Mallat array a call returns views of is kept,
  and the next call of the same shape reuses it when the caller has dropped
  every one of those views (CPython's reference count says so), which saves
  the kernel's zeroing of fresh pages (as long as the transform itself).
"""
import os
import sys
import threading

import numpy as np

# below this many samples scaling stays on the calling thread, and outputs are
# plain new arrays
PARALLEL_MIN = 1 << 20
RECYCLE_MIN = 1 << 16
_CHUNK = 1 << 18  # samples per scaling task

_pool = None
_pool_lock = threading.Lock()


def _executor():
    global _pool
    with _pool_lock:
        if _pool is None:
            import concurrent.futures
            _pool = concurrent.futures.ThreadPoolExecutor(max(1, os.cpu_count() or 1),
                                                          thread_name_prefix="liftwave-scale")
        return _pool


def _extent(s, n):
    start, stop, _ = s.indices(n)
    return start, stop


def scale_tasks(shape, bands):
    """(index, factor) pieces of about _CHUNK samples each, cut along axis 0,
    from whole-band (index, factor) pairs."""
    tasks = []
    for idx, f in bands:
        ext = [_extent(s, n) for s, n in zip(idx, shape)]
        size = 1
        for a, b in ext:
            size *= b - a
        a0, b0 = ext[0]
        pieces = max(1, min(b0 - a0, size // _CHUNK))
        for k in range(pieces):
            lo, hi = a0 + (b0 - a0) * k // pieces, a0 + (b0 - a0) * (k + 1) // pieces
            tasks.append(((slice(lo, hi),) + tuple(idx[1:]), f))
    return tasks


def scale_in_place(buf, tasks):
    """buf[index] *= factor for every task, spread over the pool."""
    def run(task):
        view = buf[task[0]]
        view *= task[1]
    list(_executor().map(run, tasks))


class Recycler:
    """At most one spare output buffer for one shape and dtype."""

    enabled = hasattr(sys, "getrefcount")

    def __init__(self):
        self._spare = []

    def take(self):
        """The spare buffer when no caller holds a view of it any more, else None."""
        try:
            buf = self._spare.pop()  # atomic: two threads never get the same buffer
        except IndexError:
            return None
        # references: `buf` here and getrefcount's argument; every live view adds one
        return buf if sys.getrefcount(buf) <= 2 else None

    def keep(self, buf):
        if not self._spare:
            self._spare.append(buf)
