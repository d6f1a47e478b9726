#!/usr/bin/env python3
# short.py <run dir>...: is a silence of 0.5-1 ms the tick period of the moment? For each such gap,
# whether the median gap between calls in the 50 ms around it is within 20 % of it
import os, sys, statistics, bisect
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times
for d in sys.argv[1:]:
    ts = call_times(d)
    g=[b-a for a,b in zip(ts,ts[1:])]
    same=0; other=0; n=0
    for i,x in enumerate(g):
        if 5e5<x<=1e6:
            n+=1
            lo=bisect.bisect_left(ts, ts[i]-25_000_000); hi=bisect.bisect_left(ts, ts[i]+25_000_000)
            med=statistics.median(g[max(lo,0):max(hi-1,lo+1)])
            if abs(med-x) < 0.2*x: same+=1
            else: other+=1
    print(f"{d}: {n} gaps of 0.5-1 ms; the 50 ms around it has a median gap within 20 % of it: {same}; not: {other}")
