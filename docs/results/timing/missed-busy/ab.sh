#!/usr/bin/env bash
# Missed grid points as overload always (464f00c) or only while a proxy thread was busy half the window (086b38f),
# two rounds in turns: RocksDB 5*10^4 and 10^5 records, Redis 5*10^4 (A and C, insecure beside pancake, 8 threads,
# 3*10^5 operations), and one thread on RocksDB C at 2 000 records
O=${O:?set O to a scratch directory}; OLD=${OLD:?a worktree of 464f00c}; NEW=${NEW:?a worktree of 086b38f}
for r in 1 2; do
  for v in old new; do
    case $v in old) wt=$OLD;; new) wt=$NEW;; esac
    for s in rocksdb-50000 rocksdb-100000 redis-50000; do
      store=${s%-*}; n=${s#*-}; out=$O/$v-$s-r$r
      (cd $wt && timeout 1200 bin/pancake bench --store $store --records $n --ops 300000 --threads 8 --schemes insecure,pancake \
        --workloads a,c -p status.interval=2 --out $out --work $O/work) > $out.log 2>&1
      for d in $O/work/*/; do cp $d/run.err $out/$(basename $d).run.err 2>/dev/null; done
      rm -rf $O/work
    done
    out=$O/$v-one-r$r
    (cd $wt && timeout 600 bin/pancake bench --store rocksdb --records 2000 --ops 30000 --threads 1 --schemes pancake \
      --workloads c --out $out --work $O/work) > $out.log 2>&1
    rm -rf $O/work
  done
done
echo ALLDONE > $O/done
