#!/usr/bin/env python3
"""The stopwatch attack without ground truth, scored with it. Per label, the share of its reads in
calls followed by one of the longest tenth of the silences (threshold per tenth of the run); the
attacker (1) correlates the shares of the two halves of the run (Spearman; about 0 without a leak)
and (2) names the labels with the lowest shares as dummies, as many as the plan has dummies (the
ground truth only scores the guess: precision against the dummies' share of all labels).
Usage: blind_attack.py TRACE OWNERS [skip]"""
import sys, collections
import numpy as np
trace, owners = sys.argv[1:3]; skip = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
own = dict(l.split() for l in open(owners))
calls = collections.OrderedDict()
with open(trace) as f:
    for line in f:
        q = line.split()
        if len(q) < 4 or q[0] != 'R': continue
        calls.setdefault(int(q[3]), []).append(q[1])
times = sorted(calls); times = times[int(len(times) * skip):]
gaps = np.diff(np.array(times, dtype=np.int64)); n = len(gaps)
flag = np.zeros(n, dtype=bool); seg = max(1, n // 10)
for s in range(0, n, seg):
    g = gaps[s:s + seg]; flag[s:s + seg] = g > np.percentile(g, 90)
fc = [collections.Counter(), collections.Counter()]; rc = [collections.Counter(), collections.Counter()]
for i in range(n):
    h = 0 if i < n // 2 else 1
    for l in calls[times[i]]:
        rc[h][l] += 1
        if flag[i]: fc[h][l] += 1
labs = sorted(own)
def share(l, hs): 
    r = sum(rc[h][l] for h in hs); return sum(fc[h][l] for h in hs) / r if r else 0.1
def rank(x):
    x = np.asarray(x, dtype=float); order = x.argsort(); r = np.empty(len(x)); r[order] = np.arange(len(x)); return r
a = [share(l, [0]) for l in labs]; b = [share(l, [1]) for l in labs]
rho = np.corrcoef(rank(a), rank(b))[0, 1]
whole = np.array([share(l, [0, 1]) for l in labs])
dummies = {l for l in labs if own[l] == '-'}
guess = [labs[i] for i in np.argsort(whole)[:len(dummies)]]
hit = sum(1 for l in guess if l in dummies) / len(guess)
reads = sum(len(calls[t]) for t in times) / len(labs)
print(f"calls {len(times)}, reads per label {reads:.0f}; split-half Spearman of flagged-read share {rho:+.3f} "
      f"(z {rho * np.sqrt(len(labs) - 1):+.1f}); dummies named by the lowest shares: precision {hit:.3f} "
      f"against {len(dummies) / len(labs):.3f} by chance")
