#!/usr/bin/env python3
"""Registers and spills per kernel from `nvcc -Xptxas -v` output (its stderr,
saved to a file), demangled; with a second file, side by side (old new).

  python3 bench/exp/ptxas_table.py NEW.ptxas [OLD.ptxas] [--grep SUBSTRING]
"""
import re
import subprocess
import sys


def parse(path):
    out, cur = {}, None
    for line in open(path, errors="replace"):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            cur = m.group(1)
            out[cur] = {"regs": None, "spill_st": 0, "spill_ld": 0, "stack": 0}
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            out[cur]["stack"], out[cur]["spill_st"], out[cur]["spill_ld"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[cur]["regs"] = int(m.group(1))
    return out


def demangle(names):
    p = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return dict(zip(names, p.stdout.splitlines())) if p.returncode == 0 else {n: n for n in names}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    pat = sys.argv[sys.argv.index("--grep") + 1] if "--grep" in sys.argv else ""
    if pat in args:
        args.remove(pat)
    new = parse(args[0])
    old = parse(args[1]) if len(args) > 1 else {}
    names = demangle(sorted(new))
    for k in sorted(new, key=lambda k: names[k]):
        d = names[k]
        if pat and pat not in d:
            continue
        n = new[k]
        s = "%4s regs %4d B spill" % (n["regs"], n["spill_st"])
        if k in old:
            o = old[k]
            s = "%4s -> %s" % (o["regs"], s) + ("" if o["spill_st"] == n["spill_st"] else " (was %d)" % o["spill_st"])
        print("%s  %s" % (s, d[:160]))


if __name__ == "__main__":
    main()
