#!/bin/bash
read PORT PID < /tmp/redis.pp
name=$1; mode=$2; out=/tmp/s29/prec; mkdir -p $out
cd /work/main
bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s29/a1/state -p operationcount=800000 -threads 8 -p pancake.wal.sync=$mode -s > $out/$name.out 2> $out/$name.err &
sleep 22
perf record -a -F 999 -o $out/$name.data -- sleep 10 2>/dev/null >/dev/null
wait
echo "$name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s"
perf report -i $out/$name.data --sort comm,dso --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -25 > $out/$name.comm.txt
perf report -i $out/$name.data --sort sym --stdio 2>/dev/null | grep "\[k\]" | head -40 > $out/$name.ksym.txt
