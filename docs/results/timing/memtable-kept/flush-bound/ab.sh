#!/usr/bin/env bash
# pancake C on RocksDB, 10^5 records, 3*10^5 operations, 8 threads, memtable kept (ea5be4e): the default flush bound
# (rocksdb.flush.after.mb=1024: a flush every ~1 GiB written) against one the run never reaches (8192), two rounds in turns
O=${O:?set O to a scratch directory}; NEW=${NEW:?a worktree of ea5be4e}
for r in 1 2; do
  for v in 1024 8192; do
    (cd $NEW && timeout 900 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes pancake \
      --workloads c -p status.interval=2 -p rocksdb.flush.after.mb=$v --out $O/f$v-r$r --work $O/work-f$v-r$r) > $O/f$v-r$r.log 2>&1
    cp $O/work-f$v-r$r/pancake-c/run.err $O/f$v-r$r/pancake-c.run.err
    grep -h '"event": "flush_started"\|"event": "compaction_started"' $O/work-f$v-r$r/pancake-c/rocksdb/LOG* > $O/f$v-r$r/rocksdb-events.txt
    rm -rf $O/work-f$v-r$r
  done
done
echo ALLDONE > $O/done
