"""File helpers for the CLI tests: independent PNG / PNM writers and readers
(written from the format specifications, so the CLI's I/O layer is checked
against something other than itself), and .npy variants made by hand."""
import struct
import zlib

import numpy as np

PNG_SIG = b"\x89PNG\r\n\x1a\n"
PNG_CTYPE = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> colour type
PNG_CHANNELS = {0: 1, 4: 2, 2: 3, 6: 4}


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(arr):
    """PNG of a uint8/uint16 array (H,W) or (H,W,C), C in 1..4; filter 0."""
    arr = np.asarray(arr)
    h, w = arr.shape[:2]
    c = 1 if arr.ndim == 2 else arr.shape[2]
    depth = 8 if arr.dtype == np.uint8 else 16
    rows = arr.astype(">u2" if depth == 16 else "u1").reshape(h, -1)
    raw = b"".join(b"\x00" + r.tobytes() for r in rows)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, PNG_CTYPE[c], 0, 0, 0)
    return PNG_SIG + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(raw)) + _chunk(b"IEND", b"")


def write_png(path, arr):
    with open(path, "wb") as f:
        f.write(png_bytes(arr))


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    """Decode a non-interlaced 8/16-bit gray/GA/RGB/RGBA PNG -> (array, depth)."""
    data = open(path, "rb").read()
    assert data[:8] == PNG_SIG, "not a PNG"
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = ihdr
    assert interlace == 0 and depth in (8, 16)
    c = PNG_CHANNELS[ctype]
    bpp = c * depth // 8
    stride = w * bpp
    raw = zlib.decompress(idat)
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            cc = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                line[x] = (line[x] + _paeth(a, b, cc)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    arr = np.frombuffer(bytes(out), dtype=">u2" if depth == 16 else "u1").astype(np.uint16 if depth == 16 else np.uint8)
    shape = (h, w) if c == 1 else (h, w, c)
    return arr.reshape(shape), depth


def pnm_bytes(arr):
    arr = np.asarray(arr)
    h, w = arr.shape[:2]
    colour = arr.ndim == 3
    maxval = 255 if arr.dtype == np.uint8 else 65535
    head = b"%s\n# liftwave test\n%d %d\n%d\n" % (b"P6" if colour else b"P5", w, h, maxval)
    return head + arr.astype(">u2" if maxval > 255 else "u1").tobytes()


def write_pnm(path, arr):
    with open(path, "wb") as f:
        f.write(pnm_bytes(arr))


def read_pnm(path):
    """Binary P5/P6 -> (array, maxval)."""
    data = open(path, "rb").read()
    tokens, pos = [], 0
    while len(tokens) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while data[pos:pos + 1] not in (b"\n", b""):
                pos += 1
            continue
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        tokens.append(data[start:pos])
    pos += 1  # one whitespace byte after maxval
    magic, w, h, maxval = tokens[0], int(tokens[1]), int(tokens[2]), int(tokens[3])
    c = 3 if magic == b"P6" else 1
    dt = ">u2" if maxval > 255 else "u1"
    n = w * h * c
    arr = np.frombuffer(data[pos:pos + n * np.dtype(dt).itemsize], dtype=dt)
    assert arr.size == n, "short PNM"
    arr = arr.astype(np.uint16 if maxval > 255 else np.uint8)
    return arr.reshape((h, w, c) if c == 3 else (h, w)), maxval


def npy_bytes(descr, shape, payload, fortran=False, magic=b"\x93NUMPY", version=(1, 0), header=None):
    """A .npy file made by hand (to lie about its contents)."""
    if header is None:
        header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
            descr, "True" if fortran else "False", repr(tuple(shape)))
    header = header.encode("latin1")
    pad = 64 - (10 + len(header) + 1) % 64
    header += b" " * (pad % 64) + b"\n"
    return magic + bytes(version) + struct.pack("<H", len(header)) + header + payload
