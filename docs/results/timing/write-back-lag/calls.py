"""The times of a transcript's store calls: the 4th column of <run dir>/run.trace (nanoseconds from
the trace's start, the same on every line of one call), one entry a call."""


def call_times(run_dir):
    ts = []
    last = None
    for line in open(run_dir + '/run.trace'):
        f = line.split()
        if len(f) < 4:
            continue
        t = int(f[3])
        if t != last:
            ts.append(t)
            last = t
    return ts
