#!/usr/bin/env python3
"""Ground-truth timing attack: per label, the share of its reads in calls whose gap L calls later is in
the longest tenth, against the label's true real-access rate (p_key / replicas of key; 0 for dummies).
Spearman over labels; about 0 +- 1/sqrt(labels) without a timing leak. Lag 25 is a placebo: a gap that
far from the call cannot be caused by it. The gap threshold is taken per tenth of the run, so a level
that drifts does not make a whole stretch "long".
Usage: truth_audit.py TRACE OWNERS DIST [skip]"""
import sys, collections
import numpy as np
trace, owners, dist = sys.argv[1:4]; skip = float(sys.argv[4]) if len(sys.argv) > 4 else 0.05
p = {}
for l in open(dist):
    if l.startswith('#'): continue
    w, k = l.rstrip('\n').split('\t'); p[k] = float(w)
own = {}
reps = collections.Counter()
for l in open(owners):
    lab, k = l.split(); own[lab] = k
    if k != '-': reps[k] += 1
tot = sum(p.values())
rate = {lab: (0.0 if k == '-' else p.get(k, 0) / tot / reps[k]) for lab, k in own.items()}
calls = collections.OrderedDict()
with open(trace) as f:
    for line in f:
        q = line.split()
        if len(q) < 4 or q[0] != 'R': continue
        calls.setdefault(int(q[3]), []).append(q[1])
times = sorted(calls); times = times[int(len(times) * skip):]
gaps = np.diff(np.array(times, dtype=np.int64)); n = len(gaps)
def rank(x):
    x = np.asarray(x, dtype=float); vals, inv = np.unique(x, return_inverse=True)
    order = x.argsort(); r = np.empty(len(x)); r[order] = np.arange(len(x))
    sums = np.zeros(len(vals)); cnt = np.zeros(len(vals)); np.add.at(sums, inv, r); np.add.at(cnt, inv, 1)
    return (sums / cnt)[inv]
labs = sorted(own)
cnt = collections.Counter(l for t in times for l in calls[t])
rr = np.array([rate[l] for l in labs])
c = np.array([cnt[l] for l in labs])
print(f"labels {len(labs)}, dummies {sum(1 for l in labs if own[l]=='-')}, calls {len(times)}; "
      f"Spearman(count, true rate) {np.corrcoef(rank(c), rank(rr))[0,1]:+.3f}")
out = []
for L in (1, 2, 3, 4, 25):
    # threshold per tenth of the run (drifting levels)
    flagged = np.zeros(n, dtype=bool)
    seg = max(1, n // 10)
    for s in range(0, n, seg):
        g = gaps[s:s+seg]; flagged[s:s+seg] = g > np.percentile(g, 90)
    fc = collections.Counter(); rc = collections.Counter()
    for i in range(n - L + 1):
        f = flagged[i + L - 1]
        for l in calls[times[i]]:
            rc[l] += 1
            if f: fc[l] += 1
    share = np.array([fc[l] / rc[l] if rc[l] else 0 for l in labs])
    rho = np.corrcoef(rank(share), rank(rr))[0, 1]
    dm = share[rr == 0].mean(); top = share[rr >= np.percentile(rr, 75)].mean()
    z = rho * np.sqrt(len(labs) - 1)  # about N(0, 1) without a leak
    out.append(f"lag {L:2d}: Spearman(flagged share, true rate) {rho:+.3f} (z {z:+.1f}); flagged share dummies {dm:.4f}, top-quarter {top:.4f}")
print('\n'.join(out))
