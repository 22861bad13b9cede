#!/usr/bin/env python3
"""Tests of the `liftwave` command-line tool (README, section "Command line").

Usage: test_cli.py LIFTWAVE_EXE SOURCE_DIR [GROUP ...]

Groups: usage, badfiles, options, roundtrip, dtypes, images, raw, view (here) and
meta, safety, exitcodes (test_cli_meta.py).
Every failing command must exit 1 or 2 with exactly one line
"liftwave: <message>" on stderr naming the problem, and leave no output
(nor temporary) file behind; successful commands print nothing on stderr.

Exit status: 0 pass, 1 failure, 77 NumPy missing (ctest SKIP_RETURN_CODE).
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_harness import (INTEGER_WAVELETS, RNG, SRC, WAVELETS, case, check, run_groups,  # noqa: E402
                         expect_fail, expect_ok, have_png, load, np, run, save, test_image, view_ext, write_bytes)
from cli_files import npy_bytes, png_bytes, pnm_bytes, read_png, read_pnm, write_png, write_pnm  # noqa: E402
import test_cli_meta  # noqa: E402,F401  (registers the groups meta, safety, exitcodes)
import test_cli_outofcore  # noqa: E402,F401  (registers ooc_* and video)


# ---------------------------------------------------------------- usage ----

@case("usage")
def t_help(d):
    for args in (["--help"], ["-h"], ["help"], ["help", "forward"], ["help", "view"], ["forward", "--help"],
                 ["inverse", "-h"], ["view", "--help"], ["info", "--help"]):
        out = expect_ok(d, args)
        check("usage" in out.lower(), "liftwave %s: no usage text" % " ".join(args))
    out = expect_ok(d, ["--version"])
    check(out.startswith("liftwave "), "--version prints %r" % out)
    out = expect_ok(d, ["info"])
    for w in ("liftwave", "backends", "cpu", "cuda", "CUDA devices", "PNG support"):
        check(w in out, "info lacks %r" % w)
    fwd = expect_ok(d, ["forward", "--help"])
    for opt in ("--wavelet", "--levels", "--mode", "--layout", "--integer", "--axes", "--backend", "--shape",
                "--dtype"):
        check(opt in fwd, "forward --help lacks %s" % opt)


@case("usage")
def t_usage_errors(d):
    save(d, "x.npy", np.zeros((8, 8), np.float32))
    expect_fail(d, [], ["missing command"], codes=(2,))
    expect_fail(d, ["frobnicate"], ["unknown command", "frobnicate"], codes=(2,))
    expect_fail(d, ["--frobnicate"], ["--frobnicate"], codes=(2,))
    expect_fail(d, ["help", "nope"], ["nope"], codes=(2,))
    expect_fail(d, ["forward"], ["forward"], codes=(2,))
    expect_fail(d, ["forward", "x.npy"], ["forward"], codes=(2,))
    expect_fail(d, ["forward", "x.npy", "y.npy", "z.npy"], ["z.npy"], codes=(2,))
    expect_fail(d, ["inverse", "x.npy"], ["inverse"], codes=(2,))
    expect_fail(d, ["view", "x.npy"], ["view"], codes=(2,))
    expect_fail(d, ["info", "extra"], ["extra"], codes=(2,))
    expect_fail(d, ["--version", "extra"], ["extra"], codes=(2,))


@case("usage")
def t_bad_options(d):
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    f = ["forward", "x.npy", "y.npy"]
    expect_fail(d, f + ["--frobnicate"], ["--frobnicate"], codes=(2,))
    expect_fail(d, f + ["-z"], ["-z"], codes=(2,))
    expect_fail(d, f + ["-w", "db99"], ["wavelet", "db99"], codes=(2,))
    expect_fail(d, f + ["--wavelet=bior4.4"], ["wavelet", "bior4.4"], codes=(2,))
    expect_fail(d, f + ["-m", "zero"], ["mode", "zero"], codes=(2,))
    expect_fail(d, f + ["--mode", "periodization"], ["mode", "periodization"], codes=(2,))
    expect_fail(d, f + ["--layout", "packed"], ["layout", "packed"], codes=(2,))
    expect_fail(d, f + ["-b", "gpu"], ["backend", "gpu"], codes=(2,))
    expect_fail(d, f + ["--scheme", "nosuch"], ["scheme", "nosuch"], codes=(2,))
    expect_fail(d, f + ["-b", "cpu", "--scheme", "local"], ["local"], codes=(2,))
    rc, out, err = run(d, f + ["-b", "cpu", "--scheme", "nd"])  # an engine's name forces that engine
    check(rc == 0 and os.path.exists(os.path.join(d, "y.npy")), "forward -b cpu --scheme nd: exit %d %r" % (rc, err))
    if rc == 0:
        os.remove(os.path.join(d, "y.npy"))
    expect_fail(d, f + ["--backend", "opencl"], ["backend", "opencl"], codes=(2,))
    for opt in ("-w", "--wavelet", "-l", "--levels", "-m", "--mode", "--layout", "--axes", "-b", "--backend",
                "--shape", "--dtype", "--scheme"):
        expect_fail(d, f + [opt], [opt.lstrip("-") if opt.startswith("--") else "needs a value"], codes=(2,))
    for bad in ("abc", "-1", "3.5", "", "1e3", "max2"):
        expect_fail(d, f + ["-l", bad], ["level"], codes=(2,))
    expect_fail(d, f + ["--integer=yes"], ["--integer"], codes=(2,))
    expect_fail(d, f + ["--stretch", "robust"], ["--stretch"], codes=(2,))
    expect_fail(d, f + ["--axes", "a"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--axes", "0,,1"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--axes", "0,1,2,3"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--axes", "9"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--axes", "5"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--axes", "2"], ["axis 2"], codes=(1,))
    expect_fail(d, f + ["--axes", "0,0"], ["twice"], codes=(2,))
    expect_fail(d, f + ["--shape", "16x16"], ["--shape"], codes=(2,))
    expect_fail(d, f + ["--dtype", "float32"], ["--dtype"], codes=(2,))
    expect_fail(d, ["view", "x.npy", "v." + view_ext(), "--stretch", "loud"], ["stretch", "loud"], codes=(2,))


@case("usage")
def t_bad_paths(d):
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    expect_fail(d, ["forward", "x.npy", "nodir/y.npy"], ["nodir"], codes=(1,))
    check(not os.path.exists(os.path.join(d, "nodir")), "nonexistent output directory was created")
    expect_fail(d, ["forward", "x.npy", "x.npy/y.npy"], ["x.npy"], codes=(1,))
    expect_fail(d, ["forward", "x.npy", "y.txt"], ["y.txt", "format"], codes=(2,))
    expect_fail(d, ["forward", "x.npy", "y"], ["format"], codes=(2,))
    expect_fail(d, ["forward", "x.txt", "y.npy"], ["x.txt", "format"], codes=(2,))
    os.mkdir(os.path.join(d, "sub.npy"))
    expect_fail(d, ["forward", "x.npy", "sub.npy"], ["sub.npy", "directory"], codes=(1,))
    expect_fail(d, ["forward", "sub.npy", "y.npy"], ["sub.npy", "directory"], codes=(1,))
    expect_fail(d, ["view", "x.npy", "v.npy"], ["v.npy"], codes=(2,))
    # very long paths: the middle of the path is elided, the reason stays
    seg = "d" * 99 + "/"
    deep = seg * 49 + "y.npy"  # ~4900 characters: beyond PATH_MAX for the directory
    rc, err = expect_fail(d, ["forward", "x.npy", deep], ["path too long", "...", "/y.npy"], codes=(1,))
    check(len(err) < 700, "message for a long path is %d characters" % len(err))
    rc, err = expect_fail(d, ["forward", "x.npy", "nodir/" + seg * 30 + "y.npy"], ["does not exist", "..."],
                          codes=(1,))
    check(len(err) < 700, "message for a long path is %d characters" % len(err))
    rc, err = expect_fail(d, ["forward", deep, "y.npy"], ["file name too long", "..."], codes=(1,))
    check(len(err) < 700, "message for a long input path is %d characters" % len(err))
    expect_fail(d, ["forward", "x.npy", seg * 49 + "y.txt"], ["format", "/y.txt'"], codes=(2,))
    # a long path that exists: the reason from the reader survives
    long_dir = os.path.join(d, *(["e" * 200] * 8))
    os.makedirs(long_dir)
    write_bytes(long_dir, "bad.npy", b"\x93NUMPY\x01\x00")
    rel = os.path.relpath(os.path.join(long_dir, "bad.npy"), d)
    rc, err = expect_fail(d, ["forward", rel, "y.npy"], ["...", "/bad.npy: "], codes=(1,))
    check("truncated" in err.lower() or "header" in err.lower(), "long-path read error lost its reason: %r" % err)
    expect_ok(d, ["forward", "x.npy", os.path.join(os.path.relpath(long_dir, d), "ok.npy")])
    rc, out, _ = run(d, ["info"])
    if "cuda     not available" in out:
        expect_fail(d, ["forward", "x.npy", "y.npy", "-b", "cuda"], ["cuda"], codes=(1,))


# ------------------------------------------------------------- bad files ----

@case("badfiles")
def t_missing_unreadable(d):
    expect_fail(d, ["forward", "nope.npy", "y.npy"], ["nope.npy"], codes=(1,))
    expect_fail(d, ["inverse", "nope.pgm", "y.npy"], ["nope.pgm"], codes=(1,))
    expect_fail(d, ["view", "nope.npy", "y." + view_ext()], ["nope.npy"], codes=(1,))
    # a missing input is named before any problem with the output
    expect_fail(d, ["view", "nope.npy", "y.png"], ["nope.npy", "no such file"], codes=(1,))
    expect_fail(d, ["forward", "nope.npy", "nodir/y.npy"], ["nope.npy", "no such file"], codes=(1,))
    save(d, "locked.npy", np.zeros((4, 4), np.float32))
    os.chmod(os.path.join(d, "locked.npy"), 0)
    if not os.access(os.path.join(d, "locked.npy"), os.R_OK):  # (root reads anything)
        expect_fail(d, ["forward", "locked.npy", "y.npy"], ["locked.npy"], codes=(1,))
    os.chmod(os.path.join(d, "locked.npy"), 0o644)
    for ext in ("npy", "pgm", "ppm", "png", "raw"):
        write_bytes(d, "empty." + ext, b"")
        extra = ["--shape", "4x4", "--dtype", "uint8"] if ext == "raw" else []
        if ext == "png" and not have_png():
            continue
        expect_fail(d, ["forward", "empty." + ext, "y.npy"] + extra, ["empty." + ext], codes=(1,))


@case("badfiles")
def t_bad_npy(d):
    good = RNG.standard_normal((10, 12)).astype(np.float32)
    save(d, "good.npy", good)
    full = open(os.path.join(d, "good.npy"), "rb").read()
    bad = {
        "trunc_data.npy": full[:-7],
        "trunc_header.npy": full[:40],
        "magic_only.npy": full[:6],
        "bad_magic.npy": b"\x93NUMPX" + full[6:],
        "bad_version.npy": full[:6] + b"\x09\x00" + full[8:],
        "lying_shape.npy": npy_bytes("<f4", (100, 100), good.tobytes()),
        "lying_dtype.npy": npy_bytes("<f8", (10, 12), good.tobytes()),
        "extra_data.npy": npy_bytes("<f4", (10, 12), good.tobytes() + b"\0" * 8),
        "complex.npy": npy_bytes("<c8", (10, 12), good.tobytes() * 2),
        "int64.npy": npy_bytes("<i8", (10, 12), good.tobytes() * 2),
        "object.npy": npy_bytes("|O", (2,), b"\0" * 16),
        "bigendian.npy": npy_bytes(">f4", (10, 12), good.byteswap().tobytes()),
        "fortran.npy": npy_bytes("<f4", (10, 12), good.tobytes(), fortran=True),
        "huge_shape.npy": npy_bytes("<f4", (2 ** 40, 2 ** 40), good.tobytes()),
        "neg_shape.npy": npy_bytes("<f4", (-10, 12), good.tobytes()),
        "zero_shape.npy": npy_bytes("<f4", (0, 12), b""),
        "rank5.npy": npy_bytes("<f4", (1, 1, 2, 5, 12), good.tobytes()),
        "garbage_header.npy": npy_bytes("", (), good.tobytes(), header="{'descr': <f4 shape: oops"),
        "text.npy": b"this is not a numpy file at all\n",
    }
    for name, data in bad.items():
        write_bytes(d, name, data)
        expect_fail(d, ["forward", name, "out.npy"], [name], codes=(1,))
    expect_fail(d, ["inverse", "trunc_data.npy", "out.npy"], ["trunc_data.npy"], codes=(1,))
    expect_fail(d, ["view", "lying_shape.npy", "out." + view_ext()], ["lying_shape.npy"], codes=(1,))


@case("badfiles")
def t_bad_images(d):
    img = test_image(20, 30)
    pgm = pnm_bytes(img)
    bad = {
        "trunc.pgm": pgm[:-10],
        "header_only.pgm": pgm[:pgm.index(b"255\n") + 4],
        "lying_size.pgm": b"P5\n300 200\n255\n" + img.tobytes(),
        "lying_depth.pgm": b"P5\n30 20\n65535\n" + img.tobytes(),
        "bad_magic.pgm": b"P9\n30 20\n255\n" + img.tobytes(),
        "garbage.pgm": b"P5\nthirty twenty\n255\n" + img.tobytes(),
        "zero_size.pgm": b"P5\n0 20\n255\n",
        "bad_maxval.pgm": b"P5\n30 20\n0\n" + img.tobytes(),
        "huge.pgm": b"P5\n99999999 99999999\n255\n" + img.tobytes(),
        "trunc.ppm": pnm_bytes(test_image(20, 30, channels=3))[:-1],
        "text.ppm": b"hello\n",
        "p2_short.pgm": b"P2 3 3 255\n123456789",
    }
    if have_png():
        png = png_bytes(img)
        bad.update({
            "trunc.png": png[:len(png) // 2],
            "sig_only.png": png[:8],
            "bad_sig.png": b"\x89PNX" + png[4:],
            "bad_crc.png": png[:29] + bytes([png[29] ^ 0xFF]) + png[30:],
            "text.png": b"not a png\n",
            "npy_named.png": npy_bytes("<f4", (2, 2), b"\0" * 16),
        })
    for name, data in bad.items():
        write_bytes(d, name, data)
        expect_fail(d, ["forward", name, "out.npy"], [name], codes=(1,))
        expect_fail(d, ["forward", name, "out.png" if have_png() else "out.pgm"], [name], codes=(1,))
    expect_fail(d, ["forward", "p2_short.pgm", "out.npy"],
                ["9 samples need at least 17 bytes of raster text, the file has 9"], codes=(1,))


@case("badfiles")
def t_bad_raw(d):
    data = RNG.standard_normal((6, 8)).astype(np.float32)
    write_bytes(d, "x.raw", data.tobytes())
    expect_fail(d, ["forward", "x.raw", "y.npy"], ["--shape"], codes=(2,))
    expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", "6x8"], ["--dtype"], codes=(2,))
    expect_fail(d, ["forward", "x.raw", "y.npy", "--dtype", "float32"], ["--shape"], codes=(2,))
    expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", "6x9", "--dtype", "float32"], ["x.raw", "size"],
                codes=(1,))
    expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", "6x8", "--dtype", "float64"], ["x.raw"], codes=(1,))
    expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", "6x8x1x1x1", "--dtype", "uint8"], ["--shape"],
                codes=(2,))
    for shape in ("6xx8", "six", "0x8", "-6x8", "6x8x", ""):
        expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", shape, "--dtype", "float32"], ["--shape"],
                    codes=(2,))
    for dt in ("float16", "int64", "f4", ""):
        expect_fail(d, ["forward", "x.raw", "y.npy", "--shape", "6x8", "--dtype", dt], ["--dtype"], codes=(2,))


# -------------------------------------------------- transform option errors ----

@case("options")
def t_levels(d):
    save(d, "x.npy", RNG.standard_normal((16, 24)).astype(np.float32))
    expect_fail(d, ["forward", "x.npy", "y.npy", "-l", "99"], ["99", "level"], codes=(1,))
    expect_fail(d, ["forward", "x.npy", "y.npy", "-l", "5"], ["level"], codes=(1,))  # 16 allows 4
    expect_fail(d, ["inverse", "x.npy", "y.npy", "-l", "99"], ["level"], codes=(1,))
    expect_fail(d, ["view", "x.npy", "y." + view_ext(), "-l", "99"], ["level"], codes=(1,))
    out = expect_ok(d, ["forward", "x.npy", "m.npy", "-l", "max", "-v"])
    check("4 levels" in out, "-l max on 16x24: %r" % out)
    expect_ok(d, ["forward", "x.npy", "y4.npy", "--levels=4"])
    check(np.array_equal(load(d, "m.npy"), load(d, "y4.npy")), "-l max != -l 4 on 16x24")
    expect_ok(d, ["forward", "x.npy", "y4b.npy", "-l4"])
    check(np.array_equal(load(d, "m.npy"), load(d, "y4b.npy")), "-l4 != --levels=4")
    expect_ok(d, ["forward", "x.npy", "y0.npy", "-l", "0"])
    check(np.array_equal(load(d, "x.npy"), load(d, "y0.npy")), "-l 0 is not the identity")
    save(d, "one.npy", np.array([[3.5]], np.float32))
    expect_ok(d, ["forward", "one.npy", "one_out.npy", "-l", "max"])
    check(np.array_equal(load(d, "one_out.npy"), load(d, "one.npy")), "1x1 array: -l max is not the identity")


@case("options")
def t_periodic_odd(d):
    save(d, "odd.npy", RNG.standard_normal((7, 8)).astype(np.float32))
    expect_fail(d, ["forward", "odd.npy", "y.npy", "-m", "periodic"], ["periodic", "7"], codes=(1,))
    save(d, "odd2.npy", RNG.standard_normal((12, 16)).astype(np.float32))  # 12 -> 6 -> 3 (odd at level 3)
    expect_fail(d, ["forward", "odd2.npy", "y.npy", "-m", "periodic", "-l", "3"], ["periodic"], codes=(1,))
    expect_fail(d, ["inverse", "odd.npy", "y.npy", "-m", "periodic", "-l", "max"], ["periodic", "7"], codes=(1,))
    expect_ok(d, ["forward", "odd2.npy", "y.npy", "-m", "periodic", "-l", "2"])
    # periodic max: as many levels as keep every length even (12 -> 6 -> 3: 2)
    out = expect_ok(d, ["forward", "odd2.npy", "m.npy", "-m", "periodic", "-l", "max", "-v"])
    check("2 levels" in out, "-l max -m periodic on 12x16: %r" % out)
    check(np.array_equal(load(d, "m.npy"), load(d, "y.npy")), "periodic -l max != -l 2 on 12x16")


@case("options")
def t_integer_errors(d):
    save(d, "i.npy", RNG.integers(0, 255, (8, 8)).astype(np.int32))
    save(d, "f.npy", RNG.standard_normal((8, 8)).astype(np.float32))
    for w in ("cdf97", "d4"):
        expect_fail(d, ["forward", "i.npy", "y.npy", "--integer", "-w", w], ["integer", w], codes=(2,))
        expect_fail(d, ["inverse", "i.npy", "y.npy", "--integer", "-w", w], ["integer", w], codes=(2,))
    expect_fail(d, ["forward", "i.npy", "y.npy", "--integer"], ["integer", "cdf97"], codes=(2,))  # default cdf97
    expect_fail(d, ["forward", "f.npy", "y.npy", "--integer", "-w", "cdf53"], ["--integer needs integer input data"],
                codes=(1,))
    save(d, "f64.npy", RNG.standard_normal((8, 8)))
    expect_fail(d, ["inverse", "f64.npy", "y.npy", "--integer", "-w", "haar"],
                ["--integer needs integer input data"], codes=(1,))


@case("options")
def t_rank_and_image_range(d):
    save(d, "r4.npy", RNG.standard_normal((2, 3, 4, 5)).astype(np.float32))
    expect_fail(d, ["forward", "r4.npy", "y.npy"], ["--axes"], codes=(1,))
    expect_ok(d, ["forward", "r4.npy", "y.npy", "--axes", "1,2,3"])
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32) * 1000)
    ext = "png" if have_png() else "pgm"
    expect_fail(d, ["forward", "x.npy", "y." + ext], ["do not fit an image", "min", "max", "liftwave view"],
                codes=(1,))
    write_bytes(d, "y." + ext, b"precious")  # an existing output survives a failure
    expect_fail(d, ["forward", "x.npy", "y." + ext], ["do not fit an image"], codes=(1,))
    expect_fail(d, ["forward", "x.npy", "y.npy", "-l", "99"], ["level"], codes=(1,))
    save(d, "nan.npy", np.full((4, 4), np.nan, np.float32))
    expect_fail(d, ["forward", "nan.npy", "z." + ext, "-l", "0"], ["do not fit an image"], codes=(1,))
    save(d, "big.npy", np.full((4, 4), 70000, np.int32))
    expect_fail(d, ["forward", "big.npy", "z." + ext, "-l", "0", "--integer", "-w", "haar"],
                ["do not fit an image", "70000"], codes=(1,))
    save(d, "r1.npy", RNG.standard_normal(16).astype(np.float32))
    expect_fail(d, ["forward", "r1.npy", "z." + ext, "-l", "0"], [], codes=(1,))


@case("options")
def t_integer_overflow(d):
    # full-range int32: the integer transforms cannot hold the results in int32
    x = RNG.integers(-2 ** 31, 2 ** 31, (16, 16), dtype=np.int64).astype(np.int32)
    save(d, "full.npy", x)
    for w in INTEGER_WAVELETS:
        for cmd in ("forward", "inverse"):
            for b in ("cpu", "cpu-ref"):
                expect_fail(d, [cmd, "full.npy", "out.npy", "-w", w, "--integer", "-l", "2", "-b", b],
                            ["overflow int32", "too large", "2 levels", w], codes=(1,))
    write_bytes(d, "out.npy", b"precious")  # an existing output survives the failure
    expect_fail(d, ["forward", "full.npy", "out.npy", "-w", "cdf53", "--integer", "-l", "2"], ["overflow"],
                codes=(1,))
    # inside the documented range (|x| < 2^24: cdf53 up to 5 levels in 2-D): exact
    y = RNG.integers(-2 ** 24 + 1, 2 ** 24, (32, 32), dtype=np.int64).astype(np.int32)
    save(d, "safe.npy", y)
    expect_ok(d, ["forward", "safe.npy", "c.npy", "-w", "cdf53", "--integer", "-l", "5"])
    expect_ok(d, ["inverse", "c.npy", "back.npy", "-w", "cdf53", "--integer", "-l", "5"])
    check(np.array_equal(load(d, "back.npy"), y), "cdf53 integer round trip of |x| < 2^24 is not exact")


@case("options")
def t_option_forms(d):
    x = RNG.standard_normal((20, 18)).astype(np.float32)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "a.npy", "-w", "cdf53", "-l", "2", "-m", "symmetric", "--layout", "mallat",
                  "-b", "cpu"])
    expect_ok(d, ["forward", "-w", "cdf53", "x.npy", "--levels=2", "b.npy", "--mode=symmetric", "--backend=cpu"])
    expect_ok(d, ["forward", "--wavelet", "cdf53", "-l2", "--", "x.npy", "c.npy"])
    expect_ok(d, ["forward", "x.npy", "r.npy", "-w", "cdf53", "-l", "2", "-b", "cpu-ref"])
    expect_ok(d, ["forward", "x.npy", "u.npy", "-w", "cdf53", "-l", "2", "-b", "auto"])
    a = load(d, "a.npy")
    for n in ("b.npy", "c.npy", "u.npy"):
        check(np.array_equal(a, load(d, n)), "option spelling changed the result (%s)" % n)
    check(np.allclose(a, load(d, "r.npy"), atol=1e-4), "cpu and cpu-ref disagree")
    out = expect_ok(d, ["forward", "x.npy", "v.npy", "-v", "-w", "haar"])
    check(len(out.splitlines()) == 1 and "haar" in out and "ms" in out, "-v output %r" % out)
    check(expect_ok(d, ["forward", "x.npy", "q.npy"]) == "", "forward prints without -v")


# ------------------------------------------------------------ round trips ----

def expected_dtype(src, integer):
    if integer:
        return np.int32
    return np.float64 if src in (np.float64, np.int32) else np.float32


def roundtrip(d, x, opts, label, integer=False):
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "c.npy"] + opts)
    expect_ok(d, ["inverse", "c.npy", "y.npy"] + opts)
    if not os.path.exists(os.path.join(d, "y.npy")):
        return
    c, y = load(d, "c.npy"), load(d, "y.npy")
    want = expected_dtype(x.dtype.type, integer)
    check(c.dtype == want and y.dtype == want, "%s: dtypes %s/%s, want %s" % (label, c.dtype, y.dtype,
                                                                              np.dtype(want)))
    check(c.shape == x.shape, "%s: coefficient shape %s" % (label, c.shape))
    if x.size > 4:
        check(not np.array_equal(c.astype(np.float64), x.astype(np.float64)), "%s: forward did nothing" % label)
    if integer:
        check(np.array_equal(y, x), "%s: integer round trip not exact" % label)
    else:
        tol = 1e-4 if want == np.float32 else 1e-10
        err = np.max(np.abs(y.astype(np.float64) - x)) / max(1.0, np.max(np.abs(x)))
        check(err < tol, "%s: round-trip error %.3g" % (label, err))


SHAPES = [(64,), (37,), (24, 40), (19, 26), (6, 10, 12), (5, 7, 9)]


@case("roundtrip")
def t_roundtrip_float(d):
    for w in WAVELETS:
        for shape in SHAPES:
            for mode in ("symmetric", "periodic"):
                if mode == "periodic" and any(n % 2 for n in shape):
                    continue
                for layout in ("mallat", "interleaved"):
                    dt = np.float32 if (len(shape) + len(w)) % 2 else np.float64
                    x = RNG.standard_normal(shape).astype(dt)
                    levels = "max" if mode == "symmetric" else "1"
                    opts = ["-w", w, "-m", mode, "--layout", layout, "-l", levels]
                    roundtrip(d, x, opts, "%s %s %s %s %s" % (w, shape, mode, layout, np.dtype(dt)))


@case("roundtrip")
def t_roundtrip_integer(d):
    for w in INTEGER_WAVELETS:
        for shape in SHAPES:
            for mode in ("symmetric", "periodic"):
                if mode == "periodic" and any(n % 2 for n in shape):
                    continue
                for layout in ("mallat", "interleaved"):
                    x = RNG.integers(-40000, 40000, shape).astype(np.int32)
                    levels = "max" if mode == "symmetric" else "1"
                    opts = ["-w", w, "-m", mode, "--layout", layout, "-l", levels, "--integer"]
                    roundtrip(d, x, opts, "integer %s %s %s %s" % (w, shape, mode, layout), integer=True)


@case("roundtrip")
def t_known_vectors(d):
    save(d, "v.npy", np.arange(1, 9, dtype=np.int32))
    expect_ok(d, ["forward", "v.npy", "c.npy", "-w", "cdf53", "--integer"])
    check(load(d, "c.npy").tolist() == [1, 3, 5, 7, 0, 0, 0, 1], "integer 5/3 of 1..8: %s" % load(d, "c.npy"))
    save(d, "v.npy", np.array([5, 3, 8, 1, 9], np.int32))
    expect_ok(d, ["forward", "v.npy", "c.npy", "-w", "cdf53", "--integer"])
    check(load(d, "c.npy").tolist() == [4, 6, 6, -3, -7], "integer 5/3 of 5,3,8,1,9: %s" % load(d, "c.npy"))
    save(d, "h.npy", np.array([1.0, 2.0, 3.0, 4.0]))
    expect_ok(d, ["forward", "h.npy", "c.npy", "-w", "haar", "-m", "periodic"])
    s = 1 / np.sqrt(2)
    check(np.allclose(load(d, "c.npy"), [3 * s, 7 * s, -s, -s], atol=1e-12), "haar of 1..4: %s" % load(d, "c.npy"))


@case("dtypes")
def t_dtype_rules(d):
    src = {np.uint8: 200, np.uint16: 60000, np.int16: 30000, np.int32: 100000, np.float32: 1, np.float64: 1}
    for dt, top in src.items():
        x = (RNG.random((12, 10)) * top).astype(dt)
        roundtrip(d, x, ["-w", "cdf97", "-l", "2"], "float path from %s" % np.dtype(dt))
        if np.issubdtype(dt, np.integer):
            roundtrip(d, x, ["-w", "cdf53", "-l", "2", "--integer"], "integer path from %s" % np.dtype(dt),
                      integer=True)
    save(d, "f32.npy", RNG.standard_normal((8, 8)).astype(np.float32))
    expect_ok(d, ["forward", "f32.npy", "c.raw"])
    expect_ok(d, ["forward", "f32.npy", "c.npy"])
    check(open(os.path.join(d, "c.raw"), "rb").read() == load(d, "c.npy").tobytes(),
          ".raw output is not the transform's dtype in C order")


@case("dtypes")
def t_axes(d):
    x = RNG.standard_normal((6, 10, 12)).astype(np.float64)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "c02.npy", "--axes", "0,2", "-l", "2"])
    expect_ok(d, ["forward", "x.npy", "c20.npy", "--axes", "2,0", "-l", "2"])
    expect_ok(d, ["forward", "x.npy", "cneg.npy", "--axes", "0,-1", "-l", "2"])
    c = load(d, "c02.npy")
    check(np.array_equal(c, load(d, "c20.npy")) and np.array_equal(c, load(d, "cneg.npy")),
          "--axes 0,2 / 2,0 / 0,-1 differ")
    for j in (0, 5, 9):
        save(d, "s.npy", np.ascontiguousarray(x[:, j, :]))
        expect_ok(d, ["forward", "s.npy", "cs.npy", "-l", "2"])
        check(np.allclose(load(d, "cs.npy"), c[:, j, :], atol=1e-12), "--axes 0,2: slice %d differs" % j)
    expect_ok(d, ["inverse", "c02.npy", "y.npy", "--axes", "0,2", "-l", "2"])
    check(np.allclose(load(d, "y.npy"), x, atol=1e-10), "--axes 0,2 round trip")
    expect_ok(d, ["forward", "x.npy", "c1.npy", "--axes", "-1", "-w", "haar"])
    save(d, "rows.npy", x.reshape(-1, 12))
    expect_ok(d, ["forward", "rows.npy", "cr.npy", "--axes", "1", "-w", "haar"])
    check(np.allclose(load(d, "c1.npy").reshape(-1, 12), load(d, "cr.npy"), atol=1e-12), "--axes -1 vs rows")


@case("dtypes")
def t_layout_interleaved(d):
    x = RNG.standard_normal((16, 20)).astype(np.float64)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "m.npy", "-l", "2"])
    expect_ok(d, ["forward", "x.npy", "i.npy", "-l", "2", "--layout", "interleaved"])
    m, i = load(d, "m.npy"), load(d, "i.npy")
    ok = (np.allclose(i[1::2, 1::2], m[8:, 10:]) and np.allclose(i[::2, 1::2], m[:8, 10:])
          and np.allclose(i[2::4, 2::4], m[4:8, 5:10]) and np.allclose(i[::4, ::4], m[:4, :5]))
    check(ok, "interleaved coefficients are not the Mallat ones at their sample positions")


# ----------------------------------------------------------------- images ----

def image_roundtrip(d, img, ext, opts, label, integer=False):
    (write_png if ext == "png" else write_pnm)(os.path.join(d, "in." + ext), img)
    expect_ok(d, ["forward", "in." + ext, "c.npy"] + opts)
    c = load(d, "c.npy")
    check(c.dtype == (np.int32 if integer else np.float32), "%s: coefficients %s" % (label, c.dtype))
    check(c.shape == img.shape, "%s: coefficient shape %s" % (label, c.shape))
    expect_ok(d, ["inverse", "c.npy", "out." + ext] + opts)
    if not os.path.exists(os.path.join(d, "out." + ext)):
        return
    if ext == "png":
        back, depth = read_png(os.path.join(d, "out.png"))
    else:
        back, depth = read_pnm(os.path.join(d, "out." + ext))
    check(back.dtype == img.dtype, "%s: written as %s (depth %d), want %s" % (label, back.dtype, depth, img.dtype))
    check(np.array_equal(back.astype(np.int64), img.astype(np.int64)), "%s: image round trip not exact" % label)


@case("images")
def t_images(d):
    exts = ["pgm"] + (["png"] if have_png() else [])
    for ext in exts:
        for dt in (np.uint8, np.uint16):
            img = test_image(33, 46, dt)
            image_roundtrip(d, img, ext, ["-l", "3"], "%s %s cdf97" % (ext, np.dtype(dt)))
            image_roundtrip(d, img, ext, ["-w", "cdf53", "-l", "max", "--integer"],
                            "%s %s cdf53 integer" % (ext, np.dtype(dt)), integer=True)
            image_roundtrip(d, img, ext, ["-w", "dd137", "-l", "2", "--layout", "interleaved"],
                            "%s %s dd137 interleaved" % (ext, np.dtype(dt)))
    for ext in ["ppm"] + (["png"] if have_png() else []):
        img = test_image(30, 40, np.uint8, channels=3)
        image_roundtrip(d, img, ext, ["-l", "2"], "%s colour" % ext)
        image_roundtrip(d, img, ext, ["-w", "haar", "-l", "max", "--integer"], "%s colour integer" % ext,
                        integer=True)
        # channels are a batch: each channel equals the gray transform of that plane
        expect_ok(d, ["forward", "in." + ext, "c.npy", "-l", "2"])
        save(d, "g.npy", img[:, :, 1])
        expect_ok(d, ["forward", "g.npy", "cg.npy", "-l", "2"])
        check(np.allclose(load(d, "c.npy")[:, :, 1], load(d, "cg.npy"), atol=1e-3),
              "%s colour: channel 1 differs from its gray transform" % ext)
    if have_png():
        rgba = np.concatenate([test_image(20, 24, channels=3), np.full((20, 24, 1), 255, np.uint8)], axis=2)
        image_roundtrip(d, rgba, "png", ["-l", "1"], "png rgba")
        image_roundtrip(d, test_image(20, 24, channels=2), "png", ["-l", "1"], "png gray+alpha")


@case("images")
def t_image_depth(d):
    save(d, "small.npy", np.array([[0, 255], [17, 200]], np.float64))
    save(d, "wide.npy", np.array([[0, 256], [1000, 65535]], np.float32))
    save(d, "round.npy", np.array([[-0.4, 255.4], [0.5, 1.49]], np.float32))
    for ext in ["pgm"] + (["png"] if have_png() else []):
        rd = read_png if ext == "png" else read_pnm
        expect_ok(d, ["forward", "small.npy", "s." + ext, "-l", "0"])
        a, depth = rd(os.path.join(d, "s." + ext))
        check(a.dtype == np.uint8 and a.tolist() == [[0, 255], [17, 200]], "%s 8-bit output: %s" % (ext, a))
        expect_ok(d, ["forward", "wide.npy", "w." + ext, "-l", "0"])
        a, depth = rd(os.path.join(d, "w." + ext))
        check(a.dtype == np.uint16 and a.tolist() == [[0, 256], [1000, 65535]], "%s 16-bit output: %s" % (ext, a))
        expect_ok(d, ["forward", "round.npy", "r." + ext, "-l", "0"])
        a, depth = rd(os.path.join(d, "r." + ext))
        check(a.dtype == np.uint8 and a.tolist() == [[0, 255], [1, 1]], "%s rounding: %s" % (ext, a))


@case("images")
def t_sample_data(d):
    for name in ("sample.png", "sample.pgm"):
        p = os.path.join(SRC, "data", name)
        if not os.path.exists(p) or (name.endswith(".png") and not have_png()):
            continue
        ext = name.rsplit(".", 1)[1]
        expect_ok(d, ["forward", p, "c.npy", "-w", "cdf53", "-l", "max", "--integer"])
        expect_ok(d, ["inverse", "c.npy", "back." + ext, "-w", "cdf53", "-l", "max", "--integer"])
        expect_ok(d, ["forward", p, "ref." + ext, "-l", "0", "--integer", "-w", "haar"])
        check(open(os.path.join(d, "back." + ext), "rb").read() == open(os.path.join(d, "ref." + ext), "rb").read(),
              "%s: lossless round trip differs" % name)


# -------------------------------------------------------------------- raw ----

@case("raw")
def t_raw(d):
    for dt, name in ((np.float32, "float32"), (np.float64, "float64"), (np.uint8, "uint8"), (np.int16, "int16"),
                     (np.uint16, "uint16"), (np.int32, "int32")):
        x = (RNG.random((10, 14)) * 100).astype(dt)
        write_bytes(d, "x.raw", x.tobytes())
        save(d, "x.npy", x)
        for shape in ("10x14", "10,14"):
            expect_ok(d, ["forward", "x.raw", "cr.npy", "--shape", shape, "--dtype", name, "-l", "2"])
            expect_ok(d, ["forward", "x.npy", "cn.npy", "-l", "2"])
            check(np.array_equal(load(d, "cr.npy"), load(d, "cn.npy")), "raw %s %s != npy" % (name, shape))
    x = RNG.standard_normal((4, 6, 8)).astype(np.float32)
    write_bytes(d, "v.raw", x.tobytes())
    expect_ok(d, ["forward", "v.raw", "c.raw", "--shape", "4x6x8", "--dtype", "float32", "-w", "cdf53"])
    expect_ok(d, ["inverse", "c.raw", "y.npy", "--shape", "4x6x8", "--dtype", "float32", "-w", "cdf53"])
    check(np.allclose(load(d, "y.npy"), x, atol=1e-5), "raw 3-D round trip")


# ------------------------------------------------------------------- view ----

@case("view")
def t_view(d):
    img = test_image(40, 52)
    save(d, "img.npy", img)
    out_ext = "png" if have_png() else "pgm"
    rd = read_png if out_ext == "png" else read_pnm
    for layout in ("mallat", "interleaved"):
        expect_ok(d, ["forward", "img.npy", "c_%s.npy" % layout, "-l", "3", "--layout", layout])
        expect_ok(d, ["view", "c_%s.npy" % layout, "v_%s.%s" % (layout, out_ext), "-l", "3", "--layout", layout])
    a, _ = rd(os.path.join(d, "v_mallat." + out_ext))
    b, _ = rd(os.path.join(d, "v_interleaved." + out_ext))
    check(a.shape == (43, 55) and a.dtype == np.uint8, "view picture shape %s %s" % (a.shape, a.dtype))
    check(np.array_equal(a, b), "interleaved view differs from the Mallat view")
    # borders: the level-1 separators are white lines through the picture
    check(np.all(a[:, 28] == 255) and np.all(a[22, :] == 255), "level-1 band borders missing")
    check(a.std() > 10, "view picture is flat")
    out = expect_ok(d, ["view", "c_mallat.npy", "mm.pgm", "-l", "3", "--stretch", "minmax", "-v", "-w", "cdf97",
                        "-m", "symmetric", "--axes", "0,1"])
    check("view" in out, "view -v prints %r" % out)
    shutil.copy(os.path.join(d, "c_mallat.npy"), os.path.join(d, "bare.npy"))  # without recorded parameters
    expect_ok(d, ["view", "bare.npy", "mx.ppm", "-l", "max"])
    check(read_pnm(os.path.join(d, "mx.ppm"))[0].shape == (46, 58, 3), "view -l max .ppm shape")
    # colour
    write_pnm(os.path.join(d, "rgb.ppm"), test_image(30, 40, channels=3))
    expect_ok(d, ["forward", "rgb.ppm", "crgb.npy", "-l", "2"])
    expect_ok(d, ["view", "crgb.npy", "vrgb.ppm", "-l", "2"])
    check(read_pnm(os.path.join(d, "vrgb.ppm"))[0].shape == (32, 42, 3), "colour view shape")
    expect_fail(d, ["view", "crgb.npy", "vrgb.pgm", "-l", "2"], ["colour"], codes=(1,))
    # errors
    save(d, "r1.npy", np.zeros(16, np.float32))
    save(d, "c5.npy", np.zeros((8, 8, 5), np.float32))
    save(d, "r4.npy", np.zeros((2, 2, 2, 2), np.float32))
    expect_fail(d, ["view", "r1.npy", "v.pgm"], ["r1.npy"], codes=(1,))
    expect_fail(d, ["view", "c5.npy", "v.pgm"], ["c5.npy"], codes=(1,))
    expect_fail(d, ["view", "r4.npy", "v.pgm"], ["r4.npy"], codes=(1,))
    expect_fail(d, ["view", "c_mallat.npy", "v.pgm", "--axes", "0,2"], ["axes"], codes=(1,))
    expect_fail(d, ["view", "c_mallat.npy", "nodir/v.pgm"], ["nodir"], codes=(1,))
    expect_fail(d, ["view", "c_mallat.npy", "v.raw"], ["v.raw"], codes=(2,))
    if not have_png():  # a valid request for a .png: the only problem is the missing libpng
        expect_fail(d, ["view", "c_mallat.npy", "v.png", "-l", "3"], ["v.png", "without png support"], codes=(1,))
    # constant and tiny inputs must not crash
    save(d, "flat.npy", np.ones((9, 7), np.float64))
    expect_ok(d, ["view", "flat.npy", "flat.pgm", "-l", "max"])
    save(d, "tiny.npy", np.ones((1, 5), np.float32))
    expect_ok(d, ["view", "tiny.npy", "tiny.pgm", "-l", "max"])


# ------------------------------------------------------------------ driver ----

def main():
    return run_groups(sys.argv[3:], "lwcli_")


if __name__ == "__main__":
    sys.exit(main())
