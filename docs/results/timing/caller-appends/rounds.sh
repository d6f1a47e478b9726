#!/bin/bash
# Variants in turns on one state, each from its own checkout (README.md here). usage:
#   rounds.sh <rounds> <operations> "<name>|<checkout>|<extra YCSB options>" ...
# The state is /tmp/s24/a-state (Redis A, 5*10^4 records, db 2, loaded and swapped once as in
# ../inline-answers/README.md); /tmp/redis.pp holds "<port> <pid>" of bin/redis-local start.
N=$1; OPS=$2; shift 2
read PORT PID < /tmp/redis.pp
here=$(cd "$(dirname "$0")" && pwd)
for i in $(seq 1 "$N"); do
  for spec in "$@"; do
    IFS='|' read -r v R P <<< "$spec"
    o=/tmp/ca-rounds-$v$i
    # shellcheck disable=SC2086
    (cd "$R" && /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada \
      -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 \
      -p pancake.state.dir=/tmp/s24/a-state $P -p operationcount=$OPS -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    "$here/../log-cost/summary.sh" $v$i $o
  done
done
