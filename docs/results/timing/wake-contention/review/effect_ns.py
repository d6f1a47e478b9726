#!/usr/bin/env python3
"""Size of the lateness effect: gap before call c (ns) and grid lateness of c, by the number of its reads on
dummy labels, and the partial effect of P(real) among key-label reads (OLS with n_dummy as covariate).
Usage: effect_ns.py GROUP"""
import sys; sys.path.insert(0, '/tmp/review39'); from load import *; from cont_attack import lateness
g = sys.argv[1]; size = int(sys.argv[2]) if len(sys.argv) > 2 else 3
tab = []; coefs = []
for run, dist in RUNS[g]:
    d = load(run, dist); rs = d['rs']; sz = np.diff(rs); ok = sz > 0
    t = d['times'][ok]; st = rs[:-1][ok]; s = sz[ok]
    nd = np.add.reduceat(d['dummy'][d['rlab']].astype(float), st)
    pk = np.add.reduceat(d['preal'][d['rlab']], st)
    late, k, P = lateness(t)
    gb = np.concatenate([[np.nan], np.diff(t)]).astype(float)
    a = int(0.05 * len(t)); m = np.zeros(len(t), bool); m[a:-2] = True; m &= (s == size)
    # robust: keep calls whose gap before is within +-5 us of the period (the body)
    body = m & (np.abs(gb - P) < 5000)
    row = []
    for j in range(0, size + 1):
        mm = body & (nd == j); row.append((np.mean(gb[mm]) - P if mm.sum() else np.nan, mm.sum()))
    tab.append(row)
    # OLS on body: gap_before ~ 1 + nd + pk
    A = np.column_stack([np.ones(body.sum()), nd[body], pk[body]]); y = gb[body]
    beta, res, *_ = np.linalg.lstsq(A, y, rcond=None)
    e = y - A @ beta; cov = np.linalg.inv(A.T @ A) * e.var()
    coefs.append((beta[1], beta[1] / np.sqrt(cov[1, 1]), beta[2], beta[2] / np.sqrt(cov[2, 2]), e.std(), body.sum()))
    print(run, 'mean gap-before minus P (ns) by #dummy reads:', ' '.join(f'{j}:{v:+.0f}(n={c})' for j, (v, c) in enumerate(row)),
          f'| OLS per dummy read {beta[1]:+.0f} ns (z {coefs[-1][1]:+.1f}), per unit P(real) {beta[2]:+.0f} ns (z {coefs[-1][3]:+.1f}); resid sd {e.std():.0f} ns', flush=True)
c = np.array(coefs)
print(f'== {g}: per dummy read {c[:,0].mean():+.0f} ns (comb z {c[:,1].sum()/np.sqrt(len(c)):+.1f}); per unit P(real) beyond dummy count {c[:,2].mean():+.0f} ns (comb z {c[:,3].sum()/np.sqrt(len(c)):+.1f})')
