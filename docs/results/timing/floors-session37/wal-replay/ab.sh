#!/usr/bin/env bash
# pancake C on RocksDB, 10^5 records, 8 threads: the load's memtable flushed at close (today) against replayed from RocksDB's WAL at the run's open (scratch.noflush), in turns
cd ${WT:?a worktree of 568538a with scratch.patch applied}
O=${O:?set O to a scratch directory}
for r in 1 2; do for v in flush replay; do
  ja=""; [ $v = replay ] && ja="-Dscratch.noflush=true"
  timeout 900 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes pancake --workloads c \
    -p status.interval=2 --jvm-args "$ja" --out $O/$v-r$r --work $O/work-$v-r$r > $O/$v-r$r.log 2>&1
  cp $O/work-$v-r$r/pancake-c/run.err $O/$v-r$r.run.err; rm -rf $O/work-$v-r$r
done; done
echo ALLDONE > $O/done
