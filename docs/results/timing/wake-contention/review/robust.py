#!/usr/bin/env python3
"""Robustness of the 'silence before the call' (own lateness) statistic:
 (i) label-permutation null: P(real) shuffled across labels (keeps every call's timing and label multiset structure);
 (ii) the first and second half of each run separately;
 (iii) a cross-validated linear combination of the gaps around the call (before c, after c, after c+1, after c+2):
      weights fitted with the truth on one half, z on the other half (both ways, averaged).
Usage: robust.py GROUP..."""
import sys; sys.path.insert(0, '/tmp/review39'); from load import *; from cont_attack import rankseg
rng = np.random.default_rng(7)
def prep(d):
    rs = d['rs']; sz = np.diff(rs); ok = sz > 0; t = d['times'][ok]; s = sz[ok]; st = rs[:-1][ok]; n = len(t)
    G = np.concatenate([np.diff(t).astype(float), [0.0]]); pair = s * 100 + np.concatenate([s[1:], [0]]); seg = max(1, n // 10)
    for b in range(0, n, seg):
        pp = pair[b:b+seg]; gg = G[b:b+seg]
        for u in np.unique(pp): m = pp == u; gg[m] -= np.median(gg[m])
    R = rankseg(G)
    callof = np.repeat(np.arange(n), s)
    return t, s, st, n, R, callof
def Xof(d, pr, s, callof, n):
    X = np.bincount(callof, weights=pr[d['rlab'][:len(callof)]], minlength=n)
    for u in np.unique(s): m = s == u; X[m] -= X[m].mean()
    return X
def z(x, y): return np.corrcoef(x, y)[0, 1] * np.sqrt(len(x))
for g in sys.argv[1:]:
    res = []
    for run, dist in RUNS[g]:
        d = load(run, dist); t, s, st, n, R, callof = prep(d); a = int(0.05 * n); hi = n - 5
        X = Xof(d, d['preal'], s, callof, n)
        before = R[a-1:hi-1]; x = X[a:hi]
        zb = z(x, before); h = (hi - a) // 2
        zh1 = z(x[:h], before[:h]); zh2 = z(x[h:], before[h:])
        perm = []
        if len(res) < 3:
            for _ in range(40):
                Xp = Xof(d, rng.permutation(d['preal']), s, callof, n)[a:hi]; perm.append(z(Xp, before))
        F = np.column_stack([R[a-1+o:hi-1+o] for o in range(0, 4)])   # before c, after c, after c+1, after c+2
        F = np.column_stack([F, np.ones(len(F))])
        cv = []
        for tr, te in ((slice(0, h), slice(h, None)), (slice(h, None), slice(0, h))):
            w, *_ = np.linalg.lstsq(F[tr], x[tr], rcond=None); cv.append(z(x[te], F[te] @ w))
        row = dict(before=zb, half1=zh1, half2=zh2, cv=np.mean(cv) * np.sqrt(2) / 1.0)  # two independent halves -> comb
        if perm: row['perm_mean'] = np.mean(perm); row['perm_sd'] = np.std(perm)
        res.append(row)
        print(g, run, ' '.join(f'{k} {v:+.2f}' for k, v in row.items()), flush=True)
    print(f'== {g}:')
    for k in ('before', 'half1', 'half2', 'cv'):
        v = np.array([r[k] for r in res]); print(f'   {k:>7s}: mean {v.mean():+.2f} [{v.min():+.2f},{v.max():+.2f}] comb {v.sum()/np.sqrt(len(v)):+.1f}')
