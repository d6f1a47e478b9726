#!/bin/bash
# The swap setting at more keys, in the worktree <tree> (probed: probe.patch applied there): one
# thread, RocksDB, <records> records, workload C, a uniform distribution declared while the
# workload is zipfian, a <window>-access window, <ops> operations; ../plan-ahead/planwatch.py notes
# the plans saved ahead (plans.txt); the JVM logs its safepoints (safepoints.txt).
# usage: docs/results/timing/plan-rehearsal/bigrun.sh <tree> <out> <records> <window> <ops>
here=$(cd "$(dirname "$0")" && pwd)
d=$(realpath -m "$2"); cd "$1" || exit 1
rm -rf "$d" && mkdir -p "$d"
bin/distribution -P workloads/workloadc -p recordcount="$3" -p requestdistribution=uniform -o "$d/uniform.tsv" > /dev/null
args="-p pancake.distribution.file=$d/uniform.tsv -p pancake.window.size=$4"
bin/ycsb load pancake -P workloads/workloadc -p recordcount="$3" -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" $args > "$d/load.out" 2> "$d/load.err"
taskset -c 0 python3 "$here/../plan-ahead/planwatch.py" "$d" "$d/plans.txt" &
w=$!
JAVA_OPTS="-Xlog:safepoint=info:file=$d/safepoints.txt" bin/ycsb run pancake -P workloads/workloadc -p recordcount="$3" \
    -p operationcount="$5" -threads 1 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" \
    -p pancake.trace.file="$d/run.trace" $args > "$d/run.out" 2> "$d/run.err"
touch "$d/done"; wait $w
rm -rf "$d/db"
