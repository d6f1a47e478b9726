#!/usr/bin/env python3
"""Per 3-second span of a run with scratch.patch's -Dscratch.rate=true: the emission windows (0.1 s each)
that counted as overloaded (over a tenth of grid points missed, or a proxy thread busy over 0.7), the arrivals,
the tick level T and the busy shares. Usage: windows.py <run.err>"""
import sys
rows = [dict(kv.split("=") for kv in l.split()[1:]) for l in open(sys.argv[1]) if l.startswith("RATE ")]
missed = lambda r: int(r["missed"]) * 10 > int(r["ticks"]) + int(r["missed"])
busy = lambda r: max(float(r["busyE"]), float(r["busyS"]))
end = int(float(rows[-1]["t"])) + 1
for lo in range(0, end, 3):
    w = [r for r in rows if lo <= float(r["t"]) < lo + 3]
    if not w:
        continue
    n = len(w)
    grid = sum(int(r["ticks"]) + int(r["missed"]) for r in w)
    print(f"{lo:2d}-{lo + 3:2d} s: windows {n:2d}, overloaded {sum(missed(r) or busy(r) > 0.7 for r in w):2d} "
          f"(missed > 10 %: {sum(missed(r) for r in w):2d}, busy > 0.7: {sum(busy(r) > 0.7 for r in w):2d}), "
          f"arrivals {sum(float(r['arr']) for r in w) / n:6.0f}/s, T {sum(int(r['T']) for r in w) / n:4.1f}, "
          f"emitter busy {sum(float(r['busyE']) for r in w) / n:.2f}, serving busy {sum(float(r['busyS']) for r in w) / n:.2f}, "
          f"points missed {sum(int(r['missed']) for r in w) / grid:.3f}")
