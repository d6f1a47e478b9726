"""pauses.py <run dir>...: each pause of the ticks a scratch build printed (PAUSE lines on the run's
stderr, with scratch.patch and -Dscratch.pauses=true) against the transcript's silence around it.
A run dir holds run.err and run.trace (bin/pancake bench --trace, its --work directory's runs).
Columns: kind (ckpt, plan, finish), seconds into the trace, ticks sent and not yet served when the
pause began (behind), the wait for the phase's write lock (drain, us), the time it was held (held,
us), the silence of the transcript that contains the pause (us), the median silence of the 200
calls before it (us), their ratio, and when the call ending that silence left after the
lock was released (us; about 0: the emitter waited for the lock and sent at once, off its grid)."""
import bisect
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'write-back-lag'))
from calls import call_times  # noqa: E402


def pauses(run_dir):
    origin = None
    out = []
    for line in open(os.path.join(run_dir, 'run.err'), errors='replace'):
        if line.startswith('TRACE origin='):
            origin = int(line.split('=')[1])
        elif line.startswith('PAUSE '):
            f = line.split()
            kv = dict(x.split('=') for x in f[2:])
            out.append((f[1], kv))
    return origin, out


def main(dirs):
    print('run kind s behind drainUs heldUs extra silenceUs medianUs ratio resumeUs')
    for d in dirs:
        origin, ps = pauses(d)
        if origin is None:
            print(d, 'no TRACE origin line', file=sys.stderr)
            continue
        ts = call_times(d)
        for kind, kv in ps:
            at = int(kv['t0']) - origin
            end = at + (int(kv['drainUs']) + int(kv['heldUs'])) * 1000
            i = bisect.bisect_right(ts, at)
            k = bisect.bisect_right(ts, end)
            if i == 0 or k >= len(ts):
                continue
            # the longest silence between the pause's start and the first call after its end
            j = max(range(i, k + 1), key=lambda m: ts[m] - ts[m - 1])
            silence = ts[j] - ts[j - 1]
            resume = (ts[j] - end) // 1000
            before = [ts[j] - ts[j - 1] for j in range(max(1, i - 200), i)]
            med = statistics.median(before) if before else float('nan')
            extra = kv.get('cache', kv.get('swaps', '-'))
            print(os.path.basename(d.rstrip('/')), kind, f'{at / 1e9:.2f}', kv['behind'], kv['drainUs'],
                  kv['heldUs'], extra, silence // 1000, int(med // 1000), f'{silence / med:.1f}', resume)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: pauses.py <run dir>...')
    main(sys.argv[1:])
