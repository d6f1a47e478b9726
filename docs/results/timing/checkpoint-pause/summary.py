"""summary.py <pauses.py output>: per group of runs (the '== <worktree>-<store>-<round>' headers,
grouped by worktree name), the checkpoints' silences, copy lengths and UpdateCache sizes, and the
rank correlation between the cache's size and the silence (Spearman). 'first' and 'later' split
each run's first checkpoint (about 11 s into it) from the rest."""
import sys
from collections import defaultdict


def spearman(x, y):
    def rank(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0] * len(v)
        for k, i in enumerate(order):
            r[i] = k
        return r
    rx, ry = rank(x), rank(y)
    n = len(x)
    mx, my = sum(rx) / n, sum(ry) / n
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else float('nan')


def main(path):
    groups = defaultdict(list)
    group = None
    for line in open(path):
        if line.startswith('== '):
            group = line.split()[1].rsplit('-', 2)[0]  # the worktree's name
        elif line.startswith('pancake'):
            f = line.split()
            drain, held, cache, silence, resume = int(f[4]), int(f[5]), int(f[6]), int(f[7]), int(f[10])
            groups[group].append((float(f[2]) < 15, drain, held, cache, silence, resume))
    for g, rows in groups.items():
        for part, sel in (('all', rows), ('first', [r for r in rows if r[0]]), ('later', [r for r in rows if not r[0]])):
            if not sel:
                continue
            silence = [r[4] for r in sel]
            held = [r[1] + r[2] for r in sel]
            cache = [r[3] for r in sel]
            resume = [r[5] for r in sel]
            rho = spearman(cache, silence) if len(sel) > 2 else float('nan')
            print(f'{g:14} {part:6} n={len(sel):2}  silence {min(silence) / 1000:.2f}-{max(silence) / 1000:.2f} ms'
                  f'  drain+copy {min(held) / 1000:.2f}-{max(held) / 1000:.2f} ms  cache {min(cache)}-{max(cache)}'
                  f'  resume {min(resume)}-{max(resume)} us  spearman(cache, silence) {rho:+.2f}')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit('usage: summary.py <pauses.py output>')
    main(sys.argv[1])
