#!/usr/bin/env python3
# bysecond.py <run dir>...: silences of 0.5-1 ms between store calls, by second of the run
import sys, collections
for d in sys.argv[1:]:
    ts = []; last = None
    for line in open(d + '/run.trace'):
        f = line.split()
        if len(f) < 4:
            continue
        t = int(f[3])
        if t != last:
            ts.append(t); last = t
    c = collections.Counter(int((a - ts[0]) / 1e9) for a, b in zip(ts, ts[1:]) if 5e5 < b - a <= 1e6)
    print(d, 'gaps of 0.5-1 ms by second:', sorted(c.items()))
