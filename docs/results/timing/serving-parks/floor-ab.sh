#!/bin/bash
# RocksDB, 5*10^4 records, 2*10^5 operations, 8 threads, workload C, pancake: the scratch build with and without the serving thread parking, in turns
cd /tmp/wt-var
for r in 1 2; do
 for v in base P; do
  opts=""; [ $v = P ] && opts="-Dscratch.servingparks=true"
  out=/tmp/fab/$v-r$r; rm -rf $out
  timeout 900 bin/pancake bench --store rocksdb --records 50000 --ops 200000 --threads 8 --schemes pancake --workloads c ${opts:+--jvm-args=$opts} -o $out --work /tmp/fab/work > /tmp/fab/$v-r$r.log 2>&1
  echo "$v r$r rc $? | $(grep -E '^\| pancake' $out/results.md | cut -d'|' -f2-5 | tr -s ' ' | tr '\n' ' ') | $(grep -E 'after the first 20 s' /tmp/fab/$v-r$r.log | tail -1 | cut -c1-120)"
 done
done
