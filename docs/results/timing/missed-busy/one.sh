#!/usr/bin/env bash
# One thread, RocksDB C, 2 000 records, 3*10^4 operations: 464f00c against 086b38f, four more rounds in turns
O=${O:?set O to a scratch directory}; OLD=${OLD:?a worktree of 464f00c}; NEW=${NEW:?a worktree of 086b38f}
for r in 3 4 5 6; do
  for v in old new; do
    case $v in old) wt=$OLD;; new) wt=$NEW;; esac
    out=$O/$v-one-r$r
    (cd $wt && timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops 30000 --threads 1 --schemes pancake \
      --workloads c --out $out --work $O/work) > $out.log 2>&1
    cp $O/work/pancake-c/run.err $out/pancake-c.run.err 2>/dev/null; rm -rf $O/work
  done
done
echo ALLDONE > $O/done-one
