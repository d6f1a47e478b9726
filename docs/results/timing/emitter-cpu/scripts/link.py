import numpy as np, sys
# the label link: lateness of tick k+lag by tick k's real coins (0 or >=1): what coins (labels) tell about later silences
tot = {}
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    late = (a[:,1]-a[:,0])/1e3 - 20; coins = (a[:,2] // 100) % 100
    row = []
    for lag in (0, 1, 2):
        x = late[lag:]; c0 = coins[:len(coins)-lag] == 0
        for thr in (10, 30, 100):
            p0 = np.mean(x[c0] > thr); p1 = np.mean(x[~c0] > thr)
            se = np.sqrt(p0*(1-p0)/c0.sum() + p1*(1-p1)/(~c0).sum())
            row.append(f'lag{lag}>{thr}us {100*p0:.2f}/{100*p1:.2f}% z{(p0-p1)/se:+.1f}')
    print(f.split('/')[1], f.split('/')[2], f.split('/')[3], ' '.join(row))
