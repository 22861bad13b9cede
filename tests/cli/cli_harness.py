"""Shared pieces of the CLI tests (test_cli.py and the test_cli_*.py groups):
the liftwave executable and source tree from argv, the case registry, and
helpers that run liftwave and check its exit status, stderr and files.

NumPy missing: prints the reason and exits 77 (ctest SKIP_RETURN_CODE).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not installed for %s (apt-get install python3-numpy or pip install numpy, "
          "then reconfigure)" % sys.executable)
    sys.exit(77)

if len(sys.argv) < 3:
    print("usage: test_cli.py LIFTWAVE_EXE SOURCE_DIR [GROUP ...]")
    sys.exit(2)
CLI = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])

WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs"]
INTEGER_WAVELETS = ["haar", "cdf53", "dd137", "fs"]
CASES = []
FAILURES = []
RUNS = [0]
RNG = np.random.default_rng(20240611)


def case(group):
    def wrap(fn):
        CASES.append((group, fn))
        return fn
    return wrap


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL: " + msg)
    return cond


def run(d, args, timeout=300, env=None):
    RUNS[0] += 1
    full_env = dict(os.environ, **env) if env else None
    p = subprocess.run([CLI] + list(args), cwd=d, capture_output=True, text=True, timeout=timeout, env=full_env)
    return p.returncode, p.stdout, p.stderr


def listing(d):
    out = set()
    for root, dirs, files in os.walk(d):
        for f in files + dirs:
            out.add(os.path.relpath(os.path.join(root, f), d))
    return out


def expect_fail(d, args, words=(), codes=(1, 2), env=None):
    """Run a command that must fail cleanly; words must appear in the message."""
    label = "liftwave " + " ".join(args)
    before = listing(d)
    stamps = {}
    for f in before:
        p = os.path.join(d, f)
        if os.path.isfile(p) and os.access(p, os.R_OK):
            stamps[f] = open(p, "rb").read()
    rc, out, err = run(d, args, env=env)
    lines = err.splitlines()
    check(rc in codes, "%s: exit %d, want %s; stderr %r" % (label, rc, codes, err))
    check(len(lines) == 1, "%s: %d lines on stderr, want 1: %r" % (label, len(lines), err))
    if lines:
        check(lines[0].startswith("liftwave: ") and len(lines[0]) > 12, "%s: bad message %r" % (label, lines[0]))
    for w in words:
        check(w.lower() in err.lower(), "%s: message %r does not mention %r" % (label, err.strip(), w))
    after = listing(d)
    check(after <= before, "%s: left files behind: %s" % (label, sorted(after - before)))
    for f, data in stamps.items():
        p = os.path.join(d, f)
        check(os.path.isfile(p) and open(p, "rb").read() == data, "%s: modified or removed %s" % (label, f))
    return rc, err


def expect_ok(d, args):
    label = "liftwave " + " ".join(args)
    rc, out, err = run(d, args)
    check(rc == 0, "%s: exit %d; stderr %r" % (label, rc, err))
    check(err == "", "%s: stderr not empty on success: %r" % (label, err))
    return out


def write_bytes(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def load(d, name):
    return np.load(os.path.join(d, name))


def save(d, name, arr):
    np.save(os.path.join(d, name), arr)


def test_image(h=37, w=52, dtype=np.uint8, channels=0):
    y, x = np.mgrid[0:h, 0:w]
    top = 255 if dtype == np.uint8 else 60000
    base = top / 2 + top / 2.2 * np.sin(x / 5.0) * np.cos(y / 7.0)
    if channels:
        base = np.stack([np.roll(base, 3 * c, axis=1) for c in range(channels)], axis=-1)
    noise = RNG.integers(-top // 20, top // 20, size=base.shape)
    return np.clip(base + noise, 0, top).astype(dtype)


def have_png():
    rc, out, _ = run(".", ["info"])
    return rc == 0 and "PNG support: yes" in out


def view_ext():
    """An image extension this build writes: png, or pgm without libpng."""
    return "png" if have_png() else "pgm"


def roomiest_tmp():
    """Where the cases write their files: LW_TEST_TMPDIR when set, else whichever of the
    system's temporary folder and the working folder (the build tree under ctest) has more free
    space -- a small /tmp must not fail the cases that write hundreds of MiB."""
    if os.environ.get("LW_TEST_TMPDIR"):
        return os.environ["LW_TEST_TMPDIR"]
    cands = [tempfile.gettempdir(), os.getcwd()]
    return max(cands, key=lambda c: shutil.disk_usage(c).free if os.access(c, os.W_OK) else -1)


def run_groups(groups, prefix):
    """Run the registered cases of `groups` (all when empty), each in a fresh
    temporary folder; print one line per case and the totals.  Exit status:
    0, 1 when a check failed, 2 for an unknown group or no case at all."""
    known = {g for g, _ in CASES}
    for g in groups:
        if g not in known:
            print("unknown group %r (have %s)" % (g, ", ".join(sorted(known))))
            return 2
    groups = groups or sorted(known)
    ncases = 0
    for g, fn in CASES:
        if g not in groups:
            continue
        ncases += 1
        d = tempfile.mkdtemp(prefix=prefix, dir=roomiest_tmp())
        before = len(FAILURES)
        try:
            fn(d)
        except Exception:
            FAILURES.append("%s: exception" % fn.__name__)
            traceback.print_exc()
        print("%-28s %s" % (fn.__name__, "ok" if len(FAILURES) == before else "FAILED"))
        shutil.rmtree(d, ignore_errors=True)
    if ncases == 0:
        print("no case in groups %r" % (groups,))
        return 2
    print("%d cases, %d liftwave runs, %d failed checks" % (ncases, RUNS[0], len(FAILURES)))
    return 1 if FAILURES else 0
