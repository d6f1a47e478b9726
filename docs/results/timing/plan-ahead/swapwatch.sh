#!/bin/bash
# The swap setting of ../swap-save (one thread, RocksDB, 2 000 records, workload C, a uniform
# distribution declared while the workload is zipfian, a 2*10^4-access window), runs
# <first>..<last> of this build, with planwatch.py noting when each plan saved ahead appeared
# (plans.txt) and ../plan-slots/silences.py on the trace.
# usage (from the project root): docs/results/timing/plan-ahead/swapwatch.sh <out> <first> <last>
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath -m "$1"); a=$2; b=$3
mkdir -p "$out"
[ -f "$out/uniform.tsv" ] || bin/distribution -P workloads/workloadc -p recordcount=2000 -p requestdistribution=uniform -o "$out/uniform.tsv" > /dev/null
args="-p pancake.distribution.file=$out/uniform.tsv -p pancake.window.size=20000"
for i in $(seq "$a" "$b"); do
  d=$out/r$i; rm -rf "$d"; mkdir -p "$d"
  bin/ycsb load pancake -P workloads/workloadc -p recordcount=2000 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" $args > "$d/load.out" 2> "$d/load.err"
  taskset -c 0 python3 "$here/planwatch.py" "$d" "$d/plans.txt" &
  w=$!
  bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 -p operationcount=100000 -threads 1 -p rocksdb.dir="$d/db" \
      -p pancake.state.dir="$d/state" -p pancake.trace.file="$d/run.trace" $args > "$d/run.out" 2> "$d/run.err"
  touch "$d/done"; wait $w
  rm -rf "$d/db"
  echo "== r$i $(grep Throughput "$d/run.out" | cut -d, -f3 | cut -c1-8) ops/s; plans saved at: $(tr '\n' ' ' < "$d/plans.txt")"
  python3 "$here/../plan-slots/silences.py" "$d"
done
