#!/bin/bash
# cpu.sh <name> <mode>: one A run (8e5) with /proc/stat and per-process CPU deltas
read PORT PID < /tmp/redis.pp
name=$1; mode=$2; out=/tmp/s29/cpu; mkdir -p $out
s0=$(head -1 /proc/stat); r0=$(awk '{print $14+$15}' /proc/$PID/stat)
k0=$(for p in $(pgrep -f "kworker|flush|jbd2"); do awk '{s+=$14+$15} END {print s}' /proc/$p/stat 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
io0=$(awk '$3=="vda"||$3=="sda"||$3=="nvme0n1"{print $10}' /proc/diskstats | head -1)
(cd /work/main && /usr/bin/time -f "%U %S %e" -o $out/$name.time bin/ycsb run pancake -P workloads/workloada -p pancake.store=redis -p redis.host=127.0.0.1 -p redis.port=$PORT -p redis.db=3 -p recordcount=100000 -p pancake.state.dir=/tmp/s29/a1/state -p operationcount=800000 -threads 8 -p pancake.wal.sync=$mode -s > $out/$name.out 2> $out/$name.err)
s1=$(head -1 /proc/stat); r1=$(awk '{print $14+$15}' /proc/$PID/stat)
k1=$(for p in $(pgrep -f "kworker|flush|jbd2"); do awk '{s+=$14+$15} END {print s}' /proc/$p/stat 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
io1=$(awk '$3=="vda"||$3=="sda"||$3=="nvme0n1"{print $10}' /proc/diskstats | head -1)
python3 - "$s0" "$s1" <<P
import sys
a=list(map(int,sys.argv[1].split()[1:])); b=list(map(int,sys.argv[2].split()[1:]))
d=[y-x for x,y in zip(a,b)]; tot=sum(d)
names=['user','nice','system','idle','iowait','irq','softirq','steal']
print(' '.join('%s %.1f%%'%(n,100*v/tot) for n,v in zip(names,d)))
P
echo "$name: $(grep Throughput $out/$name.out | cut -d, -f3 | cut -d. -f1) ops/s | JVM user/sys/wall $(cat $out/$name.time) | redis $((r1-r0)) ticks | kworkers $((k1-k0)) ticks | sectors written $((io1-io0))"
