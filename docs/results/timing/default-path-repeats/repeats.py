#!/usr/bin/env python3
"""Statistics of many default-path runs (README.md here), each a directory made by runs.sh.

usage: repeats.py <run dir>...

Per run (one CSV line): the whole-run chi-square p of the per-label read counts (as `bin/audit`
computes it: every label of the state expected alike), Spearman's rho between the read counts of
the swap at open (calls of more than 3 reads) and of the steady phase, between the steady
phase's two halves, and the steady phase's dispersion (the chi-square per label). Over all runs:
each YCSB key's steady-phase reads (of whatever labels it owns in each run) against its expected
share, which a key the estimate gets wrong fails run after run. Then, pooled over the runs, each label group's mean read count relative to
the expected one, in the swap and in the steady phase, with its z score; a group is what the
label was after the load and what it is after the run (owners-load.txt, owners-end.txt: the
ground truth from PancakeClient.labelOwners) and its key's replica count. Without a leak every
relative mean is 1 up to its z score, and the per-run figures are spread as chance spreads them.
"""
import collections
import math
import sys

from scipy import stats


def read_calls(trace):
    calls = collections.OrderedDict()
    with open(trace) as f:
        for line in f:
            p = line.split()
            if p[0] == 'R':
                calls.setdefault(p[3], []).append(p[1])
    return calls


def owners(path):
    with open(path) as f:
        return dict(line.split() for line in f)


def group_of(before, after, replicas):
    if before == '-' and after == '-':
        kind = 'dummy -> dummy'
    elif before == after:
        kind = 'same key'
    elif before == '-':
        kind = 'dummy -> key'
    elif after == '-':
        kind = 'key -> dummy'
    else:
        kind = 'key -> other key'
    if after == '-':
        return [kind]
    return [kind, f'{kind}, ' + ('1 replica' if replicas == 1 else f'{min(replicas, 4)}{"+" if replicas >= 4 else ""} replicas')]


pooled = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
key_reads, key_expected = collections.Counter(), collections.Counter()  # steady phase, per YCSB key, over the runs
print('run,chi2_p,swap_vs_steady,steady_halves,steady_dispersion')
rows = []
for run in sys.argv[1:]:
    calls = read_calls(run + '/run.trace')
    end = owners(run + '/owners-end.txt')
    load = owners(run + '/owners-load.txt')
    swap, steady = collections.Counter(), []
    for labels in calls.values():
        if len(labels) > 3:
            swap.update(labels)
        else:
            steady.extend(labels)
    half = len(steady) // 2
    s1, s2 = collections.Counter(steady[:half]), collections.Counter(steady[half:])
    labels = sorted(end)
    total = [swap[l] + s1[l] + s2[l] for l in labels]
    p = stats.chisquare(total).pvalue
    rho_swap = stats.spearmanr([swap[l] for l in labels], [s1[l] + s2[l] for l in labels]).statistic
    rho_halves = stats.spearmanr([s1[l] for l in labels], [s2[l] for l in labels]).statistic
    steady_counts = [s1[l] + s2[l] for l in labels]
    expected = sum(steady_counts) / len(labels)
    dispersion = sum((c - expected) ** 2 for c in steady_counts) / expected / len(labels)
    rows.append((run, p, rho_swap, rho_halves, dispersion))
    print(f'{run},{p:.3g},{rho_swap:.4f},{rho_halves:.4f},{dispersion:.4f}')
    replicas = collections.Counter(end.values())
    expect_swap = sum(swap.values()) / len(labels)
    expect_steady = len(steady) / len(labels)
    for l in labels:
        key_reads[end[l]] += s1[l] + s2[l]
        key_expected[end[l]] += expect_steady
        for g in group_of(load[l], end[l], replicas[end[l]]):
            x = pooled[g]
            x[0] += 1
            x[1] += swap[l] / expect_swap
            x[2] += (s1[l] + s2[l]) / expect_steady
            x[3] += expect_swap
            x[4] += expect_steady

n = len(rows)
ps = sorted(r[1] for r in rows)
sw = [r[2] for r in rows]
hv = [r[3] for r in rows]
sd = lambda xs: math.sqrt(sum((x - sum(xs) / len(xs)) ** 2 for x in xs) / (len(xs) - 1))
print(f'\n{n} runs; chi-square p: min {ps[0]:.3g}, below 0.01: {sum(p < 0.01 for p in ps)}, below 0.001: '
      f'{sum(p < 0.001 for p in ps)}; uniform over runs (Kolmogorov-Smirnov) p = {stats.kstest(ps, "uniform").pvalue:.3f}')
print(f'swap vs steady rho: mean {sum(sw) / n:+.4f}, sd {sd(sw):.4f}, range {min(sw):+.3f} .. {max(sw):+.3f}')
print(f'steady halves rho:  mean {sum(hv) / n:+.4f}, sd {sd(hv):.4f}, range {min(hv):+.3f} .. {max(hv):+.3f}')
dp = [r[4] for r in rows]
print(f'steady phase dispersion (mean of (count - expected)^2 / expected over labels; 1 for independent draws): '
      f'mean {sum(dp) / n:.4f}, sd {sd(dp):.4f}, z of the mean {(sum(dp) / n - 1) / (sd(dp) / math.sqrt(n)):+.1f}')
keys = [k for k in key_reads if k != '-']
chi_keys = sum((key_reads[k] - key_expected[k]) ** 2 / key_expected[k] for k in keys)
print(f'per key over all runs (YCSB names keys alike in every run; a key\'s steady-phase reads of all its labels '
      f'against its labels\' share): chi-square {chi_keys:.0f} on {len(keys)} df, p = {stats.chi2.sf(chi_keys, len(keys)):.3f}')
print('\npooled label groups (read count relative to the expected, z score):')
for g, (count, s, t, es, et) in sorted(pooled.items()):
    ms, mt = s / count, t / count
    print(f'  {g:34s} {count:8d} labels   swap {ms:.4f} (z {(ms - 1) * math.sqrt(es):+.1f})   '
          f'steady {mt:.4f} (z {(mt - 1) * math.sqrt(et):+.1f})')
