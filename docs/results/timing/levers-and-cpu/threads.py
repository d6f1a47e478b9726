#!/usr/bin/env python3
"""CPU per thread (grouped by name) of the given pids over an interval: threads.py <seconds> <pid>..."""
import os, sys, time, re, collections
def snap(pids):
    out = {}
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError:
            continue
        for t in tasks:
            try:
                s = open(f"/proc/{pid}/task/{t}/stat").read()
            except FileNotFoundError:
                continue
            name = s[s.index('(')+1:s.rindex(')')]
            f = s[s.rindex(')')+2:].split()
            out[(pid, t)] = (name, int(f[11]), int(f[12]))
    return out
secs = float(sys.argv[1]); pids = sys.argv[2:]
a = snap(pids); t0 = time.time(); time.sleep(secs); b = snap(pids); dt = time.time() - t0
hz = os.sysconf('SC_CLK_TCK')
g = collections.defaultdict(lambda: [0, 0, 0])
for k, (name, u, s) in b.items():
    if k in a:
        u -= a[k][1]; s -= a[k][2]
    key = re.sub(r'\d+', '#', name)
    g[key][0] += u; g[key][1] += s; g[key][2] += 1
tot = 0
for key, (u, s, n) in sorted(g.items(), key=lambda x: -(x[1][0] + x[1][1])):
    if u + s == 0: continue
    tot += u + s
    print(f"{key:24s} x{n:<3d} user {100*u/hz/dt:6.1f}%  sys {100*s/hz/dt:6.1f}%")
print(f"{'total':24s}      {100*tot/hz/dt:6.1f}% of one core over {dt:.1f} s")
