"""Watches a run's state directory for swapping plans saved ahead (plan-<n>.bin) and prints when
each appeared, in seconds on the trace's clock (from the moment run.trace was created, which the
proxy's trace starts counting at, within a poll).
usage: python3 planwatch.py <run dir> <out file>   (stops when <run dir>/done exists)"""
import os
import sys
import time

d, out = sys.argv[1], sys.argv[2]
state = os.path.join(d, 'state')
t0 = None
seen = set()
with open(out, 'w') as f:
    while not os.path.exists(os.path.join(d, 'done')):
        now = time.monotonic_ns()
        if t0 is None and os.path.exists(os.path.join(d, 'run.trace')):
            t0 = now
        if t0 is not None and os.path.isdir(state):
            for name in os.listdir(state):
                if name.startswith('plan-') and name.endswith('.bin') and name not in seen:
                    seen.add(name)
                    f.write(f"{name} {(now - t0) / 1e9:.3f}\n")
                    f.flush()
        time.sleep(0.005)
