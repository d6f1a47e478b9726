#!/usr/bin/env python3
"""Stopwatch attack on a pancake trace (R/W <label> <len> <ns>): per-label share of reads that fall
in calls followed by one of the longest tenth of the silences (per half), correlated across halves
(Spearman); plus the gap distribution. Usage: timing_audit.py TRACE [skip_fraction]"""
import sys, collections
import numpy as np
path = sys.argv[1]
skip = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
calls = collections.OrderedDict()
with open(path) as f:
    for line in f:
        p = line.split()
        if len(p) < 4:
            continue
        t = int(p[3])
        c = calls.setdefault(t, [[], 0])
        if p[0] == 'R':
            c[0].append(p[1])
        else:
            c[1] += 1
# a batch of the old design was two calls (reads, then writes): the silence that matters is the
# one before the next batch's reads, so only calls that read are on the timeline
times = sorted(t for t in calls if calls[t][0])
times = times[int(len(times) * skip):]
n = len(times) - 1
gaps = np.diff(np.array(times, dtype=np.int64))
print(f"calls {len(times)}, gap median {np.median(gaps)/1e3:.1f} us, p90 {np.percentile(gaps,90)/1e3:.1f} us, "
      f"p99 {np.percentile(gaps,99)/1e3:.1f} us, max {gaps.max()/1e6:.2f} ms")
half = n // 2
thr = [np.percentile(gaps[:half], 90), np.percentile(gaps[half:], 90)]
stats = collections.defaultdict(lambda: [0, 0, 0, 0])
for i in range(n):
    h = 0 if i < half else 1
    flagged = gaps[i] > thr[h]
    for lab in calls[times[i]][0]:
        s = stats[lab]
        s[2 * h + 1] += 1
        if flagged:
            s[2 * h] += 1
a, b = [], []
for s in stats.values():
    if s[1] >= 3 and s[3] >= 3:
        a.append(s[0] / s[1]); b.append(s[2] / s[3])
def rank(x):
    x = np.array(x); order = x.argsort(); r = np.empty(len(x)); r[order] = np.arange(len(x))
    # average ties
    vals, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    sums = np.zeros(len(vals)); np.add.at(sums, inv, r)
    return (sums / counts)[inv]
if len(a) > 10:
    rho = np.corrcoef(rank(a), rank(b))[0, 1]
    print(f"labels compared {len(a)}, split-half Spearman of flagged-read share: {rho:.3f} (about 0 without a timing leak)")
else:
    print("too few labels with reads in both halves")
