#!/bin/bash
# saver latency at saturation: nice 19 (landed) vs normal (scratch.normal), 8 threads, 1e5 records, RocksDB A
cd /work/main
for round in 1 2; do
for v in low normal; do
  args=""; [ $v = normal ] && args="--jvm-args=-Dscratch.normal=true"
  timeout 900 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes pancake --workloads a \
    -p pancake.checkpoint.interval=2 $args -o /tmp/sl/out-$v-$round --work /tmp/sl/work-$v-$round > /tmp/sl/$v-$round.log 2>&1
  echo "$v $round rc $?"
done
done
