#!/usr/bin/env python3
"""A 3-D Haar video patcher on (B, C, T, H, W) tensors (liftwave.torch).

    python3 examples/torch_video_patcher.py [--levels 2] [--device cuda]

As in video tokenizers (NVIDIA Cosmos' Patcher3D), each level applies a one-level
3-D Haar transform to every channel and stacks the eight subbands on the channel
axis: (B, C, T, H, W) -> (B, 8C, T/2, H/2, W/2); `levels` levels give
(B, 8^L C, T/2^L, H/2^L, W/2^L).  The unpatcher inverts it exactly.  Both are
differentiable (the backward passes are the adjoint transforms) and compile
without graph breaks.  float32, float64, and on CPU tensors float16 and bfloat16
(the tokenizers' dtype; stored half, computed in float32 by the library).
"""
import argparse

import torch
from torch import nn

import liftwave.torch as lwt

KEYS = ("aad", "ada", "add", "daa", "dad", "dda", "ddd")


class Patcher3D(nn.Module):
    def __init__(self, levels=1):
        super().__init__()
        self.levels = levels

    def forward(self, x):
        for _ in range(self.levels):
            a, d = lwt.wavedec3(x, "haar", 1, "periodic")
            x = torch.cat([a] + [d[k] for k in KEYS], dim=1)  # band-major channels
        return x


class UnPatcher3D(nn.Module):
    def __init__(self, levels=1):
        super().__init__()
        self.levels = levels

    def forward(self, z):
        for _ in range(self.levels):
            bands = z.chunk(8, dim=1)
            z = lwt.waverec3([bands[0], dict(zip(KEYS, bands[1:]))], "haar", "periodic")
        return z


def demo(shape=(2, 3, 8, 32, 32), levels=2, device="cpu", dtype=torch.float32):
    """Patch and unpatch a random video; returns (patched shape, max round-trip error)."""
    x = torch.randn(shape, device=device, dtype=dtype)
    z = Patcher3D(levels)(x)
    return tuple(z.shape), float((UnPatcher3D(levels)(z) - x).abs().max())


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--levels", type=int, default=2)
    ap.add_argument("--device", default="cpu")
    a = ap.parse_args()
    shape, err = demo(levels=a.levels, device=a.device)
    print("patched shape %s, round-trip error %.2e" % (shape, err))
