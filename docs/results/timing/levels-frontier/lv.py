#!/usr/bin/env python3
# lv.py <run.err>...: per run, after the first 2 s: windows with room (busy under 0.5), overloaded,
# full; the mean fill; how often the batch level moved up or down; windows by batches a tick
import os, sys, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from levels import windows
for f in sys.argv[1:]:
    rows=windows(f)
    rows=rows[20:]  # skip the first 2 s
    n=len(rows)
    room=sum(float(r['busy'])<0.5 for r in rows)
    over=sum(r['over']=='true' for r in rows)
    full=sum(r['full']=='true' for r in rows)
    fill=sum(float(r['fill']) for r in rows)/n
    K=collections.Counter(r['K'] for r in rows)
    up=sum(int(r['L'].split('->')[1])>int(r['L'].split('->')[0]) for r in rows)
    dn=sum(int(r['L'].split('->')[1])<int(r['L'].split('->')[0]) for r in rows)
    print(f"{f:50s} n={n} room={room} over={over} full={full} meanfill={fill:.3f} up={up} down={dn} K={dict(sorted(K.items()))}")
