#!/bin/bash
read PORT PID < /tmp/redis.pp
name=$1; mode=$2; out=/tmp/s29/c2; mkdir -p $out
cd /work/main
bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s29/a1/state -p operationcount=800000 -threads 8 -p pancake.wal.sync=$mode -s > $out/$name.out 2> $out/$name.err &
sleep 2
J=$(pgrep -f "site.ycsb.Client.*wal.sync=$mode" | head -1)
line=""
for t in $(seq 5 5 60); do
  sleep 5
  [ -d /proc/$J ] || break
  c2=0; c1=0
  for d in /proc/$J/task/*; do
    n=$(cat $d/comm 2>/dev/null)
    v=$(awk '{print $14+$15}' $d/stat 2>/dev/null)
    case "$n" in "C2 CompilerThre"*) c2=$((c2+v));; "C1 CompilerThre"*) c1=$((c1+v));; esac
  done
  line="$line $((t+2))s:c2=$c2,c1=$c1"
done
wait
echo "$name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s |$line (ticks of 10 ms)"
