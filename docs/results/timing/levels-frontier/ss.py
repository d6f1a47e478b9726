#!/usr/bin/env python3
# ss.py <run.err>...: requests per batch by phase: sum of arrivals over sum of batches, from the
# LEVELS lines (arr is per second, fill = arr/(1.5*batches/s))
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from levels import windows
for f in sys.argv[1:]:
    rows=windows(f)
    def rpb(rs):
        req=sum(float(r['arr']) for r in rs); bat=sum(float(r['arr'])/(1.5*float(r['fill'])) for r in rs if float(r['fill'])>0)
        return req/bat if bat else 0
    n=len(rows)
    print(f"{f:45s} all {rpb(rows):.3f}  first60 {rpb(rows[:60]):.3f}  rest {rpb(rows[60:]):.3f}  rest-missed>200-excluded {rpb([r for r in rows[60:] if int(r['missed'])<=200]):.3f}")
