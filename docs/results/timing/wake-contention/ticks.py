import sys, numpy as np
d=np.loadtxt(sys.argv[1],skiprows=1,dtype=np.int64)
d=d[len(d)//10:]
grid,late,busy,missed,served,K,period=d.T
# the next tick's lateness and this tick's missed points, by served count, within the commonest (K, period)
for k,p in sorted(set(zip(K.tolist(),period.tolist())), key=lambda kp: -np.sum((K==kp[0])&(period==kp[1])))[:3]:
    m=(K[:-1]==k)&(period[:-1]==p)&(K[1:]==k)&(period[1:]==p)
    idx=np.where(m)[0]
    print(f"K={k} period={p/1e3:.0f}us ticks={len(idx)}")
    for s in sorted(set(served[idx].tolist())):
        j=idx[served[idx]==s]
        if len(j)<50: continue
        nl=late[j+1]/1e3
        print(f"  served {s:2d}: n={len(j):6d}  busy(this) med {np.median(busy[j])/1e3:6.1f}us  missed>0 {np.mean(missed[j]>0):.3f}  next late med {np.median(nl):6.1f} p90 {np.percentile(nl,90):6.1f} mean {nl.mean():6.1f}  next gap>1.3P {np.mean((grid[j+1]-grid[j]+late[j+1]-late[j])>1.3*p):.3f}")
