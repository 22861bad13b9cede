# A model check of the in-place tile kernel's protocol (src/cuda/k_tile2d_ip.cu): tickets in launch
# order, each tile's window loaded from the array except the parts of lower tickets, its bottom H
# rows and right H columns stashed in a ring slot, the lower tickets' parts read from their slots,
# stores only after the lower tickets in reach have read.  Random schedules (a random resident set
# of 2 to 40 tiles, a random tile stepping each time), symmetric mirrors at every edge, short last
# tile rows and columns, rings of ntc + 2 (+ 0, 1 or 3) slots, and batches of many planes through
# rings of 10 and 30 spare slots (as the kernel's, which has 16 to 1024).  It reports any needed
# sample read from the array after its owner stored it, any needed lower sample outside its owner's
# stash, or a slot overwritten before its readers read it.  A tile reuses ticket t - slots's slot once
# readdone[] of t - slots (the owner) .. t - slots + ntc + 1 are up; --old leaves the owner out (the
# rule before session 57, whose hole only the many-plane cases show: the last tile of a plane has no
# readers, so without its own flag nothing orders its stash write before the next owner's).
# Usage: python3 bench/exp/ring_model.py [SEEDS] [--old]
import random, sys

OLD = "--old" in sys.argv

def bidx(i, n):
    if n == 1: return 0
    p = 2 * n - 2
    i = i % p
    if i < 0: i += p
    return i if i < n else p - i

def run(P, R, C, TW, TH, H, spare, seed, maxres):
    rnd = random.Random(seed)
    ntc = (C + TW - 1) // TW; ntr = (R + TH - 1) // TH; per = ntc * ntr; T = P * per
    slots = ntc + 2 + spare
    ver = {}  # (b, r, c) -> 1 when stored
    stashed = [0] * T; readdone = [0] * T; occ = [-1] * slots
    viol = []
    def mp(i, n): return i if 0 <= i < n else bidx(i, n)
    # tile state
    nxt = 0; active = []; state = {}
    def needed(ti, tj, j, c):  # window row j / col c within H of the tile's outputs
        r0, c0 = ti * TH, tj * TW
        h = min(TH, R - r0); w = min(TW, C - c0)
        r = r0 - H + j; cc = c0 - H + c
        return r0 - H <= r < r0 + h + H and c0 - H <= cc < c0 + w + H
    done = 0
    while done < T:
        while nxt < T and len(active) < maxres:
            active.append(nxt); state[nxt] = 0; nxt += 1
        tk = rnd.choice(active)
        b, rem = divmod(tk, per); ti, tj = divmod(rem, ntc); first = b * per
        lo = max(tk - ntc - 1, first)
        st = state[tk]
        if st == 0:  # ring wait, then load the window's non-lower part
            if tk >= slots and not all(readdone[x] for x in range(tk - slots + OLD, tk - slots + ntc + 2)): continue
            for j in range(TH + 2 * H):
                rm = mp(ti * TH - H + j, R); rt = rm // TH
                for c in range(TW + 2 * H):
                    cm = mp(tj * TW - H + c, C); ct = cm // TW
                    lower = rt < ti or (rt == ti and ct < tj)
                    if not lower and ver.get((b, rm, cm)) and needed(ti, tj, j, c):
                        viol.append(("array read after store", tk, (b, rm, cm)))
            state[tk] = 1
        elif st == 1:  # stash own bottom rows / right cols
            occ[tk % slots] = tk; stashed[tk] = 1; state[tk] = 2
        elif st == 2:  # wait stashed of lower tickets, read their parts
            if not all(stashed[x] for x in range(lo, tk)): continue
            for j in range(TH + 2 * H):
                rm = mp(ti * TH - H + j, R); rt = rm // TH
                for c in range(TW + 2 * H):
                    cm = mp(tj * TW - H + c, C); ct = cm // TW
                    if not (rt < ti or (rt == ti and ct < tj)): continue
                    if not needed(ti, tj, j, c): continue
                    own = first + rt * ntc + ct
                    br = rm - (rt + 1) * TH + H; rc = cm - (ct + 1) * TW + H
                    if br < 0 and rc < 0: viol.append(("needed sample not stashed", tk, (rm, cm), own)); continue
                    if occ[own % slots] != own: viol.append(("slot overwritten", tk, own, occ[own % slots]))
                    if own < lo: viol.append(("owner below lo", tk, own, lo))
            readdone[tk] = 1; state[tk] = 3
        elif st == 3:  # wait readdone of lower, store own region
            if not all(readdone[x] for x in range(lo, tk)): continue
            for r in range(ti * TH, min(R, ti * TH + TH)):
                for c in range(tj * TW, min(C, tj * TW + TW)):
                    ver[(b, r, c)] = 1
            active.remove(tk); done += 1
        if len(viol) > 20: break
    return viol

if __name__ == "__main__":
    cases = [(6, 40, 300, 128, 32, 6), (6, 20, 150, 128, 32, 6), (4, 40, 300, 128, 32, 4), (3, 100, 700, 256, 32, 4),
             (4, 37, 131, 128, 32, 6), (5, 10, 75, 128, 32, 6), (3, 70, 515, 256, 32, 6)]
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 20
    runs = [(c, spare, maxres) for c in cases for spare in (0, 1, 3) for maxres in (2, 7, 40)]
    runs += [((40, 37, 131, 128, 32, 4), spare, 60) for spare in (10, 30)]
    tot = 0
    for (P, R, C, TW, TH, H), spare, maxres in runs:
        for seed in range(seeds if P < 40 else max(1, seeds // 5)):
            v = run(P, R, C, TW, TH, H, spare, seed * 1000 + spare * 10 + maxres, maxres)
            tot += 1
            if v:
                print("VIOLATION", (P, R, C, TW, TH, H, spare, seed, maxres), v[:3]); sys.exit(1)
    print("no violation in", tot, "runs")
