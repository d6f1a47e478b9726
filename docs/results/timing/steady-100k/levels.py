#!/usr/bin/env python3
"""Per 5-second summary of the emission levels a scratch build printed once per 100-ms window
(bisect-scratch.patch in ../log-cost, -Dscratch.levels=true): levels.py <run.err>"""
import collections
import re
import sys

rows = [dict(re.findall(r'(\w+)=([\w.]+)', l)) for l in open(sys.argv[1]) if l.startswith('[levels]')]
t0 = float(rows[0]['t'])
bins = collections.defaultdict(list)
for d in rows:
    bins[int((float(d['t']) - t0) // 5)].append(d)
print('from first window | windows | arrivals/s | busy | missed per tick | overloaded | full | ticks/s | batches/tick | commonest (L, T, batches/tick)')
for k in sorted(bins):
    r = bins[k]
    n = len(r)
    mean = lambda key: sum(float(x[key]) for x in r) / n
    share = lambda key: sum(x[key] == 'true' for x in r) / n
    top = collections.Counter((x['L'], x['T'], x['bpt']) for x in r).most_common(2)
    print(f"{k * 5:4d} s | {n:3d} | {mean('arrivals'):6.0f} | {mean('busy'):.2f} | {mean('missed') / max(1, mean('ticks')):.2f}"
          f" | {share('overloaded'):.2f} | {share('full'):.2f} | {mean('tps'):5.0f} | {mean('bpt'):.2f} | {top}")
