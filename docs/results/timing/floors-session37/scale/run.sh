#!/usr/bin/env bash
# pancake C on RocksDB, 8 threads, 3*10^5 operations, status every 2 s: how the slow start scales with the record count
cd "$(dirname "${BASH_SOURCE[0]}")/../../../../.."
O=${O:?set O to a scratch directory}
for n in 25000 50000 100000 200000; do
  timeout 900 bin/pancake bench --store rocksdb --records $n --ops 300000 --threads 8 --schemes pancake --workloads c \
    -p status.interval=2 --out $O/c-$n --work $O/work-$n > $O/c-$n.log 2>&1
  cp $O/work-$n/pancake-c/run.err $O/c-$n.run.err
  rm -rf $O/work-$n
done
echo ALLDONE > $O/done
