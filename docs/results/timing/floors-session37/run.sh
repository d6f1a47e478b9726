#!/usr/bin/env bash
# must-have 5's floors on today's code, default JVM: Redis at 5*10^4 records, RocksDB at 10^5, one thread on RocksDB C
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."
O=${O:?set O to a scratch directory}
timeout 1200 bin/pancake bench --store redis --records 50000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c --repeat 3 --out $O/redis-5e4 --work $O/work-redis > $O/redis-5e4.log 2>&1
timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops 20000 --threads 1 --schemes insecure,pancake --workloads c --repeat 3 --out $O/one-thread --work $O/work-one > $O/one-thread.log 2>&1
rm -rf $O/work-one
timeout 1200 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes insecure,pancake --workloads a,c --repeat 3 --out $O/rocks-1e5 --work $O/work-rocks > $O/rocks-1e5.log 2>&1
rm -rf $O/work-rocks
echo ALLDONE > $O/done
