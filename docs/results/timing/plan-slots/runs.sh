#!/bin/bash
# The default YCSB path (RocksDB, 2 000 records, only pancake.trace.file set) on workload <w>, <th>
# threads, <ops> operations, runs <first>..<last>; each run's silences (silences.py) on one line.
# usage: docs/results/timing/plan-slots/runs.sh <out> <w> <th> <ops> <first> <last> [load and run args...]
# (from the project root; PANCAKE_DIR=<worktree> runs another build). YCSB's workload D on workloadc:
#   ... c 1 100000 1 2 -p readproportion=0.95 -p insertproportion=0.05 -p requestdistribution=latest
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1"); w=$2; th=$3; ops=$4; a=$5; b=$6; shift 6
cd "${PANCAKE_DIR:-.}"
for i in $(seq "$a" "$b"); do
  d=$out/r$i; rm -rf "$d"; mkdir -p "$d"
  bin/ycsb load pancake -P workloads/workload$w -p recordcount=2000 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" "$@" > "$d/load.out" 2> "$d/load.err"
  bin/ycsb run pancake -P workloads/workload$w -p recordcount=2000 -p operationcount="$ops" -threads "$th" -p rocksdb.dir="$d/db" \
      -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" "$@" > "$d/run.out" 2> "$d/run.err"
  rm -rf "$d/db"
  echo "$(grep Throughput "$d/run.out" | cut -d, -f3 | cut -c1-8) ops/s | $(python3 "$here/silences.py" "$d")"
done
