#!/usr/bin/env python3
"""Tables of ab.sh's output: <O>/<variant>-<store>-<records>-r<round>/ (8 threads) and <variant>-one-r<round>/ (one thread).
Usage: summary.py <O>"""
import csv, glob, os, re, statistics, sys
from collections import defaultdict
O = sys.argv[1]
def per_batch(d, w):
    try:
        m = re.search(r"\((\d+\.\d+) requests per batch\)", open(os.path.join(d, f"pancake-{w}.run.err")).read())
        return float(m.group(1)) if m else None
    except OSError:
        return None
runs = defaultdict(list)
for d in sorted(glob.glob(os.path.join(O, "*-r[0-9]"))):
    name = os.path.basename(d)
    if not os.path.isfile(os.path.join(d, "results.csv")) or "-one-" in name:
        continue
    variant, store, records, rnd = name.split("-")
    rows = {(r["scheme"], r["workload"]): float(r["throughput_ops_s"]) for r in csv.DictReader(open(os.path.join(d, "results.csv")))}
    for w in ("a", "c"):
        if ("insecure", w) in rows and ("pancake", w) in rows:
            runs[(store, int(records), w, variant)].append((rnd, rows[("insecure", w)], rows[("pancake", w)], per_batch(d, w)))
print("| store | records | workload | variant | insecure ops/s | pancake ops/s | requests per batch | pancake / insecure | median ratio |")
print("|---|--:|---|---|---|---|---|---|--:|")
for k in sorted(runs, key=lambda k: (k[0], k[1], k[2], k[3] != "old")):
    rs = runs[k]
    f = lambda xs: " / ".join(xs)
    print(f"| {k[0]} | {k[1]} | {k[2].upper()} | {k[3]} | {f(f'{i:,.0f}' for _, i, _, _ in rs)} | {f(f'{p:,.0f}' for _, _, p, _ in rs)}"
          f" | {f(f'{b:.2f}' if b else '-' for _, _, _, b in rs)} | {f(f'{p / i:.3f}' for _, i, p, _ in rs)} | {statistics.median(p / i for _, i, p, _ in rs):.3f} |")
print()
print("| one thread, RocksDB C, 2 000 records | ops/s | read p99 us |")
print("|---|---|---|")
for variant in ("old", "new"):
    got = []
    for d in sorted(glob.glob(os.path.join(O, f"{variant}-one-r[0-9]"))):
        for r in csv.DictReader(open(os.path.join(d, "results.csv"))):
            got.append((float(r["throughput_ops_s"]), r["read_p99_us"]))
    print(f"| {variant} | {' / '.join(f'{t:,.0f}' for t, _ in got)} | {' / '.join(p for _, p in got)} |")
