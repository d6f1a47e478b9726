#!/usr/bin/env python3
import sys, re
for f in sys.argv[1:]:
    pts = []; rpb = ticks = "?"
    for line in open(f):
        m = re.match(r'(\S+ \S+) (\d+) sec: (\d+) operations', line)
        if m: pts.append((int(m.group(2)), int(m.group(3))))
        m2 = re.search(r'\(([\d.]+) requests per batch\), (\d+) ticks', line)
        if m2: rpb = m2.group(1); ticks = m2.group(2)
    a = [p for p in pts if p[0] >= 15][0]; b = [p for p in pts if p[0] <= 35][-1]
    c = [p for p in pts if p[0] >= 20][0]; e = pts[-1]
    lat = []
    print(f"{f:28s} warm15-35 {(b[1]-a[1])/(b[0]-a[0]):8.0f}  20-end {(e[1]-c[1])/max(1,e[0]-c[0]):8.0f}  rpb {rpb} ticks {ticks}")
