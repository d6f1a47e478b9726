#!/usr/bin/env python3
# Reads a tick log of the scratch build (scratch.patch, -Dscratch.ticklog=FILE): per tick its start, the wait for
# tick k-2's serving (-1: none), requests dequeued, the time after its call, its grid point, the time after the hand-over.
# The first tenth of the run is skipped (warm-up). usage: python3 parts_by_queue.py <ticks file>...
import sys
rows=[tuple(map(int,l.split())) for l in open(sys.argv[1])]
rows=rows[len(rows)//10:]; n=len(rows)
def comp(name, f):
    out=[]
    vals=[f(j) for j in range(n)]
    thr=sorted(vals)[int(.9*n)]
    for lag in (0,1,2,3):
        a={0:[],1:[]}
        for j in range(lag,n):
            a[min(rows[j-lag][2],1)].append(vals[j])
        m0=sum(a[0])/len(a[0]); m1=sum(a[1])/len(a[1])
        t0=sum(v>thr for v in a[0])/len(a[0]); t1=sum(v>thr for v in a[1])/len(a[1])
        se=((t0*(1-t0))/len(a[0])+(t1*(1-t1))/len(a[1]))**.5
        out.append(f"lag{lag}: mean q0 {m0/1000:.2f} q1 {m1/1000:.2f} | top10 q0 {t0*100:.1f}% q1 {t1*100:.1f}% z {(t1-t0)/se:+.1f}")
    print(f"{name:10s} p50 {sorted(vals)[n//2]/1000:.1f} p90 {thr/1000:.1f} us")
    for o in out: print('   ', o)
comp('lateStart', lambda j: rows[j][0]-rows[j][4])
comp('await', lambda j: max(rows[j][1],0))
comp('sendDur', lambda j: rows[j][3]-rows[j][0])
comp('execute', lambda j: rows[j][5]-rows[j][3])
comp('callLate', lambda j: rows[j][3]-rows[j][4])
