"""Missed grid points (gaps holding no slot, as in missed.py) in the stretches of the first change
test and of each plan change of a probed run (probe.patch: PROBE lines in run.err), [test-begin,
test-end + 20 ms] and [estimate, saved + 20 ms], and per 100 ms elsewhere (after the first second).
usage: python3 stretches.py [-v] <run dir>...   (-v: the first plan's marks and gaps)"""
import sys, statistics
sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times
S = 10**9; MS = 10**6
verbose = '-v' in sys.argv
for d in [a for a in sys.argv[1:] if a != '-v']:
    origin = None; marks = []
    for line in open(d + '/run.err'):
        if line.startswith('PROBE origin'):
            origin = int(line.split()[2])
        elif line.startswith('PROBE '):
            f = line.split(); marks.append((f[1], int(f[2]) - origin))
    ts = call_times(d)
    gaps = []; window = []
    for i in range(1, len(ts)):
        g = ts[i] - ts[i-1]
        if len(window) == 50:
            p = statistics.median(window); m = round(g/p) - 1
            if m > 0: gaps.append((ts[i-1], g, m, g - p >= 3*MS))
            window.pop(0)
        window.append(g)
    holds = lambda t, g, ph: (ph*MS - t) % S <= g
    phase = max(range(1000), key=lambda ph: sum(1 for t, g, m, l in gaps if l and holds(t, g, ph)))
    missed = [(t, m) for t, g, m, l in gaps if not holds(t, g, phase)]
    count = lambda lo, hi: sum(m for t, m in missed if lo <= t < hi)
    stretches = []
    tb = [t for w, t in marks if w == 'test-begin']; te = [t for w, t in marks if w == 'test-end']
    stretches.append(('first test', tb[0], te[0] + 20*MS))
    es = [t for w, t in marks if w == 'estimate']; sv = [t for w, t in marks if w == 'saved']
    for k, (a, b) in enumerate(zip(es, sv)):
        stretches.append((f'plan {k+1}', a, b + 20*MS))
    out = [f"{n} {count(a, b)} in {(b-a)/MS:.0f} ms" for n, a, b in stretches]
    busy = [(a, b) for _, a, b in stretches]
    per100 = []
    lo = S
    while lo + 100*MS <= ts[-1]:
        if not any(lo < b and lo + 100*MS > a for a, b in busy):
            per100.append(count(lo, lo + 100*MS))
        lo += 100*MS
    per100.sort()
    print(f"{d}: {'; '.join(out)}; elsewhere per 100 ms: mean {statistics.mean(per100):.1f}, 90th pct {per100[int(.9*len(per100))]}, 99th {per100[int(.99*len(per100))]}")
    if verbose:  # the first plan's stretch: the marks and every gap with missed points
        a, b = stretches[1][1], stretches[1][2]
        for w, t in marks:
            if a - 5*MS <= t <= b: print(f"   mark {w:11s} at {(t-a)/MS:7.1f} ms")
        for t, g, m, l in gaps:
            if a - 5*MS <= t <= b: print(f"   gap at {(t-a)/MS:7.1f} ms, {g/MS:.1f} ms long, {m} missed{' (slot)' if holds(t,g,phase) else ''}")
