#!/usr/bin/env python3
"""Where the time of liftwave.torch's forward + backward steps goes on the GPU (issue 19):
for each case of bench/torch_compare.py (fixed incoming gradients, the leaves' grads cleared
first), the step's time and its parts:

  step     CUDA events around one step (median of the repeats), as torch_compare's median_s
  loop     --loop steps back to back between two events, per step (a training loop's pace)
  issue    host time to enqueue one step: perf_counter over --loop steps without a
           synchronize (the device queue takes them), per step
  gpu      device time of the step's kernels (torch.profiler: the sum of their durations)
  floor    issue time of the least step torch can do on the same leaves and outputs
           (an autograd.Function whose forward is empty_like per output and backward
           empty_like per input): the framework's share of `issue`
  plans    the engines of the library plans the case made (liftwave describe)
then the kernels of a step and the Python functions with most host time (cProfile).

    python3 bench/exp/torch_profile.py [--cases SUBSTR,...] [--loop N] [--out FILE]
    python3 bench/exp/torch_profile.py --parts     the host time of each layer of one call
"""
import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

import liftwave.torch as lwt
from liftwave import _native


def flat(c):
    if isinstance(c, torch.Tensor):
        return [c]
    if isinstance(c, dict):
        return [a for k in sorted(c) for a in flat(c[k])]
    return [a for x in c for a in flat(x)]


def cases():
    """(name, leaves maker, layer maker): torch_compare's cases"""
    def img(dtype):
        return lambda: [torch.randn(64, 3, 512, 512, device="cuda").to(dtype).requires_grad_()]

    def vid(dtype):
        return lambda: [torch.randn(8, 3, 16, 256, 256, device="cuda").to(dtype).requires_grad_()]

    out = []
    for dt, tag in ((torch.float32, ""), (torch.bfloat16, "-bfloat16")):
        for wave in ("haar", "bior4.4"):
            for J in (1, 3):
                out.append(("dwt2-L%d-%s%s" % (J, wave, tag), img(dt),
                            lambda J=J, wave=wave: lwt.DWTForward(J, wave, "periodization").cuda()))
        out.append(("wavedec3-L2-haar%s" % tag, vid(dt), lambda: lambda x: lwt.wavedec3(x, "haar", 2, "periodic")))
    return out


def engine(plan):
    """the engine lines of a plan's description"""
    return "; ".join(l for l in plan.describe().splitlines() if l.startswith(("engine", "adjoint")))


class _Floor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, like):
        ctx.like = x
        return tuple(torch.empty_like(t) for t in like)

    @staticmethod
    def backward(ctx, *g):
        return torch.empty_like(ctx.like), None


def median_events(fn, reps, inner=1):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(reps):
        torch.cuda.synchronize()
        s.record()
        for _ in range(inner):
            fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / inner)
    return statistics.median(ts)


def issue_ms(fn, reps, inner):
    ts = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        ts.append((time.perf_counter() - t) * 1e3 / inner)
    torch.cuda.synchronize()
    return statistics.median(ts)


def parts(out, reps, inner):
    """Host time to issue each layer of the call stack of one DWTForward call (bfloat16
    64x3x512x512 J=1 haar and the 3-D wavedec3 case), innermost first: where the step's
    host time goes beyond the framework's floor."""
    from liftwave.torch import _ops
    for name, shape, naxes, J, mk in (
            ("dwt2-L1-haar-bfloat16", (64, 3, 512, 512), 2, 1, lambda: lwt.DWTForward(1, "haar").cuda()),
            ("wavedec3-L2-haar-bfloat16", (8, 3, 16, 256, 256), 3, 2,
             lambda: lambda x: lwt.wavedec3(x, "haar", 2, "periodic"))):
        x = torch.randn(*shape, device="cuda").to(torch.bfloat16).requires_grad_()
        xd = x.detach()
        f = mk()
        stacked = naxes == 2
        outs = _ops.analysis(xd, "haar", J, "periodic", naxes, _ops.FORWARD, [1.0, 1.0], stacked)
        nb = x.dim() - naxes
        merged = (int(torch.tensor(shape[:nb]).prod()),) + tuple(shape[nb:])
        plan = _native.cached_plan(merged, "bfloat16", 0, "haar", J, "periodic", "mallat",
                                   tuple(range(1, naxes + 1)), False, "auto", 0)
        where, strides = _ops._dense_bands(tuple(shape), naxes, J, stacked, 2)
        ptrs = [outs[i].data_ptr() + off for i, off in where]
        st = torch.cuda.current_stream().cuda_stream
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        steps = [
            ("torch.cuda.current_stream().cuda_stream", lambda: torch.cuda.current_stream(xd.device).cuda_stream),
            ("torch._C._cuda_getCurrentRawStream(0)", (lambda: raw(0)) if raw else None),
            ("x.new_empty(band shape)", lambda: xd.new_empty(outs[-1].shape)),
            ("_native.cached_plan (hit)", lambda: _native.cached_plan(
                merged, "bfloat16", 0, "haar", J, "periodic", "mallat", tuple(range(1, naxes + 1)), False, "auto", 0)),
            ("plan.execute_bands_ptr", lambda: plan._plan.execute_bands_ptr(xd.data_ptr(), ptrs, strides, st)),
            ("_ops._run_bands", lambda: _ops._run_bands(xd, outs, "haar", J, "periodic", naxes, 0, [1.0, 1.0],
                                                        stacked)),
            ("_ops._analysis_impl", lambda: _ops._analysis_impl(xd, "haar", J, "periodic", naxes, 0, [1.0, 1.0],
                                                                stacked)),
            ("layer, no_grad", lambda: f(xd)),
            ("layer, requires_grad", lambda: f(x)),
        ]
        print("\n%s: host time to issue one call (us, median of %d x %d)" % (name, reps, inner), file=out)
        for label, fn in steps:
            if fn is None:
                print("  %-44s (absent in this torch)" % label, file=out)
                continue
            with torch.no_grad() if "no_grad" in label or label.startswith(("_", "plan", "x.", "torch")) \
                    else torch.enable_grad():
                for _ in range(3):
                    fn()
                print("  %-44s %8.1f" % (label, issue_ms(fn, reps, inner) * 1e3), file=out)
        del x, xd, outs
        torch.cuda.empty_cache()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="", help="comma-separated substrings of case names (default all)")
    ap.add_argument("--loop", type=int, default=20)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--out", default=None)
    ap.add_argument("--parts", action="store_true", help="only the host time of each layer of one call")
    a = ap.parse_args()
    out = open(a.out, "w") if a.out else sys.stdout
    if a.parts:
        parts(out, a.reps, 50)
        return
    want = [c for c in a.cases.split(",") if c]
    print("%-26s %8s %8s %8s %8s %8s  plans" % ("case", "step", "loop", "issue", "gpu", "floor"), file=out)
    details = []
    for name, mk_leaves, mk_layer in cases():
        if want and not any(w in name for w in want):
            continue
        leaves = mk_leaves()
        f = mk_layer()
        x = leaves[0]
        outs = flat(f(x))
        grads = [torch.randn_like(o) for o in outs]

        def step():
            x.grad = None
            torch.autograd.backward(flat(f(x)), grads)

        def floor():
            x.grad = None
            torch.autograd.backward(list(_Floor.apply(x, outs)), grads)

        _native._cache.clear()
        for _ in range(3):
            step()
        plans = sorted({"%s %s %s: %s" % (k[3], k[0], ("fwd", "inv", "fwd-adj", "inv-adj")[k[10]],
                                          engine(p)) for k, p in _native._cache.items()})
        t_step = median_events(step, a.reps)
        t_loop = median_events(step, a.reps, a.loop)
        t_issue = issue_ms(step, a.reps, a.loop)
        for _ in range(3):
            floor()
        t_floor = issue_ms(floor, a.reps, a.loop)
        torch.cuda.synchronize()
        n = 10
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(n):
                step()
            torch.cuda.synchronize()
        kern = {}
        for ev in prof.events():
            if ev.device_type == torch.autograd.DeviceType.CUDA:
                c, t = kern.get(ev.name, (0, 0.0))
                kern[ev.name] = (c + 1, t + ev.device_time)
        gpu = sum(t for _, t in kern.values()) / n / 1e3
        print("%-26s %8.3f %8.3f %8.3f %8.3f %8.3f  %d plans" % (name, t_step, t_loop, t_issue, gpu, t_floor,
                                                                len(plans)), file=out)
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(100):
            step()
        pr.disable()
        torch.cuda.synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(14)
        details.append((name, plans, kern, n, s.getvalue()))
        del leaves, x, outs, grads, f
        torch.cuda.empty_cache()
    for name, plans, kern, n, py in details:
        print("\n== %s" % name, file=out)
        for p in plans:
            print("  plan " + p, file=out)
        for k, (c, t) in sorted(kern.items(), key=lambda kv: -kv[1][1]):
            print("  %6.1f us x %4.1f  %s" % (t / c, c / n, k[:110]), file=out)
        print("\n".join("  " + l for l in py.splitlines()[6:26]), file=out)


if __name__ == "__main__":
    main()
