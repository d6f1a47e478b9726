#!/usr/bin/env python3
# per-CPU busy percent each second: epoch cpu0 cpu1 ...
import time, sys
def read():
    d = {}
    for l in open('/proc/stat'):
        if l.startswith('cpu') and l[3].isdigit():
            f = l.split(); v = list(map(int, f[1:]))
            d[f[0]] = (sum(v), v[3] + v[4])
    return d
p = read()
while True:
    time.sleep(1)
    c = read()
    out = [str(int(time.time()))]
    for k in sorted(c):
        dt = c[k][0] - p[k][0]; di = c[k][1] - p[k][1]
        out.append(str(round(100 * (dt - di) / dt)) if dt else '0')
    print(' '.join(out), flush=True)
    p = c
