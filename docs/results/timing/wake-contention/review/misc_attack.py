#!/usr/bin/env python3
"""Attacks 3-5 (no timing): (a) position of a read within its call vs P(real | label) [the W lines of call c are
exactly the R lines of call c-2 in the same order, checked in peek2.py, so they add nothing];
(b) call size (level) vs the calls' P(real) per read: mean by size, and corr of the mean P(real) per read of
call c with the size change K(c+j)-K(c+j-1), j=1..3 (placebo j=25);
(c) repeats: a label read again within the same call / in the next 1..2 calls, by label type, against the
rate expected from i.i.d. uniform reads.
Usage: misc_attack.py GROUP..."""
import sys; sys.path.insert(0, '/tmp/review39'); from load import *
def z_of(x, y):
    x = x - x.mean(); y = y - y.mean()
    if x.std() == 0 or y.std() == 0: return np.nan
    return np.corrcoef(x, y)[0, 1] * np.sqrt(len(x))
for g in sys.argv[1:]:
    rows = []
    for run, dist in RUNS[g]:
        d = load(run, dist); rs = d['rs']; sz = np.diff(rs); ok = sz > 0
        st = rs[:-1][ok]; s = sz[ok]; n = len(s); a = int(0.05 * n)
        pr = d['preal']; rl = d['rlab']; dm = d['dummy']; row = {}
        # (a) position: z of corr(P(real), position) within calls, and max |z| of a position's mean
        sel = np.arange(st[a], st[n - 1] + s[n - 1])
        callid = np.repeat(np.arange(n), s); pos = np.arange(len(rl)) - np.repeat(st, s)
        callid = callid[sel]; pos = pos[sel]; p = pr[rl[sel]]; ssz = s[callid]
        # center p within call (removes call-level effects), then correlate with position
        cm = np.bincount(callid, weights=p, minlength=n) / np.maximum(np.bincount(callid, minlength=n), 1)
        pc = p - cm[callid]
        row['pos_corr_z'] = z_of(pc, pos.astype(float))
        # position within batch (mod 3) and first vs rest
        row['pos_mod3_z'] = z_of(pc, (pos % 3).astype(float))
        row['first_z'] = z_of(pc, (pos == 0).astype(float))
        # (b) size
        mp = np.bincount(np.arange(n).repeat(s), weights=pr[rl], minlength=n)[:n] / s   # mean P(real) per read
        mp = mp[a:n - 30]; ss = s[a:n - 30].astype(float); s_all = s.astype(float)
        if np.unique(s).size > 1:
            row['size_vs_meanP_z'] = z_of(mp, ss)
            for j in (1, 2, 3, 25):
                dK = s_all[a + j:n - 30 + j] - s_all[a + j - 1:n - 30 + j - 1]
                row[f'dK{j}_z'] = z_of(mp, dK)
        # (c) repeats
        lab_by_call = [rl[st[i]:st[i] + s[i]] for i in range(n)]
        N = d['nlab']
        for typ, mask in (('dummy', dm), ('key', ~dm)):
            for lag in (0, 1, 2, 50):
                obs = exp = 0.0
                for i in range(a, n - 51, 1):
                    A = lab_by_call[i]
                    if lag == 0:
                        u, c = np.unique(A, return_counts=True); obs += ((c - 1) * mask[u]).sum()
                        exp += mask.mean() * len(A) * (len(A) - 1) / 2 / N  # pairs
                    else:
                        B = lab_by_call[i + lag]
                        obs += np.isin(A, B).astype(float)[mask[A]].sum(); exp += mask[A].sum() * len(B) / N
                row[f'rep{lag}_{typ}_z'] = (obs - exp) / np.sqrt(max(exp, 1e-9))
        rows.append(row)
        print(g, run, ' '.join(f'{k} {v:+.1f}' for k, v in row.items()), flush=True)
    print(f'== {g}: mean z [min, max], combined z')
    for k in rows[0]:
        v = np.array([r.get(k, np.nan) for r in rows])
        print(f'   {k:>18s}: {v.mean():+.2f} [{v.min():+.2f}, {v.max():+.2f}] comb {v.sum()/np.sqrt(len(v)):+.2f}')
