#!/usr/bin/env python3
# cpu-split.py <collapsed files with thread names (async-profiler ...,threads,collapsed)> : each thread's share of
# all samples, split into yield-spin, waking callers, WAL write(), RocksDB reads/writes, crypto, JIT, GC, other
import collections, re, sys
cat = collections.Counter(); tot = 0
for f in sys.argv[1:]:
    for line in open(f):
        st, n = line.rsplit(' ', 1); n = int(n); fr = st.split(';'); tot += n
        th = re.sub(r'\d+', '#', re.sub(r' tid=\d+', '', fr[0])); leaf = fr[-1]
        if 'sched_yield' in leaf or 'JVM_Yield' in leaf or 'Thread.yield' in leaf: c = 'yield-spin'
        elif 'pthread_cond_signal' in leaf: c = 'waking a thread'
        elif 'futex' in leaf: c = 'futex wait'
        elif '__GI_write' in leaf: c = 'WAL write()'
        elif 'rocksdb' in st.lower() and 'ultiGet' in st: c = 'RocksDB read'
        elif 'rocksdb' in st.lower(): c = 'RocksDB write/other'
        elif 'com/sun/crypto' in st or 'ghash' in leaf or 'aescrypt' in leaf.lower() or 'counterMode' in leaf: c = 'crypto'
        elif 'Compiler' in th: c = 'JIT'
        elif 'GC' in th: c = 'GC'
        else: c = 'other'
        cat[(th, c)] += n
thr = collections.Counter()
for (t, c), v in cat.items(): thr[t] += v
for t, tv in thr.most_common(6):
    print(f'{t} {tv*100/tot:.1f}%: ' + ', '.join(f'{c} {v*100/tot:.1f}' for (tt, c), v in sorted(cat.items(), key=lambda x: -x[1]) if tt == t))
