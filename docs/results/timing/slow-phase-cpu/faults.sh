#!/bin/bash
# usage: faults.sh <pattern> <out>; samples minflt per second of the process and its emitter/serving threads
pat=$1; out=$2
for i in $(seq 1 200); do pid=$(pgrep -f "bin/java .*$pat" | head -1); [ -n "$pid" ] && break; sleep 0.1; done
echo "pid $pid" > $out
while kill -0 $pid 2>/dev/null; do
  t=$(date +%s.%N)
  p=$(awk '{print $10, $14, $15}' /proc/$pid/stat 2>/dev/null)
  e=""; for tid in $(ls /proc/$pid/task 2>/dev/null); do n=$(cat /proc/$pid/task/$tid/comm 2>/dev/null); case "$n" in pancake-emitte*|pancake-servin*) e="$e $n:$(awk '{print $10","$14","$15}' /proc/$pid/task/$tid/stat)";; esac; done
  echo "$t $p $e" >> $out
  sleep 1
done
