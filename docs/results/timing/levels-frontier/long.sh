#!/usr/bin/env bash
# long.sh <worktree with scratch.patch, built> <out>: the landed levels over 10^6 operations (8 threads, 5*10^4 records, A and C), both stores, two rounds
wt=$1; O=$2; cd "$wt"; mkdir -p $O
for r in 1 2; do for st in rocksdb redis; do
  timeout 900 bin/pancake bench --store $st --records 50000 --ops 1000000 --threads 8 --schemes pancake --workloads a,c \
     "--jvm-args=-Dscratch.trace=true" --out $O/$st-base-$r --work $O/work > $O/$st-base-$r.log 2>&1
  mkdir -p $O/$st-base-$r/err; for w in $O/work/*/; do cp $w/run.err $O/$st-base-$r/err/$(basename $w).err; done
  rm -rf $O/work
done; done
echo ALLDONE > $O/done
