import numpy as np, sys
# lateness of tick k+1 by tick k's real coins and whether it dequeued a request
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    late = (a[:,1]-a[:,0])/1e3 - 20; served = a[:,2] % 100; coins = (a[:,2] // 100) % 100
    print(f, 'P(coins>0)', round(np.mean(coins>0),3), 'P(served|coins>0)', round(np.mean(served[coins>0]>0),3))
    for c in range(4):
        for s in (0, 1):
            m = (coins[:-1] == c) & ((served[:-1] > 0) == s)
            if m.sum() > 50:
                x = late[1:][m]; x0 = late[:-1][m]
                print(f'  coins {c} served {s}: n {m.sum():6d}  late(k+1) mean {x.mean():6.2f} p90 {np.percentile(x,90):5.1f}  late(k) {x0.mean():6.2f}')
