#!/bin/bash
# /tmp/redis.pp holds "<port> <pid>" of bin/redis-local start; run from a checkout (its bin/ycsb)
# fresh.sh <out> <workload a|c> <records> <ops> [JAVA_OPTS] : load a fresh state in db $DB (default 3) then run, 1-s status
read PORT PID < /tmp/redis.pp
DB=${DB:-3}
o=$1; w=$2; n=$3; ops=$4; JO=$5
rm -rf $o; mkdir -p $o
bin/redis-local flush $PORT 127.0.0.1 $DB >/dev/null
JAVA_OPTS="$JO" bin/ycsb load pancake -P workloads/workload$w -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=$DB -p recordcount=$n -p pancake.state.dir=$o/state -threads 8 > $o/load.out 2> $o/load.err
JAVA_OPTS="$JO" /usr/bin/time -f "%U %S %e" -o $o/run.time bin/ycsb run pancake -P workloads/workload$w -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=$DB -p recordcount=$n -p pancake.state.dir=$o/state -p operationcount=$ops -threads 8 -p status.interval=1 -p pancake.stats.file=$o/run.stats -s > $o/run.out 2> $o/run.err
grep Throughput $o/run.out
