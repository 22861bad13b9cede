#!/usr/bin/env python3
"""liftwave.torch layers against pytorch_wavelets and ptwt: forward + backward on one GPU.

    python3 bench/torch_compare.py [--quick] [--tag h100] [--out FILE | --no-save]

Also run by bench/python_compare.py --gpu (tests/gpu/run.sh stage python), into
the same records.  Cases (issue 19), all float32 on CUDA, timed as one forward
and one backward pass (torch.autograd.backward with fixed incoming gradients),
CUDA events on the current stream:
  fwdbwd-dwt2-64x3x512x512-L{1,3}-{haar,bior4.4}
      liftwave.torch.DWTForward(J, wave, "periodization") against pytorch_wavelets
      DWTForward (same arguments) and ptwt.wavedec2(mode="periodic") (target >= 10x both)
  fwdbwd-idwt2-64x3x512x512-L3-{haar,bior4.4}
      DWTInverse against pytorch_wavelets DWTInverse
  fwdbwd-wavedec3-8x3x16x256x256-L2-haar
      liftwave.torch.wavedec3(x, "haar", 2, "periodic") against ptwt.wavedec3
      (pytorch_wavelets has no 3-D transform)
  fwdbwd-dwt2-64x3x512x512-L{1,3}-{haar,bior4.4}-bfloat16, fwdbwd-wavedec3-...-L2-haar-bfloat16
      the same layers on bfloat16 tensors, no peer (target >= 0.6 of the device copy)
Each record: case, median_s, direction "forward+backward", peer, peer_median_s,
speedup (peer / ours) (each sample one step between two events: the host's time
to issue the step counts whenever it exceeds the device's), loop_median_s,
peer_loop_median_s and loop_speedup (each sample --loop steps back to back,
per step: a training loop's pace, launch gaps hidden behind the device's work),
graph_median_s, peer_graph_median_s and graph_speedup (the step captured in a CUDA graph
and replayed, as torch.compile(mode="reduce-overhead") runs it: no host time per launch;
graph_max_rel_diff checks the replay's gradients against an eager step's; graph_error
where capture fails), copy_median_s (a device copy of the input, same run) and
fraction_of_copy = 2 x copy / ours (graph_fraction_of_copy from the graph's time;
forward + backward move at least twice the
input's bytes each way), pyramid_factor and pyramid_fraction_of_copy /
pyramid_graph_fraction_of_copy (the same against the bytes a pyramid moves level by
level, the convention of liftwave bench's matrix: each level reads and writes its
input, 1 + 1/4 + ... + 1/4^(J-1) of the input's bytes in 2-D, 1/8^k in 3-D; a
fused multi-level kernel moves fewer, so these may exceed 1), peak_bytes: torch.cuda.max_memory_allocated during one
forward + backward above what was allocated before it (the input and the incoming
gradients), next to bound_bytes = the outputs + the input's gradient (the issue's
"no saved activations beyond the output"), and the peer's peak_bytes as
peer_peak_bytes.  Results are checked against the peer before they are timed.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_compare as pc  # noqa: E402  (Records, GpuTimer, the file naming)


def _flat(c):
    import torch
    if isinstance(c, torch.Tensor):
        return [c]
    if isinstance(c, dict):
        return [a for k in sorted(c) for a in _flat(c[k])]
    return [a for x in c for a in _flat(x)]


def _step(fn, leaves, grads):
    """One forward + backward: fn() with the given incoming gradients, the leaves' grads cleared first."""
    import torch

    def run():
        for v in leaves:
            v.grad = None
        torch.autograd.backward(_flat(fn()), grads)
    return run


def _setup(fn):
    """(incoming gradients, the outputs' bytes) for fn()."""
    import torch
    outs = _flat(fn())
    g = torch.Generator(device=outs[0].device).manual_seed(1)
    grads = [torch.randn(o.shape, device=o.device, dtype=o.dtype, generator=g) for o in outs]
    return grads, sum(o.numel() * o.element_size() for o in outs)


def _peak(run, device):
    import torch
    if device != "cuda":
        return None
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    run()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() - base


def _rel(a, b):
    a, b = a.detach().double(), b.detach().double()
    return float((a - b).abs().max() / b.abs().max())


LOOP = 10  # steps back to back in a loop sample (--loop)


def _graphed(run, leaves):
    """run() (a step) captured in a CUDA graph, as torch.compile(mode="reduce-overhead") or a
    training loop under torch.cuda.graph runs it: (the graph's replay, the largest relative
    difference of the leaves' gradients after a replay from those of an eager step)."""
    import torch
    run()
    want = [v.grad.detach().clone() for v in leaves]
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream, as torch.cuda.graph's docs ask
        for _ in range(2):
            run()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        run()
    g.replay()
    torch.cuda.synchronize()
    return g.replay, max(_rel(v.grad, w) for v, w in zip(leaves, want))


def _graph_times(t, run, leaves, reps, tag):
    """{graph_median_s, graph_max_rel_diff} of run() replayed from a CUDA graph (tag names the
    keys' prefix), or {<tag>graph_error} where capture fails."""
    try:
        replay, err = _graphed(run, leaves)
        return {tag + "graph_median_s": t.median(replay, reps), tag + "graph_max_rel_diff": err}
    except Exception as e:  # noqa: BLE001 - say why, go on
        return {tag + "graph_error": "%s: %s" % (type(e).__name__, str(e)[:200])}


def _pyramid_factor(levels, ndim):
    """The bytes a pyramid of `levels` levels over `ndim` axes moves level by level, over one level's."""
    return sum((2.0 ** -ndim) ** k for k in range(levels))


def _case(rec, t, reps, case, leaves, ours, peers, copy_s, target, device, levels=1, ndim=2):
    """Time ours() and each (name, fn, check) peer with gradients into `leaves`, one step per
    sample and LOOP steps back to back; one record per peer (one without a peer when none ran).
    levels, ndim: the pyramid's shape, for the pyramid_* fractions."""
    grads, out_bytes = _setup(ours)
    run = _step(ours, leaves, grads)
    ours_s = t.median(run, reps)
    ours_loop = t.median(run, reps, LOOP)
    peak = _peak(run, device)
    in_bytes = sum(v.numel() * v.element_size() for v in leaves)
    common = dict(direction="forward+backward", copy_median_s=copy_s, fraction_of_copy=2 * copy_s / ours_s,
                  loop_median_s=ours_loop, loop=LOOP, loop_fraction_of_copy=2 * copy_s / ours_loop,
                  peak_bytes=peak, bound_bytes=out_bytes + in_bytes, target=target)
    pf = _pyramid_factor(levels, ndim)
    common.update(pyramid_factor=pf, pyramid_fraction_of_copy=pf * common["fraction_of_copy"])
    if device == "cuda":
        common.update(_graph_times(t, run, leaves, reps, ""))
        if "graph_median_s" in common:
            common["graph_fraction_of_copy"] = 2 * copy_s / common["graph_median_s"]
            common["pyramid_graph_fraction_of_copy"] = pf * common["graph_fraction_of_copy"]
    done = 0
    for name, fn, check in peers:
        try:
            pg, _ = _setup(fn)
            err = check(fn()) if check is not None else None
            prun = _step(fn, leaves, pg)
            peer_s = t.median(prun, reps)
            peer_loop = t.median(prun, reps, LOOP)
            extra = dict(common, peer_peak_bytes=_peak(prun, device), peer_loop_median_s=peer_loop,
                         loop_speedup=peer_loop / ours_loop)
            if "graph_median_s" in common:
                extra.update(_graph_times(t, prun, leaves, reps, "peer_"))
                if "peer_graph_median_s" in extra:
                    extra["graph_speedup"] = extra["peer_graph_median_s"] / common["graph_median_s"]
            if err is not None:
                extra["max_rel_diff"] = err
            rec.add(case, ours_s, name, peer_s, **extra)
            done += 1
        except Exception as e:  # noqa: BLE001 - missing, or failing on this torch: say so, go on
            print("%s: %s: %s: %s" % (case, name, type(e).__name__, e))
    if not done:
        rec.add(case, ours_s, **common)


class HostTimer:
    """For --device cpu (a smoke test of this script where there is no GPU)."""

    @staticmethod
    def median(fn, repeat, inner=1):
        return pc.host_median(fn, repeat, inner)


def torch_layer_cases(rec, quick, device="cuda"):
    import torch
    import liftwave.torch as lwt

    t = pc.GpuTimer("torch") if device == "cuda" else HostTimer()
    reps = 5 if quick else 20
    shape = (4, 3, 128, 128) if quick else (64, 3, 512, 512)
    x = torch.randn(*shape, device=device, requires_grad=True)
    y = torch.empty_like(x)
    copy_s = t.median(lambda: y.copy_(x.detach()), reps)
    dims = "x".join(map(str, shape))
    try:
        import pytorch_wavelets as pw
    except ImportError as e:
        print("pytorch_wavelets: not installed (%s)" % e)
        pw = None
    try:
        import ptwt
        import pywt
    except ImportError as e:
        print("ptwt: not installed (%s)" % e)
        ptwt = None
    for wave in ("haar", "bior4.4"):
        for J in (1, 3):
            ours = lwt.DWTForward(J, wave, "periodization").to(device)
            ref = ours(x.detach())
            peers = []
            if pw is not None:
                theirs = pw.DWTForward(J=J, wave=wave, mode="periodization").to(device)
                peers.append(("pytorch_wavelets", lambda f=theirs: f(x), lambda r, ref=ref: _rel(r[0], ref[0])))
            if ptwt is not None:
                w = pywt.Wavelet(wave)
                peers.append(("ptwt(mode=periodic)", lambda w=w, J=J: ptwt.wavedec2(x, w, level=J, mode="periodic"),
                              None))
            _case(rec, t, reps, "fwdbwd-dwt2-%s-L%d-%s" % (dims, J, wave), [x], lambda f=ours: f(x), peers, copy_s,
                  ">= 10x pytorch_wavelets and ptwt", device, J)
        # the inverse, from the coefficients of the forward
        J = 3
        yl, yh = lwt.DWTForward(J, wave, "periodization").to(device)(x.detach())
        leaves = [c.requires_grad_() for c in [yl] + yh]
        inv = lwt.DWTInverse(wave, "periodization").to(device)
        peers = []
        if pw is not None:
            theirs = pw.DWTInverse(wave=wave, mode="periodization").to(device)
            peers.append(("pytorch_wavelets", lambda f=theirs: f((yl, yh)),
                          lambda r: _rel(r, x.detach())))
        _case(rec, t, reps, "fwdbwd-idwt2-%s-L%d-%s" % (dims, J, wave), leaves, lambda: inv((yl, yh)), peers,
              copy_s, "faster than pytorch_wavelets", device, J)
        yl = yh = leaves = None
    x = y = None  # free the 2-D cases' memory
    # bfloat16 (stored half, computed in float32 by the library): the fraction of the
    # device copy of the same bf16 tensor; the peers do not run bf16 periodization
    xb = torch.randn(*shape, device=device).to(torch.bfloat16).requires_grad_()
    yb = torch.empty_like(xb)
    copy_b = t.median(lambda: yb.copy_(xb.detach()), reps)
    for wave in ("haar", "bior4.4"):
        for J in (1, 3):
            ours = lwt.DWTForward(J, wave, "periodization").to(device)
            _case(rec, t, reps, "fwdbwd-dwt2-%s-L%d-%s-bfloat16" % (dims, J, wave), [xb], lambda f=ours: f(xb), [],
                  copy_b, ">= 0.6 of the device copy", device, J)
    xb = yb = None
    # 3-D haar, 2 levels, on a video batch
    shape3 = (2, 3, 8, 64, 64) if quick else (8, 3, 16, 256, 256)
    v = torch.randn(*shape3, device=device, requires_grad=True)
    vy = torch.empty_like(v)
    copy3 = t.median(lambda: vy.copy_(v.detach()), reps)
    peers = []
    if ptwt is not None:
        ref = lwt.wavedec3(v.detach(), "haar", 2, "periodic")
        peers.append(("ptwt(mode=periodic)", lambda: ptwt.wavedec3(v, pywt.Wavelet("haar"), level=2, mode="periodic"),
                      lambda r, ref=ref: _rel(r[0], ref[0])))
    _case(rec, t, reps, "fwdbwd-wavedec3-%s-L2-haar" % "x".join(map(str, shape3)), [v],
          lambda: lwt.wavedec3(v, "haar", 2, "periodic"), peers, copy3, "faster than ptwt", device, 2, 3)
    v = vy = None
    vb = torch.randn(*shape3, device=device).to(torch.bfloat16).requires_grad_()
    vyb = torch.empty_like(vb)
    copy3b = t.median(lambda: vyb.copy_(vb.detach()), reps)
    _case(rec, t, reps, "fwdbwd-wavedec3-%s-L2-haar-bfloat16" % "x".join(map(str, shape3)), [vb],
          lambda: lwt.wavedec3(vb, "haar", 2, "periodic"), [], copy3b, ">= 0.6 of the device copy", device, 2, 3)


def main():
    global LOOP
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats (a smoke test)")
    ap.add_argument("--out", help="JSON file for the records")
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--device", default="cuda", help="cuda (the records), or cpu: a smoke test without a GPU")
    ap.add_argument("--tag", default=pc.platform.node() or "host", help="machine name in the file name")
    ap.add_argument("--loop", type=int, default=LOOP, help="steps back to back in a loop sample [%(default)s]")
    args = ap.parse_args()
    if args.loop < 1:
        ap.error("--loop must be at least 1")
    LOOP = args.loop
    import torch
    if args.device == "cuda" and not torch.cuda.is_available():
        print("torch_compare: PyTorch sees no CUDA device; nothing to time (--device cpu: a smoke test)")
        return 0
    name = "gpu: " + torch.cuda.get_device_name() if args.device == "cuda" else "cpu: " + pc.cpu_name()
    rec = pc.Records(name, "python3 bench/torch_compare.py " + " ".join(sys.argv[1:]))
    torch_layer_cases(rec, args.quick, args.device)
    if not args.no_save and not (args.quick and not args.out):
        path = args.out or os.path.join(pc.ROOT, "bench", "results", "torch-%s-%s-%s-%s.json" % (
            args.device, args.tag, rec.date[:10], rec.commit))
        pc.save(rec, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
