#!/bin/bash
# attack-redis.sh <out> <n> <dist> : the default path's YCSB C (one thread, 2 000 records, 3*10^4 ops, only the trace set) on Redis db 5, audited
read PORT PID < /tmp/redis.pp
cd /work/main
for i in $(seq 1 $2); do
  d=$1/r$i; rm -rf $d; mkdir -p $d
  bin/redis-local flush $PORT 127.0.0.1 5 > /dev/null
  bin/ycsb load pancake -P workloads/workloadc -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=5 -p recordcount=2000 -p pancake.state.dir=$d/state > $d/load.out 2> $d/load.err
  bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=5 -p recordcount=2000 -p operationcount=30000 -threads 1 -p pancake.state.dir=$d/state -p pancake.trace.file=$d/run.trace > $d/run.out 2> $d/run.err
  bin/audit --scheme pancake --transcript $d/run.trace --distribution $3 --state-dir $d/state > $d/audit.txt 2>&1
  python3 docs/results/timing/timing_audit.py $d/run.trace 0.05 > $d/timing.txt 2>&1
  echo "r$i: $(grep Throughput $d/run.out | cut -d, -f3) | $(grep -m1 -iE 'leak' $d/audit.txt) | $(grep -m1 'chi-square' $d/audit.txt | head -c 120)"
done
