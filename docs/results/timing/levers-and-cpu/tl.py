#!/usr/bin/env python3
"""Per-thread-group CPU every <step> s while the pids live: tl.py <step> <pid>..."""
import os, sys, time, re, collections
def snap(pids):
    g = collections.Counter()
    for pid in pids:
        try: tasks = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError: continue
        for t in tasks:
            try: s = open(f"/proc/{pid}/task/{t}/stat").read()
            except FileNotFoundError: continue
            name = re.sub(r'\d+', '#', s[s.index('(')+1:s.rindex(')')])
            f = s[s.rindex(')')+2:].split()
            g[name] += int(f[11]) + int(f[12])
    return g
step = float(sys.argv[1]); pids = sys.argv[2:]
keys = ['pancake-serving', 'pancake-emitter', 'redis-server', 'C# CompilerThre', 'GC Thread#', 'pancake-callbac', 'inflight-#', 'pancake-log']
print('t    ' + ' '.join(k[:10].rjust(10) for k in keys) + '      other')
hz = os.sysconf('SC_CLK_TCK'); a = snap(pids); t0 = time.time(); t = 0
while True:
    time.sleep(step); b = snap(pids); t += step
    if not any(os.path.exists(f"/proc/{p}") for p in pids[:-1]): break
    d = {k: (b[k] - a.get(k, 0)) * 100 / hz / step for k in b}
    other = sum(v for k, v in d.items() if k not in keys)
    print(f"{t:4.0f} " + ' '.join(f"{d.get(k,0):10.0f}" for k in keys) + f" {other:10.0f}", flush=True)
    a = b
