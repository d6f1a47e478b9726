#!/usr/bin/env python3
"""Throughput of a YCSB run around RocksDB's memtable flushes (timing.md, eleventh pass).

usage: flushdip.py RUN_DIR...   each RUN_DIR holds db/LOG (RocksDB's log) and time.log (YCSB's stderr
with -s -p status.interval=5). Prints the mean of the 5-second windows that end within 10 s of a
flush's start against the other windows; the first 20 s (the JIT's cold phase) and the last, partial
window are left out.
"""
import datetime
import re
import sys

STATUS = re.compile(r'\d{4}-\d\d-\d\d (\d\d:\d\d:\d\d):\d+ \d+ sec: \d+ operations; ([\d.]+) current')
FLUSH = re.compile(r'(\d\d:\d\d:\d\d)\.\d+ .*"event": "flush_started"')


def clock(s):
    return datetime.datetime.strptime(s, "%H:%M:%S")


def mean(xs):
    return sum(xs) / len(xs) if xs else float('nan')


for d in sys.argv[1:]:
    flushes = [clock(m.group(1)) for m in FLUSH.finditer(open(d + '/db/LOG').read())]
    windows = [(clock(a), float(b)) for a, b in STATUS.findall(open(d + '/time.log').read())]
    if not windows:
        sys.exit(d + ': no status lines in time.log (run YCSB with -s -p status.interval=5)')
    start = windows[0][0]
    after, other = [], []
    for end, rate in windows[:-1]:
        if (end - start).total_seconds() < 20:
            continue
        near = any(0 <= (end - f).total_seconds() <= 10 for f in flushes)
        (after if near else other).append(rate)
    print(f"{d}: {len(flushes)} flushes; windows ending within 10 s of a flush's start: {len(after)},"
          f" mean {mean(after):.0f} ops/s; the others: {len(other)}, mean {mean(other):.0f}")
