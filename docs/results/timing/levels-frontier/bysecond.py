#!/usr/bin/env python3
# bysecond.py <run dir>...: silences between store calls by second of the run: of 0.5-1 ms, over
# 250 us, and every one over 10 ms (when, how long); the calls of second 10 by length in periods
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
    pairs = list(zip(ts, ts[1:]))
    sec = lambda a: int((a - ts[0]) / 1e9)
    print(d, 'gaps of 0.5-1 ms by second:', sorted(collections.Counter(sec(a) for a, b in pairs if 5e5 < b - a <= 1e6).items()))
    print(d, 'gaps over 250 us by second:', sorted(collections.Counter(sec(a) for a, b in pairs if b - a > 2.5e5).items()))
    print(d, 'gaps over 10 ms (s, ms):', [(round((a - ts[0]) / 1e9, 2), round((b - a) / 1e6, 1)) for a, b in pairs if b - a > 1e7])
    print(d, 'second 10, gaps in periods:', sorted(collections.Counter(round((b - a) / 156250) for a, b in pairs if sec(a) == 10).items()))
