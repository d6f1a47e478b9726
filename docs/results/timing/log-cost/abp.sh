#!/bin/bash
# alternating runs of one checkout with two property sets: abp.sh <repo> <w> <pairs> "<props A>" "<props B>" <common options...>
R=$1; W=$2; N=$3; PA=$4; PB=$5; shift 5
for i in $(seq 1 "$N"); do
  for v in A B; do
    P=$PA; [ $v = B ] && P=$PB
    o=/tmp/abp-$W-$v$i
    (cd "$R" && /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workload$W "$@" $P \
        -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    echo "$v$i $(grep Throughput $o.out | cut -d, -f3) read-avg $(grep 'READ], AverageLatency' $o.out | cut -d, -f3) upd-avg $(grep 'UPDATE], AverageLatency' $o.out | cut -d, -f3)" \
      "$(grep 'requests in' $o.err | grep -o '([0-9.]* requests per batch)') cpu $(cat $o.time)" \
      "warm $(grep 'current ops' $o.err | awk '{print int($7)}' | tail -n +3 | tr '\n' ' ')"
  done
done
