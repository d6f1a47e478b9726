#!/bin/bash
# alternating runs of one checkout with two property sets: abp.sh <repo> <w> <pairs> "<props A>" "<props B>" <common options...>
R=$1; W=$2; N=$3; PA=$4; PB=$5; shift 5
for i in $(seq 1 "$N"); do
  for v in A B; do
    P=$PA; [ $v = B ] && P=$PB
    o=/tmp/abp-$W-$v$i
    (cd "$R" && /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workload$W "$@" $P \
        -p operationcount=400000 -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    "$(dirname "$0")/summary.sh" $v$i $o
  done
done
