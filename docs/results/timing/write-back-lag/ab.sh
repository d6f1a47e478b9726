#!/bin/bash
# write-back lag 2 / 32 on the default path (one thread, YCSB C, RocksDB, 2 000 records, 10^5 ops a run),
# the two settings in turns by halves, from a worktree whose lag is read from -Dscratch.lag
# usage: ab.sh <runs per half> <halves>
n=${1:-5}; halves=${2:-2}
cd /work/main
for v in 2 32; do O=/tmp/lag/s$v; mkdir -p $O; [ -f $O/dist-c.tsv ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -o $O/dist-c.tsv > /dev/null; done
R=docs/results/timing/wake-contention/runs.sh
for h in $(seq 1 $halves); do
  a=$(( (h-1)*n + 1 )); b=$(( h*n ))
  for v in 2 32; do
    PANCAKE_DIR=/tmp/lag/wt $R /tmp/lag/s$v c 1 100000 $a $b -jvm-args "-Dscratch.lag=$v" >> /tmp/lag/s$v/runs.log 2>&1
  done
done
echo runs-done
