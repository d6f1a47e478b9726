#!/usr/bin/env python3
# Combined ground-truth z of each timing score over the runs of auditx.sh logs (sum of the per-run z / sqrt(runs)).
# usage: python3 combined.py <auditx.log>...
import re, sys
for f in sys.argv[1:]:
    sums, n = {}, 0
    for l in open(f):
        pairs = re.findall(r'([TR]\|\d):(-?[\d.]+)', l)
        if not pairs:
            continue
        n += 1
        for k, v in pairs:
            sums[k] = sums.get(k, 0) + float(v)
    print(f, n, 'runs:', ' '.join(f"{k} {v / n ** .5:+.1f}" for k, v in sorted(sums.items())))
