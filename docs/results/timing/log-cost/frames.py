import collections, sys
sel=sys.argv[1]; pats=sys.argv[2].split(',')
for f in sys.argv[3:]:
    tot=0; c=collections.Counter()
    for line in open(f):
        stack,_,n=line.rstrip().rpartition(' '); n=int(n)
        if sel not in stack: continue
        tot+=n
        for p in pats:
            if p in stack: c[p]+=n
    print(f.split('/')[-1][-13:], sel, tot, ' '.join(f"{p.split('/')[-1]}={c[p]}" for p in pats))
