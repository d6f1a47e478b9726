#!/usr/bin/env python3
# bysecond.py <run dir>...: silences between store calls by second of the run: of 0.5-1 ms, over
# 250 us, and every one over 10 ms (when, how long); the calls of second 10 by length in periods
import os, sys, collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times
for d in sys.argv[1:]:
    ts = call_times(d)
    pairs = list(zip(ts, ts[1:]))
    sec = lambda a: int((a - ts[0]) / 1e9)
    print(d, 'gaps of 0.5-1 ms by second:', sorted(collections.Counter(sec(a) for a, b in pairs if 5e5 < b - a <= 1e6).items()))
    print(d, 'gaps over 250 us by second:', sorted(collections.Counter(sec(a) for a, b in pairs if b - a > 2.5e5).items()))
    print(d, 'gaps over 10 ms (s, ms):', [(round((a - ts[0]) / 1e9, 2), round((b - a) / 1e6, 1)) for a, b in pairs if b - a > 1e7])
    print(d, 'second 10, gaps in periods:', sorted(collections.Counter(round((b - a) / 156250) for a, b in pairs if sec(a) == 10).items()))
