#!/usr/bin/env python3
# Medians of threads.py's 2-s samples over a run phase (the samples after the first "gone" line, when the load's
# JVM ended, without the last, partial one): ms a second on a CPU / waiting in the run queue, per thread group.
# usage: python3 thread_medians.py <thr-*.txt>...
import re, statistics as st, sys
for f in sys.argv[1:]:
    lines = open(f).read().splitlines()
    gone = next(i for i, l in enumerate(lines) if l.startswith('gone'))
    rows = []
    for l in lines[gone + 1:]:
        if l.startswith('gone'):
            break
        rows.append(dict((k, (int(a), int(b))) for k, a, b in re.findall(r'(\S+)=(-?\d+)/(-?\d+)', l)))
    rows = [r for r in rows[:-1] if 'pancake-serving' in r]
    out = []
    for k in ('pancake-emitter', 'pancake-serving', 'ycsb'):
        out.append(f"{k.replace('pancake-', '')} {st.median(r[k][0] for r in rows):.0f} / {st.median(r[k][1] for r in rows):.0f}")
    print(f"{f.split('/')[-1]} ({len(rows)} samples): " + '; '.join(out))
