#!/usr/bin/env python3
"""A small CNN with wavelet downsampling (liftwave.torch), trained a few steps on random data.

    python3 examples/torch_wavelet_cnn.py [--steps 20] [--device cuda]

Instead of strided convolutions or pooling, each stage halves the resolution
with a one-level Haar DWT and stacks the four subbands (LL, LH, HL, HH) on the
channel axis: (N, C, H, W) -> (N, 4C, H/2, W/2), lossless and differentiable
(its backward pass is the exact adjoint, here the inverse Haar transform).
The layers are torch.library custom operators: the model compiles with
torch.compile without graph breaks.
"""
import argparse

import torch
from torch import nn

from liftwave.torch import DWTForward


class WaveletDown(nn.Module):
    """(N, C, H, W) -> (N, 4C, H/2, W/2): one Haar level, subbands on channels."""

    def __init__(self, wave="haar"):
        super().__init__()
        self.dwt = DWTForward(J=1, wave=wave, mode="periodization")

    def forward(self, x):
        yl, (yh,) = self.dwt(x)  # yl (N, C, h, w), yh (N, C, 3, h, w)
        n, c, h, w = yl.shape
        return torch.cat([yl.unsqueeze(2), yh], dim=2).reshape(n, 4 * c, h, w)


class WaveletCNN(nn.Module):
    def __init__(self, in_channels=3, width=8, classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, width, 3, padding=1), nn.ReLU(),
            WaveletDown(), nn.Conv2d(4 * width, 2 * width, 3, padding=1), nn.ReLU(),
            WaveletDown(), nn.Conv2d(8 * width, 4 * width, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Linear(4 * width, classes)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3)))


def train(steps=20, device="cpu", batch=16, size=32, seed=0, compile=False):
    """Fit random labels of random images; returns the losses (they fall: the net memorises)."""
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    x = torch.randn(batch, 3, size, size, generator=g).to(device)
    y = torch.randint(0, 10, (batch,), generator=g).to(device)
    model = WaveletCNN().to(device)
    run = torch.compile(model, fullgraph=True, backend="aot_eager") if compile else model
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(run(x), y)
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return losses


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--compile", action="store_true", help="torch.compile the model (aot_eager)")
    a = ap.parse_args()
    losses = train(a.steps, a.device, compile=a.compile)
    print("loss: first %.4f, last %.4f over %d steps" % (losses[0], losses[-1], len(losses)))
