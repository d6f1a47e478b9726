#!/usr/bin/env python3
# Reads a tick log of the scratch build (scratch.patch, -Dscratch.ticklog=FILE): per tick its start, the wait for
# tick k-2's serving (-1: none), requests dequeued, the time after its call, its grid point, the time after the hand-over.
# The first tenth of the run is skipped (warm-up). usage: python3 long_gaps_by_queue.py <ticks file>...
import sys, statistics as st
def load(f):
    rows=[tuple(map(int,l.split())) for l in open(f)]
    return rows[len(rows)//10:]
for f in sys.argv[1:]:
    rows=load(f); n=len(rows)
    gaps=[rows[j][3]-rows[j-1][3] for j in range(1,n)]  # gap between sends j-1 -> j, index j-1
    thr=sorted(gaps)[int(.9*len(gaps))]
    out=[]
    for lag in (1,2,3):
        # gap after call k+lag-1 (= send[k+lag]-send[k+lag-1]) vs q of tick k
        a={0:[0,0],1:[0,0]}
        for k in range(n-lag):
            g=rows[k+lag][3]-rows[k+lag-1][3]; q=min(rows[k][2],1)
            a[q][0]+=1; a[q][1]+= g>thr
        p0=a[0][1]/a[0][0]; p1=a[1][1]/a[1][0]
        se=((p0*(1-p0))/a[0][0]+(p1*(1-p1))/a[1][0])**.5
        out.append(f"lag{lag}: long|q0 {p0*100:.2f}% long|q1 {p1*100:.2f}% z {(p1-p0)/se:+.1f}")
    print(f, f"thr {thr/1000:.0f}us", ' | '.join(out))
