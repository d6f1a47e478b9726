import numpy as np, sys
# per tick: grid point, call issue time, requests dequeued. Lateness of the next call given whether this one served.
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64)
    a = a[len(a)//10:]  # warm-up out
    g, t, r = a[:,0], a[:,1], a[:,2] % 100
    late = (t - g) / 1e3 - 20.0
    sil = np.diff(t) / 1e3
    out = [f.split('/')[-2] if '/' in f else f, f'ticks {len(a)}', f'late p50/90/99 {np.percentile(late,50):.1f}/{np.percentile(late,90):.1f}/{np.percentile(late,99):.1f}', f'served {np.mean(r>0):.2f}']
    for lag in (1, 2):
        x = late[lag:]; s = r[:-lag] > 0
        d = x[s].mean() - x[~s].mean(); se = np.sqrt(x[s].var()/s.sum() + x[~s].var()/(~s).sum())
        p40 = np.mean(x[s] > 40) - np.mean(x[~s] > 40)
        out.append(f'lag{lag}: dLate {d:+.2f}us z {d/se:+.1f} dP(>40us) {p40*100:+.2f}pp')
    s = r[:-1] > 0; d = sil[s].mean() - sil[~s].mean(); se = np.sqrt(sil[s].var()/s.sum() + sil[~s].var()/(~s).sum())
    out.append(f'silence after: d {d:+.2f}us z {d/se:+.1f}')
    print(' | '.join(out))
