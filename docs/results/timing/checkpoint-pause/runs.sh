#!/usr/bin/env bash
# runs.sh <out> <rounds> <worktree>...: 8 threads, 5*10^4 records, 3*10^5 operations, pancake only,
# workloads A and C, on RocksDB then Redis, with the transcript (--trace), each worktree in turn.
# Each worktree carries a scratch patch (scratch-before.patch on the code before this change,
# scratch-after.patch after it) that prints every checkpoint's pause (PAUSE lines) and the trace's
# origin (TRACE line) on stderr with -Dscratch.pauses=true; pauses.py lines them up with the
# transcript. A run's directory: <out>/<worktree name>-<store>-<round>/{pancake-a,pancake-c}/, its
# tables in <out>/<worktree name>-<store>-<round>-out/.
set -eu
[ $# -ge 3 ] || { echo "usage: runs.sh <out> <rounds> <worktree>..." >&2; exit 2; }
O=$(realpath -m "$1"); rounds=$2; shift 2
[ -n "$O" ] && [ "$O" != / ] || { echo "bad <out>" >&2; exit 2; }
mkdir -p "$O"
for r in $(seq 1 "$rounds"); do
  for st in rocksdb redis; do
    for wt in "$@"; do
      name=$(basename "$wt"); run="$O/$name-$st-$r"
      (cd "$wt" && timeout 900 bin/pancake bench --store "$st" --records 50000 --ops 300000 --threads 8 --schemes pancake \
        --workloads a,c --trace "--jvm-args=-Dscratch.pauses=true" --out "$run-out" --work "$run" > "$run.log" 2>&1) || true
      rm -rf "$run"/pancake-*/rocksdb "$run"/pancake-*/state
    done
  done
done
