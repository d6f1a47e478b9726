#!/bin/bash
# The default path (YCSB C, RocksDB, 2 000 records, 3*10^4 operations, one thread, only
# pancake.trace.file set), run again and again, keeping each run's transcript and the ground truth
# of its state after the load and after the run (README.md).
# usage: docs/results/timing/default-path-repeats/runs.sh <out dir> <first> <last>   (from the project root)
set -e
out=$1; here=$(dirname "$0")
for i in $(seq "$2" "$3"); do
  d=$out/r$i; rm -rf "$d"; mkdir -p "$d"
  bin/ycsb load pancake -P workloads/workloadc -p recordcount=2000 -p rocksdb.dir="$d/db" \
      -p pancake.state.dir="$d/state" > "$d/load.out" 2> "$d/load.err"
  cp -a "$d/state" "$d/state-load"
  CP=$(cat pancake-tools/target/tools.classpath):pancake-core/target/classes   # the first load built the project
  if [ ! -f "$out/classes/Owners.class" ]; then
    mkdir -p "$out/classes" && javac -cp "$CP" -d "$out/classes" "$here/Owners.java"
  fi
  bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 -p operationcount=30000 -threads 1 \
      -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" > "$d/run.out" 2> "$d/run.err"
  java -cp "$CP:$out/classes" Owners "$d/state-load" > "$d/owners-load.txt"
  java -cp "$CP:$out/classes" Owners "$d/state" > "$d/owners-end.txt"
  rm -rf "$d/db"
  echo "run $i: $(grep Throughput "$d/run.out" | cut -d, -f3) ops/s"
done
