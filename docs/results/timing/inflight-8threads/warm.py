#!/usr/bin/env python3
"""Warm windows of YCSB status lines (-s -p status.interval=5), as the C++ reference was measured:
after a 15-s warm-up, over the next 20 s. Per run: whole-run ops/s (YCSB's), the warm windows'
ops/s (operations over the time between the windows' status-line stamps), and their average
latency (READ and UPDATE weighted by count).
usage: warm.py FILE.err... [--from 15 --to 35]"""
import datetime, re, sys, os
args = sys.argv[1:]
lo, hi = 15, 35
if '--from' in args:
    i = args.index('--from'); lo = float(args[i + 1]); del args[i:i + 2]
if '--to' in args:
    i = args.index('--to'); hi = float(args[i + 1]); del args[i:i + 2]
line_re = re.compile(r'(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}) (\d+) sec: (\d+) operations; ([0-9.]+) current ops/sec;(.*)')
op_re = re.compile(r'\[(READ|UPDATE|INSERT): Count=(\d+), Max=\d+, Min=\d+, Avg=([0-9.]+)')
print(f"{'run':16} {'whole':>8} {'warm ops/s':>10} {'warm avg us':>11}  windows ({lo:g}-{hi:g} s)")
for f in args:
    prev_t, prev_ops, prev_stamp = 0, 0, None
    win, n_lat, s_lat = [], 0, 0.0
    for l in open(f):
        m = line_re.search(l)
        if not m:
            continue
        # the stamp's milliseconds time the window (the seconds counter is whole seconds, and the
        # last line of a run comes when it ends, not on the interval)
        d, ms = m.group(1).rsplit(':', 1)
        stamp = datetime.datetime.strptime(d, '%Y-%m-%d %H:%M:%S').timestamp() + int(ms) / 1000
        t, ops = int(m.group(2)), int(m.group(3))
        if prev_stamp is not None and prev_t >= lo and t <= hi and stamp > prev_stamp:
            win.append((ops - prev_ops) / (stamp - prev_stamp))
            for op, c, a in op_re.findall(m.group(5)):
                n_lat += int(c); s_lat += int(c) * float(a)
        prev_t, prev_ops, prev_stamp = t, ops, stamp
    whole = ''
    out = f[:-4] + '.out'
    if os.path.exists(out):
        for l in open(out):
            if 'Throughput' in l:
                whole = f"{float(l.split(',')[-1]):.0f}"
    name = os.path.basename(f)[:-4]
    if win:
        print(f"{name:16} {whole:>8} {sum(win)/len(win):10.0f} {s_lat/max(n_lat,1):11.0f}  " + ' '.join(f"{w:.0f}" for w in win))
    else:
        print(f"{name:16} {whole:>8} {'-':>10} {'-':>11}  (run shorter than {hi:g} s)")
