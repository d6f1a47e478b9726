#!/usr/bin/env python3
"""Rank correlation, label by label, between the reads of a run's swap at open and the rest.

usage: swap_steady.py <transcript>...   (pancake.trace.file of `bin/ycsb run pancake ...`)

A swap at open (a run whose declared distribution differs from the state's) sends its ticks
before the first request, as calls larger than the steady phase's (64 batches: 192 reads); the
calls of more than MIN_SWAP_READS reads are taken as the swap. Prints, per transcript, Spearman's
rho between the swap's and the steady phase's per-label read counts, and between the steady
phase's two halves. Both are about 0 (standard error 1/sqrt(labels)) when every label is read
alike in each phase. Session 21 (timing.md, "Thirteenth pass") found 0.058 in one run of 14.
"""
import collections
import sys

MIN_SWAP_READS = 3


def ranks(x):
    order = sorted(range(len(x)), key=lambda i: x[i])
    r = [0.0] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / (va * vb) ** 0.5


for path in sys.argv[1:]:
    calls = collections.OrderedDict()
    with open(path) as f:
        for line in f:
            if line.startswith('R '):
                p = line.split()
                calls.setdefault(p[3], []).append(p[1])
    swap = collections.Counter()
    steady = []
    for labels in calls.values():
        if len(labels) > MIN_SWAP_READS:
            swap.update(labels)
        else:
            steady.extend(labels)
    half = len(steady) // 2
    s1, s2 = collections.Counter(steady[:half]), collections.Counter(steady[half:])
    labels = sorted(set(swap) | set(s1) | set(s2))
    print(f"{path}: labels {len(labels)}, swap reads {sum(swap.values())}, steady reads {len(steady)}; "
          f"swap vs steady {spearman([swap[l] for l in labels], [s1[l] + s2[l] for l in labels]):.3f}, "
          f"steady halves {spearman([s1[l] for l in labels], [s2[l] for l in labels]):.3f} "
          f"(standard error {1 / len(labels) ** 0.5:.3f})")
