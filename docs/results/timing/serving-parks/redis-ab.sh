#!/bin/bash
# Redis, 8 threads, YCSB C, 10^4 records: the scratch build (scratch.patch in /tmp/wt-var) with and
# without -Dscratch.servingparks=true, in turns, through bin/bench --trace (whose audit times the calls).
cd /tmp/wt-var
for r in 1 2 3; do
 for v in base P; do
  opts=""; [ $v = P ] && opts="-Dscratch.servingparks=true"
  out=/tmp/rab/$v-r$r; rm -rf $out
  timeout 900 bin/pancake bench --store redis --records 10000 --ops 200000 --threads 8 --schemes pancake --workloads c --trace ${opts:+--jvm-args=$opts} -o $out --work /tmp/rab/work > /tmp/rab/$v-r$r.log 2>&1
  echo "$v r$r rc $? $(grep -h -iE 'ops/s|throughput' $out/*.md 2>/dev/null | head -3 | tr '\n' ' ' | cut -c1-200)"
 done
done
