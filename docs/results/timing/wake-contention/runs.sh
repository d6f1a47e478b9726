#!/bin/bash
# The default path with N YCSB threads (RocksDB, 2 000 records, only pancake.trace.file set), each run
# attacked with the label owners as ground truth (truth_audit.py).
# usage: docs/results/timing/wake-contention/runs.sh <out> <workload a|c> <threads> <ops> <first> <last> [run args...]
# (from the project root; PANCAKE_DIR=<worktree> runs another build). Needs <out>/dist-<w>.tsv:
#   bin/distribution -P workloads/workload<w> -p recordcount=2000 -o <out>/dist-<w>.tsv
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1"); w=$2; th=$3; ops=$4; a=$5; b=$6; shift 6
cd "${PANCAKE_DIR:-.}"
CP=$(cat pancake-tools/target/tools.classpath 2>/dev/null):pancake-core/target/classes
for i in $(seq "$a" "$b"); do
  d=$out/r$i; rm -rf "$d"; mkdir -p "$d"
  bin/ycsb load pancake -P workloads/workload$w -p recordcount=2000 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" > "$d/load.out" 2> "$d/load.err"
  CP=$(cat pancake-tools/target/tools.classpath):pancake-core/target/classes   # the load built the project
  if [ ! -f "$out/classes/Owners.class" ]; then
    mkdir -p "$out/classes" && javac -cp "$CP" -d "$out/classes" "$here/../default-path-repeats/Owners.java"
  fi
  bin/ycsb run pancake -P workloads/workload$w -p recordcount=2000 -p operationcount="$ops" -threads "$th" -p rocksdb.dir="$d/db" \
      -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" "$@" > "$d/run.out" 2> "$d/run.err"
  rm -rf "$d/db"
  java -cp "$CP:$out/classes" Owners "$d/state" > "$d/owners-end.txt"
  python3 "$here/truth_audit.py" "$d/run.trace" "$d/owners-end.txt" "$out/dist-$w.tsv" > "$d/truth.txt"
  echo "r$i $(grep Throughput "$d/run.out" | cut -d, -f3) ops/s | $(grep -E 'lag  [12]:' "$d/truth.txt" | tr '\n' ' ')"
done
