#!/usr/bin/env python3
# Reads a tick log of the scratch build (scratch.patch, -Dscratch.ticklog=FILE; six columns), on the engine before
# 6348de5 (the wait for tick k-2's serving inside the tick): what the gaps longer than the period are made of, whether
# their dependence on the queue survives once the ticks that waited for a serving are left out, and which tick's
# queue state goes with a wait. The first tenth of the run is skipped (warm-up).
# usage: python3 stalls_by_queue.py <ticks file>
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
rows = rows[len(rows) // 10:]
n = len(rows)
st = [j for j in range(n - 1) if rows[j + 1][4] - rows[j][4] > 1e6]
c = {'wait for the serving': 0, 'build and call': 0, 'hand-over': 0, 'between ticks': 0}
for j in st:
    a = max(rows[j][1], 0)
    b = rows[j][3] - rows[j][0] - a
    e = rows[j][5] - rows[j][3]
    w = rows[j + 1][0] - rows[j][5]
    c[max((a, 'wait for the serving'), (b, 'build and call'), (e, 'hand-over'), (w, 'between ticks'))[1]] += 1
aw = sorted(max(rows[j][1], 0) / 1e3 for j in st)
print(f"{len(st)} gaps over 1 ms; the largest part of the tick before: {c}; its wait p10/p50/p90 "
      f"{[round(aw[int(f * len(aw))]) for f in (.1, .5, .9)]} us")
for excl in (False, True):
    for lag in (1, 2, 3):
        a = {0: [0, 0], 1: [0, 0]}
        for j in range(lag, n - 1):
            if excl and (rows[j][1] > 0 or rows[j + 1][1] > 0):
                continue
            q = min(rows[j + 1 - lag][2], 1)
            a[q][0] += 1
            a[q][1] += rows[j + 1][4] - rows[j][4] > 160000
        p0, p1 = a[0][1] / a[0][0], a[1][1] / a[1][0]
        se = (p0 * (1 - p0) / a[0][0] + p1 * (1 - p1) / a[1][0]) ** .5
        print(f"{'without' if excl else 'with   '} the ticks that waited: gap over 160 us after tick k+{lag - 1},"
              f" tick k dequeued none {100 * p0:.2f}%, one or more {100 * p1:.2f}%; z {(p1 - p0) / se:+.1f}")
for lag in (0, 1, 2, 3):
    a = {0: [0, 0], 1: [0, 0]}
    for j in range(lag, n):
        q = min(rows[j - lag][2], 1)
        a[q][0] += 1
        a[q][1] += rows[j][1] > 0
    print(f"tick j waited for a serving, by tick j-{lag}'s queue: dequeued none {100 * a[0][1] / a[0][0]:.2f}%,"
          f" one or more {100 * a[1][1] / a[1][0]:.2f}%")
