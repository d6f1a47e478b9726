#!/usr/bin/env python3
"""Per-label version (the docs' scale): for each label, the mean over its reads of a per-call timing
feature (rank within tenths of the run, of the gap less the median gap between calls of the same two sizes):
  before = the silence BEFORE the call (= the call's own lateness; the docs only used silences after it)
  after  = the silence after the call (the docs' lag 1, continuous instead of the top-tenth flag)
With the truth: Spearman(per-label mean, true real rate), z = rho*sqrt(labels-1); placebo = feature of
the call 25 later. Blind: Spearman of the per-label means across the two halves of the run, and the
labels with the lowest means named as dummies (precision against the dummies' share).
Usage: label_attack.py GROUP..."""
import sys; sys.path.insert(0, '/tmp/review39'); from load import *; from cont_attack import rankseg
def rank(x):
    x = np.asarray(x, float); o = x.argsort(kind='stable'); r = np.empty(len(x)); r[o] = np.arange(len(x)); return r
def sp(a, b): return np.corrcoef(rank(a), rank(b))[0, 1]
def feats(d, skip=0.05):
    rs = d['rs']; sz = np.diff(rs); ok = sz > 0
    t = d['times'][ok]; s = sz[ok]; st = rs[:-1][ok]; n = len(t)
    G = np.diff(t).astype(float); G = np.concatenate([G, [np.median(G)]])       # G[i]: after call i
    pair = s * 100 + np.concatenate([s[1:], [0]]); seg = max(1, n // 10)
    for b in range(0, n, seg):
        pp = pair[b:b+seg]; gg = G[b:b+seg]
        for u in np.unique(pp): m = pp == u; gg[m] -= np.median(gg[m])
    R = rankseg(G)
    before = np.concatenate([[0], R[:-1]]); after = R
    return t, s, st, n, {'before': before, 'after': after, 'before+25': np.concatenate([before[25:], np.zeros(25)])}
def per_label(d, f, st, s, lo, hi):
    """mean feature over the reads of each label, calls lo..hi-1"""
    idx = np.arange(lo, hi); reps = s[idx]
    callof = np.repeat(idx, reps); pos = np.concatenate([np.arange(st[i], st[i] + s[i]) for i in idx]) if len(idx) else np.array([], int)
    lab = d['rlab'][pos]; nl = d['nlab']
    sm = np.bincount(lab, weights=f[callof], minlength=nl); c = np.bincount(lab, minlength=nl)
    return np.where(c > 0, sm / np.maximum(c, 1), 0.0), c
if __name__ == '__main__':
    for g in sys.argv[1:]:
        out = []
        for run, dist in RUNS[g]:
            d = load(run, dist); t, s, st, n, F = feats(d); a = int(0.05 * n); hi = n - 26
            rate = d['rate']; dm = d['dummy']; nl = d['nlab']; row = {}
            for name, f in F.items():
                m, c = per_label(d, f, st, s, a, hi)
                row[name] = sp(m, rate) * np.sqrt(nl - 1)
                if True:
                    h = (a + hi) // 2
                    m1, _ = per_label(d, f, st, s, a, h); m2, _ = per_label(d, f, st, s, h, hi)
                    sgn = 1 if name == 'before' else 1
                    row[name + ':split'] = sp(m1, m2) * np.sqrt(nl - 1)
                    guess = np.argsort(sgn * m)[:dm.sum()]
                    row[name + ':prec'] = dm[guess].mean()
            row['chance'] = dm.mean(); row['reads/label'] = s[a:hi].sum() / nl
            out.append(row)
            print(g, run, ' '.join(f'{k} {v:+.3f}' if ('prec' in k or k == 'chance') else f'{k} {v:+.1f}' for k, v in row.items()), flush=True)
        print(f'== {g} ({len(out)} runs): mean [min, max], combined z = sum/sqrt(runs) for z rows')
        for k in out[0]:
            v = np.array([r[k] for r in out])
            print(f'   {k:>14s}: mean {v.mean():+.3f} [{v.min():+.3f}, {v.max():+.3f}]' + ('' if ('prec' in k or k in ('chance', 'reads/label')) else f' comb z {v.sum()/np.sqrt(len(v)):+.1f}'))
