#!/usr/bin/env bash
# long.sh <worktree with scratch.patch, built> <out>: the levels of 0abd781 (TIGHT 1.1) over 10^6
# operations (8 threads, 5*10^4 records, A and C), both stores, two rounds; each run's levels
# (LEVELS lines on stderr) kept in <out>/<store>-base-<round>/err
set -eu
[ $# -ge 2 ] || { echo "usage: long.sh <worktree> <out>" >&2; exit 2; }
wt=$1; O=$(realpath -m "$2")
cd "$wt" || exit 1
mkdir -p "$O"
for r in 1 2; do for st in rocksdb redis; do
  timeout 900 bin/pancake bench --store $st --records 50000 --ops 1000000 --threads 8 --schemes pancake --workloads a,c \
     "--jvm-args=-Dscratch.trace=true" --out "$O/$st-base-$r" --work "$O/work" > "$O/$st-base-$r.log" 2>&1 || true
  mkdir -p "$O/$st-base-$r/err"
  for w in "$O"/work/*/; do cp "$w/run.err" "$O/$st-base-$r/err/$(basename "$w").err" 2>/dev/null || true; done
  rm -rf "${O:?}/work"
done; done
