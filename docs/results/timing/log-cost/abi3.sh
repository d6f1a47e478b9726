#!/bin/bash
# rounds of three variants on /tmp/wt-inline: W = the log thread (default), I = appends on the serving thread (scratch), O = wal.sync=off
read PORT PID < /tmp/redis.pp
for i in $(seq 1 $1); do
  for v in W I O; do
    o=/tmp/abi3-$v$i; JO=""; P=""
    [ $v = I ] && JO="-Dscratch.inline=true"
    [ $v = O ] && P="-p pancake.wal.sync=off"
    (cd /tmp/wt-inline && JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 -p pancake.state.dir=/tmp/s24/a-state $P \
      -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3) upd-avg $(grep 'UPDATE], AverageLatency' $o.out | cut -d, -f3)" \
      "$(grep 'requests in' $o.err | grep -o '([0-9.]* requests per batch)') cpu $(cat $o.time)" \
      "warm $(grep 'current ops' $o.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
  done
done
