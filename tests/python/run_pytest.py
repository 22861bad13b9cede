#!/usr/bin/env python3
"""ctest entry for the Python package tests: runs pytest on tests/python.

Exit 77 (ctest: skipped) with the reason on stdout when pytest or the
installed liftwave package is missing; exit 1 when the installed package's
Python files are not this tree's (reinstall with pip install .), so that a
stale install is never tested by mistake.  Otherwise pytest's exit status;
skipped tests are listed with their reasons (-rs).
"""
import filecmp
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "python", "liftwave")


def main():
    try:
        import pytest  # noqa: F401
    except ImportError:
        print("SKIP: pytest is not installed in %s (pip install pytest)" % sys.executable)
        return 77
    try:
        import liftwave
    except ImportError as e:
        print("SKIP: the liftwave package is not installed in %s (pip install . from the repository root): %s"
              % (sys.executable, e))
        return 77
    installed = os.path.dirname(os.path.abspath(liftwave.__file__))
    sources = sorted(os.path.relpath(os.path.join(d, f), SOURCE) for d, _, fs in os.walk(SOURCE)
                     for f in fs if f.endswith(".py"))  # the subpackages (liftwave.torch) too
    stale = [f for f in sources
             if not (os.path.exists(os.path.join(installed, f))
                     and filecmp.cmp(os.path.join(SOURCE, f), os.path.join(installed, f), shallow=False))]
    if stale and os.path.realpath(installed) != os.path.realpath(SOURCE):
        print("FAIL: the installed liftwave (%s) differs from this tree in %s: reinstall with pip install ."
              % (installed, ", ".join(stale)))
        return 1
    print("liftwave %s from %s; %s" % (liftwave.__version__, installed, liftwave.describe().splitlines()[0]))
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", HERE], cwd=HERE)


if __name__ == "__main__":
    sys.exit(main())
