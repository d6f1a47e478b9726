import sys; sys.path.insert(0,'/tmp/review39'); from load import *
for g in ('one-C','eight-C','long-C'):
    run, dist = RUNS[g][0]; d = load(run, dist)
    t = d['times']; sz = np.diff(d['rs']); print(g, 'size0 calls at idx', np.where(sz==0)[0][:5], len(t))
    gap = np.diff(t)/1000.
    print(' gap pct', np.percentile(gap,[1,5,10,25,50,75,90,95,99]).round(1))
    h, e = np.histogram(gap, bins=np.arange(0,800,10)); print(' hist', list(zip(e[:-1].astype(int), h))[:50])
    # first rows
    print(' first gaps', gap[:30].round(1))
    print(' mid gaps', gap[20000:20040].round(1), sz[20000:20040])
