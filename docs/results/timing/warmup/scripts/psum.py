import sys,re,collections
for f in sys.argv[1:]:
    th=collections.Counter(); cat=collections.Counter(); tot=0
    for line in open(f):
        stack,n=line.rsplit(' ',1); n=int(n); tot+=n
        frames=stack.split(';')
        t=frames[0]; t=re.sub(r' tid=\d+','',t); t=re.sub(r'-\d+\]$',']',t); t=re.sub(r'\d+','#',t)
        th[t]+=n
        s=stack
        if 'C2Compiler' in s or 'C2 Compiler' in t: c='C2'
        elif 'C1 Compiler' in t or 'Compiler::compile' in s: c='C1'
        elif 'GC' in t or 'G1' in t: c='GC'
        elif 'Interpreter' in s.split(';')[-1] or 'interpreter' in s.split(';')[-1]: c='interp'
        elif 'com/sun/crypto' in s or 'com.sun.crypto' in s: c='crypto'
        elif 'rocksdb' in s.lower(): c='rocksdb'
        else: c='other'
        cat[c]+=n
    print(f[-20:-10], tot, ' '.join(f'{k}={v}' for k,v in cat.most_common()), '|', ' '.join(f'{k}={v}' for k,v in th.most_common(6)))
