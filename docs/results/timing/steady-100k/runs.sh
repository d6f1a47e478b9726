#!/bin/bash
# alternating default JVM vs -XX:CompileThresholdScaling=0.1, Redis C 1e5 (db 3), 2e6 ops, 8 threads
read PORT PID < /tmp/redis.pp
cd /work/main
for i in 1 2; do
  for v in D S; do
    JO=""; [ $v = S ] && JO="-XX:CompileThresholdScaling=0.1"
    o=/tmp/s25/jit-$v$i
    JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloadc -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s25/c-state \
      -p operationcount=2000000 -threads 8 -p status.interval=10 -s > $o.out 2> $o.err
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3) $(grep -o '([0-9.]* requests per batch)' $o.err) cpu $(cat $o.time) windows $(grep 'current ops' $o.err | awk '{print int($7)}' | tr '\n' ' ')"
  done
done
