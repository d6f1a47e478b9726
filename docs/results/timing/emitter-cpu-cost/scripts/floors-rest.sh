#!/usr/bin/env bash
# must-have 5's floors on the default (auto) against pancake.emitter.cpu=none, side by side with insecure
cd "$(dirname "$0")/../../../../.."
O=${O:?set O to a scratch directory}
for v in auto none; do
  timeout 1200 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c -p pancake.emitter.cpu=$v --out $O/rocks-1e5-$v-1 --work $O/work > $O/rocks-1e5-$v-1.log 2>&1
  rm -rf $O/work
  timeout 1200 bin/pancake bench --store redis --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c -p pancake.emitter.cpu=$v --out $O/redis-5e4-$v-1 --work $O/work > $O/redis-5e4-$v-1.log 2>&1
  rm -rf $O/work
done
timeout 900 bin/pancake bench --store rocksdb --records 2000 --ops 20000 --threads 1 --schemes insecure,pancake --workloads c --repeat 3 --out $O/one-thread-auto --work $O/work > $O/one-thread-auto.log 2>&1
rm -rf $O/work
echo ALLDONE > $O/done2
