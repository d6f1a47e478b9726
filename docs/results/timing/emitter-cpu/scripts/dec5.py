import numpy as np, sys
# tick k+1's delay split: emitter woke late (start - grid), waited for tick k-1's serving (awaited - start), build/release (issue - awaited - 20us)
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    g, iss, r, st, aw = a.T
    served = r % 100
    woke = (st - g) / 1e3; wait = (aw - st) / 1e3; rest = (iss - aw) / 1e3
    print(f, 'ticks', len(a))
    for lo, hi in ((0, 0), (1, 2), (3, 4), (5, 99)):
        m = (served[:-1] >= lo) & (served[:-1] <= hi)
        if m.sum() < 100: continue
        cells = []
        for name, x in (('woke', woke), ('wait', wait), ('rest', rest)):
            y = x[1:][m]; cells.append(f'{name} mean {y.mean():6.1f} P>10 {100*np.mean(y>10):5.1f}%')
        print(f'  served(k) {lo}-{hi}: n {m.sum():6d} | ' + ' | '.join(cells))
