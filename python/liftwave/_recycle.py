"""Recycled output buffers for large NumPy results of liftwave.pywt.

The Mallat array a call returns views of is kept, and the next call of the
same shape reuses it when the caller has dropped every one of those views
(CPython's reference count says so).  That saves the kernel's zeroing of
fresh pages, which costs about as much as the transform itself.  (Scaling the
bands on several threads was tried and dropped: one core already saturates the
memory bandwidth of the 2-core VM, and a busy core made it slower.)
"""
import sys

# below this many samples outputs are plain new arrays
RECYCLE_MIN = 1 << 16


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
