#!/bin/bash
# README.md here; /tmp/redis.pp holds "<port> <pid>" of bin/redis-local start
# rounds of three variants on /tmp/wt-inline (a checkout of 3f4c84e with inline-scratch.patch applied): W = the log thread (default), I = appends on the serving thread (scratch), O = wal.sync=off
read PORT PID < /tmp/redis.pp
for i in $(seq 1 $1); do
  for v in W I O; do
    o=/tmp/abi3-$v$i; JO=""; P=""
    [ $v = I ] && JO="-Dscratch.inline=true"
    [ $v = O ] && P="-p pancake.wal.sync=off"
    (cd /tmp/wt-inline && JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 -p pancake.state.dir=/tmp/s24/a-state $P \
      -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    "$(dirname "$0")/summary.sh" $v$i $o
  done
done
