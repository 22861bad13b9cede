#!/usr/bin/env python3
"""A model of the in-place tile kernel's hand-over (src/cuda/k_tile2d_ip.cu) run under random
schedules: blocks take tickets in start order, at most `resident` run at once, and each step of a
block (wait, stash write, stash reads, store) runs when the scheduler picks it.  It reports
  B  a stash slot read whose last writer is not the slot's owner (or an owner that has not written),
  A  a window sample read from the array after the tile owning it stored.
--fixed waits on readdone[t - slots] too before reusing the slot (the owner itself), the
current kernel's rule; --old waits only on the readers t - slots + 1 .. t - slots + ntc + 1.

  python3 bench/exp/ip_ring_model.py --ntr 2 --ntc 2 --planes 133 --slots 101 --old
"""
import argparse
import random


def run(a, rng):
    per = a.ntr * a.ntc
    tiles = per * a.planes
    stashed = [False] * tiles
    readdone = [False] * tiles
    stored = [False] * tiles
    writer = [-1] * a.slots
    viol = []

    def plane_first(t):
        return t // per * per

    def lower_parts(t):  # tiles whose parts of t's window come from their stash slots
        first = plane_first(t)
        ti, tj = divmod(t - first, a.ntc)
        out = []
        for di, dj in ((0, -1), (-1, -1), (-1, 0), (-1, 1)):
            i, j = ti + di, tj + dj
            if 0 <= i < a.ntr and 0 <= j < a.ntc:
                out.append(first + i * a.ntc + j)
        return out

    def higher_parts(t):  # tiles whose parts of t's window t reads from the array
        first = plane_first(t)
        ti, tj = divmod(t - first, a.ntc)
        out = []
        for di, dj in ((0, 1), (1, -1), (1, 0), (1, 1)):
            i, j = ti + di, tj + dj
            if 0 <= i < a.ntr and 0 <= j < a.ntc:
                out.append(first + i * a.ntc + j)
        return out

    def prog(t):
        lo = max(t - a.ntc - 1, plane_first(t))
        if t >= a.slots:
            start = t - a.slots + (1 if a.old else 0)
            for x in range(start, t - a.slots + a.ntc + 2):
                while not readdone[x]:
                    yield
        for u in higher_parts(t):  # step 1: the window from the array
            if stored[u]:
                viol.append(("A", t, u))
        yield
        writer[t % a.slots] = t  # step 2: the stash
        yield
        stashed[t] = True
        for x in range(lo, t):  # step 3
            while not stashed[x]:
                yield
        for u in lower_parts(t):
            yield
            if writer[u % a.slots] != u:
                viol.append(("B", t, u, writer[u % a.slots]))
        readdone[t] = True
        for x in range(lo, t):  # step 4
            while not readdone[x]:
                yield
        stored[t] = True

    active, nxt = [], 0
    while nxt < tiles or active:
        while nxt < tiles and len(active) < a.resident:
            active.append(prog(nxt))
            nxt += 1
        # a few blocks are slow: picked rarely
        k = rng.randrange(len(active))
        if rng.random() < a.stall and k % 7 == 0:
            continue
        try:
            next(active[k])
        except StopIteration:
            active.pop(k)
    return viol


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ntr", type=int, default=2)
    p.add_argument("--ntc", type=int, default=2)
    p.add_argument("--planes", type=int, default=133)
    p.add_argument("--slots", type=int, default=101)
    p.add_argument("--resident", type=int, default=400)
    p.add_argument("--stall", type=float, default=0.97)
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--old", action="store_true")
    a = p.parse_args()
    bad = 0
    for s in range(a.runs):
        v = run(a, random.Random(s))
        if v:
            bad += 1
            print("seed", s, len(v), "violations, first:", v[:3])
    print(f"{'old' if a.old else 'fixed'} rule: {bad} of {a.runs} schedules violated")


if __name__ == "__main__":
    main()
