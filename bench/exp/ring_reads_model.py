#!/usr/bin/env python3
"""Which window reads of the in-place tile kernel (k_tile2d_ip.cu) take a lower ticket's stash slot
below the tile's wait range (tk - ntc - 1 .. tk - 1): the check build's "ipcheck C" lines.  The
kernel's mapping (ip_map: symmetric whole-sample mirror, lwd_bidx) and slot arithmetic over level
grids like the GPU sweeps'; for each such read, whether its unmapped position lies within the
wavelet's reach H of the plane (then an output would depend on it).
  python3 bench/exp/ring_reads_model.py      -> pairs per grid, and the count within reach (0 expected)"""


def bidx(i, n):
    if 0 <= i < n:
        return i
    if n == 1:
        return 0
    p = 2 * (n - 1)
    r = i % p
    return r if r < n else p - r


def below_range(rows, cols, TW, TH=32, H=4):
    ntc, ntr = -(-cols // TW), -(-rows // TH)
    for ti in range(ntr):
        for tj in range(ntc):
            tk, r0, c0 = ti * ntc + tj, ti * TH, tj * TW
            lo = max(tk - ntc - 1, 0)
            for x in range(TW + 2 * H):
                c = c0 - H + x
                cm = bidx(c, cols)
                ct = cm // TW
                for j in range(TH + 2 * H):
                    r = r0 - H + j
                    rm = bidx(r, rows)
                    rt = rm // TH
                    if not (rt < ti or (rt == ti and ct < tj)):
                        continue
                    if rm - (rt + 1) * TH + H >= 0 or cm - (ct + 1) * TW + H >= 0:  # a read of the slot
                        q = rt * ntc + ct
                        if q < lo:
                            yield tk, q, r, c


def main():
    grids = [(300, 517), (150, 259), (258, 1030), (129, 515), (130, 270), (65, 135), (1024, 1024), (1500, 40),
             (64, 2000), (33, 129)]
    total = reach = 0
    for rows, cols in grids:
        for TW in (256, 128):
            for H in (2, 4, 6):
                pairs = set()
                for tk, q, r, c in below_range(rows, cols, TW, H=H):
                    total += 1
                    pairs.add((tk, q))
                    if -H <= r < rows + H and -H <= c < cols + H:
                        reach += 1
                if pairs:
                    print(f"{rows}x{cols} TW {TW} H {H}: {len(pairs)} pairs (tile, slot's ticket), e.g. {sorted(pairs)[:4]}")
    print(f"reads below the wait range: {total}; within an output's reach: {reach}")


if __name__ == "__main__":
    main()
