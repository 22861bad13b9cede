#!/usr/bin/env python3
"""Regenerate the seed corpora under tests/fuzz/corpus/<fmt>/ (standard library
only).  Small valid files of every kind the readers accept, plus a few
malformed ones.  Crashers found by fuzzing are added by hand as crash-*.
Usage: python3 tests/fuzz/make_corpus.py"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def put(fmt, name, data):
    d = os.path.join(HERE, "corpus", fmt)
    os.makedirs(d, exist_ok=True)
    assert len(data) < 4096, (name, len(data))
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- npy -------------------------------------------------------------------

def npy(descr, shape, data, major=1, fortran=False, dict_text=None):
    if dict_text is None:
        s = "(" + ", ".join(str(x) for x in shape) + ("," if len(shape) == 1 else "") + ")"
        dict_text = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, s)
    prefix = 10 if major == 1 else 12
    total = (prefix + len(dict_text) + 1 + 63) // 64 * 64
    hlen = total - prefix
    head = b"\x93NUMPY" + bytes([major, 0])
    head += struct.pack("<H" if major == 1 else "<I", hlen)
    head += dict_text.encode() + b" " * (hlen - len(dict_text) - 1) + b"\n"
    return head + data


def npy_corpus():
    put("npy", "f4_2x3.npy", npy("<f4", (2, 3), struct.pack("<6f", *range(6))))
    put("npy", "f8_4.npy", npy("<f8", (4,), struct.pack("<4d", 1.5, -2, 3e10, 0)))
    put("npy", "i4_2x2x2.npy", npy("<i4", (2, 2, 2), struct.pack("<8i", *range(-4, 4))))
    put("npy", "i2_1x2x3x4.npy", npy("<i2", (1, 2, 3, 4), struct.pack("<24h", *range(24))))
    put("npy", "u1_8x8.npy", npy("|u1", (8, 8), bytes(range(64))))
    put("npy", "u2_3x5.npy", npy("<u2", (3, 5), struct.pack("<15H", *range(0, 15000, 1000))))
    put("npy", "v2.npy", npy("<f4", (3,), struct.pack("<3f", 1, 2, 3), major=2))
    put("npy", "v3.npy", npy("<i4", (2,), struct.pack("<2i", 7, 8), major=3))
    put("npy", "keys_reordered.npy",
        npy("", (), struct.pack("<2h", 1, 2), dict_text="{\"shape\": (2L,), \"descr\": \"<i2\", \"fortran_order\": False}"))
    put("npy", "bad_truncated.npy", npy("<f8", (16, 16), b"\0" * 100))
    put("npy", "bad_bigendian.npy", npy(">f4", (2,), b"\0" * 8))
    put("npy", "bad_fortran.npy", npy("<f4", (2, 2), b"\0" * 16, fortran=True))
    put("npy", "bad_object.npy", npy("|O", (1,), b"\0" * 8))
    put("npy", "bad_huge_shape.npy", npy("<f8", (9223372036854775807, 3), b"\0" * 8))
    put("npy", "bad_rank5.npy", npy("<f4", (1, 1, 1, 1, 1), b"\0" * 4))
    put("npy", "bad_version.npy", npy("<f4", (1,), b"\0" * 4, major=4))
    h = bytearray(npy("<f4", (1,), b"\0" * 4))
    h[8:10] = b"\xff\xff"
    put("npy", "bad_hlen.npy", bytes(h))


# ---- pnm -------------------------------------------------------------------

def pnm_corpus():
    put("pnm", "p2.pgm", b"P2\n# comment\n4 2\n255\n0 64 128 255\n1 2 3 4\n")
    put("pnm", "p2_16.pgm", b"P2 3 1 1023 0 512 1023\n")
    put("pnm", "p3.ppm", b"P3\n2 2\n255\n255 0 0  0 255 0\n0 0 255  9 9 9\n")
    put("pnm", "p5.pgm", b"P5\n# made for the fuzz corpus\n8 8\n255\n" + bytes(range(0, 256, 4)))
    put("pnm", "p5_16.pgm", b"P5 4 4 65535\n" + bytes(range(32)))
    put("pnm", "p6.ppm", b"P6\n4 4\n255\n" + bytes(range(48)))
    put("pnm", "p6_16.ppm", b"P6 2 2 4095\n" + bytes([i % 16 for i in range(24)]))
    put("pnm", "p5_maxval100.pgm", b"P5 4 1 100\n" + bytes([0, 50, 100, 99]))
    put("pnm", "bad_truncated.pgm", b"P5 64 64 255\n" + bytes(100))
    put("pnm", "bad_maxval0.pgm", b"P5 2 2 0\n" + bytes(4))
    put("pnm", "bad_maxval_big.pgm", b"P5 2 2 65536\n" + bytes(8))
    put("pnm", "bad_huge.ppm", b"P6 2147483647 2147483647 65535\n" + bytes(16))
    put("pnm", "bad_p4.pbm", b"P4 8 1\n\xaa")
    put("pnm", "bad_sample.pgm", b"P2 2 1 10 5 11\n")


# ---- png -------------------------------------------------------------------

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(w, h, depth, ctype, rows, plte=None, trns=None, interlace=0, claim_h=None):
    """rows: list of packed row byte strings (full image)."""
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype] * depth  # bits per pixel
    if interlace:
        raw = b""
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        assert bpp % 8 == 0
        B = bpp // 8
        for x0, y0, dx, dy in passes:
            xs = list(range(x0, w, dx))
            if not xs:
                continue
            for y in range(y0, h, dy):
                raw += b"\0" + b"".join(rows[y][x * B:(x + 1) * B] for x in xs)
    else:
        raw = b"".join(b"\0" + r for r in rows)
    out = b"\x89PNG\r\n\x1a\n"
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", w, claim_h or h, depth, ctype, 0, 0, interlace))
    if plte:
        out += chunk(b"PLTE", plte)
    if trns:
        out += chunk(b"tRNS", trns)
    out += chunk(b"IDAT", zlib.compress(raw, 9))
    out += chunk(b"IEND", b"")
    return out


def png_corpus():
    g8 = [bytes((x * 16 + y * 8) & 255 for x in range(16)) for y in range(16)]
    put("png", "gray8.png", png(16, 16, 8, 0, g8))
    put("png", "gray16.png", png(4, 4, 16, 0, [bytes(range(y * 8, y * 8 + 8)) for y in range(4)]))
    put("png", "gray1.png", png(16, 2, 1, 0, [b"\xf0\x0f", b"\xaa\x55"]))
    put("png", "gray4.png", png(4, 2, 4, 0, [b"\x01\x23", b"\xfe\xdc"]))
    put("png", "ga8.png", png(3, 2, 8, 4, [bytes(range(6)), bytes(range(6, 12))]))
    put("png", "rgb8.png", png(5, 3, 8, 2, [bytes((x * 7 + y) & 255 for x in range(15)) for y in range(3)]))
    put("png", "rgba16.png", png(2, 2, 16, 6, [bytes(range(16)), bytes(range(16, 32))]))
    pal = bytes(sum(([i * 30, 255 - i * 30, i * 10] for i in range(8)), []))
    put("png", "pal4_trns.png", png(4, 2, 4, 3, [b"\x01\x23", b"\x45\x67"], plte=pal, trns=b"\x00\x80\xff"))
    put("png", "pal8.png", png(3, 3, 8, 3, [b"\x00\x01\x02", b"\x03\x04\x05", b"\x06\x07\x00"], plte=pal))
    put("png", "interlaced_rgb.png",
        png(9, 7, 8, 2, [bytes((x * 3 + y * 11) & 255 for x in range(27)) for y in range(7)], interlace=1))
    good = png(16, 16, 8, 0, g8)
    put("png", "bad_truncated.png", good[:len(good) // 2])
    bad = bytearray(good)
    bad[20] ^= 1  # IHDR CRC mismatch
    put("png", "bad_crc.png", bytes(bad))
    huge = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 0x7FFFFFFF, 0x7FFFFFFF, 16, 6, 0, 0, 0))
    huge += chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    put("png", "bad_huge.png", huge)
    short_idat = png(16, 4, 8, 0, g8[:4], claim_h=16)  # IDAT holds 4 rows of 16
    put("png", "bad_short_idat.png", short_idat)


# ---- raw (fuzz_raw's input: type byte, rank byte, one byte per axis, data) ----

def raw_corpus():
    put("raw", "u8_4x4", bytes([0, 1, 3, 3]) + bytes(range(16)))
    put("raw", "f32_8", bytes([4, 0, 7]) + struct.pack("<8f", *range(8)))
    put("raw", "f64_2x2x2", bytes([5, 2, 1, 1, 1]) + struct.pack("<8d", *range(8)))
    put("raw", "i16_1x2x2x2", bytes([2, 3, 0, 1, 1, 1]) + struct.pack("<8h", *range(8)))
    put("raw", "bad_size", bytes([3, 1, 9, 9]) + bytes(40))
    put("raw", "bad_absurd", bytes([0x85, 3, 62, 62, 62, 62]) + bytes(8))


if __name__ == "__main__":
    npy_corpus()
    pnm_corpus()
    png_corpus()
    raw_corpus()
