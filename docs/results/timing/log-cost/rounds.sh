#!/bin/bash
# Rounds of variants in turns on one state (README.md here). usage:
#   [OPS=<operations>] rounds.sh <checkout> <rounds> "<name>|<JAVA_OPTS>|<extra YCSB options>[|<checkout>]" ...
# A variant's own checkout, if given, replaces the first argument for it; OPS defaults to 4*10^5.
# A variant named S* runs with the state directory moved to tmpfs (/dev/shm/a-state) for that run.
# The state is /tmp/s24/a-state (Redis A, db 2, loaded and swapped once); /tmp/redis.pp holds
# "<port> <pid>" of bin/redis-local start.
R=$1; N=$2; shift 2
read PORT PID < /tmp/redis.pp
here=$(cd "$(dirname "$0")" && pwd)
for i in $(seq 1 "$N"); do
  for spec in "$@"; do
    IFS='|' read -r v JO P C <<< "$spec"
    o=/tmp/rounds-$v$i; dir=/tmp/s24/a-state
    if [[ $v == S* ]]; then mv /tmp/s24/a-state /dev/shm/a-state; dir=/dev/shm/a-state; fi
    # shellcheck disable=SC2086
    (cd "${C:-$R}" && JAVA_OPTS="$JO" /usr/bin/time -f "%U %S" -o $o.time bin/ycsb run pancake -P workloads/workloada \
      -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=2 -p recordcount=50000 \
      -p pancake.state.dir=$dir $P -p operationcount=${OPS:-400000} -threads 8 -p status.interval=5 -s > $o.out 2> $o.err)
    if [[ $v == S* ]]; then mv /dev/shm/a-state /tmp/s24/a-state; fi
    "$here/summary.sh" $v$i $o
  done
done
