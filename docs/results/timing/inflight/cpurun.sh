#!/bin/bash
# TREE: the checkout whose bin/ycsb runs (default: this one); REALPORT: the Redis port to flush and to read CPU from when port is a delay proxy in front of it
# usage: cpurun.sh dir binding workload threads ops records port(0=rocksdb) [extra]
d=$1; b=$2; w=$3; t=$4; ops=$5; n=$6; port=$7; shift 7
rm -rf $d; mkdir -p $d
cd "${TREE:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}"
if [ "$port" != 0 ]; then
  bin/pancake redis flush --redis-port ${REALPORT:-$port} > /dev/null 2>&1
  st="-p pancake.store=redis -p redis.port=$port"
  rpid=$(pgrep -f "redis-server 127.0.0.1:${REALPORT:-$port}")
else st="-p rocksdb.dir=$d/db"; rpid=""; fi
if [ -x bin/pancake ]; then DIST="bin/pancake distribution"; else DIST=bin/distribution; fi
$DIST -P workloads/workload$w -p recordcount=$n -o $d/dist.tsv > /dev/null 2>&1
common="-P workloads/workload$w -p recordcount=$n $st -p pancake.state.dir=$d/state -p pancake.distribution.file=$d/dist.tsv"
bin/ycsb load $b $common -threads 4 > $d/load.log 2>&1
r0=0; [ -n "$rpid" ] && r0=$(awk '{print $14+$15}' /proc/$rpid/stat)
/usr/bin/time -f "jvm user %U sys %S wall %e" bin/ycsb run $b $common -p operationcount=$ops -threads $t -s -p status.interval=5 "$@" > $d/run.log 2>$d/time.log
r1=0; [ -n "$rpid" ] && r1=$(awk '{print $14+$15}' /proc/$rpid/stat)
tp=$(grep "OVERALL.*Throughput" $d/run.log | awk -F, '{print $3}')
rt=$(grep "OVERALL.*RunTime" $d/run.log | awk -F, '{print $3}')
echo "$b $w t=$t thr=$tp runtime_ms=$rt $(tail -1 $d/time.log) redis_cpu_s=$(echo "($r1-$r0)/100" | bc -l | cut -c1-6)"
grep -E "pancake\] [0-9]" $d/time.log | cut -c1-150
grep "current ops" $d/time.log | sed 's/.*; \([0-9.]*\) current.*/\1/' | tr '\n' ' '; echo
