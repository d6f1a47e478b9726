import numpy as np, sys
# silence after call k (issue k+1 - issue k) against tick k's requests served, within (size k, size k+1) classes:
# Spearman of the residual (silence minus its class median) with served, and the components
from scipy.stats import spearmanr
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    g, iss, r, st, aw = a.T
    served = r % 100; coins = (r // 100) % 100; size = r // 10000
    sil = np.diff(iss) / 1e3
    woke = (st - g) / 1e3; wait = (aw - st) / 1e3; rest = (iss - aw) / 1e3
    key = size[:-1] * 100 + size[1:]
    res = np.empty_like(sil)
    for k in np.unique(key):
        m = key == k; res[m] = sil[m] - np.median(sil[m])
    print(f, 'ticks', len(a), 'sizes', np.unique(size, return_counts=True))
    def norm(x):
        out = np.empty_like(x)
        for k in np.unique(key):
            m = key == k; out[m] = x[m] - np.median(x[m])
        return out
    print('  medians us: silence %.1f woke %.1f wait %.1f rest %.1f; rest p90 %.1f p99 %.1f' % (np.median(sil), np.median(woke), np.median(wait), np.median(rest), np.percentile(rest, 90), np.percentile(rest, 99)))
    for name, x in (('silence after k', res), ('woke(k+1)', norm(woke[1:])), ('wait(k+1)', norm(wait[1:])), ('rest(k+1)', norm(rest[1:])), ('-woke(k)', norm(-woke[:-1])), ('-rest(k)', norm(-rest[:-1])), ('-wait(k)', norm(-wait[:-1]))):
        for yname, y in (('served', served[:-1]), ('coins', coins[:-1])):
            rho = spearmanr(x, y).correlation
            print(f'  {name:16s} vs {yname:6s} rho {rho:+.4f} z {rho*np.sqrt(len(x)-1):+.1f}', end='')
        print()
