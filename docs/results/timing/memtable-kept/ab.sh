#!/usr/bin/env bash
# RocksDB, 8 threads, insecure and pancake side by side, A and C, at 5*10^4 and 10^5 records (3*10^5 operations):
# the memtable flushed at close (464f00c) against kept through the WAL (ea5be4e), three rounds in turns
O=${O:?set O to a scratch directory}; OLD=${OLD:?a worktree of 464f00c}; NEW=${NEW:?a worktree of ea5be4e}
for r in 1 2 3; do
  for n in 50000 100000; do
    for v in old new; do
      case $v in old) wt=$OLD;; new) wt=$NEW;; esac
      (cd $wt && timeout 1200 bin/pancake bench --store rocksdb --records $n --ops 300000 --threads 8 --schemes insecure,pancake \
        --workloads a,c -p status.interval=2 --out $O/$v-$n-r$r --work $O/work-$v-$n-r$r) > $O/$v-$n-r$r.log 2>&1
      for d in $O/work-$v-$n-r$r/*/; do cp $d/run.err $O/$v-$n-r$r/$(basename $d).run.err 2>/dev/null; done
      rm -rf $O/work-$v-$n-r$r
    done
  done
done
echo ALLDONE > $O/done
