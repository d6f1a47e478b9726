#!/usr/bin/env bash
# r100k.sh <worktree with scratch.patch, built> <out>: RocksDB at 10^5 records, 8 threads, 3*10^5
# operations, A and C, TIGHT 1.1 (base) and 1.0 (tight), two rounds in turns
set -eu
[ $# -ge 2 ] || { echo "usage: r100k.sh <worktree> <out>" >&2; exit 2; }
wt=$1; O=$(realpath -m "$2")
cd "$wt" || exit 1
mkdir -p "$O"
for r in 1 2; do for v in base tight; do
  if [ $v = tight ]; then J="-Dscratch.tight=1.0"; else J=""; fi
  timeout 900 bin/pancake bench --store rocksdb --records 100000 --ops 300000 --threads 8 --schemes pancake --workloads a,c \
     "--jvm-args=$J" --out "$O/rocksdb-$v-$r" --work "$O/work" > "$O/rocksdb-$v-$r.log" 2>&1 || true
  rm -rf "${O:?}/work"
done; done
