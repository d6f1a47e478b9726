import os, sys, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calls import call_times
for d in sys.argv[1:]:
    ts = call_times(d)
    t0=ts[0]
    h=collections.Counter(); early=0
    for a,b in zip(ts,ts[1:]):
        g=b-a
        if 5e5<g<=1e6:
            h[round(g/156250)]+=1
            if a-t0<5e9: early+=1
    print(d, 'gaps 0.5-1 ms by periods:', dict(sorted(h.items())), 'first 5 s:', early)
