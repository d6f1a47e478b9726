#!/bin/bash
# One run of the swap setting (../plan-ahead/swapwatch.sh's: one thread, RocksDB, 2 000 records,
# workload C, a uniform distribution declared while the workload is zipfian, a 2*10^4-access
# window) in the worktree <tree>, with the JVM's class-load log (classes.txt). For the probed
# runs, apply probe.patch in <tree> first (PROBE lines in run.err; then stretches.py).
# usage: docs/results/timing/plan-rehearsal/classrun.sh <tree> <out>
#   (<out>/../uniform.tsv: bin/distribution -P workloads/workloadc -p recordcount=2000
#    -p requestdistribution=uniform -o <out>/../uniform.tsv)
d=$(realpath -m "$2"); cd "$1" || exit 1
rm -rf "$d" && mkdir -p "$d"
args="-p pancake.distribution.file=$d/../uniform.tsv -p pancake.window.size=20000"
bin/ycsb load pancake -P workloads/workloadc -p recordcount=2000 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" $args > "$d/load.out" 2> "$d/load.err"
JAVA_OPTS="-Xlog:class+load=info:file=$d/classes.txt" bin/ycsb run pancake -P workloads/workloadc -p recordcount=2000 \
    -p operationcount=100000 -threads 1 -p rocksdb.dir="$d/db" -p pancake.state.dir="$d/state" \
    -p pancake.trace.file="$d/run.trace" $args > "$d/run.out" 2> "$d/run.err"
rm -rf "$d/db"
