#!/usr/bin/env python3
# Reads a tick log of the scratch build (scratch.patch, -Dscratch.ticklog=FILE): per tick its start, the wait for
# tick k-2's serving (-1: none), requests dequeued, the time after its call, its grid point, the time after the hand-over.
# The first tenth of the run is skipped (warm-up). usage: python3 wait_by_queue.py <ticks file>...
import sys
rows=[tuple(map(int,l.split()[:4])) for l in open(sys.argv[1])]
rows=rows[len(rows)//10:]  # skip warm-up
n=len(rows)
import collections
c=collections.Counter()
wt=collections.defaultdict(list)
for j in range(2,n):
    q2=min(rows[j-2][2],1); w=rows[j][1]
    c[(q2, w>0)]+=1
    wt[q2].append(max(w,0))
for q2 in (0,1):
    tot=c[(q2,True)]+c[(q2,False)]
    ws=sorted(wt[q2])
    print(f"tick j-2 dequeued {'>=1' if q2 else '0 '}: ticks {tot}, tick j waited for j-2's serving {c[(q2,True)]/tot*100:.2f}%  mean wait {sum(ws)/len(ws)/1000:.2f} us  p99 {ws[int(.99*len(ws))]/1000:.1f} us p99.9 {ws[int(.999*len(ws))]/1000:.1f} us")
# send delay (send - start) vs q of same tick
sd=collections.defaultdict(list)
for j in range(n):
    sd[min(rows[j][2],1)].append(rows[j][3]-rows[j][0])
for q in (0,1):
    s=sorted(sd[q]); print(f"tick dequeued {q}: send-start median {s[len(s)//2]/1000:.1f} us p99 {s[int(.99*len(s))]/1000:.1f}")
