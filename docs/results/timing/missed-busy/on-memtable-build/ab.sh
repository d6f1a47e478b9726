#!/usr/bin/env bash
# pancake C, RocksDB, 10^5 records: missed points count as overload always (engine) or only with a proxy thread busy half the window (scratch.missedbusy), in turns
O=${O:?set O to a scratch directory}; cd ${WT:?a worktree of ea5be4e with ../../memtable-kept/slow-start/scratch.patch applied}
for r in 1 2 3; do for v in engine missedbusy; do
  ja=""; [ $v = missedbusy ] && ja="-Dscratch.missedbusy=true"
  timeout 900 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes pancake --workloads c \
    -p status.interval=2 --jvm-args "$ja" --out $O/$v-r$r --work $O/work-$v-r$r > $O/$v-r$r.log 2>&1
  cp $O/work-$v-r$r/pancake-c/run.err $O/$v-r$r.run.err; rm -rf $O/work-$v-r$r
done; done
echo ALLDONE > $O/done
