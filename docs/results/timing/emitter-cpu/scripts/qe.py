import numpy as np, sys
for f in sys.argv[1:]:
    a = np.loadtxt(f, dtype=np.int64); a = a[len(a)//10:]
    late = (a[:,1]-a[:,0])/1e3 - 20; served = a[:,2] % 100; coins = (a[:,2] // 100) % 100
    qe = (coins > 0) & (served == 0); ne = served > 0
    q = [10, 25, 50, 75, 90, 99, 99.9]
    print(f, 'queue-empty', qe.sum(), 'of', len(a))
    for name, m in (('late(k) | empty', qe), ('late(k) | served', ne)):
        print(f'  {name:18s}', [round(np.percentile(late[m], x), 1) for x in q])
    for name, m in (('late(k+1) | empty', qe[:-1]), ('late(k+1) | served', ne[:-1])):
        print(f'  {name:18s}', [round(np.percentile(late[1:][m], x), 1) for x in q])
    # run lengths of empty
    gap = (a[1:,0] - a[:-1,0]) / 1e3
    print('  grid gap after empty', [round(np.percentile(gap[qe[:-1]], x), 1) for x in q], ' after served', [round(np.percentile(gap[ne[:-1]], x), 1) for x in q])
