#!/usr/bin/env python3
"""Parse a transcript into per-call arrays (cached as .npz) plus per-label P(real | read) from the ground truth.
load(run_dir, dist) -> dict(times, rs, rlab, ws, wlab, preal, own_is_dummy, nlab)"""
import os, sys, collections, hashlib
import numpy as np
CACHE = '/tmp/rel-ab/review/cache'
def load(run, dist):
    key = hashlib.md5(os.path.abspath(run).encode()).hexdigest()[:12]
    cf = f'{CACHE}/{key}.npz'
    owners = f'{run}/owners-end.txt'
    if not os.path.exists(owners): owners = f'{run}/owners-load.txt'
    labs = []; keyof = []
    for l in open(owners):
        a, k = l.split(); labs.append(a); keyof.append(k)
    idx = {a: i for i, a in enumerate(labs)}
    p = {}
    for l in open(dist):
        if l.startswith('#'): continue
        w, k = l.rstrip('\n').split('\t'); p[k] = float(w)
    tot = sum(p.values()); reps = collections.Counter(k for k in keyof if k != '-')
    rate = np.array([0.0 if k == '-' else p.get(k, 0) / tot / reps[k] for k in keyof])
    preal = rate * len(labs) / 2.0   # P(real | a read lands on this label): each read is uniform 1/(2n), half are real
    if not os.path.exists(cf):
        times = []; rs = [0]; ws = [0]; rl = []; wl = []; cur = None
        with open(f'{run}/run.trace') as f:
            for line in f:
                q = line.split()
                if len(q) < 4: continue
                t = int(q[3])
                if t != cur:
                    if cur is not None: rs.append(len(rl)); ws.append(len(wl))
                    times.append(t); cur = t
                (rl if q[0] == 'R' else wl).append(idx.get(q[1], -1))
        rs.append(len(rl)); ws.append(len(wl))
        np.savez(cf, times=np.array(times, np.int64), rs=np.array(rs), ws=np.array(ws),
                 rlab=np.array(rl, np.int32), wlab=np.array(wl, np.int32))
    d = dict(np.load(cf))
    d['preal'] = preal; d['dummy'] = np.array([k == '-' for k in keyof]); d['nlab'] = len(labs)
    d['keyof'] = keyof; d['rate'] = rate
    return d
RUNS = {
 'relpark': [(f'/tmp/rel-park/p{r}/r1', '/tmp/atkA/dist-c.tsv') for r in (1, 2, 3)],
 'relmain': [(f'/tmp/rel-main/m{r}/r1', '/tmp/atkA/dist-c.tsv') for r in (1, 2, 3)],
 'rel0': [(f'/tmp/rel-ab/v0-{r}/r1', '/tmp/atkA/dist-c.tsv') for r in (1, 2, 3)],
 'rel20': [(f'/tmp/rel-ab/v20-{r}/r1', '/tmp/atkA/dist-c.tsv') for r in (1, 2, 3)],
 'one-C': [(f'/tmp/wc-one/r{i}', '/tmp/atkA/dist-c.tsv') for i in range(1, 11)] + [(f'/tmp/atk39/r{i}', '/tmp/atk39/dist.tsv') for i in range(1, 7)],
 'one-A': [(f'/tmp/atkA/one/r{i}', '/tmp/atkA/dist-a.tsv') for i in range(1, 11)],
 'eight-C': [(f'/tmp/atkA/c8/r{i}', '/tmp/atkA/dist-c.tsv') for i in (1, 2)],
 'eight-A': [(f'/tmp/atkA/a8/r{i}', '/tmp/atkA/dist-a.tsv') for i in (1, 2)] + [(f'/tmp/atkA/eight/r{i}', '/tmp/atkA/dist-a.tsv') for i in (1, 2)],
 'long-C': [('/tmp/wc-long/r1', '/tmp/atkA/dist-c.tsv')],
}
if __name__ == '__main__':
    for g, rr in RUNS.items():
        for run, dist in rr:
            d = load(run, dist)
            sz = np.diff(d['rs'])
            print(g, run, 'calls', len(d['times']), 'unknown labels', int((d['rlab'] < 0).sum()), 'preal max %.3f mean-per-read %.4f dummies %d' % (d['preal'].max(), d['preal'][d['rlab']].mean(), d['dummy'].sum()), 'sizes', np.unique(sz, return_counts=True)[0][:6], flush=True)
