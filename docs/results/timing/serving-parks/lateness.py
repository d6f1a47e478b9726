import numpy as np, sys
# per-call lateness relative to the emission grid (phase per window of 2000 calls = 2nd-percentile offset), and its relation to reads on dummy labels
def load(run):
    own={}
    for l in open(run+'/owners-end.txt'):
        a,k=l.split(); own[a]=k
    ts=[];nd=[];cur=None
    for l in open(run+'/run.trace'):
        q=l.split()
        if q[0]!='R': continue
        t=int(q[3])
        if t!=cur: ts.append(t); nd.append(0); cur=t
        nd[-1]+= own.get(q[1],'-')=='-'
    return np.array(ts),np.array(nd)
P=int(sys.argv[2]) if len(sys.argv)>2 else 156250
for run in sys.argv[1].split(','):
    ts,nd=load(run); a=len(ts)//20; ts=ts[a:]; nd=nd[a:]
    late=np.empty(len(ts))
    W=2000
    for s in range(0,len(ts),W):
        off=(ts[s:s+W]-ts[0])%P
        ph=np.percentile(off,2)
        late[s:s+W]=((off-ph+P/2)%P)-P/2
    ok=np.abs(late)<P/2
    print(run,'lateness us pct 10/50/90/99:',[round(np.percentile(late[ok],q)/1e3,1) for q in (10,50,90,99)],
      'next-call lateness by #dummy reads in this call:',' '.join(f'{j}:{np.mean(late[1:][(nd[:-1]==j)&ok[1:]])/1e3:.2f}' for j in range(0,4)))
