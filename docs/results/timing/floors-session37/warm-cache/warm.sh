#!/usr/bin/env bash
cd /tmp/wt-thp
W=/tmp/r1e5/work/pancake-c
for r in 1 2; do for v in cold warm; do
  ja=""; [ $v = warm ] && ja="-Dscratch.warm=true"
  bin/ycsb run pancake -jvm-args "$ja" -P workloads/workloadc -p recordcount=100000 -p operationcount=300000 -threads 8 -p fieldlength=100 -p pancake.value.size=1224 -p pancake.store=rocksdb -p rocksdb.dir=$W/rocksdb -p pancake.state.dir=$W/state -s -p status.interval=2 > /tmp/r1e5/$v-$r.txt 2> /tmp/r1e5/$v-$r.err
done; done
echo ALLDONE > /tmp/r1e5/warm.done
