"""The scratch build's LEVELS lines (one a 100 ms window, on stderr, `-Dscratch.trace=true`) as
dicts of their key=value fields: arr, fill, busy, ticks, missed, over, full, L, T, K, tps."""


def windows(path):
    return [dict(kv.split('=') for kv in line.split()[1:]) for line in open(path) if line.startswith('LEVELS')]
