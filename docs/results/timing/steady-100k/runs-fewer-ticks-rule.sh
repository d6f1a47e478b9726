#!/bin/bash
read PORT PID < /tmp/redis.pp
cd /tmp/wt-bis
for i in 1 2 3; do
  for v in D V; do
    JO=""; [ $v = V ] && JO="-Dscratch.nosplit=true"
    o=/tmp/s25/split-$v$i
    JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s25/c-state \
      -p operationcount=1200000 -threads 8 -p status.interval=10 -s > $o.out 2> $o.err
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3) $(grep -o '([0-9.]* requests per batch)' $o.err) $(grep -o '[0-9]* ticks ([0-9]* late)' $o.err) cpu $(cat $o.time) windows $(grep 'current ops' $o.err | awk '{print int($7)}' | tr '\n' ' ')"
  done
done
