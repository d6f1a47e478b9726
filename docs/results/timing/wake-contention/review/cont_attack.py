#!/usr/bin/env python3
"""Attack 1/2/4: per-call continuous statistics. X_c = expected number of real accesses of call c
(sum over its reads of P(real | label), from the ground truth), centered within call size.
Correlate X_c with features of the timing L calls away; z = r*sqrt(N) (X_c is i.i.d. across calls
under no leak; checked with placebo lags +-25/+-50 and circular shifts).
Usage: cont_attack.py GROUP [GROUP...]   (groups from load.RUNS)"""
import sys; sys.path.insert(0, '/tmp/review39'); from load import *
rng = np.random.default_rng(39)
def rankseg(v, nseg=10):
    out = np.empty(len(v)); s = max(1, len(v) // nseg)
    for a in range(0, len(v), s):
        x = v[a:a+s]; out[a:a+s] = (np.argsort(np.argsort(x, kind='stable')) + 0.5) / len(x) - 0.5
    return out
def lateness(t, P=None, w=100):
    """calls leave on a grid: lateness = t - k*P minus a running lower envelope (window 2w calls)."""
    g = np.diff(t).astype(float)
    if P is None:
        P = np.median(g[(g > 0.8*np.median(g)) & (g < 1.2*np.median(g))])
    k = np.concatenate([[0], np.cumsum(np.maximum(1, np.round(g / P)))])
    r = t - k * P
    # running min via blocks
    from numpy.lib.stride_tricks import sliding_window_view
    pad = np.concatenate([np.full(w, np.inf), r, np.full(w, np.inf)])
    env = sliding_window_view(pad, 2*w+1).min(axis=1)
    return r - env, k, P
def analyse(d, lags=(-1, 0, 1, 2, 3, 4, 25, -25, 50), skip=0.05, nshift=0):
    rs = d['rs']; sz = np.diff(rs); ok = sz > 0
    t = d['times'][ok].astype(np.int64); rsz = sz[ok]; starts = rs[:-1][ok]
    pr = d['preal']
    X = np.add.reduceat(pr[d['rlab']], starts) if len(starts) else None
    ndum = np.add.reduceat(d['dummy'][d['rlab']].astype(float), starts)
    n = len(t); a = int(n * skip)
    for s in np.unique(rsz):       # center within call size
        m = rsz == s; X[m] -= X[m].mean(); ndum[m] -= ndum[m].mean()
    gap = np.diff(t).astype(float)          # gap[i] = t[i+1]-t[i]: silence after call i
    late, k, P = lateness(t)
    feats = {}
    G = np.full(n, np.nan); G[:-1] = gap
    feats['gaprank'] = rankseg(np.nan_to_num(G, nan=np.nanmedian(G)))
    # the gap less the median gap between calls of the same two sizes (the period follows the level)
    Gr = np.nan_to_num(G, nan=np.nanmedian(G)).copy(); pair = rsz * 100 + np.concatenate([rsz[1:], [0]])
    sgs = max(1, n // 10)
    for b in range(0, n, sgs):
        pp = pair[b:b+sgs]; gg = Gr[b:b+sgs]
        for u in np.unique(pp):
            mm = pp == u; gg[mm] -= np.median(gg[mm])
        Gr[b:b+sgs] = gg
    feats['gapres'] = rankseg(Gr)
    feats['loggap'] = np.log(np.nan_to_num(G, nan=np.nanmedian(G)))
    fl = np.zeros(n); s = max(1, n // 10)
    for b in range(0, n, s):
        x = feats['gaprank'][b:b+s]; fl[b:b+s] = x > 0.4
    feats['top10'] = fl
    feats['late'] = rankseg(late)            # lateness of call i (not of the gap)
    # lateness of call i against its neighbours without a grid: gap before i minus gap after i (size-pair residuals)
    GB = np.concatenate([[0], Gr[:-1]]); feats['dd'] = rankseg(GB - Gr)
    feats['missed'] = np.concatenate([(np.diff(k) >= 2).astype(float), [0]])  # grid point skipped after call i
    mod = np.concatenate([gap - np.round(gap / P) * P, [0]])
    feats['gapmodP'] = rankseg(mod)
    res = {}
    for L in lags:
        # feature at index c+L for call c: for gap features L=1 is the silence right after c (gap index c... )
        # gap feature f[i] describes silence after call i, so "silence after call c" = f[c]; lag L -> f[c+L-1].
        # lateness feature f[i] describes call i, so "lateness of the next call" = f[c+1]; lag L -> f[c+L].
        for name, f in feats.items():
            off = L if name in ('late', 'dd') else L - 1
            lo = max(a, a - off); hi = min(n - 2, n - 2 - off)
            x = X[lo:hi]; y = f[lo + off:hi + off]
            if y.std() == 0: continue
            r = np.corrcoef(x, y)[0, 1]; res[(name, L)] = r * np.sqrt(len(x))
        if L == 1:
            y = feats['gaprank'][a:n-2]; res[('ndummy', 1)] = -np.corrcoef(ndum[a:n-2], y)[0, 1] * np.sqrt(n-2-a)
    if nshift:
        y = feats['gaprank'][a:n-2]; x = X[a:n-2]; zz = []
        for _ in range(nshift):
            sh = rng.integers(200, len(x) - 200); zz.append(np.corrcoef(np.roll(x, sh), y)[0, 1] * np.sqrt(len(x)))
        res[('shiftnull_sd', 0)] = np.std(zz); res[('shiftnull_mean', 0)] = np.mean(zz)
    res[('P_us', 0)] = P / 1000; res[('N', 0)] = n - a
    return res
if __name__ == '__main__':
    for g in sys.argv[1:]:
        allr = []
        for run, dist in RUNS[g]:
            r = analyse(load(run, dist), nshift=200 if g.startswith('one') else 50)
            allr.append(r)
            print(g, run, ' '.join(f'{k[0]}@{k[1]}:{v:+.2f}' for k, v in r.items() if k[0] in ('gaprank', 'dd', 'shiftnull_sd', 'P_us') and k[1] in (0, 1, 2, 25)), flush=True)
        keys = list(allr[0])
        print(f'== {g}: {len(allr)} runs; per statistic: mean z, sd, min, max, combined z = sum/sqrt(n)')
        for kk in keys:
            v = np.array([r.get(kk, np.nan) for r in allr])
            print(f'   {kk[0]:>14s} lag {kk[1]:+3d}: mean {v.mean():+6.2f} sd {v.std():5.2f} [{v.min():+6.2f},{v.max():+6.2f}] comb {v.sum()/np.sqrt(len(v)):+6.2f}')
