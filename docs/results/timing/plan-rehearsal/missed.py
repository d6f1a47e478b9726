"""Missed grid points around each plan saved ahead, against the rest of the run. A gap between two
store calls of g, where the grid's period p is the median of the 50 gaps before it, misses
round(g / p) - 1 points; a gap that holds a slot (the plan and checkpoint budgets' silences,
on the clock every second: the slot phase is the one most gaps 3 ms past the period hold) is left
out. Counted over the <span> seconds before each plan's save (plans.txt, written
by ../plan-ahead/planwatch.py: the planner's work, the estimator's test before it) and over every
other disjoint <span>-second window after the first second (the JIT's) that overlaps no such stretch.
usage: python3 missed.py <span s> <run dir>...   (each with run.trace and plans.txt)"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times  # noqa: E402

S = 1_000_000_000
MS = 1_000_000
span = float(sys.argv[1])
others = []
for d in sys.argv[2:]:
    ts = call_times(d)
    gaps = []  # (time of the call before the gap, gap, points missed)
    window = []
    for i in range(1, len(ts)):
        g = ts[i] - ts[i - 1]
        if len(window) == 50:
            p = statistics.median(window)
            m = round(g / p) - 1 if p > 0 else 0
            if m > 0:
                gaps.append((ts[i - 1], g, m, g - p >= 3 * MS))
            window.pop(0)
        window.append(g)

    def holds(gap, phase):
        return (phase * MS - gap[0]) % S <= gap[1]

    long = [x for x in gaps if x[3]]
    phase = max(range(1000), key=lambda ph: sum(1 for x in long if holds(x, ph)))
    missed = [(t, m) for t, g, m, _ in gaps if not holds((t, g), phase)]
    saves = []
    with open(os.path.join(d, 'plans.txt')) as f:
        for line in f:
            name, t = line.split()
            saves.append((name, float(t) * S))

    def count(lo, hi):
        return sum(m for t, m in missed if lo <= t < hi)

    per_save = [f"{name} at {t / S:.2f} s: {count(t - span * S, t)}" for name, t in saves]
    mine = []
    lo = S
    while lo + span * S <= ts[-1]:
        hi = lo + span * S
        if not any(lo < t and hi > t - span * S for _, t in saves):
            mine.append(count(lo, hi))
        lo = hi
    others += mine
    print(f"{d} (slot phase {phase} ms): before the saves: {'; '.join(per_save)}; elsewhere ({len(mine)} windows) mean "
          f"{statistics.mean(mine):.1f}, median {statistics.median(mine)}, max {max(mine)}")
if len(sys.argv) > 3:
    others.sort()
    print(f"all runs, elsewhere: {len(others)} windows, mean {statistics.mean(others):.1f}, "
          f"90th percentile {others[int(0.9 * len(others))]}, max {others[-1]}")
