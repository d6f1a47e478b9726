#!/usr/bin/env python3
"""Gaps between store calls (trace lines: R/W <label> <len> <ns>) of runs that only read against
runs that only write: quantiles per run, and the two-sample KS statistic between each read-only
run and the write-only run of the same round and checkout. Usage: mix-gaps.py <out dir> <name> ...
(the run directories <name>R<i> and <name>W<i> of mix-gaps.sh)."""
import sys, glob, os
import numpy as np
from scipy.stats import ks_2samp

def gaps(trace, skip=0.05):
    times = sorted({int(l.split()[3]) for l in open(trace) if l.startswith('R ')})
    times = times[int(len(times) * skip):]
    return np.diff(np.array(times, dtype=np.int64)) / 1e3

out = sys.argv[1]
for name in sys.argv[2:]:
    for rd in sorted(glob.glob(os.path.join(out, name + 'R*'))):
        i = rd[len(os.path.join(out, name + 'R')):]
        wd = os.path.join(out, name + 'W' + i)
        g = {m: gaps(os.path.join(d, 'run.trace')) for m, d in (('R', rd), ('W', wd))}
        q = {m: np.percentile(g[m], [50, 90, 99]) for m in g}
        ks = ks_2samp(g['R'], g['W'])
        print(f"{name}{i}: reads p50/p90/p99 {q['R'][0]:.1f}/{q['R'][1]:.1f}/{q['R'][2]:.1f} us ({len(g['R'])} gaps); "
              f"writes {q['W'][0]:.1f}/{q['W'][1]:.1f}/{q['W'][2]:.1f} us ({len(g['W'])}); KS D {ks.statistic:.3f} p {ks.pvalue:.2g}")
