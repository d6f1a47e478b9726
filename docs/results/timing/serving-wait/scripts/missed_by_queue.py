#!/usr/bin/env python3
# Reads a tick log of the scratch build (scratch.patch, -Dscratch.ticklog=FILE; six columns): how often the gap
# to the next grid point is longer than the period (over 160 us at the one-thread period of 156 us: a missed point,
# a stall, or a window at a lower level),
# by whether a tick one to three ticks back dequeued a request; and how long the tick before a missed point took.
# The first tenth of the run is skipped (warm-up). usage: python3 missed_by_queue.py <ticks file>
import collections, sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
rows = rows[len(rows) // 10:]
g = [rows[j][4] - rows[j - 1][4] for j in range(1, len(rows))]
print("grid gaps (us: ticks):", collections.Counter(round(x / 1000) for x in g).most_common(8))
for lag in (1, 2, 3):
    a = {0: [0, 0], 1: [0, 0]}
    for j in range(lag, len(rows) - 1):
        gap = rows[j + 1][4] - rows[j][4]
        q = min(rows[j + 1 - lag][2], 1)
        a[q][0] += 1
        a[q][1] += gap > 160000
    p0, p1 = a[0][1] / a[0][0], a[1][1] / a[1][0]
    se = (p0 * (1 - p0) / a[0][0] + p1 * (1 - p1) / a[1][0]) ** .5
    print(f"gap after tick k+{lag - 1} over 160 us: tick k dequeued none {100 * p0:.2f}% ({a[0][0]} ticks),"
          f" one or more {100 * p1:.2f}% ({a[1][0]}); z {(p1 - p0) / se:+.1f}")
d = [(rows[j][5] - rows[j][0], rows[j + 1][4] - rows[j][4] > 160000) for j in range(len(rows) - 1)]
m = sorted(x for x, f in d if f)
n = sorted(x for x, f in d if not f)
print("the tick before such a gap took p10 %.0f p50 %.0f p90 %.0f us; before the others p50 %.0f p99 %.0f us"
      % (m[len(m) // 10] / 1e3, m[len(m) // 2] / 1e3, m[9 * len(m) // 10] / 1e3, n[len(n) // 2] / 1e3, n[99 * len(n) // 100] / 1e3))
