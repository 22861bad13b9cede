#!/usr/bin/env python3
"""One kernel's SASS by source line, without a GPU: nvdisasm -gi (line info of
inlined code) on a cubin built with -lineinfo, each instruction charged to the
kernel's own source line it was inlined into (the outermost), so that a
lambda's or helper's code counts where the kernel calls it.

  nvcc -std=c++17 -arch=sm_90 -cubin -O3 -lineinfo --expt-relaxed-constexpr \
       -Iinclude -Isrc -Isrc/cuda -DLW_HAVE_CUDA=1 src/cuda/k_walk2d.cu -o k.cubin
  python3 bench/exp/sass_lines.py k.cubin KERNEL_SUBSTRING [--top N] [--listing FILE]

KERNEL_SUBSTRING picks the first kernel whose mangled name contains it (e.g.
_Z6walk2dIfLi2ELi0ELi0ELi0E).  --listing writes every instruction as
"line address instruction", with the branch labels, for following one path
by hand (a loop's instructions a trip: from its label to its back branch).
nvdisasm: $NVDISASM, else the one bench/exp/sass_here.sh unpacks
(/tmp/lw-cuobjdump/bin), else on PATH, else Triton's (PyTorch's wheels carry
it).  Static counts: a loop's body counts once, a branch's both sides."""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

FILE = re.compile(r'## File "([^"]+)", line (\d+)(.*)')
INSN = re.compile(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*)")


def nvdisasm():
    found = [os.environ.get("NVDISASM"), "/tmp/lw-cuobjdump/bin/nvdisasm", shutil.which("nvdisasm")]
    try:  # PyTorch's Triton carries one
        import importlib.util
        spec = importlib.util.find_spec("triton")
        if spec and spec.submodule_search_locations:
            found.append(os.path.join(spec.submodule_search_locations[0], "backends", "nvidia", "bin", "nvdisasm"))
    except ImportError:
        pass
    for p in found:
        if p and os.access(p, os.X_OK):
            return p
    sys.exit("sass_lines.py: no nvdisasm (set NVDISASM, run bench/exp/sass_here.sh once, or install torch)")


def kernel_text(cubin, sub):
    out = subprocess.run([nvdisasm(), "-gi", "-c", cubin], capture_output=True, text=True, check=True).stdout
    lines, keep = [], False
    for l in out.splitlines():
        if l.startswith("//----") and ".text." in l:
            if keep:
                break
            keep = sub in l
        if keep:
            lines.append(l)
    if not lines:
        sys.exit("sass_lines.py: no kernel whose name contains %s" % sub)
    return lines


def main():
    ap = argparse.ArgumentParser(description="one kernel's SASS by source line")
    ap.add_argument("cubin")
    ap.add_argument("kernel", help="a substring of the kernel's mangled name")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--listing", help="file for the instructions with their lines and the branch labels")
    a = ap.parse_args()
    counts, cur, rows = collections.Counter(), "?", []
    for l in kernel_text(a.cubin, a.kernel):
        m = FILE.search(l)
        if m:
            outer = re.findall(r'inlined at "([^"]+)", line (\d+)', m.group(3))
            f, n = outer[-1] if outer else (m.group(1), m.group(2))
            cur = "%s:%s" % (os.path.basename(f), n)
            continue
        if l.startswith(".L_x"):
            rows.append(l.strip())
            continue
        i = INSN.match(l)
        if i:
            counts[cur] += 1
            rows.append("%s %s %s" % (cur, i.group(1), i.group(2)))
    print("%d instructions" % sum(counts.values()))
    for k, v in counts.most_common(a.top):
        print("%6d %s" % (v, k))
    if a.listing:
        with open(a.listing, "w") as fh:
            fh.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
