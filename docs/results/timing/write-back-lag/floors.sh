#!/usr/bin/env bash
# 8 threads, must-have 5's settings at 5*10^4 records: write-back lag 2 / 32 in turns (scratch property), RocksDB then Redis
# (O=<scratch dir>, ROUNDS=<n>, 2 by default; run from a worktree with scratch.patch at /tmp/lag/wt)
cd /tmp/lag/wt
O=${O:-/tmp/lag/floors}; mkdir -p $O
for r in $(seq 1 ${ROUNDS:-2}); do
 for st in rocksdb redis; do
  for v in 2 32; do
   timeout 900 bin/pancake bench --store $st --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c --jvm-args=-Dscratch.lag=$v --out $O/$st-lag$v-$r --work $O/work > $O/$st-lag$v-$r.log 2>&1
   rm -rf $O/work
  done
 done
done
echo ALLDONE > $O/done
