#!/usr/bin/env python3
# ranges.py <run.err>...: from the scratch build's LEVELS lines, per run: the first 60 windows'
# arrivals a second, fill and ticks a second (10th-90th percentiles), the share of them at one batch
# a tick and the tick cap; after them, the fill of the windows with over 200 points missed or behind,
# and the arrivals of every window (10th-90th percentiles)
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from levels import windows
def pct(xs, lo=0.1, hi=0.9):
    xs = sorted(xs)
    return (xs[int(lo * (len(xs) - 1))], xs[int(hi * (len(xs) - 1))]) if xs else (float('nan'),) * 2
for f in sys.argv[1:]:
    rows = windows(f)
    first, rest = rows[:60], rows[60:]
    a = pct([float(r['arr']) for r in first]); fi = pct([float(r['fill']) for r in first])
    tps = pct([float(r['ticks']) * 10 for r in first])
    capk1 = sum(1 for r in first if r['K'] == '1' and float(r['tps']) >= 6399) / max(1, len(first))
    stall = [float(r['fill']) for r in rest if int(r['missed']) > 200]
    sf = pct(stall); ra = pct([float(r['arr']) for r in rest])
    print(f"{f}: first 60: arrivals/s {a[0]:.0f}-{a[1]:.0f}, fill {fi[0]:.2f}-{fi[1]:.2f}, ticks/s {tps[0]:.0f}-{tps[1]:.0f}, "
          f"{capk1:.0%} at K=1 and the cap; later stall windows {len(stall)}: fill {sf[0]:.2f}-{sf[1]:.2f}; "
          f"later arrivals/s {ra[0]:.0f}-{ra[1]:.0f}")
