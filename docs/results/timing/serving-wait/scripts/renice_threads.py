#!/usr/bin/env python3
# every 0.2 s: the threads of any YCSB JVM whose names start with one of argv[1]'s comma-separated prefixes at
# nice 19 (setpriority on the thread id; each thread once)
import os, time
import sys
NAMES = tuple(sys.argv[1].split(','))
done = set()
while True:
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            if b'site.ycsb.Client' not in open(f'/proc/{p}/cmdline', 'rb').read():
                continue
            for t in os.listdir(f'/proc/{p}/task'):
                if (p, t) in done:
                    continue
                n = open(f'/proc/{p}/task/{t}/comm').read().strip()
                if n.startswith(NAMES):
                    os.setpriority(os.PRIO_PROCESS, int(t), 19)
                    done.add((p, t))
        except (OSError, ProcessLookupError):
            pass
    time.sleep(0.2)
