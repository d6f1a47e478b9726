#!/bin/bash
# rr.sh <out> <name>|<JAVA_OPTS> ... : Redis (port from /tmp/redis.pp, db 6), fresh load of YCSB A 5e4 then a 3e5-op run, 8 threads, value size 1224
read PORT PID < /tmp/redis.pp
out=$1; shift; mkdir -p $out
for spec in "$@"; do
  IFS="|" read -r name opts <<<"$spec"
  rm -rf $out/$name.state
  (cd ${DIR:-/tmp/wt-x} && bin/redis-local flush $PORT 127.0.0.1 6 >/dev/null 2>&1
   P="-p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=6 -p recordcount=50000 -p pancake.value.size=1224 -p fieldlength=100 -p pancake.state.dir=$out/$name.state -threads 8"
   JAVA_OPTS="$opts" bin/ycsb load pancake -P workloads/workload${W:-a} $P > $out/$name.load 2>&1
   JAVA_OPTS="$opts" bin/ycsb run pancake -P workloads/workload${W:-a} $P -p operationcount=300000 -s > $out/$name.out 2>&1)
  echo "== $name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s; $(grep -o '[0-9]* sec: [0-9]* operations' $out/$name.out | tr '\n' ' ')"
done
