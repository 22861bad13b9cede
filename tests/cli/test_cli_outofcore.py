"""CLI test groups for arrays larger than the memory limit and video
(registered with test_cli.py's driver):

ooc_sweep   out-of-core forward and inverse equal the in-memory run bit for bit:
            every wavelet, both modes and layouts, 1-D/2-D/3-D, 1, 2 and max levels,
            the integer variants, the sidecar identical
ooc_types   source dtypes, batch axes, rank 4, .raw, and an inverse whose sidecar
            no longer matches (checked from the file, in parts)
ooc_big     a 256 MiB .npy under --memory-limit 32M: equal to the in-memory run,
            peak RSS of the process within the limit plus the program's own; the
            progress bar on a terminal (--progress-after 0), and none with --quiet
ooc_bad     limit too small for the halos, output that cannot be written (file size
            limit: the "disk" is full), truncated input; no output, no temporary left
video       a 200-frame y4m (file and stdin) equals the 3-D transform of the stacked
            luma; --planes all; raw frames with --shape; memory independent of the
            number of frames; truncated y4m, a new header mid-stream (frame size
            change), unsupported colour spaces
"""
import hashlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

from cli_harness import CLI, RNG, case, check, expect_fail, expect_ok, load, np, run, save

ALL_WAVELETS = ["haar", "cdf53", "cdf97", "dd137", "d4", "fs", "dd97"]
INT_WAVELETS = ["haar", "cdf53", "dd137", "fs", "dd97"]


def streamed(d, args):
    """Run a command that must succeed out of core (-v says so)."""
    out = expect_ok(d, args + ["-v"])
    check("out of core" in out, "liftwave %s: not run out of core: %r" % (" ".join(args), out))
    return out


def limit_for(shape, es=4):
    """A limit that holds a slab of ~22 rows along axis 0 but not the array."""
    row = int(np.prod(shape[1:])) * es
    return str(row * 44 + 80 * 1024)


def same_file(d, a, b):
    return open(os.path.join(d, a), "rb").read() == open(os.path.join(d, b), "rb").read()


def sweep_one(d, shape, opts, label, dtype=np.float32):
    x = RNG.standard_normal(shape).astype(dtype) if dtype != np.int32 else \
        RNG.integers(-500, 500, shape).astype(np.int32)
    save(d, "x.npy", x)
    rc, _, err = run(d, ["forward", "x.npy", "ref.npy"] + opts)
    if rc != 0:  # a combination the library refuses (odd periodic lengths): the same error out of core
        rc2, _, err2 = run(d, ["forward", "x.npy", "s.npy", "--memory-limit", limit_for(shape)] + opts)
        check(rc2 == rc and err2 == err, "%s: in memory %r, out of core %r" % (label, err, err2))
        return
    lim = limit_for(shape, x.dtype.itemsize)
    streamed(d, ["forward", "x.npy", "s.npy", "--memory-limit", lim] + opts)
    check(same_file(d, "ref.npy", "s.npy"), "%s: forward out of core differs from in memory" % label)
    check(same_file(d, "ref.npy.json", "s.npy.json"), "%s: sidecars differ" % label)
    expect_ok(d, ["inverse", "ref.npy", "b.npy"])
    streamed(d, ["inverse", "s.npy", "bs.npy", "--memory-limit", lim])
    check(same_file(d, "b.npy", "bs.npy"), "%s: inverse out of core differs from in memory" % label)


@case("ooc_sweep")
def t_sweep_float(d):
    shapes = {"symmetric": [(3001,), (203, 37), (40, 12, 18)], "periodic": [(4096,), (96, 40), (32, 16, 24)]}
    for mode, sh in shapes.items():
        for shape in sh:
            for w in ALL_WAVELETS:
                for lay in ["mallat", "interleaved"]:
                    for lev in ["1", "2", "max"]:
                        sweep_one(d, shape, ["-w", w, "-m", mode, "--layout", lay, "-l", lev],
                                  "%s %s %s %s -l %s" % (shape, w, mode, lay, lev))


@case("ooc_sweep")
def t_sweep_integer(d):
    for w in INT_WAVELETS:
        for lay in ["mallat", "interleaved"]:
            for shape in [(150, 33), (30, 10, 14)]:
                sweep_one(d, shape, ["--integer", "-w", w, "--layout", lay, "-l", "max"],
                          "integer %s %s %s" % (w, lay, shape), dtype=np.int32)


@case("ooc_types")
def t_types_and_axes(d):
    cases = [((120, 30), np.uint8, ["-w", "cdf97", "-l", "2"]),
             ((120, 30), np.int16, ["--integer", "-w", "dd137", "-l", "2", "--layout", "interleaved"]),
             ((128, 32), np.float64, ["-w", "d4", "-l", "2", "-m", "periodic"]),
             ((6, 64, 20), np.float32, ["--axes", "1,2", "-w", "cdf97", "-l", "2"]),
             ((64, 6, 20), np.float32, ["--axes", "0,2", "-w", "haar", "-l", "2", "--layout", "interleaved"]),
             ((3, 40, 10, 8), np.float32, ["--axes", "1,2,3", "-w", "cdf53", "-l", "2"]),
             ((3, 40, 10, 8), np.uint16, ["--axes", "1,3", "--integer", "-w", "fs", "-l", "2"])]
    for shape, dt, opts in cases:
        x = (RNG.standard_normal(shape) * 50).astype(dt) if np.dtype(dt).kind == "f" else \
            RNG.integers(0, 200, shape).astype(dt)
        save(d, "x.npy", x)
        expect_ok(d, ["forward", "x.npy", "ref.npy"] + opts)
        lim = str(int(x.size * (8 if load(d, "ref.npy").dtype.itemsize == 8 else 4) * 1.4) + 65536)
        label = "%s %s %s" % (shape, np.dtype(dt).name, " ".join(opts))
        streamed(d, ["forward", "x.npy", "s.npy", "--memory-limit", lim] + opts)
        check(same_file(d, "ref.npy", "s.npy") and same_file(d, "ref.npy.json", "s.npy.json"),
              "%s: out of core differs" % label)
        expect_ok(d, ["inverse", "ref.npy", "b.npy"])
        streamed(d, ["inverse", "s.npy", "bs.npy", "--memory-limit", lim])
        check(same_file(d, "b.npy", "bs.npy"), "%s: inverse out of core differs" % label)
    # .raw in and out
    x = RNG.standard_normal((450, 40)).astype(np.float32)
    x.tofile(os.path.join(d, "x.raw"))
    raw = ["--shape", "450x40", "--dtype", "float32", "-l", "2"]
    expect_ok(d, ["forward", "x.raw", "ref.raw"] + raw)
    streamed(d, ["forward", "x.raw", "s.raw", "--memory-limit", "120K"] + raw)
    check(same_file(d, "ref.raw", "s.raw"), ".raw out of core differs")
    # a sidecar that no longer describes its file: refused, as in memory
    save(d, "y.npy", RNG.standard_normal((400, 50)).astype(np.float32))
    streamed(d, ["forward", "y.npy", "c.npy", "-l", "2", "--memory-limit", "150K"])
    c = load(d, "c.npy")
    c[7, 7] += 1
    save(d, "c.npy", c)
    expect_fail(d, ["inverse", "c.npy", "back.npy", "--memory-limit", "150K"], ["does not describe", "content"],
                codes=(1,))


SANITIZED = os.environ.get("LW_TEST_SANITIZED") == "1"


def rss_check(cond, msg):
    """Peak RSS bounds hold for ordinary builds; under ASan (shadow memory, quarantine) they are
    not checked, and the test says so."""
    if SANITIZED:
        print("  not checked in a sanitizer build: " + msg)
        return True
    return check(cond, msg)


def peak_rss_kb(d, args):
    """Peak RSS (KiB) of one liftwave run, measured by a fresh Python parent."""
    code = ("import resource,subprocess,sys;"
            "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL);"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", code, CLI] + args, cwd=d, capture_output=True, text=True)
    rc, kb = p.stdout.split()
    return int(rc), int(kb)


def run_on_tty(d, args):
    """Run liftwave with stderr on a pseudo-terminal; return (exit status, what it drew).  The
    terminal is read while the program runs (what is left unread when the last writer closes
    it may be dropped)."""
    import pty
    import threading
    master, slave = pty.openpty()
    chunks = []

    def reader():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            chunks.append(chunk)

    t = threading.Thread(target=reader)
    t.start()
    t0 = time.monotonic()
    p = subprocess.Popen([CLI] + args, cwd=d, stdout=subprocess.DEVNULL, stderr=slave)
    rc = p.wait()
    elapsed = time.monotonic() - t0
    os.close(slave)
    t.join(timeout=10)
    os.close(master)
    return rc, b"".join(chunks).decode("utf-8", "replace"), elapsed


def progress_bar(d):
    """On a terminal, --progress-after 0 draws the bar from the first slab and clears it at
    the end; with the default (1 s) a run shorter than that draws nothing; --quiet draws
    nothing.  (Whether a run just over a second draws depends on when its slabs end, so the
    drawing itself is checked with --progress-after 0.)"""
    args = ["forward", "big.npy", "p.npy", "-w", "dd137", "-l", "4", "--memory-limit", "4M"]
    rc, drawn, elapsed = run_on_tty(d, args + ["--progress-after", "0"])
    check(rc == 0, "progress run failed: %r" % drawn)
    check("forward [" in drawn and "%" in drawn, "--progress-after 0: no bar on a terminal in %.1f s: %r" %
          (elapsed, drawn[:200]))
    check(drawn.endswith("\r"), "the bar is not cleared at the end: %r" % drawn[-80:])
    print("  progress run: %.2f s on a terminal, %d bytes drawn" % (elapsed, len(drawn)))
    rc, drawn, elapsed = run_on_tty(d, args)
    check(rc == 0, "progress run failed: %r" % drawn)
    if elapsed < 0.9:
        check(drawn == "", "a bar drawn for a run of %.2f s: %r" % (elapsed, drawn[:200]))
    check(drawn == "" or drawn.endswith("\r"), "the bar is not cleared at the end: %r" % drawn[-80:])
    rc, drawn, _ = run_on_tty(d, args + ["--progress-after", "0", "--quiet"])
    check(rc == 0 and drawn == "", "--quiet drew on the terminal: %r" % drawn[:200])


def digest(d, name, remove=False):
    """SHA-256 of a file (read in 16 MiB pieces); `remove` deletes it afterwards, so that the
    256 MiB case holds at most two large files on disk at a time."""
    h = hashlib.sha256()
    path = os.path.join(d, name)
    with open(path, "rb") as f:
        for piece in iter(lambda: f.read(1 << 24), b""):
            h.update(piece)
    if remove:
        os.remove(path)
    return h.hexdigest()


@case("ooc_big")
def t_256mib_under_32mib(d):
    n = 8192
    need = 2 * n * n * 4 + (64 << 20)  # the input and one output at a time, and some room
    free = shutil.disk_usage(d).free
    if not check(free >= need, "256 MiB case: %s has %d MiB free, needs %d MiB (set LW_TEST_TMPDIR "
                 "to a roomier folder)" % (d, free >> 20, need >> 20)):
        return
    m = np.lib.format.open_memmap(os.path.join(d, "big.npy"), mode="w+", dtype=np.float32, shape=(n, n))
    for i in range(0, n, 1024):
        m[i:i + 1024] = RNG.standard_normal((1024, n), dtype=np.float32)
    del m
    expect_ok(d, ["forward", "big.npy", "ref.npy", "-w", "cdf97", "-l", "3"])
    ref = digest(d, "ref.npy", remove=True)
    progress_bar(d)
    if os.path.exists(os.path.join(d, "p.npy")):
        os.remove(os.path.join(d, "p.npy"))
    rc, kb = peak_rss_kb(d, ["forward", "big.npy", "s.npy", "-w", "cdf97", "-l", "3", "--memory-limit", "32M"])
    check(rc == 0, "256 MiB forward under 32M failed")
    check(digest(d, "s.npy") == ref, "256 MiB forward out of core differs from in memory")
    # the limit bounds the transform's buffers; the program itself takes a few MiB
    rss_check(kb < (32 + 12) * 1024, "256 MiB forward under 32M: peak RSS %d KiB" % kb)
    print("  256 MiB forward, --memory-limit 32M: peak RSS %.1f MiB" % (kb / 1024.0))
    os.remove(os.path.join(d, "big.npy"))
    rc, kb = peak_rss_kb(d, ["inverse", "s.npy", "back.npy", "--memory-limit", "32M"])
    check(rc == 0, "256 MiB inverse under 32M failed")
    rss_check(kb < (32 + 12) * 1024, "256 MiB inverse under 32M: peak RSS %d KiB" % kb)
    back = digest(d, "back.npy", remove=True)
    # s.npy equals the in-memory forward bit for bit (checked above), so its in-memory inverse
    # is the reference for the streamed one
    expect_ok(d, ["inverse", "s.npy", "back_ref.npy"])
    check(digest(d, "back_ref.npy", remove=True) == back, "256 MiB inverse out of core differs from in memory")


def no_space(limit):
    """preexec_fn: files may not grow past `limit` bytes, and writing past it fails with EFBIG
    instead of killing the process (as a full disk would fail the write)."""
    def f():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return f


@case("ooc_bad")
def t_bad(d):
    save(d, "x.npy", RNG.standard_normal((400, 300)).astype(np.float32))
    # too small for the halos: one clear error, nothing written
    expect_fail(d, ["forward", "x.npy", "o.npy", "-w", "dd137", "--memory-limit", "8K"],
                ["too small", "halo"], codes=(1,))
    expect_fail(d, ["forward", "x.npy", "o.npy", "--memory-limit", "12Q"], ["memory-limit"], codes=(2,))
    expect_fail(d, ["forward", "x.npy", "o.npy", "--memory-limit", "0"], ["memory-limit"], codes=(2,))
    for bad in ("-1", "x", "", "1e9", "nan"):
        expect_fail(d, ["forward", "x.npy", "o.npy", "--progress-after", bad], ["progress-after"], codes=(2,))
    # a full disk: nothing left, one message
    before = set(os.listdir(d))
    p = subprocess.run([CLI, "forward", "x.npy", "o.npy", "--memory-limit", "200K", "-l", "2"], cwd=d,
                       capture_output=True, text=True, preexec_fn=no_space(100000))
    check(p.returncode == 1, "full disk: exit %d (%r)" % (p.returncode, p.stderr))
    check(len(p.stderr.splitlines()) == 1 and "o.npy" in p.stderr, "full disk: message %r" % p.stderr)
    check(set(os.listdir(d)) == before, "full disk: left %s" % sorted(set(os.listdir(d)) - before))
    # an unwritable directory (only meaningful when not root: root writes anywhere)
    os.mkdir(os.path.join(d, "ro"))
    os.chmod(os.path.join(d, "ro"), 0o555)
    if os.geteuid() != 0:
        expect_fail(d, ["forward", "x.npy", "ro/o.npy", "--memory-limit", "200K"], ["ro/o.npy"], codes=(1,))
    os.chmod(os.path.join(d, "ro"), 0o755)
    # a truncated .npy is refused before any output exists
    raw = open(os.path.join(d, "x.npy"), "rb").read()
    open(os.path.join(d, "t.npy"), "wb").write(raw[:len(raw) - 1000])
    expect_fail(d, ["forward", "t.npy", "o.npy", "--memory-limit", "200K"], ["truncated"], codes=(1,))


# ------------------------------------------------------------------ video ----

def y4m_bytes(planes, w, h, colour="420jpeg", frame_tags=True):
    head = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C%s XYSCSS=TEST\n" % (w, h, colour.encode())
    parts = [head]
    for t in range(planes[0].shape[0]):
        parts.append(b"FRAME Ixyz\n" if frame_tags and t % 3 == 1 else b"FRAME\n")
        for p in planes:
            parts.append(p[t].tobytes())
    return b"".join(parts)


def run_stdin(d, args, data):
    p = subprocess.run([CLI] + args, cwd=d, input=data, capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode("utf-8", "replace")


@case("video")
def t_video_equals_stacked(d):
    T, H, W = 200, 24, 32
    Y = RNG.integers(0, 256, (T, H, W), dtype=np.uint8)
    U = RNG.integers(0, 256, (T, H // 2, W // 2), dtype=np.uint8)
    V = RNG.integers(0, 256, (T, H // 2, W // 2), dtype=np.uint8)
    data = y4m_bytes([Y, U, V], W, H)
    open(os.path.join(d, "clip.y4m"), "wb").write(data)
    save(d, "Y.npy", Y)
    save(d, "U.npy", U)
    for w, lev in [("d4", "3"), ("cdf97", "2"), ("haar", "max")]:
        expect_ok(d, ["forward", "Y.npy", "ref.npy", "-w", w, "-l", lev])
        streamed(d, ["forward", "clip.y4m", "v.npy", "-w", w, "-l", lev, "--memory-limit", "200K"])
        check(same_file(d, "ref.npy", "v.npy"), "y4m file %s -l %s differs from the stacked luma" % (w, lev))
        rc, out, err = run_stdin(d, ["forward", "-", "s.npy", "-w", w, "-l", lev, "--memory-limit", "200K"], data)
        check(rc == 0 and err == "", "y4m stdin: %r" % err)
        check(same_file(d, "ref.npy", "s.npy"), "y4m stdin %s -l %s differs" % (w, lev))
    meta = json.load(open(os.path.join(d, "v.npy.json")))
    check(meta["source_dtype"] == "uint8" and meta["source_shape"] == [T, H, W], "video sidecar %r" % meta)
    # all planes: one file each
    expect_ok(d, ["forward", "clip.y4m", "p.npy", "--planes", "all", "-w", "d4", "-l", "2",
                  "--memory-limit", "200K"])
    expect_ok(d, ["forward", "U.npy", "refu.npy", "-w", "d4", "-l", "2"])
    check(same_file(d, "refu.npy", "p.u.npy"), "--planes all: the U plane differs")
    check(load(d, "p.v.npy").shape == (T, H // 2, W // 2) and load(d, "p.y.npy").shape == (T, H, W),
          "--planes all: shapes")
    # raw frames on stdin
    expect_ok(d, ["forward", "Y.npy", "ref.npy", "-w", "cdf53", "-l", "2"])
    rc, out, err = run_stdin(d, ["forward", "-", "r.npy", "--shape", "24x32", "-w", "cdf53", "-l", "2",
                                 "--memory-limit", "200K"], Y.tobytes())
    check(rc == 0 and same_file(d, "ref.npy", "r.npy"), "raw frames on stdin: %r" % err)


@case("video")
def t_video_file_in_place(d):
    """A .y4m file whose frames carry no parameters is read in place (no scratch copy of the
    frames); with parameters on some frames it is spooled; both equal the stacked transform."""
    T, H, W = 120, 24, 32
    Y = RNG.integers(0, 256, (T, H, W), dtype=np.uint8)
    U = RNG.integers(0, 256, (T, H // 2, W // 2), dtype=np.uint8)
    V = RNG.integers(0, 256, (T, H // 2, W // 2), dtype=np.uint8)
    open(os.path.join(d, "bare.y4m"), "wb").write(y4m_bytes([Y, U, V], W, H, frame_tags=False))
    open(os.path.join(d, "tags.y4m"), "wb").write(y4m_bytes([Y, U, V], W, H, frame_tags=True))
    save(d, "Y.npy", Y)
    save(d, "V.npy", V)
    for w, lev in [("cdf97", "3"), ("dd137", "2"), ("haar", "max")]:
        expect_ok(d, ["forward", "Y.npy", "ref.npy", "-w", w, "-l", lev])
        out = streamed(d, ["forward", "bare.y4m", "b.npy", "-w", w, "-l", lev, "--memory-limit", "200K"])
        check("read from the file in place" in out, "bare y4m not read in place: %r" % out)
        check(same_file(d, "ref.npy", "b.npy"), "y4m read in place %s -l %s differs from the stacked luma" % (w, lev))
        out = streamed(d, ["forward", "tags.y4m", "t.npy", "-w", w, "-l", lev, "--memory-limit", "200K"])
        check("spooled" in out, "y4m with frame parameters not spooled: %r" % out)
        check(same_file(d, "ref.npy", "t.npy"), "spooled y4m %s -l %s differs" % (w, lev))
    # every plane in place (each at its own offset in the frame)
    expect_ok(d, ["forward", "V.npy", "refv.npy", "-w", "cdf53", "-l", "2", "--integer"])
    expect_ok(d, ["forward", "bare.y4m", "p.npy", "--planes", "all", "-w", "cdf53", "-l", "2", "--integer",
                  "--memory-limit", "200K"])
    check(same_file(d, "refv.npy", "p.v.npy"), "--planes all read in place: the V plane differs")
    # a file cut inside a frame does not divide into frames: the spooled path names the frame
    data = y4m_bytes([Y, U, V], W, H, frame_tags=False)
    open(os.path.join(d, "cut.y4m"), "wb").write(data[:-50])
    expect_fail(d, ["forward", "cut.y4m", "o.npy"], ["truncated"], codes=(1,))
    check(not os.path.exists(os.path.join(d, "o.npy")), "a failed video run left its output")


@case("video")
def t_video_memory_bounded(d):
    H, W = 48, 64
    peaks = []
    # both counts well past the point where every level's region outgrows the 1M limit
    # (below it the coarser levels run in memory, and the peak still rises with T)
    for T in (1200, 2400):
        Y = RNG.integers(0, 256, (T, H, W), dtype=np.uint8)
        open(os.path.join(d, "c%d.y4m" % T), "wb").write(y4m_bytes([Y], W, H, "mono", frame_tags=False))
        rc, kb = peak_rss_kb(d, ["forward", "c%d.y4m" % T, "o%d.npy" % T, "-w", "d4", "-l", "3",
                                 "--memory-limit", "1M"])
        check(rc == 0, "mono y4m %d frames failed" % T)
        peaks.append(kb)
    # 1200 more frames of float32 take 14 MiB more in memory; the run must not grow with T
    rss_check(peaks[1] - peaks[0] < 2048, "peak RSS grows with the frame count: %r KiB" % peaks)
    print("  peak RSS, 1200 and 2400 frames under 1M: %d and %d KiB" % tuple(peaks))


@case("video")
def t_video_bad(d):
    T, H, W = 20, 16, 16
    Y = RNG.integers(0, 256, (T, H, W), dtype=np.uint8)
    C = RNG.integers(0, 256, (T, H // 2, W // 2), dtype=np.uint8)
    good = y4m_bytes([Y, C, C], W, H)
    open(os.path.join(d, "trunc.y4m"), "wb").write(good[:-100])
    expect_fail(d, ["forward", "trunc.y4m", "o.npy"], ["truncated", "frame 20"], codes=(1,))
    # the frame size changes: a second stream header in the middle
    Y2 = RNG.integers(0, 256, (5, 8, 8), dtype=np.uint8)
    C2 = RNG.integers(0, 256, (5, 4, 4), dtype=np.uint8)
    open(os.path.join(d, "change.y4m"), "wb").write(good + y4m_bytes([Y2, C2, C2], 8, 8))
    expect_fail(d, ["forward", "change.y4m", "o.npy"], ["frame 21", "header"], codes=(1,))
    for head, words in [(b"YUV4MPEG2 W16 H16 C420p10\n", ["420p10"]), (b"YUV4MPEG2 W16\n", ["H"]),
                        (b"YUV4MPEG2 W16 H16 Q3\n", ["Q3"]), (b"MPEG2 W16 H16\n", ["YUV4MPEG2"]),
                        (b"YUV4MPEG2 W16 H16\nFRAMX\n", ["FRAME"])]:
        open(os.path.join(d, "h.y4m"), "wb").write(head)
        expect_fail(d, ["forward", "h.y4m", "o.npy"], words, codes=(1,))
    open(os.path.join(d, "empty.y4m"), "wb").write(b"YUV4MPEG2 W16 H16 C420jpeg\n")
    expect_fail(d, ["forward", "empty.y4m", "o.npy"], ["no frames"], codes=(1,))
    before = set(os.listdir(d))
    rc, out, err = run_stdin(d, ["forward", "-", "o.npy"], good[:-7])
    check(rc == 1 and "truncated" in err and len(err.splitlines()) == 1, "truncated stdin: %d %r" % (rc, err))
    rc, out, err = run_stdin(d, ["forward", "-", "o.npy", "--shape", "16x16"], Y.tobytes()[:-3])
    check(rc == 1 and "truncated" in err, "truncated raw frames: %d %r" % (rc, err))
    check(set(os.listdir(d)) == before, "failed video runs left %s" % sorted(set(os.listdir(d)) - before))
    # usage
    open(os.path.join(d, "ok.y4m"), "wb").write(good)
    expect_fail(d, ["inverse", "ok.y4m", "o.npy"], ["forward"], codes=(2,))
    expect_fail(d, ["forward", "ok.y4m", "o.png"], ["npy"], codes=(2,))
    expect_fail(d, ["forward", "ok.y4m", "o.npy", "--shape", "16x16"], ["--shape"], codes=(2,))
    expect_fail(d, ["forward", "ok.y4m", "o.npy", "-l", "9"], ["level"], codes=(1,))
    save(d, "a.npy", Y)
    expect_fail(d, ["forward", "a.npy", "o.npy", "--planes", "all"], ["--planes"], codes=(2,))


# ------------------------------------------------------------------ cuda ----

def cuda_available(d):
    rc, out, _ = run(d, ["info"])
    return rc == 0 and any(l.split()[:2] == ["cuda", "available"] for l in out.splitlines())


# the CUDA comparisons: 2-D pyramid, periodic interleaved d4, 3-D dd137, integer cdf53
CUDA_CASES = [((1500, 700), ["-w", "cdf97", "-l", "3"], np.float32),
              ((1500, 700), ["-w", "d4", "-l", "2", "-m", "periodic", "--layout", "interleaved"], np.float32),
              ((300, 64, 48), ["-w", "dd137", "-l", "2"], np.float32),
              ((1500, 700), ["--integer", "-w", "cdf53", "-l", "4"], np.int32)]


def save_random(d, shape, dt):
    """x.npy: normal floats, or integers in [-999, 999)."""
    x = RNG.standard_normal(shape).astype(dt) if dt != np.int32 else RNG.integers(-999, 999, shape).astype(dt)
    save(d, "x.npy", x)
    return x


@case("ooc_bad")
def t_device_limit_options(d):
    """--device-memory-limit: a size like --memory-limit; ignored on the cpu backend (the result is
    the one without it); a bad size is a usage error."""
    x = RNG.standard_normal((64, 48)).astype(np.float32)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "a.npy", "-b", "cpu"])
    expect_ok(d, ["forward", "x.npy", "b.npy", "-b", "cpu", "--device-memory-limit", "1M"])
    check(same_file(d, "a.npy", "b.npy"), "--device-memory-limit changed a cpu result")
    for bad in ["12Q", "-3", ""]:
        expect_fail(d, ["forward", "x.npy", "c.npy", "--device-memory-limit", bad], ["device-memory-limit"],
                    codes=(2,))


@case("ooc_cuda")
def t_cuda_budget(d):
    """Arrays larger than the device budget stream through the device (--device-memory-limit):
    equal to the in-core CUDA run (float within 1e-5 of max |x|, integer bit for bit)."""
    if not cuda_available(d):
        print("SKIP: no CUDA device (or built without CUDA): the device-budget comparison needs one")
        sys.exit(77)
    for shape, opts, dt in CUDA_CASES:
        save_random(d, shape, dt)
        # less than the in-core run needs; room for nine slab buffers of a few rows with their halos
        # (the 3-D case's planes are 12 KiB, dd137's halo 8 planes a level)
        dl = "6M" if len(shape) == 3 else "512K"
        for direction in ["forward", "inverse"]:
            src = "x.npy" if direction == "forward" else "ref_f.npy"
            o = opts if direction == "forward" else []
            expect_ok(d, [direction, src, "ref.npy", "-b", "cuda"] + o)
            expect_ok(d, [direction, src, "s.npy", "-b", "cuda", "--device-memory-limit", dl] + o)
            ref, got = load(d, "ref.npy"), load(d, "s.npy")
            if dt == np.int32:
                check(np.array_equal(ref, got), "cuda budget integer %s %s: not bit-identical" % (direction, opts))
            else:
                scale = float(np.max(np.abs(ref))) or 1.0
                err = float(np.max(np.abs(ref.astype(np.float64) - got))) / scale
                check(err <= 1e-5, "cuda budget %s %s: %.3g of max |x| from in core" % (direction, opts, err))
            if direction == "forward":
                os.replace(os.path.join(d, "ref.npy"), os.path.join(d, "ref_f.npy"))
                os.replace(os.path.join(d, "ref.npy.json"), os.path.join(d, "ref_f.npy.json"))


@case("ooc_cuda")
def t_cuda_slabs(d):
    """The slabs through the CUDA backend's host-pointer plans: equal to the in-memory CUDA run
    (integer: bit for bit; float: bit for bit where the same kernels run, else within 1e-6 of
    max |x|, and the report says which)."""
    if not cuda_available(d):
        print("SKIP: no CUDA device (or built without CUDA): the out-of-core CUDA comparison needs one")
        sys.exit(77)
    exact = 0
    cases = 0
    for shape, opts, dt in CUDA_CASES:
        save_random(d, shape, dt)
        lim = limit_for(shape, 4)
        for direction in ["forward", "inverse"]:
            src = "x.npy" if direction == "forward" else "ref_f.npy"
            expect_ok(d, [direction, src, "ref.npy", "-b", "cuda"] + (opts if direction == "forward" else []))
            streamed(d, [direction, src, "s.npy", "-b", "cuda", "--memory-limit", lim] +
                     (opts if direction == "forward" else []))
            ref, got = load(d, "ref.npy"), load(d, "s.npy")
            cases += 1
            if np.array_equal(ref, got):
                exact += 1
            else:
                scale = float(np.max(np.abs(ref))) or 1.0
                err = float(np.max(np.abs(ref.astype(np.float64) - got))) / scale
                check(dt != np.int32, "cuda integer %s %s: not bit-identical" % (direction, opts))
                check(err <= 1e-6, "cuda %s %s %s: relative error %.3g" % (direction, shape, opts, err))
                print("  cuda %s %s %s: not bit-identical, max error %.3g of max |x|" % (direction, shape,
                                                                                           " ".join(opts), err))
            if direction == "forward":
                os.replace(os.path.join(d, "ref.npy"), os.path.join(d, "ref_f.npy"))
                os.replace(os.path.join(d, "ref.npy.json"), os.path.join(d, "ref_f.npy.json"))
    print("  cuda out of core: %d of %d runs bit-identical to the in-memory cuda run" % (exact, cases))
    # video through cuda
    T, H, W = 64, 48, 64
    Y = RNG.integers(0, 256, (T, H, W), dtype=np.uint8)
    open(os.path.join(d, "c.y4m"), "wb").write(y4m_bytes([Y], W, H, "mono"))
    save(d, "Y.npy", Y)
    expect_ok(d, ["forward", "Y.npy", "ref.npy", "-b", "cuda", "-w", "d4", "-l", "3"])
    streamed(d, ["forward", "c.y4m", "v.npy", "-b", "cuda", "-w", "d4", "-l", "3", "--memory-limit", "400K"])
    ref, got = load(d, "ref.npy"), load(d, "v.npy")
    err = float(np.max(np.abs(ref.astype(np.float64) - got))) / float(np.max(np.abs(ref)))
    check(err <= 1e-6, "cuda video: relative error %.3g" % err)
