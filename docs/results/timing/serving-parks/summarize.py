#!/usr/bin/env python3
"""Per variant: throughput and the ground-truth z of each timing score, from logs/audit/<set>/<variant>/r*.txt
and the run logs (ops/s). Usage: summarize.py (from this directory)"""
import glob, os, re, collections
import numpy as np
NAMES = ['T1', 'T2', 'T3', 'R0', 'R1', 'R2', 'R3']
def scores(path):
    z = []
    for l in open(path):
        m = re.search(r'ground truth\) [-0-9.]+ \(z = ([-0-9.]+)', l)
        if m and (' top tenth ' in l or ' rank ' in l): z.append(float(m.group(1)))
    return z
def tput(setname, variant, run):
    for l in open(f'logs/{setname}.log'):
        if l.startswith(f'{variant} {run} '): return float(l.split()[2])
    return float('nan')
groups = collections.defaultdict(list)
for f in sorted(glob.glob('logs/audit/*/*/r*.txt')):
    _, _, s, v, r = f.split('/'); r = r[:-4]
    if s == 'v1b' and v == 'base' and r == 'r1': continue  # a compile ran beside it (2 072 ops/s): left out
    groups[(s, v)].append((tput(s, v, r), scores(f)))
for f in sorted(glob.glob('logs/audit/redis/*.txt')):
    v, r = os.path.basename(f)[:-4].split('-')
    t = [float(l.split()[1]) for l in open('logs/redis-ab-scores.txt') if l.startswith(f'{v}-{r} ')][0]
    groups[('redis', v)].append((t, scores(f)))
print('set/variant runs | ops/s mean | ' + ' | '.join(f'{n} mean [min,max] comb.z' for n in NAMES))
for (s, v), rows in groups.items():
    t = np.array([r[0] for r in rows]); z = np.array([r[1] for r in rows])
    cells = [f'{z[:, i].mean():+.1f} [{z[:, i].min():+.1f},{z[:, i].max():+.1f}] {z[:, i].sum() / np.sqrt(len(z)):+.1f}' for i in range(z.shape[1])]
    print(f'{s}/{v} {len(rows)} | {t.mean():.0f} | ' + ' | '.join(cells))
