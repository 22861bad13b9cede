"""CLI test groups (registered with test_cli.py's driver):

meta       coefficient files record their parameters (OUT.json); inverse and view
           use them; contradictions are errors (warnings with --force)
safety     an output equal to the input is refused; output symlinks are written through
exitcodes  one table of exit statuses for every command; machine limits (threads,
           SIMD); periodic -l max; the README states what it promises
"""
import json
import os
import re

from cli_files import read_png, read_pnm, write_png, write_pnm
from cli_harness import (RNG, SRC, case, check, expect_fail, expect_ok, have_png, load, np, run, save,
                         test_image, view_ext)


def colour_ext():
    return "png" if have_png() else "ppm"


def write_image(d, name, img):
    (write_png if name.endswith(".png") else write_pnm)(os.path.join(d, name), img)


def read_image(d, name):
    return (read_png if name.endswith(".png") else read_pnm)(os.path.join(d, name))[0]


def max_err(a, b):
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


# ------------------------------------------------------------------ meta ----

@case("meta")
def t_colour_image_through_npy(d):
    """Colour image -> .npy: the inverse must transform axes 0,1 as the forward did."""
    img = test_image(48, 64, channels=3)
    name = "face." + colour_ext()
    write_image(d, name, img)
    for levels in ("1", "3"):
        expect_ok(d, ["forward", name, "c.npy", "-l", levels])
        expect_ok(d, ["inverse", "c.npy", "back.npy"])
        if os.path.exists(os.path.join(d, "back.npy")):
            back = load(d, "back.npy")
            check(back.shape == img.shape and max_err(back, img) < 1e-3,
                  "colour -l %s through .npy: round-trip error %.3g" % (levels, max_err(back, img)))
        expect_ok(d, ["inverse", "c.npy", "back." + colour_ext()])
        if os.path.exists(os.path.join(d, "back." + colour_ext())):
            check(np.array_equal(read_image(d, "back." + colour_ext()), img), "colour -l %s: image differs" % levels)
    # without the recorded parameters, too many levels for the 3-D default hint at the axes
    os.remove(os.path.join(d, "c.npy.json"))
    expect_fail(d, ["inverse", "c.npy", "back2.npy", "-l", "3"], ["level", "--axes 0,1"], codes=(1,))


@case("meta")
def t_integer_inverse_without_flag(d):
    """An integer forward inverted without --integer must still be exact."""
    img = test_image(40, 56)
    write_image(d, "g.pgm", img)
    expect_ok(d, ["forward", "g.pgm", "c.npy", "-w", "cdf53", "-l", "2", "--integer"])
    expect_ok(d, ["inverse", "c.npy", "back.pgm", "-w", "cdf53", "-l", "2"])
    if os.path.exists(os.path.join(d, "back.pgm")):
        check(np.array_equal(read_image(d, "back.pgm"), img), "integer forward, inverse without --integer differs")
    expect_ok(d, ["inverse", "c.npy", "back.npy"])
    if os.path.exists(os.path.join(d, "back.npy")):
        back = load(d, "back.npy")
        check(back.dtype == np.int32 and np.array_equal(back, img), "integer inverse to .npy: %s" % back.dtype)


@case("meta")
def t_metadata_file(d):
    x = RNG.standard_normal((12, 20)).astype(np.float32)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "c.npy", "-w", "dd137", "-l", "2", "--layout", "interleaved"])
    meta = json.load(open(os.path.join(d, "c.npy.json")))
    want = {"format": "liftwave-coefficients", "wavelet": "dd137", "levels": 2, "mode": "symmetric",
            "layout": "interleaved", "axes": [0, 1], "integer": False, "source_dtype": "float32",
            "dtype": "float32", "shape": [12, 20], "source_shape": [12, 20]}
    for k, v in want.items():
        check(meta.get(k) == v, "c.npy.json: %s = %r, want %r" % (k, meta.get(k), v))
    check(re.match(r"\d+\.\d+", meta.get("library_version", "")), "c.npy.json: library_version %r" % meta)
    check(load(d, "c.npy").shape == (12, 20), "the .npy is still plain NumPy")
    expect_ok(d, ["inverse", "c.npy", "y.npy"])
    check(np.allclose(load(d, "y.npy"), x, atol=1e-5), "inverse with recorded parameters")
    check(not os.path.exists(os.path.join(d, "y.npy.json")), "the inverse wrote a sidecar")
    expect_ok(d, ["forward", "x.npy", "c.raw", "-w", "haar"])
    check(json.load(open(os.path.join(d, "c.raw.json")))["wavelet"] == "haar", ".raw output: no sidecar")
    expect_ok(d, ["forward", "x.npy", "c.npy", "-l", "0"])  # -l 0 replaces the sidecar too
    check(json.load(open(os.path.join(d, "c.npy.json")))["levels"] == 0, "sidecar not replaced")
    # an image output is no coefficient file: no sidecar, and a stale one goes
    save(d, "p.npy", test_image(8, 8).astype(np.float32))
    expect_ok(d, ["forward", "p.npy", "img.npy", "-w", "haar"])
    expect_ok(d, ["inverse", "img.npy", "img.npy.back.pgm"])
    check(not os.path.exists(os.path.join(d, "img.npy.back.pgm.json")), "image output got a sidecar")
    expect_ok(d, ["inverse", "c.npy", "img.npy"])  # overwrites the earlier forward output
    check(not os.path.exists(os.path.join(d, "img.npy.json")), "stale sidecar left next to a new file")


@case("meta")
def t_metadata_conflicts(d):
    x = RNG.standard_normal((16, 24)).astype(np.float32)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "c.npy", "-l", "2", "-w", "cdf53"])
    for opt, given, recorded in ((["-l", "3"], "3", "2"), (["-w", "haar"], "haar", "cdf53"),
                                 (["-m", "periodic"], "periodic", "symmetric"),
                                 (["--layout", "interleaved"], "interleaved", "mallat"),
                                 (["--axes", "1"], "1", "0,1"), (["-l", "max"], "max", "2")):
        expect_fail(d, ["inverse", "c.npy", "y.npy"] + opt, [opt[0].lstrip("-")[:1], given, recorded, "--force"],
                    codes=(1,))
        expect_fail(d, ["view", "c.npy", "v." + view_ext()] + opt, [given, recorded], codes=(1,))
    save(d, "i.npy", RNG.integers(0, 99, (16, 24)).astype(np.int32))
    expect_fail(d, ["inverse", "c.npy", "y.npy", "--integer"], ["--integer", "float"], codes=(1,))
    # options that agree are fine
    expect_ok(d, ["inverse", "c.npy", "y.npy", "-l", "2", "-w", "cdf53", "--axes", "1,0", "-m", "symmetric"])
    # --force: a warning, and the option wins
    rc, out, err = run(d, ["inverse", "c.npy", "f.npy", "-l", "1", "--force"])
    check(rc == 0 and err.startswith("liftwave: warning:") and len(err.splitlines()) == 1,
          "--force: exit %d, stderr %r" % (rc, err))
    # no sidecar: the inverse works as it always did, from the options
    os.remove(os.path.join(d, "c.npy.json"))
    expect_ok(d, ["inverse", "c.npy", "z.npy", "-l", "2", "-w", "cdf53"])
    check(np.allclose(load(d, "z.npy"), x, atol=1e-5), "inverse without sidecar")


@case("meta")
def t_metadata_stale_or_bad(d):
    x = RNG.standard_normal((16, 16)).astype(np.float32)
    save(d, "x.npy", x)
    expect_ok(d, ["forward", "x.npy", "c.npy", "-l", "2"])
    save(d, "c.npy", load(d, "c.npy") * 2)  # rewritten by NumPy: the sidecar no longer describes it
    expect_fail(d, ["inverse", "c.npy", "y.npy"], ["c.npy.json", "does not describe", "--force"], codes=(1,))
    rc, out, err = run(d, ["inverse", "c.npy", "y.npy", "--force", "-l", "2"])
    check(rc == 0 and "warning" in err and len(err.splitlines()) == 1, "stale + --force: %d %r" % (rc, err))
    save(d, "c.npy", np.zeros((4, 4), np.float32))
    expect_fail(d, ["inverse", "c.npy", "y.npy"], ["does not describe", "shape"], codes=(1,))
    for text in ("not json", '{"format": "other"}', '{"format": "liftwave-coefficients"}', "[1, 2]"):
        with open(os.path.join(d, "c.npy.json"), "w") as f:
            f.write(text)
        expect_fail(d, ["inverse", "c.npy", "y.npy"], ["c.npy.json"], codes=(1,))


@case("meta")
def t_view_uses_metadata(d):
    img = test_image(40, 52)
    save(d, "img.npy", img)
    expect_ok(d, ["forward", "img.npy", "c.npy", "-l", "3", "--layout", "interleaved"])
    expect_ok(d, ["view", "c.npy", "a.pgm"])
    expect_ok(d, ["view", "c.npy", "b.pgm", "-l", "3", "--layout", "interleaved"])
    check(read_pnm(os.path.join(d, "a.pgm"))[0].shape == (43, 55), "view without options: not 3 levels")
    check(open(os.path.join(d, "a.pgm"), "rb").read() == open(os.path.join(d, "b.pgm"), "rb").read(),
          "view from recorded parameters differs from the explicit options")
    save(d, "v3.npy", RNG.standard_normal((8, 8, 3)).astype(np.float32))
    expect_ok(d, ["forward", "v3.npy", "c3.npy"])  # over axes 0,1,2: not a 2-D pyramid
    expect_fail(d, ["view", "c3.npy", "v3.ppm"], ["axes 0,1,2", "recorded"], codes=(1,))
    # view accepts what forward accepts: a 1x1 array
    save(d, "one.npy", np.array([[3.5]], np.float32))
    expect_ok(d, ["forward", "one.npy", "one_c.npy"])
    expect_ok(d, ["view", "one_c.npy", "one.pgm"])
    expect_ok(d, ["view", "one.npy", "one2.pgm", "-l", "2"])


# ---------------------------------------------------------------- safety ----

@case("safety")
def t_output_is_input(d):
    x = RNG.standard_normal((8, 8)).astype(np.float32)
    save(d, "a.npy", x)
    os.link(os.path.join(d, "a.npy"), os.path.join(d, "hard.npy"))
    os.symlink("a.npy", os.path.join(d, "soft.npy"))
    for out in ("a.npy", "./a.npy", "hard.npy", "soft.npy"):
        for cmd in ("forward", "inverse"):
            expect_fail(d, [cmd, "a.npy", out], ["input", "--overwrite"], codes=(1,))
    write_pnm(os.path.join(d, "g.pgm"), test_image(8, 8))
    os.symlink("g.pgm", os.path.join(d, "g2.pgm"))
    expect_fail(d, ["forward", "g.pgm", "g2.pgm", "-l", "0"], ["input"], codes=(1,))
    expect_fail(d, ["view", "g.pgm", "g2.pgm"], ["input"], codes=(1,))
    expect_ok(d, ["forward", "a.npy", "a.npy", "--overwrite", "-w", "haar"])
    check(not np.array_equal(load(d, "a.npy"), x), "--overwrite: input not replaced")
    check(os.path.exists(os.path.join(d, "a.npy.json")), "--overwrite: no sidecar")


@case("safety")
def t_output_symlink_written_through(d):
    x = RNG.standard_normal((8, 8)).astype(np.float32)
    save(d, "x.npy", x)
    os.mkdir(os.path.join(d, "store"))
    os.symlink("store/real.npy", os.path.join(d, "link.npy"))  # dangling until written
    expect_ok(d, ["forward", "x.npy", "link.npy", "-w", "haar"])
    check(os.path.islink(os.path.join(d, "link.npy")), "output symlink replaced by a file")
    check(os.path.isfile(os.path.join(d, "store", "real.npy")), "symlink target not written")
    check(os.path.isfile(os.path.join(d, "store", "real.npy.json")), "sidecar not next to the target")
    expect_ok(d, ["inverse", "link.npy", "y.npy"])  # sidecar found through the link
    check(np.allclose(load(d, "y.npy"), x, atol=1e-5), "inverse through a symlinked input")
    expect_ok(d, ["forward", "x.npy", "link.npy", "-w", "cdf53"])
    check(os.path.islink(os.path.join(d, "link.npy")), "second write replaced the symlink")


# ------------------------------------------------------------- exitcodes ----

def cpu_flags():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return None


@case("exitcodes")
def t_one_table(d):
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    f = ["forward", "x.npy", "y.npy"]
    # usage errors (the command line alone shows them): 2 everywhere
    expect_fail(d, f + ["--axes", "1,1"], ["twice"], codes=(2,))
    expect_fail(d, f + ["--axes", "0,1,2,3"], ["--axes"], codes=(2,))
    expect_fail(d, f + ["--scheme", "foo"], ["foo"], codes=(2,))
    expect_fail(d, f + ["--scheme", "foo", "-b", "cpu"], ["foo"], codes=(2,))
    expect_fail(d, ["bench", "--shape", "16x16", "--scheme", "foo", "--repeat", "1"], ["foo"], codes=(2,))
    # data errors (they depend on the data): 1 everywhere
    expect_fail(d, f + ["-l", "99"], ["level"], codes=(1,))
    expect_fail(d, ["inverse", "x.npy", "y.npy", "-l", "99"], ["level"], codes=(1,))
    expect_fail(d, ["view", "x.npy", "y." + view_ext(), "-l", "99"], ["level"], codes=(1,))
    expect_fail(d, ["bench", "--shape", "16x16", "-l", "99", "--repeat", "1"], ["level"], codes=(1,))
    expect_fail(d, ["bench", "--shape", "7x16", "-m", "periodic", "--repeat", "1"], ["periodic"], codes=(1,))
    expect_fail(d, f + ["--axes", "0,-2"], ["axis"], codes=(1,))
    # every command documents the same table
    texts = [run(d, args)[1] for args in (["--help"], ["forward", "--help"], ["inverse", "--help"],
                                           ["view", "--help"], ["bench", "--help"], ["info", "--help"])]
    table = texts[0][texts[0].find("Exit status:"):]
    check("usage error" in table and "data or runtime error" in table, "liftwave --help: no exit table")
    for t in texts[1:]:
        check(table and table in t, "a --help lacks the exit table: %r" % t[-300:])


@case("exitcodes")
def t_machine_limits(d):
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    ncpu = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    expect_fail(d, ["bench", "--shape", "16x16", "--threads", str(ncpu + 1000), "--repeat", "1"],
                ["--threads", "CPU"], codes=(1,))
    rc, out, err = run(d, ["bench", "--shape", "16x16", "--threads", "1", "--repeat", "1"])
    check(rc == 0, "--threads 1: exit %d %r" % (rc, err))
    flags = cpu_flags()
    needs = {"sse2": {"sse2"}, "avx2": {"avx2", "fma"}, "avx512": {"avx512f", "avx512bw", "avx512dq", "avx512vl"}}
    missing = [p for p, n in needs.items() if flags is not None and not n <= flags]
    for path in missing[:1]:  # the lowest path this CPU lacks (none on an AVX-512 machine)
        env = {"LW_CPU_SIMD": path}
        expect_fail(d, ["forward", "x.npy", "y.npy"], ["LW_CPU_SIMD", path], codes=(1,), env=env)
        expect_fail(d, ["bench", "--shape", "16x16", "--repeat", "1"], ["LW_CPU_SIMD"], codes=(1,), env=env)
    expect_fail(d, ["forward", "x.npy", "y.npy"], ["LW_CPU_SIMD"], codes=(1,), env={"LW_CPU_SIMD": "avx1024"})
    rc, out, err = run(d, ["forward", "x.npy", "y.npy"], env={"LW_CPU_SIMD": "scalar"})
    check(rc == 0 and err == "", "LW_CPU_SIMD=scalar: exit %d %r" % (rc, err))


@case("exitcodes")
def t_periodic_max(d):
    save(d, "p.npy", RNG.standard_normal((768, 1024)).astype(np.float32))
    out = expect_ok(d, ["forward", "p.npy", "c.npy", "-l", "max", "-m", "periodic", "-v"])
    check("8 levels" in out, "-l max -m periodic on 768x1024: %r" % out)
    expect_ok(d, ["inverse", "c.npy", "y.npy"])
    check(np.allclose(load(d, "y.npy"), load(d, "p.npy"), atol=1e-4), "periodic max round trip")


@case("exitcodes")
def t_readme_promises(d):
    text = open(os.path.join(SRC, "README.md")).read()
    haar = [line for line in text.splitlines() if line.startswith("| `haar`")]
    check(haar and "even" in haar[0] and "periodic" in haar[0], "README haar row: %r" % haar)
    cli = text[text.find("## Command line"):]
    cli = cli[:cli.find("\n## ", 4)]
    for w in (".json", "--force", "--overwrite", "Exit status", "usage error"):
        check(w in cli, "README's command-line section does not mention %r" % w)


@case("exitcodes")
def t_lists_from_library(d):
    """Help texts list the wavelets and backends the library has (info is the library's list)."""
    info = run(d, ["info"])[1]
    line = [l for l in info.splitlines() if l.startswith("wavelets:")]
    check(line, "info: no wavelets line: %r" % info)
    names = line[0].split(":", 1)[1].split() if line else []
    check("dd97" in names, "info lacks dd97: %r" % names)
    for args in (["--help"], ["forward", "--help"], ["bench", "--help"]):
        text = run(d, args)[1]
        for w in names:
            check(re.search(r"\b%s\b" % w, text), "%s: help does not list wavelet %s" % (" ".join(args), w))
        check("cpu-ref" in text and "{" not in text, "%s: backends or an unexpanded list" % " ".join(args))
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    expect_fail(d, ["forward", "x.npy", "y.npy", "-w", "db9"], ["db9", "dd97"], codes=(2,))


@case("exitcodes")
def t_env_tuning(d):
    """The CLI hands LW_CPU_* / LW_TUNING to its plans as tuning; the library judges them."""
    save(d, "x.npy", RNG.standard_normal((16, 16)).astype(np.float32))
    expect_fail(d, ["forward", "x.npy", "y.npy"], ["LW_CPU_RING_KB=abc", "ring_kb"], codes=(1,),
                env={"LW_CPU_RING_KB": "abc"})
    expect_fail(d, ["bench", "--shape", "16x16", "--repeat", "1"], ["LW_TUNING", "unknown key"], codes=(1,),
                env={"LW_TUNING": "warp=9"})
    expect_fail(d, ["bench", "--shape", "16x16", "--repeat", "1", "-b", "cpu", "--tune", "stream=fast"],
                ["stream=fast"])
    rc, out, err = run(d, ["bench", "--shape", "64x64", "--repeat", "1", "-b", "cpu", "--json"],
                       env={"LW_CPU_SIMD": "scalar", "LW_CPU_STREAM": "1", "LW_CPU_RING_KB": "512"})
    check(rc == 0 and '"simd": "scalar"' in out, "env tuning in bench: %d %r %r" % (rc, out, err))
    rc, out, err = run(d, ["bench", "--shape", "64x64", "--repeat", "1", "-b", "cpu", "--json", "--tune", "simd=sse2"],
                       env={"LW_CPU_SIMD": "scalar"})
    check(rc == 0 and '"simd": "sse2"' in out, "--tune over the environment: %d %r %r" % (rc, out, err))
