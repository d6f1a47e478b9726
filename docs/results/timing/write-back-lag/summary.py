#!/usr/bin/env python3
# summary.py <results.md>...: pancake's line of each bench table: ops/s, x insecure, requests per
# batch (6 / server keys per op: a batch reads and writes back B = 3 labels), ticks per second
# (round trips per op x ops/s), batches per tick, read average
import sys, os
for f in sys.argv[1:]:
    for line in open(f):
        c = [x.strip() for x in line.split('|')]
        if len(c) > 12 and c[1] == 'pancake':
            ops, rt, keys = float(c[3]), float(c[10]), float(c[11])
            print(f"{os.path.basename(f):22s} {c[2]} {ops:7.0f} ops/s  x{c[4]}  {6 / keys:.2f} requests/batch  "
                  f"{ops * rt:5.0f} ticks/s  K {keys / 6 / rt:.2f}  read avg {c[5]} us")
