import numpy as np, sys
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    late = (a[:,1]-a[:,0])/1e3 - 20; served = a[:,2] % 100; coins = a[:,2] // 100
    print(f, 'ticks', len(a), 'mean served', served.mean().round(2), 'coins', coins.mean().round(2), 'queue-empty', np.mean(served < coins).round(3))
    for s in range(0, 8):
        m = served[:-1] == s
        if m.sum() > 200:
            x = late[1:][m]
            print(f'  served {s}: n {m.sum():6d} late(k+1) mean {x.mean():7.2f} p50 {np.percentile(x,50):5.1f} p90 {np.percentile(x,90):6.1f} P>10us {100*np.mean(x>10):5.2f}% P>30us {100*np.mean(x>30):5.2f}%')
