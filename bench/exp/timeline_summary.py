#!/usr/bin/env python3
"""Summary of bench/exp/cpu3d_timeline.sh output (timeline.txt): per variant
and case, the times of the rounds, their median, and the medians of the
busy mean / max and of the units a thread ran."""
import collections, re, statistics, sys

cur = None
t = collections.defaultdict(list); bmean = collections.defaultdict(list)
bmax = collections.defaultdict(list); units = collections.defaultdict(list)
for line in open(sys.argv[1] if len(sys.argv) > 1 else 'timeline.txt'):
    m = re.match(r'== round (\d+) threads (\d+) variant (\S+) case (.*)', line)
    if m:
        cur = (m.group(2), m.group(3), m.group(4).strip())
        continue
    m = re.search(r'\| median ([\d.]+) ms', line)
    if m:
        t[cur].append(float(m.group(1)))
    m = re.search(r'(\d+)-(\d+) units a thread.*busy mean ([\d.]+) max ([\d.]+)', line)
    if m:
        bmean[cur].append(float(m.group(3))); bmax[cur].append(float(m.group(4)))
        units[cur].append(m.group(1) + '-' + m.group(2))
byvar = collections.defaultdict(list)
for k in sorted(t):
    med = statistics.median(t[k]); byvar[(k[0], k[1])].append(med)
    print('th %-3s %-44s %-16s %s  median %.3f | busy mean %.3f max %.3f | units %s' % (
        k[0], k[1], k[2], ' '.join('%.2f' % x for x in t[k]), med,
        statistics.median(bmean[k]), statistics.median(bmax[k]), ' '.join(units[k])))
for k in sorted(byvar):
    print('th %-3s %-44s mean of the case medians %.3f ms' % (k[0], k[1], statistics.mean(byvar[k])))
