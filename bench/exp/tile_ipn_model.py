#!/usr/bin/env python3
"""Model of tile_ipn's protocol (bench/exp/wip/tile-ipn.patch, k_tile2d_ip.cu): P persistent blocks take
tiles of an ntr x ntc grid (planes after each other) by tickets; a block loads its tile's window (never
waits), raises loaded[t], waits until the tiles around it in its plane have raised theirs, stores, and
takes the next ticket.  The wait is the in-place condition (a tile is stored only after every window that
reaches into it was read); the model checks liveness over random interleavings of the blocks' steps: with
P > ntc + 1 every run completes, with P = ntc + 1 some interleaving stalls (the bound is tight).  Runs on the CPU in seconds."""
import random


def run(ntr, ntc, planes, P, rng):
    per, tiles = ntr * ntc, ntr * ntc * planes
    loaded, stored = [False] * tiles, [False] * tiles
    nxt = 0
    blk = [None] * P  # ticket held, or None
    stage = [0] * P   # 0: take, 1: load, 2: wait/store
    while True:
        ready = []
        for i in range(P):
            if stage[i] == 0 and nxt < tiles:
                ready.append(i)
            elif stage[i] == 1:
                ready.append(i)
            elif stage[i] == 2:
                t = blk[i]
                b, r = divmod(t, per)
                ti, tj = divmod(r, ntc)
                if all(loaded[b * per + a * ntc + c] for a in range(max(ti - 1, 0), min(ti + 2, ntr))
                       for c in range(max(tj - 1, 0), min(tj + 2, ntc))):
                    ready.append(i)
        if not ready:
            return all(stored), stored.count(True)
        i = rng.choice(ready)
        if stage[i] == 0:
            blk[i], nxt, stage[i] = nxt, nxt + 1, 1
        elif stage[i] == 1:
            loaded[blk[i]], stage[i] = True, 2
        else:
            stored[blk[i]], stage[i] = True, 0


rng = random.Random(20261206)
n = 0
for ntr, ntc, planes in [(4, 3, 2), (6, 5, 1), (3, 8, 3), (9, 2, 2), (1, 7, 4), (5, 1, 3)]:
    for P in range(ntc + 2, ntc + 6):
        for _ in range(300):
            ok, k = run(ntr, ntc, planes, P, rng)
            assert ok, ("stalled", ntr, ntc, planes, P, k)
            n += 1
    # one fewer block than the bound: some interleaving stalls (where a plane has two rows of tiles)
    if ntr > 1 and ntc > 1:
        assert any(not run(ntr, ntc, planes, ntc + 1, rng)[0] for _ in range(2000)), ("never stalled", ntr, ntc)
print("ok:", n, "runs completed; one block fewer stalls")
