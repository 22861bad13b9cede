#!/usr/bin/env python3
"""Where the time of liftwave.torch's forward + backward goes on the GPU (issue 19):
torch.profiler over 10 steps of DWTForward (64x3x512x512 float32, periodization) with
fixed incoming gradients, as bench/torch_compare.py times them; the kernels and the
host-side operators, sorted by GPU time, then by host time; and the plain library
transform of the same array (one plan, torch tensors) for the floor.

    python3 bench/exp/torch_profile.py [--out FILE]
"""
import argparse
import sys

import torch
from torch.profiler import ProfilerActivity, profile

import liftwave
import liftwave.torch as lt


def flat(c):
    if isinstance(c, torch.Tensor):
        return [c]
    return [a for x in c for a in flat(x)]


def events_ms(fn, n=20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    s.record()
    for _ in range(n):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out = open(a.out, "w") if a.out else sys.stdout
    x = torch.randn(64, 3, 512, 512, device="cuda", requires_grad=True)
    y = torch.empty_like(x)
    copy_ms = events_ms(lambda: y.copy_(x.detach()))
    print("device copy of the input: %.3f ms" % copy_ms, file=out)
    for J, wave in ((1, "haar"), (3, "bior4.4")):
        m = lt.DWTForward(J=J, wave=wave, mode="periodization").cuda()
        outs = flat(m(x))
        grads = [torch.randn_like(o) for o in outs]

        def step():
            x.grad = None
            torch.autograd.backward(flat(m(x)), grads)

        def fwd():
            with torch.no_grad():
                m(x)

        print("\n== DWTForward J=%d %s: forward+backward %.3f ms, forward alone %.3f ms" %
              (J, wave, events_ms(step), events_ms(fwd)), file=out)
        for direction in ("forward", "inverse"):
            p = liftwave.Plan(tuple(x.shape), "float32", wavelet=wave if wave != "bior4.4" else "cdf97",
                              levels=J, mode="periodic", axes=(2, 3), backend="cuda", device=0,
                              inverse=direction == "inverse")
            xd = x.detach()
            print("   library %s alone (Plan on torch tensors, Mallat): %.3f ms" %
                  (direction, events_ms(lambda: p(xd, out=y))), file=out)
        step()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                step()
            torch.cuda.synchronize()
        ka = prof.key_averages()
        print(ka.table(sort_by="cuda_time_total", row_limit=22), file=out)
        print(ka.table(sort_by="cpu_time_total", row_limit=22), file=out)


if __name__ == "__main__":
    main()
