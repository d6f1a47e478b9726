"""Samples the emitter's and serving thread's scheduler stats every 5 ms (CLOCK_MONOTONIC ns);
when the emitter waited on a run queue for more than 3 ms within a sample, lists the runnable
tasks on its CPU. usage: sampler.py <out file> (runs until the java process with the emitter ends)"""
import os, sys, time, glob
out = open(sys.argv[1], 'w')
def find():
    for task in glob.glob('/proc/[0-9]*/task/[0-9]*/comm'):
        try:
            if open(task).read().strip() == 'pancake-emitter':
                return task.rsplit('/', 1)[0]
        except OSError:
            pass
    return None
t = None
while t is None:
    t = find()
    time.sleep(0.05)
pid = t.split('/')[2]
serving = None
for task in glob.glob(f'/proc/{pid}/task/[0-9]*/comm'):
    try:
        if open(task).read().strip() == 'pancake-serving':
            serving = task.rsplit('/', 1)[0]
    except OSError:
        pass
out.write(f"# emitter {t} serving {serving} start {time.monotonic_ns()}\n")
def st(path):
    s = open(path + '/stat').read()
    f = s[s.rindex(')') + 2:].split()
    return f[0], int(f[36]), open(path + '/schedstat').read().split()
last = None
try:
    while True:
        now = time.monotonic_ns()
        state, cpu, (run, wait, slices) = st(t)
        sv = st(serving) if serving else ('-', -1, ['0', '0', '0'])
        run, wait = int(run), int(wait)
        try:
            wch = open(t + '/wchan').read().strip() or '-'
        except OSError:
            wch = '?'
        steal = [l.split()[8] for l in open('/proc/stat').read().split('\n')[1:3]]
        line = f"{now} steal={steal[0]},{steal[1]} {state} {cpu} {run} {wait} {slices} {sv[0]} {sv[1]} {sv[2][0]} {sv[2][1]} {wch}"
        if last and wait - last[1] > 3_000_000:
            rq = []
            for p in glob.glob('/proc/[0-9]*/task/[0-9]*/stat'):
                try:
                    s = open(p).read()
                    f = s[s.rindex(')') + 2:].split()
                    if f[0] == 'R' and int(f[36]) == cpu:
                        rq.append(s[s.index('(') + 1:s.rindex(')')] + ':' + p.split('/')[2])
                except (OSError, ValueError):
                    pass
            line += " RQ " + ",".join(rq)
        out.write(line + "\n")
        last = (run, wait)
        time.sleep(0.005)
except (FileNotFoundError, ProcessLookupError):
    pass
