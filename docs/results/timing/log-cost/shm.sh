#!/bin/bash
# Rounds of three variants on one state (README.md here): D = the default log on the disk (ext4),
# S = the same with the state directory (and so the log) on tmpfs, O = pancake.wal.sync=off on the
# disk. The state directory is moved between /tmp/s24/a-state and /dev/shm/a-state between runs.
# usage (from the project root): shm.sh <rounds>; /tmp/redis.pp holds "<port> <pid>" of bin/redis-local start
read PORT PID < /tmp/redis.pp
for i in $(seq 1 "$1"); do
  for v in D S O; do
    o=/tmp/shm-$v$i; P=""; dir=/tmp/s24/a-state
    if [ $v = S ]; then mv /tmp/s24/a-state /dev/shm/a-state; dir=/dev/shm/a-state; fi
    [ $v = O ] && P="-p pancake.wal.sync=off"
    /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis \
      -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 -p pancake.state.dir=$dir $P \
      -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err
    if [ $v = S ]; then mv /dev/shm/a-state /tmp/s24/a-state; fi
    "$(dirname "$0")/summary.sh" $v$i $o
  done
done
