#!/usr/bin/env bash
# 8 threads, must-have 5's settings at 5*10^4 records: write-back lag 2 / 32 in turns (scratch property), RocksDB then Redis
cd /tmp/lag/wt
O=/tmp/lag/floors2; mkdir -p $O
for r in 1; do
 for st in rocksdb redis; do
  for v in 2 32; do
   timeout 900 bin/pancake bench --store $st --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c --jvm-args=-Dscratch.lag=$v --out $O/$st-lag$v-$r --work $O/work > $O/$st-lag$v-$r.log 2>&1
   rm -rf $O/work
  done
 done
done
echo ALLDONE > $O/done
