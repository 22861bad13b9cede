#!/usr/bin/env python3
"""Model of the strip walker's row sources for periodic planes cut in row segments
(bench/exp/wip/walk-periodic-segs.patch, k_walk2d.cu's issue()/stashed() and walk2d_stash): for every
segment and band, each window row loaded comes from the stash edge and row that hold its original, or from
the segment's own rows (which no other segment's blocks overwrite in place); and every segment loads the
rows past the plane's end that its outputs need.  Runs on the CPU in a few seconds."""
import sys
# every segment of the ring loads the rows past the end (the patch); WRAP_ALL=0 (argument "last"): only the
# last one, as the first version did, which the model then fails (258 rows, bands of 32, H >= 3)
WRAP_ALL = "last" not in sys.argv[1:]
def check(rows, BH, H, v):
    nbp = (rows + BH - 1) // BH
    if v > nbp: v = nbp
    vbands = (nbp + v - 1) // v; nv = (nbp + vbands - 1) // vbands
    if nv < 2: return 0
    edges = nv - 1 + 1
    def wk_map(i): return i % rows
    def cut(e): return min((e + 1) * vbands * BH, rows)
    n = 0
    for vs in range(nv):
        blo = vs * vbands; bhi = min(blo + vbands, nbp)
        rlo = blo * BH; rhi = bhi * BH if bhi < nbp else 10**18
        rend = rows + H if WRAP_ALL or vs == nv - 1 else rows
        own = set(range(rlo, min(rhi, rows)))
        for band in range(blo, bhi):
            r0 = band * BH; j0 = 0 if band == blo else 2 * H
            for jj in range(j0, BH + 2 * H):
                r = r0 - H + jj
                if r >= rend: continue
                src = None
                if vs > 0 and r < rlo: src = (vs - 1, r - (rlo - H))
                elif r >= rhi: src = (vs, r - (rhi - H))
                elif r < 0 or r >= rows: src = (nv - 1, r + H if r < 0 else r - rows + H)
                if src:
                    e, i = src
                    assert 0 <= e < edges and 0 <= i < 2 * H, (rows, BH, H, v, vs, band, r, src)
                    assert wk_map(cut(e) - H + i) == wk_map(r), (rows, BH, H, v, vs, band, r, src, cut(e))
                else:
                    assert wk_map(r) in own, ("reads a row another segment writes", rows, BH, H, v, vs, band, r)
                n += 1
        # every output row's window (r-H .. r+H) is loaded: the rows past the plane's end that the
        # segment's last band needs (not only the last segment's: one shorter than H rows leaves some
        # to the segment before it)
        need_hi = min(rhi, rows) - 1 + H
        assert need_hi < rend, ("rows past the end not loaded", rows, BH, H, v, vs, need_hi, rend)
    return n
tot = 0
for rows in list(range(34, 400, 2)) + [1500, 16384, 8192, 1024, 258]:
    for BH in (16, 32):
        for H in (1, 2, 4, 6):
            if H > BH or rows <= BH: continue
            for v in range(2, 9):
                tot += check(rows, BH, H, v)
print("ok, rows checked:", tot)
