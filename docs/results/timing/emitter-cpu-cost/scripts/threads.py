#!/usr/bin/env python3
# per-thread-group CPU run time and runqueue wait (ms per second) of the java process running YCSB, every 2 s
import os, sys, time, re, collections
def find():
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                c = open(f'/proc/{p}/cmdline','rb').read()
            except Exception: continue
            if b'site.ycsb.Client' in c and b'pancake' in c: return p
    return None
def group(n):
    if n.startswith('pancake-'): return n
    if n.startswith('Thread-') or 'ClientThread' in n: return 'ycsb'
    if 'C2' in n or 'C1' in n: return 'jit'
    if 'GC' in n or 'G1' in n: return 'gc'
    if n.startswith('rocksdb'): return 'rocksdb'
    return 'other'
def snap(pid):
    d = collections.defaultdict(lambda: [0,0,0])
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            n = open(f'/proc/{pid}/task/{t}/comm').read().strip()
            r, w, s = map(int, open(f'/proc/{pid}/task/{t}/schedstat').read().split())
        except Exception: continue
        g = d[group(n)]; g[0]+=r; g[1]+=w; g[2]+=s
    return d
while True:
    pid = find()
    while pid is None:
        time.sleep(0.5); pid = find()
    try:
        a = snap(pid); t0 = time.time()
        while True:
            time.sleep(2)
            b = snap(pid); dt = time.time()-t0; t0 = time.time()
            print(time.strftime('%H:%M:%S'), ' '.join(f'{k}={(b[k][0]-a.get(k,[0,0])[0])/1e6/dt:.0f}/{(b[k][1]-a.get(k,[0,0])[1])/1e6/dt:.0f}' for k in sorted(b)), flush=True)
            a = b
    except Exception as e:
        print('gone', e, flush=True)
