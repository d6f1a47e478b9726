import sys; sys.path.insert(0,'/tmp/review39'); from load import *
for g in ('one-C','one-A','eight-A','long-C'):
    run, dist = RUNS[g][0]; d = load(run, dist)
    pr = d['preal']; print(g, 'preal quantiles over labels', np.percentile(pr,[10,30,40,50,60,70,80,90,99]).round(3), 'var per read %.4f' % pr[d['rlab']].var())
    # W(n) == R(n-2)?
    rs, ws, rl, wl = d['rs'], d['ws'], d['rlab'], d['wlab']; n = len(rs)-1
    same_set = same_order = tot = 0; bad = []
    for c in range(2, n):
        W = wl[ws[c]:ws[c+1]]; R = rl[rs[c-2]:rs[c-1]]; tot += 1
        if sorted(W) == sorted(R): same_set += 1
        else: bad.append(c)
        if list(W) == list(R): same_order += 1
    print('  W(c)==R(c-2) as set %d/%d, in order %d; first mismatches' % (same_set, tot, same_order), bad[:5], 'W of first 2 calls', ws[1], ws[2]-ws[1])
