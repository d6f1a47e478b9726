#!/bin/bash
# Rounds of three variants on one state (README.md here), from a scratch checkout with defer-scratch.patch
# at /tmp/wt-defer: D = the default log, F = the tick's records handed to the log thread only after its
# answers (-Dscratch.defer=true), O = pancake.wal.sync=off. usage: defer.sh <rounds>; /tmp/redis.pp as in shm.sh
read PORT PID < /tmp/redis.pp
for i in $(seq 1 "$1"); do
  for v in D F O; do
    o=/tmp/defer-$v$i; JO=""; P=""
    [ $v = F ] && JO="-Dscratch.defer=true"
    [ $v = O ] && P="-p pancake.wal.sync=off"
    (cd /tmp/wt-defer && JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 -p pancake.state.dir=/tmp/s24/a-state $P \
      -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    "$(dirname "$0")/summary.sh" $v$i $o
  done
done
