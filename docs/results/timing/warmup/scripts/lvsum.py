import re,sys
for f in sys.argv[1:]:
    rows=[]
    for line in open(f):
        m=re.match(r'\[levels\] t=([\d.]+) arrivals=(\d+) emitterBusy=([\d.]+) servingBusy=([\d.]+) missed=(\d+)/(\d+) full=(\w+) ticks/s=(\d+) K=(\d+) L=(\d+) T=(\d+)',line)
        if m: rows.append(m.groups())
    t0=float(rows[0][0]); out=[]
    for s in range(0,16):
        w=[r for r in rows if s<=float(r[0])-t0<s+1]
        if not w: continue
        arr=sum(int(r[1]) for r in w)/len(w); tk=sum(int(r[7]) for r in w)/len(w); sb=sum(float(r[3]) for r in w)/len(w)
        # serving us per tick
        out.append(f'{s}:{arr/1000:.0f}k/{sb*1e6/max(tk,1):.0f}us')
    print(f.split('/')[-1],' '.join(out))
