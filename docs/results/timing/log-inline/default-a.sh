#!/bin/bash
# The default path on workload A (one thread, RocksDB, 2 000 records, 3*10^4 operations, only
# pancake.trace.file set), run from each checkout in turns, each transcript audited (README.md).
# usage: default-a.sh <out dir> <rounds> <name>=<checkout> ...   (from any directory)
set -e
out=$1; n=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
(cd "${1#*=}" && bin/distribution -P workloads/workloada -p recordcount=2000 -o "$out/dist" > /dev/null)
for i in $(seq 1 "$n"); do
  for spec in "$@"; do
    name=${spec%%=*}; co=${spec#*=}; d=$out/$name$i; rm -rf "$d"; mkdir -p "$d"
    (cd "$co" && bin/ycsb load pancake -P workloads/workloada -p recordcount=2000 -p rocksdb.dir="$d/db" \
        -p pancake.state.dir="$d/state" > "$d/load.out" 2> "$d/load.err" \
      && bin/ycsb run pancake -P workloads/workloada -p recordcount=2000 -p operationcount=30000 -threads 1 \
        -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" \
        > "$d/run.out" 2> "$d/run.err")
    rm -rf "$d/db"
    echo "$name$i: $(grep Throughput "$d/run.out" | cut -d, -f3) ops/s"
  done
done
for spec in "$@"; do
  name=${spec%%=*}; co=${spec#*=}
  for i in $(seq 1 "$n"); do
    d=$out/$name$i
    (cd "$co" && bin/audit --scheme pancake --transcript "$d/run.trace" --distribution "$out/dist" --state-dir "$d/state") \
      > "$d/audit.txt" 2>&1 || true
    python3 "$here/../timing_audit.py" "$d/run.trace" 0.05 > "$d/timing.txt" 2>&1
    echo "$name$i: $(grep -m1 -iE 'leak' "$d/audit.txt")"
  done
done
