"""Store calls and labels in each 100 ms of a run's trace, from <from> s to <to> s: the emitter's
level as the store sees it (at the tick cap, 640 one-batch calls of 6 labels each per 100 ms).
usage: python3 calls100ms.py <run dir> <from s> <to s>"""
import collections
import os
import sys

d, lo, hi = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
calls = collections.Counter()
with open(os.path.join(d, 'run.trace')) as f:
    for line in f:
        calls[int(line.split()[3])] += 1
bins = collections.defaultdict(lambda: [0, 0])
for t, labels in calls.items():
    if lo * 1e9 <= t < hi * 1e9:
        b = bins[t // 100_000_000]
        b[0] += 1
        b[1] += labels
print(' '.join(f"{k / 10:.1f}:{c}/{n}" for k, (c, n) in sorted(bins.items())))
