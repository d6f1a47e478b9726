#!/bin/bash
# 8 YCSB threads on the default path otherwise (YCSB C, RocksDB, 2 000 records, 2*10^5 ops a run), lag 2 / 32 in turns,
# each run attacked with the label owners as ground truth
cd /work/main
R=docs/results/timing/wake-contention/runs.sh
for v in 2 32; do mkdir -p /tmp/lag/t8-$v; cp /tmp/lag/s2/dist-c.tsv /tmp/lag/t8-$v/; done
for i in 1 2 3; do
  for v in 2 32; do
    PANCAKE_DIR=/tmp/lag/wt $R /tmp/lag/t8-$v c 8 200000 $i $i -jvm-args "-Dscratch.lag=$v" >> /tmp/lag/t8-$v/runs.log 2>&1
  done
done
echo runs-done
