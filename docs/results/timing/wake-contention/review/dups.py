import sys; sys.path.insert(0, '/tmp/review39'); from load import *
for g in ('one-C', 'eight-C', 'long-C'):
    run, dist = RUNS[g][0]; d = load(run, dist); rs = d['rs']; rl = d['rlab']; dm = d['dummy']
    obs = {True: 0, False: 0}; exp = 0.0; N = d['nlab']; K = np.diff(rs)
    for i in range(len(K)):
        A = rl[rs[i]:rs[i+1]]
        if len(A) < 2: continue
        u, c = np.unique(A, return_counts=True)
        for lab in u[c > 1]: obs[bool(dm[lab])] += 1
        exp += len(A) * (len(A) - 1) / 2 / N
    print(g, 'within-call duplicate labels: dummy', obs[True], 'key', obs[False], 'expected total (iid uniform)', round(exp, 1), 'dummy share', dm.mean())
