#!/bin/bash
# Alternating runs of two checkouts on one Redis state (README.md).
# usage: ab.sh <checkout A> <checkout B> <port of a private Redis (bin/redis-local start)>
# The state (/tmp/st/state) is loaded and swapped to zipfian beforehand by one run of either checkout:
#   bin/ycsb load pancake -P workloads/workloadc -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=<port> \
#       -p recordcount=50000 -p pancake.state.dir=/tmp/st/state -threads 8, then one `bin/ycsb run` as below.
A=$1; B=$2
P="-p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$3 -p recordcount=50000 -p pancake.state.dir=/tmp/st/state -p operationcount=400000 -threads 8 -s"
for i in 1 2 3 4; do
  for v in A B; do
    repo=$A; [ $v = B ] && repo=$B
    cd $repo
    /usr/bin/time -f "%U %S" -o /tmp/ab2-$v$i.time bin/ycsb run pancake -P workloads/workloadc $P > /tmp/ab2-$v$i.out 2>/tmp/ab2-$v$i.err
    echo "$v$i $(grep Throughput /tmp/ab2-$v$i.out | cut -d, -f3) $(grep 'READ], AverageLatency' /tmp/ab2-$v$i.out | cut -d, -f3) $(grep 'requests in' /tmp/ab2-$v$i.err | grep -o '([0-9.]* requests per batch)') cpu $(cat /tmp/ab2-$v$i.time) warm $(grep 'current ops' /tmp/ab2-$v$i.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
  done
done
