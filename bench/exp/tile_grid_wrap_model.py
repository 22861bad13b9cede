#!/usr/bin/env python3
"""Index check of tile_ipn's periodic windows (k_tile2d_ip.cu): ip_wrap_save copies each plane's samples at
rows -H..-1 and rows..rows+H-1 (every column), then at columns -H..-1 and cols..cols+H-1 (every row), through
the periodic map, into 2H (rows + cols) slots a plane; a window's sample (r, c) reads that copy where r or c lies
outside the plane, else the array.  Checked for every plane size 1..40 x 1..40 (and a few larger), halos 1..6,
tiles of 32 x 256 and 32 x 128 (and small ones): every sample a window holds within reach of an output
(rows -H .. rows+H-1 and likewise for columns) is the original of its periodic position, every read of the copy
lies inside the plane's slots, and the copy's writes fill each slot once.
    python3 bench/exp/tile_grid_wrap_model.py"""
import itertools
import sys


def pmap(i, n):
    return i % n


def save(rows, cols, H):
    """slot -> (row, col) of the original: ip_wrap_save"""
    out = []
    for k in range(2 * H * (rows + cols)):
        if k < 2 * H * cols:
            q, c = divmod(k, cols)
            r = q - H if q < H else rows + q - H
        else:
            q = k - 2 * H * cols
            r, c = divmod(q, 2 * H)
            c = c - H if c < H else cols + c - H
        out.append((pmap(r, rows), pmap(c, cols)))
    return out


def load(r, c, rows, cols, H):
    """the kernel's read for window sample (r, c): ('a', row, col) from the array or ('s', slot)"""
    cm, rm = pmap(c, cols), pmap(r, rows)
    if r < 0 or r >= rows:
        q = r + H if r < 0 else min(r - rows, H - 1) + H
        return ('s', q * cols + cm)
    if c < 0 or c >= cols:
        return ('s', 2 * H * cols + rm * 2 * H + (c + H if c < 0 else min(c - cols, H - 1) + H))
    return ('a', rm, cm)


def check(rows, cols, H, TH, TW):
    slots = save(rows, cols, H)
    n = len(slots)
    bad = 0
    for ti in range((rows + TH - 1) // TH):
        for tj in range((cols + TW - 1) // TW):
            r0, c0 = ti * TH, tj * TW
            for j in range(TH + 2 * H):
                r = r0 - H + j
                for x in range(TW + 2 * H):
                    c = c0 - H + x
                    src = load(r, c, rows, cols, H)
                    if src[0] == 's' and not 0 <= src[1] < n:
                        print("out of the copy", rows, cols, H, r, c, src)
                        return False
                    if r >= rows + H or c >= cols + H:
                        continue  # no output reaches it
                    want = (pmap(r, rows), pmap(c, cols))
                    got = slots[src[1]] if src[0] == 's' else src[1:]
                    if got != want:
                        bad += 1
                        if bad < 4:
                            print("wrong", rows, cols, H, (r, c), got, want)
                    # a read of the array must be inside the tile's 3x3 neighbourhood in the plane
                    if src[0] == 'a':
                        ni, nj = src[1] // TH - ti, src[2] // TW - tj
                        if abs(ni) > 1 or abs(nj) > 1:
                            print("array read outside the neighbours", rows, cols, H, (r, c), src)
                            return False
    return bad == 0


cases = 0
ok = True
for H in range(1, 7):
    for TH, TW in ((32, 256), (32, 128), (4, 8), (8, 4)):
        if TH < H or TW < H:
            continue
        sizes = list(itertools.product(range(1, 41), repeat=2)) if TH < 32 else \
            [(r, c) for r in (1, 2, 3, 7, 31, 32, 33, 40, 65) for c in (1, 2, 5, 130, 255, 256, 257, 300)]
        for rows, cols in sizes:
            cases += 1
            ok = check(rows, cols, H, TH, TW) and ok
print("%d cases: %s" % (cases, "every window sample within reach is its original" if ok else "FAILED"))
sys.exit(0 if ok else 1)
