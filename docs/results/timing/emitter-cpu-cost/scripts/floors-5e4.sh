#!/usr/bin/env bash
cd "$(dirname "$0")/../../../../.."
O=${O:?set O to a scratch directory}
mkdir -p $O
for r in 1 2; do
 for v in auto none; do
  timeout 900 bin/pancake bench --store rocksdb --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c -p pancake.emitter.cpu=$v --out $O/rocks-5e4-$v-$r --work $O/work > $O/rocks-5e4-$v-$r.log 2>&1
  rm -rf $O/work
 done
done
echo ALLDONE > $O/done
