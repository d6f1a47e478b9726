#!/usr/bin/env python3
"""Medians of ab/<variant>-<records>-r<round>/results.csv: ops/s per scheme and pancake/insecure, per variant."""
import csv, glob, os, statistics, sys
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
runs = defaultdict(list)  # (records, workload, variant) -> [(insecure, pancake)]
for path in sorted(glob.glob(os.path.join(here, "ab", "*-r*", "results.csv"))):
    variant, records, _ = os.path.basename(os.path.dirname(path)).split("-")
    rows = {(r["scheme"], r["workload"]): float(r["throughput_ops_s"]) for r in csv.DictReader(open(path))}
    for w in ("a", "c"):
        runs[(int(records), w, variant)].append((rows[("insecure", w)], rows[("pancake", w)]))
print("| records | workload | variant | insecure ops/s (each) | pancake ops/s (each) | pancake / insecure (each) | median ratio |")
print("|--:|---|---|---|---|---|--:|")
for (records, w, variant) in sorted(runs, key=lambda k: (k[0], k[1], k[2] != "old")):
    rs = runs[(records, w, variant)]
    ratios = [p / i for i, p in rs]
    print(f"| {records} | {w.upper()} | {variant} | {' / '.join(f'{i:,.0f}' for i, _ in rs)} (med {statistics.median(i for i, _ in rs):,.0f})"
          f" | {' / '.join(f'{p:,.0f}' for _, p in rs)} (med {statistics.median(p for _, p in rs):,.0f})"
          f" | {' / '.join(f'{r:.3f}' for r in ratios)} | {statistics.median(ratios):.3f} |")
