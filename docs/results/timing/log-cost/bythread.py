import collections, sys
keys=[('LogWriter.loop','log thread'),('TickRunner.lambda','serving thread'),('Emitter','emitter'),('site/ycsb/ClientThread','ycsb threads'),('CompileBroker','JIT'),('Checkpointer','checkpoint thread'),('GCTaskThread','GC'),('G1','GC')]
for f in sys.argv[1:]:
    tot=0; g=collections.Counter()
    for line in open(f):
        stack,_,n=line.rstrip().rpartition(' '); n=int(n); tot+=n
        k='other'
        for a,b in keys:
            if a in stack: k=b; break
        g[k]+=n
    print(f.split('/')[-1], tot, ' '.join(f"{k}={v}" for k,v in g.most_common()))
