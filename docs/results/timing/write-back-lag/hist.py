import sys, collections
for d in sys.argv[1:]:
    ts=[]; last=None
    for line in open(d+'/run.trace'):
        f=line.split()
        if len(f)<4: continue
        t=int(f[3])
        if t!=last: ts.append(t); last=t
    t0=ts[0]
    h=collections.Counter(); early=0
    for a,b in zip(ts,ts[1:]):
        g=b-a
        if 5e5<g<=1e6:
            h[round(g/156250)]+=1
            if a-t0<5e9: early+=1
    print(d, 'gaps 0.5-1 ms by periods:', dict(sorted(h.items())), 'first 5 s:', early)
