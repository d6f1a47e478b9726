#!/bin/bash
# bin/compare's settings (RocksDB, 10^4 records, 2*10^4 operations, 8 threads, A and C), insecure and pancake,
# the scratch build (scratch.patch in /tmp/wt-var) with and without -Dscratch.servingparks=true, in turns
cd /tmp/wt-var
for r in 1 2 3; do
 for v in base P; do
  opts=""; [ $v = P ] && opts="-Dscratch.servingparks=true"
  out=/tmp/cab/$v-r$r; rm -rf $out
  timeout 900 bin/pancake bench --store rocksdb --records 10000 --ops 20000 --threads 8 --schemes insecure,pancake --workloads a,c ${opts:+--jvm-args=$opts} -o $out --work /tmp/cab/work > /tmp/cab/$v-r$r.log 2>&1
  echo "$v r$r rc $? | $(grep -E '^\| (pancake|insecure)' $out/results.md | cut -d'|' -f2-5 | tr -s ' ' | tr '\n' ' ')"
 done
done
