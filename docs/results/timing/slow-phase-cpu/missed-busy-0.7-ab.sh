#!/bin/bash
# scratch A/B: missed points count as overload from busy >= X (0.5 today) vs X=0.7 (only busy > 0.7)
cd "${WT:?the scratch worktree}"
O=$1; W=${2:-c}; R=${3:-50000}; mkdir -p $O
for round in 1 2 3; do for x in 0.5 0.7; do
  S=/tmp/ab1-scr; rm -rf $S; mkdir -p $S
  bin/ycsb load pancake -P workloads/workload$W -p recordcount=$R -p pancake.store=rocksdb -p rocksdb.dir=$S/db -p pancake.state.dir=$S/state -threads 8 -s > /dev/null 2>&1
  timeout 400 bin/ycsb run pancake -P workloads/workload$W -p recordcount=$R -p operationcount=300000 -p pancake.store=rocksdb -p rocksdb.dir=$S/db -p pancake.state.dir=$S/state -threads 8 -s -p status.interval=1 -jvm-args "-Dscratch.rate=true -Dscratch.missedbusy=$x" > $O/r$round-$x.out 2> $O/r$round-$x.err
  echo "$W $R round $round x=$x $(grep Throughput $O/r$round-$x.out)"
done; done
