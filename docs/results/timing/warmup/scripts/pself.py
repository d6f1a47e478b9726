import sys,collections
thread=sys.argv[1]; files=sys.argv[2:]
self_=collections.Counter(); incl=collections.Counter(); tot=0
for f in files:
  for line in open(f):
    stack,n=line.rsplit(' ',1); n=int(n)
    fr=stack.split(';')
    if thread not in fr[0]: continue
    tot+=n; self_[fr[-1]]+=n
    for x in set(fr[1:]): incl[x]+=n
print('total',tot)
print('SELF'); [print(f'{v:6d} {v*100/tot:5.1f}% {k[:150]}') for k,v in self_.most_common(25)]
print('INCL'); [print(f'{v:6d} {v*100/tot:5.1f}% {k[:150]}') for k,v in incl.most_common(45)]
