#!/usr/bin/env python3
# gaps.py <run dir>...: silences between store calls (4th trace column, one time a call) per run:
# calls, median gap, and how many gaps pass 0.5, 1 and 3 ms (and in the run's first 5 s)
import os, sys, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calls import call_times
for d in sys.argv[1:]:
    ts = call_times(d)
    g = [b - a for a, b in zip(ts, ts[1:])]
    t0 = ts[0]
    early = [x for x, t in zip(g, ts[1:]) if t - t0 < 5e9]
    c = lambda xs, th: sum(1 for x in xs if x > th)
    print(f"{d}: {len(ts)} calls, median gap {statistics.median(g)/1e3:.0f} us, >0.5 ms {c(g,5e5)}, >1 ms {c(g,1e6)} (first 5 s {c(early,1e6)}), >3 ms {c(g,3e6)}")
