#!/bin/bash
# Alternating runs of two checkouts on one prepared state (README.md).
# usage: ab.sh <checkout A> <checkout B> <workload: a|c> <pairs> <store options...>
# e.g.   ab.sh /tmp/before /work/main c 4 -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=<port> \
#            -p recordcount=50000 -p pancake.state.dir=/tmp/st-c/state
# The state is loaded (bin/ycsb load, -threads 4) and swapped to the workload's estimate by one
# bin/ycsb run beforehand, with the same options. Each run: 4*10^5 operations, 8 threads.
A=$1; B=$2; W=$3; N=$4; shift 4
for i in $(seq 1 "$N"); do
  for v in A B; do
    repo=$A; [ $v = B ] && repo=$B
    o=/tmp/ab-$W-$v$i
    (cd "$repo" && /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workload$W "$@" \
        -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3)" \
      "$(grep 'requests in' $o.err | grep -o '([0-9.]* requests per batch)') cpu $(cat $o.time)" \
      "warm $(grep 'current ops' $o.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
  done
done
