#!/usr/bin/env python3
"""GPU machine: liftwave.torch on CUDA against the CPU on small planes, to find which route breaks
(tests/python/test_torch_gpu.py::test_compat_on_cuda_equals_cpu failed on an H100 at 79df681: haar
J=3 on (4,3,64,64), the CUDA lowpass half the CPU's).  For each case: the pytorch_wavelets front
(DWTForward, lw_execute_bands), the plain transform (dwt2, lw_execute) and the wavedec2 bands, max
abs difference of every output, and the CUDA plan's lw_plan_describe lines.
    python3 bench/exp/compat_cuda_check.py
"""
import torch

import liftwave.torch as lwt
from liftwave import _native

torch.manual_seed(0)


def diff(a, b):
    return max(float((x.cpu() - y).abs().max()) for x, y in zip(a, b))


def flat(out):
    yl, yh = out
    return [yl] + list(yh)


for shape in [(4, 3, 64, 64), (1, 1, 64, 64), (12, 64, 64), (4, 3, 128, 128), (4, 3, 512, 512)]:
    x = torch.randn(*shape)
    for wave in ("haar", "db2", "bior2.2", "bior4.4"):
        for J in (1, 2, 3):
            a = flat(lwt.DWTForward(J, wave, "periodization")(x))
            b = flat(lwt.DWTForward(J, wave, "periodization").cuda()(x.cuda()))
            d = [float((p.cpu() - q).abs().max()) for p, q in zip(b, a)]
            print("front %-16s %-8s J=%d  max|cuda-cpu| per band (yl, yh coarse..fine): %s"
                  % ("x".join(map(str, shape)), wave, J, " ".join("%.2g" % v for v in d)), flush=True)
    for w in ("haar", "cdf53", "cdf97", "d4"):
        for J in (1, 3):
            p = lwt.dwt2(x, w, J, "periodic")
            q = lwt.dwt2(x.cuda(), w, J, "periodic")
            print("dwt2  %-16s %-8s J=%d  max|cuda-cpu| %.2g" % ("x".join(map(str, shape)), w, J,
                  float((q.cpu() - p).abs().max())), flush=True)

# the plans the failing case runs, as the library describes them
nb = 12
for w, g in (("haar", None), ("cdf53", (2 ** 0.5, -(2 ** -0.5)))):
    plan = _native.cached_plan((nb, 64, 64), "float32", 0, w, 3, "periodic", "mallat", (1, 2), False, "auto", 0,
                               gain=g)
    print("== describe %s gain %s (12, 64, 64) J=3 cuda" % (w, g))
    print(plan.describe())
